// CarriedRows: the rows a nested leaf read beyond its field's batch and gave back, because
// another leaf of the field ended the batch earlier (at the 32-bit offset limit). Their levels
// are copied; their values stay in the array they were read into and are handed out again,
// first, as compact arrays of their own.
#pragma once

#include <cstdint>

#include "strata/array/array_data.h"
#include "strata/memory/buffer.h"

namespace strata::parquet {

// The level at which row `row` begins among `levels` levels (`levels` when it does not); a row
// begins at each repetition level 0 (each level, without repetition levels: `rep` null).
int64_t RowStart(const int16_t* rep, int64_t levels, int64_t row);
// The slots among the first `level` levels: levels from `slot_def` on hold one.
int64_t SlotsBefore(const int16_t* def, int64_t level, int16_t slot_def);
// Slots [start, start + length) of `a` (string or binary, 32-bit offsets) as an array of its
// own at offset 0: offsets rebased and the validity bits copied (both small), the bytes a
// slice of a's. Record assembly hands leaf arrays on as children, which stay unsliced.
Result<ArrayDataPtr> SliceByteArrays(const ArrayData& a, int64_t start, int64_t length, MemoryPool* pool);

class CarriedRows {
 public:
  // `repeated`: the leaf has repetition levels. `slot_def`: the definition level from which a
  // level holds a slot of the leaf.
  CarriedRows(MemoryPool* pool, bool repeated, int16_t slot_def)
      : pool_(pool), repeated_(repeated), slot_def_(slot_def), def_(pool), rep_(pool) {}

  int64_t rows() const { return rows_; }

  // Carries the last `rows` rows of a batch read afresh: its levels [level, levels) (`rep`
  // null without repetition levels) and its values from slot `slot` of `values` on.
  Status Keep(const int16_t* def, const int16_t* rep, int64_t level, int64_t levels, ArrayDataPtr values,
              int64_t slot, int64_t rows);
  // The last Take's last `rows` rows, `levels` levels and `slots` slots come back.
  void Untake(int64_t levels, int64_t slots, int64_t rows);

  // The next min(rows, rows()) rows: their levels (valid until the next Keep) and values.
  struct Taken {
    const int16_t* def = nullptr;
    const int16_t* rep = nullptr;
    int64_t levels = 0;
    ArrayDataPtr values;
    int64_t rows = 0;
  };
  Result<Taken> Take(int64_t rows);
  // The values array can no longer be given back to: drop it once no rows are carried.
  void ReleaseValues() {
    if (rows_ == 0) values_.reset();
  }
  int64_t memory_size() const { return def_.capacity() + rep_.capacity(); }

 private:
  MemoryPool* pool_;
  bool repeated_;
  int16_t slot_def_;
  // Levels from level_ on (levels_ in all); values from slot_ on of values_.
  ResizableBuffer def_;
  ResizableBuffer rep_;
  int64_t levels_ = 0;
  int64_t level_ = 0;
  ArrayDataPtr values_;
  int64_t slot_ = 0;
  int64_t rows_ = 0;
};

}  // namespace strata::parquet
