// Statistics-value formatting for `strata meta` (see meta_format.h).
#include "strata/cli/meta_format.h"

#include <algorithm>
#include <cstring>

#include <fmt/format.h>

#include "strata/parquet/encoding/encoding.h"

namespace strata::cli {

using namespace strata::parquet;  // NOLINT: this file is all about its types

std::string Printable(std::string_view text, size_t limit) {
  std::string s;
  const size_t n = std::min(text.size(), limit);
  for (size_t i = 0; i < n; ++i) {
    const unsigned char c = text[i];
    if (c == '\\') s += "\\\\";
    else if (c < 0x20 || c == 0x7f) fmt::format_to(std::back_inserter(s), "\\x{:02x}", c);
    else s += static_cast<char>(c);
  }
  if (n < text.size()) fmt::format_to(std::back_inserter(s), "... ({} bytes)", text.size());
  return s;
}

std::string StatToText(const StatValue& v) {
  switch (v.kind) {
    case StatValue::Kind::kInt: return fmt::format("{}", v.i);
    case StatValue::Kind::kUint: return fmt::format("{}", v.u);
    case StatValue::Kind::kDouble:
      return v.is_float ? fmt::format("{}", static_cast<float>(v.d)) : fmt::format("{}", v.d);
    case StatValue::Kind::kBool: return v.i ? "true" : "false";
    case StatValue::Kind::kText: return fmt::format("\"{}\"", Printable(v.text, 64));
    case StatValue::Kind::kHex: return v.text.size() > 66 ? v.text.substr(0, 66) + "..." : v.text;
  }
  return "";
}

void StatToJson(JsonWriter& json, const StatValue& v) {
  switch (v.kind) {
    case StatValue::Kind::kInt: json.Int(v.i); break;
    case StatValue::Kind::kUint: json.Uint(v.u); break;
    case StatValue::Kind::kDouble: json.Double(v.d); break;
    case StatValue::Kind::kBool: json.Bool(v.i != 0); break;
    case StatValue::Kind::kText:
    case StatValue::Kind::kHex: json.String(v.text); break;
  }
}

std::string PhysicalName(PhysicalType t) {
  const std::string_view name = PhysicalTypeName(t);
  return name == "UNKNOWN" ? fmt::format("UNKNOWN({})", static_cast<int32_t>(t)) : std::string(name);
}

std::string JoinPath(const std::vector<std::string>& path) {
  std::string s;
  for (const auto& part : path) s += (s.empty() ? "" : ".") + part;
  return s;
}

}  // namespace strata::cli
