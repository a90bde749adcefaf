// The end of a column chunk: its dictionary page (built at the fallback or at the end), its
// Bloom filter, the chunk's metadata, statistics and page index, then the reset for the next.
#include "strata/parquet/write/column_writer_internal.h"

namespace strata::parquet {

Status ColumnChunkWriter::Impl::BuildDictionaryPage() {
  if (dictionary_sealed_) return Status::OK();
  dictionary_header_.clear();
  dictionary_body_ = {};
  if (!dictionary_used_) return Status::OK();
  dictionary_scratch_.Clear();
  STRATA_RETURN_NOT_OK(dictionary_->WritePlain(&dictionary_scratch_));
  dictionary_entries_ = dictionary_->num_entries();
  // An overflowed dictionary is never used again (ResetChunk): its entries are in the PLAIN
  // body now, so free them before the codec's output is allocated.
  if (fell_back_) dictionary_.reset();
  // The body stays where it was made (the PLAIN entries, or the codec's output buffer) until
  // WriteChunk writes it: no copy into a page buffer of its own.
  STRATA_ASSIGN_OR_RETURN(dictionary_page_uncompressed_,
                          pages_.MakeDictionaryPage(dictionary_scratch_.span(), dictionary_entries_,
                                                    &dictionary_header_, &dictionary_body_));
  return Status::OK();
}

Status ColumnChunkWriter::Impl::SealDictionaryPage() {
  STRATA_RETURN_NOT_OK(BuildDictionaryPage());
  dictionary_sealed_ = true;
  if (!dictionary_header_.empty() && dictionary_body_.data() != dictionary_scratch_.data()) {
    sealed_dictionary_body_.Clear();
    STRATA_RETURN_NOT_OK(
        sealed_dictionary_body_.Append(dictionary_body_.data(), static_cast<int64_t>(dictionary_body_.size())));
    dictionary_body_ = sealed_dictionary_body_.span();
    // The Bloom filter hashes the entries from their PLAIN bytes at the chunk's end.
    if (!options_.bloom_filter) dictionary_scratch_.Release();
    // The codec's output buffer grew to the dictionary page: on lineitem 1.2 MB in each of
    // three columns whose PLAIN data pages take 160 KB.
    pages_.ReleaseScratch();
  }
  // Freed now rather than at the chunk's end: on lineitem's first row group each of the four
  // high-cardinality columns held 2 MiB of entries plus the PLAIN and compressed page until the
  // row group was written (convert's pool peak 80 -> 70 MB at one thread).
  dictionary_.reset();
  return Status::OK();
}

Status ColumnChunkWriter::Impl::BuildBloomFilter() {
  bloom_.reset();
  if (!options_.bloom_filter) return Status::OK();
  const int64_t fallback_hashes = hashes_.size() / 8;
  int64_t ndv = options_.bloom_filter_ndv;
  if (ndv == 0) ndv = std::max<int64_t>(1, (dictionary_used_ ? dictionary_entries_ : 0) + fallback_hashes);
  STRATA_ASSIGN_OR_RETURN(bloom_, BloomFilter::Make(pool_, BloomFilter::OptimalNumBytes(ndv, options_.bloom_filter_fpp)));
  bloom_->InsertHashes(hashes_.data_as<uint64_t>(), fallback_hashes);
  if (dictionary_used_) {
    // The dictionary's entries, from its PLAIN page body (still in dictionary_scratch_).
    const int64_t n = dictionary_entries_;
    STRATA_RETURN_NOT_OK(hashes_.ReserveDiscardingContents(n * 8));
    auto* hashes = hashes_.mutable_data_as<uint64_t>();
    if (is_byte_array()) {
      const uint8_t* p = dictionary_scratch_.data();
      for (int64_t i = 0; i < n; ++i) {
        uint32_t length;
        std::memcpy(&length, p, 4);
        hashes[i] = BloomFilter::Hash(p + 4, length);
        p += 4 + length;
      }
    } else {
      BloomFilter::HashFixed(dictionary_scratch_.data(), n, gatherer_.value_width(), hashes);
    }
    bloom_->InsertHashes(hashes, n);
  }
  hashes_.Clear();
  return Status::OK();
}

Status ColumnChunkWriter::Impl::FinishChunk() {
  STRATA_RETURN_NOT_OK(FlushPage());
  STRATA_RETURN_NOT_OK(BuildDictionaryPage());
  return BuildBloomFilter();
}

Result<WrittenChunk> ColumnChunkWriter::Impl::WriteChunk(OutputSink* sink) {
  WrittenChunk out;
  const int64_t start = sink->position();
  ColumnMetaData meta;
  meta.type = column_.physical_type;
  meta.path_in_schema = column_.path;
  meta.codec = static_cast<CompressionCodec>(options_.codec);
  meta.num_values = chunk_levels_;
  const bool has_dictionary_page = !dictionary_header_.empty();
  if (has_dictionary_page) {
    meta.dictionary_page_offset = start;
    STRATA_RETURN_NOT_OK(sink->Write(dictionary_header_.data(), static_cast<int64_t>(dictionary_header_.size())));
    STRATA_RETURN_NOT_OK(sink->Write(dictionary_body_.data(), static_cast<int64_t>(dictionary_body_.size())));
  }
  meta.data_page_offset = sink->position();
  STRATA_RETURN_NOT_OK(chunk_.ForEachPiece([sink](std::span<const uint8_t> piece) {
    return sink->Write(piece.data(), static_cast<int64_t>(piece.size()));
  }));
  meta.total_compressed_size = sink->position() - start;
  meta.total_uncompressed_size = uncompressed_bytes_ + (has_dictionary_page ? dictionary_page_uncompressed_ : 0);

  // Encodings: the dictionary page's PLAIN, the data pages' value encodings, RLE for levels.
  auto add_encoding = [&](Encoding e) {
    if (std::find(meta.encodings.begin(), meta.encodings.end(), e) == meta.encodings.end()) meta.encodings.push_back(e);
  };
  std::vector<PageEncodingStats> encoding_stats;
  if (has_dictionary_page) {
    add_encoding(Encoding::kPlain);
    encoding_stats.push_back({PageType::kDictionaryPage, Encoding::kPlain, 1});
  }
  for (const PageCount& count : page_counts_) {
    add_encoding(count.encoding);
    encoding_stats.push_back({count.type, count.encoding, count.count});
  }
  if (column_.max_definition_level > 0 || column_.max_repetition_level > 0) add_encoding(Encoding::kRle);
  meta.encoding_stats = std::move(encoding_stats);

  if (options_.statistics) {
    meta.statistics = chunk_stats_.ToThrift(StatisticsOptions{options_.max_statistics_bytes});
  }
  out.chunk.file_offset = start;
  SizeStatistics size;
  if (is_byte_array()) size.unencoded_byte_array_data_bytes = chunk_unencoded_bytes_;
  if (column_.max_definition_level > 0) size.definition_level_histogram = chunk_def_histogram_;
  if (column_.max_repetition_level > 0) size.repetition_level_histogram = chunk_rep_histogram_;
  if (size.unencoded_byte_array_data_bytes || size.definition_level_histogram || size.repetition_level_histogram) {
    meta.size_statistics = std::move(size);
  }
  if (options_.page_index) {
    OffsetIndex offsets = offset_index_.Finish();
    for (PageLocation& location : offsets.page_locations) location.offset += meta.data_page_offset;
    out.offset_index = std::move(offsets);
    if (options_.statistics) out.column_index = column_index_.Finish();
  }
  out.chunk.meta_data = std::move(meta);
  ResetChunk();
  pages_.StartChunk(++chunks_written_);
  return out;
}

Result<std::optional<std::pair<int64_t, int32_t>>> ColumnChunkWriter::Impl::WriteBloomFilter(OutputSink* sink) {
  if (bloom_ == nullptr) return std::optional<std::pair<int64_t, int32_t>>();
  bloom_bytes_.Clear();
  STRATA_RETURN_NOT_OK(bloom_->WriteTo(&bloom_bytes_));
  std::span<const uint8_t> stored = bloom_bytes_.span();
  if (encryption_ != nullptr) {
    // The chunk WriteChunk just wrote.
    bloom_modules_.Clear();
    STRATA_RETURN_NOT_OK(encryptor_->EncryptBloomFilter(encryption_->key, chunks_written_ - 1, column_.column_index,
                                                        stored, bloom_->num_bytes(), &bloom_modules_));
    stored = bloom_modules_.span();
  }
  const int64_t offset = sink->position();
  STRATA_RETURN_NOT_OK(sink->Write(stored.data(), static_cast<int64_t>(stored.size())));
  bloom_.reset();
  return std::optional(std::pair<int64_t, int32_t>(offset, static_cast<int32_t>(stored.size())));
}

void ColumnChunkWriter::Impl::ResetChunk() {
  chunk_.Clear();
  dictionary_header_.clear();
  dictionary_body_ = {};
  if (fell_back_) {
    // A column whose dictionary overflowed is taken to be high-cardinality: later chunks go
    // straight to the fallback encoding, without filling (and dropping) a dictionary each time.
    dictionary_.reset();
    dictionary_scratch_.Release();
    sealed_dictionary_body_.Release();
    remap_.Release();
  }
  fell_back_ = false;
  dictionary_sealed_ = false;
  if (dictionary_ != nullptr) dictionary_->Clear();
  dictionary_active_ = dictionary_ != nullptr;
  dictionary_used_ = false;
  remap_valid_ = false;
  chunk_stats_.Reset();
  column_index_.Reset();
  offset_index_.Reset();
  std::fill(chunk_def_histogram_.begin(), chunk_def_histogram_.end(), 0);
  std::fill(chunk_rep_histogram_.begin(), chunk_rep_histogram_.end(), 0);
  page_counts_.clear();
  chunk_rows_ = chunk_levels_ = chunk_values_ = chunk_unencoded_bytes_ = 0;
  uncompressed_bytes_ = dictionary_page_uncompressed_ = dictionary_entries_ = 0;
}

}  // namespace strata::parquet
