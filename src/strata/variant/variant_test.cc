#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "strata/variant/variant_encoder.h"
#include "strata/variant/variant_json.h"
#include "strata/variant/variant_metadata.h"
#include "strata/variant/variant_value.h"

namespace strata::variant {
namespace {

std::string Bytes(std::initializer_list<int> bytes) {
  std::string out;
  for (int b : bytes) out.push_back(static_cast<char>(b));
  return out;
}

std::string Json(const std::string& metadata, const std::string& value) {
  std::string out;
  const Status st = AppendVariantJson(metadata, value, &out);
  return st.ok() ? out : "error: " + st.ToString();
}

TEST(VariantMetadataTest, DecodesAndFinds) {
  const std::string bytes = VariantBuilder::EncodeMetadata({"a", "bb", "c"});
  auto m = VariantMetadata::Make(bytes);
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  EXPECT_EQ(m->size(), 3u);
  EXPECT_TRUE(m->sorted());
  EXPECT_EQ(m->name(1), "bb");
  EXPECT_EQ(m->Find("c"), 2);
  EXPECT_EQ(m->Find("x"), -1);
  const std::string unsorted_bytes = VariantBuilder::EncodeMetadata({"z", "a"});
  auto unsorted = VariantMetadata::Make(unsorted_bytes);
  ASSERT_TRUE(unsorted.ok());
  EXPECT_FALSE(unsorted->sorted());
  EXPECT_EQ(unsorted->Find("a"), 1);
}

TEST(VariantMetadataTest, RejectsHostileBytes) {
  EXPECT_TRUE(VariantMetadata::Make("").status().IsCorrupt());
  EXPECT_TRUE(VariantMetadata::Make(Bytes({0x02, 0, 0})).status().IsCorrupt());              // version 2
  EXPECT_TRUE(VariantMetadata::Make(Bytes({0xc1, 0xff, 0xff, 0xff, 0xff})).status().IsCorrupt());  // 4 G names
  EXPECT_TRUE(VariantMetadata::Make(Bytes({0x01, 1, 0, 5, 'a'})).status().IsCorrupt());     // end past bytes
  EXPECT_TRUE(VariantMetadata::Make(Bytes({0x01, 2, 0, 2, 1, 'a', 'b'})).status().IsCorrupt());  // decreasing
  EXPECT_TRUE(VariantMetadata::Make(Bytes({0x01, 1, 1, 1, 'a'})).status().IsCorrupt());     // first not 0
  EXPECT_TRUE(VariantMetadata::Make(Bytes({0x01, 1, 0, 1, 0xff})).status().IsCorrupt());   // not UTF-8
  EXPECT_TRUE(VariantMetadata::Make(Bytes({0x01, 1, 0, 1, 'a', 'x'})).status().IsCorrupt());  // trailing bytes
}

// Marked sorted but not (DuckDB 1.5.2's writer): read as unsorted, every name found by a scan.
TEST(VariantMetadataTest, AMetadataMarkedSortedThatIsNotIsReadAsUnsorted) {
  for (const std::string& bytes : {Bytes({0x11, 2, 0, 1, 2, 'b', 'a'}), Bytes({0x11, 2, 0, 1, 2, 'a', 'a'})}) {
    auto m = VariantMetadata::Make(bytes);
    ASSERT_TRUE(m.ok()) << m.status().ToString();
    EXPECT_FALSE(m->sorted());
    EXPECT_EQ(m->Find(m->name(1)), m->name(0) == m->name(1) ? 0 : 1);
    EXPECT_EQ(m->Find(m->name(0)), 0);
    EXPECT_EQ(m->Find("c"), -1);
  }
  const std::string sorted_bytes = Bytes({0x11, 2, 0, 1, 2, 'a', 'b'});  // the view needs them alive
  auto sorted = VariantMetadata::Make(sorted_bytes);
  ASSERT_TRUE(sorted.ok());
  EXPECT_TRUE(sorted->sorted());
  EXPECT_EQ(sorted->Find("b"), 1);
}

TEST(VariantValueTest, RejectsHostileBytes) {
  const std::string md = VariantBuilder::EncodeMetadata({"a"});
  EXPECT_TRUE(VariantValue::Make("").status().IsCorrupt());
  EXPECT_TRUE(VariantValue::Make(Bytes({0x14, 1, 2})).status().IsCorrupt());          // int32 cut short
  EXPECT_TRUE(VariantValue::Make(Bytes({0x40, 0xff, 0xff, 0xff, 0x7f})).status().IsCorrupt());  // long string
  EXPECT_TRUE(VariantValue::Make(Bytes({0x09, 'a'})).status().IsCorrupt());            // short string of 2
  EXPECT_TRUE(VariantValue::Make(Bytes({0x54})).status().IsCorrupt());                 // primitive type 21
  EXPECT_TRUE(VariantValue::Make(Bytes({0x13, 0xff, 0xff, 0xff, 0xff})).status().IsCorrupt());  // large array
  // An object whose field id is outside the dictionary, and one whose offset is past its data.
  EXPECT_NE(Json(md, Bytes({0x02, 1, 5, 0, 1, 0x00})).find("error"), std::string::npos);
  const std::string bad_offset_bytes = Bytes({0x03, 1, 3, 3, 0, 0, 0});
  auto bad_offset = VariantValue::Make(bad_offset_bytes);
  ASSERT_TRUE(bad_offset.ok());
  EXPECT_TRUE(bad_offset->child(0).status().IsCorrupt());
  // Fields out of name order.
  const std::string md2 = VariantBuilder::EncodeMetadata({"a", "b"});
  const std::string unsorted_bytes = Bytes({0x02, 2, 1, 0, 0, 1, 2, 0x00, 0x00});
  auto unsorted = VariantValue::Make(unsorted_bytes);
  auto m2 = VariantMetadata::Make(md2);
  ASSERT_TRUE(unsorted.ok() && m2.ok());
  EXPECT_TRUE(ValidateVariant(*m2, *unsorted).IsCorrupt());
}

TEST(VariantValueTest, DeepAndSelfReferentialValuesAreBounded) {
  const std::string md = VariantBuilder::EncodeMetadata({});
  // 300 nested arrays: past the depth limit.
  std::string deep = Bytes({0x00});
  for (int i = 0; i < 300; ++i) {
    std::string outer;
    VariantBuilder::AppendArray({deep}, &outer);
    deep = outer;
  }
  EXPECT_NE(Json(md, deep).find("LimitExceeded"), std::string::npos);
  // Arrays of 255 elements that all point at one child: 255^4 elements of text from ~1 KiB.
  std::string value = Bytes({0x00});
  for (int level = 0; level < 4; ++level) {
    std::string arr = Bytes({0x07, 0xff});  // array, 2-byte offsets, 255 elements
    const auto size = static_cast<uint16_t>(value.size());
    for (int i = 0; i < 255; ++i) arr += Bytes({0, 0});
    arr += Bytes({size & 0xff, size >> 8});
    value = arr + value;
  }
  std::string out;
  JsonOptions options;
  options.max_output_bytes = 1 << 20;
  EXPECT_TRUE(AppendVariantJson(md, value, &out, options).IsLimitExceeded());
}

TEST(VariantBuilderTest, EveryPrimitiveToJson) {
  const std::string md = VariantBuilder::EncodeMetadata({});
  auto json_of = [&](auto&& append) {
    std::string v;
    append(&v);
    return Json(md, v);
  };
  EXPECT_EQ(json_of([](std::string* v) { VariantBuilder::AppendNull(v); }), "null");
  EXPECT_EQ(json_of([](std::string* v) { VariantBuilder::AppendBoolean(true, v); }), "true");
  EXPECT_EQ(json_of([](std::string* v) { VariantBuilder::AppendBoolean(false, v); }), "false");
  EXPECT_EQ(json_of([](std::string* v) { ASSERT_TRUE(VariantBuilder::AppendInteger(PrimitiveType::kInt8, -34, v).ok()); }), "-34");
  EXPECT_EQ(json_of([](std::string* v) { ASSERT_TRUE(VariantBuilder::AppendInteger(PrimitiveType::kInt16, 1234, v).ok()); }), "1234");
  EXPECT_EQ(json_of([](std::string* v) { ASSERT_TRUE(VariantBuilder::AppendInteger(PrimitiveType::kInt32, -12345, v).ok()); }), "-12345");
  EXPECT_EQ(json_of([](std::string* v) { ASSERT_TRUE(VariantBuilder::AppendInteger(PrimitiveType::kInt64, 9876543210, v).ok()); }), "9876543210");
  EXPECT_TRUE(VariantBuilder::AppendInteger(PrimitiveType::kInt8, 300, nullptr).IsInvalid());
  EXPECT_EQ(json_of([](std::string* v) { VariantBuilder::AppendDouble(14.3, v); }), "14.3");
  EXPECT_EQ(json_of([](std::string* v) { VariantBuilder::AppendFloat(10.11f, v); }), "10.11");
  EXPECT_EQ(json_of([](std::string* v) { VariantBuilder::AppendDouble(0.0 / 0.0, v); }), "\"NaN\"");
  EXPECT_EQ(json_of([](std::string* v) { ASSERT_TRUE(VariantBuilder::AppendDecimal(PrimitiveType::kDecimal4, -123456789, 4, v).ok()); }),
            "-12345.6789");
  EXPECT_EQ(json_of([](std::string* v) { ASSERT_TRUE(VariantBuilder::AppendDecimal(PrimitiveType::kDecimal8, 123456789987654321, 9, v).ok()); }),
            "123456789.987654321");
  const __int128 big = static_cast<__int128>(1) << 100;
  EXPECT_EQ(json_of([&](std::string* v) { ASSERT_TRUE(VariantBuilder::AppendDecimal(PrimitiveType::kDecimal16, big, 0, v).ok()); }),
            "1267650600228229401496703205376");
  EXPECT_EQ(json_of([](std::string* v) { ASSERT_TRUE(VariantBuilder::AppendInteger(PrimitiveType::kDate, -4438, v).ok()); }),
            "\"1957-11-07\"");
  EXPECT_EQ(json_of([](std::string* v) { ASSERT_TRUE(VariantBuilder::AppendInteger(PrimitiveType::kTimestampMicros, 1730982834123456, v).ok()); }),
            "\"2024-11-07T12:33:54.123456+00:00\"");
  EXPECT_EQ(json_of([](std::string* v) { ASSERT_TRUE(VariantBuilder::AppendInteger(PrimitiveType::kTimestampNtzMicros, 1730982834123456, v).ok()); }),
            "\"2024-11-07T12:33:54.123456\"");
  EXPECT_EQ(json_of([](std::string* v) { ASSERT_TRUE(VariantBuilder::AppendInteger(PrimitiveType::kTimestampNanos, 1730982834123456789, v).ok()); }),
            "\"2024-11-07T12:33:54.123456789+00:00\"");
  EXPECT_EQ(json_of([](std::string* v) { ASSERT_TRUE(VariantBuilder::AppendInteger(PrimitiveType::kTimestampNtzNanos, 1730982834123456789, v).ok()); }),
            "\"2024-11-07T12:33:54.123456789\"");
  EXPECT_EQ(json_of([](std::string* v) { ASSERT_TRUE(VariantBuilder::AppendInteger(PrimitiveType::kTimeNtzMicros, 45234123456, v).ok()); }),
            "\"12:33:54.123456\"");
  EXPECT_EQ(json_of([](std::string* v) { VariantBuilder::AppendBinary(std::string("\x0a\x0b\x0c\x0d"), v); }), "\"CgsMDQ==\"");
  const uint8_t uuid[16] = {0xf2, 0x4f, 0x9b, 0x64, 0x81, 0xfa, 0x49, 0xd1, 0xb7, 0x4e, 0x8c, 0x09, 0xa6, 0xe3, 0x1c, 0x56};
  EXPECT_EQ(json_of([&](std::string* v) { VariantBuilder::AppendUuid(uuid, v); }), "\"f24f9b64-81fa-49d1-b74e-8c09a6e31c56\"");
  // Strings: escapes, and bytes that are not UTF-8 replaced (the value skips validation).
  EXPECT_EQ(json_of([](std::string* v) { VariantBuilder::AppendString("a\"b\\\n", v); }), R"("a\"b\\\n")");
  EXPECT_EQ(json_of([](std::string* v) { VariantBuilder::AppendString(std::string("x\xff"), v); }), "\"x\xef\xbf\xbd\"");
  const std::string long_text(100, 'q');
  std::string long_value;
  VariantBuilder::AppendString(long_text, &long_value);
  EXPECT_EQ(long_value[0], 0x40);  // a long string: primitive type 16
  EXPECT_EQ(Json(md, long_value), "\"" + long_text + "\"");
}

TEST(VariantBuilderTest, ObjectsSortTheirFields) {
  const std::string md = VariantBuilder::EncodeMetadata({"zeta", "alpha", "mid"});
  auto m = VariantMetadata::Make(md);
  ASSERT_TRUE(m.ok());
  std::string one, two, list;
  ASSERT_TRUE(VariantBuilder::AppendInteger(PrimitiveType::kInt8, 1, &one).ok());
  VariantBuilder::AppendString("two", &two);
  VariantBuilder::AppendArray({one, two}, &list);
  std::string object;
  ASSERT_TRUE(VariantBuilder::AppendObject(*m, {{0, one}, {2, list}, {1, two}}, &object).ok());
  auto value = VariantValue::Make(object);
  ASSERT_TRUE(value.ok());
  EXPECT_TRUE(ValidateVariant(*m, *value).ok());
  EXPECT_EQ(value->field_id(0), 1u);  // alpha first
  EXPECT_EQ(Json(md, object), R"({"alpha":"two","mid":[1,"two"],"zeta":1})");
  EXPECT_TRUE(VariantBuilder::AppendObject(*m, {{0, one}, {0, one}}, &object).IsInvalid());
  EXPECT_TRUE(VariantBuilder::AppendObject(*m, {{7, one}}, &object).IsInvalid());
  // 300 elements: is_large and two-byte offsets.
  std::vector<std::string> many(300, one);
  std::string big;
  VariantBuilder::AppendArray(many, &big);
  auto big_value = VariantValue::Make(big);
  ASSERT_TRUE(big_value.ok());
  EXPECT_EQ(big_value->num_elements(), 300u);
  EXPECT_EQ(big_value->bytes().size(), big.size());
}

}  // namespace
}  // namespace strata::variant
