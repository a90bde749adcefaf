// The CSV reading options every reading command takes (--delimiter, --schema, --ragged, ...),
// registered on a CLI11 subcommand by one function, and turned into csv::CsvReadOptions. Also
// the small parser of --schema's 'name:type,name:type' text.
#pragma once

#include <CLI/CLI.hpp>

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "strata/csv/reader.h"
#include "strata/types/data_type.h"
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

// One column of a --schema text.
struct ColumnTypeSpec {
  std::string name;
  TypePtr type;
};

// A type name: int8..int64, uint8..uint64, float32 (float), float64 (double), bool (boolean),
// string (utf8), large_string, binary, large_binary, date32 (date), timestamp[s|ms|us|ns]
// (timestamp = us), timestamp[us,UTC] or timestamp[us, tz=UTC], timestamptz (= us, UTC),
// time32[s|ms], time64[us|ns] (time = us), decimal(p,s) (decimal128 up to precision 38, else
// decimal256; decimal128(p,s) and decimal256(p,s) too). Case-insensitive, spaces allowed.
Result<TypePtr> ParseTypeName(std::string_view text);

// 'name:type,name:type,...': commas inside [] and () belong to the type, and a name ends at
// its last ':' outside brackets. Errors are one line naming the piece that is wrong.
Result<std::vector<ColumnTypeSpec>> ParseSchemaSpec(std::string_view text);

// A delimiter, quote, escape or comment character: one byte, or \t / tab, or "none" (\0)
// where `allow_none`.
Result<char> ParseCharOption(std::string_view option, std::string_view value, bool allow_none);

// The reader options for these command-line options; `tsv` (from the input's extension or
// --input-format tsv) makes tab the delimiter unless --delimiter says otherwise. The --schema
// is not applied here (it depends on the input's columns, see ApplySchemaSpec).
Result<csv::CsvReadOptions> MakeCsvReadOptions(const CsvCliOptions& cli, bool tsv);

// Applies --schema's columns: a whole schema (names and types by position) when they name
// every column of the input in order, or when the input has no header and they are as many as
// its columns; else per-column types by name. `header_names` are the input's column names and
// `has_header` whether they came from a header line.
Status ApplySchemaSpec(const std::vector<ColumnTypeSpec>& spec, const std::vector<std::string>& header_names,
                       bool has_header, const std::string& input, csv::CsvReadOptions* options);

}  // namespace strata::cli
