#include "strata/variant/variant_value.h"

#include <cstring>
#include <string>

#include <fmt/format.h>

#include "strata/util/utf8.h"

namespace strata::variant {
namespace {

// Payload bytes after the header of each primitive type; -1 for the length-prefixed ones.
constexpr int kPrimitivePayload[kMaxPrimitiveType + 1] = {
    0, 0, 0, 1, 2, 4, 8, 8, 5, 9, 17, 4, 8, 8, 4, -1, -1, 8, 8, 8, 16,
};

template <typename T>
T LoadLittleEndian(const uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}

}  // namespace

std::string_view PrimitiveTypeName(PrimitiveType type) {
  static constexpr std::string_view kNames[kMaxPrimitiveType + 1] = {
      "null", "true", "false", "int8", "int16", "int32", "int64", "double", "decimal4", "decimal8", "decimal16",
      "date", "timestamp_micros", "timestamp_ntz_micros", "float", "binary", "string", "time_ntz_micros",
      "timestamp_nanos", "timestamp_ntz_nanos", "uuid"};
  const auto i = static_cast<size_t>(type);
  return i <= kMaxPrimitiveType ? kNames[i] : "unknown";
}

Result<VariantValue> VariantValue::Make(std::string_view bytes) {
  if (bytes.empty()) return Status::Corrupt("variant value is empty (it needs at least a header byte)");
  VariantValue v;
  const auto* p = reinterpret_cast<const uint8_t*>(bytes.data());
  const uint8_t header = p[0];
  const uint64_t available = bytes.size();
  uint64_t size = 1;
  switch (static_cast<BasicType>(header & 3)) {
    case BasicType::kPrimitive: {
      const int type = header >> 2;
      if (type > kMaxPrimitiveType) return Status::Corrupt("variant value has unknown primitive type {}", type);
      const int fixed = kPrimitivePayload[type];
      if (fixed >= 0) {
        size += static_cast<uint64_t>(fixed);
      } else {
        if (available < 5) return Status::Corrupt("variant {} of {} bytes ends inside its length", PrimitiveTypeName(static_cast<PrimitiveType>(type)), available);
        size += 4 + uint64_t{ReadUnsigned(p + 1, 4)};
      }
      break;
    }
    case BasicType::kShortString:
      size += header >> 2;
      break;
    case BasicType::kObject:
    case BasicType::kArray: {
      const bool object = (header & 3) == 2;
      const int value_header = header >> 2;
      v.offset_size_ = (value_header & 3) + 1;
      v.id_size_ = object ? ((value_header >> 2) & 3) + 1 : 0;
      const bool is_large = object ? (value_header >> 4) & 1 : (value_header >> 2) & 1;
      const int count_size = is_large ? 4 : 1;
      if (available < 1 + static_cast<uint64_t>(count_size)) {
        return Status::Corrupt("variant {} of {} bytes ends inside its element count", object ? "object" : "array", available);
      }
      v.num_elements_ = ReadUnsigned(p + 1, count_size);
      const uint64_t ids_start = 1 + static_cast<uint64_t>(count_size);
      const uint64_t offsets_start = ids_start + uint64_t{v.num_elements_} * static_cast<uint64_t>(v.id_size_);
      const uint64_t data_start = offsets_start + (uint64_t{v.num_elements_} + 1) * static_cast<uint64_t>(v.offset_size_);
      if (data_start > available) {
        return Status::Corrupt("variant {} of {} bytes declares {} elements, whose ids and offsets need {} bytes",
                               object ? "object" : "array", available, v.num_elements_, data_start);
      }
      v.ids_start_ = static_cast<uint32_t>(ids_start);
      v.offsets_start_ = static_cast<uint32_t>(offsets_start);
      v.data_start_ = static_cast<uint32_t>(data_start);
      v.bytes_ = bytes;  // OffsetAt reads through bytes_
      v.data_size_ = v.OffsetAt(v.num_elements_);
      size = data_start + v.data_size_;
      break;
    }
  }
  if (size > available) {
    return Status::Corrupt("variant value needs {} bytes but {} are left", size, available);
  }
  v.bytes_ = bytes.substr(0, static_cast<size_t>(size));
  return v;
}

PrimitiveType VariantValue::primitive_type() const {
  if (basic_type() == BasicType::kShortString) return PrimitiveType::kString;
  return static_cast<PrimitiveType>(header() >> 2);
}

int64_t VariantValue::integer() const {
  switch (primitive_type()) {
    case PrimitiveType::kInt8: return static_cast<int8_t>(payload()[0]);
    case PrimitiveType::kInt16: return LoadLittleEndian<int16_t>(payload());
    case PrimitiveType::kInt32:
    case PrimitiveType::kDate: return LoadLittleEndian<int32_t>(payload());
    default: return LoadLittleEndian<int64_t>(payload());
  }
}

double VariantValue::float64() const { return LoadLittleEndian<double>(payload()); }
float VariantValue::float32() const { return LoadLittleEndian<float>(payload()); }

__int128 VariantValue::unscaled() const {
  const uint8_t* p = payload() + 1;
  switch (primitive_type()) {
    case PrimitiveType::kDecimal4: return LoadLittleEndian<int32_t>(p);
    case PrimitiveType::kDecimal8: return LoadLittleEndian<int64_t>(p);
    default: return LoadLittleEndian<__int128>(p);
  }
}

std::string_view VariantValue::string() const {
  if (basic_type() == BasicType::kShortString) return bytes_.substr(1);
  return bytes_.substr(5);
}

uint32_t VariantValue::OffsetAt(uint32_t i) const {
  return ReadUnsigned(reinterpret_cast<const uint8_t*>(bytes_.data()) + offsets_start_ + uint64_t{i} * static_cast<uint64_t>(offset_size_),
                      offset_size_);
}

uint32_t VariantValue::field_id(uint32_t i) const {
  return ReadUnsigned(reinterpret_cast<const uint8_t*>(bytes_.data()) + ids_start_ + uint64_t{i} * static_cast<uint64_t>(id_size_), id_size_);
}

Result<VariantValue> VariantValue::child(uint32_t i) const {
  const uint32_t offset = OffsetAt(i);
  if (offset >= data_size_) {
    return Status::Corrupt("variant {} element {} starts at offset {}, past its {} bytes of values",
                           is_object() ? "object" : "array", i, offset, data_size_);
  }
  auto child = Make(bytes_.substr(data_start_ + offset, data_size_ - offset));
  if (!child.ok()) return child.status().WithContext(fmt::format("element {}", i));
  return child;
}

namespace {

Status ValidateAt(const VariantMetadata& metadata, const VariantValue& value, int depth, std::string* path) {
  if (depth > kMaxVariantDepth) return Status::LimitExceeded("variant nested deeper than {} at {}", kMaxVariantDepth, *path);
  switch (value.basic_type()) {
    case BasicType::kShortString:
      break;
    case BasicType::kPrimitive: {
      const PrimitiveType type = value.primitive_type();
      if (type == PrimitiveType::kDecimal4 || type == PrimitiveType::kDecimal8 || type == PrimitiveType::kDecimal16) {
        if (value.scale() > 38) return Status::Corrupt("variant decimal at {} has scale {}, above 38", *path, value.scale());
      }
      if (type != PrimitiveType::kString) return Status::OK();
      break;
    }
    case BasicType::kObject: {
      std::string_view previous;
      for (uint32_t i = 0; i < value.num_elements(); ++i) {
        const uint32_t id = value.field_id(i);
        if (id >= metadata.size()) {
          return Status::Corrupt("variant object at {} refers to field id {} of a dictionary of {}", *path, id, metadata.size());
        }
        const std::string_view name = metadata.name(id);
        if (i > 0 && !(previous < name)) {
          return Status::Corrupt("variant object at {}: field '{}' does not sort after '{}' (fields must be sorted and unique)",
                                 *path, name, previous);
        }
        previous = name;
        auto child = value.child(i);
        if (!child.ok()) return child.status().WithContext(fmt::format("variant object at {}", *path));
        const size_t saved = path->size();
        *path += '.';
        path->append(name);
        STRATA_RETURN_NOT_OK(ValidateAt(metadata, *child, depth + 1, path));
        path->resize(saved);
      }
      return Status::OK();
    }
    case BasicType::kArray: {
      for (uint32_t i = 0; i < value.num_elements(); ++i) {
        auto child = value.child(i);
        if (!child.ok()) return child.status().WithContext(fmt::format("variant array at {}", *path));
        const size_t saved = path->size();
        *path += fmt::format("[{}]", i);
        STRATA_RETURN_NOT_OK(ValidateAt(metadata, *child, depth + 1, path));
        path->resize(saved);
      }
      return Status::OK();
    }
  }
  const std::string_view text = value.string();
  if (!ValidateUtf8(reinterpret_cast<const uint8_t*>(text.data()), static_cast<int64_t>(text.size()))) {
    return Status::Corrupt("variant string at {} is not valid UTF-8", *path);
  }
  return Status::OK();
}

}  // namespace

Status ValidateVariant(const VariantMetadata& metadata, const VariantValue& value) {
  std::string path = "$";
  return ValidateAt(metadata, value, 0, &path);
}

}  // namespace strata::variant
