#include "strata/array/concatenate.h"

#include <cstring>
#include <limits>

#include "strata/array/bitmap.h"

namespace strata {
namespace {

using bitmap::BytesForBits;
using bitmap::CopyBitmap;
using bitmap::SetBitsTo;

// Copies the validity of `a` then `b` into one bitmap; nullptr when neither has nulls.
Result<std::shared_ptr<Buffer>> ConcatenateValidity(const ArrayData& a, const ArrayData& b, MemoryPool* pool) {
  if (a.GetNullCount() == 0 && b.GetNullCount() == 0) return std::shared_ptr<Buffer>();
  const int64_t length = a.length + b.length;
  STRATA_ASSIGN_OR_RETURN(auto bitmap, AllocateBuffer(pool, BytesForBits(length)));
  uint8_t* bits = bitmap->mutable_data();
  int64_t position = 0;
  for (const ArrayData* part : {&a, &b}) {
    if (part->validity_data() != nullptr) {
      CopyBitmap(part->validity_data(), part->offset, part->length, bits, position);
    } else {
      SetBitsTo(bits, position, part->length, true);
    }
    position += part->length;
  }
  return std::shared_ptr<Buffer>(std::move(bitmap));
}

template <typename Offset>
Result<ArrayDataPtr> ConcatenateBinary(const ArrayData& a, const ArrayData& b, std::shared_ptr<Buffer> validity,
                                       MemoryPool* pool) {
  const int64_t length = a.length + b.length;
  auto range = [](const ArrayData& part) {
    const Offset* offsets = part.buffers[1]->data_as<Offset>() + part.offset;
    return std::pair<int64_t, int64_t>{offsets[0], offsets[part.length]};
  };
  const auto [a_first, a_last] = range(a);
  const auto [b_first, b_last] = range(b);
  const int64_t data_size = (a_last - a_first) + (b_last - b_first);
  if (data_size > static_cast<int64_t>(std::numeric_limits<Offset>::max())) {
    return Status::Invalid("concatenating {} bytes of values overflows the offsets", data_size);
  }
  STRATA_ASSIGN_OR_RETURN(auto offsets, AllocateBuffer(pool, (length + 1) * static_cast<int64_t>(sizeof(Offset))));
  STRATA_ASSIGN_OR_RETURN(auto data, AllocateBuffer(pool, data_size));
  Offset* out = offsets->mutable_data_as<Offset>();
  int64_t position = 0, written = 0;
  for (const ArrayData* part : {&a, &b}) {
    const Offset* in = part->buffers[1]->data_as<Offset>() + part->offset;
    for (int64_t i = 0; i < part->length; ++i) out[position + i] = static_cast<Offset>(written + (in[i] - in[0]));
    const int64_t bytes = in[part->length] - in[0];
    if (bytes > 0) std::memcpy(data->mutable_data() + written, part->buffers[2]->data() + in[0], bytes);
    written += bytes;
    position += part->length;
  }
  out[length] = static_cast<Offset>(written);
  return ArrayData::Make(a.type, length, {std::move(validity), std::move(offsets), std::move(data)});
}

}  // namespace

Result<ArrayDataPtr> Concatenate(const ArrayData& a, const ArrayData& b, MemoryPool* pool) {
  if (!a.type->Equals(*b.type)) {
    return Status::Invalid("cannot concatenate {} and {}", a.type->ToString(), b.type->ToString());
  }
  const TypeId id = a.type->id();
  const int64_t length = a.length + b.length;
  if (id == TypeId::kNull) return ArrayData::Make(a.type, length, {nullptr}, length);
  STRATA_ASSIGN_OR_RETURN(auto validity, ConcatenateValidity(a, b, pool));
  if (id == TypeId::kBoolean) {
    STRATA_ASSIGN_OR_RETURN(auto values, AllocateBuffer(pool, BytesForBits(length)));
    CopyBitmap(a.buffers[1]->data(), a.offset, a.length, values->mutable_data(), 0);
    CopyBitmap(b.buffers[1]->data(), b.offset, b.length, values->mutable_data(), a.length);
    return ArrayData::Make(a.type, length, {std::move(validity), std::move(values)});
  }
  if (is_primitive_fixed_width(id)) {
    const int64_t width = a.type->byte_width();
    STRATA_ASSIGN_OR_RETURN(auto values, AllocateBuffer(pool, length * width));
    if (a.length > 0) std::memcpy(values->mutable_data(), a.buffers[1]->data() + a.offset * width, a.length * width);
    if (b.length > 0) {
      std::memcpy(values->mutable_data() + a.length * width, b.buffers[1]->data() + b.offset * width, b.length * width);
    }
    return ArrayData::Make(a.type, length, {std::move(validity), std::move(values)});
  }
  if (is_binary_like(id)) return ConcatenateBinary<int32_t>(a, b, std::move(validity), pool);
  if (is_large_binary_like(id)) return ConcatenateBinary<int64_t>(a, b, std::move(validity), pool);
  return Status::NotImplemented("concatenating arrays of type {}", a.type->ToString());
}

}  // namespace strata
