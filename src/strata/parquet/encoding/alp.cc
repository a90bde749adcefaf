#include "strata/parquet/encoding/alp.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>

#include "strata/util/bit_unpack.h"
#include "strata/util/bit_util.h"

namespace strata::parquet {

namespace {

// Per-type constants and the per-value kernels. The powers of ten are the compiler's
// correctly rounded decimal literals, as the spec requires (never pow()); decoding multiplies
// by 10^f and then by 10^-e, in that order, in the value's own precision.
template <typename T>
struct Alp;

template <>
struct Alp<double> {
  using S = int64_t;
  using U = uint64_t;
  static constexpr int kMaxExponent = 18;
  static constexpr int kForInfoBytes = 9;
  static constexpr const char* kName = "DOUBLE";
  static constexpr double kPow10[19] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8, 1e9,
                                        1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18};
  static constexpr double kNegPow10[19] = {1e0,   1e-1,  1e-2,  1e-3,  1e-4,  1e-5,  1e-6,
                                           1e-7,  1e-8,  1e-9,  1e-10, 1e-11, 1e-12, 1e-13,
                                           1e-14, 1e-15, 1e-16, 1e-17, 1e-18};
  // 2^52 + 2^51: for |x| < 2^51, x + kMagic lands in [2^52, 2^53), where doubles are the
  // integers, so the addition rounds x to nearest-even and the integer is the low mantissa
  // bits: bits(x + kMagic) - bits(kMagic). The reverse turns an integer in that range into a
  // double exactly. Both are 64-bit lane operations, where an int64 <-> double conversion has
  // no vector instruction before AVX-512.
  static constexpr double kMagic = 6755399441055744.0;
  static constexpr double kRoundLimit = 2251799813685248.0;  // 2^51
  static constexpr S kRoundLimitInt = S{1} << 51;

  // The integer for v under (e, f), and in *exception whether decoding it does not give back
  // v's exact bits (NaN, infinities, -0.0, |scaled| >= 2^51, or digits beyond 10^-e).
  // Selections are bit masks, not branches, so loops over it vectorise.
  static U EncodeOne(double v, double pe, double nf, double pf, double ne, U* exception) {
    const double x = v * pe * nf;
    const U in_range = U{0} - static_cast<U>(std::fabs(x) < kRoundLimit);  // 0 for NaN, infinities
    const double r = x + kMagic;
    const U k = (std::bit_cast<U>(r) - std::bit_cast<U>(kMagic)) & in_range;
    // == static_cast<double>(S(k)), exactly (0.0 out of range).
    const double k_value = std::bit_cast<double>(std::bit_cast<U>(r - kMagic) & in_range);
    const double back = k_value * pf * ne;
    // Bits differ exactly when the values compare unequal (NaN included) or only the sign of a
    // zero differs. No 64-bit integer compare: GCC vectorises this loop from SSE4.2 on (the
    // x86-64 baseline build keeps it scalar; the float kernel vectorises there too).
    *exception = static_cast<U>(!(back == v)) | ((std::bit_cast<U>(back) ^ std::bit_cast<U>(v)) >> 63);
    return k;
  }

  static void DecodeDeltas(const U* deltas, int64_t n, U frame, int width, double pf, double ne, double* out) {
    const S low = static_cast<S>(frame);
    if (width <= 51 && low > -kRoundLimitInt && low < kRoundLimitInt - ((S{1} << width) - 1)) {
      // Every integer of the vector is within +-2^51: the magic-number conversion, which
      // vectorises (7.2-7.4 GB/s against 4.1-5.4 GB/s with static_cast, alp_benchmark decode).
      const U magic_bits = std::bit_cast<U>(kMagic) + frame;
      for (int64_t i = 0; i < n; ++i) {
        out[i] = (std::bit_cast<double>(deltas[i] + magic_bits) - kMagic) * pf * ne;
      }
    } else {
      for (int64_t i = 0; i < n; ++i) out[i] = static_cast<double>(static_cast<S>(deltas[i] + frame)) * pf * ne;
    }
  }
  static double DecodeOne(U k, double pf, double ne) { return static_cast<double>(static_cast<S>(k)) * pf * ne; }
  static void Unpack(const uint8_t* in, U* out, int64_t n, int width, int64_t readable) {
    bit_util::Unpack64(in, out, n, width, readable);
  }
  static void Pack(const U* in, int64_t n, int width, uint8_t* out) { bit_util::Pack64(in, n, width, out); }
};

template <>
struct Alp<float> {
  using S = int32_t;
  using U = uint32_t;
  static constexpr int kMaxExponent = 10;
  static constexpr int kForInfoBytes = 5;
  static constexpr const char* kName = "FLOAT";
  static constexpr float kPow10[11] = {1e0f, 1e1f, 1e2f, 1e3f, 1e4f, 1e5f, 1e6f, 1e7f, 1e8f, 1e9f, 1e10f};
  static constexpr float kNegPow10[11] = {1e0f,  1e-1f, 1e-2f, 1e-3f, 1e-4f, 1e-5f,
                                          1e-6f, 1e-7f, 1e-8f, 1e-9f, 1e-10f};
  // 2^23 + 2^22: (x + kMagic) - kMagic rounds |x| < 2^22 to nearest-even; int32 <-> float
  // conversions are SSE2 lane operations, so floats convert directly.
  static constexpr float kMagic = 12582912.0f;
  static constexpr float kRoundLimit = 4194304.0f;  // 2^22; from 2^23 on every float is an integer
  static constexpr float kInt32Limit = 2147483648.0f;

  static U EncodeOne(float v, float pe, float nf, float pf, float ne, U* exception) {
    const float x = v * pe * nf;
    const U rounds = U{0} - static_cast<U>(std::fabs(x) < kRoundLimit);
    // In [2^22, 2^23) a .5 survives the truncation below and fails the check.
    const float r = std::bit_cast<float>((std::bit_cast<U>((x + kMagic) - kMagic) & rounds) |
                                         (std::bit_cast<U>(x) & ~rounds));
    const U in_range = U{0} - static_cast<U>(std::fabs(r) < kInt32Limit);  // 0 for NaN, infinities
    const S k = static_cast<S>(std::bit_cast<float>(std::bit_cast<U>(r) & in_range));
    const float back = static_cast<float>(k) * pf * ne;
    *exception = static_cast<U>((std::bit_cast<U>(back) ^ std::bit_cast<U>(v)) != 0);
    return static_cast<U>(k);
  }
  static void DecodeDeltas(const U* deltas, int64_t n, U frame, int, float pf, float ne, float* out) {
    for (int64_t i = 0; i < n; ++i) out[i] = static_cast<float>(static_cast<S>(deltas[i] + frame)) * pf * ne;
  }
  static float DecodeOne(U k, float pf, float ne) { return static_cast<float>(static_cast<S>(k)) * pf * ne; }
  static void Unpack(const uint8_t* in, U* out, int64_t n, int width, int64_t readable) {
    bit_util::Unpack32(in, out, n, width, readable);
  }
  static void Pack(const U* in, int64_t n, int width, uint8_t* out) { bit_util::Pack32(in, n, width, out); }
};

template <typename T>
constexpr int kVectorHeaderBytes = 4 + Alp<T>::kForInfoBytes;  // AlpInfo + ForInfo

// The encoder's positions_ scratch: n + 1 uint16 positions, then (8-byte aligned) n flags.
constexpr int64_t FlagsOffset(int64_t n) { return (2 * (n + 1) + 7) / 8 * 8; }

template <typename V>
V Load(const uint8_t* p) {
  V v;
  std::memcpy(&v, p, sizeof(V));  // little-endian on every platform strata builds for
  return v;
}
template <typename V>
void Store(uint8_t* p, V v) {
  std::memcpy(p, &v, sizeof(V));
}

// Estimated encoded bits of `n` sample values under (e, f): the packed width of the
// non-exceptions' range plus the exceptions' position and value bits.
template <typename T>
int64_t EstimateBits(const T* sample, int64_t n, int e, int f) {
  using A = Alp<T>;
  using S = typename A::S;
  using U = typename A::U;
  const T pe = A::kPow10[e], nf = A::kNegPow10[f], pf = A::kPow10[f], ne = A::kNegPow10[e];
  S low = std::numeric_limits<S>::max();
  S high = std::numeric_limits<S>::min();
  int64_t exceptions = 0;
  for (int64_t i = 0; i < n; ++i) {
    U exception;
    const S k = static_cast<S>(A::EncodeOne(sample[i], pe, nf, pf, ne, &exception));
    exceptions += exception;
    low = exception ? low : std::min(low, k);
    high = exception ? high : std::max(high, k);
  }
  constexpr int64_t kExceptionBits = 8 * static_cast<int64_t>(sizeof(T)) + 16;
  if (exceptions == n) return n * kExceptionBits;
  const int width = std::bit_width(static_cast<U>(static_cast<U>(high) - static_cast<U>(low)));
  return n * width + exceptions * kExceptionBits;
}

}  // namespace

// ---- decoding -----------------------------------------------------------------------------------

template <typename T>
Status AlpDecoder<T>::SetData(const uint8_t* data, int64_t size, int64_t base_offset) {
  using A = Alp<T>;
  constexpr int kHeader = kVectorHeaderBytes<T>;
  data_ = data;
  size_ = std::max<int64_t>(size, 0);
  base_offset_ = base_offset;
  position_ = 0;
  num_values_ = 0;
  num_vectors_ = 0;
  buffered_vector_ = -1;
  if (size_ < kAlpHeaderBytes) {
    return Status::Corrupt("ALP page at offset {}: {} bytes, shorter than the 7-byte header", base_offset, size_);
  }
  const int compression_mode = data[0];
  const int integer_encoding = data[1];
  const int log_vector_size = data[2];
  const int32_t num_elements = Load<int32_t>(data + 3);
  if (compression_mode != 0) {
    return Status::NotImplemented("ALP page at offset {}: compression mode {} is not supported (only 0, ALP)",
                                  base_offset, compression_mode);
  }
  if (integer_encoding != 0) {
    return Status::Corrupt("ALP page at offset {}: integer encoding {} (must be 0, FOR + bit-packing)", base_offset,
                           integer_encoding);
  }
  if (log_vector_size < kAlpMinLogVectorSize || log_vector_size > kAlpMaxLogVectorSize) {
    return Status::Corrupt("ALP page at offset {}: log_vector_size {} outside [{}, {}]", base_offset,
                           log_vector_size, kAlpMinLogVectorSize, kAlpMaxLogVectorSize);
  }
  if (num_elements < 0) {
    return Status::Corrupt("ALP page at offset {}: num_elements {} is negative", base_offset, num_elements);
  }
  const int64_t vector_size = int64_t{1} << log_vector_size;
  const int64_t num_vectors = (num_elements + vector_size - 1) >> log_vector_size;
  // Each vector needs its offset and its header whatever its contents: check the count
  // against the page before reading any offset.
  const int64_t least = kAlpHeaderBytes + num_vectors * (4 + kHeader);
  if (least > size_) {
    return Status::Corrupt("ALP page at offset {}: {} values in vectors of {} make {} vectors, which need at least {} bytes, but the page has {}",
                           base_offset, num_elements, vector_size, num_vectors, least, size_);
  }
  log_vector_size_ = log_vector_size;
  vector_size_ = vector_size;
  num_values_ = num_elements;
  num_vectors_ = num_vectors;
  // Every vector is checked here, once per page, so decoding reads without bounds checks.
  // Offsets need not chain exactly (the spec's writers leave no gaps, but a gap is harmless):
  // what matters is that each vector lies inside the page.
  const int64_t offsets_bytes = num_vectors * 4;
  for (int64_t v = 0; v < num_vectors; ++v) {
    const int64_t offset = Load<uint32_t>(data + kAlpHeaderBytes + 4 * v);
    if (offset < offsets_bytes) {
      num_values_ = num_vectors_ = 0;
      return Status::Corrupt("ALP page at offset {}: vector {} offset {} points into the {}-byte offset array",
                             base_offset, v, offset, offsets_bytes);
    }
    const int64_t start = kAlpHeaderBytes + offset;
    if (start + kHeader > size_) {
      num_values_ = num_vectors_ = 0;
      return Status::Corrupt("ALP page at offset {}: vector {} offset {} beyond page of {} bytes", base_offset, v,
                             offset, size_);
    }
    const uint8_t* p = data + start;
    const int exponent = p[0];
    const int factor = p[1];
    const int64_t exceptions = Load<uint16_t>(p + 2);
    const int width = p[kHeader - 1];
    const int64_t length = VectorLength(v);
    Status bad;
    if (exponent > A::kMaxExponent) {
      bad = Status::Corrupt("ALP page at offset {}: vector {} exponent {} (at most {} for {})", base_offset, v,
                            exponent, A::kMaxExponent, A::kName);
    } else if (factor > exponent) {
      bad = Status::Corrupt("ALP page at offset {}: vector {} factor {} exceeds its exponent {}", base_offset, v,
                            factor, exponent);
    } else if (width > 8 * static_cast<int>(sizeof(T))) {
      bad = Status::Corrupt("ALP page at offset {}: vector {} bit width {} (at most {} for {})", base_offset, v,
                            width, 8 * sizeof(T), A::kName);
    } else if (exceptions > length) {
      bad = Status::Corrupt("ALP page at offset {}: vector {} declares {} exceptions in {} values", base_offset, v,
                            exceptions, length);
    } else {
      const int64_t needed = kHeader + bit_util::BytesForBits(length * width) +
                             exceptions * (2 + static_cast<int64_t>(sizeof(T)));
      if (start + needed > size_) {
        bad = Status::Corrupt("ALP page at offset {}: vector {} at offset {} needs {} bytes ({} values of {} bits, {} exceptions) but the page has {}",
                              base_offset, v, offset, needed, length, width, exceptions, size_);
      }
    }
    if (!bad.ok()) {
      num_values_ = num_vectors_ = 0;
      return bad;
    }
  }
  return deltas_.ReserveScratch(std::min(vector_size_, num_values_) * static_cast<int64_t>(sizeof(U)));
}

template <typename T>
const uint8_t* AlpDecoder<T>::VectorStart(int64_t index) const {
  return data_ + kAlpHeaderBytes + Load<uint32_t>(data_ + kAlpHeaderBytes + 4 * index);
}

template <typename T>
Status AlpDecoder<T>::DecodeVector(int64_t index, T* out) {
  using A = Alp<T>;
  using S = typename A::S;
  const uint8_t* p = VectorStart(index);
  const int64_t length = VectorLength(index);
  const int exponent = p[0];
  const int factor = p[1];
  const int64_t exceptions = Load<uint16_t>(p + 2);
  const U frame = static_cast<U>(Load<S>(p + 4));
  const int width = p[4 + sizeof(S)];
  const uint8_t* packed = p + kVectorHeaderBytes<T>;
  const T pf = A::kPow10[factor];
  const T ne = A::kNegPow10[exponent];
  if (width == 0) {
    const T value = A::DecodeOne(frame, pf, ne);
    std::fill(out, out + length, value);
  } else {
    U* deltas = deltas_.mutable_data_as<U>();
    A::Unpack(packed, deltas, length, width, data_ + size_ - packed);
    A::DecodeDeltas(deltas, length, frame, width, pf, ne, out);
  }
  if (exceptions > 0) {
    const uint8_t* positions = packed + bit_util::BytesForBits(length * width);
    const uint8_t* values = positions + 2 * exceptions;
    uint16_t last = 0;
    for (int64_t j = 0; j < exceptions; ++j) last = std::max(last, Load<uint16_t>(positions + 2 * j));
    if (last >= length) {
      return Status::Corrupt("ALP page at offset {}: vector {} has an exception at position {} of its {} values",
                             base_offset_, index, last, length);
    }
    for (int64_t j = 0; j < exceptions; ++j) {
      // The stored bits, unchanged (NaN payloads included).
      std::memcpy(out + Load<uint16_t>(positions + 2 * j), values + j * sizeof(T), sizeof(T));
    }
  }
  return Status::OK();
}

template <typename T>
Result<int64_t> AlpDecoder<T>::Decode(T* out, int64_t count) {
  const int64_t n = std::clamp<int64_t>(count, 0, values_left());
  int64_t done = 0;
  while (done < n) {
    const int64_t vector = position_ >> log_vector_size_;
    const int64_t within = position_ - (vector << log_vector_size_);
    const int64_t length = VectorLength(vector);
    if (within == 0 && n - done >= length) {
      STRATA_RETURN_NOT_OK(DecodeVector(vector, out + done));
      done += length;
      position_ += length;
      continue;
    }
    if (buffered_vector_ != vector) {
      STRATA_RETURN_NOT_OK(buffered_.ReserveScratch(vector_size_ * static_cast<int64_t>(sizeof(T))));
      buffered_vector_ = -1;
      STRATA_RETURN_NOT_OK(DecodeVector(vector, buffered_.mutable_data_as<T>()));
      buffered_vector_ = vector;
    }
    const int64_t k = std::min(length - within, n - done);
    std::memcpy(out + done, buffered_.data_as<T>() + within, static_cast<size_t>(k) * sizeof(T));
    done += k;
    position_ += k;
  }
  return n;
}

template <typename T>
Result<int64_t> AlpDecoder<T>::Skip(int64_t count) {
  const int64_t n = std::clamp<int64_t>(count, 0, values_left());
  position_ += n;
  return n;
}

// ---- encoding -----------------------------------------------------------------------------------

template <typename T>
void AlpEncoder<T>::ChoosePreset(const T* values, int64_t count) {
  using A = Alp<T>;
  constexpr int kSampleVectors = 8;
  constexpr int64_t kSamplesPerVector = 256;
  const int64_t vector_size = int64_t{1} << log_vector_size_;
  const int64_t num_vectors = (count + vector_size - 1) / vector_size;
  const int64_t sampled = std::min<int64_t>(kSampleVectors, num_vectors);
  struct Tally {
    Combination combination;
    int wins = 0;
    int64_t bits = 0;
  };
  Tally tallies[kSampleVectors];
  int num_tallies = 0;
  T sample[kSamplesPerVector];
  for (int64_t j = 0; j < sampled; ++j) {
    const int64_t start = (j * num_vectors / sampled) * vector_size;
    const int64_t length = std::min(vector_size, count - start);
    const int64_t step = std::max<int64_t>(1, length / kSamplesPerVector);
    int64_t m = 0;
    for (int64_t i = 0; i < length && m < kSamplesPerVector; i += step) sample[m++] = values[start + i];
    // Every valid combination; on a tie the larger exponent (and factor) found first stays.
    Combination best;
    int64_t best_bits = std::numeric_limits<int64_t>::max();
    for (int e = A::kMaxExponent; e >= 0; --e) {
      for (int f = e; f >= 0; --f) {
        const int64_t bits = EstimateBits(sample, m, e, f);
        if (bits < best_bits) {
          best_bits = bits;
          best = {static_cast<uint8_t>(e), static_cast<uint8_t>(f)};
        }
      }
    }
    int t = 0;
    while (t < num_tallies && (tallies[t].combination.exponent != best.exponent ||
                               tallies[t].combination.factor != best.factor)) {
      ++t;
    }
    if (t == num_tallies) tallies[num_tallies++].combination = best;
    ++tallies[t].wins;
    tallies[t].bits += best_bits;
  }
  // The combinations that won most often (then the smallest), at most 5.
  // (An insertion sort: at most 8 entries, and std::sort trips GCC 12's -Warray-bounds here.)
  for (int i = 1; i < num_tallies; ++i) {
    for (int j = i; j > 0; --j) {
      const Tally& a = tallies[j];
      const Tally& b = tallies[j - 1];
      if (a.wins < b.wins || (a.wins == b.wins && a.bits >= b.bits)) break;
      std::swap(tallies[j], tallies[j - 1]);
    }
  }
  preset_size_ = std::min(num_tallies, 5);
  for (int i = 0; i < preset_size_; ++i) preset_[i] = tallies[i].combination;
}

template <typename T>
typename AlpEncoder<T>::Combination AlpEncoder<T>::ChooseForVector(const T* values, int64_t n) const {
  if (preset_size_ == 1) return preset_[0];
  constexpr int64_t kSamples = 32;
  T sample[kSamples];
  const int64_t step = std::max<int64_t>(1, n / kSamples);
  int64_t m = 0;
  for (int64_t i = 0; i < n && m < kSamples; i += step) sample[m++] = values[i];
  Combination best = preset_[0];
  int64_t best_bits = EstimateBits(sample, m, best.exponent, best.factor);
  for (int c = 1; c < preset_size_; ++c) {
    const int64_t bits = EstimateBits(sample, m, preset_[c].exponent, preset_[c].factor);
    if (bits < best_bits) {
      best_bits = bits;
      best = preset_[c];
    }
  }
  return best;
}

template <typename T>
Status AlpEncoder<T>::EncodeVector(const T* values, int64_t n, Combination combination, ResizableBuffer* out) {
  using A = Alp<T>;
  using S = typename A::S;
  const int e = combination.exponent;
  const int f = combination.factor;
  const T pe = A::kPow10[e], nf = A::kNegPow10[f], pf = A::kPow10[f], ne = A::kNegPow10[e];
  U* encoded = encoded_.mutable_data_as<U>();
  uint16_t* positions = positions_.mutable_data_as<uint16_t>();
  // Exception flags as wide as the values, so the pass below stays in one lane width.
  U* flags = reinterpret_cast<U*>(positions_.mutable_data() + FlagsOffset(n));
  // One branch-free pass: the integers and which values are exceptions.
  int64_t exceptions = 0;
  for (int64_t i = 0; i < n; ++i) {
    encoded[i] = A::EncodeOne(values[i], pe, nf, pf, ne, &flags[i]);
    exceptions += flags[i];
  }
  if (exceptions > 0) {
    int64_t m = 0;
    for (int64_t i = 0; i < n; ++i) {
      positions[m] = static_cast<uint16_t>(i);  // kept only where flags[i] (positions has n + 1 slots)
      m += flags[i];
    }
    // Exceptions take the first non-exception's integer, so they do not widen the range.
    int64_t first = 0;
    while (first < n && flags[first]) ++first;
    const U placeholder = first < n ? encoded[first] : 0;
    for (int64_t j = 0; j < exceptions; ++j) encoded[positions[j]] = placeholder;
  }
  S low = static_cast<S>(encoded[0]);
  S high = low;
  for (int64_t i = 1; i < n; ++i) {
    low = std::min(low, static_cast<S>(encoded[i]));
    high = std::max(high, static_cast<S>(encoded[i]));
  }
  int width = std::bit_width(static_cast<U>(static_cast<U>(high) - static_cast<U>(low)));
  // A few values that happen to round-trip can spread over most of the integer range (random
  // doubles under a large exponent): storing every value as an exception is then smaller, and
  // bounds a vector at sizeof(T) + 2 bytes a value. (Any value may be an exception: decoding
  // patches whatever the packed integer gave.)
  constexpr int64_t kExceptionBits = 8 * static_cast<int64_t>(sizeof(T)) + 16;
  if (n * width + exceptions * kExceptionBits > n * kExceptionBits) {
    for (int64_t i = 0; i < n; ++i) positions[i] = static_cast<uint16_t>(i);
    exceptions = n;
    low = high = 0;
    width = 0;
  }
  // Deltas in unsigned arithmetic: the range may exceed the signed maximum.
  const U frame = static_cast<U>(low);
  for (int64_t i = 0; i < n; ++i) encoded[i] -= frame;

  const int64_t packed_bytes = bit_util::BytesForBits(n * width);
  const int64_t bytes = kVectorHeaderBytes<T> + packed_bytes + exceptions * (2 + static_cast<int64_t>(sizeof(T)));
  const int64_t at = out->size();
  STRATA_RETURN_NOT_OK(out->GrowForAppend(at + bytes));
  uint8_t* p = out->mutable_data() + at;
  p[0] = static_cast<uint8_t>(e);
  p[1] = static_cast<uint8_t>(f);
  Store<uint16_t>(p + 2, static_cast<uint16_t>(exceptions));
  Store<S>(p + 4, low);
  p[4 + sizeof(S)] = static_cast<uint8_t>(width);
  p += kVectorHeaderBytes<T>;
  A::Pack(encoded, n, width, p);
  p += packed_bytes;
  for (int64_t j = 0; j < exceptions; ++j) Store<uint16_t>(p + 2 * j, positions[j]);
  p += 2 * exceptions;
  for (int64_t j = 0; j < exceptions; ++j) std::memcpy(p + j * sizeof(T), values + positions[j], sizeof(T));
  out->set_size(at + bytes);
  return Status::OK();
}

template <typename T>
Status AlpEncoder<T>::Encode(const T* values, int64_t count, ResizableBuffer* out) {
  if (log_vector_size_ < kAlpMinLogVectorSize || log_vector_size_ > kAlpMaxLogVectorSize) {
    return Status::Invalid("ALP log vector size {} outside [{}, {}]", log_vector_size_, kAlpMinLogVectorSize,
                           kAlpMaxLogVectorSize);
  }
  if (count < 0 || count > std::numeric_limits<int32_t>::max()) {
    return Status::Invalid("ALP page of {} values (at most 2^31 - 1)", count);
  }
  const int64_t vector_size = int64_t{1} << log_vector_size_;
  const int64_t num_vectors = (count + vector_size - 1) / vector_size;
  const int64_t page_start = out->size();
  const int64_t offsets_start = page_start + kAlpHeaderBytes;
  STRATA_RETURN_NOT_OK(out->GrowForAppend(offsets_start + 4 * num_vectors));
  uint8_t* header = out->mutable_data() + page_start;
  header[0] = 0;  // compression mode: ALP
  header[1] = 0;  // integer encoding: FOR + bit-packing
  header[2] = static_cast<uint8_t>(log_vector_size_);
  Store<int32_t>(header + 3, static_cast<int32_t>(count));
  out->set_size(offsets_start + 4 * num_vectors);
  if (count == 0) return Status::OK();

  const int64_t largest = std::min(vector_size, count);
  STRATA_RETURN_NOT_OK(encoded_.ReserveScratch(largest * static_cast<int64_t>(sizeof(U))));
  STRATA_RETURN_NOT_OK(positions_.ReserveScratch(FlagsOffset(largest) + largest * static_cast<int64_t>(sizeof(U))));
  // The preset is sampled once per 100 vectors (the paper's row group), from the page at hand,
  // not for every page: sampling 190 combinations costs ~20 evaluations a value at the
  // writer's 20000-value pages, 5x the encoding itself.
  if (preset_size_ == 0 || values_since_preset_ >= 100 * vector_size) {
    ChoosePreset(values, count);
    values_since_preset_ = 0;
  }
  values_since_preset_ += count;
  for (int64_t v = 0; v < num_vectors; ++v) {
    const int64_t offset = out->size() - offsets_start;
    if (offset > std::numeric_limits<uint32_t>::max()) {
      return Status::Invalid("ALP page of {} values passes 4 GiB (vector offsets are 32-bit)", count);
    }
    Store<uint32_t>(out->mutable_data() + offsets_start + 4 * v, static_cast<uint32_t>(offset));
    const T* vector = values + v * vector_size;
    const int64_t n = std::min(vector_size, count - v * vector_size);
    STRATA_RETURN_NOT_OK(EncodeVector(vector, n, ChooseForVector(vector, n), out));
  }
  return Status::OK();
}

template class AlpDecoder<float>;
template class AlpDecoder<double>;
template class AlpEncoder<float>;
template class AlpEncoder<double>;

}  // namespace strata::parquet
