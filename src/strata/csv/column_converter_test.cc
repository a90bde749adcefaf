#include "strata/csv/column_converter.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "strata/array/validate.h"
#include "strata/csv/convert_test_util.h"
#include "strata/csv/type_inference.h"
#include "strata/memory/memory_scope.h"

namespace strata::csv {
namespace {

using test_util::BuildColumn;
using test_util::Missing;
using test_util::Plain;
using test_util::Quoted;
using test_util::TestField;

class ColumnConverterTest : public ::testing::Test {
 protected:
  Result<Array> Convert(const std::vector<TestField>& fields, const TypePtr& type) {
    rows_ = std::make_unique<ParsedRows>(pool_.get());
    STRATA_RETURN_NOT_OK(BuildColumn(fields, rows_.get()));
    STRATA_ASSIGN_OR_RETURN(Array array, ConvertColumn(*rows_, 0, type, options_, context_, pool_.get()));
    ValidateOptions validate;
    validate.check_utf8 = true;
    STRATA_RETURN_NOT_OK(ValidateFull(*array.data(), validate));
    EXPECT_EQ(array.length(), static_cast<int64_t>(fields.size()));
    EXPECT_TRUE(array.type()->Equals(type));
    return array;
  }
  Result<Array> Convert(const std::vector<std::string>& texts, const TypePtr& type) {
    std::vector<TestField> fields;
    for (const auto& text : texts) fields.push_back(Plain(text));
    return Convert(fields, type);
  }
  // The message of the error converting one plain value.
  std::string ErrorOf(const std::string& text, const TypePtr& type) {
    auto result = Convert(std::vector<std::string>{text}, type);
    EXPECT_FALSE(result.ok()) << text << " as " << type->ToString();
    if (result.ok()) return "";
    EXPECT_TRUE(result.status().IsInvalid()) << result.status().ToString();
    return result.status().message();
  }

  std::unique_ptr<MemoryPool> pool_ = MakeSystemMemoryPool();
  std::unique_ptr<ParsedRows> rows_;
  ConvertOptions options_;
  ColumnContext context_{"data.csv", "amount", 2, false, 0};
};

template <typename T>
std::vector<T> Values(const Array& array) {
  PrimitiveArray<T> typed(array);
  return std::vector<T>(typed.values().begin(), typed.values().end());
}

TEST_F(ColumnConverterTest, Int64WithNulls) {
  auto array = *Convert({Plain("1"), Plain(""), Plain("-3"), Missing(), Plain("NA"), Quoted("7"), Quoted(""),
                         Plain("9223372036854775807"), Plain("-9223372036854775808")},
                        int64());
  EXPECT_EQ(array.null_count(), 4);
  EXPECT_EQ(Values<int64_t>(array), (std::vector<int64_t>{1, 0, -3, 0, 0, 7, 0, INT64_MAX, INT64_MIN}));
  for (int i : {1, 3, 4, 6}) EXPECT_TRUE(array.IsNull(i)) << i;
  EXPECT_TRUE(array.IsValid(5));
  // A quoted null spelling is not null, and "NA" is no int64.
  EXPECT_NE(ErrorOf("x", int64()).find("'x'"), std::string::npos);
  auto quoted = Convert({Quoted("NA")}, int64());
  EXPECT_FALSE(quoted.ok());
}

TEST_F(ColumnConverterTest, NoValidityWithoutNulls) {
  auto array = *Convert(std::vector<std::string>{"1", "2", "3"}, int32());
  EXPECT_EQ(array.data()->buffers[0], nullptr);
  EXPECT_EQ(array.null_count(), 0);
  EXPECT_EQ(Values<int32_t>(array), (std::vector<int32_t>{1, 2, 3}));
}

TEST_F(ColumnConverterTest, NarrowIntegersAreRangeChecked) {
  EXPECT_EQ(Values<int8_t>(*Convert(std::vector<std::string>{"-128", "127", "007"}, int8())),
            (std::vector<int8_t>{-128, 127, 7}));
  EXPECT_NE(ErrorOf("128", int8()).find("out of the range of int8"), std::string::npos);
  EXPECT_NE(ErrorOf("-129", int8()).find("out of the range"), std::string::npos);
  EXPECT_EQ(Values<int16_t>(*Convert(std::vector<std::string>{"-32768", "32767"}, int16())),
            (std::vector<int16_t>{-32768, 32767}));
  EXPECT_FALSE(Convert(std::vector<std::string>{"32768"}, int16()).ok());
  EXPECT_EQ(Values<int32_t>(*Convert(std::vector<std::string>{"-2147483648"}, int32()))[0], INT32_MIN);
  EXPECT_FALSE(Convert(std::vector<std::string>{"2147483648"}, int32()).ok());
  EXPECT_NE(ErrorOf("9223372036854775808", int64()).find("out of the range of int64"), std::string::npos);
  EXPECT_EQ(Values<uint8_t>(*Convert(std::vector<std::string>{"0", "255", "+1"}, uint8())),
            (std::vector<uint8_t>{0, 255, 1}));
  EXPECT_FALSE(Convert(std::vector<std::string>{"256"}, uint8()).ok());
  EXPECT_NE(ErrorOf("-1", uint8()).find("out of the range of uint8"), std::string::npos);
  EXPECT_EQ(Values<uint16_t>(*Convert(std::vector<std::string>{"65535"}, uint16()))[0], 65535);
  EXPECT_FALSE(Convert(std::vector<std::string>{"65536"}, uint16()).ok());
  EXPECT_EQ(Values<uint32_t>(*Convert(std::vector<std::string>{"4294967295"}, uint32()))[0], UINT32_MAX);
  EXPECT_FALSE(Convert(std::vector<std::string>{"4294967296"}, uint32()).ok());
  EXPECT_EQ(Values<uint64_t>(*Convert(std::vector<std::string>{"18446744073709551615"}, uint64()))[0], UINT64_MAX);
  EXPECT_FALSE(Convert(std::vector<std::string>{"18446744073709551616"}, uint64()).ok());
  EXPECT_NE(ErrorOf("1.5", int32()).find("is not a valid int32"), std::string::npos);
}

TEST_F(ColumnConverterTest, Floats) {
  auto doubles = Values<double>(*Convert(std::vector<std::string>{"0.1", "-2e3", "9007199254740993", "inf", "1e-400"},
                                         float64()));
  EXPECT_EQ(doubles[0], 0.1);
  EXPECT_EQ(doubles[1], -2000);
  EXPECT_EQ(doubles[2], 9007199254740992.0);  // a type the user gave: an integer text is fine
  EXPECT_TRUE(std::isinf(doubles[3]));
  EXPECT_EQ(doubles[4], 0);
  auto nan = Values<double>(*Convert(std::vector<std::string>{"NaN"}, float64()));
  EXPECT_TRUE(std::isnan(nan[0]));
  EXPECT_NE(ErrorOf("1e400", float64()).find("is not a valid double"), std::string::npos);
  EXPECT_NE(ErrorOf("0x10", float64()).find("'0x10'"), std::string::npos);
  auto floats = Values<float>(*Convert(std::vector<std::string>{"0.1", "-1.5"}, float32()));
  EXPECT_EQ(floats[0], 0.1f);
  EXPECT_EQ(floats[1], -1.5f);
  EXPECT_FALSE(Convert(std::vector<std::string>{"1e39"}, float32()).ok());
}

TEST_F(ColumnConverterTest, Booleans) {
  auto array = *Convert({Plain("true"), Plain("False"), Plain(""), Quoted("TRUE"), Missing()}, boolean());
  BooleanArray bools(array);
  EXPECT_EQ(array.null_count(), 2);
  EXPECT_TRUE(bools.Value(0));
  EXPECT_FALSE(bools.Value(1));
  EXPECT_TRUE(bools.IsNull(2));
  EXPECT_TRUE(bools.Value(3));
  EXPECT_TRUE(bools.IsNull(4));
  EXPECT_NE(ErrorOf("yes", boolean()).find("is not a valid bool"), std::string::npos);
  options_.true_values = {"yes", "1"};
  options_.false_values = {"no", "0"};
  BooleanArray custom(*Convert(std::vector<std::string>{"yes", "0", "1"}, boolean()));
  EXPECT_TRUE(custom.Value(0) && !custom.Value(1) && custom.Value(2));
}

TEST_F(ColumnConverterTest, Decimals) {
  auto array = *Convert(std::vector<std::string>{"123.45", "-0.5", "7", "", "1.2300"}, decimal128(5, 2));
  FixedSizeBinaryArray decimals(array);
  auto value = [&](int i) {
    __int128 v;
    std::memcpy(&v, decimals.GetValue(i), 16);
    return v;
  };
  EXPECT_EQ(value(0), 12345);
  EXPECT_EQ(value(1), -50);
  EXPECT_EQ(value(2), 700);
  EXPECT_TRUE(array.IsNull(3));
  EXPECT_EQ(value(4), 123);
  EXPECT_NE(ErrorOf("1.234", decimal128(5, 2)).find("non-zero digits below the scale of decimal128(5, 2)"),
            std::string::npos);
  EXPECT_NE(ErrorOf("1234.5", decimal128(5, 2)).find("more digits than the precision of decimal128(5, 2)"),
            std::string::npos);
  auto wide = *Convert(std::vector<std::string>{"-1", "1" + std::string(70, '0') + ".5"}, decimal256(76, 1));
  FixedSizeBinaryArray wide_values(wide);
  uint64_t words[4];
  std::memcpy(words, wide_values.GetValue(0), 32);
  EXPECT_EQ(words[0], ~uint64_t{9});  // -10: scale 1
  EXPECT_EQ(words[3], ~uint64_t{0});
}

TEST_F(ColumnConverterTest, Dates) {
  EXPECT_EQ(Values<int32_t>(*Convert(std::vector<std::string>{"1970-01-02", "2024-02-29"}, date32())),
            (std::vector<int32_t>{1, 19782}));
  EXPECT_EQ(Values<int64_t>(*Convert(std::vector<std::string>{"1970-01-02"}, date64()))[0], 86400000);
  EXPECT_NE(ErrorOf("2023-02-29", date32()).find("is not a valid date32[day]"), std::string::npos);
  EXPECT_FALSE(Convert(std::vector<std::string>{"2023-01-01T00:00"}, date32()).ok());
}

TEST_F(ColumnConverterTest, TimesInEveryUnit) {
  EXPECT_EQ(Values<int32_t>(*Convert(std::vector<std::string>{"01:00:01"}, time32(TimeUnit::kSecond)))[0], 3601);
  EXPECT_EQ(Values<int32_t>(*Convert(std::vector<std::string>{"00:00:01.5"}, time32(TimeUnit::kMilli)))[0], 1500);
  EXPECT_EQ(Values<int64_t>(*Convert(std::vector<std::string>{"00:00:01.000002"}, time64(TimeUnit::kMicro)))[0],
            1000002);
  EXPECT_EQ(Values<int64_t>(*Convert(std::vector<std::string>{"00:00:00.000000007"}, time64(TimeUnit::kNano)))[0], 7);
  EXPECT_NE(ErrorOf("00:00:01.5", time32(TimeUnit::kSecond)).find("digits below the unit of time32[s]"),
            std::string::npos);
  EXPECT_FALSE(Convert(std::vector<std::string>{"00:00:00.0000001"}, time64(TimeUnit::kMicro)).ok());
  EXPECT_TRUE(Convert(std::vector<std::string>{"00:00:00.100000000"}, time32(TimeUnit::kMilli)).ok());
}

TEST_F(ColumnConverterTest, Timestamps) {
  const std::vector<std::string> texts = {"1970-01-01", "1970-01-01T00:00:01", "1970-01-01 00:00:01.5"};
  EXPECT_EQ(Values<int64_t>(*Convert(texts, timestamp(TimeUnit::kMilli))), (std::vector<int64_t>{0, 1000, 1500}));
  EXPECT_EQ(Values<int64_t>(*Convert(texts, timestamp(TimeUnit::kMicro))),
            (std::vector<int64_t>{0, 1000000, 1500000}));
  EXPECT_EQ(Values<int64_t>(*Convert(texts, timestamp(TimeUnit::kNano))),
            (std::vector<int64_t>{0, 1000000000, 1500000000}));
  EXPECT_EQ(Values<int64_t>(*Convert(std::vector<std::string>{"1970-01-01T00:01"}, timestamp(TimeUnit::kSecond)))[0],
            60);
  EXPECT_NE(ErrorOf("1970-01-01 00:00:01.5", timestamp(TimeUnit::kSecond)).find("digits below the unit of timestamp[s]"),
            std::string::npos);
  EXPECT_NE(ErrorOf("9999-01-01T00:00:00", timestamp(TimeUnit::kNano)).find("out of the range of timestamp[ns]"),
            std::string::npos);
}

TEST_F(ColumnConverterTest, TimestampZones) {
  const TypePtr utc = timestamp(TimeUnit::kSecond, "UTC");
  // Zoned values become UTC instants; a naive value in a zoned column is taken as UTC.
  EXPECT_EQ(Values<int64_t>(*Convert(std::vector<std::string>{"1970-01-01T01:00:00+01:00", "1970-01-01T00:00:00Z",
                                                              "1970-01-01T00:00:10", "1970-01-01"},
                                     utc)),
            (std::vector<int64_t>{0, 0, 10, 0}));
  EXPECT_TRUE(Convert(std::vector<std::string>{"1970-01-01T00:00:00Z"}, timestamp(TimeUnit::kSecond, "Europe/Paris"))
                  .ok());
  // A zoned value in a naive column is refused.
  EXPECT_NE(ErrorOf("1970-01-01T00:00:00Z", timestamp(TimeUnit::kMicro)).find("has a time zone"), std::string::npos);
}

TEST_F(ColumnConverterTest, NullType) {
  auto array = *Convert({Plain(""), Missing(), Plain("NA"), Quoted("")}, null());
  EXPECT_EQ(array.null_count(), 4);
  EXPECT_NE(ErrorOf("x", null()).find("is not null"), std::string::npos);
}

TEST_F(ColumnConverterTest, Strings) {
  const std::vector<TestField> fields = {Plain("a"), Plain(""), Quoted(""), Missing(), Plain("NA"), Quoted("NA"),
                                         Plain("caf\xc3\xa9"), Quoted("x,\"y\"")};
  for (const TypePtr& type : {utf8(), binary()}) {
    StringArray strings(*Convert(fields, type));
    EXPECT_EQ(strings.null_count(), 3);
    EXPECT_EQ(strings.GetView(0), "a");
    EXPECT_TRUE(strings.IsNull(1));
    EXPECT_TRUE(strings.IsValid(2));
    EXPECT_EQ(strings.GetView(2), "");  // a quoted empty field is an empty string
    EXPECT_TRUE(strings.IsNull(3));
    EXPECT_TRUE(strings.IsNull(4));
    EXPECT_EQ(strings.GetView(5), "NA");
    EXPECT_EQ(strings.GetView(6), "caf\xc3\xa9");
    EXPECT_EQ(strings.GetView(7), "x,\"y\"");
  }
  for (const TypePtr& type : {large_utf8(), large_binary()}) {
    LargeStringArray strings(*Convert(fields, type));
    EXPECT_EQ(strings.null_count(), 3);
    EXPECT_EQ(strings.GetView(5), "NA");
    EXPECT_EQ(strings.GetView(7), "x,\"y\"");
  }
}

TEST_F(ColumnConverterTest, StringViews) {
  const std::string long_text = "a string longer than twelve bytes";
  const std::vector<TestField> fields = {Plain("short"), Plain(""), Quoted(""), Plain(long_text), Missing(),
                                         Plain("exactly12byt"), Plain(long_text + "!")};
  for (const TypePtr& type : {utf8_view(), binary_view()}) {
    auto array = *Convert(fields, type);
    BinaryViewArray views(array);
    EXPECT_EQ(views.null_count(), 2);
    EXPECT_EQ(views.GetView(0), "short");
    EXPECT_TRUE(views.IsNull(1));
    EXPECT_EQ(views.GetView(2), "");
    EXPECT_EQ(views.GetView(3), long_text);
    EXPECT_TRUE(views.IsNull(4));
    EXPECT_EQ(views.GetView(5), "exactly12byt");
    EXPECT_EQ(views.GetView(6), long_text + "!");
    // The data buffer holds exactly the out-of-line values.
    EXPECT_EQ(array.data()->buffers[2]->size(), static_cast<int64_t>(2 * long_text.size() + 1));
  }
  auto inline_only = *Convert(std::vector<std::string>{"a", "b"}, utf8_view());
  EXPECT_EQ(inline_only.data()->buffers.size(), 2u);
}

TEST_F(ColumnConverterTest, Dictionary) {
  const TypePtr type = dictionary(int32(), utf8());
  auto array = *Convert({Plain("red"), Plain("green"), Plain(""), Plain("red"), Quoted(""), Plain("green"), Quoted("")},
                        type);
  DictionaryArray dict(array);
  EXPECT_EQ(array.null_count(), 1);
  StringArray values(dict.dictionary());
  ASSERT_EQ(values.length(), 3);
  EXPECT_EQ(values.GetView(0), "red");
  EXPECT_EQ(values.GetView(1), "green");
  EXPECT_EQ(values.GetView(2), "");
  const std::vector<int64_t> expected = {0, 1, -1, 0, 2, 1, 2};
  for (int i = 0; i < 7; ++i) {
    if (expected[i] >= 0) {
      EXPECT_EQ(dict.GetValueIndex(i), expected[i]) << i;
    }
  }
  // Many distinct values.
  std::vector<std::string> many;
  for (int i = 0; i < 5000; ++i) many.push_back(std::to_string(i % 1234).append("v"));
  DictionaryArray big(*Convert(many, type));
  EXPECT_EQ(big.dictionary().length(), 1234);
  StringArray big_values(big.dictionary());
  for (int i = 0; i < 5000; ++i) EXPECT_EQ(big_values.GetView(big.GetValueIndex(i)), many[i]);
  // The dictionary holds its 1234 values, not room for 5000.
  EXPECT_EQ(big.dictionary().data()->buffers[1]->capacity(), RoundUpToMultipleOf64(1235 * 4));
  EXPECT_EQ(big.dictionary().data()->buffers[2]->capacity(), RoundUpToMultipleOf64(big_values.total_values_length()));
  EXPECT_TRUE(ConvertColumn(*rows_, 0, dictionary(int16(), utf8()), options_, context_, pool_.get())
                  .status()
                  .IsNotImplemented());
}

TEST_F(ColumnConverterTest, Utf8Validation) {
  const std::string bad = "caf\xe9!";
  auto result = Convert(std::vector<std::string>{"ok", bad}, utf8());
  ASSERT_FALSE(result.ok());
  const std::string message = result.status().message();
  EXPECT_NE(message.find("data.csv: line 3, column 'amount' (#3)"), std::string::npos) << message;
  EXPECT_NE(message.find("byte 3 of the field"), std::string::npos) << message;
  EXPECT_NE(message.find("'caf\\xe9!'"), std::string::npos) << message;
  for (const TypePtr& type : {large_utf8(), utf8_view(), dictionary(int32(), utf8())}) {
    EXPECT_FALSE(Convert(std::vector<std::string>{bad}, type).ok()) << type->ToString();
  }
  // Binary columns take any bytes.
  EXPECT_EQ(BinaryArray<int32_t>(*Convert(std::vector<std::string>{bad}, binary())).GetView(0), bad);
  // Without validation the bytes go through unchecked (Arrow's check_utf8 = false).
  options_.validate_utf8 = false;
  rows_ = std::make_unique<ParsedRows>(pool_.get());
  ASSERT_TRUE(test_util::BuildPlainColumn({bad}, rows_.get()).ok());
  EXPECT_TRUE(ConvertColumn(*rows_, 0, utf8(), options_, context_, pool_.get()).ok());
}

TEST_F(ColumnConverterTest, ErrorMessagesNameEverything) {
  rows_ = std::make_unique<ParsedRows>(pool_.get());
  ASSERT_TRUE(test_util::BuildColumn({Plain("1"), Plain("2"), Plain("abc")}, rows_.get(), 10).ok());
  auto result = ConvertColumn(*rows_, 0, int64(), options_, context_, pool_.get());
  ASSERT_TRUE(result.status().IsInvalid());
  EXPECT_EQ(result.status().message(), "data.csv: line 12, column 'amount' (#3): 'abc' is not a valid int64");
  // An inferred type says where it came from and how to fix it.
  context_.type_was_inferred = true;
  context_.sample_bytes = 1048576;
  result = ConvertColumn(*rows_, 0, int64(), options_, context_, pool_.get());
  EXPECT_EQ(result.status().message(),
            "data.csv: line 12, column 'amount' (#3): 'abc' is not a valid int64; the type int64 was inferred from "
            "the first 1048576 bytes: give the column a type (--schema 'amount:string'), a larger sample "
            "(--sample-bytes), or --infer-whole-file");
  // Long values are cut, control bytes escaped.
  const std::string long_value = std::string(100, 'x') + "\n";
  const std::string message = ErrorOf(long_value, int64());
  const std::string shown = std::string(1, '\'').append(57, 'x').append("'...");
  EXPECT_NE(message.find(shown), std::string::npos) << message;
  EXPECT_EQ(message.find(std::string(58, 'x')), std::string::npos);
  EXPECT_NE(ErrorOf("a\tb", int64()).find("'a\\x09b'"), std::string::npos);
  // Without a file name the line leads.
  context_.file = "";
  EXPECT_EQ(ErrorOf("x", int8()).rfind("line 2, column 'amount' (#3): 'x' is not a valid int8", 0), 0u);
}

TEST_F(ColumnConverterTest, InferredTypesReadStrictly) {
  context_.type_was_inferred = true;
  context_.sample_bytes = 4096;
  // A value the sample did not show fails instead of changing meaning.
  EXPECT_NE(ErrorOf("007", int64()).find("has leading zeros"), std::string::npos);
  EXPECT_NE(ErrorOf("007.5", float64()).find("has leading zeros"), std::string::npos);
  EXPECT_NE(ErrorOf("9007199254740993", float64()).find("beyond 2^53"), std::string::npos);
  EXPECT_NE(ErrorOf("99999999999999999999", float64()).find("--infer-whole-file"), std::string::npos);
  EXPECT_NE(ErrorOf("5", null()).find("the type null was inferred"), std::string::npos);
  EXPECT_TRUE(Convert(std::vector<std::string>{"9007199254740992", "1.5", "0"}, float64()).ok());
  const TypePtr zoned = timestamp(TimeUnit::kMicro, "UTC");
  EXPECT_NE(ErrorOf("2024-01-01T10:00:00", zoned).find("has no time zone"), std::string::npos);
  EXPECT_FALSE(Convert(std::vector<std::string>{"2024-01-01"}, zoned).ok());
  EXPECT_TRUE(Convert(std::vector<std::string>{"2024-01-01T10:00:00+01:00"}, zoned).ok());
  EXPECT_TRUE(Convert(std::vector<std::string>{"2024-01-01"}, timestamp(TimeUnit::kMicro)).ok());
  // The user's types read leniently.
  context_.type_was_inferred = false;
  EXPECT_EQ(Values<int64_t>(*Convert(std::vector<std::string>{"007"}, int64()))[0], 7);
}

TEST_F(ColumnConverterTest, InferenceAndConversionAgree) {
  // Whatever inference picks, the converter reads the same fields without error.
  const std::vector<std::vector<TestField>> columns = {
      {Plain("1"), Plain(""), Quoted("2")},
      {Plain("1"), Plain("2.5"), Plain("NA")},
      {Plain("2024-01-01"), Plain("2024-01-01 10:00:00.1234567")},
      {Plain("2024-01-01T00:00Z"), Missing()},
      {Plain("10:00:00.5"), Plain("")},
      {Plain("true"), Quoted("false")},
      {Plain("02134"), Quoted("")},
      {Missing(), Plain("")},
  };
  context_.type_was_inferred = true;
  for (const auto& column : columns) {
    ParsedRows rows(pool_.get());
    ASSERT_TRUE(BuildColumn(column, &rows).ok());
    ColumnTypeInferrer inferrer(options_);
    inferrer.Observe(rows, 0);
    auto array = ConvertColumn(rows, 0, inferrer.type(), options_, context_, pool_.get());
    EXPECT_TRUE(array.ok()) << inferrer.type()->ToString() << ": " << array.status().ToString();
  }
}

TEST_F(ColumnConverterTest, UnsupportedTypes) {
  rows_ = std::make_unique<ParsedRows>(pool_.get());
  ASSERT_TRUE(test_util::BuildPlainColumn({"1"}, rows_.get()).ok());
  auto result = ConvertColumn(*rows_, 0, list(int64()), options_, context_, pool_.get());
  EXPECT_TRUE(result.status().IsNotImplemented());
  EXPECT_NE(result.status().message().find("'amount'"), std::string::npos);
  EXPECT_NE(result.status().message().find("list"), std::string::npos);
  EXPECT_TRUE(ConvertColumn(*rows_, 1, int64(), options_, context_, pool_.get()).status().IsInvalid());
}

TEST_F(ColumnConverterTest, EmptyBlock) {
  for (const TypePtr& type : {int64(), boolean(), utf8(), utf8_view(), decimal128(10, 2), null(),
                              dictionary(int32(), utf8())}) {
    auto array = Convert(std::vector<std::string>{}, type);
    ASSERT_TRUE(array.ok()) << type->ToString() << array.status().ToString();
    EXPECT_EQ(array->length(), 0);
  }
}

TEST_F(ColumnConverterTest, OtherColumnOfWideRows) {
  rows_ = std::make_unique<ParsedRows>(pool_.get());
  ASSERT_TRUE(test_util::BuildRows({{Plain("a"), Plain("1"), Plain("x")},
                                    {Plain("bb"), Plain(""), Plain("y")},
                                    {Plain("ccc"), Plain("3"), Plain("z")}},
                                   rows_.get())
                  .ok());
  auto ints = *ConvertColumn(*rows_, 1, int64(), options_, context_, pool_.get());
  EXPECT_EQ(Values<int64_t>(ints), (std::vector<int64_t>{1, 0, 3}));
  EXPECT_TRUE(ints.IsNull(1));
  StringArray strings(*ConvertColumn(*rows_, 0, utf8(), options_, context_, pool_.get()));
  EXPECT_EQ(strings.GetView(2), "ccc");
  EXPECT_EQ(strings.data()->buffers[2]->capacity(), 64);  // exactly the column's 6 bytes, rounded to 64
}

// Each column converts with a small constant number of allocations, each at its final size.
TEST_F(ColumnConverterTest, ExactAllocation) {
  struct Case {
    TypePtr type;
    int64_t max_allocations;  // values (+ offsets, data, table) + the validity bitmap
  };
  const std::vector<Case> cases = {{int64(), 2},      {float64(), 2},    {int32(), 2},
                                   {decimal128(18, 0), 2}, {utf8(), 3}, {large_utf8(), 3},
                                   {utf8_view(), 3},  {binary(), 3},     {dictionary(int32(), utf8()), 5}};
  for (const int64_t num_rows : {int64_t{100}, int64_t{100000}}) {
    std::vector<TestField> fields;
    std::vector<TestField> bools;
    for (int64_t i = 0; i < num_rows; ++i) {
      fields.push_back(i % 10 == 3 ? Plain("") : Plain(std::to_string(i * 7)));
      bools.push_back(i % 10 == 3 ? Missing() : Plain(i % 3 == 0 ? "true" : "false"));
    }
    rows_ = std::make_unique<ParsedRows>(pool_.get());
    ASSERT_TRUE(BuildColumn(fields, rows_.get()).ok());
    ParsedRows bool_rows(pool_.get());
    ASSERT_TRUE(BuildColumn(bools, &bool_rows).ok());
    for (const Case& c : cases) {
      MemoryScope scope(pool_.get());
      auto array = ConvertColumn(*rows_, 0, c.type, options_, context_, pool_.get());
      ASSERT_TRUE(array.ok()) << c.type->ToString() << ": " << array.status().ToString();
      const MemoryDelta delta = scope.delta();
      EXPECT_LE(delta.num_allocations, c.max_allocations) << c.type->ToString() << ", rows " << num_rows;
      // Only the dictionary shrinks its values' two buffers to what they hold.
      EXPECT_LE(delta.num_reallocations, c.type->id() == TypeId::kDictionary ? 2 : 0) << c.type->ToString();
      EXPECT_EQ(array->null_count(), (num_rows + 6) / 10) << c.type->ToString();
    }
    MemoryScope scope(pool_.get());
    auto array = ConvertColumn(bool_rows, 0, boolean(), options_, context_, pool_.get());
    ASSERT_TRUE(array.ok()) << array.status().ToString();
    EXPECT_EQ(scope.delta().num_allocations, 2);
    EXPECT_EQ(scope.delta().num_reallocations, 0);
    EXPECT_EQ(scope.delta().bytes_allocated, 2 * RoundUpToMultipleOf64((num_rows + 7) / 8));
  }
  // Without nulls there is no bitmap at all.
  rows_ = std::make_unique<ParsedRows>(pool_.get());
  ASSERT_TRUE(test_util::BuildPlainColumn({"1", "2", "3"}, rows_.get()).ok());
  MemoryScope scope(pool_.get());
  ASSERT_TRUE(ConvertColumn(*rows_, 0, int64(), options_, context_, pool_.get()).ok());
  EXPECT_EQ(scope.delta().num_allocations, 1);
  EXPECT_EQ(scope.delta().bytes_allocated, 64);
}

}  // namespace
}  // namespace strata::csv
