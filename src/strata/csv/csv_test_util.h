// Test helpers of the CSV layer: parse a whole text serially into rows of strings.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "strata/csv/parsed_rows.h"
#include "strata/csv/parser.h"

namespace strata::csv::testing {

// One parsed field as text with its kind: "abc" plain, "'abc'" quoted, "<missing>".
inline std::string Describe(const ParsedRows& rows, int64_t row, int column) {
  switch (rows.Kind(row, column)) {
    case FieldKind::kQuoted: return "'" + std::string(rows.Field(row, column)) + "'";
    case FieldKind::kMissing: return "<missing>";
    default: return std::string(rows.Field(row, column));
  }
}

// Every row as "line:field|field|..." (fields described as above).
inline std::vector<std::string> DescribeRows(const ParsedRows& rows) {
  std::vector<std::string> out;
  for (int64_t r = 0; r < rows.num_rows(); ++r) {
    std::string s = std::to_string(rows.Line(r)) + ":";
    for (int c = 0; c < rows.num_columns(); ++c) {
      if (c > 0) s += "|";
      s += Describe(rows, r, c);
    }
    out.push_back(std::move(s));
  }
  return out;
}

}  // namespace strata::csv::testing
