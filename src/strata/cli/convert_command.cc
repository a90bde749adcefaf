// `strata convert IN OUT`: rewrites a file in another format or with other writer options
// (Parquet to Parquet today; CSV and Arrow IPC join with their layers). Batches stream from the
// reader to the writer, so memory is one batch plus the writer's row group, whatever the size.
// A progress line is drawn on stderr when it is a terminal.
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>

#include "strata/cli/command.h"
#include "strata/memory/memory_pool.h"
#include "strata/parquet/file_reader.h"
#include "strata/parquet/file_writer.h"

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
  std::string statistics = "on";
  int threads = 0;
  bool stats = false;
};

std::string Lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::tolower(c); });
  return text;
}

Result<codec::CompressionCodec> ParseCodec(const std::string& name) {
  const std::string n = Lower(name);
  if (n == "none" || n == "uncompressed") return codec::CompressionCodec::kUncompressed;
  if (n == "snappy") return codec::CompressionCodec::kSnappy;
  if (n == "gzip") return codec::CompressionCodec::kGzip;
  if (n == "zstd") return codec::CompressionCodec::kZstd;
  if (n == "lz4") return codec::CompressionCodec::kLz4;
  if (n == "lz4_raw" || n == "lz4raw") return codec::CompressionCodec::kLz4Raw;
  if (n == "brotli") return codec::CompressionCodec::kBrotli;
  return Status::Invalid("unknown codec '{}' (uncompressed, snappy, gzip, zstd, lz4, lz4_raw, brotli)", name);
}

Result<parquet::Encoding> ParseEncoding(const std::string& name) {
  const std::string n = Lower(name);
  if (n == "plain") return parquet::Encoding::kPlain;
  if (n == "rle") return parquet::Encoding::kRle;
  if (n == "rle_dictionary" || n == "dictionary") return parquet::Encoding::kRleDictionary;
  if (n == "delta_binary_packed") return parquet::Encoding::kDeltaBinaryPacked;
  if (n == "delta_length_byte_array") return parquet::Encoding::kDeltaLengthByteArray;
  if (n == "delta_byte_array") return parquet::Encoding::kDeltaByteArray;
  if (n == "byte_stream_split") return parquet::Encoding::kByteStreamSplit;
  return Status::Invalid(
      "unknown encoding '{}' (PLAIN, RLE, RLE_DICTIONARY, DELTA_BINARY_PACKED, DELTA_LENGTH_BYTE_ARRAY, "
      "DELTA_BYTE_ARRAY, BYTE_STREAM_SPLIT)",
      name);
}

Result<bool> ParseOnOff(const std::string& option, const std::string& value) {
  const std::string v = Lower(value);
  if (v == "on" || v == "true" || v == "1") return true;
  if (v == "off" || v == "false" || v == "0") return false;
  return Status::Invalid("{} takes on or off, not '{}'", option, value);
}

bool IsParquetPath(const std::string& path) {
  const std::string p = Lower(path);
  auto ends_with = [&](std::string_view suffix) {
    return p.size() >= suffix.size() && p.compare(p.size() - suffix.size(), suffix.size(), suffix) == 0;
  };
  return ends_with(".parquet") || ends_with(".pq") || ends_with(".parq");
}

Result<parquet::WriterOptions> MakeWriterOptions(const ConvertArgs& args) {
  parquet::WriterOptions options;
  STRATA_ASSIGN_OR_RETURN(options.columns.codec, ParseCodec(args.codec));
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
  options.file.threads = args.threads;
  // Per-column settings start from the defaults chosen above.
  auto column = [&](const std::string& path) -> parquet::ColumnWriteOptions& {
    auto [it, inserted] = options.column_overrides.try_emplace(path, options.columns);
    return it->second;
  };
  for (const std::string& spec : args.encodings) {
    const size_t eq = spec.find('=');
    if (eq == std::string::npos) {
      STRATA_ASSIGN_OR_RETURN(options.columns.encoding, ParseEncoding(spec));
      if (options.columns.encoding != parquet::Encoding::kRleDictionary) options.columns.dictionary = false;
      for (auto& [path, o] : options.column_overrides) o.encoding = options.columns.encoding;
    } else {
      if (eq == 0) return Status::Invalid("--encoding '{}': the column name is empty", spec);
      parquet::ColumnWriteOptions& o = column(spec.substr(0, eq));
      STRATA_ASSIGN_OR_RETURN(o.encoding, ParseEncoding(spec.substr(eq + 1)));
      if (o.encoding != parquet::Encoding::kRleDictionary) o.dictionary = false;
    }
  }
  for (const std::string& path : args.bloom_filters) column(path).bloom_filter = true;
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

class Progress {
 public:
  Progress(int64_t total_rows) : total_rows_(total_rows), enabled_(::isatty(STDERR_FILENO) == 1) {}

  void Update(int64_t rows, int64_t bytes, bool final = false) {
    if (!enabled_) return;
    const auto now = std::chrono::steady_clock::now();
    if (!final && now - last_ < std::chrono::milliseconds(100)) return;
    last_ = now;
    const double seconds = std::chrono::duration<double>(now - start_).count();
    const double fraction = total_rows_ > 0 ? static_cast<double>(rows) / static_cast<double>(total_rows_) : 1.0;
    const double rate = seconds > 0 ? static_cast<double>(rows) / seconds : 0.0;
    const double left = rate > 0 ? static_cast<double>(total_rows_ - rows) / rate : 0.0;
    constexpr int kWidth = 30;
    const int filled = static_cast<int>(fraction * kWidth);
    std::string bar(static_cast<size_t>(filled), '#');
    bar.resize(kWidth, '.');
    std::fprintf(stderr, "\r[%s] %5.1f%%  %lld / %lld rows  %s written  %.0f rows/s  %s left ", bar.c_str(),
                 100.0 * fraction, static_cast<long long>(rows), static_cast<long long>(total_rows_),
                 Bytes(static_cast<double>(bytes)).c_str(), rate, final ? "0 s" : fmt::format("{:.0f} s", left).c_str());
    if (final) std::fputc('\n', stderr);
  }

 private:
  int64_t total_rows_;
  bool enabled_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  std::chrono::steady_clock::time_point last_{};
};

Status RunConvert(const ConvertArgs& args) {
  if (!IsParquetPath(args.input)) {
    return Status::NotImplemented("'{}': convert reads Parquet files (.parquet) for now", args.input);
  }
  if (!IsParquetPath(args.output)) {
    return Status::NotImplemented("'{}': convert writes Parquet files (.parquet) for now", args.output);
  }
  STRATA_ASSIGN_OR_RETURN(parquet::WriterOptions options, MakeWriterOptions(args));
  // A file-size limit (ulimit -f) then fails the write with EFBIG, which the writer turns into
  // an error and a removed temporary file, instead of killing the process mid-file.
  ::signal(SIGXFSZ, SIG_IGN);
  // Ctrl-C or a kill mid-write removes the temporary file too.
  RemoveTemporaryFilesOnSignals();
  MemoryPool* pool = SystemMemoryPool();
  const auto start = std::chrono::steady_clock::now();
  STRATA_ASSIGN_OR_RETURN(auto reader, parquet::FileReader::OpenFile(args.input, pool));
  parquet::BatchReadOptions read;
  read.threads = args.threads;  // decoding and encoding share the process's one pool
  STRATA_ASSIGN_OR_RETURN(auto batches, reader->ReadBatches(read));
  STRATA_ASSIGN_OR_RETURN(auto writer, parquet::FileWriter::Open(args.output, batches->schema(), pool, options));
  Progress progress(reader->num_rows());
  while (true) {
    STRATA_ASSIGN_OR_RETURN(auto batch, batches->Next());
    if (!batch) break;
    STRATA_RETURN_NOT_OK(writer->WriteBatch(*batch));
    progress.Update(writer->num_rows(), writer->bytes_written());
  }
  STRATA_RETURN_NOT_OK(writer->Close());
  progress.Update(writer->num_rows(), writer->bytes_written(), true);
  if (args.stats) {
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const MemoryStats m = pool->stats();
    std::fprintf(stderr,
                 "%lld rows, %lld row groups, %lld bytes written in %.3f s; pool peak %lld bytes, %lld allocations, "
                 "%lld reallocations\n",
                 static_cast<long long>(writer->num_rows()),
                 static_cast<long long>(writer->metadata().row_groups.size()),
                 static_cast<long long>(writer->bytes_written()), seconds, static_cast<long long>(m.peak_bytes),
                 static_cast<long long>(m.num_allocations), static_cast<long long>(m.num_reallocations));
  }
  return Status::OK();
}

}  // namespace

void RegisterConvertCommand(CLI::App& app, CommandAction& action) {
  auto* sub = app.add_subcommand("convert", "Rewrite a file with other writer options (format by extension)");
  auto args = std::make_shared<ConvertArgs>();
  sub->add_option("input", args->input, "Input file (.parquet)")->required();
  sub->add_option("output", args->output, "Output file (.parquet); written under a temporary name, then renamed")
      ->required();
  sub->add_option("--codec", args->codec, "uncompressed, snappy (default), gzip, zstd, lz4, lz4_raw, brotli");
  sub->add_option("--level", args->level, "Compression level (zstd, gzip, brotli, lz4)");
  sub->add_option("--row-group-rows", args->row_group_rows, "Rows per row group (default 1048576)")
      ->check(CLI::PositiveNumber);
  sub->add_option("--row-group-bytes", args->row_group_bytes,
                  "Encoded bytes per row group, the bound on the writer's memory (default 64 MiB)")
      ->check(CLI::PositiveNumber);
  sub->add_option("--page-bytes", args->page_bytes, "Bytes per data page (default 1 MiB)")->check(CLI::PositiveNumber);
  sub->add_option("--page-rows", args->page_rows, "Rows per data page (default 20000)")->check(CLI::PositiveNumber);
  sub->add_option("--page-version", args->page_version, "Data page version: 1 (default) or 2");
  sub->add_option("--dictionary", args->dictionary, "Dictionary encoding: on (default) or off");
  sub->add_option("--encoding", args->encodings,
                  "Value encoding for every column (ENC) or one column (COLUMN=ENC); repeatable");
  sub->add_option("--bloom-filter", args->bloom_filters, "Columns that get a Bloom filter")->delimiter(',');
  sub->add_option("--statistics", args->statistics, "Statistics and page index: on (default) or off");
  sub->add_option("--threads", args->threads, "Threads decoding and encoding column chunks (default 0: every core)")
      ->check(CLI::NonNegativeNumber);
  sub->add_flag("--stats", args->stats, "Print rows, bytes, time and the memory pool's figures to stderr");
  sub->callback([&action, args] { action = [args] { return RunConvert(*args); }; });
}

}  // namespace strata::cli
