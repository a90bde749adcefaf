// BodyBuilder: lays out one record batch (or dictionary batch) body for the IPC writer: the
// field nodes and buffers of its arrays, depth-first as the format orders them, each buffer
// 64-byte aligned in the body and padded with zeros. Buffers are referenced, not copied,
// except where a slice must be rebased (a bitmap at a bit offset, offsets not starting at 0)
// or a buffer is compressed; the scratch memory for those is reused batch after batch.
// Internal to the ipc layer.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "strata/array/array_data.h"
#include "strata/io/output_sink.h"
#include "strata/ipc/body_compression.h"
#include "strata/ipc/byte_swap.h"
#include "strata/ipc/flatbuffer_format.h"
#include "strata/memory/buffer.h"
#include "strata/util/result.h"

namespace strata::ipc {

// How the elements of a buffer are swapped for a big-endian body (width 0 or 1: not at all).
struct BufferSwap {
  SwapLayout layout = SwapLayout::kWhole;
  int64_t width = 0;
};

class BodyBuilder {
 public:
  // `codec` null: uncompressed. Both outlive the builder.
  BodyBuilder(BodyCodec* codec, MemoryPool* pool) : codec_(codec), pool_(pool) {}

  // Starts a new body (keeps the scratch memory).
  void Reset();
  // Write the values big-endian (byte-swapped through scratch memory; the arrays are untouched).
  void set_big_endian(bool big_endian) { big_endian_ = big_endian; }
  // Adds the nodes and buffers of `data` and everything below it (not its dictionary, which
  // travels in a dictionary batch). `path` names the column in errors.
  Status AddArray(const ArrayData& data, const std::string& path);
  // Unions (type ids, dense offsets, members) and run-end encoded arrays (run ends rebased to
  // a slice, values): no validity buffer, as metadata V5 lays them out.
  Status AddUnionOrRunEnds(const ArrayData& data, const std::string& path);
  // The RecordBatch table of what was added, `length` rows.
  format::fb::Offset<void> AddRecordBatchTable(format::fb::FlatBufferBuilder& fbb, int64_t length) const;

  int64_t body_length() const { return body_length_; }
  // The buffers' bytes before compression, and as stored (length prefixes included, padding
  // not): the two are equal without compression.
  int64_t uncompressed_bytes() const { return uncompressed_bytes_; }
  int64_t stored_bytes() const { return stored_bytes_; }
  // Writes the body: every buffer at its offset, zero padding between and after.
  Status WriteTo(OutputSink* sink) const;

 private:
  struct Piece {
    const uint8_t* data = nullptr;
    int64_t size = 0;
    int64_t prefix = 0;  // the uncompressed length written before compressed bytes (-1: stored raw)
    bool has_prefix = false;
    std::shared_ptr<Buffer> keep_alive;  // the referenced buffer
  };

  using Swap = BufferSwap;
  Status AddBuffer(std::shared_ptr<Buffer> buffer, int64_t offset, int64_t size, Swap swap = {});
  Status AddBytes(const uint8_t* data, int64_t size, std::shared_ptr<Buffer> keep_alive, Swap swap = {});
  void AddEmpty();
  Status AddBitmap(const std::shared_ptr<Buffer>& buffer, int64_t bit_offset, int64_t length);
  // Adds the offsets of elements [offset, offset + length] (rebased to start at 0 when they
  // do not) and returns the range of the data they cover.
  template <typename Offset>
  Result<std::pair<int64_t, int64_t>> AddOffsets(const ArrayData& data, const std::string& path);
  Result<ResizableBuffer*> NextScratch();

  BodyCodec* codec_;
  MemoryPool* pool_;
  bool big_endian_ = false;
  std::vector<format::FieldNode> nodes_;
  std::vector<format::BufferSpec> buffers_;
  std::vector<Piece> pieces_;
  std::vector<int64_t> variadic_counts_;
  std::vector<std::shared_ptr<ResizableBuffer>> scratch_;
  size_t scratch_used_ = 0;
  int64_t body_length_ = 0;
  int64_t uncompressed_bytes_ = 0;
  int64_t stored_bytes_ = 0;
};

}  // namespace strata::ipc
