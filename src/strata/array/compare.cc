#include "strata/array/compare.h"

#include <cstring>

#include "strata/array/array.h"

namespace strata {

namespace {

bool IsNullAt(const ArrayData& d, int64_t i) {
  if (d.type->id() == TypeId::kNull) return true;
  const uint8_t* bits = d.validity_data();
  return bits != nullptr && !bitmap::GetBit(bits, d.offset + i);
}

bool HasNullsIn(const ArrayData& d, int64_t start, int64_t length) {
  if (d.type->id() == TypeId::kNull) return length > 0;
  const uint8_t* bits = d.validity_data();
  if (bits == nullptr) return false;
  return bitmap::CountSetBits(bits, d.offset + start, length) != length;
}

template <typename OffsetT>
const OffsetT* OffsetsOf(const ArrayData& d) {
  return d.buffers[1]->data_as<OffsetT>() + d.offset;
}


// Compares one valid element of each side (both known non-null).
bool ElementEquals(const ArrayData& a, int64_t ai, const ArrayData& b, int64_t bi);

template <typename OffsetT>
bool ListElementEquals(const ArrayData& a, int64_t ai, const ArrayData& b, int64_t bi) {
  const OffsetT* ao = OffsetsOf<OffsetT>(a);
  const OffsetT* bo = OffsetsOf<OffsetT>(b);
  const int64_t n = ao[ai + 1] - ao[ai];
  if (n != bo[bi + 1] - bo[bi]) return false;
  return ArrayRangeEquals(*a.children[0], ao[ai], *b.children[0], bo[bi], n);
}

int64_t DictionaryIndex(const ArrayData& d, int64_t i) {
  const int64_t j = d.offset + i;
  switch (d.type->index_type()->id()) {
    case TypeId::kInt8: return d.buffers[1]->data_as<int8_t>()[j];
    case TypeId::kUInt8: return d.buffers[1]->data_as<uint8_t>()[j];
    case TypeId::kInt16: return d.buffers[1]->data_as<int16_t>()[j];
    case TypeId::kUInt16: return d.buffers[1]->data_as<uint16_t>()[j];
    case TypeId::kInt32: return d.buffers[1]->data_as<int32_t>()[j];
    case TypeId::kUInt32: return d.buffers[1]->data_as<uint32_t>()[j];
    default: return d.buffers[1]->data_as<int64_t>()[j];
  }
}

bool ElementEquals(const ArrayData& a, int64_t ai, const ArrayData& b, int64_t bi) {
  switch (a.type->id()) {
    case TypeId::kNull: return true;
    case TypeId::kBoolean:
      return bitmap::GetBit(a.buffers[1]->data(), a.offset + ai) == bitmap::GetBit(b.buffers[1]->data(), b.offset + bi);
    case TypeId::kBinary:
    case TypeId::kString: return BinaryValueAt<int32_t>(a, ai) == BinaryValueAt<int32_t>(b, bi);
    case TypeId::kLargeBinary:
    case TypeId::kLargeString: return BinaryValueAt<int64_t>(a, ai) == BinaryValueAt<int64_t>(b, bi);
    case TypeId::kBinaryView:
    case TypeId::kStringView:
      return ViewValueAt(a, ai) == ViewValueAt(b, bi);
    case TypeId::kList:
    case TypeId::kMap: return ListElementEquals<int32_t>(a, ai, b, bi);
    case TypeId::kLargeList: return ListElementEquals<int64_t>(a, ai, b, bi);
    case TypeId::kFixedSizeList: {
      const int64_t size = a.type->list_size();
      return ArrayRangeEquals(*a.children[0], (a.offset + ai) * size, *b.children[0], (b.offset + bi) * size, size);
    }
    case TypeId::kStruct:
      for (size_t c = 0; c < a.children.size(); ++c) {
        if (!ArrayRangeEquals(*a.children[c], a.offset + ai, *b.children[c], b.offset + bi, 1)) return false;
      }
      return true;
    case TypeId::kDictionary:
      return ArrayRangeEquals(*a.dictionary, DictionaryIndex(a, ai), *b.dictionary, DictionaryIndex(b, bi), 1);
    case TypeId::kSparseUnion:
    case TypeId::kDenseUnion: {
      // The same member and the same value there (a null value compares with a null one).
      const UnionArray ua(std::make_shared<ArrayData>(a)), ub(std::make_shared<ArrayData>(b));
      const int64_t ia = ai, ib = bi;  // relative to each array's offset, as everywhere here
      if (ua.type_code(ia) != ub.type_code(ib)) return false;
      const int c = ua.child_index(ia);
      if (c < 0) return true;
      return ArrayRangeEquals(ua.child(c), ua.value_offset(ia), ub.child(c), ub.value_offset(ib), 1);
    }
    case TypeId::kRunEndEncoded: {
      const RunEndEncodedArray ra(std::make_shared<ArrayData>(a)), rb(std::make_shared<ArrayData>(b));
      return ArrayRangeEquals(ra.values(), ra.PhysicalIndex(ai), rb.values(), rb.PhysicalIndex(bi), 1);
    }
    case TypeId::kListView:
    case TypeId::kLargeListView: {
      const bool large = a.type->id() == TypeId::kLargeListView;
      auto at = [large](const ArrayData& d, size_t buffer, int64_t i) -> int64_t {
        return large ? d.buffers[buffer]->data_as<int64_t>()[d.offset + i] : d.buffers[buffer]->data_as<int32_t>()[d.offset + i];
      };
      const int64_t n = at(a, 2, ai);
      if (n != at(b, 2, bi)) return false;
      return ArrayRangeEquals(*a.children[0], at(a, 1, ai), *b.children[0], at(b, 1, bi), n);
    }
    default: {
      const int width = a.type->byte_width();
      if (width == 0) return true;  // fixed_size_binary(0): no bytes, and maybe no buffer
      return std::memcmp(a.buffers[1]->data() + (a.offset + ai) * width, b.buffers[1]->data() + (b.offset + bi) * width,
                         static_cast<size_t>(width)) == 0;
    }
  }
}

}  // namespace

bool ArrayRangeEquals(const ArrayData& a, int64_t a_start, const ArrayData& b, int64_t b_start, int64_t length) {
  if (length == 0) return true;
  if (a.type->id() == TypeId::kNull) return true;
  const bool a_nulls = HasNullsIn(a, a_start, length);
  const bool b_nulls = HasNullsIn(b, b_start, length);
  if (a_nulls != b_nulls) return false;
  if (a_nulls && !bitmap::BitmapEquals(a.validity_data(), a.offset + a_start, b.validity_data(), b.offset + b_start,
                                       length)) {
    return false;
  }
  // Fixed-width values without nulls: one memcmp for the whole range.
  if (!a_nulls && is_primitive_fixed_width(a.type->id())) {
    const int width = a.type->byte_width();
    return std::memcmp(a.buffers[1]->data() + (a.offset + a_start) * width,
                       b.buffers[1]->data() + (b.offset + b_start) * width, static_cast<size_t>(length * width)) == 0;
  }
  for (int64_t i = 0; i < length; ++i) {
    if (a_nulls && IsNullAt(a, a_start + i)) continue;
    if (!ElementEquals(a, a_start + i, b, b_start + i)) return false;
  }
  return true;
}

bool ArrayDataEquals(const ArrayData& a, const ArrayData& b) {
  if (&a == &b) return true;
  if (!a.type->Equals(*b.type) || a.length != b.length) return false;
  if (a.GetNullCount() != b.GetNullCount()) return false;
  return ArrayRangeEquals(a, 0, b, 0, a.length);
}

bool ArrayEquals(const Array& a, const Array& b) { return ArrayDataEquals(*a.data(), *b.data()); }

bool Array::Equals(const Array& other) const { return ArrayEquals(*this, other); }

}  // namespace strata
