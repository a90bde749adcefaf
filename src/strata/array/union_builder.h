// UnionBuilder: sparse and dense unions, one member builder per field. Rows count union slots;
// per row, call Append(type_code) and then append exactly one value (null or not) to
// member_builder(ChildIndex(type_code)). A sparse union keeps every member as long as the union
// (Append gives the other members an empty value); a dense one records each slot's offset into
// its member. A union has no validity bitmap: a null slot is a null in its member.
#pragma once

#include <memory>
#include <vector>

#include "strata/array/array_builder.h"

namespace strata {

class UnionBuilder : public ArrayBuilder {
 public:
  // `type` is sparse_union or dense_union.
  static Result<std::unique_ptr<UnionBuilder>> Make(TypePtr type, MemoryPool* pool);
  UnionBuilder(TypePtr type, std::vector<std::unique_ptr<ArrayBuilder>> member_builders, MemoryPool* pool);

  ArrayBuilder* member_builder(int i) const { return children_[static_cast<size_t>(i)].get(); }
  // The member index of `type_code`, or -1 when the type has no such id.
  int ChildIndex(int8_t type_code) const { return child_of_code_[static_cast<uint8_t>(type_code)]; }

  // Starts a slot of member `type_code` (Invalid for an id the type lacks); the caller then
  // appends its value to that member's builder.
  Status Append(int8_t type_code);
  Status Reserve(int64_t additional_rows) override;
  // Nulls of the first member (as Arrow C++ does).
  Status AppendNulls(int64_t n) override;
  Status AppendEmptyValues(int64_t n) override;
  // Fails when a member's length does not match what the slots appended need.
  Result<ArrayDataPtr> Finish() override;
  void Reset() override;
  int64_t memory_size() const override;

 private:
  Status AppendSlots(int8_t type_code, int64_t n, bool null);

  bool dense_;
  int16_t child_of_code_[256];
  std::shared_ptr<ResizableBuffer> type_ids_;
  std::shared_ptr<ResizableBuffer> offsets_;  // dense only
};

}  // namespace strata
