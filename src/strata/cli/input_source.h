// BatchSource: how the commands read an input whatever its format, as a stream of record
// batches: Parquet (FileReader + BatchReader, local or http(s)://) or CSV (CsvReader, also
// .tsv, .csv.gz, .csv.zst). The format comes from --input-format or the file's extension.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "strata/array/record_batch.h"
#include "strata/cli/csv_cli_options.h"
#include "strata/exec/executor.h"
#include "strata/memory/memory_pool.h"
#include <CLI/CLI.hpp>

#include "strata/parquet/encryption/decryption_options.h"
#include "strata/parquet/filter/filtered_reader.h"
#include "strata/parquet/schema.h"
#include "strata/util/result.h"

namespace strata::cli {

class BatchSource {
 public:
  virtual ~BatchSource() = default;

  // The schema of every batch (after the --columns projection).
  virtual const SchemaPtr& schema() const = 0;
  // The next batch, or nullptr after the last.
  virtual Result<std::shared_ptr<RecordBatch>> Next() = 0;
  // Every batch (instead of Next()), for consumers that do not need them in order: a Parquet
  // file read on several threads hands each row group's batches to `consume` on the thread
  // that decoded them, several row groups at once (parquet::BatchReader::ForEachBatch), so
  // `consume` must be thread-safe. Other sources: Next() in a loop, on this thread.
  using BatchConsumer = std::function<Status(std::shared_ptr<RecordBatch> batch)>;
  virtual Status ForEachBatch(const BatchConsumer& consume);
  // Bytes of the input consumed so far, and its size (-1 when unknown), for progress.
  virtual int64_t raw_bytes_read() const = 0;
  virtual int64_t raw_size() const = 0;
  // Rows the input holds when known before reading (Parquet's footer), else -1.
  virtual int64_t num_rows() const { return -1; }
  // Reads made from a random-access source (Parquet), else -1.
  virtual int64_t read_count() const { return -1; }
  // "parquet", "csv", "arrow" (IPC file) or "arrows" (IPC stream).
  virtual std::string format_name() const = 0;
  // One line on how a CSV input is read (dialect and header); "" for Parquet.
  virtual std::string DialectLine() const { return ""; }
  // Rows skipped so far as ragged (--ragged skip): a line with the count and the first lines
  // where they were, or "" when none were.
  virtual std::string SkippedRowsReport() const { return ""; }
  // With --filter on Parquet input: what the reader skipped so far, and how.
  virtual std::optional<parquet::PruningStats> pruning_stats() const { return std::nullopt; }
  // A folder or glob of files (dataset_source.h): one --stats line on its files, else "".
  virtual std::string DatasetLine() const { return ""; }
};

enum class InputFormat { kParquet, kCsv, kTsv, kIpcFile, kIpcStream };

// --input-format, else the extension: .csv and .tsv, also followed by .gz, .zst or .zstd,
// are CSV; .arrow, .feather and .ipc the Arrow IPC file format, .arrows its stream format;
// any other file starting with the IPC file magic is an IPC file; anything else is Parquet.
Result<InputFormat> ResolveInputFormat(const std::string& path, const std::string& input_format);

// What a command asks of any input.
struct SourceOptions {
  std::vector<std::string> columns;  // top-level columns, in this order (empty: all)
  int64_t batch_rows = 64 * 1024;
  exec::Executor executor;  // where batches are decoded (a command's --threads); default: here
  // Parquet only.
  bool verify_checksums = true;
  std::optional<bool> pre_buffer;  // unset: the reader's default (on for URLs)
  // Compressed bytes of row groups (of files, for a dataset) opened ahead while the current
  // one is decoded: BatchReadOptions / dataset::ScanOptions::read_ahead_bytes. Unset: their
  // default (8 MiB).
  std::optional<int64_t> read_ahead_bytes;
  std::shared_ptr<const parquet::FileDecryptionOptions> decryption;  // keys of encrypted files
  parquet::SchemaOptions schema;  // INT96's unit
  // --filter: rows kept (expr/parser.h grammar); empty: every row. Parquet input is pruned by
  // statistics, dictionaries, Bloom filters and the page index unless `pruning` is off (a
  // comparison point: the same rows, filtered after decoding); other inputs filter decoded rows.
  std::string filter;
  bool pruning = true;
};

// The Parquet reader options and pruning switches `options` asks for (single files and
// datasets alike).
parquet::FileReaderOptions ParquetReaderOptions(const SourceOptions& options);
parquet::FilterOptions PruningOptions(const SourceOptions& options);

// --filter and --pruning on|off, for the reading commands.
void AddFilterOptions(CLI::App* sub, std::string* filter, std::string* pruning);
// The --stats line on what a filtered Parquet read skipped.
std::string PruningStatsLine(const parquet::PruningStats& stats);

// --int96-unit ns|us|ms (reading commands): INT96 read as timestamps of that unit. ns holds
// years 1677-2262 and fails on a value outside; us and ms hold Spark's whole range.
void AddInt96UnitOption(CLI::App* sub, std::string* unit);
Result<parquet::SchemaOptions> ParseInt96Unit(const std::string& unit);

// Opens `path` (a local file or, for Parquet, an http(s):// URL; a folder or a glob of Parquet
// files is one dataset, dataset_source.h). CSV-only options given for a Parquet input are an
// error naming the option.
Result<std::unique_ptr<BatchSource>> OpenBatchSource(const std::string& path, const CsvCliOptions& csv,
                                                     const SourceOptions& options, MemoryPool* pool);

// Prints source.SkippedRowsReport() on stderr when there is one.
void ReportSkippedRows(const BatchSource& source);

}  // namespace strata::cli
