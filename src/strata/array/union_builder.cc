#include "strata/array/union_builder.h"

#include <algorithm>
#include <cstring>

namespace strata {

Result<std::unique_ptr<UnionBuilder>> UnionBuilder::Make(TypePtr type, MemoryPool* pool) {
  if (type == nullptr || !is_union(type->id())) {
    return Status::Invalid("UnionBuilder needs a union type, got {}", type ? type->ToString() : "null");
  }
  std::vector<std::unique_ptr<ArrayBuilder>> members;
  for (const FieldPtr& f : type->fields()) {
    STRATA_ASSIGN_OR_RETURN(auto member, MakeBuilder(f->type(), pool));
    members.push_back(std::move(member));
  }
  return std::make_unique<UnionBuilder>(std::move(type), std::move(members), pool);
}

UnionBuilder::UnionBuilder(TypePtr type, std::vector<std::unique_ptr<ArrayBuilder>> member_builders,
                           MemoryPool* pool)
    : ArrayBuilder(std::move(type), pool), dense_(type_->id() == TypeId::kDenseUnion) {
  children_ = std::move(member_builders);
  std::fill(std::begin(child_of_code_), std::end(child_of_code_), int16_t{-1});
  const std::vector<int8_t>& codes = type_->type_codes();
  for (size_t c = 0; c < codes.size(); ++c) child_of_code_[static_cast<uint8_t>(codes[c])] = static_cast<int16_t>(c);
}

Status UnionBuilder::Reserve(int64_t additional_rows) {
  if (additional_rows < 0) return Status::Invalid("negative row count {} passed to Reserve", additional_rows);
  const int64_t rows = length_ + additional_rows;
  if (rows <= capacity_) return Status::OK();
  if (type_ids_ == nullptr) {
    STRATA_ASSIGN_OR_RETURN(type_ids_, ResizableBuffer::Make(pool_));
    if (dense_) { STRATA_ASSIGN_OR_RETURN(offsets_, ResizableBuffer::Make(pool_)); }
  }
  STRATA_RETURN_NOT_OK(type_ids_->Resize(rows));
  if (dense_) STRATA_RETURN_NOT_OK(offsets_->Resize(rows * 4));
  capacity_ = rows;  // no validity bitmap: the row buffers are all there is
  return Status::OK();
}

Status UnionBuilder::AppendSlots(int8_t type_code, int64_t n, bool null) {
  if (n <= 0) return Status::OK();
  const int c = ChildIndex(type_code);
  if (c < 0) return Status::Invalid("{} has no member with type id {}", type_->ToString(), int{type_code});
  if (length_ + n > capacity_) STRATA_RETURN_NOT_OK(Reserve(std::max(n, capacity_)));
  std::memset(type_ids_->mutable_data() + length_, type_code, static_cast<size_t>(n));
  ArrayBuilder& member = *children_[static_cast<size_t>(c)];
  if (dense_) {
    int32_t* offsets = offsets_->mutable_data_as<int32_t>() + length_;
    for (int64_t i = 0; i < n; ++i) offsets[i] = static_cast<int32_t>(member.length() + i);
  } else {
    for (size_t other = 0; other < children_.size(); ++other) {
      if (static_cast<int>(other) != c) STRATA_RETURN_NOT_OK(children_[other]->AppendEmptyValues(n));
    }
  }
  length_ += n;
  if (null) return member.AppendNulls(n);
  return Status::OK();
}

Status UnionBuilder::Append(int8_t type_code) {
  if (dense_ && ChildIndex(type_code) >= 0 && children_[static_cast<size_t>(ChildIndex(type_code))]->length() >= INT32_MAX) {
    return Status::LimitExceeded("{}: a dense union member holds at most {} values", type_->ToString(), INT32_MAX);
  }
  return AppendSlots(type_code, 1, /*null=*/false);
}

Status UnionBuilder::AppendNulls(int64_t n) {
  if (children_.empty()) return Status::Invalid("{} has no member to hold a null", type_->ToString());
  return AppendSlots(type_->type_codes()[0], n, /*null=*/true);
}

Status UnionBuilder::AppendEmptyValues(int64_t n) {
  if (n <= 0) return Status::OK();
  if (children_.empty()) return Status::Invalid("{} has no member to hold a value", type_->ToString());
  STRATA_RETURN_NOT_OK(AppendSlots(type_->type_codes()[0], n, /*null=*/false));
  return children_[0]->AppendEmptyValues(n);
}

Result<ArrayDataPtr> UnionBuilder::Finish() {
  // Sparse members are as long as the union; dense ones hold what the slots point at.
  std::vector<int64_t> needed(children_.size(), dense_ ? 0 : length_);
  if (dense_) {
    for (int64_t i = 0; i < length_; ++i) ++needed[static_cast<size_t>(ChildIndex(static_cast<int8_t>(type_ids_->data()[i])))];
  }
  for (size_t c = 0; c < children_.size(); ++c) {
    if (children_[c]->length() != needed[c]) {
      return Status::Invalid("{}: member '{}' has {} values, the slots appended need {}", type_->ToString(),
                             type_->field(static_cast<int>(c))->name(), children_[c]->length(), needed[c]);
    }
  }
  std::vector<std::shared_ptr<Buffer>> buffers{nullptr};
  if (type_ids_ == nullptr) STRATA_RETURN_NOT_OK(Reserve(0 + 1));  // an empty union still has its buffers
  STRATA_RETURN_NOT_OK(type_ids_->Resize(length_));
  buffers.push_back(std::move(type_ids_));
  if (dense_) {
    STRATA_RETURN_NOT_OK(offsets_->Resize(length_ * 4));
    buffers.push_back(std::move(offsets_));
  }
  type_ids_ = nullptr;
  offsets_ = nullptr;
  auto out = ArrayData::Make(type_, length_, std::move(buffers), 0);
  for (auto& child : children_) {
    STRATA_ASSIGN_OR_RETURN(ArrayDataPtr c, child->Finish());
    out->children.push_back(std::move(c));
  }
  length_ = 0;
  null_count_ = 0;
  capacity_ = 0;
  return out;
}

void UnionBuilder::Reset() {
  for (auto& child : children_) child->Reset();
  length_ = 0;
  null_count_ = 0;
}

int64_t UnionBuilder::memory_size() const {
  int64_t total = 0;
  if (type_ids_ != nullptr) total += type_ids_->capacity();
  if (offsets_ != nullptr) total += offsets_->capacity();
  for (const auto& child : children_) total += child->memory_size();
  return total;
}

}  // namespace strata
