#include "strata/util/status.h"

#include <gtest/gtest.h>

#include "strata/util/result.h"

namespace strata {
namespace {

Result<int> ParsePositive(int v) {
  if (v <= 0) return Status::Invalid("value {} is not positive", v);
  return v;
}

Result<int> Doubled(int v) {
  STRATA_ASSIGN_OR_RETURN(int x, ParsePositive(v));
  return 2 * x;
}

TEST(StatusTest, OkCarriesNoMessage) {
  Status st;
  EXPECT_TRUE(st.ok());
  EXPECT_EQ(st.code(), StatusCode::kOk);
  EXPECT_EQ(st.ToString(), "OK");
}

TEST(StatusTest, ErrorsFormatTheirMessage) {
  Status st = Status::Corrupt("page at offset {} declares {} values", 4096, -1);
  EXPECT_TRUE(st.IsCorrupt());
  EXPECT_EQ(st.ToString(), "Corrupt: page at offset 4096 declares -1 values");
  EXPECT_EQ(st.WithContext("file 'x.parquet'").message(), "file 'x.parquet': page at offset 4096 declares -1 values");
}

TEST(ResultTest, PropagatesValueAndError) {
  ASSERT_TRUE(Doubled(4).ok());
  EXPECT_EQ(*Doubled(4), 8);
  auto bad = Doubled(-3);
  ASSERT_FALSE(bad.ok());
  EXPECT_TRUE(bad.status().IsInvalid());
  EXPECT_EQ(bad.status().message(), "value -3 is not positive");
}

}  // namespace
}  // namespace strata
