// Leaf kernels: dispatch once on the array's storage type and the leaf's operator, then run
// an allocation-free loop over typed values.
#include "strata/expr/compare_kernels.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string_view>
#include <vector>

#include "strata/array/array.h"
#include "strata/array/bitmap.h"

namespace strata::expr::internal {

namespace {

// The domain order of each comparison type. For doubles it is the total order of
// Value::Compare: NaN equals NaN and sorts last.
template <typename W>
struct Order {
  static bool Less(const W& a, const W& b) { return a < b; }
  static bool Equal(const W& a, const W& b) { return a == b; }
};
template <>
struct Order<double> {
  static bool Less(double a, double b) { return a < b || (b != b && a == a); }
  static bool Equal(double a, double b) { return a == b || (a != a && b != b); }
};

// Membership in a sorted, unique list: a linear scan while it is short (no branch
// mispredictions worth avoiding), binary search beyond.
template <typename W>
struct ListMatcher {
  const W* begin;
  const W* end;
  bool Contains(const W& v) const {
    if (end - begin <= 8) {
      for (const W* p = begin; p != end; ++p) {
        if (Order<W>::Equal(*p, v)) return true;
      }
      return false;
    }
    const W* it = std::lower_bound(begin, end, v, [](const W& a, const W& b) { return Order<W>::Less(a, b); });
    return it != end && Order<W>::Equal(*it, v);
  }
};

template <typename W, typename Get>
void RunLeaf(const Leaf& leaf, const std::vector<W>& constants, const Get& get, int64_t n, uint8_t* out) {
  using O = Order<W>;
  if (leaf.kind == Leaf::Kind::kIn || leaf.kind == Leaf::Kind::kNotIn) {
    const ListMatcher<W> list{constants.data(), constants.data() + constants.size()};
    if (leaf.kind == Leaf::Kind::kIn) {
      FillBits(n, out, [&](int64_t i) { return list.Contains(get(i)); });
    } else {
      FillBits(n, out, [&](int64_t i) { return !list.Contains(get(i)); });
    }
    return;
  }
  const W c = constants[0];
  switch (leaf.op) {
    case CompareOp::kEq: FillBits(n, out, [&](int64_t i) { return O::Equal(get(i), c); }); break;
    case CompareOp::kNe: FillBits(n, out, [&](int64_t i) { return !O::Equal(get(i), c); }); break;
    case CompareOp::kLt: FillBits(n, out, [&](int64_t i) { return O::Less(get(i), c); }); break;
    case CompareOp::kLe: FillBits(n, out, [&](int64_t i) { return !O::Less(c, get(i)); }); break;
    case CompareOp::kGt: FillBits(n, out, [&](int64_t i) { return O::Less(c, get(i)); }); break;
    case CompareOp::kGe: FillBits(n, out, [&](int64_t i) { return !O::Less(get(i), c); }); break;
  }
}

// The leaf's values as W. String views point into the leaf, which outlives the evaluation.
std::vector<int64_t> IntConstants(const Leaf& leaf) {
  std::vector<int64_t> out;
  for (const Value& v : leaf.values) out.push_back(v.i);
  return out;
}
std::vector<uint64_t> UIntConstants(const Leaf& leaf) {
  std::vector<uint64_t> out;
  for (const Value& v : leaf.values) out.push_back(v.u);
  return out;
}
std::vector<double> DoubleConstants(const Leaf& leaf) {
  std::vector<double> out;
  for (const Value& v : leaf.values) out.push_back(v.d);
  return out;
}
std::vector<__int128> DecimalConstants(const Leaf& leaf) {
  std::vector<__int128> out;
  for (const Value& v : leaf.values) out.push_back(v.dec);
  return out;
}
std::vector<std::string_view> BytesConstants(const Leaf& leaf) {
  std::vector<std::string_view> out;
  for (const Value& v : leaf.values) out.emplace_back(v.bytes);
  return out;
}
std::vector<uint8_t> BoolConstants(const Leaf& leaf) {
  std::vector<uint8_t> out;
  for (const Value& v : leaf.values) out.push_back(v.b ? 1 : 0);
  return out;
}

double HalfToDouble(uint16_t h) {
  const int sign = (h >> 15) & 1;
  const int exponent = (h >> 10) & 0x1f;
  const int mantissa = h & 0x3ff;
  double magnitude;
  if (exponent == 0) {
    magnitude = std::ldexp(static_cast<double>(mantissa), -24);  // zero and subnormals
  } else if (exponent == 31) {
    magnitude = mantissa == 0 ? INFINITY : NAN;
  } else {
    magnitude = std::ldexp(static_cast<double>(mantissa | 0x400), exponent - 25);
  }
  return sign ? -magnitude : magnitude;
}

const uint8_t* BufferData(const ArrayData& data, size_t index) {
  return index < data.buffers.size() && data.buffers[index] != nullptr ? data.buffers[index]->data() : nullptr;
}

Status KindMismatch(const Leaf& leaf, const ArrayData& data) {
  return Status::Invalid("filter on column \"{}\" (bound as {}): cannot evaluate it on an array of type {}",
                         leaf.column, leaf.type ? leaf.type->ToString() : "?", data.type->ToString());
}

template <typename T, typename W>
void RunPrimitive(const Leaf& leaf, const std::vector<W>& constants, const ArrayData& data, int64_t start,
                  int64_t length, uint8_t* out) {
  const T* values = reinterpret_cast<const T*>(BufferData(data, 1)) + data.offset + start;
  RunLeaf(leaf, constants, [values](int64_t i) { return static_cast<W>(values[i]); }, length, out);
}

// Signed storage (and unsigned narrower than 64 bits, which int64 holds exactly) against kInt.
Status RunInt(const Leaf& leaf, const ArrayData& data, int64_t start, int64_t length, uint8_t* out) {
  const TypeId id = data.type->id();
  if (!is_integer(id) && !is_temporal(id)) return KindMismatch(leaf, data);
  if (leaf.type != nullptr && (is_temporal(id) || is_temporal(leaf.type->id()))) {
    // Temporal values are counts of a unit: only the same type and unit compare (date32
    // days against date64 milliseconds would silently be wrong).
    const TypeId bound = leaf.type->id();
    const bool has_unit = bound == TypeId::kTime32 || bound == TypeId::kTime64 || bound == TypeId::kTimestamp ||
                          bound == TypeId::kDuration;
    if (bound != id || (has_unit && leaf.type->unit() != data.type->unit())) return KindMismatch(leaf, data);
  }
  const std::vector<int64_t> c = IntConstants(leaf);
  const bool is_signed_storage = is_signed_integer(id) || is_temporal(id);
  switch (data.type->byte_width()) {
    case 1:
      is_signed_storage ? RunPrimitive<int8_t>(leaf, c, data, start, length, out)
                        : RunPrimitive<uint8_t>(leaf, c, data, start, length, out);
      return Status::OK();
    case 2:
      is_signed_storage ? RunPrimitive<int16_t>(leaf, c, data, start, length, out)
                        : RunPrimitive<uint16_t>(leaf, c, data, start, length, out);
      return Status::OK();
    case 4:
      is_signed_storage ? RunPrimitive<int32_t>(leaf, c, data, start, length, out)
                        : RunPrimitive<uint32_t>(leaf, c, data, start, length, out);
      return Status::OK();
    case 8:
      if (!is_signed_storage) return KindMismatch(leaf, data);  // uint64 does not fit int64
      RunPrimitive<int64_t>(leaf, c, data, start, length, out);
      return Status::OK();
    default: return KindMismatch(leaf, data);
  }
}

Status RunUInt(const Leaf& leaf, const ArrayData& data, int64_t start, int64_t length, uint8_t* out) {
  const std::vector<uint64_t> c = UIntConstants(leaf);
  switch (data.type->id()) {
    case TypeId::kUInt8: RunPrimitive<uint8_t>(leaf, c, data, start, length, out); break;
    case TypeId::kUInt16: RunPrimitive<uint16_t>(leaf, c, data, start, length, out); break;
    case TypeId::kUInt32: RunPrimitive<uint32_t>(leaf, c, data, start, length, out); break;
    case TypeId::kUInt64: RunPrimitive<uint64_t>(leaf, c, data, start, length, out); break;
    default: return KindMismatch(leaf, data);
  }
  return Status::OK();
}

Status RunDouble(const Leaf& leaf, const ArrayData& data, int64_t start, int64_t length, uint8_t* out) {
  const std::vector<double> c = DoubleConstants(leaf);
  switch (data.type->id()) {
    case TypeId::kFloat16: {
      const uint16_t* values = reinterpret_cast<const uint16_t*>(BufferData(data, 1)) + data.offset + start;
      RunLeaf(leaf, c, [values](int64_t i) { return HalfToDouble(values[i]); }, length, out);
      break;
    }
    case TypeId::kFloat32: RunPrimitive<float>(leaf, c, data, start, length, out); break;
    case TypeId::kFloat64: RunPrimitive<double>(leaf, c, data, start, length, out); break;
    default: return KindMismatch(leaf, data);
  }
  return Status::OK();
}

Status RunDecimal(const Leaf& leaf, const ArrayData& data, int64_t start, int64_t length, uint8_t* out) {
  if (data.type->id() != TypeId::kDecimal128) return KindMismatch(leaf, data);
  // Unscaled values compare only at one scale.
  if (leaf.type != nullptr && is_decimal(leaf.type->id()) && leaf.type->scale() != data.type->scale()) {
    return KindMismatch(leaf, data);
  }
  const std::vector<__int128> c = DecimalConstants(leaf);
  const uint8_t* values = BufferData(data, 1) + (data.offset + start) * 16;
  RunLeaf(leaf, c,
          [values](int64_t i) {
            __int128 v;
            std::memcpy(&v, values + i * 16, 16);  // little-endian two's complement
            return v;
          },
          length, out);
  return Status::OK();
}

template <typename OffsetT>
void RunOffsetBinary(const Leaf& leaf, const std::vector<std::string_view>& c, const ArrayData& data, int64_t start,
                     int64_t length, uint8_t* out) {
  const OffsetT* offsets = reinterpret_cast<const OffsetT*>(BufferData(data, 1)) + data.offset + start;
  const char* bytes = reinterpret_cast<const char*>(BufferData(data, 2));
  RunLeaf(leaf, c,
          [offsets, bytes](int64_t i) {
            return std::string_view(bytes + offsets[i], static_cast<size_t>(offsets[i + 1] - offsets[i]));
          },
          length, out);
}

void RunView(const Leaf& leaf, const std::vector<std::string_view>& c, const ArrayData& data, int64_t start,
             int64_t length, uint8_t* out) {
  const uint8_t* views = BufferData(data, 1) + (data.offset + start) * view_layout::kViewSize;
  const std::shared_ptr<Buffer>* buffers = data.buffers.data();
  const int64_t data_buffers = static_cast<int64_t>(data.buffers.size()) - 2;
  RunLeaf(leaf, c,
          [views, buffers, data_buffers](int64_t i) {
            const uint8_t* view = views + i * view_layout::kViewSize;
            const int32_t n = view_layout::Length(view);
            if (n <= view_layout::kInlineSize) {
              return std::string_view(reinterpret_cast<const char*>(view + 4), static_cast<size_t>(std::max(n, 0)));
            }
            const int32_t index = view_layout::BufferIndex(view);
            // Null slots may hold any view; never follow one outside the buffers.
            if (index < 0 || index >= data_buffers || buffers[2 + index] == nullptr) return std::string_view();
            return std::string_view(reinterpret_cast<const char*>(buffers[2 + index]->data()) +
                                        view_layout::Offset(view),
                                    static_cast<size_t>(n));
          },
          length, out);
}

Status RunBytes(const Leaf& leaf, const ArrayData& data, int64_t start, int64_t length, uint8_t* out) {
  const std::vector<std::string_view> c = BytesConstants(leaf);
  const TypeId id = data.type->id();
  if (is_binary_like(id)) {
    RunOffsetBinary<int32_t>(leaf, c, data, start, length, out);
  } else if (is_large_binary_like(id)) {
    RunOffsetBinary<int64_t>(leaf, c, data, start, length, out);
  } else if (is_view(id)) {
    RunView(leaf, c, data, start, length, out);
  } else if (id == TypeId::kFixedSizeBinary) {
    const size_t width = static_cast<size_t>(data.type->byte_width());
    const char* values = reinterpret_cast<const char*>(BufferData(data, 1)) +
                         (data.offset + start) * static_cast<int64_t>(width);
    RunLeaf(leaf, c, [values, width](int64_t i) { return std::string_view(values + i * width, width); }, length,
            out);
  } else {
    return KindMismatch(leaf, data);
  }
  return Status::OK();
}

Status RunBool(const Leaf& leaf, const ArrayData& data, int64_t start, int64_t length, uint8_t* out) {
  if (data.type->id() != TypeId::kBoolean) return KindMismatch(leaf, data);
  const std::vector<uint8_t> c = BoolConstants(leaf);
  const uint8_t* bits = BufferData(data, 1);
  const int64_t first = data.offset + start;
  RunLeaf(leaf, c, [bits, first](int64_t i) { return static_cast<uint8_t>(bitmap::GetBit(bits, first + i)); }, length,
          out);
  return Status::OK();
}

}  // namespace

void AndBitsAt(uint8_t* dst, const uint8_t* src, int64_t src_offset, int64_t length) {
  const int64_t bytes = bitmap::BytesForBits(length);
  const int shift = static_cast<int>(src_offset & 7);
  const uint8_t* s = src + (src_offset >> 3);
  // The source holds bits up to src_offset + length; read its next byte only when that
  // byte holds some of them.
  const int64_t src_last_byte = (src_offset + length - 1) >> 3;
  for (int64_t k = 0; k < bytes; ++k) {
    uint8_t v = static_cast<uint8_t>(s[k] >> shift);
    if (shift != 0 && (src_offset >> 3) + k + 1 <= src_last_byte) v |= static_cast<uint8_t>(s[k + 1] << (8 - shift));
    dst[k] &= v;
  }
}

void AndValidity(const ArrayData& data, int64_t start, int64_t length, uint8_t* out) {
  if (length <= 0) return;
  if (data.type->id() == TypeId::kNull) {
    std::memset(out, 0, static_cast<size_t>(bitmap::BytesForBits(length)));
    return;
  }
  const uint8_t* validity = data.validity_data();
  if (validity != nullptr) AndBitsAt(out, validity, data.offset + start, length);
}

Status EvaluateFlatLeaf(const Leaf& leaf, const ArrayData& data, int64_t start, int64_t length, uint8_t* out) {
  if (length <= 0) return Status::OK();
  Status status;
  if (leaf.kind == Leaf::Kind::kIsNotNull || leaf.kind == Leaf::Kind::kIsNull) {
    FillBits(length, out, [](int64_t) { return true; });
  } else if (leaf.values.empty()) {
    return Status::Invalid("filter on column \"{}\": a comparison without values", leaf.column);
  } else if (data.type->id() == TypeId::kNull) {
    FillBits(length, out, [](int64_t) { return false; });
  } else if (data.buffers.size() < 2 || data.buffers[1] == nullptr) {
    return Status::Invalid("filter on column \"{}\": array of type {} without a values buffer", leaf.column,
                           data.type->ToString());
  } else {
    switch (leaf.values[0].kind) {
      case Value::Kind::kBool: status = RunBool(leaf, data, start, length, out); break;
      case Value::Kind::kInt: status = RunInt(leaf, data, start, length, out); break;
      case Value::Kind::kUInt: status = RunUInt(leaf, data, start, length, out); break;
      case Value::Kind::kDouble: status = RunDouble(leaf, data, start, length, out); break;
      case Value::Kind::kDecimal: status = RunDecimal(leaf, data, start, length, out); break;
      case Value::Kind::kBytes: status = RunBytes(leaf, data, start, length, out); break;
    }
  }
  STRATA_RETURN_NOT_OK(status);
  AndValidity(data, start, length, out);
  return Status::OK();
}

}  // namespace strata::expr::internal
