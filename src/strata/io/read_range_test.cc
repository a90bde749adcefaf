#include "strata/io/read_range.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

namespace strata {
namespace {

using Ranges = std::vector<ReadRange>;

Ranges Coalesce(Ranges ranges, int64_t hole, int64_t cap) {
  auto result = CoalesceReadRanges(std::move(ranges), CoalesceOptions{hole, cap});
  EXPECT_TRUE(result.ok()) << result.status().ToString();
  return result.ok() ? *result : Ranges{};
}

TEST(CoalesceReadRangesTest, MergesAcrossSmallHolesOnly) {
  // Holes of 10 and 11 bytes with a limit of 10.
  EXPECT_EQ(Coalesce({{0, 100}, {110, 50}, {171, 9}}, 10, 1 << 20), (Ranges{{0, 160}, {171, 9}}));
  // A zero hole limit merges adjacent ranges only.
  EXPECT_EQ(Coalesce({{0, 10}, {10, 10}, {21, 5}}, 0, 1 << 20), (Ranges{{0, 20}, {21, 5}}));
}

TEST(CoalesceReadRangesTest, RangeSizeCapStartsANewRange) {
  EXPECT_EQ(Coalesce({{0, 40}, {40, 40}, {80, 40}}, 8, 100), (Ranges{{0, 80}, {80, 40}}));
  // The cap counts the hole too: 0..50 + hole 5 + 50 = 105 > 100.
  EXPECT_EQ(Coalesce({{0, 50}, {55, 50}}, 8, 100), (Ranges{{0, 50}, {55, 50}}));
  EXPECT_EQ(Coalesce({{0, 50}, {55, 45}}, 8, 100), (Ranges{{0, 100}}));
}

TEST(CoalesceReadRangesTest, LongRangeIsNeverSplit) {
  EXPECT_EQ(Coalesce({{0, 10}, {20, 500}, {530, 10}}, 100, 100), (Ranges{{0, 10}, {20, 500}, {530, 10}}));
}

TEST(CoalesceReadRangesTest, OverlappingAndContainedRangesMergeEvenPastTheCap) {
  // Overlap must merge whatever the cap says, or an input range would straddle two outputs.
  EXPECT_EQ(Coalesce({{0, 80}, {60, 80}}, 0, 100), (Ranges{{0, 140}}));
  EXPECT_EQ(Coalesce({{10, 5}, {0, 100}, {20, 30}}, 0, 1000), (Ranges{{0, 100}}));
  EXPECT_EQ(Coalesce({{5, 5}, {5, 5}, {5, 5}}, 0, 1000), (Ranges{{5, 5}}));
}

TEST(CoalesceReadRangesTest, UnsortedInputEmptyRangesAndEmptyInput) {
  EXPECT_EQ(Coalesce({{300, 10}, {0, 10}, {150, 10}, {12, 3}, {50, 0}}, 5, 1000),
            (Ranges{{0, 15}, {150, 10}, {300, 10}}));
  EXPECT_TRUE(Coalesce({}, 5, 1000).empty());
  EXPECT_TRUE(Coalesce({{7, 0}}, 5, 1000).empty());
}

TEST(CoalesceReadRangesTest, InvalidRangesAndOptionsAreRejected) {
  EXPECT_TRUE(CoalesceReadRanges({{-1, 10}}, {}).status().IsInvalid());
  EXPECT_TRUE(CoalesceReadRanges({{0, -10}}, {}).status().IsInvalid());
  EXPECT_TRUE(CoalesceReadRanges({{INT64_MAX - 5, 10}}, {}).status().IsInvalid());
  EXPECT_TRUE(CoalesceReadRanges({{0, 10}}, CoalesceOptions{-1, 100}).status().IsInvalid());
  EXPECT_TRUE(CoalesceReadRanges({{0, 10}}, CoalesceOptions{0, 0}).status().IsInvalid());
}

// Randomised: compare against the properties every output must have.
TEST(CoalesceReadRangesTest, RandomisedInvariants) {
  std::mt19937_64 rng(42);
  for (int trial = 0; trial < 500; ++trial) {
    const int64_t hole = static_cast<int64_t>(rng() % 64);
    const int64_t cap = 1 + static_cast<int64_t>(rng() % 400);
    Ranges input(rng() % 30);
    for (auto& r : input) r = {static_cast<int64_t>(rng() % 2000), static_cast<int64_t>(rng() % 150)};
    const Ranges out = Coalesce(input, hole, cap);
    for (size_t i = 0; i < out.size(); ++i) {
      EXPECT_GT(out[i].length, 0);
      if (i > 0) {
        // Sorted, disjoint, and not mergeable: either the hole is too big or merging would
        // pass the cap.
        const int64_t gap = out[i].offset - out[i - 1].end();
        ASSERT_GE(gap, 0);
        EXPECT_TRUE(gap > hole || out[i].end() - out[i - 1].offset > cap);
      }
    }
    // Every input range lies in exactly one output; every output byte range is bounded by inputs.
    for (const auto& r : input) {
      if (r.length == 0) continue;
      EXPECT_EQ(std::count_if(out.begin(), out.end(), [&](const ReadRange& o) { return o.Contains(r); }), 1);
    }
    for (const auto& o : out) {
      const bool starts = std::any_of(input.begin(), input.end(), [&](auto& r) { return r.length > 0 && r.offset == o.offset; });
      const bool ends = std::any_of(input.begin(), input.end(), [&](auto& r) { return r.length > 0 && r.end() == o.end(); });
      EXPECT_TRUE(starts && ends);
    }
  }
}

}  // namespace
}  // namespace strata
