// Dataset and DatasetReader: many Parquet files (discovery.h) read as one table. Hive
// partition folders become typed columns (partitioning.h) and prune whole files by the
// filter; file schemas are unified by name (schema_unification.h); each file's batches are
// read through parquet::FilteredBatchReader with what is left of the filter for that file,
// then conformed to the dataset's columns (widened, nulls for missing columns, partition
// values repeated). Several files are open and decoding at once on the scan's executor,
// within one read-ahead budget across all of them; batches come back in file order.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "strata/array/record_batch.h"
#include "strata/dataset/discovery.h"
#include "strata/dataset/partitioning.h"
#include "strata/dataset/schema_unification.h"
#include "strata/exec/executor.h"
#include "strata/expr/expression.h"
#include "strata/parquet/filter/filtered_reader.h"

namespace strata::dataset {

struct DatasetOptions {
  PartitionOptions partitioning;
  // How the schema is found (footers read in parallel on schema.executor, or the first file's
  // only) and how files are opened (also for the scans).
  UnifyOptions schema;
};

struct ScanOptions {
  // Output columns by name, in this order; empty: every column of the dataset schema (file
  // columns, then partition columns).
  std::vector<std::string> columns;
  // Rows to keep; null: all. Bound against the dataset schema, so it may name any column,
  // selected or not, partition columns included.
  expr::ExpressionPtr filter;
  // Rows per batch at most (a batch never spans files, nor row groups).
  int64_t batch_rows = 64 * 1024;
  // Decoded bytes per batch at most, about (0: no bound): parquet::BatchReadOptions::max_batch_bytes.
  int64_t max_batch_bytes = 0;
  // Where files are decoded: up to executor.threads() files at once on its pool; by default
  // everything on the calling thread. A one-file dataset gives the executor to that file's
  // reader instead (fields decoded at once). The batches, their order and errors do not
  // depend on it.
  exec::Executor executor;
  // Compressed column-chunk bytes of the files' current row groups in flight at once, across
  // all files read ahead (an exec::ByteBudget: at least one file is always read). A one-file
  // dataset gives the budget to that file's own row-group read-ahead instead.
  int64_t read_ahead_bytes = 8 << 20;
  // Which Parquet pruning mechanisms the files' readers use (`predicate` is ignored: it is
  // derived from `filter` for each file).
  parquet::FilterOptions pruning;
  // When set, each batch ends with an int64 column of this name: the row's position in its
  // file, 0-based, whatever is pruned or filtered (parquet::FileReaderOptions::row_number_column).
  std::string row_number_column;
  // When set, each batch ends with a column of this name holding the row's file path
  // (dictionary-encoded: 4 bytes a row).
  std::string file_path_column;

  Status Validate() const;
};

struct DatasetScanStats {
  int64_t files_total = 0;                 // files of the dataset
  int64_t files_skipped_by_partition = 0;  // never opened: no partition value can match
  int64_t files_read = 0;                  // opened and read to the end
  parquet::PruningStats pruning;           // summed over the files read
};

class DatasetReader;

class Dataset {
 public:
  // Discovers the files of `inputs` (DiscoverFiles), parses their partitions and unifies
  // their schemas. Arrays (partition values) and footer reads use `pool`, which must outlive
  // the dataset and its readers. Errors name the file (and column).
  static Result<std::shared_ptr<Dataset>> Open(const std::vector<std::string>& inputs, const DatasetOptions& options,
                                               MemoryPool* pool);

  const std::vector<DatasetFile>& files() const { return files_; }
  const Partitioning& partitioning() const { return partitioning_; }
  // File columns (unified, first-seen order), then the partition columns. A partition key
  // that is also a column of the files is the partition's column (the value from the path
  // wins, as DuckDB's hive_partitioning does); the files' column of that name is not read.
  const std::shared_ptr<Schema>& schema() const { return schema_; }
  // Fields [0, num_file_fields()) of schema() come from the files.
  int num_file_fields() const { return num_file_fields_; }
  const std::vector<FileSummary>& summaries() const { return summaries_; }
  const DatasetOptions& options() const { return options_; }
  MemoryPool* pool() const { return pool_; }

  // A reader of the rows `options` select. The dataset must outlive it.
  Result<std::unique_ptr<DatasetReader>> Scan(const ScanOptions& options = {}) const;

 private:
  Dataset() = default;

  std::vector<DatasetFile> files_;
  Partitioning partitioning_;
  std::vector<FileSummary> summaries_;
  std::shared_ptr<Schema> schema_;
  int num_file_fields_ = 0;
  DatasetOptions options_;
  MemoryPool* pool_ = nullptr;
};

class DatasetReader {
 public:
  // Waits for the files being read ahead on the pool.
  ~DatasetReader();
  DatasetReader(const DatasetReader&) = delete;
  DatasetReader& operator=(const DatasetReader&) = delete;

  // The next batch (never empty), or nullptr after the last one. Batches of different files
  // are never merged. After an error every later call returns it again.
  Result<std::shared_ptr<RecordBatch>> Next();

  const std::shared_ptr<Schema>& schema() const;
  // Counters so far (complete after the last batch).
  DatasetScanStats stats() const;
  // Bytes held now: the open files' readers (page buffers, dictionaries) and the batches
  // decoded ahead and not yet returned.
  int64_t memory_size() const;

 private:
  friend class Dataset;
  struct Impl;
  explicit DatasetReader(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace strata::dataset
