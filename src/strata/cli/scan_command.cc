// `strata scan`: decodes every selected column of a Parquet file and summarises each: non-null
// count, null count, min and max; `--json` prints the one-line summary of SCAN-SUMMARY.md,
// `--stats` adds time, throughput and the memory pool's peak and allocation count.
#include <chrono>
#include <cstdio>

#include "strata/cli/command.h"
#include "strata/cli/scan_summary.h"
#include "strata/memory/memory_pool.h"
#include "strata/parquet/file_reader.h"
#if STRATA_WITH_HTTP
#include "strata/io/http_source.h"
#endif

namespace strata::cli {
namespace {

struct ScanArgs {
  std::string file;
  bool json = false;
  bool stats = false;
  bool no_checksums = false;
  int64_t batch_rows = 64 * 1024;
  std::vector<std::string> columns;
  std::string pre_buffer = "auto";  // auto | on | off
  int threads = 0;                  // all cores
};

// A local path, or an http(s):// URL read with range requests.
Result<std::shared_ptr<RandomAccessSource>> OpenSource(const std::string& location) {
  if (location.rfind("http://", 0) == 0 || location.rfind("https://", 0) == 0) {
#if STRATA_WITH_HTTP
    STRATA_ASSIGN_OR_RETURN(auto source, OpenHttpSource(location));
    return std::shared_ptr<RandomAccessSource>(std::move(source));
#else
    return Status::NotImplemented("this strata was built without HTTP support ({})", location);
#endif
  }
  return OpenLocalFile(location);
}

Status RunScan(const ScanArgs& args) {
  MemoryPool* pool = SystemMemoryPool();
  const auto start = std::chrono::steady_clock::now();
  parquet::FileReaderOptions reader_options;
  reader_options.pages.verify_checksums = !args.no_checksums;
  if (args.pre_buffer != "auto") reader_options.pre_buffer = args.pre_buffer == "on";
  STRATA_ASSIGN_OR_RETURN(auto source, OpenSource(args.file));
  STRATA_ASSIGN_OR_RETURN(auto reader, parquet::FileReader::Open(source, pool, reader_options));
  parquet::BatchReadOptions options;
  options.batch_rows = args.batch_rows;
  options.threads = args.threads;
  for (const auto& name : args.columns) {
    const int index = reader->descriptor().FieldIndex(name);
    if (index < 0) return Status::Invalid("'{}' has no top-level column '{}'", args.file, name);
    options.columns.push_back(index);
  }
  STRATA_ASSIGN_OR_RETURN(auto batches, reader->ReadBatches(options));
  ScanSummary summary(*batches->schema());
  while (true) {
    STRATA_ASSIGN_OR_RETURN(auto batch, batches->Next());
    if (!batch) break;
    summary.Add(*batch);
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (args.json) {
    std::printf("%s\n", summary.ToJson().c_str());
  } else {
    std::fputs(summary.ToText().c_str(), stdout);
  }
  if (args.stats) {
    const MemoryStats m = pool->stats();
    std::fprintf(args.json ? stderr : stdout,
                 "elapsed %.3f s, %.0f rows/s, %.1f MB/s decoded, pool peak %lld bytes, %lld allocations, "
                 "%lld reallocations, %lld source reads\n",
                 seconds, static_cast<double>(summary.rows()) / seconds,
                 static_cast<double>(summary.decoded_bytes()) / 1e6 / seconds, static_cast<long long>(m.peak_bytes),
                 static_cast<long long>(m.num_allocations), static_cast<long long>(m.num_reallocations),
                 static_cast<long long>(source->read_count()));
  }
  return Status::OK();
}

}  // namespace

void RegisterScanCommand(CLI::App& app, CommandAction& action) {
  auto* sub = app.add_subcommand("scan", "Decode every column of a Parquet file and summarise it");
  auto args = std::make_shared<ScanArgs>();
  sub->add_option("file", args->file, "Parquet file (path or http(s):// URL)")->required();
  sub->add_flag("--json", args->json, "One JSON line (the scan summary other engines compute too)");
  sub->add_flag("--stats", args->stats, "Also print time, throughput and the memory pool's figures");
  sub->add_option("--columns", args->columns, "Top-level columns to read (default: all)")->delimiter(',');
  sub->add_option("--batch-rows", args->batch_rows, "Rows per batch")->check(CLI::PositiveNumber);
  sub->add_flag("--no-checksums", args->no_checksums, "Skip page CRC verification");
  sub->add_option("--pre-buffer", args->pre_buffer, "Coalesce and prefetch each row group's ranges")
      ->check(CLI::IsMember({"auto", "on", "off"}));
  sub->add_option("--threads", args->threads, "Threads decoding the columns of a batch (0: all cores, 1: this one)")
      ->check(CLI::NonNegativeNumber);
  sub->callback([&action, args] { action = [args] { return RunScan(*args); }; });
}

}  // namespace strata::cli
