// ReconstructVariant (variant_column.h): a batch of a shredded variant's storage struct into
// variant value bytes. Every slot is measured first (Emit<false>), the data buffer allocated
// once at the total, then written (Emit<true>); a container measures its children again when
// it writes, so the cost grows with the shredding depth, which the schema bounds.
#include <algorithm>
#include <cstring>
#include <limits>

#include <fmt/format.h>

#include "strata/array/bitmap.h"
#include "strata/parquet/variant/variant_column.h"
#include "strata/variant/variant_encoder.h"
#include "strata/variant/variant_metadata.h"

namespace strata::parquet {
namespace {

using variant::PrimitiveType;

// Element `i` of `a` counts from the array's offset, as ArrayData's layout says.
bool IsValid(const ArrayData& a, int64_t i) {
  const uint8_t* bits = a.validity_data();
  return bits == nullptr || bitmap::GetBit(bits, a.offset + i);
}

std::string_view BinaryAt(const ArrayData& a, int64_t i) {
  const int32_t* offsets = a.buffers[1]->data_as<int32_t>() + a.offset + i;
  const char* data = a.buffers[2] ? reinterpret_cast<const char*>(a.buffers[2]->data()) : "";
  return {data + offsets[0], static_cast<size_t>(offsets[1] - offsets[0])};
}

template <typename T>
T Load(const ArrayData& a, int64_t i) {
  T v;
  std::memcpy(&v, a.buffers[1]->data() + (a.offset + i) * static_cast<int64_t>(sizeof(T)), sizeof(T));
  return v;
}

// A struct's child at the struct's element i: children are indexed through the struct's offset.
struct Slot {
  const ArrayData* array = nullptr;  // a struct of value / typed_value
  int64_t index = 0;
  const ArrayData& child(int c) const { return *array->children[static_cast<size_t>(c)]; }
  int64_t child_index() const { return array->offset + index; }
};

class Reconstructor {
 public:
  explicit Reconstructor(const VariantShredding& shredding) {
    // Scratch for every depth up front: a level's vector must not move while deeper levels
    // are filled.
    const size_t depth = static_cast<size_t>(Depth(shredding.root)) + 1;
    entries_.resize(depth);
    sizes_.resize(depth);
  }

  // Checks the storage's layout against the plan, once per batch, so the loops can trust it.
  Status CheckLayout(const ShreddedNode& node, const ArrayData& group) const {
    const auto children = static_cast<int>(group.children.size());
    if (group.type->id() != TypeId::kStruct || node.value_child >= children || node.typed_child >= children) {
      return Status::Invalid("variant column '{}': storage {} does not match the plan", node.path, group.type->ToString());
    }
    if (node.value_child >= 0 && !is_binary_like(group.children[static_cast<size_t>(node.value_child)]->type->id())) {
      return Status::Invalid("variant column '{}': value is {}", node.path, group.children[static_cast<size_t>(node.value_child)]->type->ToString());
    }
    if (node.typed_child < 0) return Status::OK();
    const ArrayData& typed = *group.children[static_cast<size_t>(node.typed_child)];
    switch (node.kind) {
      case ShreddedNode::Kind::kObject:
        if (typed.type->id() != TypeId::kStruct) break;
        for (size_t f = 0; f < node.children.size(); ++f) {
          const auto c = static_cast<size_t>(node.field_children[f]);
          if (c >= typed.children.size()) break;
          STRATA_RETURN_NOT_OK(CheckLayout(node.children[f], *typed.children[c]));
        }
        return Status::OK();
      case ShreddedNode::Kind::kArray:
        if (typed.type->id() != TypeId::kList || typed.children.size() != 1) break;
        return CheckLayout(node.children[0], *typed.children[0]);
      case ShreddedNode::Kind::kPrimitive: {
        const TypeId id = typed.type->id();
        const bool ok = (node.primitive == PrimitiveType::kTrue && id == TypeId::kBoolean) ||
                        (node.primitive == PrimitiveType::kInt8 && id == TypeId::kInt8) ||
                        (node.primitive == PrimitiveType::kInt16 && id == TypeId::kInt16) ||
                        ((node.primitive == PrimitiveType::kInt32 || node.primitive == PrimitiveType::kDate) &&
                         (id == TypeId::kInt32 || id == TypeId::kDate32)) ||
                        (typed.type->byte_width() == 8 && id != TypeId::kFloat64 &&
                         (node.primitive == PrimitiveType::kInt64 || node.primitive == PrimitiveType::kTimeNtzMicros ||
                          node.primitive == PrimitiveType::kTimestampMicros || node.primitive == PrimitiveType::kTimestampNtzMicros ||
                          node.primitive == PrimitiveType::kTimestampNanos || node.primitive == PrimitiveType::kTimestampNtzNanos)) ||
                        (node.primitive == PrimitiveType::kFloat && id == TypeId::kFloat32) ||
                        (node.primitive == PrimitiveType::kDouble && id == TypeId::kFloat64) ||
                        ((node.primitive == PrimitiveType::kDecimal4 || node.primitive == PrimitiveType::kDecimal8 ||
                          node.primitive == PrimitiveType::kDecimal16) && id == TypeId::kDecimal128) ||
                        ((node.primitive == PrimitiveType::kBinary || node.primitive == PrimitiveType::kString) &&
                         is_binary_like(id)) ||
                        (node.primitive == PrimitiveType::kUuid && id == TypeId::kFixedSizeBinary && typed.type->byte_width() == 16);
        if (ok) return Status::OK();
        break;
      }
      case ShreddedNode::Kind::kValueOnly:
        return Status::OK();
    }
    return Status::Invalid("variant column '{}': typed_value is {}, not what the plan expects", node.path,
                           typed.type->ToString());
  }

  // Selects the metadata of the slot being rebuilt (validated once per distinct byte string
  // in a row: consecutive rows mostly share one).
  Status SetMetadata(std::string_view bytes) {
    if (has_metadata_ && bytes == metadata_.bytes()) return Status::OK();
    has_metadata_ = false;
    STRATA_ASSIGN_OR_RETURN(metadata_, variant::VariantMetadata::Make(bytes));
    has_metadata_ = true;
    return Status::OK();
  }

  // The encoded size of the slot's value (0 when it is missing: value and typed_value null);
  // with kWrite, also writes it at *out and advances *out.
  template <bool kWrite>
  Result<int64_t> Emit(const ShreddedNode& node, const Slot& slot, int depth, uint8_t** out) {
    std::string_view value;
    bool has_value = false;
    if (node.value_child >= 0) {
      const ArrayData& v = slot.child(node.value_child);
      if (IsValid(v, slot.child_index())) {
        value = BinaryAt(v, slot.child_index());
        has_value = true;
      }
    }
    const ArrayData* typed = nullptr;
    if (node.typed_child >= 0 && IsValid(slot.child(node.typed_child), slot.child_index())) {
      typed = &slot.child(node.typed_child);
    }
    if (typed == nullptr) {
      if (!has_value) return 0;
      if (value.empty()) return Status::Corrupt("column '{}.value' holds an empty variant value", node.path);
      if constexpr (kWrite) {
        std::memcpy(*out, value.data(), value.size());
        *out += value.size();
      }
      return static_cast<int64_t>(value.size());
    }
    const int64_t t = slot.child_index();
    if (node.kind == ShreddedNode::Kind::kObject) return EmitObject<kWrite>(node, *typed, t, value, has_value, depth, out);
    if (has_value) {
      return Status::Corrupt("column '{}': conflicting value and typed_value (both are set, and the value is not an object)",
                             node.path);
    }
    if (node.kind == ShreddedNode::Kind::kArray) return EmitArray<kWrite>(node, *typed, t, depth, out);
    return EmitPrimitive<kWrite>(node, *typed, t, out);
  }

 private:
  struct Entry {
    std::string_view name;
    uint32_t id = 0;
    int field = -1;                 // shredded: index into node.children; -1: from the residual
    std::string_view residual;      // the residual field's value bytes
    int64_t size = 0;
  };

  static int Depth(const ShreddedNode& node) {
    int deepest = 0;
    for (const ShreddedNode& child : node.children) deepest = std::max(deepest, 1 + Depth(child));
    return deepest;
  }
  std::vector<Entry>& EntriesAt(int depth) { return entries_[static_cast<size_t>(depth)]; }
  std::vector<int64_t>& SizesAt(int depth) { return sizes_[static_cast<size_t>(depth)]; }

  template <bool kWrite>
  Result<int64_t> EmitObject(const ShreddedNode& node, const ArrayData& typed, int64_t t, std::string_view value,
                             bool has_value, int depth, uint8_t** out) {
    std::vector<Entry>& entries = EntriesAt(depth);
    entries.clear();
    const Slot typed_slot{&typed, t};
    for (size_t f = 0; f < node.children.size(); ++f) {
      const ArrayData& group = typed_slot.child(node.field_children[f]);
      // A field group written optional (the spec says required) that is null: missing.
      if (!IsValid(group, typed_slot.child_index())) continue;
      uint8_t* none = nullptr;
      STRATA_ASSIGN_OR_RETURN(const int64_t size,
                              Emit<false>(node.children[f], Slot{&group, typed_slot.child_index()}, depth + 1, &none));
      if (size == 0) continue;  // missing from this object
      const int64_t id = metadata_.Find(node.names[f]);
      if (id < 0) {
        return Status::Corrupt("column '{}': shredded field '{}' is not in the variant's metadata", node.path, node.names[f]);
      }
      entries.push_back(Entry{node.names[f], static_cast<uint32_t>(id), static_cast<int>(f), {}, size});
    }
    if (has_value) {
      auto residual = variant::VariantValue::Make(value);
      if (!residual.ok()) return residual.status().WithContext(fmt::format("column '{}.value'", node.path));
      if (!residual->is_object()) {
        return Status::Corrupt("column '{}': a value that is not an object beside shredded fields (typed_value is set)",
                               node.path);
      }
      for (uint32_t i = 0; i < residual->num_elements(); ++i) {
        const uint32_t id = residual->field_id(i);
        if (id >= metadata_.size()) {
          return Status::Corrupt("column '{}.value': field id {} is outside the metadata's {} names", node.path, id,
                                 metadata_.size());
        }
        auto field = residual->child(i);
        if (!field.ok()) return field.status().WithContext(fmt::format("column '{}.value'", node.path));
        const std::string_view name = metadata_.name(id);
        if (std::binary_search(node.names.begin(), node.names.end(), name)) {
          return Status::Corrupt("column '{}': field '{}' is shredded and also in the residual value", node.path, name);
        }
        entries.push_back(Entry{name, id, -1, field->bytes(), static_cast<int64_t>(field->bytes().size())});
      }
    }
    std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) { return a.name < b.name; });
    uint32_t max_id = 0;
    int64_t data_size = 0;
    for (size_t i = 0; i < entries.size(); ++i) {
      if (i > 0 && entries[i - 1].name == entries[i].name) {
        return Status::Corrupt("column '{}.value': field '{}' appears twice", node.path, entries[i].name);
      }
      max_id = std::max(max_id, entries[i].id);
      data_size += entries[i].size;
    }
    if (entries.size() > std::numeric_limits<uint32_t>::max() || data_size > std::numeric_limits<uint32_t>::max()) {
      return Status::LimitExceeded("column '{}': a rebuilt object of {} bytes", node.path, data_size);
    }
    const variant::ContainerLayout layout = variant::ObjectLayout(static_cast<uint32_t>(entries.size()), max_id, data_size);
    if constexpr (kWrite) {
      uint8_t* p = variant::WriteContainerStart(layout, true, *out);
      for (const Entry& e : entries) p = variant::WriteUnsigned(e.id, layout.id_size, p);
      uint64_t offset = 0;
      for (const Entry& e : entries) {
        p = variant::WriteUnsigned(offset, layout.offset_size, p);
        offset += static_cast<uint64_t>(e.size);
      }
      p = variant::WriteUnsigned(offset, layout.offset_size, p);
      for (size_t i = 0; i < entries.size(); ++i) {
        const Entry e = entries[i];
        if (e.field < 0) {
          std::memcpy(p, e.residual.data(), e.residual.size());
          p += e.residual.size();
        } else {
          const size_t f = static_cast<size_t>(e.field);
          const ArrayData& group = typed_slot.child(node.field_children[f]);
          STRATA_ASSIGN_OR_RETURN(const int64_t written,
                                  Emit<true>(node.children[f], Slot{&group, typed_slot.child_index()}, depth + 1, &p));
          if (written != e.size) return Status::Invalid("column '{}': field '{}' measured {} bytes, wrote {}", node.path, e.name, e.size, written);
        }
      }
      *out = p;
    }
    return layout.header_size + data_size;
  }

  template <bool kWrite>
  Result<int64_t> EmitArray(const ShreddedNode& node, const ArrayData& list, int64_t t, int depth, uint8_t** out) {
    const int32_t* offsets = list.buffers[1]->data_as<int32_t>() + list.offset + t;
    const int64_t begin = offsets[0], end = offsets[1];
    const ArrayData& elements = *list.children[0];
    const ShreddedNode& element = node.children[0];
    std::vector<int64_t>& sizes = SizesAt(depth);
    sizes.clear();
    int64_t data_size = 0;
    for (int64_t k = begin; k < end; ++k) {
      uint8_t* none = nullptr;
      int64_t size = 1;  // a missing element is variant null: arrays have no missing elements
      if (IsValid(elements, k)) {
        STRATA_ASSIGN_OR_RETURN(size, Emit<false>(element, Slot{&elements, k}, depth + 1, &none));
        if (size == 0) size = 1;
      }
      sizes.push_back(size);
      data_size += size;
    }
    if (data_size > std::numeric_limits<uint32_t>::max()) {
      return Status::LimitExceeded("column '{}': a rebuilt array of {} bytes", node.path, data_size);
    }
    const variant::ContainerLayout layout = variant::ArrayLayout(static_cast<uint32_t>(end - begin), data_size);
    if constexpr (kWrite) {
      uint8_t* p = variant::WriteContainerStart(layout, false, *out);
      uint64_t offset = 0;
      for (const int64_t size : sizes) {
        p = variant::WriteUnsigned(offset, layout.offset_size, p);
        offset += static_cast<uint64_t>(size);
      }
      p = variant::WriteUnsigned(offset, layout.offset_size, p);
      for (int64_t k = begin; k < end; ++k) {
        int64_t written = 0;
        if (IsValid(elements, k)) {
          STRATA_ASSIGN_OR_RETURN(written, Emit<true>(element, Slot{&elements, k}, depth + 1, &p));
        }
        if (written == 0) {
          *p++ = 0;  // variant null
        }
      }
      *out = p;
    }
    return layout.header_size + data_size;
  }

  template <bool kWrite>
  Result<int64_t> EmitPrimitive(const ShreddedNode& node, const ArrayData& typed, int64_t t, uint8_t** out) {
    uint8_t scratch[18];
    uint8_t* p = scratch;
    auto put = [&](const void* bytes, size_t n) {
      std::memcpy(p, bytes, n);
      p += n;
    };
    const PrimitiveType type = node.primitive;
    // The header, then the value's little-endian bytes at its width.
    auto put_value = [&](auto v) {
      *p++ = variant::PrimitiveHeader(type);
      put(&v, sizeof(v));
    };
    switch (type) {
      case PrimitiveType::kTrue: {
        const bool v = bitmap::GetBit(typed.buffers[1]->data(), typed.offset + t);
        *p++ = variant::PrimitiveHeader(v ? PrimitiveType::kTrue : PrimitiveType::kFalse);
        break;
      }
      case PrimitiveType::kInt8:
        put_value(Load<int8_t>(typed, t));
        break;
      case PrimitiveType::kInt16:
        put_value(Load<int16_t>(typed, t));
        break;
      case PrimitiveType::kInt32:
      case PrimitiveType::kDate:
      case PrimitiveType::kFloat:
        put_value(Load<uint32_t>(typed, t));
        break;
      case PrimitiveType::kDecimal4:
      case PrimitiveType::kDecimal8:
      case PrimitiveType::kDecimal16: {
        const auto v = Load<__int128>(typed, t);
        const size_t width = type == PrimitiveType::kDecimal4 ? 4 : type == PrimitiveType::kDecimal8 ? 8 : 16;
        *p++ = variant::PrimitiveHeader(type);
        *p++ = static_cast<uint8_t>(node.scale);
        put(&v, width);  // little-endian: the low bytes hold the value of a narrower decimal
        break;
      }
      case PrimitiveType::kUuid:
        *p++ = variant::PrimitiveHeader(type);
        put(typed.buffers[1]->data() + (typed.offset + t) * 16, 16);
        break;
      case PrimitiveType::kBinary:
      case PrimitiveType::kString: {
        const std::string_view bytes = BinaryAt(typed, t);
        const int64_t size = type == PrimitiveType::kString ? variant::StringSize(static_cast<int64_t>(bytes.size()))
                                                             : variant::BinarySize(static_cast<int64_t>(bytes.size()));
        if constexpr (kWrite) {
          *out = type == PrimitiveType::kString ? variant::WriteString(bytes, *out) : variant::WriteBinary(bytes, *out);
        }
        return size;
      }
      default:  // int64, double, time, timestamps: 8 bytes
        put_value(Load<uint64_t>(typed, t));
        break;
    }
    const auto size = static_cast<int64_t>(p - scratch);
    if constexpr (kWrite) {
      std::memcpy(*out, scratch, static_cast<size_t>(size));
      *out += size;
    }
    return size;
  }

  variant::VariantMetadata metadata_;
  bool has_metadata_ = false;
  std::vector<std::vector<Entry>> entries_;  // per depth: an object's fields
  std::vector<std::vector<int64_t>> sizes_;  // per depth: an array's element sizes
};

// Bits [offset, offset + length) of `validity` as a new bitmap starting at bit 0.
Result<std::shared_ptr<Buffer>> CopyValidity(const ArrayData& storage, MemoryPool* pool) {
  if (storage.validity_data() == nullptr) return std::shared_ptr<Buffer>();
  if (storage.offset == 0) return storage.buffers[0];
  STRATA_ASSIGN_OR_RETURN(auto bits, AllocateBuffer(pool, bitmap::BytesForBits(storage.length)));
  bitmap::CopyBitmap(storage.validity_data(), storage.offset, storage.length, bits->mutable_data(), 0);
  return std::shared_ptr<Buffer>(std::move(bits));
}

}  // namespace

Result<ArrayDataPtr> ReconstructVariant(const VariantShredding& shredding, const ArrayData& storage, const TypePtr& type,
                                        int64_t first_row, bool slots_are_rows, MemoryPool* pool) {
  const auto children = static_cast<int>(storage.children.size());
  if (shredding.metadata_child < 0 || shredding.metadata_child >= children) {
    return Status::Invalid("variant column '{}': storage {} has no metadata", shredding.path, storage.type->ToString());
  }
  Reconstructor reconstructor(shredding);
  STRATA_RETURN_NOT_OK(reconstructor.CheckLayout(shredding.root, storage));
  const int64_t rows = storage.length;
  const int64_t nulls = storage.GetNullCount();
  auto metadata = storage.children[static_cast<size_t>(shredding.metadata_child)];
  if (storage.offset != 0) metadata = metadata->Slice(storage.offset, rows);
  // A leaf is null wherever its group is, so equal null counts mean the same null slots.
  // Metadata declared optional (Arrow C++ 21-23, DuckDB 1.4) may also be null in a present
  // group: such slots are checked row by row below.
  const bool metadata_nulls_are_group_nulls = metadata->GetNullCount() == nulls;
  ArrayDataPtr value;
  const bool pass_through = !shredding.shredded() && metadata_nulls_are_group_nulls &&
                            storage.children[static_cast<size_t>(shredding.root.value_child)]->GetNullCount() == nulls;
  std::shared_ptr<Buffer> validity;
  int64_t out_nulls = nulls;
  if (pass_through) {
    STRATA_ASSIGN_OR_RETURN(validity, CopyValidity(storage, pool));
    // Unshredded: the value column is the variant's value as it is.
    value = storage.children[static_cast<size_t>(shredding.root.value_child)];
    if (storage.offset != 0) value = value->Slice(storage.offset, rows);
  } else {
    const ArrayData& metadata_column = *metadata;
    auto where = [&](int64_t slot) {
      return slots_are_rows ? fmt::format("variant column '{}', row {}", shredding.path, first_row + slot)
                            : fmt::format("variant column '{}', value {} of the batch starting at row {}", shredding.path,
                                          slot, first_row);
    };
    // A present group whose metadata is null holds no variant when its value and typed_value
    // are null too: the row becomes a null variant. With either set, the row is corrupt.
    if (metadata_nulls_are_group_nulls) {
      STRATA_ASSIGN_OR_RETURN(validity, CopyValidity(storage, pool));
    } else {
      const int64_t bytes = bitmap::BytesForBits(rows);
      STRATA_ASSIGN_OR_RETURN(auto bits, AllocateBuffer(pool, bytes));
      uint8_t* out_bits = bits->mutable_data();
      if (storage.validity_data() != nullptr) {
        bitmap::CopyBitmap(storage.validity_data(), storage.offset, rows, out_bits, 0);
      } else {
        std::memset(out_bits, 0xff, static_cast<size_t>(bytes));
      }
      const ShreddedNode& root = shredding.root;
      for (int64_t r = 0; r < rows; ++r) {
        if (!bitmap::GetBit(out_bits, r) || IsValid(metadata_column, r)) continue;
        const Slot slot{&storage, r};
        const bool has_value = root.value_child >= 0 && IsValid(slot.child(root.value_child), slot.child_index());
        const bool has_typed = root.typed_child >= 0 && IsValid(slot.child(root.typed_child), slot.child_index());
        if (has_value || has_typed) {
          return Status::Corrupt("{}: the metadata is null but the {} is set", where(r),
                                 has_value ? "value" : "typed_value");
        }
        bitmap::ClearBit(out_bits, r);
        ++out_nulls;
      }
      validity = std::move(bits);
    }
    const uint8_t* out_validity = validity ? validity->data() : nullptr;
    auto present = [&](int64_t r) { return out_validity == nullptr || bitmap::GetBit(out_validity, r); };
    STRATA_ASSIGN_OR_RETURN(auto offsets, AllocateBuffer(pool, (rows + 1) * static_cast<int64_t>(sizeof(int32_t))));
    auto* out_offsets = offsets->mutable_data_as<int32_t>();
    out_offsets[0] = 0;
    int64_t total = 0;
    // Pass 1: sizes.
    for (int64_t r = 0; r < rows; ++r) {
      if (present(r)) {
        Status st = reconstructor.SetMetadata(BinaryAt(metadata_column, r));
        uint8_t* none = nullptr;
        auto size = st.ok() ? reconstructor.Emit<false>(shredding.root, Slot{&storage, r}, 0, &none) : Result<int64_t>(st);
        if (!size.ok()) return size.status().WithContext(where(r));
        total += *size == 0 ? 1 : *size;
        if (total > std::numeric_limits<int32_t>::max()) {
          return Status::LimitExceeded("{}: rebuilt variant values pass 2 GiB in one batch", where(r));
        }
      }
      out_offsets[r + 1] = static_cast<int32_t>(total);
    }
    // Pass 2: bytes, into a buffer of exactly the measured size.
    STRATA_ASSIGN_OR_RETURN(auto data, AllocateBuffer(pool, total));
    uint8_t* p = data->mutable_data();
    for (int64_t r = 0; r < rows; ++r) {
      if (!present(r)) continue;
      uint8_t* start = p;
      Status st = reconstructor.SetMetadata(BinaryAt(metadata_column, r));
      auto size = st.ok() ? reconstructor.Emit<true>(shredding.root, Slot{&storage, r}, 0, &p) : Result<int64_t>(st);
      if (!size.ok()) return size.status().WithContext(where(r));
      if (*size == 0) *p++ = 0;  // missing where a value is required: variant null
      if (p - start != out_offsets[r + 1] - out_offsets[r]) {
        return Status::Invalid("{}: measured {} bytes, wrote {}", where(r), out_offsets[r + 1] - out_offsets[r], p - start);
      }
    }
    value = ArrayData::Make(binary(), rows, {validity, std::move(offsets), std::move(data)}, out_nulls);
  }
  auto out = ArrayData::Make(type, rows, {validity}, out_nulls);
  out->children = {std::move(metadata), std::move(value)};
  return out;
}

}  // namespace strata::parquet
