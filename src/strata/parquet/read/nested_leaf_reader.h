// NestedLeafReader: decodes one leaf column chunk of a nested field (a leaf with repetition,
// or under groups) for record assembly. It sits where ColumnReader sits for flat columns:
// PageReader (pages) -> levels and values -> here; the nested column reader hands its output
// to AssembleRecords. Per batch it yields every definition and repetition level of the rows
// read, and the leaf's values in Arrow layout with one slot per level entry whose definition
// level reaches the leaf's slot level (null where the leaf itself is undefined).
#pragma once

#include <memory>

#include "strata/array/array_data.h"
#include "strata/parquet/read/carried_rows.h"
#include "strata/parquet/encoding/dictionary.h"
#include "strata/parquet/encoding/level_decoder.h"
#include "strata/parquet/read/leaf_decoder.h"
#include "strata/parquet/read/page_reader.h"
#include "strata/parquet/schema.h"
#include "strata/parquet/read/value_conversion.h"
#include "strata/parquet/read/value_decoder.h"

namespace strata::parquet {

// Whether a BYTE_ARRAY chunk's values may pass 2 GiB (32-bit offsets could overflow): by
// SizeStatistics' exact count when written, else by the chunk's uncompressed size, which
// bounds the values of PLAIN and DELTA_LENGTH_BYTE_ARRAY pages. A chunk without SizeStatistics
// whose dictionary or front coding may expand past that size is judged by it all the same:
// it keeps 32-bit offsets, and its batches end early, at a row boundary, before 2 GiB
// (NestedColumnReader ends the field's batch there; the other leaves carry their extra rows).
bool ValuesMayPassTwoGiB(const ColumnMetaData& metadata);

class NestedLeafReader {
 public:
  // `slot_def`: the definition level from which an entry holds a slot of this leaf (the level
  // of its innermost repeated ancestor, 0 without one; AssemblyPlan::leaf_node(i).slot_def).
  // `output_type`: the leaf's strata type. `rows_in_chunk` is the row group's row count.
  static Result<std::unique_ptr<NestedLeafReader>> Make(const ColumnDescriptor& column, const ColumnMetaData& metadata,
                                                        int64_t rows_in_chunk, int16_t slot_def, TypePtr output_type,
                                                        std::unique_ptr<PageReader> pages, MemoryPool* pool);

  // Decodes the levels and values of the next `rows` rows (a row runs from one repetition
  // level 0 to the next, and may span pages). Returns the rows read, fewer than asked at the
  // end of the chunk, or when the batch ended early (ended_early()): a string or binary leaf
  // with 32-bit offsets stops before the row whose values would pass 2 GiB, and a leaf that
  // carries rows given back returns those first. The results stay valid until the next call.
  Result<int64_t> ReadRows(int64_t rows);
  // Whether the last ReadRows returned fewer rows than asked though the chunk has more.
  bool ended_early() const { return ended_early_; }
  // Whether ReadRows may end early: a leaf of 32-bit byte arrays, or one carrying rows.
  bool may_end_early() const { return offset_limited() || carry_.rows() > 0; }
  // Keeps the first `rows` rows of the last ReadRows and carries the others to the next
  // calls (their levels are copied, their values kept and handed out as compact arrays):
  // another leaf of the field ended its batch earlier. Only for a leaf that may_end_early().
  Status GiveBack(int64_t rows);

  // Levels of the last ReadRows, one per entry (levels_read() of them). def_levels() is never
  // null (zeros when the column has no definition levels); rep_levels() is null when the
  // column is not repeated. Both point into scratch reused across batches.
  const int16_t* def_levels() const { return def_out_; }
  const int16_t* rep_levels() const { return column_.max_repetition_level > 0 ? rep_out_ : nullptr; }
  int64_t levels_read() const { return batch_levels_; }
  // The values of the last ReadRows; buffers come from the pool and belong to the array.
  const ArrayDataPtr& values() const { return values_array_; }

  // Sizes batches smaller than the chunk from the chunk's page index (first rows of pages,
  // level histograms, unencoded bytes); without it, or without level histograms, batches are
  // sized from the chunk's averages. Call before the first ReadRows.
  Status SetPageIndex(const OffsetIndex& offsets, const ColumnIndex* columns);

  // Levels left undecoded in the current page (non-zero after the last row: data beyond the
  // row group's rows).
  int64_t levels_left_in_page() const { return page_levels_ - page_position_; }
  const ColumnDescriptor& column() const { return column_; }
  // Scratch held across batches (page buffers, dictionary, level buffers, value scratch).
  int64_t memory_size() const;
  // "'file', column 'a.b' (row group 3)", for messages.
  std::string Where() const;

 private:
  using Conversion = ValueConversion;

  NestedLeafReader(const ColumnDescriptor& column, const ColumnMetaData& metadata, int64_t rows_in_chunk,
                   int16_t slot_def, TypePtr output_type, std::unique_ptr<PageReader> pages, MemoryPool* pool);
  Status Init();
  // Loads pages until a data page with levels is current, decoding all its levels; false at
  // the chunk's end.
  Result<bool> NextDataPage();
  Status StartBatch(int64_t rows);
  // Bounds of the levels and value bytes of the pages after the current one that hold `rows`
  // more rows, from the page index; false without one.
  bool LaterPagesBound(int64_t rows, int64_t* levels, int64_t* bytes) const;
  // Takes page entries [begin, end): appends their levels, slots and values.
  Status AppendEntries(int64_t begin, int64_t end);
  Status ReserveSlots(int64_t slots);
  // Grows `buffer` to hold `size` bytes, doubling when it must grow (the batch estimate fell
  // short), and sets its size.
  static Status GrowTo(ResizableBuffer* buffer, int64_t size, bool zeroed);
  Status DecodeValues(int64_t slot, int64_t count, int64_t non_null, const uint8_t* validity);
  Status DecodeByteArrays(int64_t slot, int64_t count, int64_t non_null, const uint8_t* validity);
  // The range being appended, `views` its values, does not fit under `limit` bytes (the
  // offset limit, or the data buffer's capacity): the batch ends at its last row start that
  // does. Shrinks `*count` (slots), `*non_null` and `*total` (bytes) to what is written,
  // leaves the rest pending, sets cut_level_ and returns true. Where no row start allows a
  // cut, returns false having changed nothing when `may_grow` (the buffer grows instead), else
  // fails (one row past the offset limit).
  Result<bool> CutBeforeByteLimit(int64_t limit, bool may_grow, const ByteArrayView* views, int64_t* count,
                                  int64_t* non_null, int64_t* total);
  // The bytes `levels` more levels are expected to take (variable-length data).
  int64_t EstimateBytes(int64_t levels) const;
  // The data buffer's one allocation, made with the batch's `first` bytes (known) and what
  // later ranges are expected to take (`later`; all of the batch when later_bytes_total_).
  int64_t FirstReservation(int64_t first, int64_t later) const;
  Status FinishBatch();
  // ReadRows from the carried rows.
  Result<int64_t> ReadCarriedRows(int64_t rows);
  // A cut inside a row begun on an earlier page (older writers' v1 pages): the batch ends
  // before that row, whose levels and values so far become the prefix of the next batch.
  Result<bool> CutBeforeContinuedRow(bool may_grow, const ByteArrayView* views, int64_t* count, int64_t* non_null,
                                     int64_t* total);
  // What both cuts end with, once slots_ and the batch's levels are cut back: the batch ends
  // at page level `level` (its offsets and validity shrink to slots_), and the range's values
  // `views` from `kept` of `non_null` on wait, decoded, for the next batch.
  Status EndBatchAt(int64_t level, const ByteArrayView* views, int64_t kept, int64_t non_null);
  // Appends the prefix to a batch just started.
  Status AppendPrefix();
  bool offset_limited() const { return conversion_ == Conversion::kByteArray && !large_offsets_; }

  const ColumnDescriptor& column_;
  const ColumnMetaData& metadata_;
  int64_t rows_in_chunk_;
  int16_t slot_def_;
  TypePtr output_type_;  // for a decimal read as text: the raw bytes' type (leaf_.decimal_text() makes the text)
  std::unique_ptr<PageReader> pages_;
  MemoryPool* pool_;
  Conversion conversion_ = Conversion::kCopy;
  int physical_width_ = 0;
  int output_width_ = 0;
  bool large_offsets_ = false;
  bool nullable_ = false;              // max_definition_level > slot_def: slots can be null
  double levels_per_row_ = 1;          // from metadata, to pre-size a batch
  double bytes_per_level_ = 0;         // variable-length data, from metadata
  double last_bytes_per_level_ = 0;    // the last batch's
  int64_t dictionary_bytes_ = 0;       // a BYTE_ARRAY dictionary's entries' bytes
  int64_t dictionary_entries_ = 0;
  int64_t part_levels_ = 0;            // levels the batch takes from the page it starts on
  int64_t batch_capacity_ = 0;         // levels the batch's buffers were sized for
  int64_t rows_started_in_chunk_ = 0;  // rows whose first level has been read
  // A page with levels has been loaded: a later v1 page may continue its last row (older
  // writers cut pages by value count), the chunk's first may not.
  bool levels_loaded_ = false;
  int64_t levels_taken_ = 0;           // levels of the batches returned
  int64_t bytes_taken_ = 0;            // their values' bytes
  int64_t exact_chunk_bytes_ = -1;     // SizeStatistics' unencoded byte-array bytes, when written
  // The page index's sizes, one per data page (page_sizes_ holds num_page_sizes_ of them), and
  // the current data page's position among them.
  struct PageSize {
    int64_t first_row;
    int64_t levels;
    int64_t bytes;  // -1: not recorded
  };
  ResizableBuffer page_sizes_;
  int64_t num_page_sizes_ = 0;
  int64_t current_page_ = -1;
  // The batch's bytes beyond its first range (later_bytes_total_: all of its bytes), for the
  // data buffer's one allocation; -1 unknown.
  int64_t later_bytes_ = -1;
  bool later_bytes_total_ = false;

  // The current page: all its levels decoded when it is loaded.
  Page page_;
  int64_t page_levels_ = 0;
  int64_t page_position_ = 0;
  LevelDecoder definition_decoder_;
  LevelDecoder repetition_decoder_;
  ResizableBuffer page_def_;
  ResizableBuffer page_rep_;

  // The batch: levels (scratch, reused) and the values array being built (new buffers).
  ResizableBuffer batch_def_;
  ResizableBuffer batch_rep_;
  int64_t batch_levels_ = 0;
  int64_t slots_ = 0;
  int64_t null_count_ = 0;
  std::shared_ptr<ResizableBuffer> validity_;
  std::shared_ptr<ResizableBuffer> values_;
  std::shared_ptr<ResizableBuffer> data_;
  ArrayDataPtr values_array_;
  // The dictionary, value decoders and conversions, shared with the flat column reader.
  LeafDecoder leaf_;
  ResizableBuffer views_;  // byte-array views

  // The last batch's levels (batch_def_/batch_rep_, or the carried levels).
  const int16_t* def_out_ = nullptr;
  const int16_t* rep_out_ = nullptr;
  bool ended_early_ = false;
  // A batch cut before offset_limit_ (OffsetLimit() when made): the range being appended, the level the cut left out
  // (-1: none), and the values of levels [page_position_, pending_end_) decoded already, the
  // views_ from pending_view_ on, that the next batch takes first.
  int64_t offset_limit_;
  int64_t range_begin_ = 0;
  int64_t range_end_ = 0;
  int64_t cut_level_ = -1;
  int64_t pending_end_ = 0;
  int64_t pending_view_ = 0;
  int64_t pending_views_ = 0;
  // Rows given back (GiveBack), and whether the last batch came from them.
  CarriedRows carry_;
  bool batch_from_carry_ = false;
  int64_t batch_rows_ = 0;
  // The row a cut left unfinished (CutBeforeContinuedRow): its levels and its values so far,
  // and whether the batch being read ended before it.
  ResizableBuffer prefix_def_;
  ResizableBuffer prefix_rep_;
  int64_t prefix_levels_ = 0;
  ArrayDataPtr prefix_values_;
  bool cut_before_prefix_ = false;
};

}  // namespace strata::parquet
