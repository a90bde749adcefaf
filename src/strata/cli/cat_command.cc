// `strata cat` and `strata head`: print a Parquet or CSV file's rows as a table (the array
// pretty printer's layout), CSV or JSON lines, stopping after --limit rows so a large file costs
// only the batches printed.
#include <cstdio>

#include "strata/array/pretty_print.h"
#include "strata/cli/command.h"
#include "strata/cli/encryption_cli_options.h"
#include "strata/cli/input_source.h"
#include "strata/cli/row_format.h"
#include "strata/memory/memory_pool.h"

namespace strata::cli {
namespace {

struct CatArgs {
  std::string file;
  std::vector<std::string> columns;
  int64_t limit = -1;  // all rows
  std::string format = "table";
  int threads = 0;  // all cores
  CsvCliOptions csv;
  EncryptionCliOptions encryption;
};

Status RunCat(const CatArgs& args) {
  SourceOptions options;
  STRATA_ASSIGN_OR_RETURN(options.decryption, MakeDecryptionOptions(args.encryption));
  options.threads = args.threads;
  options.columns = args.columns;
  if (args.limit >= 0) options.batch_rows = std::max<int64_t>(1, std::min<int64_t>(args.limit, options.batch_rows));
  STRATA_ASSIGN_OR_RETURN(auto batches, OpenBatchSource(args.file, args.csv, options, SystemMemoryPool()));
  int64_t left = args.limit < 0 ? INT64_MAX : args.limit;
  const bool table = args.format == "table";
  const RowFormat format = args.format == "csv" ? RowFormat::kCsv : RowFormat::kJsonLines;
  std::string text;
  if (!table) {
    AppendHeader(*batches->schema(), format, &text);
    std::fputs(text.c_str(), stdout);
  }
  while (left > 0) {
    STRATA_ASSIGN_OR_RETURN(auto batch, batches->Next());
    if (!batch) break;
    auto shown = batch->num_rows() > left ? batch->Slice(0, left) : batch;
    text.clear();
    if (table) {
      PrettyPrintOptions print;
      print.max_rows = shown->num_rows();
      text = PrettyPrint(*shown, print);
      text += '\n';
    } else {
      AppendRows(*shown, format, &text);
    }
    std::fwrite(text.data(), 1, text.size(), stdout);
    left -= shown->num_rows();
  }
  ReportSkippedRows(*batches);
  return Status::OK();
}

void AddCat(CLI::App& app, CommandAction& action, const char* name, const char* help, int64_t default_limit) {
  auto* sub = app.add_subcommand(name, help);
  auto args = std::make_shared<CatArgs>();
  args->limit = default_limit;
  sub->add_option("file", args->file, "Parquet or CSV file (.csv, .tsv, .csv.gz, ...)")->required();
  sub->add_option("--columns", args->columns, "Top-level columns to print (default: all)")->delimiter(',');
  sub->add_option("--limit,-n", args->limit, "Rows to print");
  sub->add_option("--format", args->format, "table, csv or jsonl")->check(CLI::IsMember({"table", "csv", "jsonl"}));
  sub->add_option("--threads", args->threads, "Threads decoding the columns of a batch (0: all cores, 1: this one)")
      ->check(CLI::NonNegativeNumber);
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
