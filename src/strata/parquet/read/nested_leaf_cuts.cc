// NestedLeafReader's batch ends (declared in nested_leaf_reader.h): a string or binary leaf
// with 32-bit offsets ends its batch before 2 GiB at a row start (CutBeforeOffsetLimit, by the
// rule of offset_limit.h that flat columns follow too), or
// before a row begun on an earlier page, which then opens the next batch (CutBeforeContinuedRow,
// AppendPrefix); a leaf that read further than another leaf of its field gives the extra rows
// back and hands them out first (GiveBack, ReadCarriedRows).
#include <algorithm>
#include <cstring>

#include "strata/parquet/read/nested_leaf_reader.h"
#include "strata/parquet/read/offset_limit.h"
#include "strata/util/bit_util.h"

namespace strata::parquet {
namespace {

// Slots [start, start + length) of `a` (string or binary, 32-bit offsets) as an array of its
// own at offset 0: offsets rebased and the validity bits copied (both small), the bytes a
// slice of a's. Record assembly hands leaf arrays on as children, which stay unsliced.
Result<ArrayDataPtr> SliceByteArrays(const ArrayData& a, int64_t start, int64_t length, MemoryPool* pool) {
  const int32_t* offsets = a.buffers[1]->data_as<int32_t>() + a.offset + start;
  const int32_t base = offsets[0];
  STRATA_ASSIGN_OR_RETURN(auto rebased, AllocateBuffer(pool, (length + 1) * static_cast<int64_t>(sizeof(int32_t))));
  auto* out = rebased->mutable_data_as<int32_t>();
  for (int64_t i = 0; i <= length; ++i) out[i] = offsets[i] - base;
  std::shared_ptr<ResizableBuffer> validity;
  int64_t nulls = 0;
  const uint8_t* bits = a.buffers[0] ? a.buffers[0]->data() : nullptr;
  if (bits != nullptr && a.null_count != 0) nulls = length - bit_util::CountSetBits(bits, a.offset + start, length);
  if (nulls > 0) {
    STRATA_ASSIGN_OR_RETURN(validity, AllocateBuffer(pool, bit_util::BytesForBits(length)));
    bit_util::CopyBitmap(bits, a.offset + start, length, validity->mutable_data(), 0);
  }
  auto data = Buffer::Slice(a.buffers[2], base, offsets[length] - base);
  return ArrayData::Make(a.type, length, {std::move(validity), std::move(rebased), std::move(data)}, nulls);
}

// The level at which row `row` begins among `levels` levels (`levels` when it does not), and
// the slots before it: levels from `slot_def` on hold one.
int64_t RowStart(const int16_t* rep, int64_t levels, int64_t row) {
  if (rep == nullptr) return std::min(row, levels);
  int64_t seen = 0;
  for (int64_t i = 0; i < levels; ++i) {
    if (rep[i] == 0 && seen++ == row) return i;
  }
  return levels;
}
int64_t SlotsBefore(const int16_t* def, int64_t level, int16_t slot_def) {
  if (slot_def == 0) return level;
  int64_t slots = 0;
  for (int64_t i = 0; i < level; ++i) slots += def[i] >= slot_def;
  return slots;
}

}  // namespace

Result<int64_t> NestedLeafReader::ReadCarriedRows(int64_t rows) {
  const int64_t n = std::min(rows, carry_rows_);
  const int16_t* def = carry_def_.data_as<int16_t>() + carry_level_;
  const int16_t* rep = column_.max_repetition_level > 0 ? carry_rep_.data_as<int16_t>() + carry_level_ : nullptr;
  const int64_t levels = RowStart(rep, carry_levels_ - carry_level_, n);
  const int64_t slots = SlotsBefore(def, levels, slot_def_);
  auto values = SliceByteArrays(*carry_values_, carry_slot_, slots, pool_);
  if (!values.ok()) return values.status().WithContext(Where());
  values_array_ = std::move(*values);
  def_out_ = def;
  rep_out_ = rep;
  batch_levels_ = levels;
  batch_rows_ = n;
  batch_from_carry_ = true;
  ended_early_ = n < rows;
  carry_level_ += levels;
  carry_slot_ += slots;
  carry_rows_ -= n;
  return n;
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
    carry_level_ -= batch_levels_ - level;
    carry_slot_ -= values_array_->length - slots;
  } else {
    const int64_t levels = batch_levels_ - level;
    STRATA_RETURN_NOT_OK(carry_def_.ReserveDiscardingContents(levels * 2));
    std::memcpy(carry_def_.mutable_data(), def_out_ + level, static_cast<size_t>(levels) * 2);
    if (column_.max_repetition_level > 0) {
      STRATA_RETURN_NOT_OK(carry_rep_.ReserveDiscardingContents(levels * 2));
      std::memcpy(carry_rep_.mutable_data(), rep_out_ + level, static_cast<size_t>(levels) * 2);
    }
    carry_levels_ = levels;
    carry_level_ = 0;
    carry_values_ = values_array_;
    carry_slot_ = slots;
  }
  carry_rows_ += batch_rows_ - rows;
  STRATA_ASSIGN_OR_RETURN(values_array_, SliceByteArrays(*values_array_, 0, slots, pool_));
  batch_levels_ = level;
  batch_rows_ = rows;
  return Status::OK();
}
Status NestedLeafReader::CutBeforeOffsetLimit(const ByteArrayView* views, int64_t* count, int64_t* non_null,
                                              int64_t* total) {
  // The last row start of the range before which the batch's bytes stay within the limit.
  const int16_t* def = page_def_.data_as<int16_t>() + range_begin_;
  const int16_t* rep = column_.max_repetition_level > 0 ? page_rep_.data_as<int16_t>() + range_begin_ : nullptr;
  const int16_t max_def = column_.max_definition_level;
  const RangeCut kept =
      KeepWithinOffsetLimit(range_end_ - range_begin_, views, data_->size(), offset_limit_, [&](int64_t i) {
        return RangeEntry{rep == nullptr || rep[i] == 0, def[i] >= slot_def_, def[i] == max_def};
      });
  if (!kept.at_row_start) return CutBeforeContinuedRow(views, count, non_null, total);
  const int64_t earlier_levels = batch_levels_ - (range_end_ - range_begin_);
  if (kept.entries == 0 && earlier_levels == 0) return OneRowPastOffsetLimit(offset_limit_);
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
  return Status::OK();
}

Status NestedLeafReader::CutBeforeContinuedRow(const ByteArrayView* views, int64_t* count, int64_t* non_null,
                                               int64_t* total) {
  // The row that does not fit began in an earlier range of this batch: the batch ends before
  // its first level. It must not be the batch's first row (then it alone passes the limit).
  const int64_t range_levels = range_end_ - range_begin_;
  const int64_t before = batch_levels_ - range_levels;
  const int16_t* def = batch_def_.data_as<int16_t>();
  const int16_t* rep = batch_rep_.data_as<int16_t>();
  int64_t start = before - 1;
  while (start > 0 && rep[start] != 0) --start;
  if (start <= 0) return OneRowPastOffsetLimit(offset_limit_);
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
  return Status::OK();
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
