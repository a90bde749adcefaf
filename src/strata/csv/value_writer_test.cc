// Cells of every type, exactly: numbers, shortest floats that read back, decimals, dates,
// times, timestamps, strings and their quoting, binary spellings, dictionaries and nested JSON,
// sliced arrays included.
#include "strata/csv/value_writer.h"

#include <gtest/gtest.h>

#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>
#include <random>

#include "strata/array/array.h"
#include "strata/array/binary_builder.h"
#include "strata/array/binary_view_builder.h"
#include "strata/array/boolean_builder.h"
#include "strata/array/dictionary_builder.h"
#include "strata/array/fixed_size_binary_builder.h"
#include "strata/array/list_builder.h"
#include "strata/array/map_builder.h"
#include "strata/array/primitive_builder.h"
#include "strata/array/struct_builder.h"
#include "strata/array/value_text.h"

namespace strata::csv {
namespace {

using Cells = std::vector<std::string>;
MemoryPool* Pool() { return SystemMemoryPool(); }

template <typename T>
ArrayDataPtr Primitive(TypePtr type, const std::vector<std::optional<T>>& values) {
  PrimitiveBuilder<T> builder(std::move(type), Pool());
  for (const auto& v : values) EXPECT_TRUE((v ? builder.Append(*v) : builder.AppendNull()).ok());
  return *builder.Finish();
}

ArrayDataPtr Strings(TypePtr type, const std::vector<std::optional<std::string>>& values) {
  std::unique_ptr<ArrayBuilder> builder;
  if (type->id() == TypeId::kLargeString || type->id() == TypeId::kLargeBinary) {
    builder = std::make_unique<LargeStringBuilder>(type, Pool());
  } else if (is_view(type->id())) {
    builder = std::make_unique<BinaryViewBuilder>(type, Pool());
  } else if (type->id() == TypeId::kFixedSizeBinary) {
    builder = std::make_unique<FixedSizeBinaryBuilder>(type, Pool());
  } else {
    builder = std::make_unique<StringBuilder>(type, Pool());
  }
  for (const auto& v : values) {
    Status st;
    if (!v) {
      st = builder->AppendNull();
    } else if (auto* b = dynamic_cast<StringBuilder*>(builder.get())) {
      st = b->Append(*v);
    } else if (auto* l = dynamic_cast<LargeStringBuilder*>(builder.get())) {
      st = l->Append(*v);
    } else if (auto* w = dynamic_cast<BinaryViewBuilder*>(builder.get())) {
      st = w->Append(*v);
    } else {
      st = static_cast<FixedSizeBinaryBuilder*>(builder.get())->Append(*v);
    }
    EXPECT_TRUE(st.ok()) << st.ToString();
  }
  return *builder->Finish();
}

Result<Cells> Write(const ArrayDataPtr& data, const WriteOptions& options = {}, int64_t offset = 0,
                    int64_t length = -1) {
  const CellQuoting quoting(options);
  STRATA_ASSIGN_OR_RETURN(auto writer, MakeValueWriter("col", data->type, options, &quoting));
  CellBlock block(Pool());
  STRATA_RETURN_NOT_OK(writer->Append(*data, offset, length < 0 ? data->length - offset : length, &block));
  Cells cells;
  for (int64_t i = 0; i < block.num_cells(); ++i) cells.emplace_back(block.cell(i));
  return cells;
}

Cells MustWrite(const ArrayDataPtr& data, const WriteOptions& options = {}) {
  auto cells = Write(data, options);
  EXPECT_TRUE(cells.ok()) << cells.status().ToString();
  return cells.ok() ? *cells : Cells{};
}

TEST(ValueWriterTest, Integers) {
  EXPECT_EQ(MustWrite(Primitive<int8_t>(int8(), {-128, std::nullopt, 127, 0})), (Cells{"-128", "", "127", "0"}));
  EXPECT_EQ(MustWrite(Primitive<int16_t>(int16(), {-32768, 32767})), (Cells{"-32768", "32767"}));
  EXPECT_EQ(MustWrite(Primitive<int32_t>(int32(), {std::numeric_limits<int32_t>::min(), 42})),
            (Cells{"-2147483648", "42"}));
  EXPECT_EQ(MustWrite(Primitive<int64_t>(int64(), {std::numeric_limits<int64_t>::min()})),
            (Cells{"-9223372036854775808"}));
  EXPECT_EQ(MustWrite(Primitive<uint8_t>(uint8(), {255})), (Cells{"255"}));
  EXPECT_EQ(MustWrite(Primitive<uint16_t>(uint16(), {65535})), (Cells{"65535"}));
  EXPECT_EQ(MustWrite(Primitive<uint32_t>(uint32(), {4294967295u})), (Cells{"4294967295"}));
  EXPECT_EQ(MustWrite(Primitive<uint64_t>(uint64(), {std::numeric_limits<uint64_t>::max()})),
            (Cells{"18446744073709551615"}));
  EXPECT_EQ(MustWrite(Primitive<int64_t>(duration(TimeUnit::kMilli), {-1500, 0})), (Cells{"-1500", "0"}));
}

TEST(ValueWriterTest, FloatsShortestWithSpecialSpellings) {
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_EQ(MustWrite(Primitive<double>(float64(), {0.1, 1e21, -0.0, 5e-324, 123456.0, -2.5, 1.7976931348623157e308,
                                                    std::nan(""), inf, -inf, std::nullopt})),
            (Cells{"0.1", "1e+21", "-0", "5e-324", "123456", "-2.5", "1.7976931348623157e+308", "NaN", "inf", "-inf",
                   ""}));
  EXPECT_EQ(MustWrite(Primitive<float>(float32(), {0.1f, 3.4028235e+38f, 1.1f, -std::numeric_limits<float>::infinity()})),
            (Cells{"0.1", "3.4028235e+38", "1.1", "-inf"}));
  // float16: the shortest text that rounds back to the half, not the float's 0.099975586.
  EXPECT_EQ(MustWrite(Primitive<uint16_t>(float16(), {0x2e66, 0x7bff, 0x0001, 0x8000, 0x3c00, 0x7c00, 0x7e00, 0x3555})),
            (Cells{"0.1", "65500", "6e-08", "-0", "1", "inf", "NaN", "0.3333"}));
}

TEST(ValueWriterTest, RandomDoublesAndFloatsReadBackExactly) {
  std::mt19937_64 random(20240601);
  std::vector<std::optional<double>> doubles;
  std::vector<std::optional<float>> floats;
  for (int i = 0; i < 10000; ++i) {
    uint64_t bits = random();
    double d;
    std::memcpy(&d, &bits, 8);
    if (std::isnan(d)) d = static_cast<double>(bits);  // NaN payloads are not values
    doubles.push_back(d);
    const auto bits32 = static_cast<uint32_t>(random());
    float f;
    std::memcpy(&f, &bits32, 4);
    if (std::isnan(f)) f = static_cast<float>(bits32);
    floats.push_back(f);
  }
  const Cells d_cells = MustWrite(Primitive<double>(float64(), doubles));
  const Cells f_cells = MustWrite(Primitive<float>(float32(), floats));
  ASSERT_EQ(d_cells.size(), doubles.size());
  for (size_t i = 0; i < doubles.size(); ++i) {
    double back = 0;
    const auto result = std::from_chars(d_cells[i].data(), d_cells[i].data() + d_cells[i].size(), back);
    ASSERT_EQ(result.ec, std::errc()) << d_cells[i];
    ASSERT_EQ(result.ptr, d_cells[i].data() + d_cells[i].size()) << d_cells[i];
    ASSERT_EQ(std::memcmp(&back, &*doubles[i], 8), 0) << d_cells[i];
    float back32 = 0;
    std::from_chars(f_cells[i].data(), f_cells[i].data() + f_cells[i].size(), back32);
    ASSERT_EQ(std::memcmp(&back32, &*floats[i], 4), 0) << f_cells[i];
  }
  // Every half: its text read as a double rounds back to the same half.
  std::vector<std::optional<uint16_t>> halves;
  for (uint32_t h = 0; h < 0x10000; ++h) halves.push_back(static_cast<uint16_t>(h));
  const Cells h_cells = MustWrite(Primitive<uint16_t>(float16(), halves));
  for (uint32_t h = 0; h < 0x10000; ++h) {
    double back = 0;
    std::from_chars(h_cells[h].data(), h_cells[h].data() + h_cells[h].size(), back);
    if (std::isnan(back)) {
      ASSERT_TRUE(std::isnan(value_text::HalfToFloat(static_cast<uint16_t>(h)))) << h;
      continue;
    }
    ASSERT_EQ(value_text::DoubleToHalf(back), h) << h_cells[h];
    ASSERT_LE(h_cells[h].size(), size_t{11}) << h_cells[h];  // e.g. -0.00010014
  }
}

TEST(ValueWriterTest, BooleansAndDecimals) {
  BooleanBuilder booleans(Pool());
  ASSERT_TRUE(booleans.Append(true).ok());
  ASSERT_TRUE(booleans.AppendNull().ok());
  ASSERT_TRUE(booleans.Append(false).ok());
  EXPECT_EQ(MustWrite(*booleans.Finish()), (Cells{"true", "", "false"}));

  FixedSizeBinaryBuilder d128(decimal128(10, 2), Pool());
  for (__int128 v : {static_cast<__int128>(-1250), static_cast<__int128>(5), static_cast<__int128>(0)}) {
    ASSERT_TRUE(d128.Append(reinterpret_cast<const uint8_t*>(&v)).ok());
  }
  ASSERT_TRUE(d128.AppendNull().ok());
  EXPECT_EQ(MustWrite(*d128.Finish()), (Cells{"-12.50", "0.05", "0.00", ""}));

  FixedSizeBinaryBuilder d256(decimal256(76, 3), Pool());
  uint8_t minus_one[32];
  std::memset(minus_one, 0xff, 32);
  uint8_t big[32] = {};
  big[16] = 1;  // 2^128
  ASSERT_TRUE(d256.Append(minus_one).ok());
  ASSERT_TRUE(d256.Append(big).ok());
  EXPECT_EQ(MustWrite(*d256.Finish()), (Cells{"-0.001", "340282366920938463463374607431768211.456"}));
}

TEST(ValueWriterTest, DatesTimesTimestamps) {
  EXPECT_EQ(MustWrite(Primitive<int32_t>(date32(), {0, 11016, -1, std::nullopt})),
            (Cells{"1970-01-01", "2000-02-29", "1969-12-31", ""}));
  EXPECT_EQ(MustWrite(Primitive<int64_t>(date64(), {86400000LL * 19000, -86400000LL})),
            (Cells{"2022-01-08", "1969-12-31"}));
  EXPECT_EQ(MustWrite(Primitive<int32_t>(time32(TimeUnit::kSecond), {3723})), (Cells{"01:02:03"}));
  EXPECT_EQ(MustWrite(Primitive<int32_t>(time32(TimeUnit::kMilli), {3723004, 0})), (Cells{"01:02:03.004", "00:00:00"}));
  EXPECT_EQ(MustWrite(Primitive<int64_t>(time64(TimeUnit::kMicro), {86399999999})), (Cells{"23:59:59.999999"}));
  EXPECT_EQ(MustWrite(Primitive<int64_t>(time64(TimeUnit::kNano), {1})), (Cells{"00:00:00.000000001"}));
  EXPECT_EQ(MustWrite(Primitive<int64_t>(timestamp(TimeUnit::kSecond), {1235865600})), (Cells{"2009-03-01T00:00:00"}));
  EXPECT_EQ(MustWrite(Primitive<int64_t>(timestamp(TimeUnit::kMilli), {-1})), (Cells{"1969-12-31T23:59:59.999"}));
  EXPECT_EQ(MustWrite(Primitive<int64_t>(timestamp(TimeUnit::kMicro, "UTC"), {1500, std::nullopt})),
            (Cells{"1970-01-01T00:00:00.0015Z", ""}));
  EXPECT_EQ(MustWrite(Primitive<int64_t>(timestamp(TimeUnit::kNano, "Europe/Paris"), {1})),
            (Cells{"1970-01-01T00:00:00.000000001Z"}));
  // Runs of one day and changes of day (the day's text is remembered between rows).
  EXPECT_EQ(MustWrite(Primitive<int64_t>(timestamp(TimeUnit::kSecond), {0, 1, 86400, 86401, 1, -86400000000LL})),
            (Cells{"1970-01-01T00:00:00", "1970-01-01T00:00:01", "1970-01-02T00:00:00", "1970-01-02T00:00:01",
                   "1970-01-01T00:00:01", "-0768-02-04T00:00:00"}));
  EXPECT_EQ(MustWrite(Primitive<int32_t>(date32(), {5, 5, 6, 5, 3000000})),
            (Cells{"1970-01-06", "1970-01-06", "1970-01-07", "1970-01-06", "10183-09-21"}));
}

TEST(ValueWriterTest, StringsQuotedOnlyWhereNeeded) {
  const auto data = Strings(utf8(), {"plain", "a,b", "say \"hi\"", "two\nlines", "cr\r", "", std::nullopt, " lead",
                                     "trail\t", "NA", "NULL", "N/A", "null", "NaN", "in side", "caf\xc3\xa9"});
  EXPECT_EQ(MustWrite(data), (Cells{"plain", "\"a,b\"", "\"say \"\"hi\"\"\"", "\"two\nlines\"", "\"cr\r\"", "\"\"", "",
                                    "\" lead\"", "\"trail\t\"", "\"NA\"", "\"NULL\"", "\"N/A\"", "\"null\"", "NaN",
                                    "in side", "caf\xc3\xa9"}));
  // Another null spelling: nulls take it, a string equal to it is quoted.
  WriteOptions options;
  options.null_value = "\\N";
  EXPECT_EQ(MustWrite(Strings(utf8(), {"\\N", std::nullopt, "", "x"}), options),
            (Cells{"\"\\N\"", "\\N", "\"\"", "x"}));
  // Tab-separated: commas are plain, tabs are quoted.
  options = {};
  options.delimiter = '\t';
  EXPECT_EQ(MustWrite(Strings(utf8(), {"a,b", "a\tb"}), options), (Cells{"a,b", "\"a\tb\""}));
  // Another quote character.
  options = {};
  options.quote = '\'';
  EXPECT_EQ(MustWrite(Strings(utf8(), {"it's", "say \"hi\"", "a,b"}), options),
            (Cells{"'it''s'", "say \"hi\"", "'a,b'"}));
}

TEST(ValueWriterTest, EveryPositionOfASpecialByteIsSeen) {
  // The scan goes 8 bytes at a time: a special byte anywhere, in the words or the tail, counts,
  // and bytes that differ from one only in the high bit do not.
  for (const char special : {',', '"', '\n', '\r'}) {
    for (size_t length = 1; length <= 40; ++length) {
      std::vector<std::optional<std::string>> values;
      for (size_t position = 0; position < length; ++position) {
        std::string text(length, 'a');
        text[position] = special;
        values.push_back(text);
      }
      const Cells cells = MustWrite(Strings(utf8(), values));
      for (size_t position = 0; position < length; ++position) {
        ASSERT_EQ(cells[position].front(), '"') << int{special} << " at " << position << " of " << length;
      }
    }
  }
  const std::string high("\xac\xa2\x8a\x8d\xac\xa2\x8a\x8d\xac", 9);  // , " \n \r with the high bit set
  EXPECT_EQ(MustWrite(Strings(binary(), {high}))[0], "aca28a8daca28a8dac");
  EXPECT_EQ(MustWrite(Strings(utf8(), {high}))[0], high);
}

TEST(ValueWriterTest, LargeStringsAndViews) {
  EXPECT_EQ(MustWrite(Strings(large_utf8(), {"x,y", std::nullopt, "z"})), (Cells{"\"x,y\"", "", "z"}));
  const std::string long_text = "a value longer than twelve bytes, with a comma";
  EXPECT_EQ(MustWrite(Strings(utf8_view(), {"short", long_text, std::nullopt, ""})),
            (Cells{"short", "\"" + long_text + "\"", "", "\"\""}));
}

TEST(ValueWriterTest, BinarySpellings) {
  const auto data = Strings(binary(), {std::string("\x00\xff\x10", 3), "", std::nullopt, "hello"});
  EXPECT_EQ(MustWrite(data), (Cells{"00ff10", "", "", "68656c6c6f"}));
  WriteOptions options;
  options.binary = WriteOptions::BinaryValues::kBase64;
  EXPECT_EQ(MustWrite(data, options), (Cells{"AP8Q", "", "", "aGVsbG8="}));
  EXPECT_EQ(MustWrite(Strings(large_binary(), {"hi"}), options), (Cells{"aGk="}));
  EXPECT_EQ(MustWrite(Strings(binary_view(), {"hi", std::string(20, 'x')})),
            (Cells{"6869", "7878787878787878787878787878787878787878"}));
  // uuid as fixed_size_binary[16].
  const std::string uuid("\x12\x3e\x45\x67\xe8\x9b\x12\xd3\xa4\x56\x42\x66\x14\x17\x40\x00", 16);
  EXPECT_EQ(MustWrite(Strings(fixed_size_binary(16), {uuid, std::nullopt})),
            (Cells{"123e4567e89b12d3a456426614174000", ""}));
  options.binary = WriteOptions::BinaryValues::kRefuse;
  auto refused = Write(data, options);
  ASSERT_FALSE(refused.ok());
  EXPECT_TRUE(refused.status().IsNotImplemented());
  EXPECT_NE(refused.status().message().find("'col'"), std::string::npos) << refused.status().ToString();
}

TEST(ValueWriterTest, DictionariesWriteTheirValues) {
  const auto values = Strings(utf8(), {"red", "green, blue"});
  DictionaryBuilder builder(dictionary(int32(), utf8()), Pool());
  ASSERT_TRUE(builder.SetDictionary(values).ok());
  for (int64_t index : {1, 0, 1}) ASSERT_TRUE(builder.Append(index).ok());
  ASSERT_TRUE(builder.AppendNull().ok());
  EXPECT_EQ(MustWrite(*builder.Finish()), (Cells{"\"green, blue\"", "red", "\"green, blue\"", ""}));
}

TEST(ValueWriterTest, NullColumnsAndPlainCellQuoting) {
  EXPECT_EQ(MustWrite(ArrayData::Make(null(), 2, {nullptr}, 2)), (Cells{"", ""}));
  WriteOptions options;
  options.null_value = "NA";
  EXPECT_EQ(MustWrite(ArrayData::Make(null(), 1, {nullptr}, 1), options), (Cells{"NA"}));
  // A delimiter that numbers use: their cells are checked and quoted.
  options = {};
  options.delimiter = '.';
  EXPECT_EQ(MustWrite(Primitive<double>(float64(), {1.5, 2})), (Cells{"1.5", "2"}));
  EXPECT_EQ(MustWrite(Primitive<double>(float64(), {1.5, 2}), options), (Cells{"\"1.5\"", "2"}));
  // A null spelling a value could have: that value is quoted.
  options = {};
  options.null_value = "0";
  EXPECT_EQ(MustWrite(Primitive<int32_t>(int32(), {0, std::nullopt, 10}), options), (Cells{"\"0\"", "0", "10"}));
}

// ---- nested values as JSON -------------------------------------------------------------------

ArrayDataPtr IntLists() {  // [1, null, 3], [], null, [4]
  auto builder = *ListBuilder<int32_t>::Make(list(int32()), Pool());
  auto* values = static_cast<Int32Builder*>(builder->value_builder());
  EXPECT_TRUE(builder->Append().ok());
  EXPECT_TRUE(values->Append(1).ok());
  EXPECT_TRUE(values->AppendNull().ok());
  EXPECT_TRUE(values->Append(3).ok());
  EXPECT_TRUE(builder->Append().ok());
  EXPECT_TRUE(builder->AppendNull().ok());
  EXPECT_TRUE(builder->Append().ok());
  EXPECT_TRUE(values->Append(4).ok());
  return *builder->Finish();
}

ArrayDataPtr Structs() {  // {a: 1, b: "x"}, null, {a: null, b: "say \"hi\""}
  auto type = struct_({std::make_shared<Field>("a", int64()), std::make_shared<Field>("b", utf8())});
  auto builder = *StructBuilder::Make(type, Pool());
  auto* a = static_cast<Int64Builder*>(builder->field_builder(0));
  auto* b = static_cast<StringBuilder*>(builder->field_builder(1));
  EXPECT_TRUE(builder->Append().ok());
  EXPECT_TRUE(a->Append(1).ok());
  EXPECT_TRUE(b->Append("x").ok());
  EXPECT_TRUE(builder->AppendNull().ok());
  EXPECT_TRUE(builder->Append().ok());
  EXPECT_TRUE(a->AppendNull().ok());
  EXPECT_TRUE(b->Append("say \"hi\"").ok());
  return *builder->Finish();
}

TEST(ValueWriterTest, ListsAsJson) {
  EXPECT_EQ(MustWrite(IntLists()), (Cells{"\"[1,null,3]\"", "[]", "", "[4]"}));
  // Sliced: rows 1..3 of the lists.
  auto sliced = Write(IntLists(), {}, 1, 3);
  ASSERT_TRUE(sliced.ok());
  EXPECT_EQ(*sliced, (Cells{"[]", "", "[4]"}));
  EXPECT_EQ(MustWrite(IntLists()->Slice(3, 1)), (Cells{"[4]"}));
}

TEST(ValueWriterTest, StructsAsJson) {
  EXPECT_EQ(MustWrite(Structs()), (Cells{"\"{\"\"a\"\":1,\"\"b\"\":\"\"x\"\"}\"", "",
                                         "\"{\"\"a\"\":null,\"\"b\"\":\"\"say \\\"\"hi\\\"\"\"\"}\""}));
  // The struct's offset reaches its children.
  EXPECT_EQ(MustWrite(Structs()->Slice(2, 1)), (Cells{"\"{\"\"a\"\":null,\"\"b\"\":\"\"say \\\"\"hi\\\"\"\"\"}\""}));
}

TEST(ValueWriterTest, MapsAsJsonObjects) {
  auto builder = *MapBuilder::Make(map(utf8(), float64()), Pool());
  auto* keys = static_cast<StringBuilder*>(builder->key_builder());
  auto* items = static_cast<DoubleBuilder*>(builder->item_builder());
  ASSERT_TRUE(builder->Append().ok());
  ASSERT_TRUE(keys->Append("k").ok());
  ASSERT_TRUE(items->Append(1.5).ok());
  ASSERT_TRUE(keys->Append("nan").ok());
  ASSERT_TRUE(items->Append(std::nan("")).ok());
  ASSERT_TRUE(builder->Append().ok());
  EXPECT_EQ(MustWrite(*builder->Finish()), (Cells{"\"{\"\"k\"\":1.5,\"\"nan\"\":\"\"NaN\"\"}\"", "{}"}));
  // Keys that are not strings become strings.
  auto by_date = *MapBuilder::Make(map(int32(), date32()), Pool());
  ASSERT_TRUE(by_date->Append().ok());
  ASSERT_TRUE(static_cast<Int32Builder*>(by_date->key_builder())->Append(-7).ok());
  ASSERT_TRUE(static_cast<Int32Builder*>(by_date->item_builder())->Append(0).ok());
  EXPECT_EQ(MustWrite(*by_date->Finish()), (Cells{"\"{\"\"-7\"\":\"\"1970-01-01\"\"}\""}));
}

TEST(ValueWriterTest, DeepNestingAndBinaryInside) {
  // list<struct<t: timestamp[ms, UTC], raw: binary>>
  auto inner = struct_({std::make_shared<Field>("t", timestamp(TimeUnit::kMilli, "UTC")),
                        std::make_shared<Field>("raw", binary())});
  auto builder = *ListBuilder<int32_t>::Make(list(inner), Pool());
  auto* structs = static_cast<StructBuilder*>(builder->value_builder());
  ASSERT_TRUE(builder->Append().ok());
  ASSERT_TRUE(structs->Append().ok());
  ASSERT_TRUE(static_cast<Int64Builder*>(structs->field_builder(0))->Append(1).ok());
  ASSERT_TRUE(static_cast<StringBuilder*>(structs->field_builder(1))->Append(std::string("\x01\xab", 2)).ok());
  ASSERT_TRUE(structs->AppendNull().ok());
  const ArrayDataPtr data = *builder->Finish();
  EXPECT_EQ(MustWrite(data),
            (Cells{"\"[{\"\"t\"\":\"\"1970-01-01T00:00:00.001Z\"\",\"\"raw\"\":\"\"01ab\"\"},null]\""}));
  WriteOptions options;
  options.binary = WriteOptions::BinaryValues::kBase64;
  EXPECT_EQ(MustWrite(data, options),
            (Cells{"\"[{\"\"t\"\":\"\"1970-01-01T00:00:00.001Z\"\",\"\"raw\"\":\"\"Aas=\"\"},null]\""}));
  options.binary = WriteOptions::BinaryValues::kRefuse;
  auto refused = Write(data, options);
  ASSERT_FALSE(refused.ok());
  EXPECT_TRUE(refused.status().IsNotImplemented()) << refused.status().ToString();
}

TEST(ValueWriterTest, NestedRefusedNamesTheColumn) {
  WriteOptions options;
  options.nested = WriteOptions::NestedValues::kRefuse;
  auto refused = Write(IntLists(), options);
  ASSERT_FALSE(refused.ok());
  EXPECT_TRUE(refused.status().IsNotImplemented());
  EXPECT_NE(refused.status().message().find("'col'"), std::string::npos) << refused.status().ToString();
  // Flat columns are unaffected.
  EXPECT_TRUE(Write(Primitive<int32_t>(int32(), {1}), options).ok());
}

TEST(ValueWriterTest, SlicedFlatArrays) {
  const auto ints = Primitive<int32_t>(int32(), {1, std::nullopt, 3, 4, std::nullopt, 6, 7, 8, 9, 10});
  EXPECT_EQ(MustWrite(ints->Slice(3, 4)), (Cells{"4", "", "6", "7"}));
  auto ranged = Write(ints->Slice(1, 8), {}, 2, 3);  // offsets on both levels
  ASSERT_TRUE(ranged.ok());
  EXPECT_EQ(*ranged, (Cells{"4", "", "6"}));
  const auto strings = Strings(utf8(), {"a", "b,c", std::nullopt, "d", ""});
  EXPECT_EQ(MustWrite(strings->Slice(1, 4)), (Cells{"\"b,c\"", "", "d", "\"\""}));
  BooleanBuilder booleans(Pool());
  for (int i = 0; i < 20; ++i) ASSERT_TRUE(booleans.Append(i % 3 == 0).ok());
  EXPECT_EQ(MustWrite((*booleans.Finish())->Slice(9, 3)), (Cells{"true", "false", "false"}));
}

// month_day_nano intervals as DuckDB's interval text; their spaces are quoted when the
// delimiter is a space, and nested ones are JSON strings.
TEST(ValueWriterTest, IntervalsAsDuckDBText) {
  MonthDayNanoBuilder intervals(Pool());
  EXPECT_TRUE(intervals.Append(MonthDayNano{14, 3, ((4 * 60 + 5) * 60 + 6) * 1000000000LL + 789000000}).ok());
  EXPECT_TRUE(intervals.AppendNull().ok());
  EXPECT_TRUE(intervals.Append(MonthDayNano{0, 0, 0}).ok());
  EXPECT_TRUE(intervals.Append(MonthDayNano{-1, 0, -1000000}).ok());
  const ArrayDataPtr data = *intervals.Finish();
  EXPECT_EQ(MustWrite(data), (Cells{"1 year 2 months 3 days 04:05:06.789", "", "00:00:00", "-1 month -00:00:00.001"}));
  EXPECT_EQ(MustWrite(data->Slice(2, 2)), (Cells{"00:00:00", "-1 month -00:00:00.001"}));
  WriteOptions spaced;
  spaced.delimiter = ' ';
  EXPECT_EQ(MustWrite(data, spaced),
            (Cells{"\"1 year 2 months 3 days 04:05:06.789\"", "", "00:00:00", "\"-1 month -00:00:00.001\""}));

  auto lists = *ListBuilder<int32_t>::Make(list(month_day_nano_interval()), Pool());
  auto* elements = static_cast<MonthDayNanoBuilder*>(lists->value_builder());
  EXPECT_TRUE(lists->Append().ok());
  EXPECT_TRUE(elements->Append(MonthDayNano{1, 0, 0}).ok());
  EXPECT_TRUE(elements->AppendNull().ok());
  EXPECT_EQ(MustWrite(*lists->Finish()), (Cells{"\"[\"\"1 month\"\",null]\""}));
}

// year_month and day_time intervals in the same text; decimal32 and decimal64 exactly; a union
// has no CSV form and says so, naming the column.
TEST(ValueWriterTest, NarrowIntervalsDecimalsAndUnions) {
  EXPECT_EQ(MustWrite(Primitive<int32_t>(year_month_interval(), {14, std::nullopt, -1})),
            (Cells{"1 year 2 months", "", "-1 month"}));
  DayTimeBuilder day_time(Pool());
  EXPECT_TRUE(day_time.Append(DayTime{2, 1500}).ok());
  EXPECT_TRUE(day_time.Append(DayTime{0, 0}).ok());
  EXPECT_EQ(MustWrite(*day_time.Finish()), (Cells{"2 days 00:00:01.5", "00:00:00"}));
  EXPECT_EQ(MustWrite(Primitive<int32_t>(decimal32(9, 2), {-1250, std::nullopt})), (Cells{"-12.50", ""}));
  EXPECT_EQ(MustWrite(Primitive<int64_t>(decimal64(18, 0), {INT64_MIN})), (Cells{"-9223372036854775808"}));
  auto refused = MakeValueWriter("u", sparse_union({field("a", int32())}, {0}), WriteOptions{}, nullptr);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("'u'"), std::string::npos) << refused.status().ToString();
}

}  // namespace
}  // namespace strata::csv
