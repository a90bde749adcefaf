#include "strata/array/array_data.h"

#include "strata/array/bitmap.h"

namespace strata {

int64_t ArrayData::GetNullCount() const {
  // atomic_ref: concurrent readers may race to fill the cache; they all write the same value.
  std::atomic_ref<int64_t> cached(const_cast<int64_t&>(null_count));
  int64_t n = cached.load(std::memory_order_relaxed);
  if (n != kUnknownNullCount) return n;
  if (type->id() == TypeId::kNull) {
    n = length;
  } else if (const uint8_t* bits = validity_data()) {
    n = length - bitmap::CountSetBits(bits, offset, length);
  } else {
    n = 0;
  }
  cached.store(n, std::memory_order_relaxed);
  return n;
}

std::shared_ptr<ArrayData> ArrayData::Slice(int64_t slice_offset, int64_t slice_length) const {
  auto out = std::make_shared<ArrayData>(*this);
  out->offset = offset + slice_offset;
  out->length = slice_length;
  const int64_t known = std::atomic_ref<int64_t>(const_cast<int64_t&>(null_count)).load(std::memory_order_relaxed);
  if (type->id() == TypeId::kNull) {
    out->null_count = slice_length;
  } else if (known == 0 || validity_data() == nullptr) {
    out->null_count = 0;
  } else {
    out->null_count = kUnknownNullCount;
  }
  return out;
}

}  // namespace strata
