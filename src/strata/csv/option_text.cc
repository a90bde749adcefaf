// CSV options as text (option_text.h).
#include "strata/csv/option_text.h"

#include <algorithm>

#include <fmt/format.h>

#include "strata/types/schema.h"

namespace strata::csv {

Result<char> ParseCharOption(std::string_view option, std::string_view value, bool allow_none) {
  if (value == "\\t" || value == "tab" || value == "\t") return '\t';
  if (value == "\\\\") return '\\';  // --escape '\\' as a shell user may write it
  if (allow_none && (value == "none" || value.empty())) return '\0';
  if (value.size() == 1 && value[0] != '\n' && value[0] != '\r') return value[0];
  return Status::Invalid("{} takes one character (or \\t, tab{}), not '{}'", option, allow_none ? ", none" : "", value);
}

Result<std::string> ParseDelimiterOption(std::string_view option, std::string_view value) {
  if (value == "\\t" || value == "tab") return std::string("\t");
  const bool usable = !value.empty() && value.size() <= kMaxDelimiterBytes &&
                      value.find_first_of(std::string_view("\n\r\0", 3)) == std::string_view::npos;
  if (usable) return std::string(value);
  return Status::Invalid("{} takes 1 to {} characters (\", \" and \"||\" are two; \\t or tab for a tab), not '{}'", option,
                         kMaxDelimiterBytes, value);
}

Status ApplySchemaSpec(const std::vector<ColumnTypeSpec>& spec, const std::vector<std::string>& header_names,
                       bool has_header, const std::string& input, CsvReadOptions* options, std::string_view label) {
  auto whole_schema = [&] {
    std::vector<FieldPtr> fields;
    for (const auto& column : spec) fields.push_back(field(column.name, column.type));
    options->convert.schema = schema(std::move(fields));
    options->convert.column_types.clear();
  };
  bool named_in_order = spec.size() == header_names.size();
  for (size_t i = 0; named_in_order && i < spec.size(); ++i) named_in_order = spec[i].name == header_names[i];
  bool all_named = true;
  for (const auto& column : spec) {
    all_named = all_named && std::find(header_names.begin(), header_names.end(), column.name) != header_names.end();
  }
  // Without a header the spec names every column in order (its width wins over the first
  // row's), unless it types some of the generated names (f0, f1, ...); with no row at all
  // it is the whole table's schema.
  if (named_in_order || (!has_header && (spec.size() == header_names.size() || !all_named)) ||
      header_names.empty()) {
    whole_schema();
    return Status::OK();
  }
  for (const auto& column : spec) {
    if (std::find(header_names.begin(), header_names.end(), column.name) == header_names.end()) {
      std::string names;
      for (const auto& name : header_names) names += (names.empty() ? "" : ", ") + name;
      return Status::Invalid("{}: '{}' has no column '{}' (its columns: {})", label, input, column.name, names);
    }
  }
  options->convert.schema = nullptr;
  options->convert.column_types.clear();
  for (const auto& column : spec) options->convert.column_types.emplace_back(column.name, column.type);
  return Status::OK();
}

}  // namespace strata::csv
