#include "strata/util/byte_size.h"

#include <gtest/gtest.h>

namespace strata {
namespace {

TEST(ByteSizeTest, ParsesUnitsAsPeopleWriteThem) {
  EXPECT_EQ(*ParseByteSize("4096"), 4096);
  EXPECT_EQ(*ParseByteSize("512MiB"), int64_t{512} << 20);
  EXPECT_EQ(*ParseByteSize("512 mib"), int64_t{512} << 20);
  EXPECT_EQ(*ParseByteSize("512M"), int64_t{512} << 20);
  EXPECT_EQ(*ParseByteSize("1.5G"), int64_t{3} << 29);
  EXPECT_EQ(*ParseByteSize("64k"), int64_t{64} << 10);
  EXPECT_EQ(*ParseByteSize("2GB"), 2'000'000'000);
  EXPECT_EQ(*ParseByteSize("1TiB"), int64_t{1} << 40);
  EXPECT_EQ(*ParseByteSize("100b"), 100);
}

TEST(ByteSizeTest, RefusesWhatIsNotASize) {
  for (const char* text : {"", "MiB", "-1", "12 parsecs", "1..2M", "0x10", " 5"}) {
    auto size = ParseByteSize(text, "--memory-limit");
    ASSERT_FALSE(size.ok()) << text;
    EXPECT_NE(size.status().message().find("--memory-limit"), std::string::npos) << size.status().ToString();
  }
  EXPECT_FALSE(ParseByteSize("9000000TiB").ok());
}

TEST(ByteSizeTest, FormatsWithTheLargestWholeUnit) {
  EXPECT_EQ(FormatByteSize(100), "100 bytes");
  EXPECT_EQ(FormatByteSize(int64_t{512} << 20), "512 MiB");
  EXPECT_EQ(FormatByteSize(int64_t{3} << 29), "1.5 GiB");
  EXPECT_EQ(FormatByteSize(1536), "1.5 KiB");
}

}  // namespace
}  // namespace strata
