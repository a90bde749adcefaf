// ArrayBuilder: the base of every builder. Builders fill pool-owned ResizableBuffers in the
// Arrow layout and hand them to an ArrayData on Finish(). Counts passed to Reserve, Append*
// and length() are rows (slots of this array); ReserveData() on variable-length builders
// counts bytes.
//
// Memory policy (see ResizableBuffer):
//  - Reserve(rows) makes room for `rows` more rows exactly, and allocates nothing when the
//    capacity already suffices; appends of unknown size grow by doubling.
//  - The validity bitmap is materialised only when the first null arrives (back-filled with
//    1s, sized to the reserved capacity); an array without nulls carries no bitmap.
//  - Reset() empties the builder and keeps its capacity (a reader reuses one builder batch
//    after batch). Finish() hands the buffers over to the array, so the builder is empty
//    and ready for reuse but starts again from zero capacity.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "strata/array/array_data.h"
#include "strata/array/bitmap.h"
#include "strata/memory/buffer.h"
#include "strata/util/result.h"

namespace strata {

class ArrayBuilder {
 public:
  ArrayBuilder(TypePtr type, MemoryPool* pool);
  virtual ~ArrayBuilder() = default;
  ArrayBuilder(const ArrayBuilder&) = delete;
  ArrayBuilder& operator=(const ArrayBuilder&) = delete;

  const TypePtr& type() const { return type_; }
  MemoryPool* pool() const { return pool_; }
  // Rows appended so far.
  int64_t length() const { return length_; }
  int64_t null_count() const { return null_count_; }
  // Rows that fit without growing the row-sized buffers.
  int64_t capacity() const { return capacity_; }

  // Makes room for `additional_rows` more rows (nested builders: this level only).
  virtual Status Reserve(int64_t additional_rows) = 0;
  Status AppendNull() { return AppendNulls(1); }
  virtual Status AppendNulls(int64_t n) = 0;
  // Appends n valid "empty" values: zero, false, "", [], a struct of empty members.
  virtual Status AppendEmptyValues(int64_t n) = 0;
  Status AppendEmptyValue() { return AppendEmptyValues(1); }

  // Builds the array from everything appended and leaves the builder empty.
  virtual Result<ArrayDataPtr> Finish() = 0;
  // Drops everything appended; keeps the capacity of every buffer.
  virtual void Reset();

  // Bytes of pool memory held by this builder (capacity, children included).
  virtual int64_t memory_size() const;

  int num_children() const { return static_cast<int>(children_.size()); }
  ArrayBuilder* child(int i) const { return children_[static_cast<size_t>(i)].get(); }

  // True once a bitmap exists (the first null has been appended since the last Finish/Reset).
  bool has_validity_bitmap() const { return validity_active_; }

 protected:
  // Validity bookkeeping for subclasses. Every call records rows starting at row length_;
  // subclasses call these before bumping length_.
  //
  // Invariant: while a bitmap is active it has room for capacity_ rows, so the single-row
  // hot paths may write a bit without a capacity check once length_ < capacity_.

  // Records `n` valid rows (no-op without a bitmap).
  Status AppendValidityValid(int64_t n) {
    if (!validity_active_) return Status::OK();
    return SetValidityRange(n, true);
  }
  // Records `n` null rows, materialising the bitmap if needed; adds n to null_count_.
  Status AppendValidityNull(int64_t n);
  // Records bits [offset, offset + n) of an LSB-first bitmap (nullptr = all valid) and
  // returns the number of nulls among them (also added to null_count_).
  Result<int64_t> AppendValidityBitmap(const uint8_t* validity, int64_t offset, int64_t n);
  // The active bitmap's bytes, or nullptr without one. Write only bits of rows < capacity_.
  uint8_t* active_validity() const { return validity_active_ ? validity_->mutable_data() : nullptr; }
  // Records that the row buffers now hold `rows` rows and grows an active bitmap to match.
  Status SetRowCapacity(int64_t rows);
  // Moves the bitmap into the result (nullptr without nulls); trailing bits are zeroed.
  std::shared_ptr<Buffer> FinishValidity();
  // After the row buffers were handed to an array: length, null count and capacity go to 0.
  void ResetAfterFinish();

  TypePtr type_;
  MemoryPool* pool_;
  int64_t length_ = 0;
  int64_t null_count_ = 0;
  int64_t capacity_ = 0;
  std::vector<std::unique_ptr<ArrayBuilder>> children_;

 private:
  Status MaterializeValidity(int64_t rows_needed);
  Status SetValidityRange(int64_t n, bool valid);

  std::shared_ptr<ResizableBuffer> validity_;
  bool validity_active_ = false;
};

// Makes a builder for any type (children included, recursively). Dictionary types get a
// DictionaryBuilder whose dictionary is set by the caller.
Result<std::unique_ptr<ArrayBuilder>> MakeBuilder(const TypePtr& type, MemoryPool* pool);

}  // namespace strata
