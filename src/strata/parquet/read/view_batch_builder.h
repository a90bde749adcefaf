// ViewBatchBuilder: the data buffers of a string_view / binary_view batch of a flat BYTE_ARRAY
// column (BatchReadOptions::string_views), and the 16-byte views that address them. Long
// values stay where they already are: in the dictionary's bytes, or in the decoded page
// itself, whose buffer the page reader hands over to the batch (PageReader::ShareValues; a
// copy only where it cannot); values rebuilt in decoder scratch (DELTA_BYTE_ARRAY) are copied
// into buffers of the batch's own. The batch's buffers never grow: a view addresses any of
// them, at most 2 GiB of one.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "strata/memory/buffer.h"
#include "strata/parquet/encoding/byte_array.h"
#include "strata/parquet/read/page_reader.h"

namespace strata::parquet {

class ViewBatchBuilder {
 public:
  explicit ViewBatchBuilder(MemoryPool* pool) : pool_(pool) {}

  // Where the current page's values are, for views into it.
  struct PageValues {
    const uint8_t* data = nullptr;  // the value bytes (after v1 levels)
    int64_t size = 0;
    Encoding encoding = Encoding::kPlain;
    bool dictionary_coded = false;
    int64_t file_offset = 0;  // for messages
    const PageReader* reader = nullptr;  // ShareValues
  };

  void StartBatch();
  // Drops the page's buffer (before the next page is read, so the page reader may reuse it
  // when no batch kept it).
  void StartPage();
  // The views of slots [slot, slot + count) into `out` (16 bytes a slot), from the `non_null`
  // dense `values` of the current page; null slots (bits of `validity`) get zeroed views.
  // `dictionary_bytes`: the chunk's dictionary entries, back to back (null without one).
  Status WriteRange(const ByteArrayView* values, int64_t count, int64_t non_null, const uint8_t* validity,
                    int64_t slot, uint8_t* out, const PageValues& page,
                    const std::shared_ptr<Buffer>& dictionary_bytes);
  // The batch's data buffers, in the order the views number them.
  std::vector<std::shared_ptr<Buffer>> TakeBuffers();
  // Scratch held across batches: the last page copy.
  int64_t memory_size() const { return page_copy_ ? page_copy_->capacity() : 0; }

 private:
  // The batch's data buffer index of the current page's value bytes (kept, or copied where the
  // page reader cannot hand them over).
  Result<int32_t> PageBufferIndex(const PageValues& page);
  // Room for `bytes` more bytes in the batch's copy buffer (a new one past 2 GiB); its index.
  Result<int32_t> CopyBufferIndex(int64_t bytes, int64_t file_offset);

  MemoryPool* pool_;
  // The batch's data buffers; indices of the current page's copy and of the dictionary bytes
  // among them (-1: not yet in this batch).
  std::vector<std::shared_ptr<Buffer>> buffers_;
  int32_t page_buffer_index_ = -1;
  int32_t dictionary_buffer_index_ = -1;
  int32_t copy_buffer_index_ = -1;
  std::shared_ptr<ResizableBuffer> copy_buffer_;  // values copied out (DELTA_BYTE_ARRAY, ...)
  // The current page's value bytes as the batches' data buffer (set on first use), and the
  // last page copy (pages the reader cannot hand over), reused once no array refers to it.
  std::shared_ptr<Buffer> page_share_;
  bool page_shared_ = false;
  std::shared_ptr<ResizableBuffer> page_copy_;
};

}  // namespace strata::parquet
