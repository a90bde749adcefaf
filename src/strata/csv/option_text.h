// CSV reading options given as text, shared by every interface that takes them so (the CLI's
// flags, Python's keywords): a dialect character ("tab", "\t", "none"), and a schema spec
// (types/type_names.h) applied to an input's columns as a whole schema or per-column types.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "strata/csv/reader.h"
#include "strata/types/type_names.h"
#include "strata/util/result.h"

namespace strata::csv {

// A delimiter, quote, escape or comment character: one byte, or \t / tab, or "none" (\0)
// where `allow_none`. `option` names the value in the message ("--delimiter", "delimiter").
Result<char> ParseCharOption(std::string_view option, std::string_view value, bool allow_none);

// A field separator: 1 to kMaxDelimiterBytes bytes (", ", "||"), or \t / tab.
Result<std::string> ParseDelimiterOption(std::string_view option, std::string_view value);

// Applies a schema spec's columns: a whole schema (names and types by position) when they name
// every column of the input in order, when the input has no header and they are as many as its
// columns or name others than its generated f0, f1, ... (the spec's width then wins), or when
// the input has no row at all; else per-column types by name. `header_names` are the input's column names and
// `has_header` whether they came from a header line; `input` names the input and `label` the
// spec (the CLI's "--schema") in messages.
Status ApplySchemaSpec(const std::vector<ColumnTypeSpec>& spec, const std::vector<std::string>& header_names,
                       bool has_header, const std::string& input, CsvReadOptions* options,
                       std::string_view label = "schema");

}  // namespace strata::csv
