// Pieces `strata meta` shares between its footer, page index and Bloom filter output: a small
// JSON writer, and statistics values (min/max bytes, decoded by parquet::DecodeStat) printed.
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

namespace strata::cli {

// Appends JSON to a string; keys, values and separators in call order, no pretty-printing.
class JsonWriter {
 public:
  std::string& out() { return out_; }
  void BeginObject() { Open('{'); }
  void EndObject() { Close('}'); }
  void BeginArray() { Open('['); }
  void EndArray() { Close(']'); }
  void Key(std::string_view key) {
    Separate();
    AppendString(key);
    out_ += ':';
    after_key_ = true;
  }
  void String(std::string_view value) { Separate(), AppendString(value); }
  void Int(int64_t value) { Separate(), fmt::format_to(std::back_inserter(out_), "{}", value); }
  void Uint(uint64_t value) { Separate(), fmt::format_to(std::back_inserter(out_), "{}", value); }
  void Bool(bool value) { Separate(), out_ += value ? "true" : "false"; }
  void Null() { Separate(), out_ += "null"; }
  void Double(double value) {
    // JSON has no NaN or infinities: write those as strings.
    if (std::isfinite(value)) Separate(), fmt::format_to(std::back_inserter(out_), "{}", value);
    else String(std::isnan(value) ? "NaN" : (value > 0 ? "Infinity" : "-Infinity"));
  }
  template <typename T>
  void Field(std::string_view key, const T& value) {
    Key(key);
    Value(value);
  }
  template <typename T>
  void OptionalField(std::string_view key, const std::optional<T>& value) {
    Key(key);
    if (value) Value(*value);
    else Null();
  }

 private:
  void Value(std::string_view v) { String(v); }
  void Value(const std::string& v) { String(v); }
  void Value(const char* v) { String(v); }
  void Value(bool v) { Bool(v); }
  void Value(double v) { Double(v); }
  template <typename T>
    requires std::is_integral_v<T>
  void Value(T v) { Int(static_cast<int64_t>(v)); }

  void Open(char c);
  void Close(char c);
  void Separate();
  void AppendString(std::string_view s);

  std::string out_;
  std::vector<bool> first_;
  bool after_key_ = false;
};

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
