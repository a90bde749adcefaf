// ColumnReader: decodes one leaf column chunk without repetition (a top-level primitive or a
// leaf under non-repeated groups) into Arrow-layout arrays, batch by batch. It sits between the
// PageReader (pages) and the file reader (record batches): levels -> validity bitmap, values ->
// the column's strata type with the logical type applied (INT96 -> timestamp[ns], decimals,
// narrow integers, float16, fixed-size binary). String and binary columns may also come back as
// dictionary arrays (DictionaryBatchBuilder) or as string views (ViewBatchBuilder).
#pragma once

#include <cstring>
#include <limits>

#include <memory>
#include <utility>
#include <vector>

#include "strata/array/array_data.h"
#include "strata/parquet/encoding/dictionary.h"
#include "strata/parquet/encoding/level_decoder.h"
#include "strata/parquet/encoding/rle_bit_packed.h"
#include "strata/parquet/read/dictionary_batch_builder.h"
#include "strata/parquet/read/leaf_decoder.h"
#include "strata/parquet/read/page_reader.h"
#include "strata/parquet/schema.h"
#include "strata/parquet/read/value_conversion.h"
#include "strata/parquet/read/value_decoder.h"
#include "strata/parquet/read/view_batch_builder.h"

namespace strata::parquet {

class ColumnReader {
 public:
  // `rows_in_chunk` is the row group's row count; the chunk must hold exactly that many.
  // `output_type` is the descriptor's type, or its large variant for binary and string; for
  // BYTE_ARRAY string and binary columns also dictionary<values=string|binary (or large),
  // indices=int32> or string_view / binary_view (see BatchReadOptions::read_dictionary and
  // string_views).
  static Result<std::unique_ptr<ColumnReader>> Make(const ColumnDescriptor& column, const ColumnMetaData& metadata,
                                                    int64_t rows_in_chunk, TypePtr output_type,
                                                    std::unique_ptr<PageReader> pages, MemoryPool* pool,
                                                    const PageReadOptions& page_options = {});

  // Decodes the next min(rows, rows_left()) rows into a new array whose buffers come from the
  // pool. Variable-length data is sized once from metadata before values are appended.
  // A string or binary batch with 32-bit offsets is cut short (fewer rows) rather than pass
  // 2 GiB of data; the value that did not fit opens the next batch.
  Result<ArrayDataPtr> ReadBatch(int64_t rows);

  int64_t rows_left() const { return rows_in_chunk_ - rows_read_; }
  // Advances past the next min(rows, rows_left()) rows without returning them (a filter ruled
  // them out).
  Status SkipRows(int64_t rows);
  // Data pages passed over unread by SkipRows.
  int64_t pages_skipped() const { return pages_->pages_skipped(); }

  // Check that string values are valid UTF-8 (Corrupt naming the row otherwise).
  // Dictionary outputs check their dictionary once and their non-dictionary values per batch.
  void set_validate_utf8(bool validate) {
    const TypeId id = output_type_->id() == TypeId::kDictionary ? output_type_->value_type()->id() : output_type_->id();
    validate_utf8_ = validate && is_string(id);
  }
  // No ReadBatch() asks for more rows than this (BatchReadOptions::batch_rows): the scratch
  // sized once per page (views, conversions) is sized to this rather than to a whole page, which
  // some writers make as large as the chunk. Larger reads stay correct (the scratch grows).
  void set_max_batch_rows(int64_t rows) {
    max_batch_rows_ = rows;
    leaf_.set_max_range_values(rows);
  }
  // Scratch held across batches (page buffers, dictionary, level and index buffers).
  int64_t memory_size() const;

 private:
  using Conversion = ValueConversion;

  ColumnReader(const ColumnDescriptor& column, const ColumnMetaData& metadata, int64_t rows_in_chunk,
               TypePtr output_type, std::unique_ptr<PageReader> pages, MemoryPool* pool, int64_t window_bytes);
  Status Init();
  // Loads pages until a data page with values is current; false at the chunk's end.
  Result<bool> NextDataPage();
  Status DecodeRange(int64_t slot, int64_t count);
  // `count` dense physical values of a fixed-width type, from the decoder or the window.
  Status DecodeDenseFixed(uint8_t* out, int64_t count);
  Status DecodeByteArraysStreamed(int64_t slot, int64_t count, const uint8_t* validity);
  // Makes room for `needed` bytes in the batch's data buffer without growing it: allocates it
  // when it holds nothing yet (for this and, projected, the batch's other `rows_left` rows);
  // false when it holds bytes and has no room (the batch ends before the range).
  Result<bool> RoomForData(int64_t needed, int64_t rows_done);
  // Leaves slots [slot, slot + count) of the batch for the next one: their values are views in
  // views_ from `first_view`, or (`streamed`) still unread in the window.
  Status PendSlots(int64_t slot, int64_t count, int64_t first_view, bool streamed);
  // Opens the batch with up to `rows` pending slots (fewer where their bytes would pass the
  // offset limit); returns how many it took.
  Result<int64_t> TakePendingSlots(int64_t rows);
  // Moves the validity of the next `k` pending slots to the batch's first slots; their
  // non-null count.
  int64_t TakePendingValidity(int64_t k);
  // Streamed pages: makes at least `min_bytes` of the page's remaining bytes addressable at
  // window_begin_ (fewer only at the page's end); returns how many are.
  Result<int64_t> EnsureWindow(int64_t min_bytes);
  // Streamed pages: makes the next length-prefixed record (`what`, for messages) addressable
  // at window_begin_, whole; returns its length (the 4-byte prefix not counted).
  Result<uint32_t> NextWindowRecord(const char* what);
  // Whether the next length-prefixed record lies whole in the window already (its length in
  // `*length`): NextWindowRecord's fast path, inline.
  bool RecordInWindow(uint32_t* length) const {
    const int64_t available = window_end_ - window_begin_;
    if (available < 4) return false;
    std::memcpy(length, window_.data() + window_begin_, 4);
    return 4 + static_cast<int64_t>(*length) <= available;
  }
  Status StartStreamedPage();
  Status DecodeByteArrays(int64_t slot, int64_t count, int64_t non_null, const uint8_t* validity);
  std::string Where() const;
  // `what` names the array in messages ("batch", "dictionary").
  Status ValidateUtf8Values(const ArrayData& batch, const char* what = "batch") const;

  // Dictionary and view outputs.
  // The dictionary page's entry bytes, zero-copy (the buffer keeps the dictionary alive), for
  // views into them and as the dictionary array's data; once per chunk.
  Status ShareDictionary();
  Status DecodeDictionaryIndices(int64_t slot, int64_t count, int64_t non_null, const uint8_t* validity);
  Status DecodeViewRange(int64_t slot, int64_t count, int64_t non_null, const uint8_t* validity);
  Result<ArrayDataPtr> FinishDictionaryBatch(int64_t rows, std::shared_ptr<Buffer> validity);
  Result<ArrayDataPtr> FinishViewBatch(int64_t rows, std::shared_ptr<Buffer> validity);

  const ColumnDescriptor& column_;
  const ColumnMetaData& metadata_;
  int64_t rows_in_chunk_;
  int64_t rows_read_ = 0;
  TypePtr output_type_;  // for a decimal read as text: the raw bytes' type (leaf_.decimal_text() makes the text)
  std::unique_ptr<PageReader> pages_;
  MemoryPool* pool_;
  int64_t offset_limit_;  // OffsetLimit() when made: the most value bytes of a batch with 32-bit offsets
  Conversion conversion_ = Conversion::kCopy;
  int physical_width_ = 0;
  int output_width_ = 0;
  bool large_offsets_ = false;
  bool validate_utf8_ = false;
  int64_t max_batch_rows_ = std::numeric_limits<int64_t>::max();
  // Slots decoded but left out of a batch that ended before them: their bytes did not fit the
  // batch's data buffer (which never grows: the batch ends instead, and the next one, sized
  // afresh, takes them first) or would pass the 2 GiB of 32-bit offsets. Their validity bits
  // are in pending_validity_ from bit pending_bit_; the values are views in views_ from
  // pending_view_ (into the page or decoder scratch, untouched until taken), or, on streamed
  // pages, still unread in the window.
  int64_t pending_slots_ = 0;
  int64_t pending_bit_ = 0;
  int64_t pending_view_ = 0;
  bool pending_streamed_ = false;
  ResizableBuffer pending_validity_;
  ResizableBuffer pending_merge_;
  // The batch's data buffer is allocated when its first bytes are known, at this size unless
  // they need more; later ranges that do not fit end the batch.
  int64_t data_reserve_ = 0;
  double bytes_per_row_estimate_ = 0;  // variable-length data, from metadata
  int64_t exact_chunk_bytes_ = -1;      // SizeStatistics' unencoded byte-array bytes, when written
  int64_t data_bytes_returned_ = 0;

  Page page_;
  int64_t page_values_left_ = 0;
  int64_t page_value_offset_ = 0;  // file offset of the current page's values, for messages
  LevelDecoder definition_levels_;
  ValueDecoder* decoder_ = nullptr;  // leaf_'s for the current page; null on streamed pages

  // The batch being built.
  std::shared_ptr<ResizableBuffer> validity_;
  std::shared_ptr<ResizableBuffer> values_;
  std::shared_ptr<ResizableBuffer> data_;
  int64_t null_count_ = 0;
  // The dictionary, value decoders and conversions, shared with the nested leaf reader.
  LeafDecoder leaf_;
  // Reused scratch: values decoded and dropped (kDiscard), byte-array views.
  ResizableBuffer scratch_;
  ResizableBuffer views_;
  // Streamed pages (PageReadOptions::stream_large_pages): a bounded window over the page's
  // decompressed bytes, and v1 levels copied out of it.
  bool streaming_ = false;
  int64_t window_bytes_ = 0;
  ResizableBuffer window_;
  int64_t window_begin_ = 0;
  int64_t window_end_ = 0;
  ResizableBuffer levels_copy_;

  // Dictionary and view outputs.
  const uint8_t* page_values_ = nullptr;  // the current page's value bytes (after v1 levels)
  int64_t page_values_size_ = 0;
  bool page_dictionary_coded_ = false;
  std::shared_ptr<Buffer> dictionary_bytes_;  // the dictionary's entry bytes, back to back
  RleBitPackedDecoder index_decoder_;         // kByteArrayDictionary: dictionary-coded pages
  std::unique_ptr<DictionaryBatchBuilder> dictionary_out_;  // kByteArrayDictionary
  ViewBatchBuilder view_out_;                               // kByteArrayView
};

}  // namespace strata::parquet
