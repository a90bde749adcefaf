// Parquet's split-block Bloom filter (parquet-format BloomFilter.md): what the column writer
// fills with the hashes of a chunk's distinct values and a reader probes to skip a row group
// whose chunk certainly lacks a value. Stored near the footer as a Thrift BloomFilterHeader
// followed by the bitset; ColumnMetaData.bloom_filter_offset (and _length) point at it.
//
// Layout: num_bytes / 32 blocks of eight 32-bit little-endian words. A 64-bit xxHash picks one
// block with its upper 32 bits and one bit in each of the block's eight words with its lower 32
// bits (multiplied by eight fixed salts), so an insert or a probe touches one 32-byte block.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>

#include "strata/io/random_access_source.h"
#include "strata/memory/buffer.h"
#include "strata/parquet/encoding/byte_array.h"
#include "strata/parquet/encryption/column_decryption.h"
#include "strata/util/result.h"

namespace strata::parquet {

class BloomFilter {
 public:
  static constexpr int64_t kBytesPerBlock = 32;       // eight 32-bit words
  static constexpr int64_t kMinBytes = 32;            // one block
  static constexpr int64_t kMaxBytes = 128 << 20;     // the spec's suggested cap

  // Bytes for `ndv` distinct values at false-positive rate `fpp` (0 < fpp < 1), by the spec's
  // sizing formula (bits per value = -8 / ln(1 - fpp^(1/8))), rounded up to a power of two in
  // [kMinBytes, kMaxBytes]. ndv <= 0 or fpp >= 1 gives kMinBytes; fpp <= 0 (or NaN) kMaxBytes.
  static int64_t OptimalNumBytes(int64_t ndv, double fpp);
  // An empty filter of `num_bytes` (a power of two in [kMinBytes, kMaxBytes]; else Invalid),
  // zeroed, its bitset allocated from `pool` (which must outlive the filter).
  static Result<std::unique_ptr<BloomFilter>> Make(MemoryPool* pool, int64_t num_bytes);

  // xxHash64 (seed 0) of a value's PLAIN encoding: the raw bytes for BYTE_ARRAY (without the
  // length prefix) and FIXED_LEN_BYTE_ARRAY, little-endian bytes for fixed-width types. Floats
  // hash their bit pattern as stored: -0.0 and 0.0 differ, as do NaNs with different payloads.
  static uint64_t Hash(const void* data, size_t length);
  static uint64_t HashInt32(int32_t v);
  static uint64_t HashInt64(int64_t v);
  static uint64_t HashFloat(float v);
  static uint64_t HashDouble(double v);
  // Batch hashing for the writer's hot path: `count` fixed-width values of `width` bytes back
  // to back (width > 0: 4 and 8 take an inlined path; 12 for INT96, any FLBA width), or byte
  // arrays. hashes_out has room for `count`.
  static void HashFixed(const void* values, int64_t count, int width, uint64_t* hashes_out);
  static void HashByteArrays(const ByteArrayView* values, int64_t count, uint64_t* hashes_out);

  void InsertHash(uint64_t hash);
  // Inserts hashes[0, count), e.g. a page's worth hashed by HashFixed / HashByteArrays.
  void InsertHashes(const uint64_t* hashes, int64_t count);
  // False: the value is certainly absent. True: present, or a false positive.
  bool FindHash(uint64_t hash) const;

  // The rate at which this filter answers yes for a value never inserted, for probes whose
  // hashes are uniformly random: the mean over blocks of the product of each word's share of
  // set bits (a probe's eight bits fall one in each word). Exact for the bits as they are, not
  // a model of how they were filled; O(num_bytes()).
  double FalsePositiveRate() const;
  // Halves the filter: block i of the result is blocks 2i and 2i + 1 OR-ed together. A hash
  // picks block ((hash >> 32) * num_blocks) >> 32, and halving num_blocks maps blocks 2i and
  // 2i + 1 (not i and i + n/2, as a modulo would) to i; the bits within a block come from the
  // hash's lower half, unchanged. So every value inserted before is still found. No-op at
  // kMinBytes. Keeps the bitset's memory (the filter is written and freed soon after).
  void FoldInHalf();
  // Folds while the halved filter's FalsePositiveRate() stays <= fpp: the smallest power of
  // two that meets the target for the values actually inserted (the writer builds a chunk's
  // filter large and folds it at the chunk's end). Returns how many times it halved.
  int FoldToFalsePositiveRate(double fpp);

  int64_t num_bytes() const { return num_bytes_; }
  int64_t num_blocks() const { return num_bytes_ / kBytesPerBlock; }
  // The bitset as stored in the file (num_bytes() bytes, little-endian words); valid while the
  // filter lives.
  const uint8_t* bitset() const { return bitset_.data(); }
  // Zeroes the bitset, keeping its memory: one filter reused chunk after chunk of a column.
  void Clear();

  // Appends the BloomFilterHeader (Thrift compact; see BloomFilterHeader in
  // src/strata/parquet/thrift/parquet_types.h) and the bitset to `out`, reserving exactly.
  Status WriteTo(ResizableBuffer* out) const;
  // Bytes WriteTo appends: the serialized header plus num_bytes(). The writer's
  // bloom_filter_length.
  int64_t serialized_size() const;

  // Reads a filter at `offset` of `source` (ColumnMetaData.bloom_filter_offset; `length` is
  // bloom_filter_length when the file has it, the header and bitset together). The header is
  // checked before anything is allocated for the bitset: algorithm BLOCK, hash XXHASH,
  // UNCOMPRESSED (else NotImplemented), num_bytes a power of two of at least kMinBytes (else
  // Corrupt), at most kMaxBytes (else LimitExceeded), and header plus bitset within `length`
  // and within the file (else Corrupt). Errors name the source, the offset and the values.
  // Two reads: 256 bytes for the header (which also covers small bitsets) into the stack, one
  // for the rest straight into the bitset. Only a header longer than 256 bytes (unknown fields)
  // costs a scratch read of at most 64 KiB from `pool` before it is checked.
  //
  // An encrypted chunk's filter (pass the chunk's `decryption`) is two GCM modules with the
  // column's key (Encryption.md: AAD types BloomFilterHeader, BloomFilterBitset, with the
  // file's row group and column ordinals), both within `length` and the file: the header
  // module's length field is checked, the header decrypted and checked as above, then the
  // bitset module (exactly num_bytes of plaintext) is read into a scratch buffer and
  // decrypted into the bitset. A module that does not authenticate (wrong key, altered
  // bytes) is Corrupt, naming the module, its offset and the column.
  static Result<std::unique_ptr<BloomFilter>> Read(RandomAccessSource& source, int64_t offset,
                                                   std::optional<int32_t> length, MemoryPool* pool,
                                                   const ColumnDecryption* decryption = nullptr);

  // Bytes held from the pool (the bitset's capacity).
  int64_t memory_size() const { return bitset_.capacity(); }

 private:
  explicit BloomFilter(MemoryPool* pool) : bitset_(pool) {}
  // Read()'s encrypted path: `available` bytes from `offset` (checked inside the file).
  static Result<std::unique_ptr<BloomFilter>> ReadEncrypted(RandomAccessSource& source, int64_t offset,
                                                            int64_t available, bool has_length,
                                                            const ColumnDecryption& decryption, MemoryPool* pool);
  Status Allocate(int64_t num_bytes);

  const uint32_t* words() const { return reinterpret_cast<const uint32_t*>(bitset_.data()); }
  uint32_t* mutable_words() { return reinterpret_cast<uint32_t*>(bitset_.mutable_data()); }

  ResizableBuffer bitset_;
  int64_t num_bytes_ = 0;
};

}  // namespace strata::parquet
