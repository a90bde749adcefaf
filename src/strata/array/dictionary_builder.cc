#include "strata/array/dictionary_builder.h"

#include <algorithm>
#include <vector>

#include "strata/array/array.h"

namespace strata {

DictionaryBuilder::DictionaryBuilder(TypePtr type, MemoryPool* pool)
    : ArrayBuilder(type, pool), indices_(type->index_type(), type->index_type()->byte_width(), pool) {}

Status DictionaryBuilder::SetDictionary(ArrayDataPtr dictionary) {
  if (dictionary == nullptr || !dictionary->type->Equals(*type_->value_type())) {
    return Status::Invalid("dictionary of type {} given to a builder of {}",
                           dictionary ? dictionary->type->ToString() : "null", type_->ToString());
  }
  dictionary_ = std::move(dictionary);
  return Status::OK();
}

namespace {

// Writes `value` as the index type's integer into `out`.
void StoreIndex(TypeId id, int64_t value, uint8_t* out) {
  switch (id) {
    case TypeId::kInt8:
    case TypeId::kUInt8: *out = static_cast<uint8_t>(value); break;
    case TypeId::kInt16:
    case TypeId::kUInt16: {
      const uint16_t v = static_cast<uint16_t>(value);
      std::memcpy(out, &v, 2);
      break;
    }
    case TypeId::kInt32:
    case TypeId::kUInt32: {
      const uint32_t v = static_cast<uint32_t>(value);
      std::memcpy(out, &v, 4);
      break;
    }
    default: std::memcpy(out, &value, 8); break;
  }
}

}  // namespace

Status DictionaryBuilder::Append(int64_t index) {
  const int64_t size = dictionary_ ? dictionary_->length : 0;
  if (index < 0 || index >= size) {
    return Status::Invalid("dictionary index {} out of range for a dictionary of {} values", index, size);
  }
  STRATA_ASSIGN_OR_RETURN(uint8_t * out, indices_.AppendUninitializedBytes(1));
  StoreIndex(type_->index_type()->id(), index, out);
  length_ = indices_.length();
  null_count_ = indices_.null_count();
  return Status::OK();
}

Status DictionaryBuilder::AppendIndices(const int32_t* indices, int64_t n, const uint8_t* validity,
                                        int64_t validity_offset) {
  if (n <= 0) return Status::OK();
  const int64_t size = dictionary_ ? dictionary_->length : 0;
  // One pass over the batch for the range check, then an unchecked conversion loop.
  int32_t lo = 0;
  int32_t hi = -1;
  bool any = false;
  for (int64_t i = 0; i < n; ++i) {
    if (validity != nullptr && !bitmap::GetBit(validity, validity_offset + i)) continue;
    lo = any ? std::min(lo, indices[i]) : indices[i];
    hi = any ? std::max(hi, indices[i]) : indices[i];
    any = true;
  }
  if (any && (lo < 0 || hi >= size)) {
    return Status::Invalid("dictionary index {} out of range for a dictionary of {} values", lo < 0 ? lo : hi, size);
  }
  const int width = indices_.byte_width();
  const TypeId id = type_->index_type()->id();
  STRATA_ASSIGN_OR_RETURN(uint8_t * out, indices_.AppendUninitializedBytes(n, validity, validity_offset));
  if (width == 4) {
    std::memcpy(out, indices, static_cast<size_t>(n) * 4);
  } else {
    for (int64_t i = 0; i < n; ++i) StoreIndex(id, indices[i], out + i * width);
  }
  if (validity != nullptr) {
    for (int64_t i = 0; i < n; ++i) {
      if (!bitmap::GetBit(validity, validity_offset + i)) std::memset(out + i * width, 0, static_cast<size_t>(width));
    }
  }
  length_ = indices_.length();
  null_count_ = indices_.null_count();
  return Status::OK();
}

Status DictionaryBuilder::Reserve(int64_t additional_rows) {
  STRATA_RETURN_NOT_OK(indices_.Reserve(additional_rows));
  capacity_ = indices_.capacity();
  return Status::OK();
}

Status DictionaryBuilder::AppendNulls(int64_t n) {
  STRATA_RETURN_NOT_OK(indices_.AppendNulls(n));
  length_ = indices_.length();
  null_count_ = indices_.null_count();
  return Status::OK();
}

Status DictionaryBuilder::AppendEmptyValues(int64_t n) {
  if (n <= 0) return Status::OK();
  if (dictionary_ == nullptr || dictionary_->length == 0) {
    return Status::Invalid("cannot append empty values to {} without a non-empty dictionary", type_->ToString());
  }
  STRATA_RETURN_NOT_OK(indices_.AppendEmptyValues(n));
  length_ = indices_.length();
  return Status::OK();
}

Result<ArrayDataPtr> DictionaryBuilder::Finish() {
  if (dictionary_ == nullptr) return Status::Invalid("{} builder finished without a dictionary", type_->ToString());
  STRATA_ASSIGN_OR_RETURN(ArrayDataPtr indices, indices_.Finish());
  indices->type = type_;
  indices->dictionary = dictionary_;
  ResetAfterFinish();
  return indices;
}

void DictionaryBuilder::Reset() {
  ArrayBuilder::Reset();
  indices_.Reset();
}

int64_t DictionaryBuilder::memory_size() const { return ArrayBuilder::memory_size() + indices_.memory_size(); }

Result<ArrayDataPtr> MakeDictionaryArray(TypePtr type, const ArrayDataPtr& indices, ArrayDataPtr dictionary) {
  if (type->id() != TypeId::kDictionary) return Status::Invalid("{} is not a dictionary type", type->ToString());
  if (!indices->type->Equals(*type->index_type())) {
    return Status::Invalid("indices of type {} for {}", indices->type->ToString(), type->ToString());
  }
  if (dictionary == nullptr || !dictionary->type->Equals(*type->value_type())) {
    return Status::Invalid("dictionary of type {} for {}", dictionary ? dictionary->type->ToString() : "null",
                           type->ToString());
  }
  auto out = std::make_shared<ArrayData>(*indices);
  out->type = std::move(type);
  out->dictionary = std::move(dictionary);
  DictionaryArray view(out);
  const int64_t size = out->dictionary->length;
  for (int64_t i = 0; i < view.length(); ++i) {
    if (view.IsNull(i)) continue;
    const int64_t index = view.GetValueIndex(i);
    if (index < 0 || index >= size) {
      return Status::Corrupt("dictionary index {} at row {} out of range for a dictionary of {} values", index, i, size);
    }
  }
  return out;
}

}  // namespace strata
