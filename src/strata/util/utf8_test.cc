#include "strata/util/utf8.h"

#include <gtest/gtest.h>

#include <random>
#include <string>

namespace strata {
namespace {

TEST(Utf8Test, WellFormed) {
  EXPECT_TRUE(ValidateUtf8(""));
  EXPECT_TRUE(ValidateUtf8("plain ascii, long enough for the 8-byte path"));
  EXPECT_TRUE(ValidateUtf8("caf\xc3\xa9"));                 // U+00E9
  EXPECT_TRUE(ValidateUtf8("\xe2\x82\xac"));                // U+20AC
  EXPECT_TRUE(ValidateUtf8("\xf0\x9f\x98\x80"));            // U+1F600
  EXPECT_TRUE(ValidateUtf8("\xc2\x80"));                    // U+0080, smallest 2-byte
  EXPECT_TRUE(ValidateUtf8("\xe0\xa0\x80"));                // U+0800, smallest 3-byte
  EXPECT_TRUE(ValidateUtf8("\xf0\x90\x80\x80"));            // U+10000, smallest 4-byte
  EXPECT_TRUE(ValidateUtf8("\xed\x9f\xbf"));                // U+D7FF, just below surrogates
  EXPECT_TRUE(ValidateUtf8("\xee\x80\x80"));                // U+E000, just above
  EXPECT_TRUE(ValidateUtf8("\xf4\x8f\xbf\xbf"));            // U+10FFFF, the largest
  EXPECT_TRUE(ValidateUtf8(std::string("nul\0inside", 10)));
  EXPECT_TRUE(ValidateUtf8("12345678\xc3\xa9" "12345678\xf0\x9f\x98\x80"));
}

TEST(Utf8Test, Overlongs) {
  EXPECT_FALSE(ValidateUtf8("\xc0\xaf"));          // '/' in 2 bytes
  EXPECT_FALSE(ValidateUtf8("\xc1\xbf"));
  EXPECT_FALSE(ValidateUtf8("\xe0\x80\xaf"));      // '/' in 3 bytes
  EXPECT_FALSE(ValidateUtf8("\xe0\x9f\xbf"));      // U+07FF in 3 bytes
  EXPECT_FALSE(ValidateUtf8("\xf0\x80\x80\xaf"));  // '/' in 4 bytes
  EXPECT_FALSE(ValidateUtf8("\xf0\x8f\xbf\xbf"));  // U+FFFF in 4 bytes
}

TEST(Utf8Test, SurrogatesAndOutOfRange) {
  EXPECT_FALSE(ValidateUtf8("\xed\xa0\x80"));      // U+D800
  EXPECT_FALSE(ValidateUtf8("\xed\xbf\xbf"));      // U+DFFF
  EXPECT_FALSE(ValidateUtf8("\xf4\x90\x80\x80"));  // U+110000
  EXPECT_FALSE(ValidateUtf8("\xf5\x80\x80\x80"));
  EXPECT_FALSE(ValidateUtf8("\xff"));
  EXPECT_FALSE(ValidateUtf8("\xfe"));
}

TEST(Utf8Test, TruncatedAndStrayBytes) {
  EXPECT_FALSE(ValidateUtf8("\xc3"));                // lead byte at the end
  EXPECT_FALSE(ValidateUtf8("\xe2\x82"));            // 2 of 3
  EXPECT_FALSE(ValidateUtf8("\xf0\x9f\x98"));        // 3 of 4
  EXPECT_FALSE(ValidateUtf8("\xf0\x9f\x98" "a"));    // interrupted by ASCII
  EXPECT_FALSE(ValidateUtf8("\x80"));                // lone continuation
  EXPECT_FALSE(ValidateUtf8("abc\xbf" "def"));
  EXPECT_FALSE(ValidateUtf8("\xc3\xa9\xa9"));        // one continuation too many
  EXPECT_EQ(FindInvalidUtf8(reinterpret_cast<const uint8_t*>("0123456789\xe2\x82"), 12), 10);
  EXPECT_EQ(FindInvalidUtf8(reinterpret_cast<const uint8_t*>("ok"), 2), -1);
}

// A decoder-based reference over every 1-3 byte prefix pattern and random 4-byte strings.
bool ReferenceValid(const std::string& s) {
  size_t i = 0;
  while (i < s.size()) {
    const auto b = static_cast<unsigned char>(s[i]);
    int n;
    uint32_t cp;
    if (b < 0x80) { n = 1; cp = b; }
    else if ((b & 0xE0) == 0xC0) { n = 2; cp = b & 0x1F; }
    else if ((b & 0xF0) == 0xE0) { n = 3; cp = b & 0x0F; }
    else if ((b & 0xF8) == 0xF0) { n = 4; cp = b & 0x07; }
    else return false;
    if (i + n > s.size()) return false;
    for (int k = 1; k < n; ++k) {
      const auto c = static_cast<unsigned char>(s[i + k]);
      if ((c & 0xC0) != 0x80) return false;
      cp = (cp << 6) | (c & 0x3F);
    }
    static const uint32_t kMin[] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < kMin[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return false;
    i += n;
  }
  return true;
}

TEST(Utf8Test, MatchesReferenceDecoder) {
  std::mt19937 rng(17);
  for (int round = 0; round < 200000; ++round) {
    std::string s(rng() % 6, ' ');
    for (auto& c : s) {
      const uint32_t r = rng();
      // Bias toward interesting bytes.
      static const unsigned char kInteresting[] = {0x00, 0x41, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xc1, 0xc2,
                                                   0xdf, 0xe0, 0xe1, 0xec, 0xed, 0xee, 0xef, 0xf0, 0xf1, 0xf3, 0xf4, 0xf5, 0xff};
      c = static_cast<char>(r & 1 ? kInteresting[(r >> 1) % sizeof(kInteresting)] : (r >> 8) & 0xff);
    }
    ASSERT_EQ(ValidateUtf8(s), ReferenceValid(s)) << "round " << round;
  }
}

}  // namespace
}  // namespace strata
