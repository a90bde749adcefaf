// `strata cat` and `strata head`: print a Parquet, CSV or Arrow IPC file's rows as an aligned
// table, CSV, JSON lines or a JSON array (row_format.h), batch by batch, stopping after
// --limit rows so a large file costs only the batches printed.
#include <cstdio>

#include "strata/cli/command.h"
#include "strata/cli/encryption_cli_options.h"
#include "strata/cli/input_source.h"
#include "strata/cli/row_format.h"
#include "strata/exec/process_pool.h"
#include "strata/memory/memory_pool.h"

namespace strata::cli {
namespace {

struct CatArgs {
  std::string file;
  std::vector<std::string> columns;
  int64_t limit = -1;  // all rows
  std::string format = "table";
  int max_width = kDefaultMaxCellWidth;
  int threads = 0;  // all cores
  std::string filter;
  std::string pruning = "on";
  bool stats = false;
  bool no_restore_arrow_schema = false;
  bool row_number = false;
  CsvCliOptions csv;
  EncryptionCliOptions encryption;
};

Status RunCat(const CatArgs& args) {
  SourceOptions options;
  STRATA_ASSIGN_OR_RETURN(options.decryption, MakeDecryptionOptions(args.encryption));
  options.executor = exec::ProcessExecutor(args.threads);
  options.columns = args.columns;
  options.filter = args.filter;
  options.pruning = args.pruning == "on";
  options.restore_arrow_schema = !args.no_restore_arrow_schema;
  SetRowNumberColumns(args.row_number, args.file, &options);
  if (args.limit >= 0) options.batch_rows = std::max<int64_t>(1, std::min<int64_t>(args.limit, options.batch_rows));
  STRATA_ASSIGN_OR_RETURN(auto batches, OpenBatchSource(args.file, args.csv, options, SystemMemoryPool()));
  int64_t left = args.limit < 0 ? INT64_MAX : args.limit;
  const RowFormat format = args.format == "csv"     ? RowFormat::kCsv
                           : args.format == "jsonl" ? RowFormat::kJsonLines
                           : args.format == "json"  ? RowFormat::kJson
                                                    : RowFormat::kTable;
  const SchemaPtr schema = batches->schema();
  RowWriter writer(*schema, format, args.max_width);
  std::string text;  // one batch's text, written before the next batch is read
  while (left > 0) {
    STRATA_ASSIGN_OR_RETURN(auto batch, batches->Next());
    if (!batch) break;
    auto shown = batch->num_rows() > left ? batch->Slice(0, left) : batch;
    text.clear();
    writer.Append(*shown, &text);
    std::fwrite(text.data(), 1, text.size(), stdout);
    left -= shown->num_rows();
  }
  text.clear();
  writer.Finish(&text);
  std::fwrite(text.data(), 1, text.size(), stdout);
  ReportSkippedRows(*batches);
  if (args.stats) {
    if (auto pruning = batches->pruning_stats()) std::fprintf(stderr, "%s\n", PruningStatsLine(*pruning).c_str());
    if (const std::string files = batches->DatasetLine(); !files.empty()) std::fprintf(stderr, "%s\n", files.c_str());
  }
  return Status::OK();
}

void AddCat(CLI::App& app, CommandAction& action, const char* name, const char* help, int64_t default_limit) {
  auto* sub = app.add_subcommand(name, help);
  auto args = std::make_shared<CatArgs>();
  args->limit = default_limit;
  sub->add_option("file", args->file, "Parquet file, a folder or glob of Parquet files, or a CSV file (.csv, .tsv, ...)")
      ->required();
  sub->add_option("--columns", args->columns, "Top-level columns to print (default: all)")->delimiter(',');
  sub->add_option("--limit,-n", args->limit, "Rows to print");
  sub->add_option("--format", args->format, "table (default), csv, jsonl (a JSON object per line) or json (one array)")
      ->check(CLI::IsMember({"table", "csv", "jsonl", "json"}));
  sub->add_option("--max-width", args->max_width, "Display columns a table cell shows before it is cut with '…'")
      ->check(CLI::Range(1, 1 << 20));
  sub->add_option("--threads", args->threads, "Threads decoding the columns of a batch (0: all cores, 1: this one)")
      ->check(CLI::NonNegativeNumber);
  AddFilterOptions(sub, &args->filter, &args->pruning);
  sub->add_flag("--stats", args->stats, "With --filter on Parquet: print on stderr what was skipped, and how");
  AddNoRestoreArrowSchemaFlag(sub, &args->no_restore_arrow_schema);
  AddRowNumberFlag(sub, &args->row_number);
  AddCsvOptions(sub, &args->csv);
  AddEncryptionOptions(sub, &args->encryption);
  sub->callback([&action, args] { action = [args] { return RunCat(*args); }; });
}

}  // namespace

void RegisterCatCommand(CLI::App& app, CommandAction& action) {
  AddCat(app, action, "cat", "Print a Parquet or CSV file's rows", -1);
  AddCat(app, action, "head", "Print a Parquet or CSV file's first rows (10 unless --limit)", 10);
}

}  // namespace strata::cli
