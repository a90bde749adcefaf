#include "strata/parquet/read/view_batch_builder.h"

#include <cstring>
#include <limits>

#include "strata/array/array.h"
#include "strata/util/bit_util.h"

namespace strata::parquet {
namespace {

constexpr int64_t kMaxViewOffset = std::numeric_limits<int32_t>::max();

// One 16-byte view: the value inline (up to 12 bytes, zero-padded) or its 4-byte prefix and
// (buffer, offset).
inline void WriteView(uint8_t* out, const uint8_t* value, uint32_t length, int32_t buffer, int64_t offset) {
  const auto n = static_cast<int32_t>(length);
  std::memcpy(out, &n, 4);
  if (length <= static_cast<uint32_t>(view_layout::kInlineSize)) {
    std::memset(out + 4, 0, view_layout::kInlineSize);
    if (length != 0) std::memcpy(out + 4, value, length);
    return;
  }
  const auto at = static_cast<int32_t>(offset);
  std::memcpy(out + 4, value, view_layout::kPrefixSize);
  std::memcpy(out + 8, &buffer, 4);
  std::memcpy(out + 12, &at, 4);
}

// Writes the views of slots [slot, slot + count) from the dense values. kCopy: long values are
// appended to `copy` (reserved by the caller); else they lie in the data buffer `buffer` at
// their distance from `base`.
template <bool kCopy>
void WriteViews(const ByteArrayView* values, int64_t count, int64_t non_null, const uint8_t* validity, int64_t slot,
                uint8_t* out, const uint8_t* base, int32_t buffer, ResizableBuffer* copy) {
  int64_t position = kCopy ? copy->size() : 0;
  auto one = [&](uint8_t* view, const ByteArrayView& v) {
    if constexpr (kCopy) {
      if (v.length > static_cast<uint32_t>(view_layout::kInlineSize)) {
        std::memcpy(copy->mutable_data() + position, v.data, v.length);
        WriteView(view, v.data, v.length, buffer, position);
        position += v.length;
        return;
      }
      WriteView(view, v.data, v.length, buffer, 0);
    } else {
      WriteView(view, v.data, v.length, buffer, v.length > 12 ? v.data - base : 0);
    }
  };
  if (validity == nullptr || non_null == count) {
    for (int64_t i = 0; i < count; ++i) one(out + i * view_layout::kViewSize, values[i]);
  } else {
    int64_t j = 0;
    for (int64_t i = 0; i < count; ++i) {
      uint8_t* view = out + i * view_layout::kViewSize;
      if (bit_util::GetBit(validity, slot + i)) {
        one(view, values[j++]);
      } else {
        std::memset(view, 0, view_layout::kViewSize);
      }
    }
  }
  if constexpr (kCopy) copy->set_size(position);
}

}  // namespace

void ViewBatchBuilder::StartBatch() {
  buffers_.clear();
  page_buffer_index_ = -1;
  dictionary_buffer_index_ = -1;
  copy_buffer_index_ = -1;
  copy_buffer_.reset();
}

void ViewBatchBuilder::StartPage() {
  page_share_.reset();
  page_shared_ = false;
  page_buffer_index_ = -1;
}

Result<int32_t> ViewBatchBuilder::PageBufferIndex(const PageValues& page) {
  if (!page_shared_) {
    // The batch keeps the page reader's buffer of the page (decompressed, as read, or the
    // whole chunk): no copy, and the reader takes a fresh buffer for a later page while a
    // batch holds this one. The batch's data buffer is the values' span of it.
    std::shared_ptr<Buffer> owner = page.reader->ShareValues();
    const uint8_t* begin = owner ? owner->data() : nullptr;
    if (owner && page.data >= begin && page.data + page.size <= begin + owner->size()) {
      page_share_ = Buffer::Slice(std::move(owner), page.data - begin, page.size);
    } else {
      // Bytes the batch cannot keep (a slice of a pre-buffered range of many chunks): a copy.
      // The previous copy is reused when no array refers to it.
      if (!page_copy_ || page_copy_.use_count() > 1) {
        STRATA_ASSIGN_OR_RETURN(page_copy_, ResizableBuffer::Make(pool_));
      }
      STRATA_RETURN_NOT_OK(page_copy_->ReserveDiscardingContents(page.size));
      page_copy_->set_size(page.size);
      if (page.size > 0) std::memcpy(page_copy_->mutable_data(), page.data, static_cast<size_t>(page.size));
      page_share_ = page_copy_;
    }
    page_shared_ = true;
    page_buffer_index_ = -1;
  }
  if (page_buffer_index_ < 0) {
    buffers_.push_back(page_share_);
    page_buffer_index_ = static_cast<int32_t>(buffers_.size() - 1);
  }
  return page_buffer_index_;
}

Result<int32_t> ViewBatchBuilder::CopyBufferIndex(int64_t bytes, int64_t file_offset) {
  if (copy_buffer_ && copy_buffer_->size() + bytes <= copy_buffer_->capacity()) return copy_buffer_index_;
  // A new data buffer of this range's exact size: the batch's buffers never grow (a view
  // addresses any of them, and at most 2 GiB of one).
  if (bytes > kMaxViewOffset) {
    return Status::LimitExceeded("page at offset {}: {} bytes of long values in one range exceed what views address",
                                 file_offset, bytes);
  }
  STRATA_ASSIGN_OR_RETURN(copy_buffer_, ResizableBuffer::Make(pool_));
  STRATA_RETURN_NOT_OK(copy_buffer_->Reserve(bytes));
  buffers_.push_back(copy_buffer_);
  copy_buffer_index_ = static_cast<int32_t>(buffers_.size() - 1);
  return copy_buffer_index_;
}

Status ViewBatchBuilder::WriteRange(const ByteArrayView* values, int64_t count, int64_t non_null,
                                    const uint8_t* validity, int64_t slot, uint8_t* out, const PageValues& page,
                                    const std::shared_ptr<Buffer>& dictionary_bytes) {
  int64_t long_bytes = 0;
  for (int64_t i = 0; i < non_null; ++i) {
    const uint32_t length = values[i].length;
    if (length > static_cast<uint32_t>(view_layout::kInlineSize)) long_bytes += length;
    if (length > static_cast<uint32_t>(kMaxViewOffset)) {
      return Status::LimitExceeded("page at offset {}: a value of {} bytes is longer than a view can describe",
                                   page.file_offset, length);
    }
  }
  // Where the long values' bytes are, once per range.
  if (long_bytes == 0) {
    WriteViews<false>(values, count, non_null, validity, slot, out, nullptr, 0, nullptr);
    return Status::OK();
  }
  if (page.dictionary_coded && dictionary_bytes && dictionary_bytes->size() <= kMaxViewOffset) {
    if (dictionary_buffer_index_ < 0) {
      buffers_.push_back(dictionary_bytes);
      dictionary_buffer_index_ = static_cast<int32_t>(buffers_.size() - 1);
    }
    WriteViews<false>(values, count, non_null, validity, slot, out, dictionary_bytes->data(),
                      dictionary_buffer_index_, nullptr);
    return Status::OK();
  }
  // PLAIN and DELTA_LENGTH_BYTE_ARRAY values are the page's bytes: views point into the page.
  if ((page.encoding == Encoding::kPlain || page.encoding == Encoding::kDeltaLengthByteArray) &&
      page.size <= kMaxViewOffset) {
    STRATA_ASSIGN_OR_RETURN(const int32_t index, PageBufferIndex(page));
    WriteViews<false>(values, count, non_null, validity, slot, out, page.data, index, nullptr);
    return Status::OK();
  }
  // DELTA_BYTE_ARRAY rebuilds values in decoder scratch (and huge pages pass 2 GiB of offsets):
  // copy the long values out.
  STRATA_ASSIGN_OR_RETURN(const int32_t index, CopyBufferIndex(long_bytes, page.file_offset));
  WriteViews<true>(values, count, non_null, validity, slot, out, nullptr, index, copy_buffer_.get());
  return Status::OK();
}

std::vector<std::shared_ptr<Buffer>> ViewBatchBuilder::TakeBuffers() {
  std::vector<std::shared_ptr<Buffer>> buffers = std::move(buffers_);
  buffers_.clear();
  copy_buffer_.reset();
  return buffers;
}

}  // namespace strata::parquet
