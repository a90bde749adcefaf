// BatchReader: record batches of chosen fields and row groups of one Parquet file, the last
// stage of the read path. It holds one row group's column readers at a time (flat column
// readers, or nested readers with their assembly plans), so memory is one batch plus each
// column's page buffers whatever the file's size, plus the row groups opened ahead with a
// parallel executor within read_ahead_bytes. Made by FileReader::ReadBatches.
#pragma once

#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "strata/array/record_batch.h"
#include "strata/io/read_range_cache.h"
#include "strata/parquet/read/column_reader.h"
#include "strata/parquet/read/nested_column_reader.h"
#include "strata/parquet/read/page_reader.h"
#include "strata/parquet/read/reader_options.h"

namespace strata::exec {
class ByteBudget;
template <typename T>
class OrderedTaskQueue;
}  // namespace strata::exec

namespace strata::parquet {

class FileReader;

class BatchReader {
 public:
  // The batches of `options`' fields and row groups of `file` (which must outlive the reader);
  // FileReader::ReadBatches calls this.
  static Result<std::unique_ptr<BatchReader>> Make(FileReader* file, const BatchReadOptions& options);
  // Waits for the row groups being opened ahead on the pool.
  ~BatchReader();
  BatchReader(const BatchReader&) = delete;
  BatchReader& operator=(const BatchReader&) = delete;

  // The next batch, or nullptr after the last one. Each batch's arrays own their buffers
  // (from the reader's pool); the reader keeps nothing of a returned batch.
  Result<std::shared_ptr<RecordBatch>> Next();

  // Every batch Next() would return, each handed to `consume(position, batch)`, where position
  // indexes the row groups read (BatchReadOptions::row_groups, else every row group). For
  // consumers that do not need file order (a scan's summary): with a parallel executor and no
  // pre-buffer cache, row groups are decoded at once, up to executor.threads() of them, each by
  // one task that hands its batches to `consume` in order on the thread that decoded them (so
  // they are still in its core's cache). `consume` must then be safe to call from several
  // threads at once, for different positions. Otherwise this is Next() in a loop, on this
  // thread (also when Next() has been called already: the rest follows in order). Memory: the
  // running row groups' readers and batches, started while their compressed chunks hold at
  // most row_groups_at_once_bytes together (no read-ahead beyond them). The batches are
  // Next()'s; an error is the one Next() would stop at (the first row group's in file order,
  // consume's included). Next() returns the end afterwards.
  using BatchConsumer = std::function<Status(size_t position, std::shared_ptr<RecordBatch> batch)>;
  Status ForEachBatch(const BatchConsumer& consume);

  // The batches' schema: the selected fields, their types restored from the ARROW:schema
  // (FileReader::restored_schema()) and changed as the options ask (dictionaries, views, ...).
  const std::shared_ptr<Schema>& schema() const { return schema_; }
  // Row groups this reader reads (BatchReadOptions::row_groups, else every one); ForEachBatch's
  // positions index them.
  size_t num_row_groups_to_read() const { return row_groups_.size(); }
  // Page buffers, dictionaries and scratch held by the current row group's column readers.
  int64_t memory_size() const;

  // Field-wise reading, for readers layered on this one instead of Next() (not with it):
  // filter/late_materialization.h decodes a batch's filter fields first and the other fields
  // only for batches that keep a row. Positions index the selected fields; rows count rows of
  // the current row group.
  //
  // Opens the next row group to read, releasing the current one; false after the last.
  Result<bool> OpenNextRowGroup();
  int current_row_group() const { return current_row_group_; }
  // Rows of the current row group not yet done, and the most rows every field can hand out
  // next without decoding (rows decoded ahead of a cut batch; 0: none are).
  int64_t rows_left() const { return current_.rows_left; }
  // Rows of the current row group done so far.
  int64_t row_group_position() const;
  int64_t carried_rows() const { return current_.carry_rows; }
  // Skips `rows` rows of the fields at `positions` (their carried rows first).
  Status SkipFields(const std::vector<size_t>& positions, int64_t rows);
  // Decodes `rows` rows of the fields at `positions` into (*columns)[position]; a string field
  // may stop short of 2 GiB of 32-bit offsets and return fewer.
  Status ReadFields(const std::vector<size_t>& positions, int64_t rows, std::vector<Array>* columns);
  // Cuts those columns to `rows` rows; the rows past it go back ahead of the field's next ones.
  Status GiveBackRows(const std::vector<size_t>& positions, int64_t rows, std::vector<Array>* columns);
  // The current row group's next `rows` rows are done: read by every field, or skipped by all.
  void FinishRows(int64_t rows);
  // Leaves the rest of the current row group unread (its readers go with it).
  void DropRowGroupRest();
  const BatchReadOptions& options() const { return options_; }
  // `column` (the field at `position`) as FileReader::schema() types it, the zone or duration
  // label taken off again (zero-copy): what a predicate bound to that schema evaluates.
  Array AsFileType(size_t position, const Array& column) const;
  // Data pages the column readers passed over undecoded (SkipRows), over every row group.
  int64_t pages_skipped() const;

 private:
  // One row group's column readers (per selected field a flat reader or a nested one), and
  // where its batches stand.
  struct OpenedRowGroup {
    int row_group = -1;
    std::vector<std::unique_ptr<ColumnReader>> readers;
    std::vector<std::unique_ptr<NestedColumnReader>> nested_readers;
    int64_t rows_left = 0;  // rows not returned yet, the carried ones included
    // Rows some columns read beyond the last batch (another column was cut short at 2 GiB),
    // and the next batch's length: the shortest of them.
    std::vector<std::optional<Array>> carry;
    int64_t carry_rows = 0;
  };

  BatchReader() = default;
  // Makes row_groups_[index] the current row group.
  Status OpenRowGroup(size_t index);
  // The readers of `row_group`'s selected fields. Reads only what ReadBatches() set up, so it
  // may run on the pool while the current row group is decoded.
  Result<std::unique_ptr<OpenedRowGroup>> OpenReaders(int row_group, bool parallel_fields = true) const;
  // The next batch of `group` (rows_left > 0), its fields decoded as tasks when parallel_fields.
  Result<std::shared_ptr<RecordBatch>> ReadRowGroupBatch(OpenedRowGroup* group, bool parallel_fields) const;
  // ForEachBatch's task: row_groups_[position] opened, read and consumed on this thread.
  Status ConsumeRowGroup(size_t position, bool parallel_fields, const BatchConsumer& consume) const;
  Status OpenField(int row_group, size_t field_position, OpenedRowGroup* out) const;
  // Starts opening the row groups after `index` on the pool, within read_ahead_bytes.
  void ReadAhead(size_t index);
  // fn(0) .. fn(count - 1): on the calling thread (a serial executor), else as tasks of one TaskGroup.
  // Every task runs and the lowest position's error is returned, so it does not depend on
  // scheduling (a serial run stops at that error).
  // parallel false: always on the calling thread.
  Status ForEachField(size_t count, const std::function<Status(size_t)>& fn, bool parallel = true) const;
  // The page reader of `column`'s chunk in `row_group`; errors name file, column, row group.
  Result<std::unique_ptr<PageReader>> OpenPages(int row_group, int column) const;
  // The source page readers read from: the pre-buffer cache when there is one.
  RandomAccessSource* source() const;
  // Asks the cache for the chunks of row_groups_[first .. first + count).
  Status PreBuffer(size_t first, size_t count);
  void ReleaseRowGroup(int row_group);
  Result<std::unique_ptr<NestedColumnReader>> OpenNestedField(int row_group, size_t field_position) const;
  // carried_rows(): the fewest rows a field carries, recounted after the carry changed.
  void RecountCarriedRows();
  // A decoded column of the field at `position`, its type relabelled when restore_types_ says.
  Array RestoreType(size_t position, ArrayDataPtr data) const;
  // The row number column (FileReaderOptions::row_number_column) of `rows` rows from
  // `position` of `row_group`. Its place in the schema is fields_.size(), after the fields.
  Result<Array> RowNumbers(int row_group, int64_t position, int64_t rows) const;
  bool is_row_number(size_t position) const { return position == fields_.size(); }

  FileReader* file_ = nullptr;
  BatchReadOptions options_;
  // The file's page options, with windows scaled to the selected columns
  // (PageReadOptions::column_windows_total_bytes).
  PageReadOptions page_options_;
  exec::Executor executor_;  // options_.executor (serial: decode on the calling thread)
  std::vector<int> fields_;      // selected top-level fields
  std::vector<int> row_groups_;  // to read, in order
  std::shared_ptr<Schema> schema_;
  std::vector<TypePtr> output_types_;
  // Per selected field: the zone or duration type its values are relabelled to, or null.
  std::vector<TypePtr> restore_types_;
  // Per row group of the file, its first row's position in the file (with row numbers only).
  std::vector<int64_t> first_rows_;
  size_t next_row_group_ = 0;
  int current_row_group_ = -1;
  // The current row group's readers and batch state. Per selected field, one of: a flat
  // column reader, or (nested fields, which have an assembly plan, made once) a nested reader.
  OpenedRowGroup current_;
  std::shared_ptr<ReadRangeCache> cache_;
  size_t pre_buffered_ = 0;  // row_groups_[0 .. pre_buffered_) have been handed to the cache
  std::vector<std::unique_ptr<AssemblyPlan>> plans_;
  // Read-ahead: row_groups_[next_row_group_ .. ahead_end_) are being opened on the pool, in
  // order; ahead_bytes_ holds each one's selected chunk bytes, admitted by ahead_budget_.
  std::unique_ptr<exec::OrderedTaskQueue<std::unique_ptr<OpenedRowGroup>>> ahead_;
  std::deque<int64_t> ahead_bytes_;
  std::unique_ptr<exec::ByteBudget> ahead_budget_;  // read_ahead_bytes; refuses what does not fit
  size_t ahead_end_ = 0;
  int64_t pages_skipped_done_ = 0;  // of the row groups already released
};

}  // namespace strata::parquet
