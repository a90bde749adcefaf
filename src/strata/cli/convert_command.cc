// `strata convert IN OUT`: rewrites a file in another format or with other writer options:
// Parquet or CSV in (input_source.h), Parquet, CSV or TSV out by the output's extension. Batches
// stream from the reader to the writer, so memory is one batch plus the writer's row group (or
// output buffer), whatever the size. A progress line is drawn on stderr when it is a terminal.
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>

#include "strata/cli/command.h"
#include "strata/cli/encryption_cli_options.h"
#include "strata/codec/codec_names.h"
#include "strata/parquet/encoding/encoding_names.h"
#include "strata/cli/input_source.h"
#include "strata/cli/parquet_rewrite.h"
#include "strata/csv/writer.h"
#include "strata/exec/process_pool.h"
#include "strata/io/output_sink.h"
#include "strata/ipc/ipc_writer.h"
#include "strata/memory/malloc_tuning.h"
#include "strata/memory/memory_pool.h"
#include "strata/parquet/write/file_writer.h"
#include "strata/io/location.h"

namespace strata::cli {
namespace {

struct ConvertArgs {
  std::string input;
  std::string output;
  std::string codec = "snappy";
  std::optional<int> level;
  int64_t row_group_rows = 0;
  int64_t row_group_bytes = 0;
  int64_t page_bytes = 0;
  int64_t page_rows = 0;
  int page_version = 1;
  std::string dictionary = "on";
  std::vector<std::string> encodings;
  std::vector<std::string> bloom_filters;
  bool content_defined_chunking = false;
  int64_t cdc_min_size = 0;
  int64_t cdc_max_size = 0;
  std::optional<int> cdc_norm_level;
  std::string statistics = "on";
  int threads = 0;
  bool stats = false;
  std::optional<std::string> csv_null;
  std::string ipc_compression = "none";
  std::string int96_unit = "ns";
  bool no_restore_arrow_schema = false;
  bool row_number = false;
  CsvCliOptions csv;
  EncryptionCliOptions encryption;
  std::vector<CLI::Option*> parquet_only;  // writer options that mean nothing for CSV output
  CLI::Option* csv_null_option = nullptr;
  CLI::Option* ipc_compression_option = nullptr;
};

std::string Lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::tolower(c); });
  return text;
}

Result<bool> ParseOnOff(const std::string& option, const std::string& value) {
  const std::string v = Lower(value);
  if (v == "on" || v == "true" || v == "1") return true;
  if (v == "off" || v == "false" || v == "0") return false;
  return Status::Invalid("{} takes on or off, not '{}'", option, value);
}

enum class OutputFormat { kParquet, kCsv, kTsv, kIpcFile, kIpcStream };

bool IsIpc(OutputFormat format) { return format == OutputFormat::kIpcFile || format == OutputFormat::kIpcStream; }

Result<OutputFormat> OutputFormatOf(const std::string& path) {
  const std::string p = Lower(path);
  auto ends_with = [&](std::string_view suffix) {
    return p.size() >= suffix.size() && p.compare(p.size() - suffix.size(), suffix.size(), suffix) == 0;
  };
  if (ends_with(".parquet") || ends_with(".pq") || ends_with(".parq")) return OutputFormat::kParquet;
  if (ends_with(".csv")) return OutputFormat::kCsv;
  if (ends_with(".tsv")) return OutputFormat::kTsv;
  if (ends_with(".arrow") || ends_with(".feather") || ends_with(".ipc")) return OutputFormat::kIpcFile;
  if (ends_with(".arrows")) return OutputFormat::kIpcStream;
  for (const char* compressed : {".csv.gz", ".csv.zst", ".tsv.gz", ".tsv.zst", ".csv.zstd", ".tsv.zstd"}) {
    if (ends_with(compressed)) {
      return Status::NotImplemented("'{}': convert does not compress CSV output (write .csv, then compress it)", path);
    }
  }
  return Status::NotImplemented("'{}': convert writes .parquet, .csv, .tsv, Arrow IPC files (.arrow, .feather, .ipc) or streams (.arrows), by the output's extension", path);
}

Result<parquet::WriterOptions> MakeWriterOptions(const ConvertArgs& args) {
  parquet::WriterOptions options;
  STRATA_ASSIGN_OR_RETURN(options.columns.codec, codec::CodecFromName(args.codec));
  if (args.level) options.columns.compression_level = *args.level;
  if (args.row_group_rows > 0) options.file.max_row_group_rows = args.row_group_rows;
  if (args.row_group_bytes > 0) options.file.max_row_group_bytes = args.row_group_bytes;
  if (args.page_bytes > 0) options.file.data_page_bytes = args.page_bytes;
  if (args.page_rows > 0) options.file.data_page_rows = args.page_rows;
  if (args.page_version != 1 && args.page_version != 2) {
    return Status::Invalid("--page-version takes 1 or 2, not {}", args.page_version);
  }
  options.file.page_version = args.page_version == 2 ? parquet::DataPageVersion::kV2 : parquet::DataPageVersion::kV1;
  STRATA_ASSIGN_OR_RETURN(options.columns.dictionary, ParseOnOff("--dictionary", args.dictionary));
  STRATA_ASSIGN_OR_RETURN(bool statistics, ParseOnOff("--statistics", args.statistics));
  options.columns.statistics = statistics;
  options.file.executor = exec::ProcessExecutor(args.threads);
  // Any --cdc-* option turns content-defined chunking on.
  parquet::ContentDefinedChunking& cdc = options.columns.content_defined_chunking;
  cdc.enabled = args.content_defined_chunking || args.cdc_min_size > 0 || args.cdc_max_size > 0 ||
                args.cdc_norm_level.has_value();
  if (args.cdc_min_size > 0) cdc.min_chunk_bytes = args.cdc_min_size;
  if (args.cdc_max_size > 0) cdc.max_chunk_bytes = args.cdc_max_size;
  if (args.cdc_norm_level) cdc.norm_level = *args.cdc_norm_level;
  // Per-column settings start from the defaults chosen above.
  auto column = [&](const std::string& path) -> parquet::ColumnWriteOptions& {
    auto [it, inserted] = options.column_overrides.try_emplace(path, options.columns);
    return it->second;
  };
  for (const std::string& spec : args.encodings) {
    const size_t eq = spec.find('=');
    if (eq == std::string::npos) {
      STRATA_ASSIGN_OR_RETURN(options.columns.encoding, parquet::EncodingFromName(spec));
      if (options.columns.encoding != parquet::Encoding::kRleDictionary) options.columns.dictionary = false;
      for (auto& [path, o] : options.column_overrides) o.encoding = options.columns.encoding;
    } else {
      if (eq == 0) return Status::Invalid("--encoding '{}': the column name is empty", spec);
      parquet::ColumnWriteOptions& o = column(spec.substr(0, eq));
      STRATA_ASSIGN_OR_RETURN(o.encoding, parquet::EncodingFromName(spec.substr(eq + 1)));
      if (o.encoding != parquet::Encoding::kRleDictionary) o.dictionary = false;
    }
  }
  for (const std::string& path : args.bloom_filters) column(path).bloom_filter = true;
  STRATA_ASSIGN_OR_RETURN(options.file.encryption, MakeEncryptionOptions(args.encryption));
  STRATA_RETURN_NOT_OK(options.Validate());
  return options;
}

// "12.3 MB", "1.2 GB".
std::string Bytes(double bytes) {
  const char* units[] = {"B", "kB", "MB", "GB", "TB"};
  int unit = 0;
  while (bytes >= 1000 && unit < 4) {
    bytes /= 1000;
    ++unit;
  }
  return fmt::format("{:.1f} {}", bytes, units[unit]);
}

// Drawn only when stderr is a terminal. Parquet input knows its rows ahead (the footer); CSV
// input goes by the bytes of the file consumed (compressed bytes for .csv.gz), and without a
// known size (a pipe) shows no fraction.
class Progress {
 public:
  explicit Progress(const BatchSource& source) : source_(source), enabled_(::isatty(STDERR_FILENO) == 1) {}

  void Update(int64_t rows, int64_t bytes, bool final = false) {
    if (!enabled_) return;
    const auto now = std::chrono::steady_clock::now();
    if (!final && now - last_ < std::chrono::milliseconds(100)) return;
    last_ = now;
    const double seconds = std::chrono::duration<double>(now - start_).count();
    const double rate = seconds > 0 ? static_cast<double>(rows) / seconds : 0.0;
    const int64_t total_rows = source_.num_rows();
    const int64_t size = source_.raw_size();
    double fraction = 1.0;
    double left = 0.0;
    std::string counts;
    if (total_rows >= 0) {
      if (total_rows > 0) fraction = static_cast<double>(rows) / static_cast<double>(total_rows);
      left = rate > 0 ? static_cast<double>(total_rows - rows) / rate : 0.0;
      counts = fmt::format("{} / {} rows", rows, total_rows);
    } else {
      const int64_t read = source_.raw_bytes_read();
      if (size > 0) fraction = std::min(1.0, static_cast<double>(read) / static_cast<double>(size));
      if (!final && size <= 0) fraction = 0.0;
      left = fraction > 0 && fraction < 1 ? seconds * (1 - fraction) / fraction : 0.0;
      counts = size > 0 ? fmt::format("{} rows  {} of {} read", rows, Bytes(static_cast<double>(read)),
                                      Bytes(static_cast<double>(size)))
                        : fmt::format("{} rows  {} read", rows, Bytes(static_cast<double>(read)));
    }
    constexpr int kWidth = 30;
    const int filled = static_cast<int>(fraction * kWidth);
    std::string bar(static_cast<size_t>(filled), '#');
    bar.resize(kWidth, '.');
    const bool known = total_rows >= 0 || size > 0;
    std::fprintf(stderr, "\r[%s] %5.1f%%  %s  %s written  %.0f rows/s  %s left ", bar.c_str(), 100.0 * fraction,
                 counts.c_str(), Bytes(static_cast<double>(bytes)).c_str(), rate,
                 final ? "0 s" : known ? fmt::format("{:.0f} s", left).c_str() : "? s");
    if (final) std::fputc('\n', stderr);
  }

 private:
  const BatchSource& source_;
  bool enabled_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  std::chrono::steady_clock::time_point last_{};
};

// The writer of either output format, as convert uses it.
class BatchSink {
 public:
  virtual ~BatchSink() = default;
  virtual Status Write(const RecordBatch& batch) = 0;
  virtual Status Close() = 0;
  virtual int64_t rows() const = 0;
  virtual int64_t bytes() const = 0;
  // "12 rows, 1 row groups, 345 bytes written" for --stats.
  virtual std::string Written() const = 0;
};

class ParquetSink final : public BatchSink {
 public:
  explicit ParquetSink(std::unique_ptr<parquet::FileWriter> writer) : writer_(std::move(writer)) {}
  Status Write(const RecordBatch& batch) override { return writer_->WriteBatch(batch); }
  Status Close() override { return writer_->Close(); }
  int64_t rows() const override { return writer_->num_rows(); }
  int64_t bytes() const override { return writer_->bytes_written(); }
  std::string Written() const override {
    return fmt::format("{} rows, {} row groups, {} bytes written", writer_->num_rows(),
                       writer_->metadata().row_groups.size(), writer_->bytes_written());
  }

 private:
  std::unique_ptr<parquet::FileWriter> writer_;
};

class CsvSink final : public BatchSink {
 public:
  explicit CsvSink(std::unique_ptr<csv::CsvWriter> writer) : writer_(std::move(writer)) {}
  Status Write(const RecordBatch& batch) override { return writer_->Write(batch); }
  Status Close() override { return writer_->Close(); }
  int64_t rows() const override { return writer_->rows_written(); }
  int64_t bytes() const override { return writer_->bytes_written(); }
  std::string Written() const override {
    return fmt::format("{} rows, {} bytes written", writer_->rows_written(), writer_->bytes_written());
  }

 private:
  std::unique_ptr<csv::CsvWriter> writer_;
};

class IpcSink final : public BatchSink {
 public:
  explicit IpcSink(std::unique_ptr<ipc::IpcWriter> writer) : writer_(std::move(writer)) {}
  Status Write(const RecordBatch& batch) override {
    STRATA_RETURN_NOT_OK(writer_->Write(batch));
    rows_ += batch.num_rows();
    return Status::OK();
  }
  Status Close() override { return writer_->Close(); }
  int64_t rows() const override { return rows_; }
  int64_t bytes() const override { return writer_->stats().bytes_written; }
  std::string Written() const override {
    const ipc::IpcWriteStats& s = writer_->stats();
    return fmt::format("{} rows, {} record batches, {} dictionary batches ({} deltas), {} bytes written "
                       "(bodies {} -> {} bytes)",
                       rows_, s.record_batches, s.dictionary_batches, s.dictionary_deltas, s.bytes_written,
                       s.body_bytes_uncompressed, s.body_bytes_written);
  }

 private:
  std::unique_ptr<ipc::IpcWriter> writer_;
  int64_t rows_ = 0;
};

// The writer options checked and the sink opened: options that do not apply to the output's
// format are refused rather than ignored.
Result<std::unique_ptr<BatchSink>> OpenSink(const ConvertArgs& args, OutputFormat format, const SchemaPtr& schema,
                                            MemoryPool* pool) {
  if (format == OutputFormat::kParquet) {
    STRATA_ASSIGN_OR_RETURN(parquet::WriterOptions options, MakeWriterOptions(args));
    // The writer takes a schema of its own (a copy: the fields are shared).
    STRATA_ASSIGN_OR_RETURN(auto writer,
                            parquet::FileWriter::Open(args.output, std::make_shared<Schema>(*schema), pool, options));
    return std::unique_ptr<BatchSink>(std::make_unique<ParquetSink>(std::move(writer)));
  }
  if (IsIpc(format)) {
    ipc::IpcWriteOptions options;
    STRATA_ASSIGN_OR_RETURN(options.compression, ipc::ParseIpcCompression(args.ipc_compression));
    STRATA_ASSIGN_OR_RETURN(auto sink, OpenOutputLocation(args.output, pool));
    STRATA_ASSIGN_OR_RETURN(auto writer, ipc::IpcWriter::Open(std::move(sink),
                                                              format == OutputFormat::kIpcFile ? ipc::IpcFormat::kFile
                                                                                               : ipc::IpcFormat::kStream,
                                                              schema, options, pool));
    return std::unique_ptr<BatchSink>(std::make_unique<IpcSink>(std::move(writer)));
  }
  csv::WriteOptions options;
  options.delimiter = format == OutputFormat::kTsv ? '\t' : ',';
  if (args.csv_null) options.null_value = *args.csv_null;
  STRATA_RETURN_NOT_OK(options.Validate());
  STRATA_ASSIGN_OR_RETURN(auto writer, csv::CsvWriter::Open(args.output, schema, pool, options));
  return std::unique_ptr<BatchSink>(std::make_unique<CsvSink>(std::move(writer)));
}

Status CheckOptionsApply(const ConvertArgs& args, OutputFormat format) {
  const char* name = format == OutputFormat::kParquet ? "Parquet" : IsIpc(format) ? "Arrow IPC" : "CSV";
  const bool csv = format == OutputFormat::kCsv || format == OutputFormat::kTsv;
  if (!csv && args.csv_null_option != nullptr && args.csv_null_option->count() > 0) {
    return Status::Invalid("--csv-null applies to CSV output, and '{}' is {}", args.output, name);
  }
  if (!IsIpc(format) && args.ipc_compression_option != nullptr && args.ipc_compression_option->count() > 0) {
    return Status::Invalid("--ipc-compression applies to Arrow IPC output, and '{}' is {}", args.output, name);
  }
  if (format != OutputFormat::kParquet) {
    for (const CLI::Option* option : args.parquet_only) {
      if (option->count() > 0) {
        return Status::Invalid("{} applies to Parquet output, and '{}' is {}", option->get_name(), args.output, name);
      }
    }
  }
  if (IsIpc(format)) STRATA_RETURN_NOT_OK(ipc::ParseIpcCompression(args.ipc_compression).status());
  return Status::OK();
}

// Rows read at a time. The writer encodes in slices and pages of its own (20,000 rows a page by
// default), so a batch larger than that buys nothing and holds more decoded rows: on lineitem
// (16 columns) 16,384-row batches hold a quarter of what the reader's 65,536 do (pool peak
// 100 -> 87 MB at 2 threads) at the same speed.
constexpr int64_t kConvertBatchRows = 16 * 1024;
// And at most about this many decoded bytes: on a 2,000-column table 16,384 rows are 262 MB a
// batch. Issue 41's wide table: 2,097-row batches, pool peak 950 -> 567 MB (RSS 1.49 -> 0.84 GB) in
// the same 21 s.
constexpr int64_t kConvertBatchBytes = 32 << 20;

void PrintConvertStats(const std::string& written, std::chrono::steady_clock::time_point start, MemoryPool* pool) {
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const MemoryStats m = pool->stats();
  std::fprintf(stderr, "%s in %.3f s; pool peak %lld bytes, %lld allocations, %lld reallocations\n", written.c_str(),
               seconds, static_cast<long long>(m.peak_bytes), static_cast<long long>(m.num_allocations),
               static_cast<long long>(m.num_reallocations));
}

// Parquet to Parquet column chunk by column chunk (parquet_rewrite.h), when that applies and
// no row group option asks for row groups other than the input's. True when it wrote OUT.
Result<bool> TryRewriteByColumn(const ConvertArgs& args, BatchSource& batches, MemoryPool* pool,
                                std::chrono::steady_clock::time_point start) {
  parquet::FileReader* file = batches.parquet_file();
  if (file == nullptr || args.row_group_rows > 0 || args.row_group_bytes > 0) return false;
  STRATA_ASSIGN_OR_RETURN(parquet::WriterOptions options, MakeWriterOptions(args));
  if (!WhyNotByColumn(*file, options, pool->limit()).empty()) return false;
  options.file.column_by_column = true;
  STRATA_ASSIGN_OR_RETURN(auto writer, parquet::FileWriter::Open(args.output, std::make_shared<Schema>(*batches.schema()),
                                                                 pool, options));
  Progress progress(batches);
  STRATA_RETURN_NOT_OK(
      RewriteByColumn(*file, *writer, [&] { progress.Update(writer->num_rows(), writer->bytes_written()); }));
  STRATA_RETURN_NOT_OK(writer->Close());
  progress.Update(writer->num_rows(), writer->bytes_written(), true);
  if (args.stats) {
    PrintConvertStats(fmt::format("{} rows, {} row groups, {} bytes written (column by column)", writer->num_rows(),
                                  writer->metadata().row_groups.size(), writer->bytes_written()),
                      start, pool);
  }
  return true;
}

Status RunConvert(const ConvertArgs& args) {
  UseOneMallocArena();  // before the thread pool's workers allocate
  STRATA_ASSIGN_OR_RETURN(const OutputFormat format, OutputFormatOf(args.output));
  STRATA_RETURN_NOT_OK(CheckOptionsApply(args, format));
  if (format == OutputFormat::kParquet) STRATA_RETURN_NOT_OK(MakeWriterOptions(args).status());  // before reading
  // A file-size limit (ulimit -f) then fails the write with EFBIG, which the writer turns into
  // an error and a removed temporary file, instead of killing the process mid-file.
  ::signal(SIGXFSZ, SIG_IGN);
  // Ctrl-C or a kill mid-write removes the temporary file too.
  RemoveTemporaryFilesOnSignals();
  MemoryPool* pool = SystemMemoryPool();
  const auto start = std::chrono::steady_clock::now();
  SourceOptions read;
  STRATA_ASSIGN_OR_RETURN(read.decryption, MakeDecryptionOptions(args.encryption));
  STRATA_ASSIGN_OR_RETURN(read.schema, ParseInt96Unit(args.int96_unit));
  read.restore_arrow_schema = !args.no_restore_arrow_schema;
  SetRowNumberColumns(args.row_number, args.input, &read);
  read.executor = exec::ProcessExecutor(args.threads);  // decoding and encoding share the process's one pool
  read.batch_rows = kConvertBatchRows;
  read.max_batch_bytes = kConvertBatchBytes;
  // No row groups opened ahead: the writer's encoding keeps the pool's threads busy already,
  // while the opened chunks and their first decompressed pages (up to 8 MB compressed, and
  // scattered through the heap) stay alive beside the writer's row group. On lineitem at two
  // threads: peak RSS 99 -> 81 MiB, pool peak 58 -> 50 MB (medians of 5, load ~1).
  read.read_ahead_bytes = 0;
  STRATA_ASSIGN_OR_RETURN(auto batches, OpenBatchSource(args.input, args.csv, read, pool));
  if (format == OutputFormat::kParquet) {
    STRATA_ASSIGN_OR_RETURN(const bool written, TryRewriteByColumn(args, *batches, pool, start));
    if (written) return Status::OK();
  }
  STRATA_ASSIGN_OR_RETURN(auto writer, OpenSink(args, format, batches->schema(), pool));
  Progress progress(*batches);
  while (true) {
    STRATA_ASSIGN_OR_RETURN(auto batch, batches->Next());
    if (!batch) break;
    STRATA_RETURN_NOT_OK(writer->Write(*batch));
    progress.Update(writer->rows(), writer->bytes());
  }
  STRATA_RETURN_NOT_OK(writer->Close());
  progress.Update(writer->rows(), writer->bytes(), true);
  ReportSkippedRows(*batches);
  if (args.stats) PrintConvertStats(writer->Written(), start, pool);
  return Status::OK();
}

}  // namespace

void RegisterConvertCommand(CLI::App& app, CommandAction& action) {
  auto* sub = app.add_subcommand("convert", "Rewrite a file in another format or with other writer options");
  auto args = std::make_shared<ConvertArgs>();
  auto& parquet_only = args->parquet_only;
  sub->add_option("input", args->input,
                  "Input file: Parquet, CSV (.csv, .tsv, .csv.gz, ...) or Arrow IPC (.arrow, .feather, .ipc, .arrows)")
      ->required();
  sub->add_option("output", args->output,
                  "Output file (.parquet, .csv, .tsv, .arrow, .feather, .ipc or .arrows); written under a temporary name, then "
                  "renamed")
      ->required();
  parquet_only.push_back(
      sub->add_option("--codec", args->codec, "uncompressed, snappy (default), gzip, zstd, lz4, lz4_raw, brotli, lzo"));
  parquet_only.push_back(sub->add_option("--level", args->level, "Compression level (zstd, gzip, brotli, lz4)"));
  parquet_only.push_back(sub->add_option("--row-group-rows", args->row_group_rows, "Rows per row group (default 262144)")
                             ->check(CLI::PositiveNumber));
  parquet_only.push_back(sub->add_option("--row-group-bytes", args->row_group_bytes,
                                         "Encoded bytes per row group, the bound on the writer's memory (default 64 MiB)")
                             ->check(CLI::PositiveNumber));
  parquet_only.push_back(sub->add_option("--page-bytes", args->page_bytes, "Bytes per data page (default 1 MiB)")
                             ->check(CLI::PositiveNumber));
  parquet_only.push_back(sub->add_option("--page-rows", args->page_rows, "Rows per data page (default 20000)")
                             ->check(CLI::PositiveNumber));
  parquet_only.push_back(sub->add_option("--page-version", args->page_version, "Data page version: 1 (default) or 2"));
  parquet_only.push_back(sub->add_option("--dictionary", args->dictionary, "Dictionary encoding: on (default) or off"));
  parquet_only.push_back(sub->add_option("--encoding", args->encodings,
                                         "Value encoding for every column (ENC) or one column (COLUMN=ENC); repeatable. "
                                         "ALP (FLOAT, DOUBLE) is a Preview encoding many readers cannot read yet"));
  parquet_only.push_back(
      sub->add_option("--bloom-filter", args->bloom_filters, "Columns that get a Bloom filter")->delimiter(','));
  parquet_only.push_back(sub->add_flag("--content-defined-chunking", args->content_defined_chunking,
                                       "End data pages where a rolling hash over the values says, so that an edit "
                                       "changes only the pages around it (deduplicating storage)"));
  parquet_only.push_back(sub->add_option("--cdc-min-size", args->cdc_min_size,
                                         "Content-defined chunks' minimum bytes (default 262144; implies "
                                         "--content-defined-chunking)")
                             ->check(CLI::PositiveNumber));
  parquet_only.push_back(sub->add_option("--cdc-max-size", args->cdc_max_size,
                                         "Content-defined chunks' maximum bytes (default 1048576; implies "
                                         "--content-defined-chunking)")
                             ->check(CLI::PositiveNumber));
  parquet_only.push_back(sub->add_option("--cdc-norm-level", args->cdc_norm_level,
                                         "Content-defined chunking's normalisation level, -8 to 8 (default 0; higher: "
                                         "smaller chunks; implies --content-defined-chunking)"));
  parquet_only.push_back(
      sub->add_option("--statistics", args->statistics, "Statistics and page index: on (default) or off"));
  sub->add_option("--threads", args->threads, "Threads decoding and encoding column chunks (default 0: every core)")
      ->check(CLI::NonNegativeNumber);
  sub->add_flag("--stats", args->stats, "Print rows, bytes, time and the memory pool's figures to stderr");
  args->csv_null_option =
      sub->add_option("--csv-null", args->csv_null, "How CSV output spells a null (default: an empty field)");
  args->ipc_compression_option = sub->add_option("--ipc-compression", args->ipc_compression,
                                                 "Arrow IPC output: body compression none (default), lz4 or zstd");
  AddInt96UnitOption(sub, &args->int96_unit);
  AddNoRestoreArrowSchemaFlag(sub, &args->no_restore_arrow_schema);
  AddRowNumberFlag(sub, &args->row_number);
  AddCsvOptions(sub, &args->csv);
  AddEncryptionOptions(sub, &args->encryption);
  AddEncryptionWriteOptions(sub, &args->encryption);
  for (CLI::Option* option : args->encryption.write_options) parquet_only.push_back(option);
  sub->callback([&action, args] { action = [args] { return RunConvert(*args); }; });
}

}  // namespace strata::cli
