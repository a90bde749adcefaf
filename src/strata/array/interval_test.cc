// month_day_nano_interval in the array layer: the type, its builder, equality, validation,
// and its text (value_text::WriteMonthDayNano, DuckDB's interval form) through pretty-print.
#include <gtest/gtest.h>

#include <climits>
#include <string>

#include "strata/array/array.h"
#include "strata/array/compare.h"
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

}  // namespace
}  // namespace strata
