// Dictionary arrays: indices plus a dictionary of values. A Parquet reader decodes the
// dictionary page once (SetDictionary) and then appends indices batch after batch; the
// dictionary is kept across Finish() and Reset() until replaced.
#pragma once

#include "strata/array/array_builder.h"
#include "strata/array/primitive_builder.h"

namespace strata {

class DictionaryBuilder : public ArrayBuilder {
 public:
  // `type` is a dictionary type; indices are stored in its index type.
  DictionaryBuilder(TypePtr type, MemoryPool* pool);

  // Sets the values that later indices refer to. Fails when its type differs from the
  // dictionary type's value type.
  Status SetDictionary(ArrayDataPtr dictionary);
  const ArrayDataPtr& dictionary() const { return dictionary_; }

  // Appends one index; fails with Invalid when it is outside [0, dictionary length).
  Status Append(int64_t index);
  // n indices with optional LSB-first validity; every valid index is range-checked (once
  // per batch: min/max scan) before anything is appended. Null slots store 0.
  Status AppendIndices(const int32_t* indices, int64_t n, const uint8_t* validity = nullptr,
                       int64_t validity_offset = 0);

  Status Reserve(int64_t additional_rows) override;
  Status AppendNulls(int64_t n) override;
  // Appends index 0 (needs a non-empty dictionary).
  Status AppendEmptyValues(int64_t n) override;
  // Fails without a dictionary.
  Result<ArrayDataPtr> Finish() override;
  void Reset() override;
  int64_t memory_size() const override;

 private:
  FixedWidthBuilder indices_;
  ArrayDataPtr dictionary_;
};

// Assembles a dictionary array from an integer indices array and a dictionary, checking the
// types and that every valid index is in range (Corrupt otherwise, for untrusted input).
Result<ArrayDataPtr> MakeDictionaryArray(TypePtr type, const ArrayDataPtr& indices, ArrayDataPtr dictionary);

}  // namespace strata
