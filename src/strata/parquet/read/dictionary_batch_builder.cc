#include "strata/parquet/read/dictionary_batch_builder.h"

#include <algorithm>
#include <cstring>
#include <limits>

#include "strata/util/bit_util.h"

namespace strata::parquet {
namespace {

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

DictionaryBatchBuilder::DictionaryBatchBuilder(MemoryPool* pool, TypePtr type)
    : pool_(pool), value_type_(type->value_type()), large_offsets_(is_large_binary_like(value_type_->id())) {}

Status DictionaryBatchBuilder::SetDictionary(const ByteArrayView* entries, int64_t n, std::shared_ptr<Buffer> bytes) {
  if (!large_offsets_ && bytes->size() > std::numeric_limits<int32_t>::max()) {
    return Status::LimitExceeded("a dictionary of {} bytes does not fit 32-bit offsets; read with large_binary",
                                 bytes->size());
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
  dictionary_ = ArrayData::Make(value_type_, n, {nullptr, std::move(offsets), std::move(bytes)}, 0);
  return Status::OK();
}

void DictionaryBatchBuilder::StartBatch(int64_t rows, double bytes_per_row) {
  batch_rows_ = rows;
  bytes_per_row_ = bytes_per_row;
  extension_offsets_.reset();
  extension_data_.reset();
  extension_pieces_.clear();
  extension_length_ = 0;
  used_dictionary_ = false;
  extension_ranges_.clear();
}

template <typename Offset>
Status DictionaryBatchBuilder::AppendExtension(const ByteArrayView* views, int64_t n) {
  int64_t total = 0;
  for (int64_t i = 0; i < n; ++i) total += views[i].length;
  if (!extension_offsets_) {
    // Offsets for every row of the batch at most (exact bound, never grown).
    STRATA_ASSIGN_OR_RETURN(extension_offsets_, ResizableBuffer::Make(pool_));
    STRATA_RETURN_NOT_OK(extension_offsets_->Reserve((batch_rows_ + 1) * static_cast<int64_t>(sizeof(Offset))));
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
    const int64_t rows_left = batch_rows_ - extension_length_ - n;
    const auto projected = static_cast<int64_t>(bytes_per_row_ * 1.1 * static_cast<double>(rows_left));
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

Status DictionaryBatchBuilder::AppendValues(const ByteArrayView* values, int64_t non_null, int64_t slot, int64_t count,
                                            int32_t* indices) {
  if (large_offsets_) {
    STRATA_RETURN_NOT_OK(AppendExtension<int64_t>(values, non_null));
  } else {
    STRATA_RETURN_NOT_OK(AppendExtension<int32_t>(values, non_null));
  }
  for (int64_t k = 0; k < non_null; ++k) indices[k] = static_cast<int32_t>(extension_length_ + k);
  extension_length_ += non_null;
  extension_ranges_.emplace_back(slot, count);
  return Status::OK();
}

Result<ArrayDataPtr> DictionaryBatchBuilder::FinishDictionary(int32_t* indices, const uint8_t* validity,
                                                             const std::function<Status(const ArrayData&)>& check) {
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
    auto extension = ArrayData::Make(value_type_, extension_length_, {nullptr, extension_offsets_, extension_data_}, 0);
    extension_offsets_.reset();
    extension_data_.reset();
    if (check) STRATA_RETURN_NOT_OK(check(*extension));
    if (!used_dictionary_ || dictionary_ == nullptr || dictionary_->length == 0) return extension;
    // The batch mixes both (the page where the writer fell back to PLAIN): its dictionary is
    // the chunk's followed by the extension, whose indices move up by the chunk's size.
    STRATA_ASSIGN_OR_RETURN(auto both, large_offsets_
                                           ? ConcatStrings<int64_t>(value_type_, *dictionary_, *extension, pool_)
                                           : ConcatStrings<int32_t>(value_type_, *dictionary_, *extension, pool_));
    const auto base = static_cast<int32_t>(dictionary_->length);
    for (const auto& [first, count] : extension_ranges_) {
      for (int64_t i = first; i < first + count; ++i) {
        if (validity == nullptr || bit_util::GetBit(validity, i)) indices[i] += base;
      }
    }
    return both;
  }
  if (dictionary_ != nullptr) return dictionary_;
  // No dictionary page and no values (all null, or an empty batch): an empty dictionary.
  const int64_t width = large_offsets_ ? 8 : 4;
  STRATA_ASSIGN_OR_RETURN(auto offsets, AllocateBuffer(pool_, width));
  std::memset(offsets->mutable_data(), 0, static_cast<size_t>(width));
  STRATA_ASSIGN_OR_RETURN(auto data, AllocateBuffer(pool_, 0));
  return ArrayData::Make(value_type_, 0, {nullptr, std::move(offsets), std::move(data)}, 0);
}

int64_t DictionaryBatchBuilder::memory_size() const {
  return dictionary_ && dictionary_->buffers[1] ? dictionary_->buffers[1]->capacity() : 0;
}

}  // namespace strata::parquet
