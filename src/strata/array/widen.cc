#include "strata/array/widen.h"

#include <cstring>
#include <limits>

#include "strata/array/bitmap.h"
#include "strata/array/value_text.h"
#include "strata/types/field.h"

namespace strata {
namespace {

int IntegerBits(TypeId id) {
  switch (id) {
    case TypeId::kInt8:
    case TypeId::kUInt8: return 8;
    case TypeId::kInt16:
    case TypeId::kUInt16: return 16;
    case TypeId::kInt32:
    case TypeId::kUInt32: return 32;
    default: return 64;
  }
}

bool IntegerWidens(TypeId from, TypeId to) {
  if (is_signed_integer(from) && !is_signed_integer(to)) return false;  // negatives do not fit
  return IntegerBits(to) > IntegerBits(from);
}

int UnitRank(TimeUnit unit) { return static_cast<int>(unit); }  // s < ms < us < ns

bool IsTime(TypeId id) { return id == TypeId::kTime32 || id == TypeId::kTime64; }

// Dictionary values Widen can decode (gather by index).
bool Decodable(TypeId id) { return is_primitive_fixed_width(id) || is_binary_like(id) || is_large_binary_like(id); }

bool FieldWidens(const Field& from, const Field& to) {
  return (to.nullable() || !from.nullable()) && CanWiden(*from.type(), *to.type());
}

// The validity of d rebased to offset 0: a zero-copy slice when the offset is byte-aligned.
Result<std::shared_ptr<Buffer>> RebasedValidity(const ArrayData& d, MemoryPool* pool) {
  if (d.validity_data() == nullptr || d.GetNullCount() == 0) return std::shared_ptr<Buffer>();
  const int64_t bytes = bitmap::BytesForBits(d.length);
  if (d.offset % 8 == 0) return Buffer::Slice(d.buffers[0], d.offset / 8, bytes);
  STRATA_ASSIGN_OR_RETURN(auto out, AllocateBuffer(pool, bytes));
  if (bytes > 0) out->mutable_data()[bytes - 1] = 0;
  bitmap::CopyBitmap(d.validity_data(), d.offset, d.length, out->mutable_data(), 0);
  return std::shared_ptr<Buffer>(std::move(out));
}

// Fixed-width value conversion; `convert(in, row, &out)` returns false to refuse a value.
template <typename In, typename Out, typename Convert>
Result<Array> ConvertValues(const ArrayData& d, const TypePtr& to, MemoryPool* pool, Convert&& convert) {
  STRATA_ASSIGN_OR_RETURN(auto validity, RebasedValidity(d, pool));
  STRATA_ASSIGN_OR_RETURN(auto values, AllocateBuffer(pool, d.length * int64_t{sizeof(Out)}));
  const In* in = d.buffers[1] ? d.buffers[1]->data_as<In>() + d.offset : nullptr;
  Out* out = values->mutable_data_as<Out>();
  for (int64_t i = 0; i < d.length; ++i) STRATA_RETURN_NOT_OK(convert(in[i], i, &out[i]));
  return Array(ArrayData::Make(to, d.length, {std::move(validity), std::move(values)}, d.GetNullCount()));
}

template <typename In, typename Out>
Result<Array> Cast(const ArrayData& d, const TypePtr& to, MemoryPool* pool) {
  return ConvertValues<In, Out>(d, to, pool, [](In v, int64_t, Out* out) {
    *out = static_cast<Out>(v);
    return Status::OK();
  });
}

template <typename In>
Result<Array> CastIntegerFrom(const ArrayData& d, const TypePtr& to, MemoryPool* pool) {
  switch (to->id()) {
    case TypeId::kInt16: return Cast<In, int16_t>(d, to, pool);
    case TypeId::kInt32: return Cast<In, int32_t>(d, to, pool);
    case TypeId::kInt64: return Cast<In, int64_t>(d, to, pool);
    case TypeId::kUInt16: return Cast<In, uint16_t>(d, to, pool);
    case TypeId::kUInt32: return Cast<In, uint32_t>(d, to, pool);
    case TypeId::kUInt64: return Cast<In, uint64_t>(d, to, pool);
    case TypeId::kFloat32: return Cast<In, float>(d, to, pool);
    case TypeId::kFloat64: return Cast<In, double>(d, to, pool);
    default: return Status::Invalid("cannot widen {} to {}", d.type->ToString(), to->ToString());
  }
}

Result<Array> CastInteger(const ArrayData& d, const TypePtr& to, MemoryPool* pool) {
  switch (d.type->id()) {
    case TypeId::kInt8: return CastIntegerFrom<int8_t>(d, to, pool);
    case TypeId::kInt16: return CastIntegerFrom<int16_t>(d, to, pool);
    case TypeId::kInt32: return CastIntegerFrom<int32_t>(d, to, pool);
    case TypeId::kUInt8: return CastIntegerFrom<uint8_t>(d, to, pool);
    case TypeId::kUInt16: return CastIntegerFrom<uint16_t>(d, to, pool);
    case TypeId::kUInt32: return CastIntegerFrom<uint32_t>(d, to, pool);
    default: return Status::Invalid("cannot widen {} to {}", d.type->ToString(), to->ToString());
  }
}

// Temporal unit change by an exact factor; a valid value that overflows is refused by name.
template <typename In, typename Out>
Result<Array> Rescale(const ArrayData& d, const TypePtr& to, int64_t factor, MemoryPool* pool) {
  const uint8_t* validity = d.validity_data();
  return ConvertValues<In, Out>(d, to, pool, [&](In v, int64_t i, Out* out) {
    if (validity != nullptr && !bitmap::GetBit(validity, d.offset + i)) {
      *out = 0;
      return Status::OK();
    }
    int64_t scaled;
    if (__builtin_mul_overflow(static_cast<int64_t>(v), factor, &scaled) ||
        scaled < static_cast<int64_t>(std::numeric_limits<Out>::min()) ||
        scaled > static_cast<int64_t>(std::numeric_limits<Out>::max())) {
      return Status::Invalid("value {} at row {} of {} overflows when converted to {}", static_cast<int64_t>(v), i,
                             d.type->ToString(), to->ToString());
    }
    *out = static_cast<Out>(scaled);
    return Status::OK();
  });
}

Result<Array> RescaleTemporal(const ArrayData& d, const TypePtr& to, MemoryPool* pool) {
  int64_t factor = 1;
  if (d.type->id() == TypeId::kDate32) {
    factor = 86400000;
  } else {
    for (int r = UnitRank(d.type->unit()); r < UnitRank(to->unit()); ++r) factor *= 1000;
  }
  const bool in32 = d.type->id() == TypeId::kDate32 || d.type->id() == TypeId::kTime32;
  const bool out32 = to->id() == TypeId::kTime32;
  if (in32 && out32) return Rescale<int32_t, int32_t>(d, to, factor, pool);
  if (in32) return Rescale<int32_t, int64_t>(d, to, factor, pool);
  return Rescale<int64_t, int64_t>(d, to, factor, pool);
}

// A decimal to a wider one (decimal32 -> 64 -> 128 -> 256): sign-extends each little-endian value.
Result<Array> ExtendDecimal(const ArrayData& d, const TypePtr& to, MemoryPool* pool) {
  const int64_t from_width = d.type->byte_width();
  const int64_t to_width = to->byte_width();
  STRATA_ASSIGN_OR_RETURN(auto validity, RebasedValidity(d, pool));
  STRATA_ASSIGN_OR_RETURN(auto values, AllocateBuffer(pool, d.length * to_width));
  const uint8_t* in = d.buffers[1] ? d.buffers[1]->data() + d.offset * from_width : nullptr;
  uint8_t* out = values->mutable_data();
  for (int64_t i = 0; i < d.length; ++i) {
    const uint8_t* value = in + i * from_width;
    std::memcpy(out + i * to_width, value, static_cast<size_t>(from_width));
    std::memset(out + i * to_width + from_width, (value[from_width - 1] & 0x80) ? 0xFF : 0,
                static_cast<size_t>(to_width - from_width));
  }
  return Array(ArrayData::Make(to, d.length, {std::move(validity), std::move(values)}, d.GetNullCount()));
}

// binary -> large_binary: int64 offsets rebased to 0; the data buffer is shared (a slice).
Result<Array> ToLargeBinary(const ArrayData& d, const TypePtr& to, MemoryPool* pool) {
  STRATA_ASSIGN_OR_RETURN(auto validity, RebasedValidity(d, pool));
  STRATA_ASSIGN_OR_RETURN(auto offsets, AllocateBuffer(pool, (d.length + 1) * 8));
  const int32_t* in = d.buffers[1]->data_as<int32_t>() + d.offset;
  int64_t* out = offsets->mutable_data_as<int64_t>();
  for (int64_t i = 0; i <= d.length; ++i) out[i] = int64_t{in[i]} - in[0];
  std::shared_ptr<Buffer> data = d.buffers[2];
  if (data != nullptr && in[d.length] > in[0]) data = Buffer::Slice(data, in[0], in[d.length] - in[0]);
  return Array(ArrayData::Make(to, d.length, {std::move(validity), std::move(offsets), std::move(data)},
                               d.GetNullCount()));
}

// (large_)binary -> binary_view: views point into the shared data buffer (index 0).
template <typename OffsetT>
Result<Array> ToViews(const ArrayData& d, const TypePtr& to, MemoryPool* pool) {
  const OffsetT* in = d.buffers[1]->data_as<OffsetT>() + d.offset;
  const std::shared_ptr<Buffer>& data = d.buffers[2];
  if (d.length > 0 && static_cast<int64_t>(in[d.length]) > std::numeric_limits<int32_t>::max()) {
    return Status::Invalid("{} values end at byte {}, past the 2 GiB a view can address", d.type->ToString(),
                           static_cast<int64_t>(in[d.length]));
  }
  STRATA_ASSIGN_OR_RETURN(auto validity, RebasedValidity(d, pool));
  STRATA_ASSIGN_OR_RETURN(auto views, AllocateBuffer(pool, d.length * view_layout::kViewSize));
  uint8_t* out = views->mutable_data();
  if (views->size() > 0) std::memset(out, 0, static_cast<size_t>(views->size()));
  bool any_long = false;
  for (int64_t i = 0; i < d.length; ++i) {
    uint8_t* view = out + i * view_layout::kViewSize;
    const int32_t length = static_cast<int32_t>(in[i + 1] - in[i]);
    const int32_t offset = static_cast<int32_t>(in[i]);
    std::memcpy(view, &length, 4);
    if (length <= view_layout::kInlineSize) {
      if (length > 0) std::memcpy(view + 4, data->data() + offset, static_cast<size_t>(length));
    } else {
      const int32_t buffer_index = 0;
      std::memcpy(view + 4, data->data() + offset, view_layout::kPrefixSize);
      std::memcpy(view + 8, &buffer_index, 4);
      std::memcpy(view + 12, &offset, 4);
      any_long = true;
    }
  }
  std::vector<std::shared_ptr<Buffer>> buffers = {std::move(validity), std::move(views)};
  if (any_long) buffers.push_back(data);
  return Array(ArrayData::Make(to, d.length, std::move(buffers), d.GetNullCount()));
}

// Decodes a dictionary array into its value type. A slot is null when its index is null or
// the value it refers to is.
Result<Array> DecodeDictionary(const ArrayData& d, MemoryPool* pool) {
  DictionaryArray array(std::make_shared<ArrayData>(d));
  const ArrayData& dict = *d.dictionary;
  const TypePtr& type = dict.type;
  std::vector<int64_t> index(static_cast<size_t>(d.length), -1);  // -1: null slot
  int64_t nulls = 0;
  for (int64_t i = 0; i < d.length; ++i) {
    if (array.IsNull(i)) {
      ++nulls;
      continue;
    }
    const int64_t k = array.GetValueIndex(i);
    if (k < 0 || k >= dict.length) return Status::Invalid("row {} has index {} outside a dictionary of {}", i, k, dict.length);
    if (dict.validity_data() != nullptr && !bitmap::GetBit(dict.validity_data(), dict.offset + k)) {
      ++nulls;
      continue;
    }
    index[static_cast<size_t>(i)] = k;
  }
  std::shared_ptr<Buffer> validity;
  if (nulls > 0) {
    STRATA_ASSIGN_OR_RETURN(auto bits, AllocateBuffer(pool, bitmap::BytesForBits(d.length)));
    std::memset(bits->mutable_data(), 0, static_cast<size_t>(bits->size()));
    for (int64_t i = 0; i < d.length; ++i) {
      if (index[static_cast<size_t>(i)] >= 0) bitmap::SetBit(bits->mutable_data(), i);
    }
    validity = std::move(bits);
  }
  const TypeId id = type->id();
  if (is_primitive_fixed_width(id)) {
    const int64_t width = type->byte_width();
    STRATA_ASSIGN_OR_RETURN(auto values, AllocateBuffer(pool, d.length * width));
    const uint8_t* in = dict.buffers[1] ? dict.buffers[1]->data() + dict.offset * width : nullptr;
    for (int64_t i = 0; i < d.length; ++i) {
      const int64_t k = index[static_cast<size_t>(i)];
      uint8_t* out = values->mutable_data() + i * width;
      if (k >= 0) {
        std::memcpy(out, in + k * width, static_cast<size_t>(width));
      } else if (width > 0) {
        std::memset(out, 0, static_cast<size_t>(width));
      }
    }
    return Array(ArrayData::Make(type, d.length, {std::move(validity), std::move(values)}, nulls));
  }
  auto decode_binary = [&](auto offset_tag) -> Result<Array> {
    using OffsetT = decltype(offset_tag);
    const OffsetT* in = dict.buffers[1]->template data_as<OffsetT>() + dict.offset;
    const uint8_t* data = dict.buffers[2] ? dict.buffers[2]->data() : nullptr;
    int64_t bytes = 0;
    for (int64_t k : index) bytes += k >= 0 ? in[k + 1] - in[k] : 0;
    if (bytes > static_cast<int64_t>(std::numeric_limits<OffsetT>::max())) {
      return Status::Invalid("decoding {} needs {} bytes, more than its offsets address", d.type->ToString(), bytes);
    }
    STRATA_ASSIGN_OR_RETURN(auto offsets, AllocateBuffer(pool, (d.length + 1) * int64_t{sizeof(OffsetT)}));
    STRATA_ASSIGN_OR_RETURN(auto values, AllocateBuffer(pool, bytes));
    OffsetT* out = offsets->template mutable_data_as<OffsetT>();
    OffsetT position = 0;
    out[0] = 0;
    for (int64_t i = 0; i < d.length; ++i) {
      const int64_t k = index[static_cast<size_t>(i)];
      if (k >= 0) {
        const OffsetT n = in[k + 1] - in[k];
        if (n > 0) std::memcpy(values->mutable_data() + position, data + in[k], static_cast<size_t>(n));
        position += n;
      }
      out[i + 1] = position;
    }
    return Array(ArrayData::Make(type, d.length, {std::move(validity), std::move(offsets), std::move(values)}, nulls));
  };
  if (is_binary_like(id)) return decode_binary(int32_t{0});
  if (is_large_binary_like(id)) return decode_binary(int64_t{0});
  return Status::NotImplemented("decoding dictionaries of {}", type->ToString());
}

}  // namespace

bool CanWiden(const DataType& from, const DataType& to) {
  if (from.Equals(to)) return true;
  const TypeId f = from.id();
  const TypeId t = to.id();
  if (is_integer(f) && is_integer(t)) return IntegerWidens(f, t);
  if (is_integer(f) && t == TypeId::kFloat32) return IntegerBits(f) <= 16;  // 24-bit mantissa
  if (is_integer(f) && t == TypeId::kFloat64) return IntegerBits(f) <= 32;  // 53-bit mantissa
  if (f == TypeId::kFloat16) return t == TypeId::kFloat32 || t == TypeId::kFloat64;
  if (f == TypeId::kFloat32) return t == TypeId::kFloat64;
  if (f == TypeId::kString) return t == TypeId::kLargeString || t == TypeId::kStringView;
  if (f == TypeId::kBinary) return t == TypeId::kLargeBinary || t == TypeId::kBinaryView;
  if (f == TypeId::kLargeString) return t == TypeId::kStringView;
  if (f == TypeId::kLargeBinary) return t == TypeId::kBinaryView;
  if (f == TypeId::kDate32) return t == TypeId::kDate64;
  if (f == TypeId::kTimestamp) {
    return t == TypeId::kTimestamp && from.timezone() == to.timezone() && UnitRank(to.unit()) > UnitRank(from.unit());
  }
  if (f == TypeId::kDuration) return t == TypeId::kDuration && UnitRank(to.unit()) > UnitRank(from.unit());
  if (IsTime(f)) return IsTime(t) && UnitRank(to.unit()) > UnitRank(from.unit());
  if (is_decimal(f)) {
    // Only ever to a width at least as wide (the enum lists the decimals narrowest first).
    return is_decimal(t) && to.scale() == from.scale() && to.precision() >= from.precision() && t >= f;
  }
  if (f == TypeId::kDictionary) {
    if (t == TypeId::kDictionary) {
      return from.index_type()->Equals(*to.index_type()) && CanWiden(*from.value_type(), *to.value_type());
    }
    return Decodable(from.value_type()->id()) && CanWiden(*from.value_type(), to);
  }
  if ((f == TypeId::kList || f == TypeId::kLargeList) && (t == TypeId::kList || t == TypeId::kLargeList)) {
    return !(f == TypeId::kLargeList && t == TypeId::kList) && FieldWidens(*from.value_field(), *to.value_field());
  }
  if (f == TypeId::kStruct && t == TypeId::kStruct) {
    if (from.num_fields() != to.num_fields()) return false;
    for (int i = 0; i < from.num_fields(); ++i) {
      if (!FieldWidens(*from.field(i), *to.field(i))) return false;
    }
    return true;
  }
  return false;
}

Result<Array> Widen(const Array& array, const TypePtr& to, MemoryPool* pool) {
  const ArrayData& d = *array.data();
  if (d.type->Equals(*to)) return array;
  if (!CanWiden(*d.type, *to)) {
    return Status::Invalid("cannot widen {} to {} without losing values", d.type->ToString(), to->ToString());
  }
  const TypeId f = d.type->id();
  const TypeId t = to->id();
  if (is_integer(f)) return CastInteger(d, to, pool);
  if (f == TypeId::kFloat16) {
    if (t == TypeId::kFloat32) {
      return ConvertValues<uint16_t, float>(d, to, pool, [](uint16_t v, int64_t, float* out) {
        *out = value_text::HalfToFloat(v);
        return Status::OK();
      });
    }
    return ConvertValues<uint16_t, double>(d, to, pool, [](uint16_t v, int64_t, double* out) {
      *out = value_text::HalfToFloat(v);
      return Status::OK();
    });
  }
  if (f == TypeId::kFloat32) return Cast<float, double>(d, to, pool);
  if (is_binary_like(f) && is_large_binary_like(t)) return ToLargeBinary(d, to, pool);
  if (is_binary_like(f) && is_view(t)) return ToViews<int32_t>(d, to, pool);
  if (is_large_binary_like(f) && is_view(t)) return ToViews<int64_t>(d, to, pool);
  if (is_temporal(f)) return RescaleTemporal(d, to, pool);
  if (is_decimal(f)) {
    if (f == t) {  // precision only: the same bytes under the new type
      auto out = std::make_shared<ArrayData>(d);
      out->type = to;
      return Array(std::move(out));
    }
    return ExtendDecimal(d, to, pool);
  }
  if (f == TypeId::kDictionary) {
    if (t == TypeId::kDictionary) {
      STRATA_ASSIGN_OR_RETURN(Array dictionary, Widen(Array(d.dictionary), to->value_type(), pool));
      auto out = std::make_shared<ArrayData>(d);
      out->type = to;
      out->dictionary = dictionary.data();
      return Array(std::move(out));
    }
    STRATA_ASSIGN_OR_RETURN(Array decoded, DecodeDictionary(d, pool));
    return Widen(decoded, to, pool);
  }
  if (f == TypeId::kList || f == TypeId::kLargeList) {
    // The whole child is widened, so the offsets stay valid as they are.
    STRATA_ASSIGN_OR_RETURN(Array child, Widen(Array(d.children[0]), to->value_field()->type(), pool));
    if (f == t) {
      auto out = std::make_shared<ArrayData>(d);
      out->type = to;
      out->children = {child.data()};
      return Array(std::move(out));
    }
    STRATA_ASSIGN_OR_RETURN(auto validity, RebasedValidity(d, pool));
    STRATA_ASSIGN_OR_RETURN(auto offsets, AllocateBuffer(pool, (d.length + 1) * 8));
    const int32_t* in = d.buffers[1]->data_as<int32_t>() + d.offset;
    int64_t* out_offsets = offsets->mutable_data_as<int64_t>();
    for (int64_t i = 0; i <= d.length; ++i) out_offsets[i] = in[i];
    auto out = ArrayData::Make(to, d.length, {std::move(validity), std::move(offsets)}, d.GetNullCount());
    out->children = {child.data()};
    return Array(std::move(out));
  }
  if (f == TypeId::kStruct) {
    auto out = std::make_shared<ArrayData>(d);
    out->type = to;
    for (int i = 0; i < to->num_fields(); ++i) {
      STRATA_ASSIGN_OR_RETURN(Array child, Widen(Array(d.children[static_cast<size_t>(i)]), to->field(i)->type(), pool));
      out->children[static_cast<size_t>(i)] = child.data();
    }
    return Array(std::move(out));
  }
  return Status::NotImplemented("widening {} to {}", d.type->ToString(), to->ToString());
}

}  // namespace strata
