// Test helper of the CSV converter tests: builds ParsedRows from rows of (text, kind), as the
// parser would.
#pragma once

#include <string>
#include <vector>

#include "strata/csv/parsed_rows.h"

namespace strata::csv::test_util {

struct TestField {
  std::string text;
  FieldKind kind = FieldKind::kPlain;
};
inline TestField Plain(std::string text) { return {std::move(text), FieldKind::kPlain}; }
inline TestField Quoted(std::string text) { return {std::move(text), FieldKind::kQuoted}; }
inline TestField Missing() { return {"", FieldKind::kMissing}; }

// Row i starts on line first_line + i.
inline Status BuildRows(const std::vector<std::vector<TestField>>& input, ParsedRows* rows, int64_t first_line = 2) {
  const int columns = input.empty() ? 1 : static_cast<int>(input[0].size());
  int64_t bytes = 0;
  for (const auto& row : input) {
    for (const auto& field : row) bytes += static_cast<int64_t>(field.text.size());
  }
  rows->Clear(columns);
  STRATA_RETURN_NOT_OK(rows->Reserve(static_cast<int64_t>(input.size()), bytes));
  for (size_t i = 0; i < input.size(); ++i) {
    if (static_cast<int>(input[i].size()) != columns) return Status::Invalid("ragged test row {}", i);
    for (const auto& field : input[i]) {
      rows->data()->UnsafeAppend(field.text.data(), static_cast<int64_t>(field.text.size()));
      STRATA_RETURN_NOT_OK(rows->AppendFieldEnd(field.kind));
    }
    STRATA_RETURN_NOT_OK(rows->EndRow(first_line + static_cast<int64_t>(i)));
  }
  return Status::OK();
}

// One column of fields.
inline Status BuildColumn(const std::vector<TestField>& fields, ParsedRows* rows, int64_t first_line = 2) {
  std::vector<std::vector<TestField>> input;
  input.reserve(fields.size());
  for (const auto& field : fields) input.push_back({field});
  return BuildRows(input, rows, first_line);
}

// One column of unquoted fields.
inline Status BuildPlainColumn(const std::vector<std::string>& texts, ParsedRows* rows) {
  std::vector<TestField> fields;
  for (const auto& text : texts) fields.push_back(Plain(text));
  return BuildColumn(fields, rows);
}

}  // namespace strata::csv::test_util
