#include "strata/expr/bind.h"

#include <cmath>

#include <gtest/gtest.h>

#include "strata/expr/parser.h"
#include "strata/expr/temporal_literals.h"

namespace strata::expr {
namespace {

Schema TestSchema() {
  return Schema({
      field("i8", int8()),
      field("i32", int32()),
      field("i64", int64()),
      field("u8", uint8()),
      field("u64", uint64()),
      field("f32", float32()),
      field("f64", float64()),
      field("h", float16()),
      field("dec", decimal128(9, 2)),
      field("d256", decimal256(40, 2)),
      field("s", utf8()),
      field("ls", large_utf8()),
      field("bin", binary()),
      field("fsb", fixed_size_binary(3)),
      field("b", boolean()),
      field("d32", date32()),
      field("d64", date64()),
      field("ts_s", timestamp(TimeUnit::kSecond)),
      field("ts_ms", timestamp(TimeUnit::kMilli, "UTC")),
      field("ts_us", timestamp(TimeUnit::kMicro, "America/New_York")),
      field("ts_ns", timestamp(TimeUnit::kNano)),
      field("t32", time32(TimeUnit::kMilli)),
      field("t64", time64(TimeUnit::kNano)),
      field("dur", duration(TimeUnit::kMicro)),
      field("st", struct_({field("x", int32()), field("inner", struct_({field("y", utf8())}))})),
      field("dict", dictionary(int16(), utf8())),
      field("lst", list(int32())),
      field("a.b", int32()),
      field("nul", null()),
  });
}

// The bound predicate's text, or the error message.
std::string BindText(std::string_view filter) {
  Result<ExpressionPtr> e = ParseFilter(filter);
  if (!e.ok()) return std::string("parse error: ").append(e.status().message());
  Result<PredicatePtr> p = Bind(**e, TestSchema());
  if (!p.ok()) return std::string("error: ").append(p.status().message());
  return (*p)->ToString();
}

Leaf SingleLeaf(const PredicatePtr& p) {
  EXPECT_EQ(p->kind(), Predicate::Kind::kLeaf) << p->ToString();
  return p->leaf();
}

PredicatePtr MustBind(std::string_view filter) {
  Result<ExpressionPtr> e = ParseFilter(filter);
  EXPECT_TRUE(e.ok()) << e.status().ToString();
  Result<PredicatePtr> p = Bind(**e, TestSchema());
  EXPECT_TRUE(p.ok()) << p.status().ToString();
  return *p;
}

TEST(BindTest, IntegerColumns) {
  EXPECT_EQ(BindText("i32 = 5"), "(i32 = 5)");
  EXPECT_EQ(BindText("i32 < 3.5"), "(i32 <= 3)");
  EXPECT_EQ(BindText("i32 > -2.5"), "(i32 >= -2)");
  EXPECT_EQ(BindText("i32 = 3.0"), "(i32 = 3)");
  EXPECT_EQ(BindText("i32 = 3.5"), "false");
  EXPECT_EQ(BindText("i32 != 3.5"), "(i32 IS NOT NULL)");
  EXPECT_EQ(BindText("i32 <= -3.5"), "(i32 <= -4)");
  EXPECT_EQ(BindText("i32 >= 2.1"), "(i32 >= 3)");
  EXPECT_EQ(BindText("i32 < 1e1"), "(i32 < 10)");
  EXPECT_EQ(BindText("i32 >= 25e-1"), "(i32 >= 3)");
  EXPECT_EQ(BindText("i8 < 1000"), "(i8 IS NOT NULL)");
  EXPECT_EQ(BindText("i8 > 127"), "false");
  EXPECT_EQ(BindText("i8 >= 127"), "(i8 >= 127)");
  EXPECT_EQ(BindText("i8 >= -128"), "(i8 IS NOT NULL)");
  EXPECT_EQ(BindText("i8 < -128"), "false");
  EXPECT_EQ(BindText("u8 > 300"), "false");
  EXPECT_EQ(BindText("u8 >= -1"), "(u8 IS NOT NULL)");
  EXPECT_EQ(BindText("u8 = -1"), "false");
  EXPECT_EQ(BindText("u8 != 256"), "(u8 IS NOT NULL)");
  EXPECT_EQ(BindText("i64 = 99999999999999999999"), "false");
  EXPECT_EQ(BindText("i64 < 99999999999999999999"), "(i64 IS NOT NULL)");
  EXPECT_EQ(BindText("i64 = -9223372036854775808"), "(i64 = -9223372036854775808)");
  EXPECT_EQ(BindText("u64 = 18446744073709551615"), "(u64 = 18446744073709551615)");
  EXPECT_EQ(BindText("u64 > 18446744073709551615"), "false");
  EXPECT_EQ(BindText("i32 = 1e400"), "false");
  EXPECT_EQ(BindText("i32 < nan"), "(i32 IS NOT NULL)");
  EXPECT_EQ(BindText("i32 = nan"), "false");
  EXPECT_EQ(BindText("i32 != nan"), "(i32 IS NOT NULL)");
  EXPECT_EQ(BindText("i32 > inf"), "false");
  EXPECT_EQ(BindText("i32 > -inf"), "(i32 IS NOT NULL)");
  const Leaf leaf = SingleLeaf(MustBind("u8 = 7"));
  EXPECT_EQ(leaf.values[0].kind, Value::Kind::kUInt);
  EXPECT_EQ(leaf.values[0].u, 7u);
  EXPECT_TRUE(leaf.type->Equals(*uint8()));
  EXPECT_EQ(leaf.path, std::vector<int>{3});
}

TEST(BindTest, InLists) {
  EXPECT_EQ(BindText("i32 IN (3, 1, 2, 1, 2.5)"), "(i32 IN (1, 2, 3))");
  EXPECT_EQ(BindText("i32 IN (2.5, 99999999999)"), "false");
  EXPECT_EQ(BindText("i32 NOT IN (2.5, 1)"), "(i32 NOT IN (1))");
  EXPECT_EQ(BindText("i32 NOT IN (2.5)"), "(i32 IS NOT NULL)");
  EXPECT_EQ(BindText("i32 IN (1, null)"), "(i32 IN (1))");
  EXPECT_EQ(BindText("i32 NOT IN (1, null)"), "false");
  EXPECT_EQ(BindText("s IN ('b', 'a', 'b')"), "(s IN (\"a\", \"b\"))");
  EXPECT_EQ(BindText("f64 IN (nan, 1, nan, -0.0, 0.0)"), "(f64 IN (0, 1, nan))");
  EXPECT_EQ(BindText("fsb IN ('abc', 'toolong')"), "(fsb IN (\"abc\"))");
  EXPECT_EQ(BindText("NOT i32 IN (1, 2)"), "(i32 NOT IN (1, 2))");
  EXPECT_EQ(BindText("NOT i32 NOT IN (1, 2)"), "(i32 IN (1, 2))");
}

TEST(BindTest, NotPushdown) {
  EXPECT_EQ(BindText("NOT i32 < 5"), "(i32 >= 5)");
  EXPECT_EQ(BindText("NOT i32 <= 5"), "(i32 > 5)");
  EXPECT_EQ(BindText("NOT i32 > 5"), "(i32 <= 5)");
  EXPECT_EQ(BindText("NOT i32 >= 5"), "(i32 < 5)");
  EXPECT_EQ(BindText("NOT i32 = 5"), "(i32 != 5)");
  EXPECT_EQ(BindText("NOT i32 != 5"), "(i32 = 5)");
  EXPECT_EQ(BindText("NOT (i32 = 1 AND s = 'x')"), "((i32 != 1) OR (s != \"x\"))");
  EXPECT_EQ(BindText("NOT (i32 = 1 OR NOT s = 'x')"), "((i32 != 1) AND (s = \"x\"))");
  EXPECT_EQ(BindText("NOT NOT i32 = 1"), "(i32 = 1)");
  EXPECT_EQ(BindText("NOT i32 IS NULL"), "(i32 IS NOT NULL)");
  EXPECT_EQ(BindText("NOT i32 IS NOT NULL"), "(i32 IS NULL)");
  EXPECT_EQ(BindText("NOT i32 < 3.5"), "(i32 >= 4)");  // NOT first, then rounding
  // Null comparisons are never true, negated or not.
  EXPECT_EQ(BindText("i32 = null"), "false");
  EXPECT_EQ(BindText("NOT i32 = null"), "false");
  EXPECT_EQ(BindText("NOT (i32 = null OR i32 = 1)"), "false");
  EXPECT_EQ(BindText("i32 = null OR i32 = 1"), "(i32 = 1)");
  EXPECT_EQ(BindText("NOT (i8 < 1000)"), "false");
  EXPECT_EQ(BindText("i8 > 1000 OR u8 < 300"), "(u8 IS NOT NULL)");
}

TEST(BindTest, FloatColumns) {
  EXPECT_EQ(BindText("f64 < 2.5"), "(f64 < 2.5)");
  EXPECT_EQ(BindText("f64 >= 3"), "(f64 >= 3)");
  EXPECT_EQ(BindText("f64 = nan"), "(f64 = nan)");
  EXPECT_EQ(BindText("f64 < -inf"), "(f64 < -inf)");
  const Leaf f32 = SingleLeaf(MustBind("f32 = 0.1"));
  EXPECT_EQ(f32.values[0].d, static_cast<double>(0.1f));
  const Leaf half = SingleLeaf(MustBind("h > 1e-3"));
  EXPECT_EQ(half.values[0].kind, Value::Kind::kDouble);
  EXPECT_EQ(half.values[0].d, 1e-3);
  EXPECT_NE(BindText("f64 = 'x'").find("cannot compare with 'x' (expected a number)"), std::string::npos);
}

TEST(BindTest, DecimalColumns) {
  EXPECT_EQ(BindText("dec = 12.5"), "(dec = 12.50)");
  EXPECT_EQ(BindText("dec = 12"), "(dec = 12.00)");
  EXPECT_EQ(SingleLeaf(MustBind("dec = 12.5")).values[0].dec, 1250);
  EXPECT_EQ(BindText("dec = 12.505"), "false");
  EXPECT_EQ(BindText("dec < 12.505"), "(dec <= 12.50)");
  EXPECT_EQ(BindText("dec > -12.505"), "(dec >= -12.50)");
  EXPECT_EQ(BindText("dec = 12.500000"), "(dec = 12.50)");
  EXPECT_EQ(BindText("dec < 10000000"), "(dec IS NOT NULL)");  // beyond precision 9, scale 2
  EXPECT_EQ(BindText("dec = 9999999.99"), "(dec = 9999999.99)");
  EXPECT_EQ(BindText("dec > 9999999.99"), "false");
  EXPECT_NE(BindText("dec = 1e2").find("floats are inexact"), std::string::npos);
  EXPECT_NE(BindText("d256 = 1").find("filters on decimal256 columns are not supported"), std::string::npos);
}

TEST(BindTest, BytesBoolAndNested) {
  EXPECT_EQ(BindText("s >= 'abc'"), "(s >= \"abc\")");
  EXPECT_EQ(BindText("ls = 'x'"), "(ls = \"x\")");
  EXPECT_EQ(BindText("bin < 'x'"), "(bin < \"x\")");
  EXPECT_EQ(BindText("fsb = 'ab'"), "false");
  EXPECT_EQ(BindText("fsb != 'ab'"), "(fsb IS NOT NULL)");
  EXPECT_EQ(BindText("fsb < 'ab'"), "(fsb < \"ab\")");
  EXPECT_EQ(BindText("b = true"), "(b = true)");
  EXPECT_EQ(BindText("NOT b = true"), "(b != true)");
  EXPECT_NE(BindText("b = 1").find("column \"b\" of type bool"), std::string::npos);
  EXPECT_NE(BindText("s = 5").find("column \"s\" of type string: cannot compare with 5"), std::string::npos);
  EXPECT_EQ(BindText("st.x > 4 AND st.inner.y = 'q'"), "((st.x > 4) AND (st.inner.y = \"q\"))");
  EXPECT_EQ(SingleLeaf(MustBind("st.inner.y = 'q'")).path, (std::vector<int>{24, 1, 0}));
  EXPECT_EQ(BindText("st IS NULL"), "(st IS NULL)");
  EXPECT_NE(BindText("st = 1").find("nested column cannot be compared"), std::string::npos);
  EXPECT_NE(BindText("lst = 1").find("column \"lst\" is list"), std::string::npos);
  EXPECT_NE(BindText("i32.x = 1").find("column \"i32.x\": \"i32\" is int32, not a struct"), std::string::npos);
  EXPECT_NE(BindText("st.zz = 1").find("no field \"zz\" in struct column \"st\"; fields: x, inner"),
            std::string::npos);
  EXPECT_EQ(BindText("\"a.b\" = 1"), "(a.b = 1)");
  EXPECT_EQ(SingleLeaf(MustBind("a.b = 1")).path, std::vector<int>{27});  // top-level name wins
  const Leaf dict = SingleLeaf(MustBind("dict = 'x'"));
  EXPECT_TRUE(dict.type->Equals(*utf8()));
  EXPECT_EQ(dict.values[0].bytes, "x");
  EXPECT_EQ(BindText("nul = 1"), "false");
  EXPECT_EQ(BindText("nul IS NULL"), "true");
  EXPECT_EQ(BindText("nul IS NOT NULL"), "false");
}

TEST(BindTest, UnknownColumnListsColumns) {
  const std::string message = BindText("l_shipdat = 1");
  EXPECT_EQ(message.rfind("error: filter: no column \"l_shipdat\" in the schema; columns: i8, i32, i64, u8,", 0), 0u)
      << message;
  EXPECT_NE(message.find("a.b, nul"), std::string::npos);
}

TEST(BindTest, Dates) {
  EXPECT_EQ(DaysFromCivil(1970, 1, 1), 0);
  EXPECT_EQ(DaysFromCivil(2000, 3, 1), 11017);
  EXPECT_EQ(DaysFromCivil(1969, 12, 31), -1);
  EXPECT_EQ(DaysFromCivil(1600, 2, 29), -135081);
  EXPECT_EQ(BindText("d32 >= '1998-09-02'"), "(d32 >= 10471)");
  EXPECT_EQ(BindText("d32 = '2024-02-29'"), "(d32 = 19782)");
  EXPECT_EQ(BindText("d32 = '2000-02-29'"), "(d32 = 11016)");
  EXPECT_EQ(BindText("d32 = 19782"), "(d32 = 19782)");
  EXPECT_EQ(BindText("d64 = '1970-01-02'"), "(d64 = 86400000)");
  // Timestamps against a date round like fractions.
  EXPECT_EQ(BindText("d32 = '2024-01-01 12:00'"), "false");
  EXPECT_EQ(BindText("d32 < '2024-01-01 12:00'"), "(d32 <= 19723)");
  EXPECT_EQ(BindText("d32 = '2024-01-01 00:00:00'"), "(d32 = 19723)");
  EXPECT_NE(BindText("d32 = '2023-02-29'").find("day 29 is not in 1-28 (February 2023)"), std::string::npos);
  EXPECT_NE(BindText("d32 = '1900-02-29'").find("day 29 is not in 1-28"), std::string::npos);
  EXPECT_NE(BindText("d32 = '2024-13-01'").find("month 13 is not in 1-12"), std::string::npos);
  EXPECT_NE(BindText("d32 = '2024-04-31'").find("day 31 is not in 1-30"), std::string::npos);
  EXPECT_NE(BindText("d32 = '2024-4-1'").find("is not a date (expected YYYY-MM-DD)"), std::string::npos);
  EXPECT_NE(BindText("d32 = '2024-01-01x'").find("unexpected text"), std::string::npos);
  EXPECT_NE(BindText("d32 = true").find("column \"d32\" of type date32"), std::string::npos);
}

TEST(BindTest, Timestamps) {
  EXPECT_EQ(BindText("ts_s = '1970-01-01 00:00:01'"), "(ts_s = 1)");
  EXPECT_EQ(BindText("ts_s = '1970-01-02'"), "(ts_s = 86400)");
  EXPECT_EQ(BindText("ts_ms = '1970-01-01T00:00:01.5Z'"), "(ts_ms = 1500)");
  EXPECT_EQ(BindText("ts_us = '2000-01-01 00:00:00'"), "(ts_us = 946684800000000)");
  EXPECT_EQ(BindText("ts_us = '2000-01-01 02:00:00+02:00'"), "(ts_us = 946684800000000)");
  EXPECT_EQ(BindText("ts_us = '1999-12-31 19:30:00-04:30'"), "(ts_us = 946684800000000)");
  EXPECT_EQ(BindText("ts_ns = '2000-01-01 00:00:00.123456789'"), "(ts_ns = 946684800123456789)");
  EXPECT_EQ(BindText("ts_s = '1969-12-31 23:59:59'"), "(ts_s = -1)");
  // Fractions finer than the unit round the comparison.
  EXPECT_EQ(BindText("ts_s = '1970-01-01 00:00:01.5'"), "false");
  EXPECT_EQ(BindText("ts_s < '1970-01-01 00:00:01.5'"), "(ts_s <= 1)");
  EXPECT_EQ(BindText("ts_s > '1969-12-31 23:59:59.5'"), "(ts_s >= 0)");
  EXPECT_EQ(BindText("ts_ms >= '1970-01-01 00:00:00.0001'"), "(ts_ms >= 1)");
  EXPECT_EQ(BindText("ts_ns = '1970-01-01 00:00:00.0000000001'"), "false");
  EXPECT_EQ(BindText("ts_ns = '1970-01-01 00:00:00.1000000000'"), "(ts_ns = 100000000)");
  EXPECT_EQ(BindText("ts_ms = 12345"), "(ts_ms = 12345)");
  EXPECT_EQ(BindText("ts_ns > '2300-01-01'"), "false");  // beyond int64 nanoseconds
  EXPECT_NE(BindText("ts_s = '2024-01-01 24:00'").find("hour 24 is not in 0-23"), std::string::npos);
  EXPECT_NE(BindText("ts_s = '2024-01-01 10:60'").find("minute 60 is not in 0-59"), std::string::npos);
  EXPECT_NE(BindText("ts_s = '2024-01-01 10:00:61'").find("second 61 is not in 0-59"), std::string::npos);
  EXPECT_NE(BindText("ts_s = '2024-01-01 10:00+25:00'").find("offset out of range"), std::string::npos);
}

TEST(BindTest, TimesAndDurations) {
  EXPECT_EQ(BindText("t32 = '01:02:03.004'"), "(t32 = 3723004)");
  EXPECT_EQ(BindText("t32 = '01:02'"), "(t32 = 3720000)");
  EXPECT_EQ(BindText("t64 >= '23:59:59.999999999'"), "(t64 >= 86399999999999)");
  EXPECT_EQ(BindText("t32 < '00:00:00.0005'"), "(t32 <= 0)");
  EXPECT_NE(BindText("t32 = '25:00'").find("hour 25 is not in 0-23"), std::string::npos);
  EXPECT_EQ(BindText("dur > 100"), "(dur > 100)");
  EXPECT_NE(BindText("dur > '01:00'").find("cannot compare with '01:00'"), std::string::npos);
}

}  // namespace
}  // namespace strata::expr
