#include "strata/util/base64.h"

#include <string>

#include <gtest/gtest.h>

namespace strata {
namespace {

// RFC 4648 section 10 test vectors.
const std::pair<const char*, const char*> kRfc4648Vectors[] = {
    {"", ""},          {"f", "Zg=="},         {"fo", "Zm8="},        {"foo", "Zm9v"},
    {"foob", "Zm9vYg=="}, {"fooba", "Zm9vYmE="}, {"foobar", "Zm9vYmFy"},
};

TEST(Base64Test, EncodesRfc4648Vectors) {
  for (const auto& [plain, encoded] : kRfc4648Vectors) EXPECT_EQ(Base64Encode(plain), encoded) << plain;
}

TEST(Base64Test, DecodesRfc4648Vectors) {
  for (const auto& [plain, encoded] : kRfc4648Vectors) {
    auto decoded = Base64Decode(encoded);
    ASSERT_TRUE(decoded.ok()) << encoded << ": " << decoded.status().ToString();
    EXPECT_EQ(*decoded, plain);
  }
}

TEST(Base64Test, AcceptsMissingPadding) {
  auto decoded = Base64Decode("Zm9vYg");
  ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
  EXPECT_EQ(*decoded, "foob");
  decoded = Base64Decode("Zm9vYmE");
  ASSERT_TRUE(decoded.ok());
  EXPECT_EQ(*decoded, "fooba");
}

TEST(Base64Test, RoundTripsEveryByteValue) {
  std::string bytes;
  for (int i = 0; i < 256; ++i) bytes.push_back(static_cast<char>(i));
  for (size_t length = 0; length <= bytes.size(); length += 37) {
    const std::string prefix = bytes.substr(0, length);
    auto decoded = Base64Decode(Base64Encode(prefix));
    ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
    EXPECT_EQ(*decoded, prefix);
  }
  EXPECT_EQ(Base64Encode("\xfb\xff"), "+/8=");
}

TEST(Base64Test, RefusesBadCharacters) {
  for (const char* text : {"Zm9v!", "Zm 9v", "Zm9v\n", "Zm-v", "Zm_v", "Zm\x80v"}) {
    auto decoded = Base64Decode(text);
    EXPECT_TRUE(decoded.status().IsInvalid()) << text;
  }
  EXPECT_NE(Base64Decode("Zm9v!AAA").status().message().find("offset 4"), std::string::npos);
}

TEST(Base64Test, RefusesBadPadding) {
  for (const char* text : {"Z", "Z===", "Zg=", "Zm9=v", "=Zm9", "Zm9vY===", "Zm8==", "====", "Zg==Zg==", "Zm9v="}) {
    auto decoded = Base64Decode(text);
    EXPECT_TRUE(decoded.status().IsInvalid()) << text << " -> " << (decoded.ok() ? *decoded : "");
  }
}

TEST(Base64Test, RefusesNonZeroPaddingBits) {
  EXPECT_TRUE(Base64Decode("Zh==").status().IsInvalid());  // 'h' leaves low bits set
  EXPECT_TRUE(Base64Decode("Zm9=").status().IsInvalid());
}

}  // namespace
}  // namespace strata
