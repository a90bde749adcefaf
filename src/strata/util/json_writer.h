// JSON text: string literals escaped once for the whole project (the CLI's rows, summaries and
// metadata, Variant as JSON, CSV cells of nested values, GeoArrow metadata), and a small
// writer of objects and arrays in call order.
#pragma once

#include <cmath>
#include <cstdint>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include <fmt/format.h>

namespace strata {

// `text` as a JSON string literal, quotes included: ", \ and control characters escaped
// (\n \r \t \b \f, else \u00XX) as RFC 8259 requires; well-formed UTF-8 as it is. Every byte
// that begins no well-formed UTF-8 sequence becomes U+FFFD (the replacement character), so
// the output is always valid UTF-8 JSON: a reader of JSON cannot take raw bytes, and one
// replacement per byte keeps the damage visible where it is. Writes at most
// MaxJsonStringLength(text.size()) bytes from `out` and returns the end of what it wrote.
inline constexpr int64_t MaxJsonStringLength(int64_t bytes) { return 6 * bytes + 2; }
char* WriteJsonString(std::string_view text, char* out);
// The same, appended to `*out`.
void AppendJsonString(std::string_view text, std::string* out);

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
    AppendJsonString(key, &out_);
    out_ += ':';
    after_key_ = true;
  }
  void String(std::string_view value) { Separate(), AppendJsonString(value, &out_); }
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

  std::string out_;
  std::vector<bool> first_;
  bool after_key_ = false;
};

}  // namespace strata
