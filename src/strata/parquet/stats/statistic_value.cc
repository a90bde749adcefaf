// Statistics values decoded for people and bindings (statistic_value.h).
#include "strata/parquet/stats/statistic_value.h"

#include <algorithm>
#include <cstring>
#include <iterator>

#include <fmt/format.h>

namespace strata::parquet {

std::string Hex(std::string_view bytes, size_t limit) {
  std::string s = "0x";
  const size_t n = std::min(bytes.size(), limit);
  for (size_t i = 0; i < n; ++i) fmt::format_to(std::back_inserter(s), "{:02x}", static_cast<uint8_t>(bytes[i]));
  if (n < bytes.size()) fmt::format_to(std::back_inserter(s), "... ({} bytes)", bytes.size());
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

}  // namespace strata::parquet
