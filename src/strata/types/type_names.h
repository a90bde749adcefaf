// Types named in text, as people write them on a command line or in a keyword argument:
// "int64", "timestamp[us, tz=UTC]", "decimal(10,2)", and lists of columns with their types,
// "id:int64,fare:decimal(10,2)". Every interface that takes a type as text parses it here.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "strata/types/data_type.h"
#include "strata/util/result.h"

namespace strata {

// A type name: int8..int64, uint8..uint64, float32 (float), float64 (double), bool (boolean),
// string (utf8), large_string, binary, large_binary, date32 (date), timestamp[s|ms|us|ns]
// (timestamp = us), timestamp[us,UTC] or timestamp[us, tz=UTC], timestamptz (= us, UTC),
// time32[s|ms], time64[us|ns] (time = us), decimal(p,s) (decimal128 up to precision 38, else
// decimal256; decimal128(p,s) and decimal256(p,s) too). Case-insensitive, spaces allowed.
Result<TypePtr> ParseTypeName(std::string_view text);

// One column of a schema spec.
struct ColumnTypeSpec {
  std::string name;
  TypePtr type;
};

// 'name:type,name:type,...': commas inside [] and () belong to the type, and a name ends at
// its last ':' outside brackets. Errors are one line naming the piece that is wrong, led by
// `label`, what the caller calls the text (the CLI's "--schema", Python's "schema").
Result<std::vector<ColumnTypeSpec>> ParseSchemaSpec(std::string_view text, std::string_view label = "schema");

}  // namespace strata
