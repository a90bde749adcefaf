// Inputs shared by the codec tests and benchmark: byte patterns resembling column data.
#pragma once

#include <cstdint>
#include <cstring>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "strata/codec/codec.h"

namespace strata::codec::testing {

// Incompressible bytes.
inline std::vector<uint8_t> RandomBytes(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<uint8_t> bytes(n);
  for (auto& b : bytes) b = static_cast<uint8_t>(rng());
  return bytes;
}

// A short phrase repeated: the best case for every codec.
inline std::vector<uint8_t> RepetitiveBytes(size_t n) {
  static constexpr char kPhrase[] = "strata columnar data ";
  std::vector<uint8_t> bytes(n);
  for (size_t i = 0; i < n; ++i) bytes[i] = static_cast<uint8_t>(kPhrase[i % (sizeof(kPhrase) - 1)]);
  return bytes;
}

// Little-endian int64 values as a PLAIN page holds them: a slowly rising sequence with noise
// (ids, timestamps).
inline std::vector<uint8_t> Int64Sequence(size_t n_bytes, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<uint8_t> bytes(n_bytes);
  int64_t value = 1'700'000'000'000;
  for (size_t i = 0; i + 8 <= n_bytes; i += 8) {
    value += 1 + static_cast<int64_t>(rng() % 1000);
    std::memcpy(bytes.data() + i, &value, 8);
  }
  return bytes;
}

// PLAIN BYTE_ARRAY values: a 4-byte length then a short word from a small vocabulary
// (names, categories, comments).
inline std::vector<uint8_t> ShortStrings(size_t n_bytes, uint32_t seed) {
  static const char* kWords[] = {"alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf",
                                 "hotel", "india", "juliett", "kilo", "lima", "mike", "november"};
  std::mt19937 rng(seed);
  std::vector<uint8_t> bytes;
  bytes.reserve(n_bytes + 32);
  while (bytes.size() < n_bytes) {
    std::string word = kWords[rng() % 14];
    word += std::to_string(rng() % 100);
    const uint32_t length = static_cast<uint32_t>(word.size());
    const uint8_t* p = reinterpret_cast<const uint8_t*>(&length);
    bytes.insert(bytes.end(), p, p + 4);
    bytes.insert(bytes.end(), word.begin(), word.end());
  }
  bytes.resize(n_bytes);
  return bytes;
}

inline std::span<const uint8_t> AsBytes(std::string_view s) {
  return {reinterpret_cast<const uint8_t*>(s.data()), s.size()};
}

// Every codec of the format.
inline constexpr CompressionCodec kAllCodecs[] = {
    CompressionCodec::kUncompressed, CompressionCodec::kSnappy, CompressionCodec::kGzip,
    CompressionCodec::kLzo,          CompressionCodec::kBrotli, CompressionCodec::kLz4,
    CompressionCodec::kZstd,         CompressionCodec::kLz4Raw};

}  // namespace strata::codec::testing
