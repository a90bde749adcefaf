// ALP: the spec's worked examples byte for byte, bit-exact round trips of every kind of float
// and double at every vector length and log vector size, compression of decimal-like data, and
// hostile pages (every header field, offset and count).
#include "strata/parquet/encoding/alp.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "strata/memory/memory_pool.h"

namespace strata::parquet {
namespace {

MemoryPool* Pool() { return SystemMemoryPool(); }

template <typename T>
using Bits = std::conditional_t<std::is_same_v<T, float>, uint32_t, uint64_t>;

template <typename T>
std::vector<uint8_t> Encode(const std::vector<T>& values, int log_vector_size = kAlpDefaultLogVectorSize) {
  AlpEncoder<T> encoder(Pool(), log_vector_size);
  ResizableBuffer out(Pool());
  Status st = encoder.Encode(values.data(), static_cast<int64_t>(values.size()), &out);
  EXPECT_TRUE(st.ok()) << st.ToString();
  return {out.data(), out.data() + out.size()};
}

template <typename T>
Result<std::vector<T>> Decode(const std::vector<uint8_t>& page, int64_t batch = 1 << 30) {
  AlpDecoder<T> decoder(Pool());
  STRATA_RETURN_NOT_OK(decoder.SetData(page.data(), static_cast<int64_t>(page.size())));
  std::vector<T> out(static_cast<size_t>(decoder.total_values()));
  int64_t done = 0;
  while (done < decoder.total_values()) {
    STRATA_ASSIGN_OR_RETURN(int64_t got, decoder.Decode(out.data() + done, batch));
    if (got == 0) return Status::Invalid("decoder stalled");
    done += got;
  }
  return out;
}

template <typename T>
void ExpectBitsEqual(const std::vector<T>& expected, const std::vector<T>& got, const std::string& what) {
  ASSERT_EQ(expected.size(), got.size()) << what;
  for (size_t i = 0; i < expected.size(); ++i) {
    ASSERT_EQ(std::bit_cast<Bits<T>>(expected[i]), std::bit_cast<Bits<T>>(got[i]))
        << what << ": value " << i << " expected " << expected[i] << " got " << got[i];
  }
}

template <typename T>
void ExpectRoundTrip(const std::vector<T>& values, const std::string& what, int log_vector_size = 10) {
  const auto page = Encode(values, log_vector_size);
  auto whole = Decode<T>(page);
  ASSERT_TRUE(whole.ok()) << what << ": " << whole.status().ToString();
  ExpectBitsEqual(values, *whole, what);
  auto batched = Decode<T>(page, 7);  // reads that end inside vectors
  ASSERT_TRUE(batched.ok()) << what << ": " << batched.status().ToString();
  ExpectBitsEqual(values, *batched, what + " (batches of 7)");
}

// Every kind of value: signed zeros, NaNs with distinct payloads (quiet and signalling, both
// signs), infinities, subnormals, extremes, values with no short decimal form, decimals.
template <typename T>
std::vector<T> SpecialValues() {
  using B = Bits<T>;
  using L = std::numeric_limits<T>;
  constexpr int kMantissa = L::digits - 1;
  const B exponent_all = ((B{1} << (8 * sizeof(T) - 1 - kMantissa)) - 1) << kMantissa;
  const B sign = B{1} << (8 * sizeof(T) - 1);
  std::vector<T> v = {T(0),         -T(0),          L::infinity(),  -L::infinity(), L::quiet_NaN(),
                      L::signaling_NaN(), L::denorm_min(), -L::denorm_min(), L::min(),   L::max(),
                      L::lowest(),  L::epsilon(),   T(1) / T(3),    T(3.14159265358979), T(0.1),
                      T(12.34),     T(-12.34),      T(1e10),        T(-1e-10),      T(123456789)};
  for (B payload : {B{1}, B{2}, B{0x55}, (B{1} << (kMantissa - 1)) | 3, (B{1} << kMantissa) - 1}) {
    v.push_back(std::bit_cast<T>(exponent_all | payload));
    v.push_back(std::bit_cast<T>(sign | exponent_all | payload));
  }
  v.push_back(std::bit_cast<T>(B{(B{1} << kMantissa) - 1}));  // the largest subnormal
  v.push_back(std::bit_cast<T>(B{12345}));
  return v;
}

// Decimal-like values with specials mixed in, `n` of them.
template <typename T>
std::vector<T> Mixed(int64_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  const auto specials = SpecialValues<T>();
  std::vector<T> v(static_cast<size_t>(n));
  for (auto& x : v) {
    const uint64_t r = rng();
    x = r % 17 == 0 ? specials[r / 17 % specials.size()] : static_cast<T>(static_cast<int64_t>(r % 200001) - 100000) / T(100);
  }
  return v;
}

template <typename T>
class AlpTypedTest : public ::testing::Test {};
using AlpTypes = ::testing::Types<float, double>;
TYPED_TEST_SUITE(AlpTypedTest, AlpTypes);

TYPED_TEST(AlpTypedTest, SpecialValuesRoundTripBitForBit) {
  using T = TypeParam;
  const auto specials = SpecialValues<T>();
  ExpectRoundTrip(specials, "specials");
  // Each special alone, and among decimals (a vector that is mostly non-exceptions).
  for (size_t i = 0; i < specials.size(); ++i) {
    ExpectRoundTrip(std::vector<T>{specials[i]}, "special " + std::to_string(i));
    std::vector<T> among = {T(1.5), T(2.25), specials[i], T(-3.75), T(100)};
    ExpectRoundTrip(among, "special among decimals " + std::to_string(i));
  }
}

TYPED_TEST(AlpTypedTest, EveryVectorLengthUpTo1024AndOneMore) {
  using T = TypeParam;
  for (int64_t n = 0; n <= 1025; ++n) {
    ExpectRoundTrip(Mixed<T>(n, static_cast<uint64_t>(n)), "length " + std::to_string(n));
    if (::testing::Test::HasFatalFailure()) return;
  }
}

TYPED_TEST(AlpTypedTest, EveryLogVectorSizeWithAPartialLastVector) {
  using T = TypeParam;
  for (int log = kAlpMinLogVectorSize; log <= kAlpMaxLogVectorSize; ++log) {
    const int64_t vector_size = int64_t{1} << log;
    for (int64_t n : {vector_size - 1, vector_size, 3 * vector_size + vector_size / 2 + 1}) {
      const auto values = Mixed<T>(n, static_cast<uint64_t>(log * 1000 + n));
      const auto page = Encode(values, log);
      ASSERT_EQ(page[2], log);
      ExpectRoundTrip(values, "log " + std::to_string(log) + " n " + std::to_string(n), log);
    }
  }
}

TYPED_TEST(AlpTypedTest, RandomBitPatternsRoundTrip) {
  using T = TypeParam;
  std::mt19937_64 rng(11);
  std::vector<T> values(5000);
  for (auto& x : values) x = std::bit_cast<T>(static_cast<Bits<T>>(rng()));
  ExpectRoundTrip(values, "random bits");
  std::uniform_real_distribution<T> uniform(-1e6, 1e6);
  for (auto& x : values) x = uniform(rng);
  ExpectRoundTrip(values, "random uniform");
}

TYPED_TEST(AlpTypedTest, ValuesWithoutADecimalFormAreAllExceptions) {
  using T = TypeParam;
  std::vector<T> values;
  for (int i = 1; i <= 3000; ++i) values.push_back(T(1) / T(3 * i + 1) + std::numeric_limits<T>::epsilon());
  ExpectRoundTrip(values, "no decimal form");
  // At worst each value costs its bits plus a 2-byte position (and headers).
  const auto page = Encode(values);
  EXPECT_LE(page.size(), values.size() * (sizeof(T) + 2) + 7 + 3 * (4 + 13));
}

TYPED_TEST(AlpTypedTest, RunsOfEqualValuesPackToZeroBits) {
  using T = TypeParam;
  std::vector<T> values(5000, T(3.25));
  ExpectRoundTrip(values, "one value");
  const auto page = Encode(values);
  const size_t header = 4 + (sizeof(T) == 4 ? 5 : 9);
  EXPECT_EQ(page.size(), 7 + 5 * (4 + header));  // 5 vectors of bit width 0, no exceptions
  std::vector<T> runs;
  for (int r = 0; r < 40; ++r) runs.insert(runs.end(), 100 + r * 7, static_cast<T>(r) / T(4));
  ExpectRoundTrip(runs, "runs");
}

TYPED_TEST(AlpTypedTest, DecimalLikeValuesCompressWellBelowPlain) {
  using T = TypeParam;
  std::mt19937_64 rng(5);
  std::vector<T> prices(20000);
  // Two decimals below 1000 (float: below 100, where float still holds the cents exactly).
  const uint64_t cents = sizeof(T) == 8 ? 100000 : 10000;
  for (auto& x : prices) x = static_cast<T>(static_cast<double>(rng() % cents) / 100.0);
  ExpectRoundTrip(prices, "prices");
  const auto page = Encode(prices);
  const double ratio = static_cast<double>(page.size()) / static_cast<double>(prices.size() * sizeof(T));
  // 17 bits of 64 (double) or 14 of 32 (float) plus headers; all-exceptions would be above 1.
  EXPECT_LT(ratio, sizeof(T) == 8 ? 0.30 : 0.50) << page.size() << " bytes";
  std::vector<T> discounts(20000);
  for (auto& x : discounts) x = static_cast<T>(static_cast<double>(rng() % 11) / 100.0);
  const auto small = Encode(discounts);
  // Float cents are harder: float(0.05) is not float(5) * 10^-2 under any one (e, f) that also
  // fits the other cents, so some values stay exceptions (8.4 bits a value measured).
  EXPECT_LT(static_cast<double>(small.size()),
            (sizeof(T) == 8 ? 0.10 : 0.30) * static_cast<double>(discounts.size() * sizeof(T)));
  ExpectRoundTrip(discounts, "discounts");
}

TYPED_TEST(AlpTypedTest, DecodeAndSkipInterleave) {
  using T = TypeParam;
  const auto values = Mixed<T>(10000, 3);
  const auto page = Encode(values, 8);
  AlpDecoder<T> decoder(Pool());
  ASSERT_TRUE(decoder.SetData(page.data(), static_cast<int64_t>(page.size())).ok());
  std::vector<T> out(600);
  int64_t position = 0;
  std::mt19937 rng(2);
  while (decoder.values_left() > 0) {
    const int64_t n = 1 + rng() % 600;
    const int64_t expected = std::min<int64_t>(n, decoder.values_left());
    if (rng() % 3 == 0) {
      auto skipped = decoder.Skip(n);
      ASSERT_TRUE(skipped.ok());
      ASSERT_EQ(*skipped, expected);
    } else {
      auto got = decoder.Decode(out.data(), n);
      ASSERT_TRUE(got.ok());
      ASSERT_EQ(*got, expected);
      for (int64_t i = 0; i < expected; ++i) {
        ASSERT_EQ(std::bit_cast<Bits<T>>(out[i]), std::bit_cast<Bits<T>>(values[position + i])) << position + i;
      }
    }
    position += expected;
  }
  EXPECT_EQ(position, 10000);
  auto none = decoder.Decode(out.data(), 5);
  ASSERT_TRUE(none.ok());
  EXPECT_EQ(*none, 0);
}

TYPED_TEST(AlpTypedTest, EmptyPage) {
  using T = TypeParam;
  const auto page = Encode(std::vector<T>{});
  EXPECT_EQ(page, (std::vector<uint8_t>{0, 0, 10, 0, 0, 0, 0}));
  auto decoded = Decode<T>(page);
  ASSERT_TRUE(decoded.ok());
  EXPECT_TRUE(decoded->empty());
}

// ---- the spec's worked examples ----------------------------------------------------------------

// "Worked Example: Exceptions and Non-Zero Factor": { 1500.0, NaN, 2500.0, 333.5 } with e=4, f=3.
const std::vector<uint8_t> kWorkedExampleVector = {
    4, 3, 1, 0,                                      // AlpInfo: e=4, f=3, num_exceptions=1
    0x07, 0x0D, 0, 0, 0, 0, 0, 0, 15,                // ForInfo: frame 3335, bit width 15
    0x91, 0xAD, 0xC8, 0x56, 0x28, 0x15, 0x00, 0x00,  // [11665, 11665, 21665, 0] at 15 bits
    1, 0,                                            // exception position 1
    0, 0, 0, 0, 0, 0, 0xF8, 0x7F,                    // exception value: the quiet NaN's bits
};

std::vector<uint8_t> Page(int log_vector_size, int32_t num_elements, const std::vector<uint32_t>& offsets,
                          const std::vector<uint8_t>& vectors) {
  std::vector<uint8_t> page = {0, 0, static_cast<uint8_t>(log_vector_size)};
  for (int i = 0; i < 4; ++i) page.push_back(static_cast<uint8_t>(static_cast<uint32_t>(num_elements) >> (8 * i)));
  for (uint32_t offset : offsets) {
    for (int i = 0; i < 4; ++i) page.push_back(static_cast<uint8_t>(offset >> (8 * i)));
  }
  page.insert(page.end(), vectors.begin(), vectors.end());
  return page;
}

TEST(AlpSpecTest, WorkedExampleBytesDecodeToTheValues) {
  ASSERT_EQ(kWorkedExampleVector.size(), 31u);  // the spec's total
  const auto page = Page(10, 4, {4}, kWorkedExampleVector);
  auto values = Decode<double>(page);
  ASSERT_TRUE(values.ok()) << values.status().ToString();
  ASSERT_EQ(values->size(), 4u);
  EXPECT_EQ((*values)[0], 1500.0);
  EXPECT_EQ(std::bit_cast<uint64_t>((*values)[1]), 0x7FF8000000000000u);
  EXPECT_EQ((*values)[2], 2500.0);
  EXPECT_EQ((*values)[3], 333.5);
}

TEST(AlpSpecTest, WorkedExampleEncodesToTheSpecsVector) {
  const std::vector<double> values = {1500.0, std::bit_cast<double>(0x7FF8000000000000u), 2500.0, 333.5};
  const auto page = Encode(values);
  ASSERT_EQ(page.size(), 7u + 4u + 31u);
  EXPECT_EQ(std::vector<uint8_t>(page.begin(), page.begin() + 11), (std::vector<uint8_t>{0, 0, 10, 4, 0, 0, 0, 4, 0, 0, 0}));
  // Any combination scaling by 10 gives the same integers; the spec's is (4, 3). Everything
  // after AlpInfo's exponent and factor must be the spec's bytes.
  const std::vector<uint8_t> vector(page.begin() + 11, page.end());
  EXPECT_EQ(vector[0] - vector[1], 1);
  EXPECT_EQ(std::vector<uint8_t>(vector.begin() + 2, vector.end()),
            std::vector<uint8_t>(kWorkedExampleVector.begin() + 2, kWorkedExampleVector.end()));
}

TEST(AlpSpecTest, FrameOfReferenceExample) {
  // "Example: Frame of Reference and Bit-Packing": [123, 456, 789, 12] -> min 12, deltas
  // [111, 444, 777, 0], bit width 10, 5 bytes.
  const auto page = Encode(std::vector<double>{123, 456, 789, 12});
  ASSERT_EQ(page.size(), 7u + 4u + 13u + 5u);
  const std::vector<uint8_t> vector(page.begin() + 11, page.end());
  EXPECT_EQ(vector[0], vector[1]);  // exponent == factor: the integers are the values
  EXPECT_EQ(std::vector<uint8_t>(vector.begin() + 2, vector.end()),
            (std::vector<uint8_t>{0, 0, 12, 0, 0, 0, 0, 0, 0, 0, 10, 0x6F, 0xF0, 0x96, 0x30, 0x00}));
  // And the hand-made bytes (e = f = 0) decode to the values.
  auto values = Decode<double>(Page(10, 4, {4}, {0, 0, 0, 0, 12, 0, 0, 0, 0, 0, 0, 0, 10, 0x6F, 0xF0, 0x96, 0x30, 0x00}));
  ASSERT_TRUE(values.ok()) << values.status().ToString();
  EXPECT_EQ(*values, (std::vector<double>{123, 456, 789, 12}));
}

TEST(AlpSpecTest, FloatVectorLayout) {
  // FLOAT: 5-byte ForInfo (int32 frame). 0.5, 1.25, -2.0 with e=2, f=0: 50, 125, -200.
  const std::vector<uint8_t> vector = {2, 0, 0, 0, 0x38, 0xFF, 0xFF, 0xFF, 9,  // frame -200, 9 bits
                                       0xFA, 0x8A, 0x02, 0x00};                // [250, 325, 0] at 9 bits
  auto values = Decode<float>(Page(3, 3, {4}, vector));
  ASSERT_TRUE(values.ok()) << values.status().ToString();
  EXPECT_EQ(*values, (std::vector<float>{0.5f, 1.25f, -2.0f}));
}

// ---- hostile pages -----------------------------------------------------------------------------

void ExpectCorrupt(const std::vector<uint8_t>& page, const std::string& message) {
  auto got = Decode<double>(page);
  ASSERT_FALSE(got.ok()) << "accepted: " << message;
  EXPECT_TRUE(got.status().IsCorrupt() || got.status().IsNotImplemented()) << got.status().ToString();
  EXPECT_NE(got.status().message().find(message), std::string::npos) << got.status().ToString();
}

TEST(AlpHostileTest, EveryHeaderFieldOffsetAndCountIsChecked) {
  const auto good = Page(10, 4, {4}, kWorkedExampleVector);
  ASSERT_TRUE(Decode<double>(good).ok());
  auto with = [&](size_t at, uint8_t byte) {
    auto page = good;
    page[at] = byte;
    return page;
  };
  ExpectCorrupt({0, 0, 10, 4}, "4 bytes, shorter than the 7-byte header");
  ExpectCorrupt(with(0, 1), "compression mode 1 is not supported");
  ExpectCorrupt(with(1, 2), "integer encoding 2 (must be 0");
  ExpectCorrupt(with(2, 2), "log_vector_size 2 outside [3, 15]");
  ExpectCorrupt(with(2, 16), "log_vector_size 16 outside [3, 15]");
  ExpectCorrupt(with(6, 0x80), "num_elements -2147483644 is negative");
  ExpectCorrupt(with(4, 0x10), "need at least");  // 4100 values: 5 vectors do not fit
  ExpectCorrupt(with(7, 0), "vector 0 offset 0 points into the 4-byte offset array");
  ExpectCorrupt(with(8, 0x23), "vector 0 offset 8964 beyond page of 42 bytes");
  ExpectCorrupt(with(11, 19), "vector 0 exponent 19 (at most 18 for DOUBLE)");
  ExpectCorrupt(with(12, 5), "vector 0 factor 5 exceeds its exponent 4");
  ExpectCorrupt(with(13, 5), "vector 0 declares 5 exceptions in 4 values");
  ExpectCorrupt(with(23, 65), "vector 0 bit width 65 (at most 64 for DOUBLE)");
  ExpectCorrupt(with(23, 40), "vector 0 at offset 4 needs 43 bytes (4 values of 40 bits, 1 exceptions) but the page has 42");
  ExpectCorrupt(with(13, 2), "needs 41 bytes");
  ExpectCorrupt(with(32, 4), "vector 0 has an exception at position 4 of its 4 values");
  auto truncated = good;
  truncated.pop_back();
  ExpectCorrupt(truncated, "but the page has 41");

  // A second vector whose offset lies beyond the page; float's exponent limit is 10.
  // 9 values in vectors of 8: vector 0 holds 8 values, more than the example's bytes carry.
  const auto two = Page(3, 9, {8, 8 + 31}, kWorkedExampleVector);
  ExpectCorrupt(two, "vector 0 at offset 8 needs 38 bytes");
  auto floats = Page(3, 1, {4}, {11, 0, 0, 0, 0, 0, 0, 0, 0});
  AlpDecoder<float> decoder(Pool());
  Status st = decoder.SetData(floats.data(), static_cast<int64_t>(floats.size()));
  EXPECT_NE(st.message().find("vector 0 exponent 11 (at most 10 for FLOAT)"), std::string::npos) << st.ToString();
  floats[11] = 0;     // a valid exponent, and a bit width too wide for FLOAT
  floats.back() = 33;
  st = decoder.SetData(floats.data(), static_cast<int64_t>(floats.size()));
  EXPECT_NE(st.message().find("bit width 33 (at most 32 for FLOAT)"), std::string::npos) << st.ToString();
}

TEST(AlpHostileTest, OffsetsBeyondThePageNameTheVector) {
  // 16 values in vectors of 8: two vectors, the second's offset far past the end.
  std::vector<uint8_t> vectors(2 * 13, 0);
  auto page = Page(3, 16, {8, 9000}, vectors);
  ExpectCorrupt(page, "vector 1 offset 9000 beyond page of 41 bytes");
}

TEST(AlpHostileTest, GarbageNeverCrashes) {
  std::mt19937 rng(99);
  std::vector<double> out(40000);
  std::vector<float> out_float(40000);
  for (int iter = 0; iter < 20000; ++iter) {
    std::vector<uint8_t> junk(1 + rng() % 120);
    for (auto& b : junk) b = static_cast<uint8_t>(rng() % 4 == 0 ? rng() % 16 : rng());
    if (junk.size() > 11 && iter % 2 == 0) {  // a plausible header and first offset
      junk[0] = 0;
      junk[1] = 0;
      junk[2] = static_cast<uint8_t>(3 + rng() % 13);
      junk[5] = junk[6] = 0;
      junk[7] = 4;
      junk[8] = junk[9] = junk[10] = 0;
    }
    const auto size = static_cast<int64_t>(junk.size());
    AlpDecoder<double> d(Pool());
    if (d.SetData(junk.data(), size).ok()) {
      auto r = d.Decode(out.data(), 40000);
      if (!r.ok()) {
        EXPECT_TRUE(r.status().IsCorrupt()) << r.status().ToString();
      }
    }
    AlpDecoder<float> f(Pool());
    if (f.SetData(junk.data(), size).ok()) {
      auto r = f.Decode(out_float.data(), 40000);
      if (!r.ok()) {
        EXPECT_TRUE(r.status().IsCorrupt()) << r.status().ToString();
      }
    }
  }
}

TEST(AlpEncoderTest, RefusesBadParameters) {
  AlpEncoder<double> encoder(Pool(), 16);
  ResizableBuffer out(Pool());
  double v = 1;
  EXPECT_TRUE(encoder.Encode(&v, 1, &out).IsInvalid());
  AlpEncoder<double> ok(Pool());
  EXPECT_TRUE(ok.Encode(&v, -1, &out).IsInvalid());
}

}  // namespace
}  // namespace strata::parquet
