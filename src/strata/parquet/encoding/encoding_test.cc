#include "strata/parquet/encoding/encoding.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "strata/parquet/encoding/delta_byte_array.h"
#include "strata/parquet/encoding/dictionary.h"
#include "strata/parquet/encoding/plain.h"

namespace strata::parquet {
namespace {

TEST(EncodingTest, ThriftValuesAndNames) {
  EXPECT_EQ(static_cast<int>(Encoding::kPlain), 0);
  EXPECT_EQ(static_cast<int>(Encoding::kPlainDictionary), 2);
  EXPECT_EQ(static_cast<int>(Encoding::kRle), 3);
  EXPECT_EQ(static_cast<int>(Encoding::kBitPacked), 4);
  EXPECT_EQ(static_cast<int>(Encoding::kDeltaBinaryPacked), 5);
  EXPECT_EQ(static_cast<int>(Encoding::kDeltaLengthByteArray), 6);
  EXPECT_EQ(static_cast<int>(Encoding::kDeltaByteArray), 7);
  EXPECT_EQ(static_cast<int>(Encoding::kRleDictionary), 8);
  EXPECT_EQ(static_cast<int>(Encoding::kByteStreamSplit), 9);
  EXPECT_EQ(static_cast<int>(Encoding::kAlp), 10);
  EXPECT_EQ(EncodingName(Encoding::kAlp), "ALP");
  EXPECT_EQ(EncodingName(static_cast<Encoding>(11)), "UNKNOWN");
  EXPECT_TRUE(EncodingAppliesTo(Encoding::kAlp, PhysicalType::kFloat));
  EXPECT_TRUE(EncodingAppliesTo(Encoding::kAlp, PhysicalType::kDouble));
  for (PhysicalType t : {PhysicalType::kBoolean, PhysicalType::kInt32, PhysicalType::kInt64, PhysicalType::kInt96,
                         PhysicalType::kByteArray, PhysicalType::kFixedLenByteArray}) {
    EXPECT_FALSE(EncodingAppliesTo(Encoding::kAlp, t)) << PhysicalTypeName(t);
  }
  EXPECT_EQ(EncodingName(Encoding::kDeltaBinaryPacked), "DELTA_BINARY_PACKED");
  EXPECT_EQ(EncodingName(Encoding::kRleDictionary), "RLE_DICTIONARY");
  EXPECT_EQ(EncodingName(static_cast<Encoding>(1)), "UNKNOWN");
  EXPECT_EQ(static_cast<int>(PhysicalType::kFixedLenByteArray), 7);
  EXPECT_EQ(PhysicalTypeName(PhysicalType::kInt96), "INT96");
  EXPECT_EQ(PhysicalTypeName(PhysicalType::kFixedLenByteArray), "FIXED_LEN_BYTE_ARRAY");
  EXPECT_EQ(PhysicalTypeName(static_cast<PhysicalType>(42)), "UNKNOWN");
  EXPECT_EQ(PhysicalTypeByteWidth(PhysicalType::kInt96), 12);
  EXPECT_EQ(PhysicalTypeByteWidth(PhysicalType::kByteArray), 0);
}

// Random bytes through every byte-array decoder: errors must be Corrupt, never a crash or an
// out-of-bounds read (this test matters most under ASan/UBSan).
TEST(EncodingTest, ByteArrayDecodersSurviveGarbage) {
  auto pool = MakeSystemMemoryPool();
  pool->set_limit(64 << 20);  // a hostile DELTA_BYTE_ARRAY may try to expand a lot
  std::mt19937 rng(77);
  std::vector<ByteArrayView> views(300);
  for (int iter = 0; iter < 3000; ++iter) {
    std::vector<uint8_t> junk(1 + rng() % 80);
    for (auto& b : junk) b = static_cast<uint8_t>(rng() % 3 == 0 ? rng() % 8 : rng());
    if (iter % 2 == 0 && junk.size() > 4) {
      // A plausible DELTA header prefix so decoding gets past the header more often.
      junk[0] = 0x80;
      junk[1] = 0x01;
      junk[2] = 0x04;
      junk[3] = static_cast<uint8_t>(rng() % 40);
    }
    const auto size = static_cast<int64_t>(junk.size());
    PlainByteArrayDecoder plain;
    plain.SetData(junk.data(), size);
    auto r1 = plain.Decode(views.data(), 300);
    if (!r1.ok()) {
      EXPECT_TRUE(r1.status().IsCorrupt());
    }
    DeltaLengthByteArrayDecoder dlba;
    if (dlba.SetData(junk.data(), size).ok()) {
      auto r = dlba.Decode(views.data(), 300);
      if (!r.ok()) {
        EXPECT_TRUE(r.status().IsCorrupt()) << r.status().ToString();
      }
    }
    DeltaByteArrayDecoder dba(pool.get());
    if (dba.SetData(junk.data(), size).ok()) {
      auto r = dba.Decode(views.data(), 300);
      if (!r.ok()) {
        EXPECT_TRUE(r.status().IsCorrupt() || r.status().IsOutOfMemory()) << r.status().ToString();
      }
    }
    auto dict = Dictionary::MakeByteArray(pool.get(), junk.data(), size, rng() % 10);
    if (!dict.ok()) {
      EXPECT_TRUE(dict.status().IsCorrupt());
    }
  }
}

}  // namespace
}  // namespace strata::parquet
