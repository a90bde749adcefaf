#include "strata/parquet/read/column_reader.h"

#include <algorithm>
#include <cstring>
#include <functional>
#include <limits>

#include <fmt/format.h>

#include "strata/array/array.h"
#include "strata/parquet/read/offset_limit.h"
#include "strata/parquet/read/value_conversion.h"
#include "strata/util/bit_util.h"
#include "strata/util/utf8.h"

namespace strata::parquet {

ColumnReader::ColumnReader(const ColumnDescriptor& column, const ColumnMetaData& metadata, int64_t rows_in_chunk,
                           TypePtr output_type, std::unique_ptr<PageReader> pages, MemoryPool* pool,
                           int64_t window_bytes)
    : column_(column),
      metadata_(metadata),
      rows_in_chunk_(rows_in_chunk),
      output_type_(std::move(output_type)),
      pages_(std::move(pages)),
      pool_(pool),
      offset_limit_(OffsetLimit()),
      pending_validity_(pool),
      pending_merge_(pool),
      leaf_(column, pool),
      scratch_(pool),
      views_(pool),
      window_bytes_(window_bytes),
      window_(pool),
      levels_copy_(pool),
      view_out_(pool) {}

Result<std::unique_ptr<ColumnReader>> ColumnReader::Make(const ColumnDescriptor& column, const ColumnMetaData& metadata,
                                                         int64_t rows_in_chunk, TypePtr output_type,
                                                         std::unique_ptr<PageReader> pages, MemoryPool* pool,
                                                         const PageReadOptions& page_options) {
  auto reader = std::unique_ptr<ColumnReader>(new ColumnReader(column, metadata, rows_in_chunk, std::move(output_type),
                                                               std::move(pages), pool,
                                                               page_options.stream_window_bytes));
  STRATA_RETURN_NOT_OK(reader->Init());
  switch (reader->conversion_) {
    case Conversion::kCopy:
    case Conversion::kNarrow:
    case Conversion::kSignExtend:
    case Conversion::kBigEndianDecimal:
    case Conversion::kInt96:
    case Conversion::kInterval:
    case Conversion::kByteArray:
      reader->pages_->AllowStreaming(page_options.stream_large_pages);
      break;
    case Conversion::kByteArrayView:
      reader->pages_->KeepStoredPages(true);  // views refer to PLAIN pages' bytes
      break;
    default:
      break;
  }
  return reader;
}

std::string ColumnReader::Where() const {
  return fmt::format("'{}', column '{}' (row group {})", pages_->source_name(), column_.dotted_path,
                     pages_->location().row_group);
}

Status ColumnReader::Init() {
  if (column_.max_repetition_level > 0) {
    return Status::NotImplemented("column '{}' is repeated; nested columns are read by the record assembler",
                                  column_.dotted_path);
  }
  const TypeId out = output_type_->id();
  STRATA_RETURN_NOT_OK(leaf_.Init(&output_type_, /*slots_are_rows=*/true));
  conversion_ = leaf_.conversion();
  physical_width_ = leaf_.physical_width();
  output_width_ = leaf_.output_width();
  if (conversion_ == Conversion::kDiscard) return Status::OK();
  if (conversion_ == Conversion::kByteArray) {
    if (out == TypeId::kDictionary) {
      const TypeId values = output_type_->value_type()->id();
      if (!(is_binary_like(values) || is_large_binary_like(values)) ||
          output_type_->index_type()->id() != TypeId::kInt32) {
        return Status::NotImplemented("column '{}': BYTE_ARRAY values cannot be read as {}", column_.dotted_path,
                                      output_type_->ToString());
      }
      conversion_ = Conversion::kByteArrayDictionary;
      large_offsets_ = is_large_binary_like(values);
      dictionary_out_ = std::make_unique<DictionaryBatchBuilder>(pool_, output_type_);
    } else if (is_view(out)) {
      conversion_ = Conversion::kByteArrayView;
    } else {
      large_offsets_ = is_large_binary_like(out);
    }
  }
  const bool byte_array_output = conversion_ == Conversion::kByteArray ||
                                 conversion_ == Conversion::kByteArrayDictionary ||
                                 conversion_ == Conversion::kByteArrayView;
  if (byte_array_output && rows_in_chunk_ > 0) {
    // The data buffer is sized once per batch from this.
    const ChunkValueBytes chunk = EstimateChunkValueBytes(metadata_);
    bytes_per_row_estimate_ = static_cast<double>(chunk.bytes) / static_cast<double>(rows_in_chunk_);
    if (chunk.exact) exact_chunk_bytes_ = chunk.bytes;
  }
  return Status::OK();
}

int64_t ColumnReader::memory_size() const {
  int64_t total = pages_->memory_size() + scratch_.capacity() + views_.capacity() + window_.capacity() +
                  levels_copy_.capacity() + pending_validity_.capacity() + pending_merge_.capacity();
  total += leaf_.memory_size();
  if (dictionary_out_) total += dictionary_out_->memory_size();
  total += view_out_.memory_size();
  return total;
}

Result<bool> ColumnReader::NextDataPage() {
  view_out_.StartPage();
  while (true) {
    STRATA_ASSIGN_OR_RETURN(const bool more, pages_->Next(&page_));
    if (!more) return false;
    const int64_t values_offset = page_.file_offset;  // header offset; precise enough for messages
    if (page_.type == PageType::kDictionaryPage) {
      STRATA_RETURN_NOT_OK(leaf_.SetDictionaryPage(page_));
      const Dictionary& dictionary = *leaf_.dictionary();
      if (column_.physical_type == PhysicalType::kByteArray) {
        int64_t dictionary_bytes = 0;
        for (int64_t i = 0; i < dictionary.size(); ++i) dictionary_bytes += dictionary.views()[i].length;
        // For dictionary-encoded chunks the chunk's sizes understate the decoded bytes, the
        // dictionary's mean length does not.
        if (dictionary.size() > 0) {
          bytes_per_row_estimate_ = std::max(bytes_per_row_estimate_, static_cast<double>(dictionary_bytes) /
                                                                          static_cast<double>(dictionary.size()));
        }
        if (conversion_ == Conversion::kByteArrayDictionary || conversion_ == Conversion::kByteArrayView) {
          STRATA_RETURN_NOT_OK(ShareDictionary());
        }
      }
      continue;
    }
    if (page_.num_values == 0) continue;
    streaming_ = page_.streamed;
    if (streaming_) {
      STRATA_RETURN_NOT_OK(StartStreamedPage());
      page_values_left_ = page_.num_values;
      return true;
    }
    const uint8_t* data = page_.values.data();
    int64_t size = static_cast<int64_t>(page_.values.size());
    if (column_.max_definition_level > 0) {
      STRATA_RETURN_NOT_OK(
          StartPageLevels(page_, /*repetition=*/false, column_.max_definition_level, &definition_levels_, &data, &size));
    }
    const bool indices_direct = conversion_ == Conversion::kByteArrayDictionary &&
                                (page_.encoding == Encoding::kPlainDictionary ||
                                 page_.encoding == Encoding::kRleDictionary);
    STRATA_RETURN_NOT_OK(leaf_.StartPage(page_.encoding, page_.num_values, data, size, values_offset, !indices_direct));
    decoder_ = leaf_.decoder();
    page_values_ = data;
    page_values_size_ = size;
    page_dictionary_coded_ =
        page_.encoding == Encoding::kPlainDictionary || page_.encoding == Encoding::kRleDictionary;
    if (conversion_ == Conversion::kByteArrayDictionary && page_dictionary_coded_) {
      // Indices go straight into the batch: no gather through the value decoder.
      STRATA_RETURN_NOT_OK(index_decoder_.ResetForDictionaryIndices(data, size, values_offset));
      page_values_left_ = page_.num_values;
      return true;
    }
    // Views for the page's values, sized once per page (num_values bounds every range of it),
    // so batches never grow them; a larger page frees the old block first.
    if (column_.physical_type == PhysicalType::kByteArray ||
        (column_.physical_type == PhysicalType::kFixedLenByteArray && page_.encoding == Encoding::kDeltaByteArray)) {
      STRATA_RETURN_NOT_OK(views_.ReserveScratch(std::min<int64_t>(page_.num_values, max_batch_rows_) *
                                                 static_cast<int64_t>(sizeof(ByteArrayView))));
    }
    page_values_left_ = page_.num_values;
    return true;
  }
}

Result<ArrayDataPtr> ColumnReader::ReadBatch(int64_t rows) {
  rows = std::min(rows, rows_left());
  if (rows < 0) rows = 0;
  const bool nullable = column_.max_definition_level > 0;
  null_count_ = 0;
  validity_.reset();
  values_.reset();
  data_.reset();
  if (nullable) {
    STRATA_ASSIGN_OR_RETURN(validity_, ResizableBuffer::Make(pool_));
    STRATA_RETURN_NOT_OK(validity_->ResizeZeroed(bit_util::BytesForBits(rows)));
  }
  switch (conversion_) {
    case Conversion::kDiscard:
      break;
    case Conversion::kBits: {
      STRATA_ASSIGN_OR_RETURN(values_, ResizableBuffer::Make(pool_));
      STRATA_RETURN_NOT_OK(values_->ResizeZeroed(bit_util::BytesForBits(rows)));
      break;
    }
    case Conversion::kByteArray: {
      const int64_t offset_width = large_offsets_ ? 8 : 4;
      STRATA_ASSIGN_OR_RETURN(values_, ResizableBuffer::Make(pool_));
      STRATA_RETURN_NOT_OK(values_->Resize((rows + 1) * offset_width));
      std::memset(values_->mutable_data(), 0, static_cast<size_t>(offset_width));
      STRATA_ASSIGN_OR_RETURN(data_, ResizableBuffer::Make(pool_));
      if (rows_read_ == 0 && page_values_left_ == 0 && rows > 0) {
        // Load the dictionary (if any) before sizing: it refines the bytes-per-row estimate.
        auto more = NextDataPage();
        if (!more.ok()) return more.status().WithContext(Where());
      }
      int64_t reserve = static_cast<int64_t>(bytes_per_row_estimate_ * static_cast<double>(rows) * 1.1);
      if (exact_chunk_bytes_ >= 0 && rows == rows_left()) {
        // The chunk's last batch: SizeStatistics give its size exactly.
        reserve = std::max<int64_t>(exact_chunk_bytes_ - data_bytes_returned_, 0);
      }
      // The 10% covers batches larger than the average. The buffer is allocated once, when its
      // first bytes are known, and never grows: a range that does not fit ends the batch.
      data_reserve_ = reserve;
      break;
    }
    case Conversion::kByteArrayDictionary: {
      STRATA_ASSIGN_OR_RETURN(values_, ResizableBuffer::Make(pool_));
      STRATA_RETURN_NOT_OK(values_->Resize(rows * static_cast<int64_t>(sizeof(int32_t))));
      dictionary_out_->StartBatch(rows, bytes_per_row_estimate_);
      break;
    }
    case Conversion::kByteArrayView: {
      STRATA_ASSIGN_OR_RETURN(values_, ResizableBuffer::Make(pool_));
      STRATA_RETURN_NOT_OK(values_->Resize(rows * view_layout::kViewSize));
      view_out_.StartBatch();
      break;
    }
    default: {
      STRATA_ASSIGN_OR_RETURN(values_, ResizableBuffer::Make(pool_));
      STRATA_RETURN_NOT_OK(values_->Resize(rows * output_width_));
      break;
    }
  }

  int64_t filled = 0;
  bool cut_short = false;
  if (pending_slots_ > 0 && rows > 0) {
    // The slots the previous batch had no room for open this one.
    auto taken = TakePendingSlots(rows);
    if (!taken.ok()) return taken.status().WithContext(Where());
    filled = *taken;
    cut_short = pending_slots_ > 0;
  }
  while (filled < rows && !cut_short) {
    if (page_values_left_ == 0) {
      auto more = NextDataPage();
      if (!more.ok()) return more.status().WithContext(Where());
      if (!*more) {
        return Status::Corrupt("{}: the column chunk ends after {} rows; the row group declares {}", Where(),
                               rows_read_ + filled, rows_in_chunk_);
      }
    }
    const int64_t count = std::min(rows - filled, page_values_left_);
    Status st = DecodeRange(filled, count);
    if (!st.ok()) return st.WithContext(Where());
    page_values_left_ -= count;
    filled += count - pending_slots_;
    cut_short = pending_slots_ > 0;  // the batch ends before the pending slots
  }
  rows = filled;
  rows_read_ += rows;
  if (data_) data_bytes_returned_ += data_->size();
  if (data_ && rows > 0) {
    // Later batches of this chunk look like this one more than like the chunk's metadata
    // (dictionary-encoded chunks understate their decoded size): learn from it, so the next
    // batch's single Reserve() suffices.
    bytes_per_row_estimate_ = std::max(bytes_per_row_estimate_,
                                       static_cast<double>(data_->size()) / static_cast<double>(rows));
  }

  std::vector<std::shared_ptr<Buffer>> buffers;
  std::shared_ptr<Buffer> validity;
  if (null_count_ > 0) validity = validity_;
  validity_.reset();  // no nulls: the bitmap goes back to the pool now
  buffers.push_back(std::move(validity));
  if (conversion_ == Conversion::kDiscard) {
    return ArrayData::Make(output_type_, rows, {}, rows);
  }
  if (conversion_ == Conversion::kByteArrayDictionary) return FinishDictionaryBatch(rows, std::move(buffers[0]));
  if (conversion_ == Conversion::kByteArrayView) return FinishViewBatch(rows, std::move(buffers[0]));
  buffers.push_back(std::move(values_));
  if (conversion_ == Conversion::kByteArray) buffers.push_back(std::move(data_));
  auto batch = ArrayData::Make(output_type_, rows, std::move(buffers), null_count_);
  if (validate_utf8_) STRATA_RETURN_NOT_OK(ValidateUtf8Values(*batch));
  if (leaf_.decimal_text()) return leaf_.decimal_text()->Convert(*batch);
  return batch;
}

Status ColumnReader::SkipRows(int64_t rows) {
  rows = std::clamp<int64_t>(rows, 0, rows_left());
  while (rows > 0 && pending_slots_ > 0) {
    // The slots left out of the last batch are the first rows skipped.
    STRATA_ASSIGN_OR_RETURN(const ArrayDataPtr dropped, ReadBatch(std::min(rows, pending_slots_)));
    if (dropped->length == 0) return Status::Corrupt("{}: no rows left to skip", Where());
    rows -= dropped->length;
  }
  while (rows > 0) {
    if (page_values_left_ == 0) {
      // At a page boundary whole pages go by undecoded: the page reader passes over them.
      pages_->SkipDataPageRows(rows);
      auto more = NextDataPage();
      const int64_t skipped = pages_->TakeSkippedRows();
      if (!more.ok()) return more.status().WithContext(Where());
      rows_read_ += skipped;
      rows -= skipped;
      if (!*more) {
        if (rows == 0) break;
        return Status::Corrupt("{}: the column chunk ends after {} rows; the row group declares {}", Where(),
                               rows_read_, rows_in_chunk_);
      }
      if (rows == 0) break;
    }
    // Within a page: decoded and dropped (the decoders have no cheaper way forward).
    const int64_t n = std::min({rows, page_values_left_, int64_t{1} << 16});
    STRATA_ASSIGN_OR_RETURN(const ArrayDataPtr dropped, ReadBatch(n));
    if (dropped->length == 0) return Status::Corrupt("{}: no rows left to skip", Where());
    rows -= dropped->length;
  }
  return Status::OK();
}

Status ColumnReader::ValidateUtf8Values(const ArrayData& batch, const char* what) const {
  const uint8_t* data = batch.buffers[2] ? batch.buffers[2]->data() : nullptr;
  const int64_t size = batch.buffers[2] ? batch.buffers[2]->size() : 0;
  auto offset_at = [&](int64_t i) -> int64_t {
    return large_offsets_ ? batch.buffers[1]->data_as<int64_t>()[i] : batch.buffers[1]->data_as<int32_t>()[i];
  };
  // One pass over all the bytes, then the value boundaries: a value may not start with a
  // continuation byte (the whole can be valid while a value splits a character).
  bool valid = size == 0 || ValidateUtf8(data, size);
  for (int64_t i = 0; valid && i < batch.length; ++i) {
    const int64_t start = offset_at(i);
    if (start < offset_at(i + 1) && (data[start] & 0xC0) == 0x80) valid = false;
  }
  if (valid) return Status::OK();
  for (int64_t i = 0; i < batch.length; ++i) {
    const int64_t start = offset_at(i);
    if (!ValidateUtf8(data + start, offset_at(i + 1) - start)) {
      if (std::string_view(what) != "batch") {
        return Status::Corrupt("{}: value {} of the {} is not valid UTF-8", Where(), i, what);
      }
      return Status::Corrupt("{}: value {} of the batch (row {} of the chunk) is not valid UTF-8", Where(), i,
                             rows_read_ - batch.length + i);
    }
  }
  return Status::Corrupt("{}: string values are not valid UTF-8", Where());
}

Status ColumnReader::DecodeRange(int64_t slot, int64_t count) {
  int64_t non_null = count;
  const uint8_t* validity = nullptr;
  if (column_.max_definition_level > 0) {
    STRATA_ASSIGN_OR_RETURN(non_null, definition_levels_.DecodeValidity(count, validity_->mutable_data(), slot));
    validity = validity_->data();
    null_count_ += count - non_null;
  }
  if (LeafDecoder::IsFixedWidth(conversion_)) {
    return leaf_.DecodeFixedWidth(values_->mutable_data(), slot, count, non_null, validity, rows_read_,
                                  [this](uint8_t* out, int64_t n) { return DecodeDenseFixed(out, n); });
  }
  switch (conversion_) {
    case Conversion::kByteArray:
    case Conversion::kByteArrayDecimal:
      if (streaming_) return DecodeByteArraysStreamed(slot, count, validity);
      return DecodeByteArrays(slot, count, non_null, validity);
    case Conversion::kByteArrayDictionary:
      return DecodeDictionaryIndices(slot, count, non_null, validity);
    case Conversion::kByteArrayView:
      return DecodeViewRange(slot, count, non_null, validity);
    case Conversion::kDiscard:
      if (column_.physical_type == PhysicalType::kBoolean) {
        STRATA_RETURN_NOT_OK(scratch_.ResizeZeroed(bit_util::BytesForBits(non_null)));
        return decoder_->DecodeBits(scratch_.mutable_data(), 0, non_null);
      }
      if (column_.physical_type == PhysicalType::kByteArray) {
        STRATA_RETURN_NOT_OK(views_.ReserveScratch(non_null * static_cast<int64_t>(sizeof(ByteArrayView))));
        return decoder_->DecodeViews(views_.mutable_data_as<ByteArrayView>(), non_null);
      }
      STRATA_RETURN_NOT_OK(scratch_.Resize(non_null * physical_width_));
      return decoder_->DecodeFixed(scratch_.mutable_data(), non_null);
    default:  // fixed-width conversions: above
      break;
  }
  return Status::OK();
}

Status ColumnReader::DecodeByteArrays(int64_t slot, int64_t count, int64_t non_null, const uint8_t* validity) {
  int64_t total = 0;
  STRATA_ASSIGN_OR_RETURN(const ByteArrayView* views, leaf_.DecodeByteArrays(&views_, values_->mutable_data(), slot,
                                                                             count, non_null, validity, &total));
  if (conversion_ == Conversion::kByteArrayDecimal) return Status::OK();
  const int64_t first_view = views - views_.data_as<ByteArrayView>();
  RangeCut kept{true, count, count, non_null, total};
  if (!large_offsets_ && data_->size() + total > offset_limit_) {
    // The batch ends at the last slot that keeps it within the 32-bit offsets' limit; the
    // decoded values after it (views into the page or decoder scratch, untouched until taken)
    // open the next batch.
    kept = KeepFlatWithinOffsetLimit(count, views, validity, slot, data_->size(), offset_limit_);
    if (kept.slots == 0 && data_->size() == 0) {
      return OneRowPastOffsetLimit(offset_limit_, views[0].length);
    }
  }
  STRATA_ASSIGN_OR_RETURN(const bool room, RoomForData(data_->size() + kept.bytes, slot + kept.slots));
  if (!room) return PendSlots(slot, count, first_view, false);
  AppendByteArraysAtSlots(views, validity, slot, kept.slots, kept.values, large_offsets_, values_->mutable_data(),
                          data_.get());
  if (kept.slots == count) return Status::OK();
  return PendSlots(slot + kept.slots, count - kept.slots, first_view + kept.values, false);
}

// ---- dictionary and view outputs ------------------------------------------------------------

namespace {

// A Buffer over bytes owned by something else, which it keeps alive.
struct SharedBytes {
  SharedBytes(std::shared_ptr<const void> owner, const uint8_t* data, int64_t size)
      : owner(std::move(owner)), bytes(data, size) {}
  std::shared_ptr<const void> owner;
  Buffer bytes;
};

// Moves `non_null` dense indices at the front of `out` to the valid slots of [0, count) (bits
// [slot, slot + count) of `validity`); null slots get index 0. Backwards, so it works in place.
void SpreadIndices(int32_t* out, const uint8_t* validity, int64_t slot, int64_t count, int64_t non_null) {
  int64_t j = non_null - 1;
  for (int64_t i = count - 1; i >= 0 && j < i; --i) out[i] = IsBitSet(validity, slot + i) ? out[j--] : 0;
}

}  // namespace

Status ColumnReader::ShareDictionary() {
  const ByteArrayView* entries = leaf_.dictionary()->views();
  const int64_t n = leaf_.dictionary()->size();
  int64_t payload = 0;
  for (int64_t i = 0; i < n; ++i) payload += entries[i].length;
  // The entries lie back to back in the dictionary's buffer, in order (Dictionary::MakeByteArray).
  auto holder = std::make_shared<SharedBytes>(leaf_.dictionary(), leaf_.dictionary()->fixed_values(), payload);
  dictionary_bytes_ = std::shared_ptr<Buffer>(holder, &holder->bytes);
  if (!dictionary_out_) return Status::OK();
  Status st = dictionary_out_->SetDictionary(entries, n, dictionary_bytes_);
  if (!st.ok()) return st.WithContext(Where());
  if (validate_utf8_) return ValidateUtf8Values(*dictionary_out_->dictionary(), "dictionary");
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
    if (non_null > 0) dictionary_out_->NoteDictionaryIndices();
  } else {
    // Not dictionary-coded: the values join the batch's dictionary extension, in order.
    STRATA_RETURN_NOT_OK(views_.Resize(non_null * static_cast<int64_t>(sizeof(ByteArrayView))));
    auto* views = views_.mutable_data_as<ByteArrayView>();
    STRATA_RETURN_NOT_OK(decoder_->DecodeViews(views, non_null));
    STRATA_RETURN_NOT_OK(dictionary_out_->AppendValues(views, non_null, slot, count, out));
  }
  SpreadIndices(out, validity, slot, count, non_null);
  return Status::OK();
}

Result<ArrayDataPtr> ColumnReader::FinishDictionaryBatch(int64_t rows, std::shared_ptr<Buffer> validity) {
  auto check = [this](const ArrayData& extension) {
    return ValidateUtf8Values(extension, "batch's non-dictionary values");
  };
  auto dictionary = dictionary_out_->FinishDictionary(values_->mutable_data_as<int32_t>(),
                                                      validity ? validity->data() : nullptr,
                                                      validate_utf8_ ? std::function<Status(const ArrayData&)>(check)
                                                                     : std::function<Status(const ArrayData&)>());
  if (!dictionary.ok()) return dictionary.status().WithContext(Where());
  auto batch = ArrayData::Make(output_type_, rows, {std::move(validity), std::move(values_)}, null_count_);
  batch->dictionary = std::move(*dictionary);
  return batch;
}

Status ColumnReader::DecodeViewRange(int64_t slot, int64_t count, int64_t non_null, const uint8_t* validity) {
  STRATA_RETURN_NOT_OK(views_.Resize(non_null * static_cast<int64_t>(sizeof(ByteArrayView))));
  auto* values = views_.mutable_data_as<ByteArrayView>();
  STRATA_RETURN_NOT_OK(decoder_->DecodeViews(values, non_null));
  ViewBatchBuilder::PageValues page;
  page.data = page_values_;
  page.size = page_values_size_;
  page.encoding = page_.encoding;
  page.dictionary_coded = page_dictionary_coded_;
  page.file_offset = page_.file_offset;
  page.reader = pages_.get();
  return view_out_.WriteRange(values, count, non_null, validity, slot,
                              values_->mutable_data() + slot * view_layout::kViewSize, page, dictionary_bytes_);
}

Result<ArrayDataPtr> ColumnReader::FinishViewBatch(int64_t rows, std::shared_ptr<Buffer> validity) {
  std::vector<std::shared_ptr<Buffer>> buffers = view_out_.TakeBuffers();
  buffers.insert(buffers.begin(), {std::move(validity), std::move(values_)});
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

namespace strata::parquet {

Result<bool> ColumnReader::RoomForData(int64_t needed, int64_t rows_done) {
  if (needed <= data_->capacity()) return true;
  if (data_->size() > 0) return false;  // never grown: the batch ends before this range
  int64_t capacity = data_reserve_;
  if (needed > capacity) {
    // The metadata estimate fell short (dictionary-encoded chunks often do): room for this
    // range plus the batch's remaining rows at its average size.
    const int64_t rows_total = (values_->size() / (large_offsets_ ? 8 : 4)) - 1;
    const double average = static_cast<double>(needed) / static_cast<double>(std::max<int64_t>(rows_done, 1));
    capacity = needed + static_cast<int64_t>(average * static_cast<double>(std::max<int64_t>(rows_total - rows_done, 0)));
  }
  STRATA_RETURN_NOT_OK(data_->ReserveDiscardingContents(capacity));
  return true;
}

Status ColumnReader::PendSlots(int64_t slot, int64_t count, int64_t first_view, bool streamed) {
  // Slots still pending from the batch's start (only when a streamed page ran out of room
  // again while taking them) follow the new ones.
  const int64_t older = pending_slots_;
  if (validity_) {
    const int64_t non_null = bit_util::CountSetBits(validity_->data(), slot, count);
    null_count_ -= count - non_null;
    STRATA_RETURN_NOT_OK(pending_merge_.ReserveScratch(bit_util::BytesForBits(count + older)));
    bit_util::CopyBitmap(validity_->data(), slot, count, pending_merge_.mutable_data(), 0);
    if (older > 0) {
      bit_util::CopyBitmap(pending_validity_.data(), pending_bit_, older, pending_merge_.mutable_data(), count);
    }
    STRATA_RETURN_NOT_OK(pending_validity_.ReserveScratch(bit_util::BytesForBits(count + older)));
    std::memcpy(pending_validity_.mutable_data(), pending_merge_.data(),
                static_cast<size_t>(bit_util::BytesForBits(count + older)));
  }
  pending_slots_ = count + older;
  pending_bit_ = 0;
  pending_view_ = first_view;
  pending_streamed_ = streamed;
  return Status::OK();
}

Result<int64_t> ColumnReader::TakePendingSlots(int64_t rows) {
  int64_t k = std::min(rows, pending_slots_);
  if (pending_streamed_) {
    // The values are still in the window: read them as any range of the page. One that does
    // not fit ends this batch too (PendSlots keeps them ahead of the older ones).
    TakePendingValidity(k);
    const int64_t still_pending = pending_slots_;
    STRATA_RETURN_NOT_OK(DecodeByteArraysStreamed(0, k, validity_ ? validity_->data() : nullptr));
    return k - (pending_slots_ - still_pending);
  }
  const ByteArrayView* views = views_.data_as<ByteArrayView>() + pending_view_;
  const uint8_t* pending_bits = validity_ ? pending_validity_.data() : nullptr;
  RangeCut kept = KeepFlatWithinOffsetLimit(k, views, pending_bits, pending_bit_, 0,
                                           large_offsets_ ? std::numeric_limits<int64_t>::max() : offset_limit_);
  if (kept.slots == 0 && k > 0) return OneRowPastOffsetLimit(offset_limit_, views[0].length);
  k = kept.slots;
  const int64_t non_null = TakePendingValidity(k);
  STRATA_ASSIGN_OR_RETURN(const bool room, RoomForData(kept.bytes, k));
  if (!room) return Status::Invalid("no room for {} pending bytes in an empty batch", kept.bytes);  // a bug
  const uint8_t* validity = validity_ ? validity_->data() : nullptr;
  AppendByteArraysAtSlots(views, validity, 0, k, non_null, large_offsets_, values_->mutable_data(), data_.get());
  pending_view_ += non_null;
  return k;
}

int64_t ColumnReader::TakePendingValidity(int64_t k) {
  int64_t non_null = k;
  if (validity_) {
    bit_util::CopyBitmap(pending_validity_.data(), pending_bit_, k, validity_->mutable_data(), 0);
    non_null = bit_util::CountSetBits(validity_->data(), 0, k);
  }
  null_count_ += k - non_null;
  pending_slots_ -= k;
  pending_bit_ += k;
  return non_null;
}

Status ColumnReader::DecodeDenseFixed(uint8_t* out, int64_t count) {
  if (!streaming_) return decoder_->DecodeFixed(out, count);
  // PLAIN fixed-width values are their bytes: copy them out of the window, refilling it a
  // window at a time.
  const int64_t width = physical_width_;
  int64_t done = 0;
  while (done < count) {
    STRATA_ASSIGN_OR_RETURN(const int64_t available, EnsureWindow(width));
    if (available < width) {
      return Status::Corrupt("page at offset {}: PLAIN values end after {} of {} values", page_.file_offset, done,
                             count);
    }
    const int64_t n = std::min(count - done, available / width);
    std::memcpy(out + done * width, window_.data() + window_begin_, static_cast<size_t>(n * width));
    window_begin_ += n * width;
    done += n;
  }
  return Status::OK();
}

Result<int64_t> ColumnReader::EnsureWindow(int64_t min_bytes) {
  int64_t available = window_end_ - window_begin_;
  if (available >= min_bytes) return available;
  if (window_begin_ > 0) {
    std::memmove(window_.mutable_data(), window_.data() + window_begin_, static_cast<size_t>(available));
    window_begin_ = 0;
    window_end_ = available;
  }
  // The window is window_bytes_ unless one value is larger; then it grows to that value.
  const int64_t capacity = std::max(min_bytes, window_bytes_);
  if (window_.size() < capacity) STRATA_RETURN_NOT_OK(window_.Resize(capacity));
  while (window_end_ < min_bytes) {
    STRATA_ASSIGN_OR_RETURN(const int64_t n, pages_->ReadStream({window_.mutable_data() + window_end_,
                                                                 static_cast<size_t>(window_.size() - window_end_)}));
    if (n == 0) break;
    window_end_ += n;
  }
  return window_end_ - window_begin_;
}

Result<uint32_t> ColumnReader::NextWindowRecord(const char* what) {
  STRATA_ASSIGN_OR_RETURN(int64_t available, EnsureWindow(4));
  if (available < 4) {
    return Status::Corrupt("page at offset {}: {} ends early: no room for its length", page_.file_offset, what);
  }
  uint32_t length;
  std::memcpy(&length, window_.data() + window_begin_, 4);
  const int64_t total = 4 + static_cast<int64_t>(length);
  if (total > page_.stream_bytes) {
    return Status::Corrupt("page at offset {}: {} of {} bytes exceeds the page ({} bytes)", page_.file_offset, what,
                           length, page_.stream_bytes);
  }
  STRATA_ASSIGN_OR_RETURN(available, EnsureWindow(total));
  if (available < total) {
    return Status::Corrupt("page at offset {}: {} of {} bytes is cut short", page_.file_offset, what, length);
  }
  return length;
}

Status ColumnReader::StartStreamedPage() {
  window_begin_ = 0;
  window_end_ = 0;
  decoder_ = nullptr;
  if (column_.max_definition_level == 0) return Status::OK();
  if (page_.type == PageType::kDataPageV2) {
    return definition_levels_.SetDataV2(column_.max_definition_level, page_.num_values,
                                        page_.definition_levels.data(),
                                        static_cast<int64_t>(page_.definition_levels.size()), page_.file_offset);
  }
  // v1: the levels lead the stream, length-prefixed; copy them out so the window can move on.
  STRATA_ASSIGN_OR_RETURN(const uint32_t length, NextWindowRecord("definition levels"));
  const int64_t total = 4 + static_cast<int64_t>(length);
  STRATA_RETURN_NOT_OK(levels_copy_.Resize(total));
  std::memcpy(levels_copy_.mutable_data(), window_.data() + window_begin_, static_cast<size_t>(total));
  window_begin_ += total;
  STRATA_ASSIGN_OR_RETURN(const int64_t consumed,
                          definition_levels_.SetDataV1(Encoding::kRle, column_.max_definition_level, page_.num_values,
                                                       levels_copy_.data(), total, page_.file_offset));
  (void)consumed;
  return Status::OK();
}

Status ColumnReader::DecodeByteArraysStreamed(int64_t slot, int64_t count, const uint8_t* validity) {
  int64_t position = data_->size();
  auto write = [&](auto* offsets) -> Status {
    using Offset = std::remove_pointer_t<decltype(offsets)>;
    for (int64_t i = 0; i < count; ++i) {
      if (validity == nullptr || IsBitSet(validity, slot + i)) {
        uint32_t length;
        if (!RecordInWindow(&length)) {
          // Per value: the call (and its Result) only when the window must move (3% of a
          // small-string scan when every value took it).
          STRATA_ASSIGN_OR_RETURN(length, NextWindowRecord("a PLAIN byte array"));
        }
        const int64_t total = 4 + static_cast<int64_t>(length);
        if (!large_offsets_ && position + length > offset_limit_) {
          if (position == 0) return OneRowPastOffsetLimit(offset_limit_, length);
          // Pending, unread: the value stays in the window for the next batch.
          data_->set_size(position);
          return PendSlots(slot + i, count - i, 0, true);
        }
        data_->set_size(position);
        STRATA_ASSIGN_OR_RETURN(const bool room, RoomForData(position + length, slot + i + 1));
        if (!room) return PendSlots(slot + i, count - i, 0, true);
        if (length != 0) std::memcpy(data_->mutable_data() + position, window_.data() + window_begin_ + 4, length);
        window_begin_ += total;
        position += length;
      }
      offsets[slot + 1 + i] = static_cast<Offset>(position);
    }
    return Status::OK();
  };
  Status st = large_offsets_ ? write(values_->mutable_data_as<int64_t>()) : write(values_->mutable_data_as<int32_t>());
  data_->set_size(position);
  return st;
}

}  // namespace strata::parquet
