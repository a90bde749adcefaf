#include "strata/parquet/read/carried_rows.h"

#include <algorithm>
#include <cstring>

#include "strata/util/bit_util.h"

namespace strata::parquet {

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

Status CarriedRows::Keep(const int16_t* def, const int16_t* rep, int64_t level, int64_t levels, ArrayDataPtr values,
                         int64_t slot, int64_t rows) {
  const int64_t kept = levels - level;
  STRATA_RETURN_NOT_OK(def_.ReserveDiscardingContents(kept * 2));
  std::memcpy(def_.mutable_data(), def + level, static_cast<size_t>(kept) * 2);
  if (repeated_) {
    STRATA_RETURN_NOT_OK(rep_.ReserveDiscardingContents(kept * 2));
    std::memcpy(rep_.mutable_data(), rep + level, static_cast<size_t>(kept) * 2);
  }
  levels_ = kept;
  level_ = 0;
  values_ = std::move(values);
  slot_ = slot;
  rows_ += rows;
  return Status::OK();
}

void CarriedRows::Untake(int64_t levels, int64_t slots, int64_t rows) {
  level_ -= levels;
  slot_ -= slots;
  rows_ += rows;
}

Result<CarriedRows::Taken> CarriedRows::Take(int64_t rows) {
  Taken taken;
  taken.rows = std::min(rows, rows_);
  taken.def = def_.data_as<int16_t>() + level_;
  taken.rep = repeated_ ? rep_.data_as<int16_t>() + level_ : nullptr;
  taken.levels = RowStart(taken.rep, levels_ - level_, taken.rows);
  const int64_t slots = SlotsBefore(taken.def, taken.levels, slot_def_);
  STRATA_ASSIGN_OR_RETURN(taken.values, SliceByteArrays(*values_, slot_, slots, pool_));
  level_ += taken.levels;
  slot_ += slots;
  rows_ -= taken.rows;
  return taken;
}

}  // namespace strata::parquet
