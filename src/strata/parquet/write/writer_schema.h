// WriterSchema: a strata Schema turned into the Parquet schema a writer stores (the depth-first
// SchemaElement list with logical and converted types) and one WriterColumn per leaf, saying
// how that leaf's Arrow values become Parquet physical values. The shape of nested fields is the
// one LevelBuilder computes levels for: 3-level LIST, MAP with a required key, structs as groups.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "strata/parquet/stats/statistics.h"
#include "strata/parquet/thrift/parquet_types.h"
#include "strata/parquet/write/writer_options.h"
#include "strata/types/schema.h"

namespace strata::parquet {

// How a leaf's Arrow values turn into physical values.
enum class PhysicalConversion : uint8_t {
  kNone,            // same bytes (int32/int64/float/double, fixed_size_binary, date32, ...)
  kBoolean,         // bitmap -> BOOLEAN
  kNull,            // null type: every value null
  kSignExtend8,     // int8 -> INT32
  kSignExtend16,    // int16 -> INT32
  kZeroExtend8,     // uint8 -> INT32
  kZeroExtend16,    // uint16 -> INT32
  kMultiply,        // int32 or int64 times `multiplier` (time32[s] -> ms, timestamp[s] -> ms)
  kDate64ToDate32,  // milliseconds -> days
  kDecimalToInt32,  // decimal128/256 of precision <= 9
  kDecimalToInt64,  // precision <= 18
  kDecimalToFixed,  // big-endian two's complement of `type_length` bytes
  kTimestampToInt96,
  kIntervalToFixed, // month_day_nano -> INTERVAL's 12 bytes; refuses what it cannot hold exactly
  kByteArray,       // binary/string (+large, +view) -> BYTE_ARRAY
};

struct WriterColumn {
  int column_index = 0;
  std::vector<std::string> path;  // path_in_schema
  std::string dotted_path;
  int element_index = 0;          // in WriterSchema::elements
  PhysicalType physical_type = PhysicalType::kBoolean;
  int32_t type_length = 0;
  int16_t max_definition_level = 0;
  int16_t max_repetition_level = 0;
  TypePtr arrow_type;   // the leaf's strata type as written (dictionary included)
  TypePtr value_type;   // dictionary value type, or arrow_type
  PhysicalConversion conversion = PhysicalConversion::kNone;
  int64_t multiplier = 1;
  SortOrder sort_order = SortOrder::kSigned;
  bool is_float16 = false;
  ColumnWriteOptions options;  // resolved for this column and validated against its type
  // Where this column's data pages end (FileWriteOptions::data_page_bytes, or less on a wide
  // schema: see MakeWriterSchema).
  int64_t page_bytes = 0;
};

struct WriterSchema {
  std::vector<SchemaElement> elements;  // elements[0] is the root "schema"
  std::vector<WriterColumn> columns;
  // Top-level field i covers columns [field_first_column[i], field_first_column[i + 1]).
  std::vector<int> field_first_column;
  std::shared_ptr<Schema> schema;
};

// Maps every field of `schema`. Types without a Parquet form (dictionary of a nested type,
// maps with nullable keys, ...) and options that do not apply to a column's type are Invalid,
// naming the field.
Result<WriterSchema> MakeWriterSchema(std::shared_ptr<Schema> schema, const WriterOptions& options);

}  // namespace strata::parquet
