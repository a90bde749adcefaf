// Record shredding, level by level: every node of the field's tree holds one "slot" per level
// entry its subtree produces, as three parallel arrays (definition level so far, repetition
// level, element index into the node's array). A parent writes its children's slots: a struct
// copies its own, a list expands each open slot into its elements (one slot for a null or
// empty list). A slot is "open" at a node while every ancestor is present, i.e. while its
// definition level equals the node's def_if_null; the node's validity then raises it to
// def_present or leaves it closed. Leaves keep their slots as the output levels.
//
// Without a list above, a node has exactly one slot per row and slot i is element base + i of
// its array, so neither repetition levels nor indices are stored (structs of flat columns stay
// cheap).
#include "strata/parquet/write/level_builder.h"

#include <algorithm>
#include <cstring>

#include "strata/util/bit_util.h"

namespace strata::parquet {

struct LevelBuilder::Node {
  enum class Kind : uint8_t { kLeaf, kStruct, kList, kLargeList, kFixedSizeList, kMap };

  explicit Node(MemoryPool* pool) : def(pool), rep(pool), idx(pool) {}

  Kind kind = Kind::kLeaf;
  TypeId type_id = TypeId::kNull;
  bool nullable = true;
  bool map_key = false;   // for messages: Parquet map keys are required
  bool repeated = false;  // a list or map above: slots carry rep levels and explicit indices
  int16_t def_if_null = 0;  // the level of a slot whose parent is present but this node null
  int16_t def_present = 0;  // def_if_null + 1 when nullable
  int16_t rep_depth = 0;    // lists and maps above this node
  int32_t list_size = 0;    // fixed_size_list
  int leaf = -1;
  std::vector<int> children;
  std::string path;  // "a.list.element", for messages

  // The slots of the current Build, written by the parent.
  int64_t num_slots = 0;
  int64_t base = 0;  // !repeated: slot i is element base + i of this node's array
  ResizableBuffer def;  // int16_t per slot
  ResizableBuffer rep;  // int16_t per slot, repeated only
  ResizableBuffer idx;  // int64_t per slot, repeated only; 0 for closed slots
};

namespace {

std::string JoinPath(const std::vector<std::string>& path) {
  std::string out;
  for (const auto& name : path) {
    if (!out.empty()) out += '.';
    out += name;
  }
  return out;
}

// Eight 0/1 int16 levels from one validity byte: each nibble is spread into four 16-bit lanes
// by one multiply (copies of the nibble shifted by 0, 15, 30, 45 bits put bit k at 16k).
inline void SpreadByte(uint8_t byte, int16_t* out) {
  constexpr uint64_t kSpread = 0x0000200040008001ULL;
  constexpr uint64_t kLanes = 0x0001000100010001ULL;
  const uint64_t low = ((byte & 0xFu) * kSpread) & kLanes;
  const uint64_t high = ((byte >> 4) * kSpread) & kLanes;
  std::memcpy(out, &low, sizeof(low));
  std::memcpy(out + 4, &high, sizeof(high));
}

// Definition levels 0/1 of a flat nullable column, 64 validity bits at a time.
void DefLevelsFromBitmap(const uint8_t* bits, int64_t bit_offset, int64_t length, int16_t* out) {
  int64_t i = 0;
  for (; i + 64 <= length; i += 64) {
    const uint64_t word = bit_util::ReadBits(bits, bit_offset + i, 64);
    for (int b = 0; b < 8; ++b) SpreadByte(static_cast<uint8_t>(word >> (8 * b)), out + i + 8 * b);
  }
  if (i < length) {
    const int rest = static_cast<int>(length - i);
    const uint64_t word = bit_util::ReadBits(bits, bit_offset + i, rest);
    for (int j = 0; j < rest; ++j) out[i + j] = static_cast<int16_t>((word >> j) & 1);
  }
}

void CopyLevels(const int16_t* from, int64_t n, int16_t* to) {
  if (n > 0) std::memcpy(to, from, static_cast<size_t>(n) * sizeof(int16_t));
}

Status ReserveSlots(ResizableBuffer& buffer, int64_t n, int64_t width) {
  return buffer.ReserveDiscardingContents(n * width);
}

}  // namespace

LevelBuilder::LevelBuilder(MemoryPool* pool) : pool_(pool) {}
LevelBuilder::~LevelBuilder() = default;

Result<std::unique_ptr<LevelBuilder>> LevelBuilder::Make(const Field& field, MemoryPool* pool) {
  std::unique_ptr<LevelBuilder> builder(new LevelBuilder(pool));
  STRATA_RETURN_NOT_OK(builder->AddNode(field.type(), field.nullable(), -1, {field.name()}));
  builder->leaf_ranges_.resize(builder->leaves_.size());
  return builder;
}

Status LevelBuilder::AddNode(const TypePtr& type, bool nullable, int parent, std::vector<std::string> path) {
  const int index = static_cast<int>(nodes_.size());
  nodes_.push_back(std::make_unique<Node>(pool_));
  Node& node = *nodes_.back();
  node.type_id = type->id();
  node.nullable = nullable;
  node.path = JoinPath(path);
  if (parent >= 0) {
    const Node& up = *nodes_[static_cast<size_t>(parent)];
    const bool under_list = up.kind != Node::Kind::kStruct;
    // A list's elements sit below its repeated group, which adds one definition level.
    node.def_if_null = static_cast<int16_t>(up.def_present + (under_list ? 1 : 0));
    node.rep_depth = static_cast<int16_t>(up.rep_depth + (under_list ? 1 : 0));
    node.repeated = up.repeated || under_list;
    nodes_[static_cast<size_t>(parent)]->children.push_back(index);
  }
  node.def_present = static_cast<int16_t>(node.def_if_null + (nullable ? 1 : 0));

  switch (type->id()) {
    case TypeId::kStruct: {
      node.kind = Node::Kind::kStruct;
      if (type->num_fields() == 0) {
        return Status::Invalid("column '{}': a struct without members has no Parquet shape", node.path);
      }
      // A map's entries: the map adds the key and value itself, with Parquet's names.
      if (parent >= 0 && nodes_[static_cast<size_t>(parent)]->kind == Node::Kind::kMap) return Status::OK();
      for (const auto& member : type->fields()) {
        auto member_path = path;
        member_path.push_back(member->name());
        STRATA_RETURN_NOT_OK(AddNode(member->type(), member->nullable(), index, std::move(member_path)));
      }
      return Status::OK();
    }
    case TypeId::kList:
    case TypeId::kLargeList:
    case TypeId::kFixedSizeList: {
      node.kind = type->id() == TypeId::kList        ? Node::Kind::kList
                  : type->id() == TypeId::kLargeList ? Node::Kind::kLargeList
                                                     : Node::Kind::kFixedSizeList;
      node.list_size = type->list_size();
      if (type->num_fields() != 1) return Status::Invalid("column '{}': list type without a value field", node.path);
      path.push_back("list");
      path.push_back("element");
      return AddNode(type->value_field()->type(), type->value_field()->nullable(), index, std::move(path));
    }
    case TypeId::kMap: {
      node.kind = Node::Kind::kMap;
      if (type->num_fields() != 1 || type->value_field()->type()->id() != TypeId::kStruct ||
          type->value_field()->type()->num_fields() != 2) {
        return Status::Invalid("column '{}': map type {} does not have struct<key, value> entries", node.path,
                               type->ToString());
      }
      const TypePtr& entries = type->value_field()->type();
      path.push_back("key_value");
      // The entries struct is the repeated key_value group: required, like the key.
      STRATA_RETURN_NOT_OK(AddNode(entries, /*nullable=*/false, index, path));
      const int entries_index = nodes_[static_cast<size_t>(index)]->children.back();
      auto key_path = path;
      key_path.push_back("key");
      STRATA_RETURN_NOT_OK(AddNode(entries->field(0)->type(), /*nullable=*/false, entries_index, std::move(key_path)));
      nodes_.back()->map_key = true;
      path.push_back("value");
      return AddNode(entries->field(1)->type(), entries->field(1)->nullable(), entries_index, std::move(path));
    }
    default: {
      node.kind = Node::Kind::kLeaf;
      node.leaf = static_cast<int>(leaves_.size());
      ShreddedLeaf leaf;
      leaf.path = std::move(path);
      leaf.max_definition_level = node.def_present;
      leaf.max_repetition_level = node.rep_depth;
      leaf.value_slot_definition_level = node.def_if_null;
      leaves_.push_back(std::move(leaf));
      return Status::OK();
    }
  }
}

int64_t LevelBuilder::memory_size() const {
  int64_t bytes = 0;
  for (const auto& node : nodes_) bytes += node->def.capacity() + node->rep.capacity() + node->idx.capacity();
  for (const auto& ranges : leaf_ranges_) {
    bytes += static_cast<int64_t>(ranges.capacity() * sizeof(std::pair<int64_t, int64_t>));
  }
  return bytes;
}

Status LevelBuilder::Build(const ArrayData& array) {
  Node& root = *nodes_[0];
  if (array.type == nullptr || array.type->id() != root.type_id) {
    return Status::Invalid("column '{}': array of type {} for a field of type {}", root.path,
                           array.type == nullptr ? "(none)" : array.type->ToString(), TypeIdName(root.type_id));
  }
  // Non-owning (aliasing constructor, empty owner): the caller keeps `array` alive while it
  // uses the levels; a copy here would cost a heap allocation per batch.
  ArrayDataPtr root_data(ArrayDataPtr(), const_cast<ArrayData*>(&array));
  if (root.kind == Node::Kind::kLeaf) return BuildFlat(array);
  root.num_slots = array.length;
  root.base = 0;
  STRATA_RETURN_NOT_OK(ReserveSlots(root.def, array.length, sizeof(int16_t)));
  std::fill_n(root.def.mutable_data_as<int16_t>(), array.length, int16_t{0});
  return Visit(0, root_data);
}

Status LevelBuilder::BuildFlat(const ArrayData& array) {
  Node& root = *nodes_[0];
  ShreddedLeaf& leaf = leaves_[0];
  auto& ranges = leaf_ranges_[0];
  leaf.values = ArrayDataPtr(ArrayDataPtr(), const_cast<ArrayData*>(&array));
  leaf.num_levels = array.length;
  leaf.rep_levels = nullptr;
  ranges.clear();
  if (array.length > 0) ranges.emplace_back(0, array.length);
  leaf.ranges = ranges;

  const bool all_null = root.type_id == TypeId::kNull;
  const uint8_t* bits = all_null ? nullptr : array.validity_data();
  const int64_t nulls = all_null ? array.length : (bits != nullptr ? array.GetNullCount() : 0);
  if (!root.nullable) {
    leaf.def_levels = nullptr;
    if (nulls > 0) {
      return Status::Invalid("column '{}' is declared non-nullable but has {} nulls in {} rows", root.path, nulls,
                             array.length);
    }
    return Status::OK();
  }
  if (flat_levels_from_validity_ && !all_null) {
    leaf.def_levels = nullptr;  // the caller reads the levels from the validity bitmap
    return Status::OK();
  }
  STRATA_RETURN_NOT_OK(ReserveSlots(root.def, array.length, sizeof(int16_t)));
  int16_t* def = root.def.mutable_data_as<int16_t>();
  if (nulls == 0) {
    std::fill_n(def, array.length, int16_t{1});
  } else if (all_null) {
    std::fill_n(def, array.length, int16_t{0});
  } else {
    DefLevelsFromBitmap(bits, array.offset, array.length, def);
  }
  leaf.def_levels = def;
  return Status::OK();
}

Status LevelBuilder::Visit(int node_index, const ArrayDataPtr& data) {
  Node& node = *nodes_[static_cast<size_t>(node_index)];
  if (data == nullptr || data->type == nullptr || data->type->id() != node.type_id) {
    return Status::Invalid("column '{}': array of type {} for a field of type {}", node.path,
                           data == nullptr || data->type == nullptr ? "(none)" : data->type->ToString(),
                           TypeIdName(node.type_id));
  }
  STRATA_RETURN_NOT_OK(node.repeated ? ApplyValidity<true>(node, *data) : ApplyValidity<false>(node, *data));
  switch (node.kind) {
    case Node::Kind::kLeaf: {
      ShreddedLeaf& leaf = leaves_[static_cast<size_t>(node.leaf)];
      leaf.values = data;
      leaf.num_levels = node.num_slots;
      leaf.def_levels = leaf.max_definition_level > 0 ? node.def.data_as<int16_t>() : nullptr;
      leaf.rep_levels = node.repeated ? node.rep.data_as<int16_t>() : nullptr;
      if (node.repeated) {
        CollectRanges<true>(node, leaf);
      } else {
        CollectRanges<false>(node, leaf);
      }
      return Status::OK();
    }
    case Node::Kind::kStruct:
      if (data->children.size() != node.children.size()) {
        return Status::Invalid("column '{}': struct array with {} children for {} fields", node.path,
                               data->children.size(), node.children.size());
      }
      return node.repeated ? ShredStruct<true>(node, *data) : ShredStruct<false>(node, *data);
    case Node::Kind::kList:
    case Node::Kind::kMap:
    case Node::Kind::kLargeList:
    case Node::Kind::kFixedSizeList: {
      if (data->children.size() != 1 || data->children[0] == nullptr) {
        return Status::Invalid("column '{}': list array without its child", node.path);
      }
      if (node.kind == Node::Kind::kFixedSizeList) {
        return node.repeated ? ShredList<true, int32_t>(node, *data, nullptr, node.list_size)
                             : ShredList<false, int32_t>(node, *data, nullptr, node.list_size);
      }
      const bool large = node.kind == Node::Kind::kLargeList;
      const int64_t offsets_bytes = (data->offset + data->length + 1) * (large ? 8 : 4);
      if (data->length > 0 && (data->buffers.size() < 2 || data->buffers[1] == nullptr ||
                               data->buffers[1]->size() < offsets_bytes)) {
        return Status::Invalid("column '{}': list array of {} rows at offset {} needs {} bytes of offsets",
                               node.path, data->length, data->offset, offsets_bytes);
      }
      const uint8_t* offsets = data->length > 0 ? data->buffers[1]->data() : nullptr;
      if (large) {
        const auto* typed = reinterpret_cast<const int64_t*>(offsets);
        return node.repeated ? ShredList<true, int64_t>(node, *data, typed, 0)
                             : ShredList<false, int64_t>(node, *data, typed, 0);
      }
      const auto* typed = reinterpret_cast<const int32_t*>(offsets);
      return node.repeated ? ShredList<true, int32_t>(node, *data, typed, 0)
                           : ShredList<false, int32_t>(node, *data, typed, 0);
    }
  }
  return Status::OK();
}

template <bool kRepeated>
Status LevelBuilder::ApplyValidity(Node& node, const ArrayData& data) {
  const int64_t n = node.num_slots;
  int16_t* def = node.def.mutable_data_as<int16_t>();
  const int64_t* idx = kRepeated ? node.idx.data_as<int64_t>() : nullptr;
  // Bit position of slot i in the node's own buffers.
  const int64_t first_bit = data.offset + node.base;
  const auto bit_of = [&](int64_t i) {
    if constexpr (kRepeated) {
      return data.offset + idx[i];
    } else {
      return first_bit + i;
    }
  };
  const int16_t open = node.def_if_null;
  const bool all_null = node.type_id == TypeId::kNull;
  const uint8_t* bits = all_null ? nullptr : data.validity_data();
  if (bits != nullptr && data.GetNullCount() == 0) bits = nullptr;

  if (!node.nullable) {
    if (!all_null && bits == nullptr) return Status::OK();
    int64_t nulls = 0;
    for (int64_t i = 0; i < n; ++i) {
      if (def[i] == open) nulls += all_null || !bit_util::GetBit(bits, bit_of(i));
    }
    if (nulls == 0) return Status::OK();
    if (node.map_key) {
      return Status::Invalid("map key column '{}' has {} null keys (Parquet map keys are required)", node.path,
                             nulls);
    }
    return Status::Invalid("column '{}' is declared non-nullable but has {} nulls at written positions", node.path,
                           nulls);
  }
  if (all_null) return Status::OK();  // open slots stay at def_if_null: null here
  if (bits == nullptr) {
    for (int64_t i = 0; i < n; ++i) def[i] = static_cast<int16_t>(def[i] + (def[i] == open));
    return Status::OK();
  }
  if constexpr (kRepeated) {
    // Closed slots have no element to look at.
    for (int64_t i = 0; i < n; ++i) {
      if (def[i] == open) def[i] = static_cast<int16_t>(open + bit_util::GetBit(bits, bit_of(i)));
    }
  } else {
    // Every slot has an element (one per row): branch-free.
    for (int64_t i = 0; i < n; ++i) {
      def[i] = static_cast<int16_t>(def[i] + ((def[i] == open) & bit_util::GetBit(bits, first_bit + i)));
    }
  }
  return Status::OK();
}

template <bool kRepeated>
Status LevelBuilder::ShredStruct(Node& node, const ArrayData& data) {
  const int64_t n = node.num_slots;
  for (size_t k = 0; k < node.children.size(); ++k) {
    const ArrayDataPtr& child_data = data.children[k];
    Node& child = *nodes_[static_cast<size_t>(node.children[k])];
    if (child_data == nullptr || child_data->length < data.offset + data.length) {
      return Status::Invalid("column '{}': struct member of {} elements for a struct of {} rows at offset {}",
                             child.path, child_data == nullptr ? 0 : child_data->length, data.length, data.offset);
    }
    child.num_slots = n;
    STRATA_RETURN_NOT_OK(ReserveSlots(child.def, n, sizeof(int16_t)));
    CopyLevels(node.def.data_as<int16_t>(), n, child.def.mutable_data_as<int16_t>());
    if constexpr (kRepeated) {
      STRATA_RETURN_NOT_OK(ReserveSlots(child.rep, n, sizeof(int16_t)));
      STRATA_RETURN_NOT_OK(ReserveSlots(child.idx, n, sizeof(int64_t)));
      CopyLevels(node.rep.data_as<int16_t>(), n, child.rep.mutable_data_as<int16_t>());
      // A struct's offset applies to its members directly.
      const int64_t* idx = node.idx.data_as<int64_t>();
      int64_t* child_idx = child.idx.mutable_data_as<int64_t>();
      for (int64_t i = 0; i < n; ++i) child_idx[i] = data.offset + idx[i];
    } else {
      child.base = data.offset + node.base;
    }
    STRATA_RETURN_NOT_OK(Visit(node.children[k], child_data));
  }
  return Status::OK();
}

template <bool kRepeated, typename OffsetT>
Status LevelBuilder::ShredList(Node& node, const ArrayData& data, const OffsetT* offsets, int32_t list_size) {
  const int64_t n = node.num_slots;
  const int16_t* def = node.def.data_as<int16_t>();
  const int16_t* rep = kRepeated ? node.rep.data_as<int16_t>() : nullptr;
  const int64_t* idx = kRepeated ? node.idx.data_as<int64_t>() : nullptr;
  const int16_t present = node.def_present;
  const ArrayDataPtr& child_data = data.children[0];
  Node& child = *nodes_[static_cast<size_t>(node.children[0])];
  // The elements of the list in slot i, as [begin, end) of the child's logical elements.
  const auto elements_of = [&](int64_t i) -> std::pair<int64_t, int64_t> {
    int64_t position;
    if constexpr (kRepeated) {
      position = data.offset + idx[i];
    } else {
      position = data.offset + node.base + i;
    }
    if (offsets == nullptr) return {position * list_size, (position + 1) * list_size};
    return {static_cast<int64_t>(offsets[position]), static_cast<int64_t>(offsets[position + 1])};
  };

  // Counting pass: the child's slot count (one per element, one per null or empty list), so
  // its buffers are reserved exactly; it also checks every written list against the child.
  int64_t count = 0;
  for (int64_t i = 0; i < n; ++i) {
    if (def[i] != present) {
      ++count;
      continue;
    }
    const auto [begin, end] = elements_of(i);
    if (begin < 0 || end < begin || end > child_data->length) {
      return Status::Invalid("column '{}': list at level entry {} spans child elements [{}, {}) of {}", node.path,
                             i, begin, end, child_data->length);
    }
    count += std::max<int64_t>(1, end - begin);
  }

  child.num_slots = count;
  STRATA_RETURN_NOT_OK(ReserveSlots(child.def, count, sizeof(int16_t)));
  STRATA_RETURN_NOT_OK(ReserveSlots(child.rep, count, sizeof(int16_t)));
  STRATA_RETURN_NOT_OK(ReserveSlots(child.idx, count, sizeof(int64_t)));
  int16_t* out_def = child.def.mutable_data_as<int16_t>();
  int16_t* out_rep = child.rep.mutable_data_as<int16_t>();
  int64_t* out_idx = child.idx.mutable_data_as<int64_t>();
  const int16_t element_open = child.def_if_null;  // present + 1: the repeated group
  const int16_t later_rep = child.rep_depth;       // the rep level of this list's elements
  int64_t o = 0;
  for (int64_t i = 0; i < n; ++i) {
    const int16_t first_rep = kRepeated ? rep[i] : int16_t{0};
    if (def[i] != present) {  // closed above, or this list is null: one entry, as it is
      out_def[o] = def[i];
      out_rep[o] = first_rep;
      out_idx[o] = 0;
      ++o;
      continue;
    }
    const auto [begin, end] = elements_of(i);
    if (begin == end) {  // present but empty
      out_def[o] = present;
      out_rep[o] = first_rep;
      out_idx[o] = 0;
      ++o;
      continue;
    }
    out_def[o] = element_open;
    out_rep[o] = first_rep;
    out_idx[o] = begin;
    ++o;
    for (int64_t e = begin + 1; e < end; ++e, ++o) {
      out_def[o] = element_open;
      out_rep[o] = later_rep;
      out_idx[o] = e;
    }
  }
  return Visit(node.children[0], child_data);
}

template <bool kRepeated>
void LevelBuilder::CollectRanges(Node& node, ShreddedLeaf& leaf) {
  auto& ranges = leaf_ranges_[static_cast<size_t>(node.leaf)];
  ranges.clear();
  const int64_t n = node.num_slots;
  const int16_t* def = node.def.data_as<int16_t>();
  const int16_t slot = leaf.value_slot_definition_level;
  int64_t begin = 0;
  int64_t end = -1;  // no open range yet
  for (int64_t i = 0; i < n; ++i) {
    if (def[i] < slot) continue;  // closed above the leaf: nothing written
    int64_t element;
    if constexpr (kRepeated) {
      element = node.idx.data_as<int64_t>()[i];
    } else {
      element = node.base + i;
    }
    if (element == end) {
      ++end;
      continue;
    }
    if (end >= 0) ranges.emplace_back(begin, end);
    begin = element;
    end = element + 1;
  }
  if (end >= 0) ranges.emplace_back(begin, end);
  leaf.ranges = ranges;
}

}  // namespace strata::parquet
