// Evaluate: the predicate tree over a batch. Leaves produce bitmaps (compare_kernels.h);
// AND / OR combine them byte by byte. Struct paths and dictionaries are resolved here.
#include "strata/expr/evaluate.h"

#include <cstring>

#include "strata/array/bitmap.h"
#include "strata/expr/compare_kernels.h"

namespace strata::expr {

namespace {

using internal::AndValidity;
using internal::EvaluateFlatLeaf;
using internal::FillBits;

Result<std::shared_ptr<ResizableBuffer>> AllocateBits(MemoryPool* pool, int64_t length) {
  STRATA_ASSIGN_OR_RETURN(auto buffer, AllocateBuffer(pool, bitmap::BytesForBits(length)));
  return buffer;
}

template <typename IndexT>
void GatherThroughIndices(const ArrayData& data, int64_t start, int64_t length, const uint8_t* dictionary_bits,
                          int64_t dictionary_length, uint8_t* out) {
  const IndexT* indices = data.buffers[1]->data_as<IndexT>() + data.offset + start;
  FillBits(length, out, [&](int64_t i) {
    const int64_t index = static_cast<int64_t>(indices[i]);
    // Null slots may hold any index; out-of-range ones never match.
    return index >= 0 && index < dictionary_length && bitmap::GetBit(dictionary_bits, index);
  });
}

// A leaf (IS NULL evaluated as IS NOT NULL) over elements [start, start + length) of a flat
// or dictionary array.
Status EvaluateArrayLeaf(const Leaf& leaf, const ArrayData& data, int64_t start, int64_t length, MemoryPool* pool,
                         uint8_t* out) {
  if (data.type->id() != TypeId::kDictionary) return EvaluateFlatLeaf(leaf, data, start, length, out);
  if (data.dictionary == nullptr || data.buffers.size() < 2 || data.buffers[1] == nullptr) {
    return Status::Invalid("filter on column \"{}\": dictionary array without a dictionary or indices", leaf.column);
  }
  // Each distinct value is compared once; rows then look their answer up.
  const ArrayData& dictionary = *data.dictionary;
  STRATA_ASSIGN_OR_RETURN(auto dictionary_bits, AllocateBits(pool, dictionary.length));
  STRATA_RETURN_NOT_OK(EvaluateFlatLeaf(leaf, dictionary, 0, dictionary.length, dictionary_bits->mutable_data()));
  const uint8_t* bits = dictionary_bits->data();
  const int64_t n = dictionary.length;
  switch (data.type->index_type()->id()) {
    case TypeId::kInt8: GatherThroughIndices<int8_t>(data, start, length, bits, n, out); break;
    case TypeId::kInt16: GatherThroughIndices<int16_t>(data, start, length, bits, n, out); break;
    case TypeId::kInt32: GatherThroughIndices<int32_t>(data, start, length, bits, n, out); break;
    case TypeId::kInt64: GatherThroughIndices<int64_t>(data, start, length, bits, n, out); break;
    case TypeId::kUInt8: GatherThroughIndices<uint8_t>(data, start, length, bits, n, out); break;
    case TypeId::kUInt16: GatherThroughIndices<uint16_t>(data, start, length, bits, n, out); break;
    case TypeId::kUInt32: GatherThroughIndices<uint32_t>(data, start, length, bits, n, out); break;
    case TypeId::kUInt64: GatherThroughIndices<uint64_t>(data, start, length, bits, n, out); break;
    default:
      return Status::Invalid("filter on column \"{}\": dictionary index type {}", leaf.column,
                             data.type->index_type()->ToString());
  }
  AndValidity(data, start, length, out);
  return Status::OK();
}

void Complement(uint8_t* bits, int64_t length) {
  const int64_t bytes = bitmap::BytesForBits(length);
  for (int64_t k = 0; k < bytes; ++k) bits[k] = static_cast<uint8_t>(~bits[k]);
  if (length % 8 != 0) bits[bytes - 1] &= static_cast<uint8_t>((1u << (length % 8)) - 1);
}

bool AllZero(const uint8_t* bits, int64_t bytes) {
  for (int64_t k = 0; k < bytes; ++k) {
    if (bits[k] != 0) return false;
  }
  return true;
}

class Evaluator {
 public:
  Evaluator(const std::vector<const Array*>& columns, int64_t length, MemoryPool* pool)
      : columns_(columns), length_(length), pool_(pool) {}

  // Writes bits [0, length) of `out`, zeroing the tail of the last byte.
  Status Run(const Predicate& node, uint8_t* out) {
    const int64_t bytes = bitmap::BytesForBits(length_);
    switch (node.kind()) {
      case Predicate::Kind::kTrue:
        FillBits(length_, out, [](int64_t) { return true; });
        return Status::OK();
      case Predicate::Kind::kFalse:
        if (bytes > 0) std::memset(out, 0, static_cast<size_t>(bytes));
        return Status::OK();
      case Predicate::Kind::kLeaf: return RunLeaf(node.leaf(), out);
      case Predicate::Kind::kAnd:
      case Predicate::Kind::kOr: {
        const bool is_and = node.kind() == Predicate::Kind::kAnd;
        if (node.children().empty()) return Run(*Predicate::Constant(is_and), out);
        STRATA_RETURN_NOT_OK(Run(*node.children()[0], out));
        STRATA_ASSIGN_OR_RETURN(auto scratch, AllocateBits(pool_, length_));
        uint8_t* other = scratch->mutable_data();
        for (size_t c = 1; c < node.children().size(); ++c) {
          if (is_and && AllZero(out, bytes)) break;  // nothing left to narrow
          STRATA_RETURN_NOT_OK(Run(*node.children()[c], other));
          if (is_and) {
            for (int64_t k = 0; k < bytes; ++k) out[k] &= other[k];
          } else {
            for (int64_t k = 0; k < bytes; ++k) out[k] |= other[k];
          }
        }
        return Status::OK();
      }
    }
    return Status::Invalid("filter: unknown predicate node");
  }

 private:
  Status RunLeaf(const Leaf& leaf, uint8_t* out) {
    if (leaf.path.empty() || leaf.path[0] < 0 || static_cast<size_t>(leaf.path[0]) >= columns_.size() ||
        columns_[static_cast<size_t>(leaf.path[0])] == nullptr) {
      return Status::Invalid("filter on column \"{}\": no array given for field {}", leaf.column,
                             leaf.path.empty() ? -1 : leaf.path[0]);
    }
    const Array& top = *columns_[static_cast<size_t>(leaf.path[0])];
    if (top.length() < length_) {
      return Status::Invalid("filter on column \"{}\": array of {} rows for a batch of {}", leaf.column, top.length(),
                             length_);
    }
    // Walk down the struct path. A struct's element i is element (struct offset + i) of its
    // children, so the start accumulates the offsets of the structs above.
    const ArrayData* data = top.data().get();
    int64_t start = 0;
    struct Level {
      const ArrayData* data;
      int64_t start;
    };
    std::vector<Level> levels;  // the structs above the leaf array
    for (size_t k = 1; k < leaf.path.size(); ++k) {
      const int child = leaf.path[k];
      if (data->type->id() != TypeId::kStruct || child < 0 || static_cast<size_t>(child) >= data->children.size()) {
        return Status::Invalid("filter on column \"{}\": array of type {} has no struct member {}", leaf.column,
                               data->type->ToString(), child);
      }
      levels.push_back({data, start});
      start += data->offset;
      data = data->children[static_cast<size_t>(child)].get();
    }
    STRATA_RETURN_NOT_OK(EvaluateArrayLeaf(leaf, *data, start, length_, pool_, out));
    // A row is null when any struct on the path is null.
    for (const Level& level : levels) AndValidity(*level.data, level.start, length_, out);
    if (leaf.kind == Leaf::Kind::kIsNull) Complement(out, length_);
    return Status::OK();
  }

  const std::vector<const Array*>& columns_;
  int64_t length_;
  MemoryPool* pool_;
};

}  // namespace

Result<Selection> Evaluate(const Predicate& predicate, const std::vector<const Array*>& columns, int64_t length,
                           MemoryPool* pool) {
  if (length < 0) return Status::Invalid("filter: negative batch length {}", length);
  STRATA_ASSIGN_OR_RETURN(auto bits, AllocateBits(pool, length));
  Evaluator evaluator(columns, length, pool);
  STRATA_RETURN_NOT_OK(evaluator.Run(predicate, bits->mutable_data()));
  Selection selection;
  selection.length = length;
  selection.selected = length == 0 ? 0 : bitmap::CountSetBits(bits->data(), 0, length);
  selection.bits = std::move(bits);
  return selection;
}

Result<bool> AnyValueMatches(const Leaf& leaf, const Array& values, MemoryPool* pool) {
  const int64_t length = values.length();
  if (length == 0) return false;
  STRATA_ASSIGN_OR_RETURN(auto bits, AllocateBits(pool, length));
  uint8_t* out = bits->mutable_data();
  STRATA_RETURN_NOT_OK(EvaluateArrayLeaf(leaf, *values.data(), 0, length, pool, out));
  if (leaf.kind == Leaf::Kind::kIsNull) Complement(out, length);
  return bitmap::CountSetBits(out, 0, length) > 0;
}

}  // namespace strata::expr
