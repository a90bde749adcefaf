// Constructors of the concrete codecs, for MakeCodec() and MakeStreamingDecompressor().
// Internal to the codec layer. Each checks its own level range and resolves
// kDefaultCompressionLevel.
#pragma once

#include <cstdint>
#include <memory>

#include "strata/codec/codec.h"
#include "strata/codec/streaming_decompressor.h"

namespace strata::codec::internal {

Result<std::unique_ptr<Codec>> MakeUncompressedCodec(int level);
Result<std::unique_ptr<Codec>> MakeSnappyCodec(MemoryPool* pool, int level);
Result<std::unique_ptr<Codec>> MakeGzipCodec(MemoryPool* pool, int level);
Result<std::unique_ptr<Codec>> MakeBrotliCodec(MemoryPool* pool, int level);
Result<std::unique_ptr<Codec>> MakeZstdCodec(MemoryPool* pool, int level);
Result<std::unique_ptr<Codec>> MakeLzoCodec(MemoryPool* pool, int level);
// `hadoop_framing`: LZ4 (Hadoop blocks, raw-block fallback) rather than LZ4_RAW.
Result<std::unique_ptr<Codec>> MakeLz4Codec(MemoryPool* pool, int level, bool hadoop_framing);

std::unique_ptr<StreamingDecompressor> MakeUncompressedStreamingDecompressor();
std::unique_ptr<StreamingDecompressor> MakeGzipStreamingDecompressor(MemoryPool* pool);
std::unique_ptr<StreamingDecompressor> MakeZstdStreamingDecompressor(MemoryPool* pool);
std::unique_ptr<StreamingDecompressor> MakeBrotliStreamingDecompressor(MemoryPool* pool);
std::unique_ptr<StreamingDecompressor> MakeSnappyStreamingDecompressor(MemoryPool* pool);

// The 4-byte big-endian lengths of Hadoop's block framing (LZ4, LZO).
inline uint32_t LoadBigEndian32(const uint8_t* p) {
  return (uint32_t{p[0]} << 24) | (uint32_t{p[1]} << 16) | (uint32_t{p[2]} << 8) | uint32_t{p[3]};
}

inline void StoreBigEndian32(uint32_t v, uint8_t* p) {
  p[0] = static_cast<uint8_t>(v >> 24);
  p[1] = static_cast<uint8_t>(v >> 16);
  p[2] = static_cast<uint8_t>(v >> 8);
  p[3] = static_cast<uint8_t>(v);
}

// `level` if it lies in [min_level, max_level], `default_level` for kDefaultCompressionLevel,
// otherwise Invalid.
Result<int> ResolveLevel(CompressionCodec codec, int level, int default_level, int min_level,
                         int max_level);

// The message every "output would exceed the declared size" error shares.
inline Status OutputOverflow(CompressionCodec codec, size_t input_size, size_t output_size) {
  return Status::Corrupt("{} data of {} bytes decompresses to more than the declared {} bytes",
                         CodecName(codec), input_size, output_size);
}

}  // namespace strata::codec::internal
