// ColumnReader, continued: the two other outputs of BYTE_ARRAY string and binary columns.
//  - Dictionary arrays (BatchReadOptions::read_dictionary): dictionary-coded pages decode their
//    indices straight into the batch; the chunk's dictionary page becomes one string/binary
//    array per chunk whose data buffer is the Dictionary's own bytes, shared by every batch.
//    Values of other pages (a writer's PLAIN fallback) go to a batch-local extension.
//  - Views (BatchReadOptions::string_views): 16-byte views whose long values point into the
//    dictionary's bytes or into the decoded page itself, whose buffer the page reader hands
//    over to the batch (PageReader::ShareValues; a copy only where it cannot).
#include <cstring>
#include <limits>

#include "strata/array/array.h"
#include "strata/util/utf8.h"
#include "strata/parquet/read/column_reader.h"

namespace strata::parquet {
namespace {

constexpr int64_t kMaxViewOffset = std::numeric_limits<int32_t>::max();


// A Buffer over bytes owned by something else, which it keeps alive.
struct SharedBytes {
  SharedBytes(std::shared_ptr<const void> owner, const uint8_t* data, int64_t size)
      : owner(std::move(owner)), bytes(data, size) {}
  std::shared_ptr<const void> owner;
  Buffer bytes;
};

std::shared_ptr<Buffer> ShareBytes(std::shared_ptr<const void> owner, const uint8_t* data, int64_t size) {
  auto holder = std::make_shared<SharedBytes>(std::move(owner), data, size);
  return std::shared_ptr<Buffer>(holder, &holder->bytes);
}

// Moves `non_null` dense indices at the front of `out` to the valid slots of [0, count) (bits
// [slot, slot + count) of `validity`); null slots get index 0. Backwards, so it works in place.
void SpreadIndices(int32_t* out, const uint8_t* validity, int64_t slot, int64_t count, int64_t non_null) {
  int64_t j = non_null - 1;
  for (int64_t i = count - 1; i >= 0 && j < i; --i) out[i] = IsBitSet(validity, slot + i) ? out[j--] : 0;
}

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
      if (IsBitSet(validity, slot + i)) {
        one(view, values[j++]);
      } else {
        std::memset(view, 0, view_layout::kViewSize);
      }
    }
  }
  if constexpr (kCopy) copy->set_size(position);
}

template <typename Offset>
Result<ArrayDataPtr> ConcatStrings(const TypePtr& type, const ArrayData& a, const ArrayData& b, MemoryPool* pool) {
  const Offset* a_offsets = a.buffers[1]->data_as<Offset>();
  const Offset* b_offsets = b.buffers[1]->data_as<Offset>();
  const int64_t a_bytes = a_offsets[a.length];
  const int64_t b_bytes = b_offsets[b.length];
  if (a_bytes + b_bytes > static_cast<int64_t>(std::numeric_limits<Offset>::max())) {
    return Status::LimitExceeded("a dictionary of {} bytes does not fit {}-bit offsets; read with large_binary",
                                 a_bytes + b_bytes, 8 * sizeof(Offset));
  }
  const int64_t length = a.length + b.length;
  STRATA_ASSIGN_OR_RETURN(auto offsets, AllocateBuffer(pool, (length + 1) * static_cast<int64_t>(sizeof(Offset))));
  STRATA_ASSIGN_OR_RETURN(auto data, AllocateBuffer(pool, a_bytes + b_bytes));
  auto* out = offsets->mutable_data_as<Offset>();
  std::memcpy(out, a_offsets, static_cast<size_t>(a.length + 1) * sizeof(Offset));
  for (int64_t i = 1; i <= b.length; ++i) out[a.length + i] = static_cast<Offset>(a_bytes + b_offsets[i]);
  if (a_bytes != 0) std::memcpy(data->mutable_data(), a.buffers[2]->data(), static_cast<size_t>(a_bytes));
  if (b_bytes != 0) std::memcpy(data->mutable_data() + a_bytes, b.buffers[2]->data(), static_cast<size_t>(b_bytes));
  return ArrayData::Make(type, length, {nullptr, std::move(offsets), std::move(data)}, 0);
}

}  // namespace

Status ColumnReader::MakeDictionaryArray() {
  const ByteArrayView* entries = leaf_.dictionary()->views();
  const int64_t n = leaf_.dictionary()->size();
  int64_t payload = 0;
  for (int64_t i = 0; i < n; ++i) payload += entries[i].length;
  // The entries lie back to back in the dictionary's buffer, in order (Dictionary::MakeByteArray).
  dictionary_bytes_ = ShareBytes(leaf_.dictionary(), leaf_.dictionary()->fixed_values(), payload);
  if (conversion_ != Conversion::kByteArrayDictionary) return Status::OK();
  if (!large_offsets_ && payload > std::numeric_limits<int32_t>::max()) {
    return Status::LimitExceeded("{}: a dictionary of {} bytes does not fit 32-bit offsets; read with large_binary",
                                 Where(), payload);
  }
  const int64_t width = large_offsets_ ? 8 : 4;
  STRATA_ASSIGN_OR_RETURN(auto offsets, AllocateBuffer(pool_, (n + 1) * width));
  auto fill = [&](auto* out) {
    using Offset = std::remove_pointer_t<decltype(out)>;
    int64_t position = 0;
    out[0] = 0;
    for (int64_t i = 0; i < n; ++i) {
      position += entries[i].length;
      out[i + 1] = static_cast<Offset>(position);
    }
  };
  if (large_offsets_) {
    fill(offsets->mutable_data_as<int64_t>());
  } else {
    fill(offsets->mutable_data_as<int32_t>());
  }
  dictionary_array_ = ArrayData::Make(output_type_->value_type(), n, {nullptr, std::move(offsets), dictionary_bytes_}, 0);
  if (validate_utf8_) STRATA_RETURN_NOT_OK(ValidateUtf8Values(*dictionary_array_, "dictionary"));
  return Status::OK();
}

Status ColumnReader::StartOutputBatch(int64_t rows) {
  STRATA_ASSIGN_OR_RETURN(values_, ResizableBuffer::Make(pool_));
  if (conversion_ == Conversion::kByteArrayDictionary) {
    STRATA_RETURN_NOT_OK(values_->Resize(rows * static_cast<int64_t>(sizeof(int32_t))));
    extension_offsets_.reset();
    extension_data_.reset();
    extension_pieces_.clear();
    extension_length_ = 0;
    batch_used_dictionary_ = false;
    extension_ranges_.clear();
    return Status::OK();
  }
  STRATA_RETURN_NOT_OK(values_->Resize(rows * view_layout::kViewSize));
  view_buffers_.clear();
  page_buffer_index_ = -1;
  dictionary_buffer_index_ = -1;
  copy_buffer_index_ = -1;
  copy_buffer_.reset();
  return Status::OK();
}

template <typename Offset>
Status ColumnReader::AppendExtension(const ByteArrayView* views, int64_t n) {
  int64_t total = 0;
  for (int64_t i = 0; i < n; ++i) total += views[i].length;
  const int64_t batch_rows = values_->size() / static_cast<int64_t>(sizeof(int32_t));
  if (!extension_offsets_) {
    // Offsets for every row of the batch at most (exact bound, never grown).
    STRATA_ASSIGN_OR_RETURN(extension_offsets_, ResizableBuffer::Make(pool_));
    STRATA_RETURN_NOT_OK(extension_offsets_->Reserve((batch_rows + 1) * static_cast<int64_t>(sizeof(Offset))));
    extension_offsets_->set_size(static_cast<int64_t>(sizeof(Offset)));
    std::memset(extension_offsets_->mutable_data(), 0, sizeof(Offset));
  }
  const int64_t start = extension_offsets_->data_as<Offset>()[extension_length_];  // bytes so far, in all pieces
  if (start + total > static_cast<int64_t>(std::numeric_limits<Offset>::max())) {
    return Status::LimitExceeded("{} bytes of non-dictionary values in one batch do not fit {}-bit offsets; read with "
                                 "large_binary or smaller batches",
                                 start + total, 8 * sizeof(Offset));
  }
  if (!extension_data_ || extension_data_->size() + total > extension_data_->capacity()) {
    // Data pieces are never grown: a range that does not fit the current one starts another,
    // sized for it and the batch's remaining rows at the estimate; the batch joins them once.
    if (extension_data_) extension_pieces_.push_back(std::move(extension_data_));
    const int64_t rows_left = batch_rows - extension_length_ - n;
    const auto projected = static_cast<int64_t>(bytes_per_row_estimate_ * 1.1 * static_cast<double>(rows_left));
    STRATA_ASSIGN_OR_RETURN(extension_data_, ResizableBuffer::Make(pool_, total + std::max<int64_t>(projected, 0)));
  }
  STRATA_RETURN_NOT_OK(extension_offsets_->Resize((extension_length_ + n + 1) * static_cast<int64_t>(sizeof(Offset))));
  Offset* offsets = extension_offsets_->mutable_data_as<Offset>() + extension_length_ + 1;
  uint8_t* data = extension_data_->mutable_data();
  int64_t local = extension_data_->size();
  int64_t position = start;
  for (int64_t i = 0; i < n; ++i) {
    if (views[i].length != 0) std::memcpy(data + local, views[i].data, views[i].length);
    local += views[i].length;
    position += views[i].length;
    offsets[i] = static_cast<Offset>(position);
  }
  extension_data_->set_size(local);
  return Status::OK();
}

Status ColumnReader::DecodeDictionaryIndices(int64_t slot, int64_t count, int64_t non_null, const uint8_t* validity) {
  int32_t* out = values_->mutable_data_as<int32_t>() + slot;
  if (page_dictionary_coded_) {
    STRATA_ASSIGN_OR_RETURN(const int64_t decoded, index_decoder_.DecodeIndices(out, non_null, leaf_.dictionary()->size()));
    if (decoded != non_null) {
      return Status::Corrupt("page at offset {}: dictionary indices end after {} of {} values", page_.file_offset,
                             decoded, non_null);
    }
    if (non_null > 0) batch_used_dictionary_ = true;
  } else {
    // Not dictionary-coded: the values join the batch's dictionary extension, in order.
    STRATA_RETURN_NOT_OK(views_.Resize(non_null * static_cast<int64_t>(sizeof(ByteArrayView))));
    auto* views = views_.mutable_data_as<ByteArrayView>();
    STRATA_RETURN_NOT_OK(decoder_->DecodeViews(views, non_null));
    if (large_offsets_) {
      STRATA_RETURN_NOT_OK(AppendExtension<int64_t>(views, non_null));
    } else {
      STRATA_RETURN_NOT_OK(AppendExtension<int32_t>(views, non_null));
    }
    for (int64_t k = 0; k < non_null; ++k) out[k] = static_cast<int32_t>(extension_length_ + k);
    extension_length_ += non_null;
    extension_ranges_.emplace_back(slot, count);
  }
  SpreadIndices(out, validity, slot, count, non_null);
  return Status::OK();
}

Result<ArrayDataPtr> ColumnReader::FinishDictionaryBatch(int64_t rows, std::shared_ptr<Buffer> validity) {
  const TypePtr& value_type = output_type_->value_type();
  ArrayDataPtr dictionary = dictionary_array_;
  if (extension_length_ > 0) {
    if (!extension_pieces_.empty()) {
      // The batch's non-dictionary values came in several pieces: one buffer of their exact size.
      extension_pieces_.push_back(std::move(extension_data_));
      int64_t bytes = 0;
      for (const auto& piece : extension_pieces_) bytes += piece->size();
      STRATA_ASSIGN_OR_RETURN(extension_data_, ResizableBuffer::Make(pool_, bytes));
      for (const auto& piece : extension_pieces_) {
        if (piece->size() > 0) STRATA_RETURN_NOT_OK(extension_data_->Append(piece->data(), piece->size()));
      }
      extension_pieces_.clear();
    }
    auto extension = ArrayData::Make(value_type, extension_length_, {nullptr, extension_offsets_, extension_data_}, 0);
    extension_offsets_.reset();
    extension_data_.reset();
    if (validate_utf8_) STRATA_RETURN_NOT_OK(ValidateUtf8Values(*extension, "batch's non-dictionary values"));
    if (batch_used_dictionary_ && dictionary_array_ != nullptr && dictionary_array_->length > 0) {
      // The batch mixes both (the page where the writer fell back to PLAIN): its dictionary is
      // the chunk's followed by the extension, whose indices move up by the chunk's size.
      auto concat = large_offsets_ ? ConcatStrings<int64_t>(value_type, *dictionary_array_, *extension, pool_)
                                   : ConcatStrings<int32_t>(value_type, *dictionary_array_, *extension, pool_);
      if (!concat.ok()) return concat.status().WithContext(Where());
      dictionary = std::move(*concat);
      const auto base = static_cast<int32_t>(dictionary_array_->length);
      int32_t* indices = values_->mutable_data_as<int32_t>();
      const uint8_t* bits = validity ? validity->data() : nullptr;
      for (const auto& [first, count] : extension_ranges_) {
        for (int64_t i = first; i < first + count; ++i) {
          if (bits == nullptr || IsBitSet(bits, i)) indices[i] += base;
        }
      }
    } else {
      dictionary = std::move(extension);
    }
  } else if (dictionary == nullptr) {
    // No dictionary page and no values (all null, or an empty batch): an empty dictionary.
    const int64_t width = large_offsets_ ? 8 : 4;
    STRATA_ASSIGN_OR_RETURN(auto offsets, AllocateBuffer(pool_, width));
    std::memset(offsets->mutable_data(), 0, static_cast<size_t>(width));
    STRATA_ASSIGN_OR_RETURN(auto data, AllocateBuffer(pool_, 0));
    dictionary = ArrayData::Make(value_type, 0, {nullptr, std::move(offsets), std::move(data)}, 0);
  }
  auto batch = ArrayData::Make(output_type_, rows, {std::move(validity), std::move(values_)}, null_count_);
  batch->dictionary = std::move(dictionary);
  return batch;
}

Result<int32_t> ColumnReader::PageBufferIndex() {
  if (!page_shared_) {
    // The batch keeps the page reader's buffer of the page (decompressed, as read, or the
    // whole chunk): no copy, and the reader takes a fresh buffer for a later page while a
    // batch holds this one. The batch's data buffer is the values' span of it.
    std::shared_ptr<Buffer> owner = pages_->ShareValues();
    const uint8_t* begin = owner ? owner->data() : nullptr;
    if (owner && page_values_ >= begin && page_values_ + page_values_size_ <= begin + owner->size()) {
      page_share_ = Buffer::Slice(std::move(owner), page_values_ - begin, page_values_size_);
    } else {
      // Bytes the batch cannot keep (a slice of a pre-buffered range of many chunks): a copy.
      // The previous copy is reused when no array refers to it.
      if (!page_copy_ || page_copy_.use_count() > 1) {
        STRATA_ASSIGN_OR_RETURN(page_copy_, ResizableBuffer::Make(pool_));
      }
      STRATA_RETURN_NOT_OK(page_copy_->ReserveDiscardingContents(page_values_size_));
      page_copy_->set_size(page_values_size_);
      if (page_values_size_ > 0) {
        std::memcpy(page_copy_->mutable_data(), page_values_, static_cast<size_t>(page_values_size_));
      }
      page_share_ = page_copy_;
    }
    page_shared_ = true;
    page_buffer_index_ = -1;
  }
  if (page_buffer_index_ < 0) {
    view_buffers_.push_back(page_share_);
    page_buffer_index_ = static_cast<int32_t>(view_buffers_.size() - 1);
  }
  return page_buffer_index_;
}

Result<int32_t> ColumnReader::CopyBufferIndex(int64_t bytes) {
  if (copy_buffer_ && copy_buffer_->size() + bytes <= copy_buffer_->capacity()) return copy_buffer_index_;
  // A new data buffer of this range's exact size: the batch's buffers never grow (a view
  // addresses any of them, and at most 2 GiB of one).
  if (bytes > kMaxViewOffset) {
    return Status::LimitExceeded("page at offset {}: {} bytes of long values in one range exceed what views address",
                                 page_.file_offset, bytes);
  }
  STRATA_ASSIGN_OR_RETURN(copy_buffer_, ResizableBuffer::Make(pool_));
  STRATA_RETURN_NOT_OK(copy_buffer_->Reserve(bytes));
  view_buffers_.push_back(copy_buffer_);
  copy_buffer_index_ = static_cast<int32_t>(view_buffers_.size() - 1);
  return copy_buffer_index_;
}

Status ColumnReader::DecodeViewRange(int64_t slot, int64_t count, int64_t non_null, const uint8_t* validity) {
  STRATA_RETURN_NOT_OK(views_.Resize(non_null * static_cast<int64_t>(sizeof(ByteArrayView))));
  auto* values = views_.mutable_data_as<ByteArrayView>();
  STRATA_RETURN_NOT_OK(decoder_->DecodeViews(values, non_null));
  uint8_t* out = values_->mutable_data() + slot * view_layout::kViewSize;
  int64_t long_bytes = 0;
  for (int64_t i = 0; i < non_null; ++i) {
    const uint32_t length = values[i].length;
    if (length > static_cast<uint32_t>(view_layout::kInlineSize)) long_bytes += length;
    if (length > static_cast<uint32_t>(kMaxViewOffset)) {
      return Status::LimitExceeded("page at offset {}: a value of {} bytes is longer than a view can describe",
                                   page_.file_offset, length);
    }
  }
  // Where the long values' bytes are, once per range.
  if (long_bytes == 0) {
    WriteViews<false>(values, count, non_null, validity, slot, out, nullptr, 0, nullptr);
    return Status::OK();
  }
  if (page_dictionary_coded_ && dictionary_bytes_ && dictionary_bytes_->size() <= kMaxViewOffset) {
    if (dictionary_buffer_index_ < 0) {
      view_buffers_.push_back(dictionary_bytes_);
      dictionary_buffer_index_ = static_cast<int32_t>(view_buffers_.size() - 1);
    }
    WriteViews<false>(values, count, non_null, validity, slot, out, dictionary_bytes_->data(),
                      dictionary_buffer_index_, nullptr);
    return Status::OK();
  }
  // PLAIN and DELTA_LENGTH_BYTE_ARRAY values are the page's bytes: views point into the page.
  if ((page_.encoding == Encoding::kPlain || page_.encoding == Encoding::kDeltaLengthByteArray) &&
      page_values_size_ <= kMaxViewOffset) {
    STRATA_ASSIGN_OR_RETURN(const int32_t index, PageBufferIndex());
    WriteViews<false>(values, count, non_null, validity, slot, out, page_values_, index, nullptr);
    return Status::OK();
  }
  // DELTA_BYTE_ARRAY rebuilds values in decoder scratch (and huge pages pass 2 GiB of offsets):
  // copy the long values out.
  STRATA_ASSIGN_OR_RETURN(const int32_t index, CopyBufferIndex(long_bytes));
  WriteViews<true>(values, count, non_null, validity, slot, out, nullptr, index, copy_buffer_.get());
  return Status::OK();
}

Result<ArrayDataPtr> ColumnReader::FinishViewBatch(int64_t rows, std::shared_ptr<Buffer> validity) {
  std::vector<std::shared_ptr<Buffer>> buffers;
  buffers.reserve(2 + view_buffers_.size());
  buffers.push_back(std::move(validity));
  buffers.push_back(std::move(values_));
  for (auto& buffer : view_buffers_) buffers.push_back(std::move(buffer));
  view_buffers_.clear();
  copy_buffer_.reset();
  auto batch = ArrayData::Make(output_type_, rows, std::move(buffers), null_count_);
  if (validate_utf8_) {
    const BinaryViewArray array(batch);
    for (int64_t i = 0; i < rows; ++i) {
      if (array.IsValid(i) && !ValidateUtf8(array.GetView(i))) {
        return Status::Corrupt("{}: value {} of the batch (row {} of the chunk) is not valid UTF-8", Where(), i,
                               rows_read_ - rows + i);
      }
    }
  }
  return batch;
}

}  // namespace strata::parquet
