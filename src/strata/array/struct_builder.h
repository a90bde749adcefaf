// StructBuilder: one child builder per field. Rows count structs; per row, call Append()
// and append one value to every field_builder(i). AppendNull() appends an empty value to
// every child itself, so children stay aligned.
#pragma once

#include "strata/array/array_builder.h"

namespace strata {

class StructBuilder : public ArrayBuilder {
 public:
  static Result<std::unique_ptr<StructBuilder>> Make(TypePtr type, MemoryPool* pool);
  StructBuilder(TypePtr type, std::vector<std::unique_ptr<ArrayBuilder>> field_builders, MemoryPool* pool);

  ArrayBuilder* field_builder(int i) const { return children_[static_cast<size_t>(i)].get(); }
  int num_fields() const { return num_children(); }

  // Marks one valid struct; the caller appends one value per child.
  Status Append();
  // n structs with an optional LSB-first validity bitmap; the caller appends n values to
  // every child (null rows included).
  Status AppendValues(int64_t n, const uint8_t* validity = nullptr, int64_t validity_offset = 0);
  Status Reserve(int64_t additional_rows) override;
  Status AppendNulls(int64_t n) override;
  Status AppendEmptyValues(int64_t n) override;
  // Fails when a child's length differs from length().
  Result<ArrayDataPtr> Finish() override;
};

}  // namespace strata
