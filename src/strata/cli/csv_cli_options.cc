#include "strata/cli/csv_cli_options.h"

#include <fmt/format.h>

namespace strata::cli {

std::string CsvCliOptions::FirstGivenCsvOption() const {
  for (const CLI::Option* option : csv_only) {
    if (option->count() > 0) return option->get_name();
  }
  return "";
}

void AddCsvOptions(CLI::App* sub, CsvCliOptions* o) {
  sub->add_option("--input-format", o->input_format, "auto (by extension, default), csv, tsv, parquet, ipc (Arrow IPC file, or stream from a pipe) or arrows (IPC stream)")
      ->check(CLI::IsMember({"auto", "csv", "tsv", "parquet", "ipc", "arrow", "arrows"}))
      ->group("CSV input");
  auto& only = o->csv_only;
  only.push_back(sub->add_option("--delimiter", o->delimiter, "CSV field separator, 1 to 4 bytes (\", \", \"||\"; \\t or tab for tabs; default: detect)"));
  only.push_back(sub->add_flag("--no-header", o->no_header, "The CSV's first line is data (columns f0, f1, ...; a --schema naming every column sets their number)"));
  only.push_back(sub->add_option("--null", o->nulls, "A CSV null spelling, repeatable; replaces the defaults "
                                                      "('', NULL, null, NA, N/A)")
                     ->allow_extra_args(false));
  only.push_back(sub->add_option("--schema", o->schema,
                                 "CSV column types: 'name:type,...' (all columns in order, or some by name)"));
  only.push_back(sub->add_flag("--all-strings", o->all_strings, "Read every CSV column as text (the header is still detected from the inferred types)"));
  only.push_back(sub->add_option("--skip-rows", o->skip_rows, "CSV lines to skip before the header")
                     ->check(CLI::NonNegativeNumber));
  only.push_back(sub->add_flag("--infer-whole-file", o->infer_whole_file,
                               "Infer CSV types from every row (reads the file twice)"));
  only.push_back(sub->add_option("--sample-bytes", o->sample_bytes, "CSV bytes the dialect and types are inferred from")
                     ->check(CLI::PositiveNumber));
  only.push_back(sub->add_option("--ragged", o->ragged,
                                 "CSV rows with a wrong field count: error (default), fill (pad short rows), skip, "
                                 "salvage (pad short rows, skip long ones, close a quote left open at the end)")
                     ->check(CLI::IsMember({"error", "fill", "skip", "salvage"})));
  only.push_back(sub->add_option("--max-bad-rows", o->max_bad_rows,
                                 "With --ragged skip or salvage: fail when more CSV rows than this are skipped "
                                 "(default: when more than half are)")
                     ->check(CLI::NonNegativeNumber));
  only.push_back(sub->add_option("--quote", o->quote, "CSV quote character, or none (default: detect)"));
  only.push_back(sub->add_option("--escape", o->escape, "CSV escape character, or none (default: detect)"));
  only.push_back(sub->add_option("--comment", o->comment, "Skip CSV lines starting with this character"));
  for (CLI::Option* option : only) option->group("CSV input");
}

Result<csv::CsvReadOptions> MakeCsvReadOptions(const CsvCliOptions& cli) {
  using csv::ParseCharOption;
  csv::CsvReadOptions options;
  if (!cli.delimiter.empty()) {
    STRATA_ASSIGN_OR_RETURN(options.parse.delimiter, csv::ParseDelimiterOption("--delimiter", cli.delimiter));
  }
  if (!cli.quote.empty()) {
    STRATA_ASSIGN_OR_RETURN(options.parse.quote, ParseCharOption("--quote", cli.quote, true));
  }
  if (!cli.escape.empty()) {
    STRATA_ASSIGN_OR_RETURN(options.parse.escape, ParseCharOption("--escape", cli.escape, true));
  }
  if (!cli.comment.empty()) {
    STRATA_ASSIGN_OR_RETURN(options.parse.comment, ParseCharOption("--comment", cli.comment, true));
  }
  if (cli.no_header) options.parse.header = false;
  options.parse.skip_rows = cli.skip_rows;
  if (cli.ragged == "fill") options.parse.ragged_rows = csv::RaggedRows::kFill;
  if (cli.ragged == "skip") options.parse.ragged_rows = csv::RaggedRows::kSkip;
  if (cli.ragged == "salvage") options.parse.ragged_rows = csv::RaggedRows::kSalvage;
  if (cli.max_bad_rows >= 0) options.parse.max_bad_rows = cli.max_bad_rows;
  if (!cli.nulls.empty()) options.convert.null_values = cli.nulls;
  options.convert.all_strings = cli.all_strings;
  if (cli.sample_bytes > 0) options.read.sample_bytes = cli.sample_bytes;
  options.read.infer_whole_file = cli.infer_whole_file;
  STRATA_RETURN_NOT_OK(options.Validate());
  return options;
}

}  // namespace strata::cli
