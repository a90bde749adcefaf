// BatchSource: any input as one stream of record batches, whatever its format: Parquet
// (FileReader + BatchReader, local, http(s):// or s3://), a folder or glob of Parquet files
// (dataset_batch_source.h), CSV/TSV (CsvReader, also .csv.gz, .csv.zst) or Arrow IPC (file or
// stream, ipc_batch_source.h). The format comes from BatchSourceOptions::format or the path's
// extension. The CLI's commands, the C API and Python open their inputs here.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "strata/array/record_batch.h"
#include "strata/arrow_c/stream.h"
#include "strata/csv/reader.h"
#include "strata/exec/executor.h"
#include "strata/memory/memory_pool.h"
#include "strata/parquet/encryption/decryption_options.h"
#include "strata/parquet/filter/filtered_reader.h"
#include "strata/parquet/schema.h"
#include "strata/types/type_names.h"
#include "strata/util/result.h"

namespace strata::dataset {

class BatchSource {
 public:
  virtual ~BatchSource() = default;

  // The schema of every batch (after the projection to BatchSourceOptions::columns).
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
  // One line on how a CSV input is read (dialect and header); "" for other formats.
  virtual std::string DialectLine() const { return ""; }
  // For a CSV input, every choice the sniffer made and what it considered, several lines;
  // "" for other formats.
  virtual std::string DetectionLines() const { return ""; }
  // What a CSV read repaired so far, one line each: a header of the wrong width, rows padded,
  // rows skipped as ragged (the count and the first lines where they were), a quote closed by
  // the end of the file; "" when none.
  virtual std::string SkippedRowsReport() const { return ""; }
  // With a filter on Parquet input: what the reader skipped so far, and how.
  virtual std::optional<parquet::PruningStats> pruning_stats() const { return std::nullopt; }
  // A folder or glob of files (dataset_batch_source.h): one line on its files, else "".
  virtual std::string DatasetLine() const { return ""; }
  // The file of a single Parquet input read unfiltered and without virtual columns, for a
  // rewrite column chunk by column chunk (strata convert); else nullptr.
  virtual parquet::FileReader* parquet_file() const { return nullptr; }
};

// kAuto: by the path (ResolveInputFormat).
enum class InputFormat { kAuto, kParquet, kCsv, kTsv, kIpcFile, kIpcStream };

// `requested` unless kAuto (kIpcFile on "-", standard input, is the stream format); else by
// the extension: .csv and .tsv (.tab), also followed by .gz, .gzip, .zst or .zstd, are CSV;
// .arrow, .feather and .ipc the Arrow IPC file format, .arrows its stream format; any other
// file starting with the IPC file magic is an IPC file; "-" is CSV; anything else is Parquet.
InputFormat ResolveInputFormat(const std::string& path, InputFormat requested = InputFormat::kAuto);

// What a reader of any input asks of it.
struct BatchSourceOptions {
  InputFormat format = InputFormat::kAuto;
  std::vector<std::string> columns;  // top-level columns, in this order (empty: all)
  int64_t batch_rows = 64 * 1024;
  int64_t max_batch_bytes = 0;  // Parquet: decoded bytes per batch at most, about (0: no bound)
  exec::Executor executor;  // where batches are decoded (a command's --threads); default: here
  // Rows kept (expr/parser.h grammar); empty: every row. Parquet input is pruned by
  // statistics, dictionaries, Bloom filters and the page index unless `pruning` is off (a
  // comparison point: the same rows, filtered after decoding); other inputs filter decoded rows.
  std::string filter;
  bool pruning = true;
  // When set, each batch ends with an int64 column of this name: the row's position in its
  // file (parquet::FileReaderOptions::row_number_column). A dataset adds `file_path_column`
  // too. Parquet input only.
  std::string row_number_column;
  std::string file_path_column;

  // Parquet only.
  bool verify_checksums = true;
  std::optional<bool> pre_buffer;  // unset: the reader's default (on for URLs)
  // Compressed bytes of row groups (of files, for a dataset) opened ahead while the current
  // one is decoded: BatchReadOptions / ScanOptions::read_ahead_bytes. Unset: their default.
  std::optional<int64_t> read_ahead_bytes;
  std::shared_ptr<const parquet::FileDecryptionOptions> decryption;  // keys of encrypted files
  parquet::SchemaOptions schema;  // INT96's unit
  bool restore_arrow_schema = true;  // parquet::FileReaderOptions::restore_arrow_schema

  // CSV only (TSV: a tab delimiter unless csv.parse.delimiter says otherwise). batch_rows,
  // executor and columns above replace csv.read's and csv.convert's.
  csv::CsvReadOptions csv;
  // Column types (csv::ApplySchemaSpec: the whole schema, or some columns by name); `csv_schema_label`
  // names them in messages (the CLI's "--schema").
  std::vector<ColumnTypeSpec> csv_schema;
  std::string csv_schema_label = "schema";
};

// The Parquet reader options and pruning switches `options` asks for (single files and
// datasets alike).
parquet::FileReaderOptions ParquetReaderOptions(const BatchSourceOptions& options);
parquet::FilterOptions PruningOptions(const BatchSourceOptions& options);

// Opens `path` (a local file, "-" for standard input (CSV or an IPC stream), or for Parquet an
// http(s):// or s3:// URL; a folder or a glob of Parquet files is one dataset). Buffers come from
// `pool`, which must outlive the source and its batches.
Result<std::unique_ptr<BatchSource>> OpenBatchSource(const std::string& path, const BatchSourceOptions& options,
                                                     MemoryPool* pool);

// The source's batches as an Arrow C stream (arrow_c/stream.h) that owns the source.
std::unique_ptr<arrow_c::RecordBatchStream> MakeArrowStream(std::unique_ptr<BatchSource> source);

}  // namespace strata::dataset
