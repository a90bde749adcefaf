// The CSV reading options every reading command takes (--delimiter, --schema, --ragged, ...),
// registered on a CLI11 subcommand by one function, and turned into csv::CsvReadOptions (the
// texts parsed by csv/option_text.h and types/type_names.h).
#pragma once

#include <CLI/CLI.hpp>

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "strata/csv/reader.h"
#include "strata/csv/option_text.h"
#include "strata/types/type_names.h"
#include "strata/util/result.h"

namespace strata::cli {

// As given on the command line; empty strings mean "not given" (detect or default).
struct CsvCliOptions {
  std::string input_format = "auto";  // auto | csv | tsv | parquet
  std::string delimiter;
  bool no_header = false;
  std::vector<std::string> nulls;  // replaces the reader's default null spellings
  std::string schema;
  bool all_strings = false;
  int64_t skip_rows = 0;
  bool infer_whole_file = false;
  int64_t sample_bytes = 0;  // 0: the reader's default
  std::string ragged = "error";
  int64_t max_bad_rows = -1;  // -1: the reader's default (half the rows)
  std::string quote;
  std::string escape;
  std::string comment;

  // The CSV-only options registered by AddCsvOptions, to tell which were given.
  std::vector<CLI::Option*> csv_only;
  // The first CSV-only option given ("--delimiter"), or "" when none was.
  std::string FirstGivenCsvOption() const;
};

// Registers the options above on `sub`, storing into `*options` (which must outlive parsing).
void AddCsvOptions(CLI::App* sub, CsvCliOptions* options);

// The reader options for these command-line options. A TSV input's tab delimiter and --schema
// (ParseSchemaSpec) are the batch source's to apply: they depend on the input.
Result<csv::CsvReadOptions> MakeCsvReadOptions(const CsvCliOptions& cli);

}  // namespace strata::cli
