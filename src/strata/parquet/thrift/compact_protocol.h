// The Thrift compact protocol, hand-written: a bounds-checked reader over a byte span and a
// writer into a std::string. Parquet stores its footer, page headers, page index and Bloom filter
// headers this way; parquet_types.h builds the parquet.thrift structures on top of these calls.
//
// Wire format in brief (Thrift's compact protocol specification):
//  - i16/i32/i64 are zigzag-encoded ULEB128 varints (at most 10 bytes); byte is one raw byte;
//    double is 8 bytes little-endian; binary/string is a varint length followed by the bytes.
//  - A field header is one byte: high nibble = delta from the previous field id (1..15), low
//    nibble = wire type; a zero delta is followed by the field id as a zigzag i16. A bool field
//    carries its value in the type nibble (1 = true, 2 = false). Type 0 ends a struct.
//  - A list/set header is one byte: high nibble = size (0..14), low nibble = element type; a
//    size nibble of 15 is followed by the size as a varint. A map header is a varint size, then
//    (when the size is not zero) one byte with key type (high nibble) and value type (low nibble).
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "strata/memory/memory_charge.h"
#include "strata/util/status.h"

namespace strata::parquet::thrift {

// The compact protocol's type ids as they appear on the wire.
enum class WireType : uint8_t {
  kStop = 0,
  kBoolTrue = 1,
  kBoolFalse = 2,
  kByte = 3,
  kI16 = 4,
  kI32 = 5,
  kI64 = 6,
  kDouble = 7,
  kBinary = 8,
  kList = 9,
  kSet = 10,
  kMap = 11,
  kStruct = 12,
};

// "i32", "struct", ... for error messages; "type 13" style text for ids outside the protocol.
std::string WireTypeName(WireType type);

struct FieldHeader {
  WireType type = WireType::kStop;  // kBoolTrue/kBoolFalse for bool fields
  int16_t id = 0;
};

struct ListHeader {
  WireType element_type = WireType::kStop;
  int32_t size = 0;  // elements, already checked against the bytes that remain
};

struct MapHeader {
  WireType key_type = WireType::kStop;
  WireType value_type = WireType::kStop;
  int32_t size = 0;  // entries, already checked against the bytes that remain
};

struct CompactReaderOptions {
  // Structs (and lists/maps) nested deeper than this are rejected as Corrupt; parquet.thrift
  // itself needs 7 levels.
  int max_depth = 64;
  // Added to every offset in error messages: the position of the first byte in its file.
  int64_t base_offset = 0;
  // When set, decoders charge the heap bytes of each list and string to it before allocating
  // them (CompactReader::Charge), so a pool limit refuses a hostile size first. Not owned.
  MemoryCharge* charge = nullptr;
};

// Reads compact-protocol values from a span the caller keeps alive while the reader and any
// string_view it returned are in use. Every read checks the bytes that remain first; every error
// is a Status::Corrupt naming the position in the structure being decoded ("FileMetaData.row_groups[2]
// > RowGroup.columns[7] > ColumnChunk.meta_data") and the byte offset.
class CompactReader {
 public:
  static constexpr int kMaxDepthLimit = 128;

  CompactReader(const uint8_t* data, size_t size, CompactReaderOptions options = {});

  size_t position() const { return static_cast<size_t>(pos_ - begin_); }
  size_t remaining() const { return static_cast<size_t>(end_ - pos_); }
  // position() plus the base offset: where the reader is in the file, for messages.
  int64_t offset() const { return options_.base_offset + static_cast<int64_t>(position()); }
  int depth() const { return depth_; }

  // Structs. `name` (a string literal; the pointer is kept) labels error messages.
  Status ReadStructBegin(const char* name);
  Status ReadStructEnd();
  // Reads the next field header; type kStop ends the struct. For a bool field the value is kept
  // and returned by the next ReadBool().
  Status ReadFieldBegin(FieldHeader* out);
  // Names the field being read (a string literal), and the list element index (or -1), so errors
  // below it can say where they are. Costs two stores.
  void SetField(const char* field_name, int32_t index = -1) {
    frames_[depth_].field = field_name;
    frames_[depth_].index = index;
  }
  void SetIndex(int32_t index) { frames_[depth_].index = index; }
  // A field whose wire type did not match its declaration is skipped, as Thrift's generated code
  // does (some writers reused field ids); the struct decoder then treats it as absent.
  void MarkFieldSkipped() { field_skipped_ = true; }
  bool TakeFieldSkipped() {
    const bool skipped = field_skipped_;
    field_skipped_ = false;
    return skipped;
  }

  // Scalars.
  Status ReadBool(bool* out);
  Status ReadByte(int8_t* out);
  Status ReadI16(int16_t* out);
  Status ReadI32(int32_t* out);
  Status ReadI64(int64_t* out);
  Status ReadDouble(double* out);
  // An unsigned ULEB128 varint of at most 10 bytes.
  Status ReadVarint(uint64_t* out);
  // The returned view points into the input span (no copy).
  Status ReadBinary(std::string_view* out);

  // Containers. Sizes are checked against the bytes that remain (each element needs at least one
  // byte, a double eight) before anything can be allocated from them.
  Status ReadListBegin(ListHeader* out);
  Status ReadSetBegin(ListHeader* out) { return ReadListBegin(out); }
  Status ReadMapBegin(MapHeader* out);

  // Charges `bytes` of heap memory a decoder is about to allocate to the options' charge (free
  // without one). OutOfMemory past the pool's limit, naming the position being decoded.
  Status Charge(int64_t bytes) {
    if (options_.charge == nullptr || bytes == 0) return Status::OK();
    return ChargeSlow(bytes);
  }

  // Skips one value of `type`, including nested structs, lists, sets and maps, without
  // allocating; depth is bounded like ReadStructBegin.
  Status Skip(WireType type);

  // A Corrupt status "Thrift <path>: <message> (at byte offset N)" for callers that find a
  // semantic problem (a missing required field, a type mismatch).
  template <typename... Args>
  Status Corrupt(fmt::format_string<Args...> f, Args&&... args) const {
    return MakeError(fmt::format(f, std::forward<Args>(args)...));
  }

 private:
  struct Frame {
    const char* struct_name = nullptr;
    const char* field = nullptr;
    int32_t index = -1;
    int16_t last_field_id = 0;
  };

  Status MakeError(std::string message) const;
  // "FileMetaData.row_groups[2] > RowGroup.columns", or empty at the top level.
  std::string Path() const;
  Status ChargeSlow(int64_t bytes);
  Status Truncated(const char* what, size_t needed) const;
  Status CheckCount(int64_t count, WireType element_type, const char* what);
  Status Descend(const char* name);
  Status SkipDepth(WireType type, int depth);

  const uint8_t* begin_;
  const uint8_t* pos_;
  const uint8_t* end_;
  CompactReaderOptions options_;
  int depth_ = 0;
  bool has_pending_bool_ = false;
  bool pending_bool_ = false;
  bool field_skipped_ = false;
  Frame frames_[kMaxDepthLimit + 1];
};

// Appends compact-protocol values to a std::string (owned by the caller). Writing cannot fail;
// field ids must be written in a struct in increasing order for the short form to apply, but any
// order is valid on the wire.
class CompactWriter {
 public:
  static constexpr int kMaxDepth = 64;

  explicit CompactWriter(std::string* out) : out_(out) {}

  void WriteStructBegin();
  void WriteStructEnd();
  void WriteFieldBegin(WireType type, int16_t id);
  void WriteFieldStop() { out_->push_back(0); }

  // Values inside lists/maps, or after WriteFieldBegin.
  void WriteBool(bool value) { out_->push_back(value ? 1 : 2); }
  void WriteByte(int8_t value) { out_->push_back(static_cast<char>(value)); }
  void WriteI16(int16_t value) { WriteVarint(ZigZag(value)); }
  void WriteI32(int32_t value) { WriteVarint(ZigZag(value)); }
  void WriteI64(int64_t value) { WriteVarint(ZigZag(value)); }
  void WriteDouble(double value);
  void WriteBinary(std::string_view value);
  void WriteVarint(uint64_t value);
  void WriteListBegin(WireType element_type, int32_t size);
  void WriteSetBegin(WireType element_type, int32_t size) { WriteListBegin(element_type, size); }
  void WriteMapBegin(WireType key_type, WireType value_type, int32_t size);

  // Whole fields: header and value.
  void WriteBoolField(int16_t id, bool value);
  void WriteByteField(int16_t id, int8_t value) { WriteFieldBegin(WireType::kByte, id); WriteByte(value); }
  void WriteI16Field(int16_t id, int16_t value) { WriteFieldBegin(WireType::kI16, id); WriteI16(value); }
  void WriteI32Field(int16_t id, int32_t value) { WriteFieldBegin(WireType::kI32, id); WriteI32(value); }
  void WriteI64Field(int16_t id, int64_t value) { WriteFieldBegin(WireType::kI64, id); WriteI64(value); }
  void WriteDoubleField(int16_t id, double value) {
    WriteFieldBegin(WireType::kDouble, id);
    WriteDouble(value);
  }
  void WriteBinaryField(int16_t id, std::string_view value) {
    WriteFieldBegin(WireType::kBinary, id);
    WriteBinary(value);
  }
  // An empty struct as a field (the members of Thrift unions such as LogicalType.STRING).
  void WriteEmptyStructField(int16_t id);

  std::string* out() const { return out_; }

  static uint64_t ZigZag(int64_t value) {
    return (static_cast<uint64_t>(value) << 1) ^ static_cast<uint64_t>(value >> 63);
  }

 private:
  std::string* out_;
  int depth_ = 0;
  int16_t last_field_id_ = 0;
  int16_t saved_field_ids_[kMaxDepth + 1] = {};
};

inline int64_t ZigZagDecode(uint64_t value) {
  return static_cast<int64_t>(value >> 1) ^ -static_cast<int64_t>(value & 1);
}

// ---- inline hot paths -------------------------------------------------------------------------

inline Status CompactReader::ReadVarint(uint64_t* out) {
  // Fast path: with 10 bytes available no per-byte bounds check is needed.
  uint64_t result = 0;
  if (remaining() >= 10) {
    for (int shift = 0; shift < 70; shift += 7) {
      const uint8_t byte = *pos_++;
      result |= static_cast<uint64_t>(byte & 0x7f) << shift;
      if ((byte & 0x80) == 0) {
        *out = result;
        return Status::OK();
      }
    }
    pos_ -= 10;
    return Corrupt("varint longer than 10 bytes at offset {}", options_.base_offset + position());
  }
  const uint8_t* p = pos_;
  for (int shift = 0; shift < 70; shift += 7) {
    if (p == end_) return Truncated("varint", static_cast<size_t>(p - pos_) + 1);
    const uint8_t byte = *p++;
    result |= static_cast<uint64_t>(byte & 0x7f) << shift;
    if ((byte & 0x80) == 0) {
      pos_ = p;
      *out = result;
      return Status::OK();
    }
  }
  return Corrupt("varint longer than 10 bytes at offset {}", options_.base_offset + position());
}

inline Status CompactReader::ReadI64(int64_t* out) {
  uint64_t v = 0;
  STRATA_RETURN_NOT_OK(ReadVarint(&v));
  *out = ZigZagDecode(v);
  return Status::OK();
}

}  // namespace strata::parquet::thrift
