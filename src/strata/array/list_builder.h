// Builders for list, large_list and fixed_size_list. Rows count lists; the child builder
// (value_builder()) receives the elements. Usage per list: Append(), then append the
// list's elements to value_builder(). AppendNull() adds an empty null list.
#pragma once

#include "strata/array/array_builder.h"

namespace strata {

template <typename OffsetT>
class ListBuilder : public ArrayBuilder {
 public:
  using offset_type = OffsetT;
  // `type` is list (OffsetT = int32_t) or large_list (int64_t); the value builder is made
  // from the type's value field.
  static Result<std::unique_ptr<ListBuilder>> Make(TypePtr type, MemoryPool* pool);
  ListBuilder(TypePtr type, std::unique_ptr<ArrayBuilder> value_builder, MemoryPool* pool);

  ArrayBuilder* value_builder() const { return children_[0].get(); }

  // Starts a new list (valid or null); its elements are what value_builder() receives
  // until the next Append / AppendNull.
  Status Append(bool is_valid = true);
  // Decoder hook: n lists whose start offsets into the child are `offsets[0..n)` (the end of
  // the last one is the child's length at Finish, or the next list's start), with an
  // optional LSB-first validity bitmap. Offsets must not decrease (checked).
  Status AppendValues(const OffsetT* offsets, int64_t n, const uint8_t* validity = nullptr,
                      int64_t validity_offset = 0);

  Status Reserve(int64_t additional_rows) override;
  Status AppendNulls(int64_t n) override;
  Status AppendEmptyValues(int64_t n) override;
  // Fails when the child's length does not fit OffsetT.
  Result<ArrayDataPtr> Finish() override;
  void Reset() override;
  int64_t memory_size() const override;

 private:
  Status GrowRows(int64_t min_rows);
  Status AppendStarts(int64_t n, bool valid);
  OffsetT* offsets() const { return reinterpret_cast<OffsetT*>(offsets_->mutable_data()); }

  // Start offsets, one per list; the closing offset is added by Finish (capacity for it is
  // part of every reservation).
  std::shared_ptr<ResizableBuffer> offsets_;
};

using LargeListBuilder = ListBuilder<int64_t>;

extern template class ListBuilder<int32_t>;
extern template class ListBuilder<int64_t>;

class FixedSizeListBuilder : public ArrayBuilder {
 public:
  static Result<std::unique_ptr<FixedSizeListBuilder>> Make(TypePtr type, MemoryPool* pool);
  FixedSizeListBuilder(TypePtr type, std::unique_ptr<ArrayBuilder> value_builder, MemoryPool* pool);

  ArrayBuilder* value_builder() const { return children_[0].get(); }
  int32_t list_size() const { return list_size_; }

  // Marks one valid list; append exactly list_size() elements to value_builder().
  Status Append();
  // n lists with an optional validity bitmap; the caller appends n * list_size() elements
  // (null lists included) to value_builder().
  Status AppendValues(int64_t n, const uint8_t* validity = nullptr, int64_t validity_offset = 0);
  Status Reserve(int64_t additional_rows) override;
  // Appends list_size() empty child values per null list.
  Status AppendNulls(int64_t n) override;
  Status AppendEmptyValues(int64_t n) override;
  // Fails when the child does not hold length() * list_size() elements.
  Result<ArrayDataPtr> Finish() override;

 private:
  int32_t list_size_;
};

}  // namespace strata
