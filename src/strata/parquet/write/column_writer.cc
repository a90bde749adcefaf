#include "strata/parquet/write/column_writer.h"

#include "strata/parquet/write/column_writer_internal.h"

#include <algorithm>

namespace strata::parquet {
namespace {

// Levels handled per step: small enough that the page limits are checked often, large enough
// that the per-step overhead (gathering, statistics calls) vanishes.
constexpr int64_t kMiniBatchLevels = 4096;

int32_t CheckedInt32(int64_t value) { return static_cast<int32_t>(value); }

}  // namespace

// ---- levels and values ------------------------------------------------------------------------

Status ColumnChunkWriter::Impl::Write(const ShreddedLeaf& leaf) {
  const int64_t n = leaf.num_levels;
  const int16_t* rep = leaf.rep_levels;
  const int16_t slot = leaf.value_slot_definition_level;
  if (leaf.values != nullptr && leaf.values->type->id() == TypeId::kDictionary) {
    STRATA_RETURN_NOT_OK(PrepareDictionaryInput(leaf.values->dictionary));
  }
  // Content-defined chunking: the levels where pages must end, whatever the limits say.
  std::span<const int64_t> boundaries;
  if (chunker_ != nullptr) {
    STRATA_ASSIGN_OR_RETURN(boundaries, chunker_->FindBoundaries(leaf));
  }
  size_t next_boundary = 0;
  // Walk the written elements range by range alongside the levels.
  size_t range = 0;
  int64_t element = leaf.ranges.empty() ? 0 : leaf.ranges[0].first;
  int64_t level = 0;
  while (level < n) {
    for (; next_boundary < boundaries.size() && boundaries[next_boundary] <= level; ++next_boundary) {
      if (boundaries[next_boundary] == level) STRATA_RETURN_NOT_OK(FlushPage());
    }
    const int64_t limit = next_boundary < boundaries.size() ? boundaries[next_boundary] : n;
    const int64_t rows_left = std::max<int64_t>(1, file_.data_page_rows - page_rows_);
    const int64_t mini_batch = PageRoomLevels();
    int64_t end;
    int64_t rows;
    if (rep == nullptr) {
      rows = std::min({limit - level, mini_batch, rows_left});
      end = level + rows;
    } else {
      // End at a row start: after `rows_left` rows, past `mini_batch` levels, or at a boundary.
      rows = 0;
      end = level;
      while (end < limit) {
        if (rep[end] == 0) {
          if (rows > 0 && (rows >= rows_left || end - level >= mini_batch)) break;
          ++rows;
        }
        ++end;
      }
    }
    STRATA_RETURN_NOT_OK(WriteLevels(leaf, level, end, rows));
    // Elements: one per level with def >= slot.
    int64_t slots = end - level;
    if (leaf.def_levels != nullptr && slot > 0) {
      slots = 0;
      for (int64_t i = level; i < end; ++i) slots += leaf.def_levels[i] >= slot;
    }
    while (slots > 0) {
      if (range >= leaf.ranges.size()) {
        return Status::Invalid("column '{}': the levels reference more values than the array holds",
                               column_.dotted_path);
      }
      const int64_t take = std::min(slots, leaf.ranges[range].second - element);
      STRATA_RETURN_NOT_OK(WriteValues(leaf, element, element + take));
      element += take;
      slots -= take;
      if (element == leaf.ranges[range].second && ++range < leaf.ranges.size()) element = leaf.ranges[range].first;
    }
    if (dictionary_active_ &&
        (dictionary_->plain_size() > options_.dictionary_page_bytes || DictionaryIneffective())) {
      // The dictionary is full, or saves nothing: this page stays dictionary-encoded, later
      // ones use the fallback encoding.
      STRATA_RETURN_NOT_OK(FlushPage());
      dictionary_active_ = false;
      fell_back_ = true;
      STRATA_RETURN_NOT_OK(SealDictionaryPage());
    } else if (PageFull()) {
      STRATA_RETURN_NOT_OK(FlushPage());
    }
    level = end;
  }
  return Status::OK();
}

bool ColumnChunkWriter::Impl::DictionaryIneffective() const {
  const int64_t values = chunk_values_ + page_values_;
  if (values < 1024 || options_.dictionary_min_saving <= 0) return false;
  const double indices = static_cast<double>(values) * dictionary_->index_bit_width() / 8;
  const double plain = is_byte_array()
                           ? 4.0 * static_cast<double>(values) +
                                 static_cast<double>(chunk_unencoded_bytes_ + page_unencoded_bytes_)
                           : static_cast<double>(values) * dictionary_->value_width();
  return static_cast<double>(dictionary_->plain_size()) + indices > (1 - options_.dictionary_min_saving) * plain;
}

Status ColumnChunkWriter::Impl::WriteLevels(const ShreddedLeaf& leaf, int64_t begin, int64_t end, int64_t rows) {
  const int64_t n = end - begin;
  const int16_t max_def = column_.max_definition_level;
  if (bitmap_levels_) {
    // Level i is element i of the leaf (a top-level leaf is written whole).
    const ArrayData& values = *leaf.values;
    const int64_t at = page_levels_;
    const int64_t bytes = bitmap::BytesForBits(at + n);
    STRATA_RETURN_NOT_OK(def_bits_.GrowForAppend(bytes));
    def_bits_.set_size(bytes);
    const uint8_t* validity = values.null_count == 0 ? nullptr : values.validity_data();
    int64_t defined = n;
    if (validity != nullptr) {
      bitmap::CopyBitmap(validity, values.offset + begin, n, def_bits_.mutable_data(), at);
      defined = bitmap::CountSetBits(validity, values.offset + begin, n);
    } else {
      bitmap::SetBitsTo(def_bits_.mutable_data(), at, n, true);
    }
    page_def_histogram_[1] += defined;
    page_def_histogram_[0] += n - defined;
    page_nulls_ += n - defined;
  } else if (max_def > 0) {
    const int16_t* def = leaf.def_levels + begin;
    STRATA_RETURN_NOT_OK(def_encoder_.Put(def, n));
    if (max_def == 1) {
      const int64_t defined = CountLevelsEqual(def, n, 1);
      page_def_histogram_[1] += defined;
      page_def_histogram_[0] += n - defined;
      page_nulls_ += n - defined;
    } else {
      for (int64_t i = 0; i < n; ++i) ++page_def_histogram_[static_cast<size_t>(def[i])];
      page_nulls_ += n - CountLevelsEqual(def, n, max_def);
    }
  }
  if (column_.max_repetition_level > 0) {
    const int16_t* rep = leaf.rep_levels + begin;
    STRATA_RETURN_NOT_OK(rep_encoder_.Put(rep, n));
    for (int64_t i = 0; i < n; ++i) ++page_rep_histogram_[static_cast<size_t>(rep[i])];
  }
  page_levels_ += n;
  page_rows_ += rows;
  return Status::OK();
}

Status ColumnChunkWriter::Impl::PrepareDictionaryInput(const ArrayDataPtr& dictionary) {
  if (dictionary == nullptr) return Status::Invalid("column '{}': a dictionary array without its dictionary",
                                                    column_.dotted_path);
  if (dictionary == input_dictionary_) return Status::OK();
  // Each new dictionary is gathered and hashed once; its indices then map through remap_.
  GatheredValues values;
  STRATA_RETURN_NOT_OK(gatherer_.Gather(*dictionary, 0, dictionary->length, &values));
  if (values.count != dictionary->length) {
    return Status::Invalid("column '{}': dictionaries with null values are not supported", column_.dotted_path);
  }
  const int64_t n = values.count;
  if (is_byte_array()) {
    STRATA_RETURN_NOT_OK(dictionary_values_.ReserveDiscardingContents(n * static_cast<int64_t>(sizeof(ByteArrayView))));
    std::memcpy(dictionary_values_.mutable_data(), values.views, static_cast<size_t>(n) * sizeof(ByteArrayView));
  } else {
    const int64_t bytes = n * gatherer_.value_width();
    STRATA_RETURN_NOT_OK(dictionary_values_.ReserveDiscardingContents(bytes));
    if (bytes > 0) std::memcpy(dictionary_values_.mutable_data(), values.fixed, static_cast<size_t>(bytes));
  }
  STRATA_RETURN_NOT_OK(remap_.ReserveDiscardingContents(n * 4));
  input_dictionary_ = dictionary;
  remap_valid_ = false;
  return Status::OK();
}

Status ColumnChunkWriter::Impl::WriteValues(const ShreddedLeaf& leaf, int64_t begin, int64_t end) {
  const ArrayData& array = *leaf.values;
  if (array.type->id() != TypeId::kDictionary) {
    GatheredValues values;
    // Fixed-width values bound for a non-dictionary page go straight into the page buffer
    // (compacted and converted there, without a copy through scratch).
    const bool into_page = !dictionary_active_ && !is_byte_array() && !is_boolean();
    STRATA_RETURN_NOT_OK(gatherer_.Gather(array, begin, end, &values, into_page ? &values_ : nullptr));
    return EncodeGathered(values, nullptr, into_page);
  }
  const int64_t dictionary_length = input_dictionary_->length;
  const int32_t* indices;
  int64_t count;
  STRATA_RETURN_NOT_OK(gatherer_.GatherIndices(array, begin, end, dictionary_length, &indices, &count));
  if (dictionary_active_ && !remap_valid_) {
    auto* remap = remap_.mutable_data_as<int32_t>();
    if (is_byte_array()) {
      STRATA_RETURN_NOT_OK(dictionary_->PutByteArrays(dictionary_values_.data_as<ByteArrayView>(), dictionary_length, remap));
    } else {
      STRATA_RETURN_NOT_OK(dictionary_->PutFixed(dictionary_values_.data(), dictionary_length, remap));
    }
    remap_valid_ = true;
  }
  // Values by index, for statistics and for pages after a fallback.
  GatheredValues values;
  values.count = count;
  if (is_byte_array()) {
    STRATA_RETURN_NOT_OK(gathered_.ReserveScratch(count * static_cast<int64_t>(sizeof(ByteArrayView))));
    auto* views = gathered_.mutable_data_as<ByteArrayView>();
    const auto* entries = dictionary_values_.data_as<ByteArrayView>();
    for (int64_t i = 0; i < count; ++i) {
      views[i] = entries[indices[i]];
      values.byte_array_bytes += views[i].length;
    }
    values.views = views;
  } else {
    const int width = gatherer_.value_width();
    STRATA_RETURN_NOT_OK(gathered_.ReserveScratch(count * width));
    uint8_t* out = gathered_.mutable_data();
    const uint8_t* entries = dictionary_values_.data();
    for (int64_t i = 0; i < count; ++i) {
      std::memcpy(out + i * width, entries + static_cast<int64_t>(indices[i]) * width, static_cast<size_t>(width));
    }
    values.fixed = out;
  }
  if (!dictionary_active_) return EncodeGathered(values, nullptr);
  // Chunk dictionary indices of these values.
  STRATA_RETURN_NOT_OK(dictionary_scratch_.ReserveScratch(count * 4));
  auto* mapped = dictionary_scratch_.mutable_data_as<int32_t>();
  const auto* remap = remap_.data_as<int32_t>();
  for (int64_t i = 0; i < count; ++i) mapped[i] = remap[indices[i]];
  return EncodeGathered(values, mapped);
}

Status ColumnChunkWriter::Impl::EncodeGathered(const GatheredValues& values, const int32_t* dictionary_indices,
                                              bool in_page) {
  const int64_t n = values.count;
  if (n == 0) return Status::OK();
  if (options_.statistics) {
    if (is_boolean()) {
      page_stats_.UpdateBooleans(values.bits, values.bit_offset, n);
    } else if (is_byte_array()) {
      STRATA_RETURN_NOT_OK(page_stats_.UpdateByteArrays(values.views, n));
    } else {
      STRATA_RETURN_NOT_OK(page_stats_.UpdateFixed(values.fixed, n));
    }
  }
  if (dictionary_active_) {
    const int64_t at = values_.size();
    STRATA_RETURN_NOT_OK(values_.GrowForAppend(at + n * 4));
    auto* indices = reinterpret_cast<int32_t*>(values_.mutable_data() + at);
    if (dictionary_indices != nullptr) {
      std::memcpy(indices, dictionary_indices, static_cast<size_t>(n) * 4);
    } else if (is_byte_array()) {
      STRATA_RETURN_NOT_OK(dictionary_->PutByteArrays(values.views, n, indices));
    } else {
      STRATA_RETURN_NOT_OK(dictionary_->PutFixed(values.fixed, n, indices));
    }
    values_.set_size(at + n * 4);
  } else {
    if (is_boolean()) {
      const int64_t bits_before = page_values_;
      STRATA_RETURN_NOT_OK(values_.GrowForAppend(bitmap::BytesForBits(bits_before + n)));
      STRATA_RETURN_NOT_OK(values_.ResizeZeroed(bitmap::BytesForBits(bits_before + n)));
      bitmap::CopyBitmap(values.bits, values.bit_offset, n, values_.mutable_data(), bits_before);
    } else if (is_byte_array()) {
      STRATA_RETURN_NOT_OK(values_.GrowForAppend(values_.size() + 4 * n + values.byte_array_bytes));
      STRATA_RETURN_NOT_OK(PlainEncodeByteArrays(values.views, n, &values_));
    } else if (!in_page) {
      STRATA_RETURN_NOT_OK(values_.Append(values.fixed, n * gatherer_.value_width()));
    }
    STRATA_RETURN_NOT_OK(bloom_.AddValues(values));
  }
  page_values_ += n;
  page_unencoded_bytes_ += values.byte_array_bytes;
  return Status::OK();
}

int64_t ColumnChunkWriter::Impl::PageEstimate() const {
  int64_t estimate = values_.size();
  if (dictionary_active_) {
    estimate = page_values_ * std::max(1, dictionary_->index_bit_width()) / 8;
  }
  const int level_bits = def_encoder_.bit_width() + rep_encoder_.bit_width();
  return estimate + page_levels_ * level_bits / 8;
}

bool ColumnChunkWriter::Impl::PageFull() const {
  return page_rows_ >= file_.data_page_rows || PageEstimate() >= column_.page_bytes;
}

int64_t ColumnChunkWriter::Impl::PageRoomLevels() const {
  // Bits a level adds at most: its value (fixed width, or a dictionary index) and its levels.
  // Byte arrays and booleans: a mini-batch is small beside a page, or its size unknown ahead.
  int64_t bits = def_encoder_.bit_width() + rep_encoder_.bit_width();
  if (dictionary_active_) {
    bits += std::max(1, dictionary_->index_bit_width());
  } else if (!is_byte_array() && !is_boolean()) {
    bits += 8 * gatherer_.value_width();
  } else {
    return kMiniBatchLevels;
  }
  const int64_t room = (column_.page_bytes - PageEstimate()) * 8 / std::max<int64_t>(bits, 1);
  return std::clamp<int64_t>(room, 1, kMiniBatchLevels);
}

// ---- pages --------------------------------------------------------------------------------------

Result<std::span<const uint8_t>> ColumnChunkWriter::Impl::EncodePageValues(Encoding* encoding) {
  const int64_t n = page_values_;
  encoded_.Clear();
  // A page without values (all null) needs no dictionary: written in the fallback encoding, it
  // spares an all-null chunk an empty dictionary page (an empty compressed block some readers'
  // codecs refuse).
  if (dictionary_active_ && n > 0) {
    *encoding = Encoding::kRleDictionary;
    const int width = dictionary_->index_bit_width();
    const uint8_t width_byte = static_cast<uint8_t>(width);
    STRATA_RETURN_NOT_OK(encoded_.Append(&width_byte, 1));
    index_encoder_.set_bit_width(width);
    STRATA_RETURN_NOT_OK(index_encoder_.Put(values_.data_as<int32_t>(), n));
    STRATA_RETURN_NOT_OK(index_encoder_.FlushTo(&encoded_));
    return encoded_.span();
  }
  *encoding = options_.encoding;
  switch (options_.encoding) {
    case Encoding::kPlain:
      return values_.span();
    case Encoding::kRle: {  // booleans: 4-byte length, then RLE/bit-packed runs of width 1
      STRATA_RETURN_NOT_OK(dictionary_scratch_.ReserveScratch(n));
      uint8_t* bytes = dictionary_scratch_.mutable_data();
      for (int64_t i = 0; i < n; ++i) bytes[i] = bitmap::GetBit(values_.data(), i);
      index_encoder_.set_bit_width(1);
      STRATA_RETURN_NOT_OK(index_encoder_.Put(bytes, n));
      STRATA_RETURN_NOT_OK(index_encoder_.FlushTo(&encoded_, /*length_prefix=*/true));
      return encoded_.span();
    }
    case Encoding::kDeltaBinaryPacked:
      if (column_.physical_type == PhysicalType::kInt32) {
        STRATA_RETURN_NOT_OK(delta32_.Put(values_.data_as<int32_t>(), n));
        STRATA_RETURN_NOT_OK(delta32_.FlushTo(&encoded_));
      } else {
        STRATA_RETURN_NOT_OK(delta64_.Put(values_.data_as<int64_t>(), n));
        STRATA_RETURN_NOT_OK(delta64_.FlushTo(&encoded_));
      }
      return encoded_.span();
    case Encoding::kByteStreamSplit:
      STRATA_RETURN_NOT_OK(ByteStreamSplitEncode(values_.data(), n, gatherer_.value_width(), &encoded_));
      return encoded_.span();
    case Encoding::kAlp:  // FLOAT or DOUBLE (the options were validated against the type)
      if (column_.physical_type == PhysicalType::kFloat) {
        STRATA_RETURN_NOT_OK(alp_float_.Encode(values_.data_as<float>(), n, &encoded_));
      } else {
        STRATA_RETURN_NOT_OK(alp_double_.Encode(values_.data_as<double>(), n, &encoded_));
      }
      return encoded_.span();
    case Encoding::kDeltaLengthByteArray:
    case Encoding::kDeltaByteArray: {
      // The page holds PLAIN bytes (views into batches do not outlive them): view them again.
      STRATA_RETURN_NOT_OK(gathered_.ReserveScratch(n * static_cast<int64_t>(sizeof(ByteArrayView))));
      auto* views = gathered_.mutable_data_as<ByteArrayView>();
      if (column_.physical_type == PhysicalType::kFixedLenByteArray) {
        const int width = gatherer_.value_width();
        for (int64_t i = 0; i < n; ++i) views[i] = {values_.data() + i * width, static_cast<uint32_t>(width)};
      } else {
        const uint8_t* p = values_.data();
        for (int64_t i = 0; i < n; ++i) {
          uint32_t length;
          std::memcpy(&length, p, 4);
          views[i] = {p + 4, length};
          p += 4 + length;
        }
      }
      if (options_.encoding == Encoding::kDeltaLengthByteArray) {
        STRATA_RETURN_NOT_OK(DeltaLengthByteArrayEncode(pool_, views, n, &encoded_));
      } else {
        STRATA_RETURN_NOT_OK(DeltaByteArrayEncode(pool_, views, n, &encoded_));
      }
      return encoded_.span();
    }
    default:
      return Status::Invalid("column '{}': cannot write {} pages", column_.dotted_path, EncodingName(options_.encoding));
  }
}

Status ColumnChunkWriter::Impl::FlushPage() {
  if (page_levels_ == 0) return Status::OK();
  Encoding encoding;
  STRATA_ASSIGN_OR_RETURN(std::span<const uint8_t> values, EncodePageValues(&encoding));
  def_bytes_.Clear();
  rep_bytes_.Clear();
  if (column_.max_repetition_level > 0) STRATA_RETURN_NOT_OK(rep_encoder_.FlushTo(&rep_bytes_, v1_));
  if (bitmap_levels_) {
    STRATA_RETURN_NOT_OK(EncodeBitmapLevels(def_bits_.data(), page_levels_, v1_, &def_bytes_));
    def_bits_.Clear();
  } else if (column_.max_definition_level > 0) {
    STRATA_RETURN_NOT_OK(def_encoder_.FlushTo(&def_bytes_, v1_));
  }
  // Repetition levels come first in the page, then definition levels.
  std::span<const uint8_t> levels;
  if (rep_bytes_.size() > 0) {
    STRATA_RETURN_NOT_OK(rep_bytes_.Append(def_bytes_.data(), def_bytes_.size()));
    levels = rep_bytes_.span();
  } else {
    levels = def_bytes_.span();
  }
  const int64_t page_offset = chunk_.size();
  PageHeader header;
  if (v1_) {
    header.type = PageType::kDataPage;
    DataPageHeader page;
    page.num_values = CheckedInt32(page_levels_);
    page.encoding = encoding;
    page.definition_level_encoding = Encoding::kRle;
    page.repetition_level_encoding = Encoding::kRle;
    header.data_page_header = page;
    STRATA_ASSIGN_OR_RETURN(const int64_t bytes, pages_.AppendDataPage(std::move(header), levels, values, true, &chunk_));
    uncompressed_bytes_ += bytes;
  } else {
    header.type = PageType::kDataPageV2;
    DataPageHeaderV2 page;
    page.num_values = CheckedInt32(page_levels_);
    page.num_nulls = CheckedInt32(page_nulls_);
    page.num_rows = CheckedInt32(page_rows_);
    page.encoding = encoding;
    page.definition_levels_byte_length = CheckedInt32(def_bytes_.size());
    page.repetition_levels_byte_length =
        CheckedInt32(static_cast<int64_t>(levels.size()) - def_bytes_.size());
    page.is_compressed = pages_.compresses();
    header.data_page_header_v2 = page;
    STRATA_ASSIGN_OR_RETURN(const int64_t bytes, pages_.AppendDataPage(std::move(header), levels, values, false, &chunk_));
    uncompressed_bytes_ += bytes;
  }
  const PageType type = v1_ ? PageType::kDataPage : PageType::kDataPageV2;
  bool counted = false;
  for (PageCount& count : page_counts_) {
    if (count.type == type && count.encoding == encoding) {
      ++count.count;
      counted = true;
    }
  }
  if (!counted) page_counts_.push_back({type, encoding, 1});
  if (encoding == Encoding::kRleDictionary) dictionary_used_ = true;

  if (options_.page_index) {
    offset_index_.AddPage(page_offset, CheckedInt32(chunk_.size() - page_offset), chunk_rows_,
                          is_byte_array() ? std::optional<int64_t>(page_unencoded_bytes_) : std::nullopt);
    if (options_.statistics) {
      page_stats_.AddNulls(page_nulls_);
      const bool has_def = column_.max_definition_level > 0;
      const bool has_rep = column_.max_repetition_level > 0;
      column_index_.AddPage(page_stats_, has_def ? std::span<const int64_t>(page_def_histogram_) : std::span<const int64_t>(),
                            has_rep ? std::span<const int64_t>(page_rep_histogram_) : std::span<const int64_t>());
    }
  } else if (options_.statistics) {
    page_stats_.AddNulls(page_nulls_);
  }
  if (options_.statistics) STRATA_RETURN_NOT_OK(chunk_stats_.Merge(page_stats_));
  page_stats_.Reset();
  for (size_t i = 0; i < page_def_histogram_.size(); ++i) chunk_def_histogram_[i] += page_def_histogram_[i];
  for (size_t i = 0; i < page_rep_histogram_.size(); ++i) chunk_rep_histogram_[i] += page_rep_histogram_[i];
  std::fill(page_def_histogram_.begin(), page_def_histogram_.end(), 0);
  std::fill(page_rep_histogram_.begin(), page_rep_histogram_.end(), 0);
  chunk_rows_ += page_rows_;
  chunk_levels_ += page_levels_;
  chunk_values_ += page_values_;
  chunk_unencoded_bytes_ += page_unencoded_bytes_;
  page_levels_ = page_values_ = page_rows_ = page_nulls_ = page_unencoded_bytes_ = 0;
  values_.Clear();
  return Status::OK();
}

// ---- the chunk's end: dictionary page, Bloom filter, metadata and page index, reset -----------

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

Status ColumnChunkWriter::Impl::FinishChunk() {
  STRATA_RETURN_NOT_OK(FlushPage());
  STRATA_RETURN_NOT_OK(BuildDictionaryPage());
  // The dictionary's entries, from its PLAIN page body (still in dictionary_scratch_).
  return bloom_.Build(dictionary_scratch_.span(), dictionary_used_ ? dictionary_entries_ : 0);
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
  // The chunk WriteChunk just wrote.
  return bloom_.Write(sink, encryptor_, encryption_, chunks_written_ - 1, column_.column_index);
}

void ColumnChunkWriter::Impl::ResetChunk() {
  chunk_.Clear();
  dictionary_header_.clear();
  dictionary_body_ = {};
  if (fell_back_) {
    // A column whose dictionary overflowed (or saved nothing) is taken to be high-cardinality:
    // later chunks go straight to the fallback encoding, without filling (and dropping) a
    // dictionary each time.
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
  if (chunker_ != nullptr) chunker_->Reset();
  chunk_stats_.Reset();
  column_index_.Reset();
  offset_index_.Reset();
  std::fill(chunk_def_histogram_.begin(), chunk_def_histogram_.end(), 0);
  std::fill(chunk_rep_histogram_.begin(), chunk_rep_histogram_.end(), 0);
  page_counts_.clear();
  chunk_rows_ = chunk_levels_ = chunk_values_ = chunk_unencoded_bytes_ = 0;
  uncompressed_bytes_ = dictionary_page_uncompressed_ = dictionary_entries_ = 0;
}

// ---- the public shell ------------------------------------------------------------------------------

Result<std::unique_ptr<ColumnChunkWriter>> ColumnChunkWriter::Make(const WriterColumn& column,
                                                                   const FileWriteOptions& options,
                                                                   const encryption::FileEncryptor* encryptor,
                                                                   MemoryPool* pool) {
  auto impl = std::make_unique<Impl>(column, options, encryptor, pool);
  STRATA_RETURN_NOT_OK(impl->Init());
  return std::unique_ptr<ColumnChunkWriter>(new ColumnChunkWriter(std::move(impl)));
}

ColumnChunkWriter::ColumnChunkWriter(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
ColumnChunkWriter::~ColumnChunkWriter() = default;

Status ColumnChunkWriter::Write(const ShreddedLeaf& leaf) { return impl_->Write(leaf); }
Status ColumnChunkWriter::FinishChunk() { return impl_->FinishChunk(); }
Result<WrittenChunk> ColumnChunkWriter::WriteChunk(OutputSink* sink) { return impl_->WriteChunk(sink); }
Result<std::optional<std::pair<int64_t, int32_t>>> ColumnChunkWriter::WriteBloomFilter(OutputSink* sink) {
  return impl_->WriteBloomFilter(sink);
}
Status ColumnChunkWriter::ReleaseBuffers() { return impl_->ReleaseBuffers(); }
int64_t ColumnChunkWriter::buffered_bytes() const { return impl_->buffered_bytes(); }
int64_t ColumnChunkWriter::num_rows() const { return impl_->num_rows(); }
int64_t ColumnChunkWriter::memory_size() const { return impl_->memory_size(); }

}  // namespace strata::parquet