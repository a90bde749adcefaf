#include "strata/parquet/thrift/compact_protocol.h"

#include <algorithm>
#include <limits>

namespace strata::parquet::thrift {

std::string WireTypeName(WireType type) {
  switch (type) {
    case WireType::kStop: return "stop";
    case WireType::kBoolTrue:
    case WireType::kBoolFalse: return "bool";
    case WireType::kByte: return "byte";
    case WireType::kI16: return "i16";
    case WireType::kI32: return "i32";
    case WireType::kI64: return "i64";
    case WireType::kDouble: return "double";
    case WireType::kBinary: return "binary";
    case WireType::kList: return "list";
    case WireType::kSet: return "set";
    case WireType::kMap: return "map";
    case WireType::kStruct: return "struct";
  }
  return fmt::format("type {}", static_cast<int>(type));
}

namespace {

bool IsValidType(uint8_t type) { return type <= static_cast<uint8_t>(WireType::kStruct); }

// The fewest bytes one element of `type` occupies on the wire; a container of n elements needs
// at least n times this many bytes, which bounds any allocation made from a count.
size_t MinEncodedBytes(WireType type) { return type == WireType::kDouble ? 8 : 1; }

}  // namespace

CompactReader::CompactReader(const uint8_t* data, size_t size, CompactReaderOptions options)
    : begin_(data), pos_(data), end_(data + size), options_(options) {
  options_.max_depth = std::clamp(options_.max_depth, 1, kMaxDepthLimit);
}

std::string CompactReader::Path() const {
  std::string path;
  for (int i = 1; i <= depth_; ++i) {
    const Frame& frame = frames_[i];
    if (!path.empty()) path += " > ";
    path += frame.struct_name != nullptr ? frame.struct_name : "<skipped struct>";
    if (frame.field != nullptr) {
      path += '.';
      path += frame.field;
    } else if (frame.last_field_id != 0) {
      fmt::format_to(std::back_inserter(path), ".<field {}>", frame.last_field_id);
    }
    if (frame.index >= 0) fmt::format_to(std::back_inserter(path), "[{}]", frame.index);
  }
  return path;
}

Status CompactReader::MakeError(std::string message) const {
  const std::string path = Path();
  if (path.empty()) return Status::Corrupt("Thrift: {}", message);
  return Status::Corrupt("Thrift {}: {}", path, message);
}

Status CompactReader::ChargeSlow(int64_t bytes) {
  Status st = options_.charge->Grow(bytes);
  if (st.ok()) return st;
  const std::string path = Path();
  return st.WithContext(fmt::format("Thrift {}{}decoded metadata at offset {}", path, path.empty() ? "" : ": ",
                                    offset()));
}

Status CompactReader::Truncated(const char* what, size_t needed) const {
  return Corrupt("{} at offset {} needs {} bytes but only {} remain (truncated input)", what,
                 options_.base_offset + position(), needed, remaining());
}

Status CompactReader::Descend(const char* name) {
  if (depth_ >= options_.max_depth) {
    return Corrupt("nesting deeper than {} levels at offset {}", options_.max_depth,
                   options_.base_offset + position());
  }
  ++depth_;
  frames_[depth_] = Frame{name, nullptr, -1, 0};
  return Status::OK();
}

Status CompactReader::ReadStructBegin(const char* name) { return Descend(name); }

Status CompactReader::ReadStructEnd() {
  if (depth_ > 0) --depth_;
  return Status::OK();
}

Status CompactReader::ReadFieldBegin(FieldHeader* out) {
  if (pos_ == end_) return Truncated("field header", 1);
  const uint8_t byte = *pos_++;
  const uint8_t type = byte & 0x0f;
  if (type == 0) {
    if (byte != 0) {
      --pos_;
      return Corrupt("field header byte 0x{:02x} at offset {} has a delta but no type", byte,
                     options_.base_offset + position());
    }
    out->type = WireType::kStop;
    out->id = 0;
    return Status::OK();
  }
  if (!IsValidType(type)) {
    --pos_;
    return Corrupt("invalid field type {} in header byte 0x{:02x} at offset {}", type, byte,
                   options_.base_offset + position());
  }
  Frame& frame = frames_[depth_];
  const uint8_t delta = byte >> 4;
  int16_t id;
  if (delta != 0) {
    const int32_t next = frame.last_field_id + delta;
    if (next > std::numeric_limits<int16_t>::max()) {
      --pos_;
      return Corrupt("field id overflows i16 at offset {}", options_.base_offset + position());
    }
    id = static_cast<int16_t>(next);
  } else {
    STRATA_RETURN_NOT_OK(ReadI16(&id));
  }
  frame.last_field_id = id;
  frame.field = nullptr;
  frame.index = -1;
  out->type = static_cast<WireType>(type);
  out->id = id;
  has_pending_bool_ = out->type == WireType::kBoolTrue || out->type == WireType::kBoolFalse;
  pending_bool_ = out->type == WireType::kBoolTrue;
  return Status::OK();
}

Status CompactReader::ReadBool(bool* out) {
  if (has_pending_bool_) {
    has_pending_bool_ = false;
    *out = pending_bool_;
    return Status::OK();
  }
  if (pos_ == end_) return Truncated("bool", 1);
  const uint8_t byte = *pos_;
  // 1 is true; 2 is false, and some writers put 0 for false inside lists.
  if (byte > 2) {
    return Corrupt("bool byte 0x{:02x} at offset {} is not 0, 1 or 2", byte, options_.base_offset + position());
  }
  ++pos_;
  *out = byte == 1;
  return Status::OK();
}

Status CompactReader::ReadByte(int8_t* out) {
  if (pos_ == end_) return Truncated("byte", 1);
  *out = static_cast<int8_t>(*pos_++);
  return Status::OK();
}

Status CompactReader::ReadI16(int16_t* out) {
  int64_t v;
  STRATA_RETURN_NOT_OK(ReadI64(&v));
  if (v < std::numeric_limits<int16_t>::min() || v > std::numeric_limits<int16_t>::max()) {
    return Corrupt("i16 value {} ending at offset {} is out of range", v, options_.base_offset + position());
  }
  *out = static_cast<int16_t>(v);
  return Status::OK();
}

Status CompactReader::ReadI32(int32_t* out) {
  int64_t v;
  STRATA_RETURN_NOT_OK(ReadI64(&v));
  if (v < std::numeric_limits<int32_t>::min() || v > std::numeric_limits<int32_t>::max()) {
    return Corrupt("i32 value {} ending at offset {} is out of range", v, options_.base_offset + position());
  }
  *out = static_cast<int32_t>(v);
  return Status::OK();
}

Status CompactReader::ReadDouble(double* out) {
  if (remaining() < 8) return Truncated("double", 8);
  uint64_t bits = 0;
  for (int i = 0; i < 8; ++i) bits |= static_cast<uint64_t>(pos_[i]) << (8 * i);  // little-endian
  std::memcpy(out, &bits, sizeof(bits));
  pos_ += 8;
  return Status::OK();
}

Status CompactReader::ReadBinary(std::string_view* out) {
  const size_t start = position();
  uint64_t length;
  STRATA_RETURN_NOT_OK(ReadVarint(&length));
  if (length > remaining()) {
    return Corrupt("binary length {} at offset {} exceeds the {} bytes that remain", length,
                   options_.base_offset + start, remaining());
  }
  *out = std::string_view(reinterpret_cast<const char*>(pos_), static_cast<size_t>(length));
  pos_ += length;
  return Status::OK();
}

Status CompactReader::CheckCount(int64_t count, WireType element_type, const char* what) {
  if (count < 0 || count > std::numeric_limits<int32_t>::max()) {
    return Corrupt("{} size {} at offset {} is out of range", what, count, options_.base_offset + position());
  }
  const size_t min_bytes = MinEncodedBytes(element_type);
  if (static_cast<uint64_t>(count) > remaining() / min_bytes) {
    return Corrupt("{} of {} {} elements at offset {} needs at least {} bytes but only {} remain", what,
                   count, WireTypeName(element_type), options_.base_offset + position(),
                   static_cast<uint64_t>(count) * min_bytes, remaining());
  }
  return Status::OK();
}

Status CompactReader::ReadListBegin(ListHeader* out) {
  if (pos_ == end_) return Truncated("list header", 1);
  const size_t start = position();
  const uint8_t byte = *pos_++;
  const uint8_t type = byte & 0x0f;
  // Bool elements are written with type 1 (and by some writers 2); both mean "bool". Some old
  // writers give an empty list element type 0: harmless with no element to read.
  if ((type == 0 && byte != 0) || (type != 0 && !IsValidType(type))) {
    pos_ = begin_ + start;
    return Corrupt("invalid list element type {} at offset {}", type, options_.base_offset + start);
  }
  if (type == 0) {
    out->element_type = WireType::kStop;
    out->size = 0;
    return Status::OK();
  }
  int64_t size = byte >> 4;
  if (size == 15) {
    uint64_t long_size;
    STRATA_RETURN_NOT_OK(ReadVarint(&long_size));
    size = long_size > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()) ? -1
                                                                                   : static_cast<int64_t>(long_size);
  }
  out->element_type = type == 2 ? WireType::kBoolTrue : static_cast<WireType>(type);
  STRATA_RETURN_NOT_OK(CheckCount(size, out->element_type, "list"));
  out->size = static_cast<int32_t>(size);
  return Status::OK();
}

Status CompactReader::ReadMapBegin(MapHeader* out) {
  uint64_t size;
  STRATA_RETURN_NOT_OK(ReadVarint(&size));
  if (size == 0) {
    *out = MapHeader{};
    return Status::OK();
  }
  if (pos_ == end_) return Truncated("map key/value types", 1);
  const uint8_t byte = *pos_++;
  const uint8_t key = byte >> 4;
  const uint8_t value = byte & 0x0f;
  if (key == 0 || value == 0 || !IsValidType(key) || !IsValidType(value)) {
    return Corrupt("invalid map key/value types 0x{:02x} at offset {}", byte, options_.base_offset + position() - 1);
  }
  out->key_type = static_cast<WireType>(key);
  out->value_type = static_cast<WireType>(value);
  // Each entry holds a key and a value: at least two bytes.
  if (size > std::numeric_limits<int32_t>::max() || size > remaining() / 2) {
    return Corrupt("map of {} entries at offset {} needs at least {} bytes but only {} remain", size,
                   options_.base_offset + position(), size * 2, remaining());
  }
  out->size = static_cast<int32_t>(size);
  return Status::OK();
}

Status CompactReader::Skip(WireType type) { return SkipDepth(type, 0); }

Status CompactReader::SkipDepth(WireType type, int nesting) {
  // Structs count through depth_ (they get a frame for error messages), lists and maps through
  // `nesting`; their sum is bounded, so skipping hostile input cannot exhaust the stack.
  const bool container = type == WireType::kStruct || type == WireType::kList || type == WireType::kSet ||
                         type == WireType::kMap;
  if (container && depth_ + nesting >= options_.max_depth) {
    return Corrupt("nesting deeper than {} levels at offset {}", options_.max_depth,
                   options_.base_offset + position());
  }
  switch (type) {
    case WireType::kBoolTrue:
    case WireType::kBoolFalse: {
      bool ignored;
      return ReadBool(&ignored);
    }
    case WireType::kByte: {
      int8_t ignored;
      return ReadByte(&ignored);
    }
    case WireType::kI16:
    case WireType::kI32:
    case WireType::kI64: {
      uint64_t ignored;
      return ReadVarint(&ignored);
    }
    case WireType::kDouble:
      if (remaining() < 8) return Truncated("double", 8);
      pos_ += 8;
      return Status::OK();
    case WireType::kBinary: {
      std::string_view ignored;
      return ReadBinary(&ignored);
    }
    case WireType::kStruct: {
      STRATA_RETURN_NOT_OK(Descend(nullptr));
      while (true) {
        FieldHeader field;
        STRATA_RETURN_NOT_OK(ReadFieldBegin(&field));
        if (field.type == WireType::kStop) break;
        STRATA_RETURN_NOT_OK(SkipDepth(field.type, nesting));
      }
      return ReadStructEnd();
    }
    case WireType::kList:
    case WireType::kSet: {
      ListHeader list;
      STRATA_RETURN_NOT_OK(ReadListBegin(&list));
      for (int32_t i = 0; i < list.size; ++i) STRATA_RETURN_NOT_OK(SkipDepth(list.element_type, nesting + 1));
      return Status::OK();
    }
    case WireType::kMap: {
      MapHeader map;
      STRATA_RETURN_NOT_OK(ReadMapBegin(&map));
      for (int32_t i = 0; i < map.size; ++i) {
        STRATA_RETURN_NOT_OK(SkipDepth(map.key_type, nesting + 1));
        STRATA_RETURN_NOT_OK(SkipDepth(map.value_type, nesting + 1));
      }
      return Status::OK();
    }
    case WireType::kStop:
      break;
  }
  return Corrupt("cannot skip a value of {} at offset {}", WireTypeName(type), options_.base_offset + position());
}

// ---- writer -----------------------------------------------------------------------------------

void CompactWriter::WriteStructBegin() {
  if (depth_ < kMaxDepth) saved_field_ids_[depth_] = last_field_id_;
  ++depth_;
  last_field_id_ = 0;
}

void CompactWriter::WriteStructEnd() {
  out_->push_back(0);  // field stop
  --depth_;
  last_field_id_ = depth_ < kMaxDepth && depth_ >= 0 ? saved_field_ids_[depth_] : 0;
}

void CompactWriter::WriteFieldBegin(WireType type, int16_t id) {
  const int delta = id - last_field_id_;
  if (delta > 0 && delta <= 15) {
    out_->push_back(static_cast<char>((delta << 4) | static_cast<int>(type)));
  } else {
    out_->push_back(static_cast<char>(type));
    WriteI16(id);
  }
  last_field_id_ = id;
}

void CompactWriter::WriteBoolField(int16_t id, bool value) {
  WriteFieldBegin(value ? WireType::kBoolTrue : WireType::kBoolFalse, id);
}

void CompactWriter::WriteEmptyStructField(int16_t id) {
  WriteFieldBegin(WireType::kStruct, id);
  WriteStructBegin();
  WriteStructEnd();
}

void CompactWriter::WriteVarint(uint64_t value) {
  char bytes[10];
  int n = 0;
  while (value >= 0x80) {
    bytes[n++] = static_cast<char>((value & 0x7f) | 0x80);
    value >>= 7;
  }
  bytes[n++] = static_cast<char>(value);
  out_->append(bytes, n);
}

void CompactWriter::WriteDouble(double value) {
  uint64_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  char bytes[8];
  for (int i = 0; i < 8; ++i) bytes[i] = static_cast<char>(bits >> (8 * i));
  out_->append(bytes, 8);
}

void CompactWriter::WriteBinary(std::string_view value) {
  WriteVarint(value.size());
  out_->append(value.data(), value.size());
}

void CompactWriter::WriteListBegin(WireType element_type, int32_t size) {
  const int type = element_type == WireType::kBoolFalse ? static_cast<int>(WireType::kBoolTrue)
                                                        : static_cast<int>(element_type);
  if (size < 15) {
    out_->push_back(static_cast<char>((size << 4) | type));
  } else {
    out_->push_back(static_cast<char>(0xf0 | type));
    WriteVarint(static_cast<uint64_t>(size));
  }
}

void CompactWriter::WriteMapBegin(WireType key_type, WireType value_type, int32_t size) {
  WriteVarint(static_cast<uint64_t>(size));
  if (size != 0) out_->push_back(static_cast<char>((static_cast<int>(key_type) << 4) | static_cast<int>(value_type)));
}

}  // namespace strata::parquet::thrift
