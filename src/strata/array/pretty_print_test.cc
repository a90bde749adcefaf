#include "strata/array/pretty_print.h"

#include <gtest/gtest.h>

#include "strata/array/array.h"
#include "strata/array/binary_builder.h"
#include "strata/array/boolean_builder.h"
#include "strata/array/primitive_builder.h"

namespace strata {
namespace {

TEST(PrettyPrintTest, RowLimitElidesTheMiddle) {
  auto pool = MakeSystemMemoryPool();
  Int32Builder b(int32(), pool.get());
  for (int i = 0; i < 100; ++i) ASSERT_TRUE(b.Append(i).ok());
  Array a(*b.Finish());
  EXPECT_EQ(PrettyPrint(a, {.max_rows = 5}), "[0, 1, 2, ..., 98, 99]");
  EXPECT_EQ(PrettyPrint(a.Slice(0, 5), {.max_rows = 5}), "[0, 1, 2, 3, 4]");
  EXPECT_EQ(PrettyPrint(a.Slice(10, 3), {.max_rows = 0}), "[10, 11, 12]");
}

TEST(PrettyPrintTest, Temporal) {
  auto pool = MakeSystemMemoryPool();
  Int64Builder ts(timestamp(TimeUnit::kMicro, "UTC"), pool.get());
  ASSERT_TRUE(ts.Append(0).ok());
  ASSERT_TRUE(ts.Append(1700000000123456).ok());
  ASSERT_TRUE(ts.Append(-1).ok());
  EXPECT_EQ(Array(*ts.Finish()).ToString(),
            "[1970-01-01 00:00:00.000000, 2023-11-14 22:13:20.123456, 1969-12-31 23:59:59.999999]");
  Int64Builder d64(date64(), pool.get());
  ASSERT_TRUE(d64.Append(951782400000).ok());  // 2000-02-29
  EXPECT_EQ(Array(*d64.Finish()).ToString(), "[2000-02-29]");
  Int32Builder t32(time32(TimeUnit::kSecond), pool.get());
  ASSERT_TRUE(t32.Append(3661).ok());
  ASSERT_TRUE(t32.Append(-(14 * 3600 + 59 * 60)).ok());  // negative times: one sign
  EXPECT_EQ(Array(*t32.Finish()).ToString(), "[01:01:01, -14:59:00]");
  Int64Builder t64(time64(TimeUnit::kNano), pool.get());
  ASSERT_TRUE(t64.Append(86399999999999).ok());
  EXPECT_EQ(Array(*t64.Finish()).ToString(), "[23:59:59.999999999]");
}

TEST(PrettyPrintTest, ScalarsAndEscapes) {
  auto pool = MakeSystemMemoryPool();
  StringBuilder s(utf8(), pool.get());
  ASSERT_TRUE(s.Append("quote\" back\\ nl\n ctl\x01").ok());
  EXPECT_EQ(Array(*s.Finish()).ToString(), R"(["quote\" back\\ nl\n ctl\x01"])");
  BooleanBuilder b(pool.get());
  ASSERT_TRUE(b.Append(true).ok());
  ASSERT_TRUE(b.AppendNull().ok());
  EXPECT_EQ(Array(*b.Finish()).ToString(), "[true, null]");
  UInt16Builder h(float16(), pool.get());
  ASSERT_TRUE(h.Append(0x3C00).ok());  // 1.0
  ASSERT_TRUE(h.Append(0xC000).ok());  // -2.0
  ASSERT_TRUE(h.Append(0x3555).ok());  // ~0.333
  EXPECT_EQ(Array(*h.Finish()).ToString(), "[1, -2, 0.33325195]");
  DoubleBuilder d(float64(), pool.get());
  ASSERT_TRUE(d.Append(0.1).ok());
  ASSERT_TRUE(d.Append(-2.5e300).ok());
  EXPECT_EQ(Array(*d.Finish()).ToString(), "[0.1, -2.5e+300]");
  EXPECT_EQ(Array(ArrayData::Make(null(), 2, {nullptr}, 2)).ToString(), "[null, null]");
}

}  // namespace
}  // namespace strata
