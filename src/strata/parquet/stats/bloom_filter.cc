// Parquet's split-block Bloom filter: sizing, xxHash64 of plain-encoded values, block insert and
// probe, and the header + bitset as stored in a file. See bloom_filter.h.
#include "strata/parquet/stats/bloom_filter.h"

#include <xxhash.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstring>
#include <string>

#include "strata/parquet/stats/encrypted_module.h"
#include "strata/parquet/thrift/parquet_types.h"

namespace strata::parquet {

// The bitset is stored as little-endian 32-bit words and used in place.
static_assert(std::endian::native == std::endian::little, "BloomFilter assumes a little-endian host");

namespace {

// BloomFilter.md: one salt per word of a block; bit (key * salt) >> 27 is set in that word.
constexpr uint32_t kSalt[8] = {0x47b6137bU, 0x44974d91U, 0x8824ad5bU, 0xa2b7289dU,
                               0x705495c7U, 0x2df1424bU, 0x9efc4947U, 0x5c6bfb31U};

// BloomFilterHeader union member ids (parquet.thrift): BLOCK, XXHASH, UNCOMPRESSED.
constexpr int16_t kAlgorithmBlock = 1;
constexpr int16_t kHashXxHash = 1;
constexpr int16_t kCompressionUncompressed = 1;

// parquet-mr and Arrow write 15-17 byte headers; one read of this many bytes covers the header
// and, for the smallest filters, the bitset too. A header with unknown fields beyond it gets a
// second read of up to kMaxHeaderBytes.
constexpr int64_t kHeaderReadBytes = 256;
constexpr int64_t kMaxHeaderBytes = 64 * 1024;

// ---- xxHash64 of 4- and 8-byte inputs, inlined ---------------------------------------------------
// XXH64 (xxHash's spec, xxhash_spec.md) for inputs shorter than 32 bytes: no stripes, one lane
// step, then the avalanche. Inlining the fixed lengths makes hashing an int column several times
// faster than a call into libxxhash per value; the tests check it against XXH64 bit for bit.
constexpr uint64_t kPrime64_1 = 0x9E3779B185EBCA87ULL;
constexpr uint64_t kPrime64_2 = 0xC2B2AE3D27D4EB4FULL;
constexpr uint64_t kPrime64_3 = 0x165667B19E3779F9ULL;
constexpr uint64_t kPrime64_4 = 0x85EBCA77C2B2AE63ULL;
constexpr uint64_t kPrime64_5 = 0x27D4EB2F165667C5ULL;

inline uint64_t Avalanche(uint64_t h) {
  h ^= h >> 33;
  h *= kPrime64_2;
  h ^= h >> 29;
  h *= kPrime64_3;
  h ^= h >> 32;
  return h;
}

inline uint64_t XxHash64Of4Bytes(uint32_t lane) {
  uint64_t h = kPrime64_5 + 4;  // seed 0 + PRIME64_5 + length
  h ^= static_cast<uint64_t>(lane) * kPrime64_1;
  h = std::rotl(h, 23) * kPrime64_2 + kPrime64_3;
  return Avalanche(h);
}

inline uint64_t XxHash64Of8Bytes(uint64_t lane) {
  uint64_t h = kPrime64_5 + 8;
  const uint64_t k = std::rotl(lane * kPrime64_2, 31) * kPrime64_1;
  h ^= k;
  h = std::rotl(h, 27) * kPrime64_1 + kPrime64_4;
  return Avalanche(h);
}

// ---- one block: branch-free -------------------------------------------------------------------

// The block is ((hash >> 32) * num_blocks) >> 32: the upper half of the hash scaled to the block
// count (no modulo, uniform for any count).
inline uint32_t BlockIndex(uint64_t hash, uint64_t num_blocks) {
  return static_cast<uint32_t>(((hash >> 32) * num_blocks) >> 32);
}

inline void InsertIntoBlock(uint32_t* block, uint32_t key) {
  for (int i = 0; i < 8; ++i) block[i] |= uint32_t{1} << ((key * kSalt[i]) >> 27);
}

// Accumulates the bits that are missing instead of returning at the first one: eight
// independent word tests the compiler keeps in registers (vectorised under AVX2).
inline bool BlockContains(const uint32_t* block, uint32_t key) {
  uint32_t missing = 0;
  for (int i = 0; i < 8; ++i) missing |= ~block[i] & (uint32_t{1} << ((key * kSalt[i]) >> 27));
  return missing == 0;
}

bool IsPowerOfTwo(int64_t n) { return n > 0 && (n & (n - 1)) == 0; }

BloomFilterHeader MakeHeader(int64_t num_bytes) {
  BloomFilterHeader header;
  header.num_bytes = static_cast<int32_t>(num_bytes);
  header.algorithm = kAlgorithmBlock;
  header.hash = kHashXxHash;
  header.compression = kCompressionUncompressed;
  return header;
}

}  // namespace

// ---- sizing and construction ------------------------------------------------------------------

int64_t BloomFilter::OptimalNumBytes(int64_t ndv, double fpp) {
  if (ndv <= 0 || fpp >= 1.0) return kMinBytes;
  if (!(fpp > 0.0)) return kMaxBytes;
  // log1p keeps precision for tiny fpp, where 1 - fpp^(1/8) rounds to 1 and log() to 0.
  const double bits_per_value = -8.0 / std::log1p(-std::pow(fpp, 1.0 / 8.0));
  const double bytes = static_cast<double>(ndv) * bits_per_value / 8.0;
  if (!(bytes < static_cast<double>(kMaxBytes))) return kMaxBytes;  // also inf and NaN
  const auto rounded = std::bit_ceil(static_cast<uint64_t>(std::ceil(bytes)));
  return std::clamp(static_cast<int64_t>(rounded), kMinBytes, kMaxBytes);
}

Status BloomFilter::Allocate(int64_t num_bytes) {
  STRATA_RETURN_NOT_OK(bitset_.Resize(num_bytes));
  num_bytes_ = num_bytes;
  return Status::OK();
}

Result<std::unique_ptr<BloomFilter>> BloomFilter::Make(MemoryPool* pool, int64_t num_bytes) {
  if (num_bytes < kMinBytes || num_bytes > kMaxBytes || !IsPowerOfTwo(num_bytes)) {
    return Status::Invalid("Bloom filter size {} bytes is not a power of two in [{}, {}]", num_bytes, kMinBytes,
                           kMaxBytes);
  }
  std::unique_ptr<BloomFilter> filter(new BloomFilter(pool));
  STRATA_RETURN_NOT_OK(filter->Allocate(num_bytes));
  filter->Clear();
  return filter;
}

void BloomFilter::Clear() {
  if (num_bytes_ > 0) std::memset(bitset_.mutable_data(), 0, static_cast<size_t>(num_bytes_));
}

// ---- hashing ----------------------------------------------------------------------------------

uint64_t BloomFilter::Hash(const void* data, size_t length) { return XXH64(data, length, 0); }

uint64_t BloomFilter::HashInt32(int32_t v) { return XxHash64Of4Bytes(static_cast<uint32_t>(v)); }
uint64_t BloomFilter::HashInt64(int64_t v) { return XxHash64Of8Bytes(static_cast<uint64_t>(v)); }
uint64_t BloomFilter::HashFloat(float v) { return XxHash64Of4Bytes(std::bit_cast<uint32_t>(v)); }
uint64_t BloomFilter::HashDouble(double v) { return XxHash64Of8Bytes(std::bit_cast<uint64_t>(v)); }

void BloomFilter::HashFixed(const void* values, int64_t count, int width, uint64_t* hashes_out) {
  const auto* bytes = static_cast<const uint8_t*>(values);
  // Dispatch on the width once per batch; memcpy loads are unaligned-safe and compile to movs.
  switch (width) {
    case 4:
      for (int64_t i = 0; i < count; ++i) {
        uint32_t lane;
        std::memcpy(&lane, bytes + 4 * i, 4);
        hashes_out[i] = XxHash64Of4Bytes(lane);
      }
      return;
    case 8:
      for (int64_t i = 0; i < count; ++i) {
        uint64_t lane;
        std::memcpy(&lane, bytes + 8 * i, 8);
        hashes_out[i] = XxHash64Of8Bytes(lane);
      }
      return;
    default:
      for (int64_t i = 0; i < count; ++i) {
        hashes_out[i] = XXH64(bytes + static_cast<int64_t>(width) * i, static_cast<size_t>(width), 0);
      }
      return;
  }
}

void BloomFilter::HashByteArrays(const ByteArrayView* values, int64_t count, uint64_t* hashes_out) {
  for (int64_t i = 0; i < count; ++i) hashes_out[i] = XXH64(values[i].data, values[i].length, 0);
}

// ---- insert and probe -------------------------------------------------------------------------

void BloomFilter::InsertHash(uint64_t hash) {
  uint32_t* block = mutable_words() + 8 * BlockIndex(hash, static_cast<uint64_t>(num_blocks()));
  InsertIntoBlock(block, static_cast<uint32_t>(hash));
}

void BloomFilter::InsertHashes(const uint64_t* hashes, int64_t count) {
  uint32_t* words = mutable_words();
  const auto blocks = static_cast<uint64_t>(num_blocks());
  for (int64_t i = 0; i < count; ++i) {
    InsertIntoBlock(words + 8 * BlockIndex(hashes[i], blocks), static_cast<uint32_t>(hashes[i]));
  }
}

bool BloomFilter::FindHash(uint64_t hash) const {
  const uint32_t* block = words() + 8 * BlockIndex(hash, static_cast<uint64_t>(num_blocks()));
  return BlockContains(block, static_cast<uint32_t>(hash));
}

// ---- folding ----------------------------------------------------------------------------------

namespace {

// Share of set bits of a 32-bit word with k bits set.
constexpr auto kSetShare = [] {
  std::array<double, 33> share{};
  for (int k = 0; k <= 32; ++k) share[static_cast<size_t>(k)] = k / 32.0;
  return share;
}();

// FalsePositiveRate() of the filter over `words` (num_blocks blocks) folded by `factor` (1 or 2):
// each block of the result is `factor` adjacent blocks OR-ed.
double FoldedFalsePositiveRate(const uint32_t* words, int64_t num_blocks, int64_t factor) {
  const int64_t folded_blocks = num_blocks / factor;
  double sum = 0;
  for (int64_t b = 0; b < folded_blocks; ++b) {
    const uint32_t* block = words + 8 * b * factor;
    double p = 1.0;
    for (int w = 0; w < 8; ++w) {
      uint32_t word = block[w];
      for (int64_t f = 1; f < factor; ++f) word |= block[8 * f + w];
      p *= kSetShare[static_cast<size_t>(std::popcount(word))];
    }
    sum += p;
  }
  return sum / static_cast<double>(folded_blocks);
}

}  // namespace

double BloomFilter::FalsePositiveRate() const { return FoldedFalsePositiveRate(words(), num_blocks(), 1); }

void BloomFilter::FoldInHalf() {
  if (num_bytes_ <= kMinBytes) return;
  uint32_t* words = mutable_words();
  const int64_t half = num_blocks() / 2;
  // Ascending is safe in place: block i is written after blocks 2i and 2i + 1 (>= i) are read.
  for (int64_t i = 0; i < half; ++i) {
    for (int w = 0; w < 8; ++w) words[8 * i + w] = words[16 * i + w] | words[16 * i + 8 + w];
  }
  num_bytes_ /= 2;
}

int BloomFilter::FoldToFalsePositiveRate(double fpp) {
  int folds = 0;
  while (num_bytes_ > kMinBytes && FoldedFalsePositiveRate(words(), num_blocks(), 2) <= fpp) {
    FoldInHalf();
    ++folds;
  }
  return folds;
}

// ---- serialization ----------------------------------------------------------------------------

int64_t BloomFilter::serialized_size() const {
  std::string header;
  SerializeBloomFilterHeader(MakeHeader(num_bytes_), &header);
  return static_cast<int64_t>(header.size()) + num_bytes_;
}

Status BloomFilter::WriteTo(ResizableBuffer* out) const {
  std::string header;  // 16 bytes for every size up to kMaxBytes
  SerializeBloomFilterHeader(MakeHeader(num_bytes_), &header);
  const auto header_bytes = static_cast<int64_t>(header.size());
  STRATA_RETURN_NOT_OK(out->Reserve(out->size() + header_bytes + num_bytes_));
  out->UnsafeAppend(header.data(), header_bytes);
  out->UnsafeAppend(bitset_.data(), num_bytes_);
  return Status::OK();
}

namespace {

// The header's promises, checked before anything is allocated for the bitset.
Status CheckHeader(const BloomFilterHeader& header, RandomAccessSource& source, int64_t offset) {
  auto refuse = [&](StatusCode code, std::string what) {
    return Status(code, fmt::format("Bloom filter at offset {} of '{}': {}", offset, source.name(), what));
  };
  if (header.algorithm != kAlgorithmBlock) {
    return refuse(StatusCode::kNotImplemented, fmt::format("algorithm {} is not BLOCK (1)", header.algorithm));
  }
  if (header.hash != kHashXxHash) {
    return refuse(StatusCode::kNotImplemented, fmt::format("hash {} is not XXHASH (1)", header.hash));
  }
  if (header.compression != kCompressionUncompressed) {
    return refuse(StatusCode::kNotImplemented,
                  fmt::format("compression {} is not UNCOMPRESSED (1)", header.compression));
  }
  const int64_t num_bytes = header.num_bytes;
  if (num_bytes < BloomFilter::kMinBytes || !IsPowerOfTwo(num_bytes)) {
    return refuse(StatusCode::kCorrupt,
                  fmt::format("num_bytes {} is not a power of two of at least {}", num_bytes, BloomFilter::kMinBytes));
  }
  if (num_bytes > BloomFilter::kMaxBytes) {
    return refuse(StatusCode::kLimitExceeded,
                  fmt::format("num_bytes {} exceeds the {}-byte limit", num_bytes, BloomFilter::kMaxBytes));
  }
  return Status::OK();
}

}  // namespace

Result<std::unique_ptr<BloomFilter>> BloomFilter::Read(RandomAccessSource& source, int64_t offset,
                                                      std::optional<int32_t> length, MemoryPool* pool,
                                                      const ColumnDecryption* decryption) {
  STRATA_ASSIGN_OR_RETURN(const int64_t file_size, source.Size());
  if (offset < 0 || offset >= file_size) {
    return Status::Corrupt("Bloom filter offset {} of '{}' is outside the file ({} bytes)", offset, source.name(),
                           file_size);
  }
  // The bytes the filter may occupy: to the end of the file, or bloom_filter_length.
  int64_t available = file_size - offset;
  if (length.has_value()) {
    if (*length <= 0 || *length > available) {
      return Status::Corrupt("Bloom filter at offset {} of '{}': length {} is not within the {} bytes to the end of "
                             "the file",
                             offset, source.name(), *length, available);
    }
    available = *length;
  }
  if (decryption != nullptr) return ReadEncrypted(source, offset, available, length.has_value(), *decryption, pool);

  // The header, decoded from a small stack read before anything is allocated.
  uint8_t head[kHeaderReadBytes];
  int64_t head_bytes = std::min(available, kHeaderReadBytes);
  STRATA_RETURN_NOT_OK(source.ReadAt(offset, head_bytes, head));
  BloomFilterHeader header;
  auto decoded = DeserializeBloomFilterHeader(head, static_cast<size_t>(head_bytes), &header, offset);
  const uint8_t* bitset_start = head;
  if (!decoded.ok() && head_bytes < available) {
    // Unknown fields made the header longer than the first read: read up to kMaxHeaderBytes.
    // The bitset bytes are then re-read below rather than copied from this scratch.
    const int64_t retry_bytes = std::min(available, kMaxHeaderBytes);
    ResizableBuffer scratch(pool);
    STRATA_RETURN_NOT_OK(scratch.Resize(retry_bytes));
    STRATA_RETURN_NOT_OK(source.ReadAt(offset, retry_bytes, scratch.mutable_data()));
    decoded = DeserializeBloomFilterHeader(scratch.data(), static_cast<size_t>(retry_bytes), &header, offset);
    head_bytes = 0;  // nothing of the bitset is kept from a read
    bitset_start = nullptr;
  }
  if (!decoded.ok()) {
    return decoded.status().WithContext(fmt::format("Bloom filter header at offset {} of '{}'", offset, source.name()));
  }
  const auto header_bytes = static_cast<int64_t>(*decoded);
  STRATA_RETURN_NOT_OK(CheckHeader(header, source, offset));
  const int64_t num_bytes = header.num_bytes;
  if (header_bytes + num_bytes > available) {
    const char* bound = length.has_value() ? "of bloom_filter_length" : "to the end of the file";
    return Status::Corrupt("Bloom filter at offset {} of '{}': a {}-byte header and {}-byte bitset do not fit the {} "
                           "bytes {}",
                           offset, source.name(), header_bytes, num_bytes, available, bound);
  }

  std::unique_ptr<BloomFilter> filter(new BloomFilter(pool));
  STRATA_RETURN_NOT_OK(filter->Allocate(num_bytes));
  uint8_t* bitset = filter->bitset_.mutable_data();
  // Small filters arrived with the header read; fetch only what it did not cover.
  const int64_t already_read = std::clamp<int64_t>(head_bytes - header_bytes, 0, num_bytes);
  if (already_read > 0) std::memcpy(bitset, bitset_start + header_bytes, static_cast<size_t>(already_read));
  if (already_read < num_bytes) {
    STRATA_RETURN_NOT_OK(source.ReadAt(offset + header_bytes + already_read, num_bytes - already_read,
                                       bitset + already_read));
  }
  return filter;
}

Result<std::unique_ptr<BloomFilter>> BloomFilter::ReadEncrypted(RandomAccessSource& source, int64_t offset,
                                                               int64_t available, bool has_length,
                                                               const ColumnDecryption& decryption, MemoryPool* pool) {
  using encryption::CipherMode;
  using encryption::ModuleType;
  // Two GCM modules: the header, then the bitset. The header's plaintext is as bounded as a
  // plaintext header's (kMaxHeaderBytes).
  ResizableBuffer header_plaintext(pool);
  const int64_t header_limit = std::min(available, encryption::ModuleBytes(CipherMode::kGcm, kMaxHeaderBytes));
  STRATA_ASSIGN_OR_RETURN(const int64_t header_module,
                          ReadEncryptedModule(source, offset, header_limit, /*fills_max_bytes=*/false, decryption,
                                              ModuleType::kBloomFilterHeader, pool, &header_plaintext));
  BloomFilterHeader header;
  auto decoded = DeserializeBloomFilterHeader(header_plaintext.data(), static_cast<size_t>(header_plaintext.size()),
                                              &header, offset);
  if (!decoded.ok()) {
    return decoded.status().WithContext(fmt::format("decrypted Bloom filter header at offset {} of '{}' (column '{}')",
                                                    offset, source.name(), decryption.column_path));
  }
  STRATA_RETURN_NOT_OK(CheckHeader(header, source, offset));
  const int64_t num_bytes = header.num_bytes;
  const int64_t bitset_module = encryption::ModuleBytes(CipherMode::kGcm, num_bytes);
  if (bitset_module > available - header_module) {
    return Status::Corrupt("Bloom filter at offset {} of '{}' (column '{}'): a {}-byte header module and the {}-byte "
                           "module of a {}-byte bitset do not fit the {} bytes {}",
                           offset, source.name(), decryption.column_path, header_module, bitset_module, num_bytes,
                           available, has_length ? "of bloom_filter_length" : "to the end of the file");
  }
  // Decrypted straight into the bitset: its module must be exactly the bitset's size.
  std::unique_ptr<BloomFilter> filter(new BloomFilter(pool));
  STRATA_RETURN_NOT_OK(ReadEncryptedModule(source, offset + header_module, bitset_module, /*fills_max_bytes=*/true,
                                           decryption, ModuleType::kBloomFilterBitset, pool, &filter->bitset_)
                           .status());
  filter->num_bytes_ = num_bytes;
  return filter;
}

}  // namespace strata::parquet
