#include "strata/parquet/read/nested_leaf_reader.h"

#include <algorithm>
#include <cstring>
#include <limits>

#include <fmt/format.h>

#include "strata/parquet/read/offset_limit.h"
#include "strata/parquet/read/value_conversion.h"
#include "strata/util/bit_util.h"

namespace strata::parquet {

bool ValuesMayPassTwoGiB(const ColumnMetaData& metadata) {
  return metadata.type == PhysicalType::kByteArray &&
         EstimateChunkValueBytes(metadata).bytes > std::numeric_limits<int32_t>::max();
}
Status NestedLeafReader::GrowTo(ResizableBuffer* buffer, int64_t size, bool zeroed) {
  if (size > buffer->capacity()) STRATA_RETURN_NOT_OK(buffer->GrowForAppend(size));
  return zeroed ? buffer->ResizeZeroed(size) : buffer->Resize(size);
}

int64_t NestedLeafReader::EstimateBytes(int64_t levels) const {
  // The chunk's average, or the last batch's when its values ran longer (values that grow
  // along the chunk would otherwise cut batch after batch short).
  const double count = static_cast<double>(std::max<int64_t>(levels, 0));
  const auto bytes = static_cast<int64_t>(std::max(bytes_per_level_, last_bytes_per_level_) * count);
  if (last_bytes_per_level_ > 0 || dictionary_bytes_ == 0) return bytes;
  // Before any batch has shown what values take, a dictionary's average entry: the chunk's
  // uncompressed size counts its indices, not the entries they stand for. At most four times
  // the dictionary's own bytes, so a skewed one (a long entry rarely used) cannot reserve far
  // past what the file holds.
  const double per_entry = static_cast<double>(dictionary_bytes_) / static_cast<double>(dictionary_entries_);
  const auto from_dictionary = static_cast<int64_t>(std::min(per_entry * count, 4.0 * static_cast<double>(dictionary_bytes_)));
  return std::max(bytes, from_dictionary);
}

int64_t NestedLeafReader::FirstReservation(int64_t first, int64_t later) const {
  const int64_t bytes = later_bytes_total_ ? std::max(first, later) : first + later;
  // No more than the offset limit, where a batch of 32-bit offsets ends anyway.
  return offset_limited() ? std::max(first, std::min(bytes, offset_limit_)) : bytes;
}

NestedLeafReader::NestedLeafReader(const ColumnDescriptor& column, const ColumnMetaData& metadata,
                                   int64_t rows_in_chunk, int16_t slot_def, TypePtr output_type,
                                   std::unique_ptr<PageReader> pages, MemoryPool* pool)
    : column_(column),
      metadata_(metadata),
      rows_in_chunk_(rows_in_chunk),
      slot_def_(slot_def),
      output_type_(std::move(output_type)),
      pages_(std::move(pages)),
      pool_(pool),
      page_sizes_(pool),
      page_def_(pool),
      page_rep_(pool),
      batch_def_(pool),
      batch_rep_(pool),
      leaf_(column, pool),
      views_(pool),
      offset_limit_(OffsetLimit()),
      carry_(pool, column.max_repetition_level > 0, slot_def),
      prefix_def_(pool),
      prefix_rep_(pool) {}

Result<std::unique_ptr<NestedLeafReader>> NestedLeafReader::Make(const ColumnDescriptor& column,
                                                                 const ColumnMetaData& metadata, int64_t rows_in_chunk,
                                                                 int16_t slot_def, TypePtr output_type,
                                                                 std::unique_ptr<PageReader> pages, MemoryPool* pool) {
  auto reader = std::unique_ptr<NestedLeafReader>(new NestedLeafReader(column, metadata, rows_in_chunk, slot_def,
                                                                       std::move(output_type), std::move(pages), pool));
  auto status = reader->Init();
  if (!status.ok()) return status.WithContext(reader->Where());
  return reader;
}

std::string NestedLeafReader::Where() const {
  return fmt::format("'{}', column '{}' (row group {})", pages_->source_name(), column_.dotted_path,
                     pages_->location().row_group);
}

Status NestedLeafReader::Init() {
  if (slot_def_ < 0 || slot_def_ > column_.max_definition_level) {
    return Status::Invalid("slot level {} outside [0, {}]", slot_def_, column_.max_definition_level);
  }
  nullable_ = column_.max_definition_level > slot_def_;
  if (rows_in_chunk_ > 0 && metadata_.num_values > 0) {
    levels_per_row_ = static_cast<double>(metadata_.num_values) / static_cast<double>(rows_in_chunk_);
  }
  STRATA_RETURN_NOT_OK(leaf_.Init(&output_type_, /*slots_are_rows=*/false));
  conversion_ = leaf_.conversion();
  physical_width_ = leaf_.physical_width();
  output_width_ = leaf_.output_width();
  if (conversion_ == Conversion::kDiscard) return Status::OK();
  large_offsets_ = conversion_ == Conversion::kByteArray && is_large_binary_like(output_type_->id());
  if (conversion_ == Conversion::kByteArray && metadata_.num_values > 0) {
    const ChunkValueBytes chunk = EstimateChunkValueBytes(metadata_);
    bytes_per_level_ = static_cast<double>(chunk.bytes) / static_cast<double>(metadata_.num_values);
    if (chunk.exact) exact_chunk_bytes_ = chunk.bytes;
  }
  return Status::OK();
}

int64_t NestedLeafReader::memory_size() const {
  int64_t total = pages_->memory_size() + page_def_.capacity() + page_rep_.capacity() + batch_def_.capacity() +
                  batch_rep_.capacity() + leaf_.memory_size() + views_.capacity() + carry_.memory_size() +
                  prefix_def_.capacity() + prefix_rep_.capacity();
  return total;
}

Result<bool> NestedLeafReader::NextDataPage() {
  while (true) {
    STRATA_ASSIGN_OR_RETURN(const bool more, pages_->Next(&page_));
    if (!more) return false;
    const int64_t offset = page_.file_offset;
    if (page_.type == PageType::kDictionaryPage) {
      STRATA_RETURN_NOT_OK(leaf_.SetDictionaryPage(page_));
      const Dictionary* dictionary = leaf_.dictionary().get();
      if (dictionary != nullptr && dictionary->size() > 0 && dictionary->is_byte_array()) {
        dictionary_bytes_ = dictionary->byte_array_bytes();  // for EstimateBytes
        dictionary_entries_ = dictionary->size();
      }
      continue;
    }
    ++current_page_;  // data pages in chunk order, as the offset index lists them
    if (page_.num_values <= 0) continue;
    const int64_t n = page_.num_values;
    // Levels are materialised (two bytes per entry): assembly reads them several times, and a
    // page's worth is small beside its values.
    // Scratch: a larger page frees the old block first (contents are not kept).
    STRATA_RETURN_NOT_OK(page_def_.ReserveScratch(n * 2));
    page_def_.set_size(n * 2);
    if (column_.max_repetition_level > 0) {
      STRATA_RETURN_NOT_OK(page_rep_.ReserveScratch(n * 2));
      page_rep_.set_size(n * 2);
    }
    const uint8_t* data = page_.values.data();
    int64_t size = static_cast<int64_t>(page_.values.size());
    const bool v1 = page_.type == PageType::kDataPage;
    if (column_.max_repetition_level > 0) {
      STRATA_RETURN_NOT_OK(
          StartPageLevels(page_, /*repetition=*/true, column_.max_repetition_level, &repetition_decoder_, &data, &size));
      STRATA_RETURN_NOT_OK(repetition_decoder_.Decode(page_rep_.mutable_data_as<int16_t>(), n));
    }
    int16_t* def = page_def_.mutable_data_as<int16_t>();
    if (column_.max_definition_level > 0) {
      STRATA_RETURN_NOT_OK(
          StartPageLevels(page_, /*repetition=*/false, column_.max_definition_level, &definition_decoder_, &data, &size));
      STRATA_RETURN_NOT_OK(definition_decoder_.Decode(def, n));
    } else {
      std::memset(def, 0, static_cast<size_t>(n) * 2);
    }
    if (column_.max_repetition_level > 0) {
      const int16_t first = page_rep_.data_as<int16_t>()[0];
      // A row starts at repetition level 0. Only a v1 page that is not the chunk's first may
      // continue the previous page's row; v2 pages begin at row boundaries (parquet.thrift).
      if (first != 0 && (!levels_loaded_ || !v1)) {
        return Status::Corrupt("{} page at offset {} starts with repetition level {}, not 0: {}",
                               v1 ? "data" : "data v2", offset, first,
                               !levels_loaded_ ? "the chunk's first row has no start"
                                               : "v2 pages must begin at a row boundary");
      }
    }
    levels_loaded_ = true;
    if (conversion_ != Conversion::kDiscard) {
      const int64_t values = CountLevelsEqual(def, n, column_.max_definition_level);
      STRATA_RETURN_NOT_OK(leaf_.StartPage(page_.encoding, values, data, size, offset));
    }
    page_levels_ = n;
    page_position_ = 0;
    return true;
  }
}

Status NestedLeafReader::SetPageIndex(const OffsetIndex& offsets, const ColumnIndex* columns) {
  const auto& locations = offsets.page_locations;
  const auto pages = static_cast<int64_t>(locations.size());
  const auto& bytes = offsets.unencoded_byte_array_data_bytes;
  // Levels per page: the sum of a page's level histogram (definition levels, else repetition).
  const std::vector<int64_t>* histograms = nullptr;
  int64_t width = 0;
  if (columns && columns->definition_level_histograms && column_.max_definition_level > 0) {
    histograms = &*columns->definition_level_histograms;
    width = column_.max_definition_level + 1;
  } else if (columns && columns->repetition_level_histograms && column_.max_repetition_level > 0) {
    histograms = &*columns->repetition_level_histograms;
    width = column_.max_repetition_level + 1;
  }
  if (histograms && static_cast<int64_t>(histograms->size()) != pages * width) histograms = nullptr;
  if (pages == 0 || !histograms) return Status::OK();  // no level counts: batches are estimated
  // The index sizes buffers, so it is used only when it agrees with the chunk's metadata:
  // first rows in order within the row group, levels summing to the chunk's value count, bytes
  // to SizeStatistics' total when written. Otherwise the averages size the batches.
  const bool has_bytes = bytes && static_cast<int64_t>(bytes->size()) == pages;
  int64_t total_levels = 0;
  int64_t total_bytes = 0;
  int64_t previous_first = 0;
  for (int64_t p = 0; p < pages; ++p) {
    const int64_t first = locations[static_cast<size_t>(p)].first_row_index;
    if (first < previous_first || first > rows_in_chunk_ || (p == 0 && first != 0)) return Status::OK();
    previous_first = first;
    for (int64_t l = 0; l < width; ++l) {
      const int64_t count = (*histograms)[static_cast<size_t>(p * width + l)];
      if (count < 0 || count > metadata_.num_values - total_levels) return Status::OK();
      total_levels += count;
    }
    if (has_bytes) {
      const int64_t b = (*bytes)[static_cast<size_t>(p)];
      if (b < 0 || b > std::numeric_limits<int64_t>::max() / 2 - total_bytes) return Status::OK();
      total_bytes += b;
    }
  }
  if (total_levels != metadata_.num_values) return Status::OK();
  if (has_bytes && exact_chunk_bytes_ >= 0 && total_bytes != exact_chunk_bytes_) return Status::OK();
  STRATA_RETURN_NOT_OK(page_sizes_.Resize(pages * static_cast<int64_t>(sizeof(PageSize))));
  auto* out = page_sizes_.mutable_data_as<PageSize>();
  for (int64_t p = 0; p < pages; ++p) {
    int64_t levels = 0;
    for (int64_t l = 0; l < width; ++l) levels += (*histograms)[static_cast<size_t>(p * width + l)];
    out[p] = {locations[static_cast<size_t>(p)].first_row_index, levels,
              has_bytes ? (*bytes)[static_cast<size_t>(p)] : -1};
  }
  num_page_sizes_ = pages;
  return Status::OK();
}

bool NestedLeafReader::LaterPagesBound(int64_t rows, int64_t* levels, int64_t* bytes) const {
  // Pages begin at row boundaries where a page index exists (parquet.thrift), so the pages
  // after the current one that hold `rows` more rows are those whose first rows cover them.
  *levels = 0;
  *bytes = 0;
  if (num_page_sizes_ == 0 || current_page_ < 0 || current_page_ >= num_page_sizes_) return false;
  const auto* sizes = page_sizes_.data_as<PageSize>();
  int64_t covered = 0;
  bool bytes_known = true;
  for (int64_t p = current_page_ + 1; p < num_page_sizes_ && covered < rows; ++p) {
    const int64_t next_first = p + 1 < num_page_sizes_ ? sizes[p + 1].first_row : rows_in_chunk_;
    covered += std::max<int64_t>(next_first - sizes[p].first_row, 0);
    *levels += sizes[p].levels;
    if (sizes[p].bytes < 0) bytes_known = false;
    *bytes += std::max<int64_t>(sizes[p].bytes, 0);
  }
  if (!bytes_known) *bytes = EstimateBytes(*levels);
  return true;
}

Status NestedLeafReader::StartBatch(int64_t rows) {
  batch_levels_ = 0;
  slots_ = 0;
  null_count_ = 0;
  validity_.reset();
  values_.reset();
  data_.reset();
  values_array_.reset();
  later_bytes_ = -1;
  // Sizes, from the most exact source at hand:
  //  - a batch that reads the rest of the chunk (the default: batches of whole row groups)
  //    takes the chunk's remaining levels, and bytes from SizeStatistics when written;
  //  - else the current page's part is counted from its levels, and later pages come from the
  //    page index (first rows, level histograms, unencoded bytes) when the file has one;
  //  - else the chunk's averages, and buffers grow by doubling only when a batch exceeds them.
  const bool repeated = column_.max_repetition_level > 0;
  if (page_position_ == page_levels_ && rows > 0) {
    STRATA_ASSIGN_OR_RETURN(const bool more, NextDataPage());
    (void)more;  // at the chunk's end the batch is empty
  }
  int64_t part = 0;           // entries the batch takes from the current page
  int64_t rows_in_part = 0;
  bool ends_in_page = false;  // the batch's last row ends before the current page does
  if (repeated) {
    const int16_t* rep = page_rep_.data_as<int16_t>();
    for (int64_t i = page_position_; i < page_levels_; ++i, ++part) {
      if (rep[i] == 0 && rows_in_part++ == rows) {
        ends_in_page = true;
        break;
      }
    }
    if (ends_in_page) --rows_in_part;
  } else {
    part = std::min(rows, page_levels_ - page_position_);
    rows_in_part = part;
    ends_in_page = rows_in_part == rows;
  }
  part_levels_ = part;
  int64_t capacity = part;
  const bool rest_of_chunk = rows >= rows_in_chunk_ - rows_started_in_chunk_;
  if (rest_of_chunk && metadata_.num_values > 0) {
    capacity = std::max<int64_t>(metadata_.num_values - levels_taken_, part);
    // Without SizeStatistics, the chunk's remaining levels at the estimated bytes per level (a
    // range past it ends the batch early, see DecodeByteArrays).
    later_bytes_ = exact_chunk_bytes_ >= 0 ? std::max<int64_t>(exact_chunk_bytes_ - bytes_taken_, 0)
                                           : EstimateBytes(metadata_.num_values - levels_taken_);
    later_bytes_total_ = true;
  } else if (!ends_in_page) {
    int64_t later_levels = 0;
    int64_t bytes = 0;
    if (!LaterPagesBound(rows - rows_in_part, &later_levels, &bytes)) {
      later_levels = static_cast<int64_t>(static_cast<double>(rows - rows_in_part) * levels_per_row_) + 1;
      bytes = EstimateBytes(later_levels);
    }
    capacity += later_levels;
    later_bytes_ = bytes;
    later_bytes_total_ = false;
  } else {
    later_bytes_ = 0;
    later_bytes_total_ = false;
  }
  capacity = std::max<int64_t>(capacity, 1);
  batch_capacity_ = capacity;
  // Level scratch is rewritten from the start each batch: a larger one frees first.
  STRATA_RETURN_NOT_OK(batch_def_.ReserveDiscardingContents(capacity * 2));
  if (repeated) STRATA_RETURN_NOT_OK(batch_rep_.ReserveDiscardingContents(capacity * 2));
  if (conversion_ == Conversion::kDiscard) return Status::OK();
  if (nullable_) {
    STRATA_ASSIGN_OR_RETURN(validity_, ResizableBuffer::Make(pool_, bit_util::BytesForBits(capacity)));
  }
  switch (conversion_) {
    case Conversion::kBits: {
      STRATA_ASSIGN_OR_RETURN(values_, ResizableBuffer::Make(pool_, bit_util::BytesForBits(capacity)));
      break;
    }
    case Conversion::kByteArray: {
      const int64_t offset_width = large_offsets_ ? 8 : 4;
      STRATA_ASSIGN_OR_RETURN(values_, ResizableBuffer::Make(pool_, (capacity + 1) * offset_width));
      STRATA_RETURN_NOT_OK(values_->ResizeZeroed(offset_width));
      // Allocated with the first range's bytes, when they are known (DecodeByteArrays).
      STRATA_ASSIGN_OR_RETURN(data_, ResizableBuffer::Make(pool_));
      break;
    }
    default: {
      STRATA_ASSIGN_OR_RETURN(values_, ResizableBuffer::Make(pool_, capacity * output_width_));
      break;
    }
  }
  return Status::OK();
}

Result<int64_t> NestedLeafReader::ReadRows(int64_t rows) {
  rows = std::max<int64_t>(rows, 0);
  ended_early_ = false;
  batch_from_carry_ = false;
  if (carry_.rows() > 0) return ReadCarriedRows(rows);
  carry_.ReleaseValues();  // the last carried batch can no longer be given back
  {
    auto status = StartBatch(rows);
    if (!status.ok()) return status.WithContext(Where());
  }
  const bool repeated = column_.max_repetition_level > 0;
  int64_t rows_read = 0;
  if (prefix_levels_ > 0 && rows > 0) {
    // The row the last batch ended before opens this one; the page continues it.
    auto status = AppendPrefix();
    if (!status.ok()) return status.WithContext(Where());
    rows_read = 1;
  }
  cut_before_prefix_ = false;
  while (rows_read < rows || repeated) {
    if (page_position_ == page_levels_) {
      auto more = NextDataPage();
      if (!more.ok()) return more.status().WithContext(Where());
      if (!*more) break;
    }
    // The levels whose values a batch cut short decoded already form a range of their own.
    const int64_t limit = pending_views_ > 0 ? pending_end_ : page_levels_;
    int64_t end = page_position_;
    bool row_boundary = false;
    if (repeated) {
      // The batch ends just before the first level of row `rows` + 1.
      const int16_t* rep = page_rep_.data_as<int16_t>();
      for (; end < limit; ++end) {
        if (rep[end] == 0) {
          if (rows_read == rows) {
            row_boundary = true;
            break;
          }
          ++rows_read;
        }
      }
    } else {
      end += std::min(rows - rows_read, limit - page_position_);
      rows_read += end - page_position_;
    }
    // Levels past the batch's estimate (the chunk's average levels per row, where no page
    // index counts them): a leaf that may end early ends the batch at the last row start that
    // fits rather than growing its level and slot buffers (DecodeByteArrays does the same for
    // bytes). A row that alone passes the estimate grows them.
    bool past_levels = false;
    if (repeated && offset_limited() && batch_levels_ + (end - page_position_) > batch_capacity_) {
      const int16_t* rep = page_rep_.data_as<int16_t>();
      int64_t fit = page_position_ + std::max<int64_t>(batch_capacity_ - batch_levels_, 0);
      while (fit > page_position_ && rep[fit] != 0) --fit;
      int64_t dropped = 0;
      for (int64_t i = fit; i < end; ++i) dropped += rep[i] == 0;
      if (rep[fit] == 0 && rows_read - dropped > 0) {
        rows_read -= dropped;
        end = fit;
        row_boundary = false;
        past_levels = true;
      }
    }
    range_begin_ = page_position_;
    range_end_ = end;
    cut_level_ = -1;
    auto status = AppendEntries(page_position_, end);
    if (!status.ok()) return status.WithContext(Where());
    if (cut_level_ >= 0) {
      // The rows from the cut on open the next batch.
      if (repeated) {
        const int16_t* rep = page_rep_.data_as<int16_t>();
        for (int64_t i = cut_level_; i < end; ++i) rows_read -= rep[i] == 0;
      } else {
        rows_read -= end - cut_level_;
      }
      if (cut_before_prefix_) --rows_read;  // begun earlier: it opens the next batch
      page_position_ = cut_level_;
      ended_early_ = true;
      break;
    }
    page_position_ = end;
    if (past_levels) {
      ended_early_ = true;
      break;
    }
    if (row_boundary) break;
  }
  rows_started_in_chunk_ += rows_read;
  levels_taken_ += batch_levels_;
  if (data_) {
    bytes_taken_ += data_->size();
    if (batch_levels_ > 0) {
      last_bytes_per_level_ = static_cast<double>(data_->size()) / static_cast<double>(batch_levels_);
    }
  }
  auto status = FinishBatch();
  if (status.ok() && leaf_.decimal_text()) {
    auto text = leaf_.decimal_text()->Convert(*values_array_);
    if (text.ok()) values_array_ = std::move(*text);
    else status = text.status();
  }
  if (!status.ok()) return status.WithContext(Where());
  def_out_ = batch_def_.data_as<int16_t>();
  rep_out_ = batch_rep_.data_as<int16_t>();
  batch_rows_ = rows_read;
  return rows_read;
}

Status NestedLeafReader::ReserveSlots(int64_t slots) {
  if (conversion_ == Conversion::kDiscard) return Status::OK();
  if (validity_) STRATA_RETURN_NOT_OK(GrowTo(validity_.get(), bit_util::BytesForBits(slots), true));
  switch (conversion_) {
    case Conversion::kBits:
      return GrowTo(values_.get(), bit_util::BytesForBits(slots), true);
    case Conversion::kByteArray:
      return GrowTo(values_.get(), (slots + 1) * (large_offsets_ ? 8 : 4), false);
    default:
      return GrowTo(values_.get(), slots * output_width_, false);
  }
}

Status NestedLeafReader::AppendEntries(int64_t begin, int64_t end) {
  const int64_t count = end - begin;
  if (count == 0) return Status::OK();
  const int16_t* def = page_def_.data_as<int16_t>() + begin;
  STRATA_RETURN_NOT_OK(GrowTo(&batch_def_, (batch_levels_ + count) * 2, false));
  std::memcpy(batch_def_.mutable_data_as<int16_t>() + batch_levels_, def, static_cast<size_t>(count) * 2);
  if (column_.max_repetition_level > 0) {
    STRATA_RETURN_NOT_OK(GrowTo(&batch_rep_, (batch_levels_ + count) * 2, false));
    std::memcpy(batch_rep_.mutable_data_as<int16_t>() + batch_levels_, page_rep_.data_as<int16_t>() + begin,
                static_cast<size_t>(count) * 2);
  }
  batch_levels_ += count;

  const int16_t max_def = column_.max_definition_level;
  int64_t slots = count;
  if (slot_def_ > 0) {
    slots = 0;
    for (int64_t i = 0; i < count; ++i) slots += def[i] >= slot_def_;
  }
  const int64_t first_slot = slots_;
  STRATA_RETURN_NOT_OK(ReserveSlots(first_slot + slots));
  int64_t non_null = slots;
  if (validity_) {
    // Bit per slot: set when the leaf itself is defined.
    uint8_t* bits = validity_->mutable_data();
    int64_t slot = first_slot;
    non_null = 0;
    for (int64_t i = 0; i < count; ++i) {
      if (def[i] < slot_def_) continue;
      if (def[i] == max_def) {
        bit_util::SetBit(bits, slot);
        ++non_null;
      }
      ++slot;
    }
    null_count_ += slots - non_null;
  }
  slots_ += slots;
  if (conversion_ == Conversion::kDiscard) {
    null_count_ = slots_;
    return Status::OK();
  }
  return DecodeValues(first_slot, slots, non_null, validity_ ? validity_->data() : nullptr);
}

Status NestedLeafReader::DecodeValues(int64_t slot, int64_t count, int64_t non_null, const uint8_t* validity) {
  if (count == 0) return Status::OK();
  if (LeafDecoder::IsFixedWidth(conversion_)) {
    return leaf_.DecodeFixedWidth(values_->mutable_data(), slot, count, non_null, validity, /*first_row=*/0);
  }
  switch (conversion_) {
    case Conversion::kByteArray:
    case Conversion::kByteArrayDecimal:
      return DecodeByteArrays(slot, count, non_null, validity);
    case Conversion::kByteArrayDictionary:
    case Conversion::kByteArrayView:
      return Status::NotImplemented("dictionary and view outputs are not offered inside nested fields");
    default:  // kDiscard: no values are read
      return Status::OK();
  }
}

Status NestedLeafReader::DecodeByteArrays(int64_t slot, int64_t count, int64_t non_null, const uint8_t* validity) {
  int64_t total = 0;
  const ByteArrayView* views = nullptr;
  if (pending_views_ > 0) {
    // Decoded by the batch that was cut short before this range (ReadRows stops ranges at
    // pending_end_, so they hold these values).
    if (non_null > pending_views_) {
      return Status::Invalid("{} values asked of {} decoded ahead", non_null, pending_views_);
    }
    views = views_.data_as<ByteArrayView>() + pending_view_;
    pending_view_ += non_null;
    pending_views_ -= non_null;
    for (int64_t i = 0; i < non_null; ++i) total += views[i].length;
  } else {
    STRATA_ASSIGN_OR_RETURN(views, leaf_.DecodeByteArrays(&views_, values_->mutable_data(), slot, count, non_null,
                                                          validity, &total));
  }
  if (conversion_ == Conversion::kByteArrayDecimal) return Status::OK();
  const bool past_limit = offset_limited() && data_->size() + total > offset_limit_;
  // A later range that does not fit the data buffer, allocated from an estimate with the
  // batch's first bytes, ends the batch before its first row that does not fit (as at the
  // offset limit; the field's other leaves carry their extra rows) rather than growing it.
  // Only where no row boundary allows that (one row fills the buffer) does the buffer grow.
  const bool past_capacity =
      !past_limit && offset_limited() && data_->size() > 0 && data_->size() + total > data_->capacity();
  bool cut = false;
  if (past_limit || past_capacity) {
    STRATA_ASSIGN_OR_RETURN(cut, CutBeforeByteLimit(past_limit ? offset_limit_ : data_->capacity(), past_capacity,
                                                    views, &count, &non_null, &total));
  }
  const int64_t needed = data_->size() + total;
  if (data_->size() == 0 && needed > data_->capacity()) {
    // The batch's first bytes: this range exactly, and the bound of what the batch takes later
    // (or of the whole rest of the chunk).
    const int64_t later = cut ? 0 : std::max<int64_t>(later_bytes_, 0);
    STRATA_RETURN_NOT_OK(data_->ReserveDiscardingContents(FirstReservation(needed, later)));
  }
  if (needed > data_->capacity()) {
    // The batch's last range when cut: exactly, rather than doubling toward 4 GiB.
    STRATA_RETURN_NOT_OK(cut ? data_->Reserve(needed) : data_->GrowForAppend(needed));
  }
  AppendByteArraysAtSlots(views, validity, slot, count, non_null, large_offsets_, values_->mutable_data(),
                          data_.get());
  return Status::OK();
}

Status NestedLeafReader::FinishBatch() {
  std::shared_ptr<Buffer> validity = null_count_ > 0 ? validity_ : nullptr;
  switch (conversion_) {
    case Conversion::kDiscard:
      values_array_ = ArrayData::Make(output_type_, slots_, {nullptr}, slots_);
      return Status::OK();
    case Conversion::kByteArray:
      values_array_ = ArrayData::Make(output_type_, slots_, {validity, values_, data_}, null_count_);
      return Status::OK();
    default:
      values_array_ = ArrayData::Make(output_type_, slots_, {validity, values_}, null_count_);
      return Status::OK();
  }
}

// ---- batch ends ------------------------------------------------------------------------------
// A string or binary leaf with 32-bit offsets ends its batch before 2 GiB at a row start
// (CutBeforeByteLimit, by the rule of offset_limit.h that flat columns follow too), or before
// a row begun on an earlier page, which then opens the next batch (CutBeforeContinuedRow,
// AppendPrefix); a leaf that read further than another leaf of its field gives the extra rows
// back and hands them out first (GiveBack, ReadCarriedRows, CarriedRows).

Result<int64_t> NestedLeafReader::ReadCarriedRows(int64_t rows) {
  auto taken = carry_.Take(rows);
  if (!taken.ok()) return taken.status().WithContext(Where());
  values_array_ = std::move(taken->values);
  def_out_ = taken->def;
  rep_out_ = taken->rep;
  batch_levels_ = taken->levels;
  batch_rows_ = taken->rows;
  batch_from_carry_ = true;
  ended_early_ = taken->rows < rows;
  return taken->rows;
}

Status NestedLeafReader::GiveBack(int64_t rows) {
  if (rows >= batch_rows_) return Status::OK();
  if (!offset_limited() || rows < 0) {
    return Status::Invalid("{}: only a leaf of 32-bit byte arrays gives rows back", Where());
  }
  const int64_t level = RowStart(rep_levels(), batch_levels_, rows);
  const int64_t slots = SlotsBefore(def_out_, level, slot_def_);
  if (batch_from_carry_) {
    // The batch was the carry's next rows: they are its next rows again.
    carry_.Untake(batch_levels_ - level, values_array_->length - slots, batch_rows_ - rows);
  } else {
    STRATA_RETURN_NOT_OK(carry_.Keep(def_out_, rep_out_, level, batch_levels_, values_array_, slots, batch_rows_ - rows));
  }
  STRATA_ASSIGN_OR_RETURN(values_array_, SliceByteArrays(*values_array_, 0, slots, pool_));
  batch_levels_ = level;
  batch_rows_ = rows;
  return Status::OK();
}

Result<bool> NestedLeafReader::CutBeforeByteLimit(int64_t limit, bool may_grow, const ByteArrayView* views,
                                                 int64_t* count, int64_t* non_null, int64_t* total) {
  // The last row start of the range before which the batch's bytes stay within the limit.
  const int16_t* def = page_def_.data_as<int16_t>() + range_begin_;
  const int16_t* rep = column_.max_repetition_level > 0 ? page_rep_.data_as<int16_t>() + range_begin_ : nullptr;
  const int16_t max_def = column_.max_definition_level;
  const RangeCut kept = KeepWithinOffsetLimit(range_end_ - range_begin_, views, data_->size(), limit, [&](int64_t i) {
    return RangeEntry{rep == nullptr || rep[i] == 0, def[i] >= slot_def_, def[i] == max_def};
  });
  if (!kept.at_row_start) return CutBeforeContinuedRow(may_grow, views, count, non_null, total);
  const int64_t earlier_levels = batch_levels_ - (range_end_ - range_begin_);
  if (kept.entries == 0 && earlier_levels == 0) {
    if (may_grow) return false;
    return OneRowPastOffsetLimit(offset_limit_);
  }
  // The levels from the cut on leave the batch; their values, decoded, wait for the next one.
  // (Values decoded ahead by an earlier cut and not in this range stay pending after them.)
  const int64_t cut = range_begin_ + kept.entries;
  const int64_t dropped_slots = *count - kept.slots;
  null_count_ -= dropped_slots - (*non_null - kept.values);
  slots_ -= dropped_slots;
  batch_levels_ -= range_end_ - cut;
  STRATA_RETURN_NOT_OK(EndBatchAt(cut, views, kept.values, *non_null));
  *count = kept.slots;
  *non_null = kept.values;
  *total = kept.bytes;
  return true;
}

Result<bool> NestedLeafReader::CutBeforeContinuedRow(bool may_grow, const ByteArrayView* views, int64_t* count,
                                                    int64_t* non_null, int64_t* total) {
  // The row that does not fit began in an earlier range of this batch: the batch ends before
  // its first level. It must not be the batch's first row (then it alone passes the limit).
  const int64_t range_levels = range_end_ - range_begin_;
  const int64_t before = batch_levels_ - range_levels;
  const int16_t* def = batch_def_.data_as<int16_t>();
  const int16_t* rep = batch_rep_.data_as<int16_t>();
  int64_t start = before - 1;
  while (start > 0 && rep[start] != 0) --start;
  if (start <= 0) {
    if (may_grow) return false;
    return OneRowPastOffsetLimit(offset_limit_);
  }
  // The row's levels and its values so far (slots [first, slots before this range)) become the
  // prefix; the bytes stay in data_, which the batch's array keeps.
  const int64_t range_slots = *count;
  const int64_t slots_before = slots_ - range_slots;
  const int64_t first = SlotsBefore(def, start, slot_def_);
  const int64_t levels = before - start;
  STRATA_RETURN_NOT_OK(prefix_def_.ReserveDiscardingContents(levels * 2));
  std::memcpy(prefix_def_.mutable_data(), def + start, static_cast<size_t>(levels) * 2);
  STRATA_RETURN_NOT_OK(prefix_rep_.ReserveDiscardingContents(levels * 2));
  std::memcpy(prefix_rep_.mutable_data(), rep + start, static_cast<size_t>(levels) * 2);
  prefix_levels_ = levels;
  const auto so_far = ArrayData::Make(output_type_, slots_before, {validity_, values_, data_}, kUnknownNullCount);
  STRATA_ASSIGN_OR_RETURN(prefix_values_, SliceByteArrays(*so_far, first, slots_before - first, pool_));
  // The batch ends before the row: its levels, slots, nulls and bytes.
  const int64_t end_bytes = values_->data_as<int32_t>()[first];
  batch_levels_ = start;
  slots_ = first;
  null_count_ = validity_ ? first - bit_util::CountSetBits(validity_->data(), 0, first) : 0;
  data_->set_size(end_bytes);
  // This range's values wait, decoded, for the next batch, which reads it again after the prefix.
  STRATA_RETURN_NOT_OK(EndBatchAt(range_begin_, views, 0, *non_null));
  cut_before_prefix_ = true;
  *count = 0;
  *non_null = 0;
  *total = 0;
  return true;
}

Status NestedLeafReader::EndBatchAt(int64_t level, const ByteArrayView* views, int64_t kept, int64_t non_null) {
  if (pending_views_ == 0) pending_end_ = range_end_;
  pending_view_ = (views - views_.data_as<ByteArrayView>()) + kept;
  pending_views_ += non_null - kept;
  cut_level_ = level;
  later_bytes_ = 0;
  STRATA_RETURN_NOT_OK(values_->Resize((slots_ + 1) * static_cast<int64_t>(sizeof(int32_t))));
  if (validity_) STRATA_RETURN_NOT_OK(validity_->Resize(bit_util::BytesForBits(slots_)));
  return Status::OK();
}

Status NestedLeafReader::AppendPrefix() {
  const int64_t levels = prefix_levels_;
  STRATA_RETURN_NOT_OK(GrowTo(&batch_def_, (batch_levels_ + levels) * 2, false));
  std::memcpy(batch_def_.mutable_data_as<int16_t>() + batch_levels_, prefix_def_.data(), static_cast<size_t>(levels) * 2);
  STRATA_RETURN_NOT_OK(GrowTo(&batch_rep_, (batch_levels_ + levels) * 2, false));
  std::memcpy(batch_rep_.mutable_data_as<int16_t>() + batch_levels_, prefix_rep_.data(), static_cast<size_t>(levels) * 2);
  batch_levels_ += levels;
  const ArrayData& prefix = *prefix_values_;
  const int64_t slots = prefix.length;
  const int64_t first_slot = slots_;
  STRATA_RETURN_NOT_OK(ReserveSlots(first_slot + slots));
  if (validity_) {
    const uint8_t* bits = prefix.buffers[0] ? prefix.buffers[0]->data() : nullptr;
    if (bits) {
      bit_util::CopyBitmap(bits, 0, slots, validity_->mutable_data(), first_slot);
    } else {
      bit_util::SetBitsTo(validity_->mutable_data(), first_slot, slots, true);
    }
  }
  null_count_ += prefix.null_count;
  const auto* offsets = prefix.buffers[1]->data_as<int32_t>();
  const int64_t bytes = offsets[slots];
  const int64_t base = data_->size();
  if (data_->capacity() == 0) {
    // The batch's first bytes: the prefix, the rest of the current page's part (estimated: its
    // values are not decoded yet) and what later pages take, as DecodeByteArrays sizes them.
    const int64_t part = bytes + EstimateBytes(part_levels_);
    STRATA_RETURN_NOT_OK(data_->ReserveDiscardingContents(FirstReservation(part, std::max<int64_t>(later_bytes_, 0))));
  }
  STRATA_RETURN_NOT_OK(data_->Reserve(base + bytes));
  data_->UnsafeAppend(prefix.buffers[2]->data(), bytes);
  auto* out = values_->mutable_data_as<int32_t>() + first_slot;
  for (int64_t i = 0; i <= slots; ++i) out[i] = static_cast<int32_t>(base + offsets[i]);
  slots_ += slots;
  prefix_levels_ = 0;
  prefix_values_.reset();
  return Status::OK();
}

}  // namespace strata::parquet
