// FileScan: one file's part of a dataset scan (internal to the dataset layer). Decides from
// the file's partition values whether it can match at all, turns the dataset's filter into
// the file's own (partition leaves and leaves on columns the file lacks become constants,
// field indices remapped), reads through parquet::FilteredBatchReader, and conforms every
// batch to the scan's output columns.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "strata/array/record_batch.h"
#include "strata/expr/predicate.h"
#include "strata/parquet/read/file_reader.h"
#include "strata/parquet/filter/filtered_reader.h"

namespace strata::dataset {

class Dataset;

// What every file of one scan shares; immutable while the scan runs.
struct ScanPlan {
  const Dataset* dataset = nullptr;
  std::shared_ptr<Schema> output_schema;
  std::vector<int> output_fields;  // the dataset field of each output column
  expr::PredicatePtr predicate;    // bound to the dataset schema; null: every row
  parquet::BatchReadOptions read;  // batch_rows, threads, read_ahead_bytes; columns per file
  parquet::FilterOptions pruning;
  // ScanOptions' virtual columns, after the output fields (empty: none).
  std::string row_number_column;
  std::string file_path_column;
};

// False when no row of file `file` can match: some partition value rules the predicate out
// (LeafMayMatch on the value as a one-row range). True without a predicate.
bool PartitionMayMatch(const ScanPlan& plan, size_t file);

// The compressed bytes of the largest row group of the columns the scan reads from `file`,
// from the footer summary read at open; -1 when the footer was not read (first_file_only).
int64_t EstimatedChunkBytes(const ScanPlan& plan, size_t file);

class FileScan {
 public:
  // Opens the file and prepares its reader. Errors name the file.
  static Result<std::unique_ptr<FileScan>> Open(const ScanPlan& plan, size_t file);

  // The next batch of the output columns (never empty), or nullptr after the last.
  Result<std::shared_ptr<RecordBatch>> Next();

  parquet::PruningStats stats() const;
  int64_t memory_size() const;
  // Compressed bytes of the largest row group of the columns read (the budget's unit).
  int64_t chunk_bytes() const { return chunk_bytes_; }

 private:
  FileScan() = default;
  Status Prepare();
  Result<Array> Conform(const Array& array, int dataset_field) const;
  // ScanPlan::file_path_column for `rows` rows.
  Result<Array> FilePathColumn(int64_t rows);

  const ScanPlan* plan_ = nullptr;
  size_t file_ = 0;
  std::unique_ptr<parquet::FileReader> reader_;
  std::unique_ptr<parquet::FilteredBatchReader> batches_;  // null: the filter rules out every row
  // Dataset field -> the file's field index, -1 when the file lacks it (or it is a partition).
  std::vector<int> field_map_;
  // The dataset field of each column the reader returns.
  std::vector<int> read_fields_;
  // file_path_column's dictionary: the one path (made with the first batch).
  std::shared_ptr<ArrayData> path_dictionary_;
  // The filter in dataset terms, evaluated on the conformed batch when some of its leaves
  // cannot be given to the file's reader (a date32 file column of a date64 dataset column:
  // literals are in the dataset type's unit). Null when the reader applies all of it.
  expr::PredicatePtr post_filter_;
  int64_t chunk_bytes_ = 0;
  int64_t rows_returned_ = 0;
};

}  // namespace strata::dataset
