#include "strata/csv/type_inference.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "strata/csv/convert_test_util.h"

namespace strata::csv {
namespace {

using test_util::BuildColumn;
using test_util::Missing;
using test_util::Plain;
using test_util::Quoted;
using test_util::TestField;

class TypeInferenceTest : public ::testing::Test {
 protected:
  // The type inferred from one column of fields.
  std::string Infer(const std::vector<TestField>& fields) {
    ParsedRows rows(pool_.get());
    EXPECT_TRUE(BuildColumn(fields, &rows).ok());
    ColumnTypeInferrer inferrer(options_);
    inferrer.Observe(rows, 0);
    EXPECT_EQ(inferrer.values_seen(), static_cast<int64_t>(fields.size()));
    return inferrer.type()->ToString();
  }
  std::string Infer(const std::vector<std::string>& texts) {
    std::vector<TestField> fields;
    for (const auto& text : texts) fields.push_back(Plain(text));
    return Infer(fields);
  }

  std::unique_ptr<MemoryPool> pool_ = MakeSystemMemoryPool();
  ConvertOptions options_;
};

TEST_F(TypeInferenceTest, SingleKinds) {
  EXPECT_EQ(Infer(std::vector<std::string>{"true", "False", "TRUE"}), "bool");
  EXPECT_EQ(Infer(std::vector<std::string>{"1", "-2", "+3", "0", "-0"}), "int64");
  EXPECT_EQ(Infer(std::vector<std::string>{"1.5", "-2e3", "inf", "NaN"}), "double");
  EXPECT_EQ(Infer(std::vector<std::string>{"2024-01-01", "1999-12-31"}), "date32[day]");
  EXPECT_EQ(Infer(std::vector<std::string>{"2024-01-01 10:00", "2024-01-01T10:00:00.5"}), "timestamp[us]");
  EXPECT_EQ(Infer(std::vector<std::string>{"2024-01-01T10:00:00Z", "2024-01-01T10:00:00+02:00"}),
            "timestamp[us, tz=UTC]");
  EXPECT_EQ(Infer(std::vector<std::string>{"10:00:00", "23:59:59.999999"}), "time64[us]");
  EXPECT_EQ(Infer(std::vector<std::string>{"hello", "world"}), "string");
}

TEST_F(TypeInferenceTest, NullsOnly) {
  EXPECT_EQ(Infer(std::vector<std::string>{}), "null");
  EXPECT_EQ(Infer(std::vector<std::string>{"", "NA", "NULL", "null", "N/A"}), "null");
  EXPECT_EQ(Infer(std::vector<TestField>{Missing(), Plain(""), Missing()}), "null");
  // Nulls do not change a kind.
  EXPECT_EQ(Infer(std::vector<std::string>{"", "1", "NA", "2"}), "int64");
  // A quoted null spelling is the text "NA".
  EXPECT_EQ(Infer(std::vector<TestField>{Plain("1"), Quoted("NA")}), "string");
}

TEST_F(TypeInferenceTest, QuotedFieldsKeepTheirKind) {
  EXPECT_EQ(Infer(std::vector<TestField>{Quoted("1"), Plain("2"), Quoted("3")}), "int64");
  EXPECT_EQ(Infer(std::vector<TestField>{Quoted("1.5")}), "double");
  EXPECT_EQ(Infer(std::vector<TestField>{Quoted("2024-01-01")}), "date32[day]");
  EXPECT_EQ(Infer(std::vector<TestField>{Quoted("true")}), "bool");
  // A quoted empty field is an empty string, not a null.
  EXPECT_EQ(Infer(std::vector<TestField>{Plain("1"), Quoted("")}), "string");
  EXPECT_EQ(Infer(std::vector<TestField>{Quoted("")}), "string");
}

TEST_F(TypeInferenceTest, LeadingZerosStayStrings) {
  EXPECT_EQ(Infer(std::vector<std::string>{"02134", "10001", "94105"}), "string");
  EXPECT_EQ(Infer(std::vector<std::string>{"10001", "02134"}), "string");
  EXPECT_EQ(Infer(std::vector<std::string>{"00"}), "string");
  EXPECT_EQ(Infer(std::vector<std::string>{"1.5", "007.5"}), "string");
  EXPECT_EQ(Infer(std::vector<std::string>{"0", "0.5", "10"}), "double");
}

TEST_F(TypeInferenceTest, IntegersAndFloats) {
  EXPECT_EQ(Infer(std::vector<std::string>{"1", "2.5"}), "double");
  EXPECT_EQ(Infer(std::vector<std::string>{"2.5", "1"}), "double");
  EXPECT_EQ(Infer(std::vector<std::string>{"9007199254740992", "0.5"}), "double");
  EXPECT_EQ(Infer(std::vector<std::string>{"-9007199254740992", "0.5"}), "double");
  // 2^53 + 1 would be rounded by a double: no silent loss, in either order.
  EXPECT_EQ(Infer(std::vector<std::string>{"9007199254740993", "0.5"}), "string");
  EXPECT_EQ(Infer(std::vector<std::string>{"0.5", "9007199254740993"}), "string");
  EXPECT_EQ(Infer(std::vector<std::string>{"0.5", "-9007199254740993"}), "string");
  // Alone, a big integer is an exact int64.
  EXPECT_EQ(Infer(std::vector<std::string>{"9007199254740993", "9223372036854775807"}), "int64");
  // Beyond int64: text, never a float.
  EXPECT_EQ(Infer(std::vector<std::string>{"9223372036854775808"}), "string");
  EXPECT_EQ(Infer(std::vector<std::string>{"1.5", "99999999999999999999"}), "string");
  // Out of the range of a double: text, not infinity.
  EXPECT_EQ(Infer(std::vector<std::string>{"1.5", "1e400"}), "string");
}

TEST_F(TypeInferenceTest, DatesAndTimestamps) {
  EXPECT_EQ(Infer(std::vector<std::string>{"2024-01-01", "2024-01-01 10:00:00"}), "timestamp[us]");
  EXPECT_EQ(Infer(std::vector<std::string>{"2024-01-01 10:00:00", "2024-01-01"}), "timestamp[us]");
  EXPECT_EQ(Infer(std::vector<std::string>{"2024-01-01T10:00:00.123456"}), "timestamp[us]");
  EXPECT_EQ(Infer(std::vector<std::string>{"2024-01-01T10:00:00.1234567"}), "timestamp[ns]");
  EXPECT_EQ(Infer(std::vector<std::string>{"2024-01-01T10:00:00.123456000"}), "timestamp[us]");
  EXPECT_EQ(Infer(std::vector<std::string>{"2024-01-01T10:00:00.000000001Z"}), "timestamp[ns, tz=UTC]");
  // Zoned and naive values do not mix, nor zoned values and dates.
  EXPECT_EQ(Infer(std::vector<std::string>{"2024-01-01T10:00:00Z", "2024-01-01T10:00:00"}), "string");
  EXPECT_EQ(Infer(std::vector<std::string>{"2024-01-01T10:00:00", "2024-01-01T10:00:00Z"}), "string");
  EXPECT_EQ(Infer(std::vector<std::string>{"2024-01-01", "2024-01-01T10:00:00Z"}), "string");
  // An invalid date is text.
  EXPECT_EQ(Infer(std::vector<std::string>{"2024-01-01", "2023-02-29"}), "string");
  // Nanoseconds cannot reach the year 9999.
  EXPECT_EQ(Infer(std::vector<std::string>{"9999-01-01T00:00:00", "2024-01-01T10:00:00.1234567"}), "string");
  EXPECT_EQ(Infer(std::vector<std::string>{"9999-01-01T00:00:00", "2024-01-01T10:00:00.123456"}), "timestamp[us]");
}

TEST_F(TypeInferenceTest, Times) {
  EXPECT_EQ(Infer(std::vector<std::string>{"10:00:00.1234567"}), "time64[ns]");
  EXPECT_EQ(Infer(std::vector<std::string>{"10:00:00", "10:00"}), "string");
  EXPECT_EQ(Infer(std::vector<std::string>{"25:00:00"}), "string");
}

TEST_F(TypeInferenceTest, EveryPairOfKinds) {
  // One value of each kind, and the type a column of two of them gets.
  const std::vector<std::pair<std::string, std::string>> kinds = {
      {"true", "bool"},           {"42", "int64"},
      {"1.5", "double"},          {"2024-01-01", "date32[day]"},
      {"2024-01-01 10:00", "timestamp[us]"}, {"2024-01-01 10:00Z", "timestamp[us, tz=UTC]"},
      {"10:00:00", "time64[us]"}, {"text", "string"}};
  auto expected = [](const std::string& a, const std::string& b) -> std::string {
    if (a == b) return a;
    auto pair_is = [&](const char* x, const char* y) { return (a == x && b == y) || (a == y && b == x); };
    if (pair_is("int64", "double")) return "double";
    if (pair_is("date32[day]", "timestamp[us]")) return "timestamp[us]";
    return "string";
  };
  for (const auto& [text_a, type_a] : kinds) {
    for (const auto& [text_b, type_b] : kinds) {
      EXPECT_EQ(Infer(std::vector<std::string>{text_a, text_b}), expected(type_a, type_b)) << text_a << " + " << text_b;
      // Nulls around them change nothing.
      EXPECT_EQ(Infer(std::vector<std::string>{"", text_a, "NA", text_b, ""}), expected(type_a, type_b));
    }
  }
}

TEST_F(TypeInferenceTest, ObservesBlocksIncrementally) {
  ParsedRows first(pool_.get()), second(pool_.get());
  ASSERT_TRUE(test_util::BuildPlainColumn({"1", "2"}, &first).ok());
  ASSERT_TRUE(test_util::BuildPlainColumn({"3.5", ""}, &second).ok());
  ColumnTypeInferrer inferrer(options_);
  inferrer.Observe(first, 0);
  EXPECT_EQ(inferrer.type()->ToString(), "int64");
  inferrer.Observe(second, 0);
  EXPECT_EQ(inferrer.type()->ToString(), "double");
  EXPECT_EQ(inferrer.values_seen(), 4);
  EXPECT_FALSE(inferrer.settled());
  ParsedRows third(pool_.get());
  ASSERT_TRUE(test_util::BuildPlainColumn({"x"}, &third).ok());
  inferrer.Observe(third, 0);
  EXPECT_TRUE(inferrer.settled());
  inferrer.Observe(first, 0);
  EXPECT_EQ(inferrer.type()->ToString(), "string");
}

TEST_F(TypeInferenceTest, OtherColumnsOfTheRows) {
  ParsedRows rows(pool_.get());
  ASSERT_TRUE(test_util::BuildRows({{Plain("1"), Plain("a"), Plain("2024-01-01")},
                                    {Plain("2"), Quoted(""), Missing()}},
                                   &rows)
                  .ok());
  const char* expected[] = {"int64", "string", "date32[day]"};
  for (int column = 0; column < 3; ++column) {
    ColumnTypeInferrer inferrer(options_);
    inferrer.Observe(rows, column);
    EXPECT_EQ(inferrer.type()->ToString(), expected[column]);
  }
}

TEST_F(TypeInferenceTest, OptionsSpellings) {
  options_.null_values = {"-"};
  EXPECT_EQ(Infer(std::vector<std::string>{"-", "1"}), "int64");
  EXPECT_EQ(Infer(std::vector<std::string>{"", "1"}), "string");  // "" is no longer null
  options_.true_values = {"yes"};
  options_.false_values = {"no"};
  EXPECT_EQ(Infer(std::vector<std::string>{"yes", "no", "-"}), "bool");
  EXPECT_EQ(Infer(std::vector<std::string>{"yes", "true"}), "string");
}

TEST_F(TypeInferenceTest, AllStrings) {
  options_.all_strings = true;
  EXPECT_EQ(Infer(std::vector<std::string>{"1", "2"}), "string");
  EXPECT_EQ(Infer(std::vector<std::string>{"", ""}), "string");
}

TEST_F(TypeInferenceTest, InvalidUtf8) {
  const std::string bad = "caf\xe9";
  // Validation on: the column is utf8 and the converter reports the bytes.
  EXPECT_EQ(Infer(std::vector<std::string>{"a", bad}), "string");
  options_.validate_utf8 = false;
  EXPECT_EQ(Infer(std::vector<std::string>{"a", bad}), "binary");
  EXPECT_EQ(Infer(std::vector<std::string>{bad, "1"}), "binary");
  EXPECT_EQ(Infer(std::vector<std::string>{"1", bad}), "binary");
  EXPECT_EQ(Infer(std::vector<TestField>{Quoted(""), Plain(bad)}), "binary");
  EXPECT_EQ(Infer(std::vector<std::string>{"a", "caf\xc3\xa9"}), "string");
  options_.all_strings = true;
  EXPECT_EQ(Infer(std::vector<std::string>{"1", bad}), "binary");
}

}  // namespace
}  // namespace strata::csv
