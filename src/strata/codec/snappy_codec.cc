// SNAPPY: Parquet stores one raw snappy block per page (no framing format): a varint of the
// uncompressed length, then literals and copies.
#include <snappy.h>

#include <limits>

#include "strata/codec/codec_internal.h"

namespace strata::codec::internal {
namespace {

class SnappyCodec final : public Codec {
 public:
  SnappyCodec() : Codec(CompressionCodec::kSnappy, 0) {}

  Result<int64_t> Decompress(std::span<const uint8_t> input, std::span<uint8_t> output) override {
    const char* compressed = reinterpret_cast<const char*>(input.data());
    size_t declared = 0;
    if (!snappy::GetUncompressedLength(compressed, input.size(), &declared)) {
      return Status::Corrupt("SNAPPY data of {} bytes has no valid length header", input.size());
    }
    // The header's length is only compared, never allocated: the caller sized the output.
    if (declared > output.size()) return OutputOverflow(type(), input.size(), output.size());
    // RawUncompress validates every copy against the output written so far and stops at the
    // end of the input, so hostile data cannot read or write out of bounds.
    if (!snappy::RawUncompress(compressed, input.size(), reinterpret_cast<char*>(output.data()))) {
      return Status::Corrupt("SNAPPY data of {} bytes (declaring {} uncompressed bytes) is malformed",
                             input.size(), declared);
    }
    return static_cast<int64_t>(declared);
  }

  // Snappy's compressor allocates its working area (hash table and block scratch, under
  // 200 KiB) on the heap, outside the pool: the library offers no allocator hook. It is freed
  // before returning.
  Status Compress(std::span<const uint8_t> input, ResizableBuffer* output) override {
    if (input.size() > std::numeric_limits<uint32_t>::max()) {
      return Status::LimitExceeded("SNAPPY cannot compress {} bytes (at most 4 GiB - 1)", input.size());
    }
    STRATA_RETURN_NOT_OK(output->Reserve(MaxCompressedLength(static_cast<int64_t>(input.size()))));
    size_t written = 0;
    snappy::RawCompress(reinterpret_cast<const char*>(input.data()), input.size(),
                        reinterpret_cast<char*>(output->mutable_data()), &written);
    output->set_size(static_cast<int64_t>(written));
    return Status::OK();
  }

  int64_t MaxCompressedLength(int64_t input_size) const override {
    return static_cast<int64_t>(snappy::MaxCompressedLength(static_cast<size_t>(input_size)));
  }

  int64_t memory_size() const override { return 0; }
};

}  // namespace

Result<std::unique_ptr<Codec>> MakeSnappyCodec(MemoryPool* pool, int level) {
  STRATA_RETURN_NOT_OK(ResolveLevel(CompressionCodec::kSnappy, level, 0, 0, 0).status());
  return std::unique_ptr<Codec>(new SnappyCodec());
}

}  // namespace strata::codec::internal
