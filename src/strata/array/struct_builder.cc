#include "strata/array/struct_builder.h"

#include <algorithm>

namespace strata {

Result<std::unique_ptr<StructBuilder>> StructBuilder::Make(TypePtr type, MemoryPool* pool) {
  std::vector<std::unique_ptr<ArrayBuilder>> children;
  for (const FieldPtr& f : type->fields()) {
    STRATA_ASSIGN_OR_RETURN(auto child, MakeBuilder(f->type(), pool));
    children.push_back(std::move(child));
  }
  return std::make_unique<StructBuilder>(std::move(type), std::move(children), pool);
}

StructBuilder::StructBuilder(TypePtr type, std::vector<std::unique_ptr<ArrayBuilder>> field_builders,
                             MemoryPool* pool)
    : ArrayBuilder(std::move(type), pool) {
  children_ = std::move(field_builders);
}

Status StructBuilder::Reserve(int64_t additional_rows) {
  if (additional_rows < 0) return Status::Invalid("negative row count {} passed to Reserve", additional_rows);
  // No row buffer besides the bitmap: capacity is bookkeeping for the bitmap.
  const int64_t rows = length_ + additional_rows;
  return rows <= capacity_ ? Status::OK() : SetRowCapacity(rows);
}

Status StructBuilder::Append() { return AppendValues(1); }

Status StructBuilder::AppendValues(int64_t n, const uint8_t* validity, int64_t validity_offset) {
  if (n <= 0) return Status::OK();
  if (length_ + n > capacity_) STRATA_RETURN_NOT_OK(SetRowCapacity(std::max(length_ + n, 2 * capacity_)));
  STRATA_RETURN_NOT_OK(AppendValidityBitmap(validity, validity_offset, n).status());
  length_ += n;
  return Status::OK();
}

Status StructBuilder::AppendNulls(int64_t n) {
  if (n <= 0) return Status::OK();
  if (length_ + n > capacity_) STRATA_RETURN_NOT_OK(SetRowCapacity(std::max(length_ + n, 2 * capacity_)));
  STRATA_RETURN_NOT_OK(AppendValidityNull(n));
  for (auto& child : children_) STRATA_RETURN_NOT_OK(child->AppendEmptyValues(n));
  length_ += n;
  return Status::OK();
}

Status StructBuilder::AppendEmptyValues(int64_t n) {
  if (n <= 0) return Status::OK();
  STRATA_RETURN_NOT_OK(AppendValues(n));
  for (auto& child : children_) STRATA_RETURN_NOT_OK(child->AppendEmptyValues(n));
  return Status::OK();
}

Result<ArrayDataPtr> StructBuilder::Finish() {
  for (size_t i = 0; i < children_.size(); ++i) {
    if (children_[i]->length() != length_) {
      return Status::Invalid("{}: field '{}' has {} values for {} rows", type_->ToString(),
                             type_->field(static_cast<int>(i))->name(), children_[i]->length(), length_);
    }
  }
  auto out = ArrayData::Make(type_, length_, {FinishValidity()}, null_count_);
  for (auto& child : children_) {
    STRATA_ASSIGN_OR_RETURN(ArrayDataPtr c, child->Finish());
    out->children.push_back(std::move(c));
  }
  ResetAfterFinish();
  return out;
}

}  // namespace strata
