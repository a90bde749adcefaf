// The interval types (month_day_nano, year_month, day_time) and the narrow decimals (decimal32,
// decimal64) in the array layer: the types, their builders, equality, validation, concatenation,
// and their text (value_text::WriteMonthDayNano, DuckDB's interval form) through pretty-print.
#include <gtest/gtest.h>

#include <climits>
#include <string>

#include "strata/array/array.h"
#include "strata/array/compare.h"
#include "strata/array/concatenate.h"
#include "strata/array/primitive_builder.h"
#include "strata/array/widen.h"
#include "strata/array/fixed_size_binary_builder.h"
#include "strata/array/array_builder.h"
#include "strata/array/pretty_print.h"
#include "strata/array/validate.h"
#include "strata/array/value_text.h"

namespace strata {
namespace {

std::string Text(const MonthDayNano& value) {
  char text[value_text::kMaxIntervalChars];
  return std::string(text, value_text::WriteMonthDayNano(value, text));
}

TEST(IntervalTypeTest, IdWidthNameAndEquality) {
  const TypePtr type = month_day_nano_interval();
  EXPECT_EQ(type->id(), TypeId::kIntervalMonthDayNano);
  EXPECT_EQ(type->byte_width(), 16);
  EXPECT_EQ(type->bit_width(), 128);
  EXPECT_EQ(type->ToString(), "month_day_nano_interval");
  EXPECT_TRUE(type->Equals(month_day_nano_interval()));
  EXPECT_TRUE(type->Equals(TypeForId(TypeId::kIntervalMonthDayNano)));
  EXPECT_FALSE(type->Equals(fixed_size_binary(16)));
  EXPECT_FALSE(type->Equals(decimal128(38, 0)));
  EXPECT_TRUE(is_primitive_fixed_width(TypeId::kIntervalMonthDayNano));
  EXPECT_FALSE(is_temporal(TypeId::kIntervalMonthDayNano));  // no int64 storage, no order
}

TEST(IntervalTextTest, DuckDBForm) {
  constexpr int64_t kSecond = 1000000000;
  EXPECT_EQ(Text({0, 0, 0}), "00:00:00");
  EXPECT_EQ(Text({14, 3, (4 * 3600 + 5 * 60 + 6) * kSecond + 789000000}), "1 year 2 months 3 days 04:05:06.789");
  EXPECT_EQ(Text({1, 0, 0}), "1 month");
  EXPECT_EQ(Text({12, 0, 0}), "1 year");
  EXPECT_EQ(Text({24, 1, 0}), "2 years 1 day");
  EXPECT_EQ(Text({0, 2, 0}), "2 days");
  EXPECT_EQ(Text({-13, 0, 0}), "-1 year -1 month");
  EXPECT_EQ(Text({-26, -3, 0}), "-2 years -2 months -3 days");
  EXPECT_EQ(Text({0, 0, 3000000}), "00:00:00.003");
  EXPECT_EQ(Text({0, 0, 1500000}), "00:00:00.0015");
  EXPECT_EQ(Text({0, 0, 5}), "00:00:00.000000005");
  EXPECT_EQ(Text({0, 0, 27 * 3600 * kSecond}), "27:00:00");  // hours are not folded into days
  EXPECT_EQ(Text({0, 0, -5 * kSecond}), "-00:00:05");
  EXPECT_EQ(Text({0, 1, -1}), "1 day -00:00:00.000000001");
  EXPECT_EQ(Text({INT32_MIN, INT32_MIN, INT64_MIN}),
            "-178956970 years -8 months -2147483648 days -2562047:47:16.854775808");
  EXPECT_EQ(Text({INT32_MAX, INT32_MAX, INT64_MAX}),
            "178956970 years 7 months 2147483647 days 2562047:47:16.854775807");
  EXPECT_LE(Text({INT32_MIN, INT32_MIN, INT64_MIN}).size(), static_cast<size_t>(value_text::kMaxIntervalChars));
}

TEST(IntervalArrayTest, BuildsComparesValidatesAndPrints) {
  auto pool = MakeSystemMemoryPool();
  auto made = MakeBuilder(month_day_nano_interval(), pool.get());
  ASSERT_TRUE(made.ok()) << made.status().ToString();
  auto* builder = dynamic_cast<MonthDayNanoBuilder*>(made->get());
  ASSERT_NE(builder, nullptr);
  ASSERT_TRUE(builder->Append(MonthDayNano{1, 2, 3000000}).ok());
  ASSERT_TRUE(builder->AppendNull().ok());
  ASSERT_TRUE(builder->Append(MonthDayNano{-12, 0, 0}).ok());
  auto data = builder->Finish();
  ASSERT_TRUE(data.ok()) << data.status().ToString();
  const Array a(*data);
  ASSERT_EQ(a.length(), 3);
  EXPECT_EQ(a.null_count(), 1);
  EXPECT_TRUE(ValidateFull(*a.data()).ok());
  EXPECT_EQ(LoadMonthDayNano(a.data()->buffers[1]->data() + 2 * kMonthDayNanoBytes), (MonthDayNano{-12, 0, 0}));
  EXPECT_EQ(PrettyPrint(a), "[1 month 2 days 00:00:00.003, null, -1 year]");
  EXPECT_EQ(PrettyPrint(a.Slice(2, 1)), "[-1 year]");

  MonthDayNanoBuilder same(pool.get());
  ASSERT_TRUE(same.Append(MonthDayNano{1, 2, 3000000}).ok());
  ASSERT_TRUE(same.AppendNull().ok());
  ASSERT_TRUE(same.Append(MonthDayNano{-12, 0, 0}).ok());
  const Array b(*same.Finish());
  EXPECT_TRUE(ArrayEquals(a, b));
  MonthDayNanoBuilder other(pool.get());
  ASSERT_TRUE(other.Append(MonthDayNano{1, 2, 3000000}).ok());
  ASSERT_TRUE(other.AppendNull().ok());
  ASSERT_TRUE(other.Append(MonthDayNano{-12, 0, 1}).ok());  // one nanosecond apart
  EXPECT_FALSE(ArrayEquals(a, Array(*other.Finish())));
}

TEST(IntervalTypeTest, YearMonthAndDayTime) {
  EXPECT_EQ(year_month_interval()->ToString(), "month_interval");
  EXPECT_EQ(day_time_interval()->ToString(), "day_time_interval");
  EXPECT_EQ(year_month_interval()->byte_width(), 4);
  EXPECT_EQ(day_time_interval()->byte_width(), 8);
  EXPECT_FALSE(year_month_interval()->Equals(int32()));
  EXPECT_FALSE(day_time_interval()->Equals(month_day_nano_interval()));
  EXPECT_TRUE(day_time_interval()->Equals(TypeForId(TypeId::kIntervalDayTime)));
  for (TypeId id : {TypeId::kIntervalYearMonth, TypeId::kIntervalDayTime, TypeId::kIntervalMonthDayNano}) {
    EXPECT_TRUE(is_interval(id));
    EXPECT_TRUE(is_primitive_fixed_width(id));
    EXPECT_FALSE(is_temporal(id));
    EXPECT_FALSE(is_decimal(id));
  }
}

TEST(IntervalArrayTest, YearMonthAndDayTimeBuildPrintCompareAndConcatenate) {
  auto pool = MakeSystemMemoryPool();
  auto made = MakeBuilder(year_month_interval(), pool.get());
  ASSERT_TRUE(made.ok()) << made.status().ToString();
  auto* months = dynamic_cast<Int32Builder*>(made->get());
  ASSERT_NE(months, nullptr);
  ASSERT_TRUE(months->Append(14).ok());
  ASSERT_TRUE(months->AppendNull().ok());
  ASSERT_TRUE(months->Append(-1).ok());
  const Array ym(*months->Finish());
  EXPECT_TRUE(ym.type()->Equals(year_month_interval()));
  EXPECT_TRUE(ValidateFull(*ym.data()).ok());
  EXPECT_EQ(PrettyPrint(ym), "[1 year 2 months, null, -1 month]");

  made = MakeBuilder(day_time_interval(), pool.get());
  ASSERT_TRUE(made.ok()) << made.status().ToString();
  auto* day_time = dynamic_cast<DayTimeBuilder*>(made->get());
  ASSERT_NE(day_time, nullptr);
  ASSERT_TRUE(day_time->Append(DayTime{3, 1500}).ok());
  ASSERT_TRUE(day_time->Append(DayTime{0, -86400000}).ok());
  ASSERT_TRUE(day_time->AppendNull().ok());
  const Array dt(*day_time->Finish());
  EXPECT_TRUE(ValidateFull(*dt.data()).ok());
  EXPECT_EQ(PrettyPrint(dt), "[3 days 00:00:01.5, -24:00:00, null]");
  EXPECT_EQ(LoadDayTime(dt.data()->buffers[1]->data()), (DayTime{3, 1500}));
  EXPECT_TRUE(ArrayEquals(dt, dt.Slice(0)));
  EXPECT_FALSE(ArrayEquals(dt.Slice(0, 1), dt.Slice(1, 1)));

  auto both = Concatenate(*dt.Slice(1).data(), *dt.data(), pool.get());
  ASSERT_TRUE(both.ok()) << both.status().ToString();
  EXPECT_EQ(PrettyPrint(Array(*both)), "[-24:00:00, null, 3 days 00:00:01.5, -24:00:00, null]");
  EXPECT_TRUE(Concatenate(*dt.data(), *ym.data(), pool.get()).status().IsInvalid());

  // A value buffer too short for the width is caught.
  auto short_values = std::make_shared<ArrayData>(*dt.data());
  short_values->length = 4;
  short_values->buffers[0] = nullptr;
  short_values->null_count = 0;
  EXPECT_TRUE(ValidateFull(*short_values).IsCorrupt());
}

TEST(DecimalArrayTest, Decimal32And64) {
  auto pool = MakeSystemMemoryPool();
  EXPECT_EQ(decimal32(9, 2)->ToString(), "decimal32(9, 2)");
  EXPECT_EQ(decimal64(18, -3)->ToString(), "decimal64(18, -3)");
  EXPECT_EQ(decimal32(9, 2)->byte_width(), 4);
  EXPECT_EQ(decimal64(10, 2)->byte_width(), 8);
  EXPECT_FALSE(decimal32(9, 2)->Equals(decimal64(9, 2)));
  EXPECT_TRUE(is_decimal(TypeId::kDecimal32) && is_decimal(TypeId::kDecimal64));
  EXPECT_TRUE(MakeDecimal32(10, 0).status().IsInvalid());
  EXPECT_TRUE(MakeDecimal64(19, 0).status().IsInvalid());
  EXPECT_TRUE(MakeDecimalOfWidth(48, 5, 0).status().IsInvalid());
  ASSERT_TRUE(MakeDecimalOfWidth(64, 18, 2).ok());

  auto made = MakeBuilder(decimal32(7, 2), pool.get());
  ASSERT_TRUE(made.ok()) << made.status().ToString();
  auto* d32 = dynamic_cast<Int32Builder*>(made->get());
  ASSERT_NE(d32, nullptr);
  ASSERT_TRUE(d32->Append(-1250).ok());
  ASSERT_TRUE(d32->AppendNull().ok());
  ASSERT_TRUE(d32->Append(5).ok());
  const Array a(*d32->Finish());
  EXPECT_TRUE(ValidateFull(*a.data()).ok());
  EXPECT_EQ(PrettyPrint(a), "[-12.50, null, 0.05]");

  made = MakeBuilder(decimal64(18, 0), pool.get());
  ASSERT_TRUE(made.ok()) << made.status().ToString();
  auto* d64 = dynamic_cast<Int64Builder*>(made->get());
  ASSERT_NE(d64, nullptr);
  ASSERT_TRUE(d64->Append(INT64_MIN).ok());
  ASSERT_TRUE(d64->Append(999999999999999999).ok());
  const Array b(*d64->Finish());
  EXPECT_EQ(PrettyPrint(b), "[-9223372036854775808, 999999999999999999]");

  // Widening to a wider decimal sign-extends.
  auto wide = Widen(a, decimal128(20, 2), pool.get());
  ASSERT_TRUE(wide.ok()) << wide.status().ToString();
  EXPECT_EQ(PrettyPrint(*wide), "[-12.50, null, 0.05]");
  auto wider = Widen(b, decimal256(40, 0), pool.get());
  ASSERT_TRUE(wider.ok()) << wider.status().ToString();
  EXPECT_EQ(PrettyPrint(*wider), "[-9223372036854775808, 999999999999999999]");
  EXPECT_FALSE(CanWiden(*decimal128(20, 2), *decimal64(18, 2)));
}

}  // namespace
}  // namespace strata
