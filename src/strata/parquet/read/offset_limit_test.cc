// The batch-ending rule of offset_limit.h on hand-made ranges: flat slots and nested entries.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "strata/parquet/read/offset_limit.h"

namespace strata::parquet {
namespace {

std::vector<ByteArrayView> Views(const std::vector<uint32_t>& lengths) {
  static const std::string bytes(64, 'x');
  std::vector<ByteArrayView> views;
  for (const uint32_t n : lengths) views.push_back({reinterpret_cast<const uint8_t*>(bytes.data()), n});
  return views;
}

TEST(OffsetLimitTest, FlatRangesEndAtTheLastValueThatFits) {
  const auto views = Views({4, 4, 4, 4});
  // The whole range fits.
  RangeCut cut = KeepFlatWithinOffsetLimit(4, views.data(), nullptr, 0, 0, 16);
  EXPECT_TRUE(cut.at_row_start);
  EXPECT_EQ(cut.entries, 4);
  EXPECT_EQ(cut.bytes, 16);
  // 5 bytes already in the batch: two values fit (13), a third would pass 16.
  cut = KeepFlatWithinOffsetLimit(4, views.data(), nullptr, 0, 5, 16);
  EXPECT_EQ(cut.entries, 2);
  EXPECT_EQ(cut.slots, 2);
  EXPECT_EQ(cut.values, 2);
  EXPECT_EQ(cut.bytes, 8);
  // Nulls take a slot and no bytes: slots 1 and 3 are null (bits from slot 2 of the bitmap).
  const uint8_t validity[] = {0b010100};
  cut = KeepFlatWithinOffsetLimit(4, views.data(), validity, 2, 10, 16);
  EXPECT_EQ(cut.entries, 2);  // a value and a null: the second value would pass 16
  EXPECT_EQ(cut.values, 1);
  EXPECT_EQ(cut.bytes, 4);
  // The first value does not fit: nothing is kept, at a row start (the batch ends before it).
  cut = KeepFlatWithinOffsetLimit(4, views.data(), nullptr, 0, 14, 16);
  EXPECT_TRUE(cut.at_row_start);
  EXPECT_EQ(cut.entries, 0);
}

TEST(OffsetLimitTest, NestedRangesEndAtARowStart) {
  // Entries of list<string>: rep 0 starts a row; def 2 a value, def 1 an empty list (no slot).
  const std::vector<int16_t> rep = {1, 0, 1, 1, 0, 0, 1};
  const std::vector<int16_t> def = {2, 2, 2, 2, 1, 2, 2};
  const auto views = Views({3, 3, 3, 3, 3, 3});
  auto entry = [&](int64_t i) {
    return RangeEntry{rep[static_cast<size_t>(i)] == 0, def[static_cast<size_t>(i)] >= 2,
                      def[static_cast<size_t>(i)] == 2};
  };
  // Room for 8 bytes: the range's first entry continues an earlier row (3 bytes), the row at
  // entry 1 passes 8 (9 bytes by its end): the cut is at entry 1, after the continued part.
  RangeCut cut = KeepWithinOffsetLimit(7, views.data(), 0, 8, entry);
  EXPECT_TRUE(cut.at_row_start);
  EXPECT_EQ(cut.entries, 1);
  EXPECT_EQ(cut.slots, 1);
  EXPECT_EQ(cut.bytes, 3);
  // Room for 13: the rows at entries 1 and 4 (the empty list) fit; the row at 5 does not.
  cut = KeepWithinOffsetLimit(7, views.data(), 0, 13, entry);
  EXPECT_EQ(cut.entries, 5);
  EXPECT_EQ(cut.slots, 4);
  EXPECT_EQ(cut.values, 4);
  EXPECT_EQ(cut.bytes, 12);
  // The continued part alone passes the limit: no row start keeps the batch within it.
  cut = KeepWithinOffsetLimit(7, views.data(), 6, 8, entry);
  EXPECT_FALSE(cut.at_row_start);
}

TEST(OffsetLimitTest, TheErrorNamesTheLimitAndLargeBinary) {
  const Status known = OneRowPastOffsetLimit(100, 250);
  EXPECT_EQ(known.code(), StatusCode::kLimitExceeded);
  EXPECT_NE(known.message().find("250 bytes"), std::string::npos) << known.ToString();
  EXPECT_NE(known.message().find("large_binary"), std::string::npos) << known.ToString();
  const Status unknown = OneRowPastOffsetLimit(100);
  EXPECT_NE(unknown.message().find("pass the 100 bytes"), std::string::npos) << unknown.ToString();
}

}  // namespace
}  // namespace strata::parquet
