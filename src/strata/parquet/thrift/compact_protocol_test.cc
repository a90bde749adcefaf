#include "strata/parquet/thrift/compact_protocol.h"
#include "strata/parquet/thrift/parquet_types.h"

#include <gtest/gtest.h>

#include <limits>
#include <random>
#include <string>
#include <vector>

namespace strata::parquet::thrift {
namespace {

std::string Bytes(std::initializer_list<int> bytes) {
  std::string s;
  for (int b : bytes) s.push_back(static_cast<char>(b));
  return s;
}

CompactReader ReaderOf(const std::string& s) {
  return CompactReader(reinterpret_cast<const uint8_t*>(s.data()), s.size());
}

TEST(CompactProtocolTest, ZigZagVarintKnownVectors) {
  // Thrift compact protocol: zigzag maps 0,-1,1,-2,2 to 0,1,2,3,4; ULEB128 groups of 7 bits.
  struct Case {
    int64_t value;
    std::string wire;
  } cases[] = {
      {0, Bytes({0x00})},
      {-1, Bytes({0x01})},
      {1, Bytes({0x02})},
      {-2, Bytes({0x03})},
      {63, Bytes({0x7e})},
      {-64, Bytes({0x7f})},
      {64, Bytes({0x80, 0x01})},
      {300, Bytes({0xd8, 0x04})},
      {std::numeric_limits<int32_t>::max(), Bytes({0xfe, 0xff, 0xff, 0xff, 0x0f})},
      {std::numeric_limits<int32_t>::min(), Bytes({0xff, 0xff, 0xff, 0xff, 0x0f})},
      {std::numeric_limits<int64_t>::min(), Bytes({0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01})},
  };
  for (const Case& c : cases) {
    std::string out;
    CompactWriter writer(&out);
    writer.WriteI64(c.value);
    EXPECT_EQ(out, c.wire) << c.value;
    // Decoded both with the fast path (>= 10 bytes left) and the careful one.
    for (const std::string& input : {c.wire, c.wire + std::string(16, '\0')}) {
      CompactReader reader = ReaderOf(input);
      int64_t decoded;
      ASSERT_TRUE(reader.ReadI64(&decoded).ok());
      EXPECT_EQ(decoded, c.value);
      EXPECT_EQ(reader.position(), c.wire.size());
    }
  }
}

TEST(CompactProtocolTest, VarintLongerThanTenBytesIsRejected) {
  for (size_t pad : {0, 20}) {
    std::string wire(11, static_cast<char>(0x80));
    wire.push_back(0x01);
    wire += std::string(pad, '\0');
    CompactReader reader = ReaderOf(wire);
    uint64_t v;
    Status st = reader.ReadVarint(&v);
    ASSERT_TRUE(st.IsCorrupt());
    EXPECT_NE(st.message().find("longer than 10 bytes"), std::string::npos) << st.message();
  }
  // Truncated varint: continuation bit on the last byte.
  std::string truncated = Bytes({0x80, 0x80});
  CompactReader reader = ReaderOf(truncated);
  uint64_t v;
  EXPECT_TRUE(reader.ReadVarint(&v).IsCorrupt());
}

TEST(CompactProtocolTest, I32OutOfRangeIsCorrupt) {
  std::string out;
  CompactWriter writer(&out);
  writer.WriteI64(int64_t{1} << 40);
  CompactReader reader = ReaderOf(out);
  int32_t v;
  EXPECT_TRUE(reader.ReadI32(&v).IsCorrupt());
}

TEST(CompactProtocolTest, FieldHeadersShortAndLongForm) {
  std::string out;
  CompactWriter writer(&out);
  writer.WriteStructBegin();
  writer.WriteI32Field(1, 5);     // delta 1: 0x15
  writer.WriteI32Field(16, -1);   // delta 15: 0xf5
  writer.WriteI32Field(100, 7);   // delta 84: long form 0x05 + zigzag i16 200
  writer.WriteI32Field(3, 2);     // negative delta: long form
  writer.WriteStructEnd();
  EXPECT_EQ(out, Bytes({0x15, 0x0a, 0xf5, 0x01, 0x05, 0xc8, 0x01, 0x0e, 0x05, 0x06, 0x04, 0x00}));

  CompactReader reader = ReaderOf(out);
  ASSERT_TRUE(reader.ReadStructBegin("Test").ok());
  const int16_t ids[] = {1, 16, 100, 3};
  const int32_t values[] = {5, -1, 7, 2};
  for (int i = 0; i < 4; ++i) {
    FieldHeader field;
    ASSERT_TRUE(reader.ReadFieldBegin(&field).ok());
    EXPECT_EQ(field.type, WireType::kI32);
    EXPECT_EQ(field.id, ids[i]);
    int32_t v;
    ASSERT_TRUE(reader.ReadI32(&v).ok());
    EXPECT_EQ(v, values[i]);
  }
  FieldHeader stop;
  ASSERT_TRUE(reader.ReadFieldBegin(&stop).ok());
  EXPECT_EQ(stop.type, WireType::kStop);
  ASSERT_TRUE(reader.ReadStructEnd().ok());
  EXPECT_EQ(reader.remaining(), 0u);
}

TEST(CompactProtocolTest, BoolFieldsCarryTheValueInTheType) {
  std::string out;
  CompactWriter writer(&out);
  writer.WriteStructBegin();
  writer.WriteBoolField(1, true);
  writer.WriteBoolField(2, false);
  writer.WriteFieldBegin(WireType::kList, 3);
  writer.WriteListBegin(WireType::kBoolTrue, 3);
  writer.WriteBool(true);
  writer.WriteBool(false);
  writer.WriteBool(true);
  writer.WriteStructEnd();
  EXPECT_EQ(out, Bytes({0x11, 0x12, 0x19, 0x31, 0x01, 0x02, 0x01, 0x00}));

  CompactReader reader = ReaderOf(out);
  ASSERT_TRUE(reader.ReadStructBegin("Test").ok());
  FieldHeader field;
  bool value;
  ASSERT_TRUE(reader.ReadFieldBegin(&field).ok());
  EXPECT_EQ(field.type, WireType::kBoolTrue);
  ASSERT_TRUE(reader.ReadBool(&value).ok());
  EXPECT_TRUE(value);
  ASSERT_TRUE(reader.ReadFieldBegin(&field).ok());
  ASSERT_TRUE(reader.ReadBool(&value).ok());
  EXPECT_FALSE(value);
  ASSERT_TRUE(reader.ReadFieldBegin(&field).ok());
  ListHeader list;
  ASSERT_TRUE(reader.ReadListBegin(&list).ok());
  EXPECT_EQ(list.size, 3);
  std::vector<bool> got;
  for (int i = 0; i < list.size; ++i) {
    ASSERT_TRUE(reader.ReadBool(&value).ok());
    got.push_back(value);
  }
  EXPECT_EQ(got, (std::vector<bool>{true, false, true}));
  // Some writers use 0 for false in lists; anything above 2 is corrupt.
  std::string zero = Bytes({0x00, 0x07});
  CompactReader r2 = ReaderOf(zero);
  ASSERT_TRUE(r2.ReadBool(&value).ok());
  EXPECT_FALSE(value);
  EXPECT_TRUE(r2.ReadBool(&value).IsCorrupt());
}

TEST(CompactProtocolTest, ListHeadersShortAndLong) {
  for (int32_t size : {0, 1, 14, 15, 16, 1000}) {
    std::string out;
    CompactWriter writer(&out);
    writer.WriteListBegin(WireType::kI32, size);
    for (int32_t i = 0; i < size; ++i) writer.WriteI32(i - 7);
    if (size < 15) EXPECT_EQ(static_cast<uint8_t>(out[0]), (size << 4) | 5);
    else EXPECT_EQ(static_cast<uint8_t>(out[0]), 0xf5);
    CompactReader reader = ReaderOf(out);
    ListHeader list;
    ASSERT_TRUE(reader.ReadListBegin(&list).ok());
    EXPECT_EQ(list.size, size);
    EXPECT_EQ(list.element_type, WireType::kI32);
    for (int32_t i = 0; i < size; ++i) {
      int32_t v;
      ASSERT_TRUE(reader.ReadI32(&v).ok());
      EXPECT_EQ(v, i - 7);
    }
    EXPECT_EQ(reader.remaining(), 0u);
  }
}

TEST(CompactProtocolTest, ListSizeIsCheckedAgainstRemainingBytes) {
  // 1,000,000 i32 elements announced, 3 bytes present.
  std::string out;
  CompactWriter writer(&out);
  writer.WriteListBegin(WireType::kI32, 1000000);
  out += Bytes({0x02, 0x04, 0x06});
  CompactReader reader = ReaderOf(out);
  ListHeader list;
  Status st = reader.ReadListBegin(&list);
  ASSERT_TRUE(st.IsCorrupt());
  EXPECT_NE(st.message().find("1000000"), std::string::npos) << st.message();
  // Doubles need 8 bytes each: 2 doubles in 15 bytes is not enough.
  std::string doubles;
  CompactWriter w2(&doubles);
  w2.WriteListBegin(WireType::kDouble, 2);
  doubles += std::string(15, '\0');
  CompactReader r2 = ReaderOf(doubles);
  EXPECT_TRUE(r2.ReadListBegin(&list).IsCorrupt());
  // A size beyond int32.
  std::string huge = Bytes({0xf5, 0xff, 0xff, 0xff, 0xff, 0x7f});
  CompactReader r3 = ReaderOf(huge);
  EXPECT_TRUE(r3.ReadListBegin(&list).IsCorrupt());
}

// Some old writers encode an empty list as one zero byte: size 0, element type 0. Type 0 with
// elements stays corrupt.
TEST(CompactProtocolTest, AnEmptyListMayHaveElementTypeZero) {
  ListHeader list;
  const std::string empty_bytes = Bytes({0x00, 0x2a});  // the reader points into it
  CompactReader empty = ReaderOf(empty_bytes);
  ASSERT_TRUE(empty.ReadListBegin(&list).ok());
  EXPECT_EQ(list.size, 0);
  EXPECT_EQ(empty.position(), 1u);
  const std::string one_bytes = Bytes({0x10, 0x00});
  CompactReader one = ReaderOf(one_bytes);
  Status st = one.ReadListBegin(&list);
  ASSERT_TRUE(st.IsCorrupt());
  EXPECT_NE(st.message().find("invalid list element type 0"), std::string::npos) << st.message();
  // In a footer: a FileMetaData whose empty row_groups list is written that way decodes.
  FileMetaData metadata;
  metadata.version = 1;
  SchemaElement root;
  root.name = "schema";
  root.num_children = 0;
  metadata.schema = {root};
  std::string bytes;
  SerializeFileMetaData(metadata, &bytes);
  const std::string normal = Bytes({0x19, 0x0c});  // field 4 (row_groups), a list; 0 structs
  const size_t at = bytes.find(normal);
  ASSERT_NE(at, std::string::npos);
  bytes[at + 1] = 0x00;
  FileMetaData decoded;
  auto read = DeserializeFileMetaData(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size(), &decoded);
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  EXPECT_TRUE(decoded.row_groups.empty());
  EXPECT_EQ(decoded.version, 1);
}

TEST(CompactProtocolTest, BinaryAndDouble) {
  std::string out;
  CompactWriter writer(&out);
  writer.WriteBinary("hello");
  writer.WriteBinary("");
  writer.WriteDouble(1.5);
  writer.WriteDouble(-0.0);
  EXPECT_EQ(out.substr(0, 6), "\x05hello");
  // 1.5 = 0x3FF8000000000000, little-endian.
  EXPECT_EQ(out.substr(7, 8), Bytes({0, 0, 0, 0, 0, 0, 0xf8, 0x3f}));
  CompactReader reader = ReaderOf(out);
  std::string_view view;
  ASSERT_TRUE(reader.ReadBinary(&view).ok());
  EXPECT_EQ(view, "hello");
  EXPECT_EQ(view.data(), out.data() + 1);  // zero-copy
  ASSERT_TRUE(reader.ReadBinary(&view).ok());
  EXPECT_EQ(view, "");
  double d;
  ASSERT_TRUE(reader.ReadDouble(&d).ok());
  EXPECT_EQ(d, 1.5);
  ASSERT_TRUE(reader.ReadDouble(&d).ok());
  EXPECT_TRUE(std::signbit(d));
  EXPECT_TRUE(reader.ReadDouble(&d).IsCorrupt());  // nothing left
}

TEST(CompactProtocolTest, BinaryLengthBeyondInputIsCorruptWithOffset) {
  std::string out = "xx";
  CompactWriter writer(&out);
  writer.WriteVarint(9999999);
  out += "abc";
  CompactReader reader(reinterpret_cast<const uint8_t*>(out.data()) + 2, out.size() - 2,
                       {.base_offset = 1000});
  std::string_view view;
  Status st = reader.ReadBinary(&view);
  ASSERT_TRUE(st.IsCorrupt());
  EXPECT_NE(st.message().find("9999999"), std::string::npos) << st.message();
  EXPECT_NE(st.message().find("offset 1000"), std::string::npos) << st.message();
}

TEST(CompactProtocolTest, MapHeader) {
  std::string out;
  CompactWriter writer(&out);
  writer.WriteMapBegin(WireType::kBinary, WireType::kI64, 2);
  writer.WriteBinary("a");
  writer.WriteI64(1);
  writer.WriteBinary("b");
  writer.WriteI64(-2);
  writer.WriteMapBegin(WireType::kBinary, WireType::kI64, 0);
  EXPECT_EQ(out.substr(0, 2), Bytes({0x02, 0x86}));
  CompactReader reader = ReaderOf(out);
  MapHeader map;
  ASSERT_TRUE(reader.ReadMapBegin(&map).ok());
  EXPECT_EQ(map.size, 2);
  EXPECT_EQ(map.key_type, WireType::kBinary);
  EXPECT_EQ(map.value_type, WireType::kI64);
  ASSERT_TRUE(reader.Skip(WireType::kBinary).ok());
  ASSERT_TRUE(reader.Skip(WireType::kI64).ok());
  ASSERT_TRUE(reader.Skip(WireType::kBinary).ok());
  int64_t v;
  ASSERT_TRUE(reader.ReadI64(&v).ok());
  EXPECT_EQ(v, -2);
  ASSERT_TRUE(reader.ReadMapBegin(&map).ok());
  EXPECT_EQ(map.size, 0);
  EXPECT_EQ(reader.remaining(), 0u);
}

// A struct holding a field of every type, nested containers included, then a marker: skipping the
// struct must land exactly on the marker.
TEST(CompactProtocolTest, SkipsEveryType) {
  std::string out;
  CompactWriter w(&out);
  w.WriteStructBegin();
  w.WriteBoolField(1, true);
  w.WriteBoolField(2, false);
  w.WriteByteField(3, -5);
  w.WriteI16Field(4, -300);
  w.WriteI32Field(5, 123456);
  w.WriteI64Field(6, -1234567890123);
  w.WriteDoubleField(7, 3.25);
  w.WriteBinaryField(8, std::string(300, 'z'));
  w.WriteFieldBegin(WireType::kList, 9);  // list<list<i32>>
  w.WriteListBegin(WireType::kList, 2);
  w.WriteListBegin(WireType::kI32, 2);
  w.WriteI32(1);
  w.WriteI32(2);
  w.WriteListBegin(WireType::kI32, 0);
  w.WriteFieldBegin(WireType::kSet, 10);  // set<bool>
  w.WriteSetBegin(WireType::kBoolTrue, 2);
  w.WriteBool(true);
  w.WriteBool(false);
  w.WriteFieldBegin(WireType::kMap, 11);  // map<string, struct>
  w.WriteMapBegin(WireType::kBinary, WireType::kStruct, 1);
  w.WriteBinary("key");
  w.WriteStructBegin();
  w.WriteDoubleField(1, 2.0);
  w.WriteFieldBegin(WireType::kList, 2);  // list<struct>
  w.WriteListBegin(WireType::kStruct, 2);
  w.WriteStructBegin();
  w.WriteStructEnd();
  w.WriteStructBegin();
  w.WriteBinaryField(300, "deep");  // long-form field id
  w.WriteStructEnd();
  w.WriteStructEnd();
  w.WriteFieldBegin(WireType::kStruct, 12);
  w.WriteStructBegin();
  w.WriteI32Field(1, 1);
  w.WriteStructEnd();
  w.WriteStructEnd();
  const size_t struct_size = out.size();
  out += "MARK";

  CompactReader reader = ReaderOf(out);
  ASSERT_TRUE(reader.Skip(WireType::kStruct).ok());
  EXPECT_EQ(reader.position(), struct_size);
  EXPECT_EQ(reader.depth(), 0);

  // Every strict prefix of the struct fails cleanly as Corrupt.
  for (size_t cut = 0; cut < struct_size; ++cut) {
    CompactReader truncated(reinterpret_cast<const uint8_t*>(out.data()), cut);
    Status st = truncated.Skip(WireType::kStruct);
    EXPECT_TRUE(st.IsCorrupt()) << "cut at " << cut;
  }
}

TEST(CompactProtocolTest, NestingDepthIsBounded) {
  // 100 nested structs (field 1 of each is the next), over a limit of 64.
  std::string out;
  for (int i = 0; i < 100; ++i) out.push_back(0x1c);
  out += std::string(101, '\0');
  CompactReader reader = ReaderOf(out);
  Status st = reader.Skip(WireType::kStruct);
  ASSERT_TRUE(st.IsCorrupt());
  EXPECT_NE(st.message().find("nesting deeper than 64"), std::string::npos) << st.message();
  // Nested lists count as well: [[[[...]]]].
  std::string lists;
  for (int i = 0; i < 200; ++i) lists.push_back(0x19);
  lists.push_back(0x05);
  lists.push_back(0x00);
  CompactReader r2 = ReaderOf(lists);
  EXPECT_TRUE(r2.Skip(WireType::kList).IsCorrupt());
  // Exactly at the limit is fine.
  std::string ok;
  for (int i = 0; i < 63; ++i) ok.push_back(0x1c);
  ok += std::string(64, '\0');
  CompactReader r3 = ReaderOf(ok);
  EXPECT_TRUE(r3.Skip(WireType::kStruct).ok());
}

TEST(CompactProtocolTest, InvalidTypesAreCorrupt) {
  std::string bad_field = Bytes({0x1d});  // type 13
  CompactReader r1 = ReaderOf(bad_field);
  ASSERT_TRUE(r1.ReadStructBegin("Test").ok());
  FieldHeader field;
  EXPECT_TRUE(r1.ReadFieldBegin(&field).IsCorrupt());
  std::string bad_list = Bytes({0x1e, 0x00});
  CompactReader r2 = ReaderOf(bad_list);
  ListHeader list;
  EXPECT_TRUE(r2.ReadListBegin(&list).IsCorrupt());
  std::string bad_stop = Bytes({0x10});  // delta without a type
  CompactReader r3 = ReaderOf(bad_stop);
  EXPECT_TRUE(r3.ReadFieldBegin(&field).IsCorrupt());
}

TEST(CompactProtocolTest, ErrorsNameTheStructAndField) {
  std::string out = Bytes({0x18, 0x7f});  // field 1: binary of length 127, nothing follows
  CompactReader reader = ReaderOf(out);
  ASSERT_TRUE(reader.ReadStructBegin("KeyValue").ok());
  FieldHeader field;
  ASSERT_TRUE(reader.ReadFieldBegin(&field).ok());
  reader.SetField("key");
  std::string_view view;
  Status st = reader.ReadBinary(&view);
  ASSERT_TRUE(st.IsCorrupt());
  EXPECT_NE(st.message().find("KeyValue.key"), std::string::npos) << st.message();
  EXPECT_NE(st.message().find("offset 1"), std::string::npos) << st.message();
}

// Random values written then read back, interleaved by type.
TEST(CompactProtocolTest, RandomizedRoundTrip) {
  std::mt19937_64 rng(42);
  std::string out;
  CompactWriter writer(&out);
  std::vector<std::pair<int, int64_t>> written;
  for (int i = 0; i < 5000; ++i) {
    const int kind = static_cast<int>(rng() % 3);
    int64_t v = static_cast<int64_t>(rng()) >> (rng() % 64);
    if (kind == 0) v = static_cast<int16_t>(v);
    if (kind == 1) v = static_cast<int32_t>(v);
    if (kind == 0) writer.WriteI16(static_cast<int16_t>(v));
    if (kind == 1) writer.WriteI32(static_cast<int32_t>(v));
    if (kind == 2) writer.WriteI64(v);
    written.emplace_back(kind, v);
  }
  CompactReader reader = ReaderOf(out);
  for (auto [kind, v] : written) {
    if (kind == 0) {
      int16_t got;
      ASSERT_TRUE(reader.ReadI16(&got).ok());
      EXPECT_EQ(got, v);
    } else if (kind == 1) {
      int32_t got;
      ASSERT_TRUE(reader.ReadI32(&got).ok());
      EXPECT_EQ(got, v);
    } else {
      int64_t got;
      ASSERT_TRUE(reader.ReadI64(&got).ok());
      EXPECT_EQ(got, v);
    }
  }
  EXPECT_EQ(reader.remaining(), 0u);
}

}  // namespace
}  // namespace strata::parquet::thrift
