// `strata scan`: decodes every selected column of a Parquet or CSV file and summarises each:
// non-null count, null count, min and max; `--json` prints the one-line summary of
// SCAN-SUMMARY.md, `--stats` adds time, throughput and the memory pool's peak and allocation
// count.
#include <chrono>
#include <cstdio>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "strata/cli/command.h"
#include "strata/cli/encryption_cli_options.h"
#include "strata/cli/input_source.h"
#include "strata/cli/scan_summary.h"
#include "strata/exec/process_pool.h"
#include "strata/memory/memory_pool.h"

namespace strata::cli {
namespace {

struct ScanArgs {
  std::string file;
  bool json = false;
  bool stats = false;
  bool no_checksums = false;
  bool no_restore_arrow_schema = false;
  bool row_number = false;
  // Small enough that a batch's columns are still in the core's cache when the summary reads
  // them: on the lineitem file 8,192 rows scanned 1.3x faster than 65,536, with a third less
  // memory (the other benchmark files: the same or a little faster).
  int64_t batch_rows = 8 * 1024;
  std::vector<std::string> columns;
  std::string pre_buffer = "auto";  // auto | on | off
  std::optional<std::string> int96_unit;  // unset: the summary contract's wrapping nanoseconds
  int threads = 0;                  // all cores
  std::string filter;
  std::string pruning = "on";
  CsvCliOptions csv;
  EncryptionCliOptions encryption;
  std::vector<CLI::Option*> parquet_only;
};

Status RunScan(const ScanArgs& args) {
  MemoryPool* pool = SystemMemoryPool();
  const auto start = std::chrono::steady_clock::now();
  STRATA_ASSIGN_OR_RETURN(const InputFormat format, ResolveInputFormat(args.file, args.csv.input_format));
  if (format != InputFormat::kParquet) {
    for (const CLI::Option* option : args.parquet_only) {
      if (option->count() > 0) {
        return Status::Invalid("{} applies to Parquet input, and '{}' is CSV", option->get_name(), args.file);
      }
    }
  }
  SourceOptions options;
  STRATA_ASSIGN_OR_RETURN(options.decryption, MakeDecryptionOptions(args.encryption));
  options.batch_rows = args.batch_rows;
  options.executor = exec::ProcessExecutor(args.threads);
  options.columns = args.columns;
  options.verify_checksums = !args.no_checksums;
  options.restore_arrow_schema = !args.no_restore_arrow_schema;
  SetRowNumberColumns(args.row_number, args.file, &options);
  options.filter = args.filter;
  options.pruning = args.pruning == "on";
  if (args.pre_buffer != "auto") options.pre_buffer = args.pre_buffer == "on";
  if (args.int96_unit) {
    STRATA_ASSIGN_OR_RETURN(options.schema, ParseInt96Unit(*args.int96_unit));
  } else {
    // The scan summary (SCAN-SUMMARY.md) reads INT96 as nanoseconds in wrapping arithmetic, so
    // that engines compare on one rule.
    options.schema.int96_wrap = true;
  }
  STRATA_ASSIGN_OR_RETURN(auto batches, OpenBatchSource(args.file, args.csv, options, pool));
  ScanSummary summary(*batches->schema());
  // Batches consumed on this thread fold their columns in parallel; batches handed over on the
  // pool's threads (a Parquet file's row groups read at once) are folded there, where they
  // were decoded, into one partial summary per thread, merged at the end.
  const std::thread::id main_thread = std::this_thread::get_id();
  std::mutex partials_mutex;
  std::vector<std::pair<std::thread::id, std::unique_ptr<ScanSummary>>> partials;
  STRATA_RETURN_NOT_OK(batches->ForEachBatch([&](std::shared_ptr<RecordBatch> batch) {
    if (std::this_thread::get_id() == main_thread) {
      summary.Add(*batch, options.executor);
      return Status::OK();
    }
    ScanSummary* partial = nullptr;
    {
      std::lock_guard<std::mutex> lock(partials_mutex);
      for (auto& [id, summary_of_thread] : partials) {
        if (id == std::this_thread::get_id()) partial = summary_of_thread.get();
      }
      if (partial == nullptr) {
        partials.emplace_back(std::this_thread::get_id(), std::make_unique<ScanSummary>(*batches->schema()));
        partial = partials.back().second.get();
      }
    }
    partial->Add(*batch);
    return Status::OK();
  }));
  for (const auto& [id, partial] : partials) summary.Merge(*partial);
  ReportSkippedRows(*batches);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (args.json) {
    std::printf("%s\n", summary.ToJson().c_str());
  } else {
    std::fputs(summary.ToText().c_str(), stdout);
  }
  if (args.stats) {
    const MemoryStats m = pool->stats();
    // Parquet counts the source's reads; a CSV input is read front to back once.
    const std::string reads = batches->read_count() >= 0
                                  ? fmt::format("{} source reads", batches->read_count())
                                  : fmt::format("{} input bytes read", batches->raw_bytes_read());
    std::fprintf(args.json ? stderr : stdout,
                 "elapsed %.3f s, %.0f rows/s, %.1f MB/s decoded, pool peak %lld bytes, %lld allocations, "
                 "%lld reallocations, %s\n",
                 seconds, static_cast<double>(summary.rows()) / seconds,
                 static_cast<double>(summary.decoded_bytes()) / 1e6 / seconds, static_cast<long long>(m.peak_bytes),
                 static_cast<long long>(m.num_allocations), static_cast<long long>(m.num_reallocations), reads.c_str());
    if (auto pruning = batches->pruning_stats()) {
      std::fprintf(args.json ? stderr : stdout, "%s\n", PruningStatsLine(*pruning).c_str());
    }
    if (const std::string files = batches->DatasetLine(); !files.empty()) {
      std::fprintf(args.json ? stderr : stdout, "%s\n", files.c_str());
    }
  }
  return Status::OK();
}

}  // namespace

void RegisterScanCommand(CLI::App& app, CommandAction& action) {
  auto* sub = app.add_subcommand("scan", "Decode every column of a Parquet or CSV file and summarise it");
  auto args = std::make_shared<ScanArgs>();
  sub->add_option("file", args->file,
                  "Parquet file (path or http(s):// URL), a folder or glob of Parquet files, or a CSV file (.csv, .tsv, ...)")
      ->required();
  sub->add_flag("--json", args->json, "One JSON line (the scan summary other engines compute too)");
  sub->add_flag("--stats", args->stats, "Also print time, throughput and the memory pool's figures");
  sub->add_option("--columns", args->columns, "Top-level columns to read (default: all)")->delimiter(',');
  sub->add_option("--batch-rows", args->batch_rows, "Rows per batch")->check(CLI::PositiveNumber);
  args->parquet_only.push_back(sub->add_flag("--no-checksums", args->no_checksums, "Skip page CRC verification"));
  args->parquet_only.push_back(
      sub->add_option("--pre-buffer", args->pre_buffer, "Coalesce and prefetch each row group's ranges")
          ->check(CLI::IsMember({"auto", "on", "off"})));
  sub->add_option("--threads", args->threads, "Threads decoding the columns of a batch (0: all cores, 1: this one)")
      ->check(CLI::NonNegativeNumber);
  args->parquet_only.push_back(sub->add_option(
      "--int96-unit", args->int96_unit,
      "INT96 timestamps as ns, us or ms (default here: the scan summary's nanoseconds, wrapping out-of-range values)"));
  args->parquet_only.push_back(AddNoRestoreArrowSchemaFlag(sub, &args->no_restore_arrow_schema));
  args->parquet_only.push_back(AddRowNumberFlag(sub, &args->row_number));
  AddFilterOptions(sub, &args->filter, &args->pruning);
  AddCsvOptions(sub, &args->csv);
  AddEncryptionOptions(sub, &args->encryption);
  sub->callback([&action, args] { action = [args] { return RunScan(*args); }; });
}

}  // namespace strata::cli
