#include "strata/variant/variant_encoder.h"

#include <algorithm>
#include <cstring>

namespace strata::variant {

int ByteWidth(uint64_t value) {
  if (value <= 0xff) return 1;
  if (value <= 0xffff) return 2;
  if (value <= 0xffffff) return 3;
  return 4;
}

ContainerLayout ObjectLayout(uint32_t num_elements, uint32_t max_field_id, int64_t data_size) {
  ContainerLayout l;
  l.num_elements = num_elements;
  l.id_size = ByteWidth(max_field_id);
  l.offset_size = ByteWidth(static_cast<uint64_t>(data_size));
  l.is_large = num_elements > 255;
  l.header_size = 1 + (l.is_large ? 4 : 1) + int64_t{num_elements} * l.id_size + (int64_t{num_elements} + 1) * l.offset_size;
  return l;
}

ContainerLayout ArrayLayout(uint32_t num_elements, int64_t data_size) {
  ContainerLayout l;
  l.num_elements = num_elements;
  l.offset_size = ByteWidth(static_cast<uint64_t>(data_size));
  l.is_large = num_elements > 255;
  l.header_size = 1 + (l.is_large ? 4 : 1) + (int64_t{num_elements} + 1) * l.offset_size;
  return l;
}

uint8_t* WriteUnsigned(uint64_t value, int width, uint8_t* out) {
  for (int i = 0; i < width; ++i) *out++ = static_cast<uint8_t>(value >> (8 * i));
  return out;
}

uint8_t* WriteContainerStart(const ContainerLayout& layout, bool object, uint8_t* out) {
  const int offset_bits = layout.offset_size - 1;
  const int header = object ? (int{layout.is_large} << 4) | ((layout.id_size - 1) << 2) | offset_bits
                            : (int{layout.is_large} << 2) | offset_bits;
  *out++ = static_cast<uint8_t>((header << 2) | (object ? 2 : 3));
  return WriteUnsigned(layout.num_elements, layout.is_large ? 4 : 1, out);
}

uint8_t* WriteString(std::string_view text, uint8_t* out) {
  if (text.size() < 64) {
    *out++ = static_cast<uint8_t>((text.size() << 2) | 1);
  } else {
    *out++ = PrimitiveHeader(PrimitiveType::kString);
    out = WriteUnsigned(text.size(), 4, out);
  }
  if (!text.empty()) std::memcpy(out, text.data(), text.size());
  return out + text.size();
}

uint8_t* WriteBinary(std::string_view bytes, uint8_t* out) {
  *out++ = PrimitiveHeader(PrimitiveType::kBinary);
  out = WriteUnsigned(bytes.size(), 4, out);
  if (!bytes.empty()) std::memcpy(out, bytes.data(), bytes.size());
  return out + bytes.size();
}

namespace {

void AppendLittleEndian(uint64_t value, int bytes, std::string* out) {
  for (int i = 0; i < bytes; ++i) out->push_back(static_cast<char>(value >> (8 * i)));
}

}  // namespace

void VariantBuilder::AppendBoolean(bool value, std::string* out) {
  out->push_back(static_cast<char>(PrimitiveHeader(value ? PrimitiveType::kTrue : PrimitiveType::kFalse)));
}

Status VariantBuilder::AppendInteger(PrimitiveType type, int64_t value, std::string* out) {
  int bytes = 8;
  switch (type) {
    case PrimitiveType::kInt8: bytes = 1; break;
    case PrimitiveType::kInt16: bytes = 2; break;
    case PrimitiveType::kInt32:
    case PrimitiveType::kDate: bytes = 4; break;
    case PrimitiveType::kInt64:
    case PrimitiveType::kTimestampMicros:
    case PrimitiveType::kTimestampNtzMicros:
    case PrimitiveType::kTimeNtzMicros:
    case PrimitiveType::kTimestampNanos:
    case PrimitiveType::kTimestampNtzNanos: break;
    default: return Status::Invalid("variant {} is not an integer type", PrimitiveTypeName(type));
  }
  if (bytes < 8) {
    const int64_t limit = int64_t{1} << (8 * bytes - 1);
    if (value < -limit || value >= limit) return Status::Invalid("{} does not fit variant {}", value, PrimitiveTypeName(type));
  }
  out->push_back(static_cast<char>(PrimitiveHeader(type)));
  AppendLittleEndian(static_cast<uint64_t>(value), bytes, out);
  return Status::OK();
}

void VariantBuilder::AppendDouble(double value, std::string* out) {
  uint64_t bits;
  std::memcpy(&bits, &value, 8);
  out->push_back(static_cast<char>(PrimitiveHeader(PrimitiveType::kDouble)));
  AppendLittleEndian(bits, 8, out);
}

void VariantBuilder::AppendFloat(float value, std::string* out) {
  uint32_t bits;
  std::memcpy(&bits, &value, 4);
  out->push_back(static_cast<char>(PrimitiveHeader(PrimitiveType::kFloat)));
  AppendLittleEndian(bits, 4, out);
}

Status VariantBuilder::AppendDecimal(PrimitiveType type, __int128 unscaled, int scale, std::string* out) {
  if (scale < 0 || scale > 38) return Status::Invalid("variant decimal scale {} is outside [0, 38]", scale);
  int bytes = 16;
  if (type == PrimitiveType::kDecimal4) {
    bytes = 4;
  } else if (type == PrimitiveType::kDecimal8) {
    bytes = 8;
  } else if (type != PrimitiveType::kDecimal16) {
    return Status::Invalid("variant {} is not a decimal type", PrimitiveTypeName(type));
  }
  if (bytes < 16) {
    const __int128 limit = static_cast<__int128>(1) << (8 * bytes - 1);
    if (unscaled < -limit || unscaled >= limit) return Status::Invalid("the unscaled value does not fit variant {}", PrimitiveTypeName(type));
  }
  out->push_back(static_cast<char>(PrimitiveHeader(type)));
  out->push_back(static_cast<char>(scale));
  const auto bits = static_cast<unsigned __int128>(unscaled);
  for (int i = 0; i < bytes; ++i) out->push_back(static_cast<char>(static_cast<uint8_t>(bits >> (8 * i))));
  return Status::OK();
}

void VariantBuilder::AppendString(std::string_view text, std::string* out) {
  const size_t start = out->size();
  out->resize(start + static_cast<size_t>(StringSize(static_cast<int64_t>(text.size()))));
  WriteString(text, reinterpret_cast<uint8_t*>(out->data()) + start);
}

void VariantBuilder::AppendBinary(std::string_view bytes, std::string* out) {
  const size_t start = out->size();
  out->resize(start + static_cast<size_t>(BinarySize(static_cast<int64_t>(bytes.size()))));
  WriteBinary(bytes, reinterpret_cast<uint8_t*>(out->data()) + start);
}

void VariantBuilder::AppendUuid(const uint8_t bytes[16], std::string* out) {
  out->push_back(static_cast<char>(PrimitiveHeader(PrimitiveType::kUuid)));
  out->append(reinterpret_cast<const char*>(bytes), 16);
}

Status VariantBuilder::AppendObject(const VariantMetadata& metadata, std::vector<std::pair<uint32_t, std::string>> fields,
                                    std::string* out) {
  uint32_t max_id = 0;
  int64_t data_size = 0;
  for (const auto& [id, value] : fields) {
    if (id >= metadata.size()) return Status::Invalid("field id {} is outside a dictionary of {}", id, metadata.size());
    max_id = std::max(max_id, id);
    data_size += static_cast<int64_t>(value.size());
  }
  std::sort(fields.begin(), fields.end(),
            [&](const auto& a, const auto& b) { return metadata.name(a.first) < metadata.name(b.first); });
  for (size_t i = 1; i < fields.size(); ++i) {
    if (metadata.name(fields[i - 1].first) == metadata.name(fields[i].first)) {
      return Status::Invalid("variant object field '{}' given twice", metadata.name(fields[i].first));
    }
  }
  const ContainerLayout layout = ObjectLayout(static_cast<uint32_t>(fields.size()), max_id, data_size);
  const size_t start = out->size();
  out->resize(start + static_cast<size_t>(layout.header_size));
  uint8_t* p = WriteContainerStart(layout, true, reinterpret_cast<uint8_t*>(out->data()) + start);
  for (const auto& field : fields) p = WriteUnsigned(field.first, layout.id_size, p);
  uint64_t offset = 0;
  for (const auto& field : fields) {
    p = WriteUnsigned(offset, layout.offset_size, p);
    offset += field.second.size();
  }
  WriteUnsigned(offset, layout.offset_size, p);
  for (const auto& field : fields) out->append(field.second);
  return Status::OK();
}

void VariantBuilder::AppendArray(const std::vector<std::string>& elements, std::string* out) {
  int64_t data_size = 0;
  for (const auto& e : elements) data_size += static_cast<int64_t>(e.size());
  const ContainerLayout layout = ArrayLayout(static_cast<uint32_t>(elements.size()), data_size);
  const size_t start = out->size();
  out->resize(start + static_cast<size_t>(layout.header_size));
  uint8_t* p = WriteContainerStart(layout, false, reinterpret_cast<uint8_t*>(out->data()) + start);
  uint64_t offset = 0;
  for (const auto& e : elements) {
    p = WriteUnsigned(offset, layout.offset_size, p);
    offset += e.size();
  }
  WriteUnsigned(offset, layout.offset_size, p);
  for (const auto& e : elements) out->append(e);
}

std::string VariantBuilder::EncodeMetadata(const std::vector<std::string>& names) {
  bool sorted = true;
  uint64_t total = 0;
  for (size_t i = 0; i < names.size(); ++i) {
    total += names[i].size();
    if (i > 0 && !(names[i - 1] < names[i])) sorted = false;
  }
  const int width = std::max(ByteWidth(names.size()), ByteWidth(total));
  std::string out;
  out.push_back(static_cast<char>(1 | (sorted ? 0x10 : 0) | ((width - 1) << 6)));
  AppendLittleEndian(names.size(), width, &out);
  uint64_t offset = 0;
  for (const auto& name : names) {
    AppendLittleEndian(offset, width, &out);
    offset += name.size();
  }
  AppendLittleEndian(offset, width, &out);
  for (const auto& name : names) out += name;
  return out;
}

}  // namespace strata::variant
