// Pieces `strata meta` shares between its footer, page index and Bloom filter output: a small
// JSON writer, and statistics values (min/max bytes) decoded and printed per the column's type.
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

// "0x" and lowercase hex of up to `limit` bytes, then "... (N bytes)" when cut.
std::string Hex(std::string_view bytes, size_t limit = SIZE_MAX);
// Printable text as is, else with escapes; long text is cut for people, never for JSON.
std::string Printable(std::string_view text, size_t limit = SIZE_MAX);

// STRING, ENUM or JSON (logical or converted type).
bool IsTextColumn(const parquet::SchemaElement* leaf);
bool IsUnsigned(const parquet::SchemaElement* leaf);

// A statistics value decoded for its physical type: a number, a bool, text, or hex.
struct StatValue {
  enum class Kind { kInt, kUint, kDouble, kBool, kText, kHex } kind = Kind::kHex;
  int64_t i = 0;
  uint64_t u = 0;
  double d = 0;
  std::string text;       // kText or kHex
  bool is_float = false;  // print with float precision: 9.9, not 9.899999618530273

  static StatValue Int(int64_t v) { StatValue s; s.kind = Kind::kInt; s.i = v; return s; }
  static StatValue Uint(uint64_t v) { StatValue s; s.kind = Kind::kUint; s.u = v; return s; }
  static StatValue Double(double v) { StatValue s; s.kind = Kind::kDouble; s.d = v; return s; }
  static StatValue Float(float v) { StatValue s = Double(v); s.is_float = true; return s; }
  static StatValue Bool(bool v) { StatValue s; s.kind = Kind::kBool; s.i = v; return s; }
};

// `bytes` as PLAIN-encoded (BYTE_ARRAY without its length prefix); hex when it does not fit the
// type. `leaf` may be null (no schema facts: signed integers, binary as hex).
StatValue DecodeStat(std::string_view bytes, parquet::PhysicalType type, const parquet::SchemaElement* leaf);
// For people: text quoted and cut at 64 bytes, hex cut at 32 bytes.
std::string StatToText(const StatValue& v);
void StatToJson(JsonWriter& json, const StatValue& v);

// Spec names, "UNKNOWN(n)" for numbers outside the enums.
std::string PhysicalName(parquet::PhysicalType t);
std::string JoinPath(const std::vector<std::string>& path);

}  // namespace strata::cli
