// ColumnChunkWriter::Impl, declared apart from column_writer.cc, which implements it, to keep
// that file readable. Private to the writer; not installed (_internal.h).
#pragma once

#include "strata/parquet/write/column_writer.h"

#include <algorithm>
#include <cstring>
#include <limits>

#include "strata/array/bitmap.h"
#include "strata/memory/block_buffer.h"
#include "strata/parquet/encoding/alp.h"
#include "strata/parquet/encoding/byte_stream_split.h"
#include "strata/parquet/encoding/delta_binary_packed.h"
#include "strata/parquet/encoding/delta_byte_array.h"
#include "strata/parquet/encoding/delta_length_byte_array.h"
#include "strata/parquet/encoding/dictionary.h"
#include "strata/parquet/encoding/level_decoder.h"
#include "strata/parquet/encoding/plain.h"
#include "strata/parquet/encoding/rle_bit_packed.h"
#include "strata/parquet/write/chunk_bloom_filter.h"
#include "strata/parquet/write/content_defined_chunker.h"
#include "strata/parquet/write/page_encryption.h"
#include "strata/parquet/write/page_writer.h"
#include "strata/parquet/write/physical_values.h"
#include "strata/parquet/stats/bloom_filter.h"
#include "strata/parquet/stats/page_index.h"
#include "strata/parquet/stats/statistics.h"

namespace strata::parquet {

class ColumnChunkWriter::Impl {
 public:
  Impl(const WriterColumn& column, const FileWriteOptions& file, const encryption::FileEncryptor* encryptor,
       MemoryPool* pool)
      : column_(column),
        file_(file),
        encryptor_(encryptor),
        options_(column.options),
        pool_(pool),
        v1_(file.page_version == DataPageVersion::kV1),
        pages_(pool, column.dotted_path, file.page_checksums),
        gatherer_(column, pool),
        def_encoder_(pool, BitWidthForMaxValue(static_cast<uint64_t>(column.max_definition_level))),
        rep_encoder_(pool, BitWidthForMaxValue(static_cast<uint64_t>(column.max_repetition_level))),
        index_encoder_(pool, 0),
        values_(pool),
        encoded_(pool),
        def_bytes_(pool),
        rep_bytes_(pool),
        def_bits_(pool),
        chunk_(pool, std::min<int64_t>(BlockBuffer::kDefaultBlockBytes, column.page_bytes)),
        dictionary_scratch_(pool),
        sealed_dictionary_body_(pool),
        dictionary_values_(pool),
        remap_(pool),
        gathered_(pool),
        bloom_(pool, column.options, column.physical_type, gatherer_.value_width(),
               column.max_repetition_level == 0 ? file.max_row_group_rows : 0),
        page_stats_(pool, column.physical_type, column.type_length, column.sort_order, column.is_float16),
        chunk_stats_(pool, column.physical_type, column.type_length, column.sort_order, column.is_float16),
        column_index_(StatisticsOptions{column.options.max_statistics_bytes}),
        delta32_(pool),
        delta64_(pool),
        alp_float_(pool),
        alp_double_(pool) {}

  Status Init() {
    STRATA_RETURN_NOT_OK(pages_.Init(options_.codec, options_.compression_level));
    encryption_ = encryptor_ != nullptr ? encryptor_->column(column_.column_index) : nullptr;
    if (encryption_ != nullptr) {
      pages_.SealPagesWith(std::make_unique<PageEncryption>(encryptor_, encryption_->key, column_.column_index));
    }
    if (options_.dictionary) {
      const int width = column_.physical_type == PhysicalType::kByteArray ? 0 : gatherer_.value_width();
      STRATA_ASSIGN_OR_RETURN(dictionary_, DictionaryEncoder::Make(pool_, width));
    }
    dictionary_active_ = dictionary_ != nullptr;
    if (options_.content_defined_chunking.enabled) {
      chunker_ = std::make_unique<ContentDefinedChunker>(column_, options_.content_defined_chunking, pool_);
    }
    // A top-level optional leaf: its definition levels are its validity bits (the file
    // writer's LevelBuilder leaves them unmaterialised: set_flat_levels_from_validity).
    bitmap_levels_ = column_.path.size() == 1 && column_.max_definition_level == 1 &&
                     column_.max_repetition_level == 0 && column_.conversion != PhysicalConversion::kNull;
    page_def_histogram_.assign(static_cast<size_t>(column_.max_definition_level) + 1, 0);
    page_rep_histogram_.assign(static_cast<size_t>(column_.max_repetition_level) + 1, 0);
    chunk_def_histogram_ = page_def_histogram_;
    chunk_rep_histogram_ = page_rep_histogram_;
    return Status::OK();
  }

  Status Write(const ShreddedLeaf& leaf);
  Status FinishChunk();
  Result<WrittenChunk> WriteChunk(OutputSink* sink);
  // After WriteChunk: frees what the next chunk would reuse (page, level, encoding and
  // compression buffers, the chunk's blocks, the dictionary's table and entries). A writer that
  // encodes a few columns at a time (FileWriter::WriteRowGroupByColumn) would otherwise keep
  // every column's. The Bloom filter stays until it is written.
  Status ReleaseBuffers() {
    for (ResizableBuffer* buffer : {&values_, &encoded_, &def_bytes_, &rep_bytes_, &def_bits_, &dictionary_scratch_,
                                    &sealed_dictionary_body_, &dictionary_values_, &remap_, &gathered_}) {
      buffer->Release();
    }
    chunk_.Release();
    pages_.ReleaseScratch();
    input_dictionary_.reset();
    remap_valid_ = false;
    if (dictionary_ != nullptr) {
      const int width = column_.physical_type == PhysicalType::kByteArray ? 0 : gatherer_.value_width();
      STRATA_ASSIGN_OR_RETURN(dictionary_, DictionaryEncoder::Make(pool_, width));
    }
    return Status::OK();
  }
  Result<std::optional<std::pair<int64_t, int32_t>>> WriteBloomFilter(OutputSink* sink);

  int64_t buffered_bytes() const {
    return chunk_.size() + values_.size() + (dictionary_ != nullptr ? dictionary_->plain_size() : 0) +
           sealed_dictionary_body_.size();
  }
  int64_t num_rows() const { return chunk_rows_ + page_rows_; }
  int64_t memory_size() const {
    int64_t total = values_.capacity() + encoded_.capacity() + pages_.memory_size() +
                    def_bytes_.capacity() + rep_bytes_.capacity() + def_bits_.capacity() + chunk_.capacity() +
                    dictionary_scratch_.capacity() + sealed_dictionary_body_.capacity() +
                    dictionary_values_.capacity() + remap_.capacity() +
                    gathered_.capacity() + bloom_.memory_size() + gatherer_.memory_size() +
                    def_encoder_.memory_size() + rep_encoder_.memory_size() + index_encoder_.memory_size() +
                    page_stats_.memory_size() + chunk_stats_.memory_size() + alp_float_.memory_size() +
                    alp_double_.memory_size();
    if (dictionary_ != nullptr) total += dictionary_->memory_size();
    if (chunker_ != nullptr) total += chunker_->memory_size();
    return total;
  }

 private:
  bool is_byte_array() const { return column_.physical_type == PhysicalType::kByteArray; }
  bool is_boolean() const { return column_.physical_type == PhysicalType::kBoolean; }

  // Past its first 1,024 values, a dictionary that saves less than dictionary_min_saving of
  // PLAIN: the writer falls back as for a full dictionary.
  bool DictionaryIneffective() const;
  // Levels [begin, end) of `leaf`, which start a row and hold `rows` rows.
  Status WriteLevels(const ShreddedLeaf& leaf, int64_t begin, int64_t end, int64_t rows);
  // Encodes the values of elements [begin, end) of the leaf's array (nulls among them skipped).
  Status WriteValues(const ShreddedLeaf& leaf, int64_t begin, int64_t end);
  // `in_page`: the values are already at the end of values_ (Gather appended them).
  Status EncodeGathered(const GatheredValues& values, const int32_t* dictionary_indices, bool in_page = false);
  Status PrepareDictionaryInput(const ArrayDataPtr& dictionary);
  // The current page's encoded size, estimated; whether it is full; how many more levels
  // fit before it is (at least one), so a page ends near its size rather than a whole
  // mini-batch past it (which, times 2,000 columns, is what a wide schema's scratch holds).
  int64_t PageEstimate() const;
  bool PageFull() const;
  int64_t PageRoomLevels() const;
  Status FlushPage();
  // The page's value bytes in its encoding, in `encoded_` or pointing at `values_`.
  Result<std::span<const uint8_t>> EncodePageValues(Encoding* encoding);
  Status BuildDictionaryPage();
  // At a fallback: builds the dictionary page now, keeping only its stored body, and frees the
  // dictionary (entries, hash table): the chunk's later pages no longer need it.
  Status SealDictionaryPage();
  void ResetChunk();

  const WriterColumn& column_;
  const FileWriteOptions& file_;
  const encryption::FileEncryptor* encryptor_;  // nullptr: a plaintext file
  const encryption::ColumnEncryptor* encryption_ = nullptr;  // nullptr: a plaintext column
  // Chunks written so far: the ordinal of the row group being built (encryption AADs).
  int64_t chunks_written_ = 0;
  const ColumnWriteOptions& options_;
  MemoryPool* pool_;
  bool v1_;
  PageWriter pages_;  // compression, checksums, page headers
  PhysicalValueGatherer gatherer_;
  std::unique_ptr<DictionaryEncoder> dictionary_;
  bool dictionary_active_ = false;  // pages are dictionary-encoded (no fallback yet in this chunk)
  bool dictionary_used_ = false;    // some page of this chunk is dictionary-encoded
  bool fell_back_ = false;          // this chunk passed dictionary_page_bytes

  RleBitPackedEncoder def_encoder_;
  RleBitPackedEncoder rep_encoder_;
  RleBitPackedEncoder index_encoder_;
  ResizableBuffer values_;   // the page's values: PLAIN bytes, boolean bits, or int32 indices
  ResizableBuffer encoded_;  // values in a non-PLAIN encoding
  ResizableBuffer def_bytes_;
  ResizableBuffer rep_bytes_;
  // The page's definition levels as validity bits (bitmap_levels_): encoded straight from the
  // bitmap at flush (EncodeBitmapLevels), without materialising or run-scanning int16 levels,
  // so that nulls cost little (writer_benchmark compares nullable and non-nullable columns).
  bool bitmap_levels_ = false;
  ResizableBuffer def_bits_;
  // Headers and bodies of the chunk's data pages, in blocks: the chunk's size is not known
  // ahead, and a doubling buffer would hold up to twice the row group. Blocks no larger than
  // a page: a wide schema's chunks are small, and each keeps its blocks for the next one.
  BlockBuffer chunk_;
  // The finished chunk's dictionary page: its header, and its body in dictionary_scratch_ or
  // the page writer's output (no page is compressed between FinishChunk and WriteChunk).
  std::string dictionary_header_;
  std::span<const uint8_t> dictionary_body_;
  ResizableBuffer dictionary_scratch_;
  // A dictionary page built at a fallback (SealDictionaryPage): its stored body when that is
  // not dictionary_scratch_ itself (compressed or encrypted, it was in the page writer's
  // buffers, which the next data page overwrites).
  ResizableBuffer sealed_dictionary_body_;
  bool dictionary_sealed_ = false;
  // Dictionary-array input: the current dictionary's physical values and its entries' indices
  // in the chunk's dictionary.
  ArrayDataPtr input_dictionary_;
  ResizableBuffer dictionary_values_;
  ResizableBuffer remap_;
  ResizableBuffer gathered_;
  ChunkBloomFilter bloom_;
  // Content-defined page boundaries (null when off).
  std::unique_ptr<ContentDefinedChunker> chunker_;

  StatisticsCollector page_stats_;
  StatisticsCollector chunk_stats_;
  ColumnIndexBuilder column_index_;
  OffsetIndexBuilder offset_index_;
  DeltaBinaryPackedEncoder<int32_t> delta32_;
  DeltaBinaryPackedEncoder<int64_t> delta64_;
  AlpEncoder<float> alp_float_;
  AlpEncoder<double> alp_double_;

  // The current page.
  int64_t page_levels_ = 0;
  int64_t page_values_ = 0;  // non-null values
  int64_t page_rows_ = 0;
  int64_t page_nulls_ = 0;
  int64_t page_unencoded_bytes_ = 0;
  std::vector<int64_t> page_def_histogram_;
  std::vector<int64_t> page_rep_histogram_;
  // The chunk.
  int64_t chunk_rows_ = 0;
  int64_t chunk_levels_ = 0;
  int64_t chunk_values_ = 0;
  int64_t chunk_unencoded_bytes_ = 0;
  int64_t uncompressed_bytes_ = 0;  // headers + uncompressed page bodies
  int64_t dictionary_page_uncompressed_ = 0;
  int64_t dictionary_entries_ = 0;
  std::vector<int64_t> chunk_def_histogram_;
  std::vector<int64_t> chunk_rep_histogram_;
  struct PageCount {
    PageType type;
    Encoding encoding;
    int32_t count;
  };
  std::vector<PageCount> page_counts_;
  bool remap_valid_ = false;  // remap_ holds input_dictionary_'s indices in this chunk's dictionary
};

}  // namespace strata::parquet
