// JSON writer and statistics-value formatting for `strata meta` (see meta_format.h).
#include "strata/cli/meta_format.h"

#include <algorithm>
#include <cstring>

#include <fmt/format.h>

#include "strata/parquet/encoding/encoding.h"

namespace strata::cli {

using namespace strata::parquet;  // NOLINT: this file is all about its types

void JsonWriter::Open(char c) {
  Separate();
  out_ += c;
  first_.push_back(true);
}

void JsonWriter::Close(char c) {
  out_ += c;
  first_.pop_back();
}

void JsonWriter::Separate() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (!first_.empty()) {
    if (!first_.back()) out_ += ',';
    first_.back() = false;
  }
}

void JsonWriter::AppendString(std::string_view s) {
  out_ += '"';
  for (unsigned char c : s) {
    switch (c) {
      case '"': out_ += "\\\""; break;
      case '\\': out_ += "\\\\"; break;
      case '\n': out_ += "\\n"; break;
      case '\r': out_ += "\\r"; break;
      case '\t': out_ += "\\t"; break;
      default:
        if (c < 0x20 || c == 0x7f) fmt::format_to(std::back_inserter(out_), "\\u{:04x}", c);
        else out_ += static_cast<char>(c);  // UTF-8 passes through; invalid bytes are the file's
    }
  }
  out_ += '"';
}

std::string Hex(std::string_view bytes, size_t limit) {
  std::string s = "0x";
  const size_t n = std::min(bytes.size(), limit);
  for (size_t i = 0; i < n; ++i) fmt::format_to(std::back_inserter(s), "{:02x}", static_cast<uint8_t>(bytes[i]));
  if (n < bytes.size()) fmt::format_to(std::back_inserter(s), "... ({} bytes)", bytes.size());
  return s;
}

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

bool IsTextColumn(const SchemaElement* leaf) {
  if (leaf == nullptr) return false;
  if (leaf->logical_type) {
    const auto kind = leaf->logical_type->kind;
    return kind == LogicalType::Kind::kString || kind == LogicalType::Kind::kEnum || kind == LogicalType::Kind::kJson;
  }
  if (leaf->converted_type) {
    const auto ct = *leaf->converted_type;
    return ct == ConvertedType::kUtf8 || ct == ConvertedType::kEnum || ct == ConvertedType::kJson;
  }
  return false;
}

bool IsUnsigned(const SchemaElement* leaf) {
  if (leaf == nullptr) return false;
  if (leaf->logical_type && leaf->logical_type->kind == LogicalType::Kind::kInteger) return !leaf->logical_type->is_signed;
  if (leaf->converted_type) {
    const auto ct = static_cast<int32_t>(*leaf->converted_type);
    return ct >= static_cast<int32_t>(ConvertedType::kUint8) && ct <= static_cast<int32_t>(ConvertedType::kUint64);
  }
  return false;
}

namespace {

template <typename T>
T Load(std::string_view bytes) {
  T value;
  std::memcpy(&value, bytes.data(), sizeof(T));  // PLAIN is little-endian, as is this host
  return value;
}

}  // namespace

StatValue DecodeStat(std::string_view bytes, PhysicalType type, const SchemaElement* leaf) {
  StatValue v;
  switch (type) {
    case PhysicalType::kBoolean:
      if (bytes.size() == 1) return StatValue::Bool(bytes[0] != 0);
      break;
    case PhysicalType::kInt32:
      if (bytes.size() == 4) {
        if (IsUnsigned(leaf)) return StatValue::Uint(Load<uint32_t>(bytes));
        return StatValue::Int(Load<int32_t>(bytes));
      }
      break;
    case PhysicalType::kInt64:
      if (bytes.size() == 8) {
        if (IsUnsigned(leaf)) return StatValue::Uint(Load<uint64_t>(bytes));
        return StatValue::Int(Load<int64_t>(bytes));
      }
      break;
    case PhysicalType::kFloat:
      if (bytes.size() == 4) return StatValue::Float(Load<float>(bytes));
      break;
    case PhysicalType::kDouble:
      if (bytes.size() == 8) return StatValue::Double(Load<double>(bytes));
      break;
    case PhysicalType::kByteArray:
      if (IsTextColumn(leaf)) {
        v.kind = StatValue::Kind::kText;
        v.text = std::string(bytes);
        return v;
      }
      break;
    default:
      break;
  }
  v.text = Hex(bytes);
  return v;
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
