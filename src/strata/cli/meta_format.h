// Pieces `strata meta` shares between its footer, page index and Bloom filter output:
// statistics values (min/max bytes, decoded by parquet::DecodeStat) printed as text or JSON
// (util/json_writer.h).
#pragma once

#include <fmt/format.h>

#include <cmath>
#include <cstdint>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "strata/parquet/stats/statistic_value.h"
#include "strata/parquet/thrift/parquet_types.h"
#include "strata/util/json_writer.h"

namespace strata::cli {

// Printable text as is, else with escapes; long text is cut for people, never for JSON.
std::string Printable(std::string_view text, size_t limit = SIZE_MAX);

// Statistics values: parquet::DecodeStat (stats/statistic_value.h), printed here.
using parquet::DecodeStat;
using parquet::Hex;
using parquet::IsTextColumn;
using parquet::IsUnsigned;
using parquet::StatValue;

// For people: text quoted and cut at 64 bytes, hex cut at 32 bytes.
std::string StatToText(const StatValue& v);
void StatToJson(JsonWriter& json, const StatValue& v);

// Spec names, "UNKNOWN(n)" for numbers outside the enums.
std::string PhysicalName(parquet::PhysicalType t);
std::string JoinPath(const std::vector<std::string>& path);

}  // namespace strata::cli
