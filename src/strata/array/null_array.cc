#include "strata/array/null_array.h"

#include <cstring>
#include <limits>

#include "strata/array/bitmap.h"

namespace strata {
namespace {

Result<std::shared_ptr<Buffer>> ZeroedBuffer(int64_t size, MemoryPool* pool) {
  STRATA_ASSIGN_OR_RETURN(auto buffer, AllocateBuffer(pool, size));
  if (size > 0) std::memset(buffer->mutable_data(), 0, static_cast<size_t>(size));
  return std::shared_ptr<Buffer>(std::move(buffer));
}

Result<ArrayDataPtr> MakeNullData(const TypePtr& type, int64_t length, MemoryPool* pool) {
  const TypeId id = type->id();
  if (id == TypeId::kNull) return ArrayData::Make(type, length, {nullptr}, length);
  // An empty array needs no bitmap; otherwise every bit is 0 (null).
  std::shared_ptr<Buffer> validity;
  if (length > 0) {
    STRATA_ASSIGN_OR_RETURN(validity, ZeroedBuffer(bitmap::BytesForBits(length), pool));
  }
  auto make = [&](std::vector<std::shared_ptr<Buffer>> rest) {
    rest.insert(rest.begin(), validity);
    return ArrayData::Make(type, length, std::move(rest), length);
  };
  if (id == TypeId::kBoolean) {
    STRATA_ASSIGN_OR_RETURN(auto values, ZeroedBuffer(bitmap::BytesForBits(length), pool));
    return make({std::move(values)});
  }
  if (is_primitive_fixed_width(id)) {
    STRATA_ASSIGN_OR_RETURN(auto values, ZeroedBuffer(length * type->byte_width(), pool));
    return make({std::move(values)});
  }
  switch (id) {
    case TypeId::kBinary:
    case TypeId::kString:
    case TypeId::kLargeBinary:
    case TypeId::kLargeString: {
      const int64_t width = is_binary_like(id) ? 4 : 8;
      STRATA_ASSIGN_OR_RETURN(auto offsets, ZeroedBuffer((length + 1) * width, pool));
      STRATA_ASSIGN_OR_RETURN(auto data, ZeroedBuffer(0, pool));
      return make({std::move(offsets), std::move(data)});
    }
    case TypeId::kBinaryView:
    case TypeId::kStringView: {
      STRATA_ASSIGN_OR_RETURN(auto views, ZeroedBuffer(length * view_layout::kViewSize, pool));
      return make({std::move(views)});
    }
    case TypeId::kList:
    case TypeId::kLargeList:
    case TypeId::kMap: {
      const int64_t width = id == TypeId::kLargeList ? 8 : 4;
      STRATA_ASSIGN_OR_RETURN(auto offsets, ZeroedBuffer((length + 1) * width, pool));
      STRATA_ASSIGN_OR_RETURN(auto child, MakeNullData(type->value_field()->type(), 0, pool));
      auto out = make({std::move(offsets)});
      out->children = {std::move(child)};
      return out;
    }
    case TypeId::kFixedSizeList: {
      STRATA_ASSIGN_OR_RETURN(auto child, MakeNullData(type->value_field()->type(), length * type->list_size(), pool));
      auto out = make({});
      out->children = {std::move(child)};
      return out;
    }
    case TypeId::kStruct: {
      auto out = make({});
      for (const FieldPtr& field : type->fields()) {
        STRATA_ASSIGN_OR_RETURN(auto child, MakeNullData(field->type(), length, pool));
        out->children.push_back(std::move(child));
      }
      return out;
    }
    case TypeId::kDictionary: {
      STRATA_ASSIGN_OR_RETURN(auto indices, ZeroedBuffer(length * type->index_type()->byte_width(), pool));
      auto out = make({std::move(indices)});
      STRATA_ASSIGN_OR_RETURN(out->dictionary, MakeNullData(type->value_type(), 0, pool));
      return out;
    }
    case TypeId::kListView:
    case TypeId::kLargeListView: {
      const int64_t width = id == TypeId::kLargeListView ? 8 : 4;
      STRATA_ASSIGN_OR_RETURN(auto offsets, ZeroedBuffer(length * width, pool));
      STRATA_ASSIGN_OR_RETURN(auto sizes, ZeroedBuffer(length * width, pool));
      STRATA_ASSIGN_OR_RETURN(auto child, MakeNullData(type->value_field()->type(), 0, pool));
      auto out = make({std::move(offsets), std::move(sizes)});
      out->children = {std::move(child)};
      return out;
    }
    case TypeId::kSparseUnion:
    case TypeId::kDenseUnion: {
      // Every slot the first member's null (a union has no bitmap of its own).
      if (length > 0 && type->num_fields() == 0) {
        return Status::Invalid("a union without members has no null value");
      }
      const bool dense = id == TypeId::kDenseUnion;
      STRATA_ASSIGN_OR_RETURN(auto type_ids, ZeroedBuffer(length, pool));
      if (length > 0) std::memset(type_ids->mutable_data(), type->type_codes()[0], static_cast<size_t>(length));
      std::vector<std::shared_ptr<Buffer>> buffers{nullptr, std::move(type_ids)};
      if (dense) {
        STRATA_ASSIGN_OR_RETURN(auto offsets, ZeroedBuffer(length * 4, pool));
        int32_t* o = offsets->mutable_data_as<int32_t>();
        for (int64_t i = 0; i < length; ++i) o[i] = static_cast<int32_t>(i);
        buffers.push_back(std::move(offsets));
      }
      auto out = ArrayData::Make(type, length, std::move(buffers), 0);
      for (int c = 0; c < type->num_fields(); ++c) {
        const int64_t child_length = dense && c > 0 ? 0 : length;
        STRATA_ASSIGN_OR_RETURN(auto child, MakeNullData(type->field(c)->type(), child_length, pool));
        out->children.push_back(std::move(child));
      }
      return out;
    }
    default: return Status::NotImplemented("null arrays of type {}", type->ToString());
  }
}

// Fills `total` bytes at dst with copies of the first `unit` bytes already there, doubling
// the copied block each step (log2(length) memcpys instead of one per row).
void FillRepeated(uint8_t* dst, int64_t unit, int64_t total) {
  int64_t filled = unit;
  while (filled < total) {
    const int64_t n = std::min(filled, total - filled);
    std::memcpy(dst + filled, dst, static_cast<size_t>(n));
    filled += n;
  }
}

template <typename OffsetT>
Result<ArrayDataPtr> RepeatBinary(const ArrayData& d, int64_t length, MemoryPool* pool) {
  const OffsetT* offsets = d.buffers[1]->data_as<OffsetT>() + d.offset;
  const int64_t size = offsets[1] - offsets[0];
  if (size > 0 && length > static_cast<int64_t>(std::numeric_limits<OffsetT>::max()) / size) {
    return Status::Invalid("repeating a value of {} bytes {} times overflows the {} offsets", size, length,
                           d.type->ToString());
  }
  STRATA_ASSIGN_OR_RETURN(auto out_offsets, AllocateBuffer(pool, (length + 1) * int64_t{sizeof(OffsetT)}));
  STRATA_ASSIGN_OR_RETURN(auto data, AllocateBuffer(pool, size * length));
  OffsetT* dst = out_offsets->mutable_data_as<OffsetT>();
  for (int64_t i = 0; i <= length; ++i) dst[i] = static_cast<OffsetT>(i * size);
  if (size > 0 && length > 0) {
    std::memcpy(data->mutable_data(), d.buffers[2]->data() + offsets[0], static_cast<size_t>(size));
    FillRepeated(data->mutable_data(), size, size * length);
  }
  return ArrayData::Make(d.type, length, {nullptr, std::move(out_offsets), std::move(data)}, 0);
}

}  // namespace

Result<Array> MakeNullArray(const TypePtr& type, int64_t length, MemoryPool* pool) {
  if (length < 0) return Status::Invalid("null array of negative length {}", length);
  STRATA_ASSIGN_OR_RETURN(auto data, MakeNullData(type, length, pool));
  return Array(std::move(data));
}

Result<Array> MakeRepeatedArray(const Array& value, int64_t length, MemoryPool* pool) {
  if (value.length() != 1) return Status::Invalid("repeated value must have length 1, has {}", value.length());
  if (length < 0) return Status::Invalid("repeated array of negative length {}", length);
  if (value.IsNull(0)) return MakeNullArray(value.type(), length, pool);
  const ArrayData& d = *value.data();
  const TypeId id = d.type->id();
  if (id == TypeId::kBoolean) {
    STRATA_ASSIGN_OR_RETURN(auto bits, AllocateBuffer(pool, bitmap::BytesForBits(length)));
    if (bits->size() > 0) std::memset(bits->mutable_data(), 0, static_cast<size_t>(bits->size()));
    bitmap::SetBitsTo(bits->mutable_data(), 0, length, BooleanArray(value).Value(0));
    return Array(ArrayData::Make(d.type, length, {nullptr, std::move(bits)}, 0));
  }
  if (is_primitive_fixed_width(id) || is_view(id)) {
    const int64_t width = is_view(id) ? view_layout::kViewSize : d.type->byte_width();
    STRATA_ASSIGN_OR_RETURN(auto values, AllocateBuffer(pool, width * length));
    if (width > 0 && length > 0) {
      std::memcpy(values->mutable_data(), d.buffers[1]->data() + d.offset * width, static_cast<size_t>(width));
      FillRepeated(values->mutable_data(), width, width * length);
    }
    std::vector<std::shared_ptr<Buffer>> buffers = d.buffers;  // views: data buffers shared
    buffers[0] = nullptr;
    buffers[1] = std::move(values);
    return Array(ArrayData::Make(d.type, length, std::move(buffers), 0));
  }
  if (is_binary_like(id)) {
    STRATA_ASSIGN_OR_RETURN(auto out, RepeatBinary<int32_t>(d, length, pool));
    return Array(std::move(out));
  }
  if (is_large_binary_like(id)) {
    STRATA_ASSIGN_OR_RETURN(auto out, RepeatBinary<int64_t>(d, length, pool));
    return Array(std::move(out));
  }
  return Status::NotImplemented("repeating values of type {}", d.type->ToString());
}

}  // namespace strata
