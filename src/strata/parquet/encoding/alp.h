// ALP, Adaptive Lossless floating-Point (Encodings.md "ALP = 10", AlpEncoding.md) for FLOAT and
// DOUBLE: each value becomes the integer round(v * 10^e * 10^-f), stored frame-of-reference
// bit-packed per vector of 2^log_vector_size values; values that do not decode back to their
// exact bits are stored verbatim as exceptions. Page layout: a 7-byte header (compression mode,
// integer encoding, log_vector_size, num_elements), one uint32 offset per vector, then the
// vectors (AlpInfo, ForInfo, packed deltas, exception positions, exception values).
#pragma once

#include <cstdint>
#include <type_traits>

#include "strata/memory/buffer.h"
#include "strata/util/result.h"

namespace strata::parquet {

inline constexpr int kAlpHeaderBytes = 7;
inline constexpr int kAlpMinLogVectorSize = 3;
inline constexpr int kAlpMaxLogVectorSize = 15;
inline constexpr int kAlpDefaultLogVectorSize = 10;  // 1024 values, the spec's recommendation

// T is float or double. Counts are in values (non-null values; the page stores no nulls). The
// span given to SetData() is not copied and must stay alive while decoding; scratch (one vector
// of deltas, one decoded vector for reads that end inside a vector) comes from `pool`.
template <typename T>
class AlpDecoder {
  static_assert(std::is_same_v<T, float> || std::is_same_v<T, double>);

 public:
  explicit AlpDecoder(MemoryPool* pool) : deltas_(pool), buffered_(pool) {}

  // Parses the header and checks every vector's offset, header fields and section sizes
  // against the page before anything is allocated or decoded, so Decode() only has to check
  // exception positions. Corrupt names the field, the vector and the sizes involved;
  // NotImplemented for a compression mode other than 0 (ALP-RD and later variants).
  Status SetData(const uint8_t* data, int64_t size, int64_t base_offset = 0);

  // Decodes up to `count` values; returns how many (fewer only when the values run out).
  // Whole vectors decode straight into `out`; a read that ends inside a vector decodes it into
  // scratch and serves the rest of it from there.
  Result<int64_t> Decode(T* out, int64_t count);
  // Vectors are independent, so skipping is O(1).
  Result<int64_t> Skip(int64_t count);

  int64_t total_values() const { return num_values_; }
  int64_t values_left() const { return num_values_ - position_; }
  int log_vector_size() const { return log_vector_size_; }
  // Pool bytes held.
  int64_t memory_size() const { return deltas_.capacity() + buffered_.capacity(); }

 private:
  using U = std::conditional_t<std::is_same_v<T, float>, uint32_t, uint64_t>;

  int64_t VectorLength(int64_t index) const {
    return index + 1 < num_vectors_ ? vector_size_ : num_values_ - index * vector_size_;
  }
  const uint8_t* VectorStart(int64_t index) const;
  // Decodes vector `index` (all VectorLength(index) values) into out.
  Status DecodeVector(int64_t index, T* out);

  const uint8_t* data_ = nullptr;
  int64_t size_ = 0;
  int64_t base_offset_ = 0;
  int log_vector_size_ = kAlpDefaultLogVectorSize;
  int64_t vector_size_ = 0;
  int64_t num_values_ = 0;
  int64_t num_vectors_ = 0;
  int64_t position_ = 0;  // values consumed
  ResizableBuffer deltas_;
  ResizableBuffer buffered_;
  int64_t buffered_vector_ = -1;  // the vector held in buffered_, or -1
};

// Encodes pages of float or double values. The (exponent, factor) candidates (the "preset",
// at most 5) are sampled from up to 8 vectors of a page, 256 values each, over every valid
// combination, at the first page and again after every 100 vectors of values; each vector then
// picks the candidate with the smallest estimated size on 32 of its values. A vector whose
// packed range would cost more than storing every value verbatim stores them all as
// exceptions. Scratch for one vector is reused from page to page.
template <typename T>
class AlpEncoder {
  static_assert(std::is_same_v<T, float> || std::is_same_v<T, double>);

 public:
  explicit AlpEncoder(MemoryPool* pool, int log_vector_size = kAlpDefaultLogVectorSize)
      : log_vector_size_(log_vector_size), encoded_(pool), positions_(pool) {}

  // Appends the ALP page of values[0, count) to `out`. Invalid when count exceeds INT32_MAX or
  // the log vector size is outside [3, 15].
  Status Encode(const T* values, int64_t count, ResizableBuffer* out);

  int64_t memory_size() const { return encoded_.capacity() + positions_.capacity(); }

 private:
  using U = std::conditional_t<std::is_same_v<T, float>, uint32_t, uint64_t>;
  struct Combination {
    uint8_t exponent = 0;
    uint8_t factor = 0;
  };

  void ChoosePreset(const T* values, int64_t count);
  Combination ChooseForVector(const T* values, int64_t n) const;
  Status EncodeVector(const T* values, int64_t n, Combination combination, ResizableBuffer* out);

  int log_vector_size_;
  Combination preset_[5];
  int preset_size_ = 0;
  int64_t values_since_preset_ = 0;
  ResizableBuffer encoded_;    // one vector's integers (U), then its deltas
  ResizableBuffer positions_;  // one vector's exception flags, then positions (uint16)
};

extern template class AlpDecoder<float>;
extern template class AlpDecoder<double>;
extern template class AlpEncoder<float>;
extern template class AlpEncoder<double>;

}  // namespace strata::parquet
