#include "strata/parquet/read/record_assembly.h"

#include <limits>

#include <fmt/format.h>

#include "strata/parquet/variant/variant_column.h"
#include "strata/util/bit_util.h"

namespace strata::parquet {

// ---------------------------------------------------------------------------------------------
// The plan: a walk over the Parquet nodes of one field beside the strata type SchemaDescriptor
// gave it, so the two cannot disagree on which Parquet node became which output node.

struct AssemblyPlan::Builder {
  const SchemaDescriptor& descriptor;
  AssemblyPlan& plan;
  int first_column;

  int NewNode(AssemblyNode node) {
    plan.nodes_.push_back(std::move(node));
    return static_cast<int>(plan.nodes_.size()) - 1;
  }

  // The first leaf of the children, which becomes the node's level source.
  void SetRepresentativeLeaf(int index) {
    for (int child : plan.nodes_[static_cast<size_t>(index)].children) {
      const int leaf = plan.nodes_[static_cast<size_t>(child)].leaf;
      if (leaf >= 0) {
        plan.nodes_[static_cast<size_t>(index)].leaf = leaf;
        return;
      }
    }
  }

  // Adds the output node of Parquet node `index` with output type `type`. `as_element` means
  // the node's own repetition was already turned into the enclosing list by the caller.
  Result<int> Add(int index, const TypePtr& type, int16_t slot_def, int16_t slot_rep, bool as_element,
                  bool variant_storage = false) {
    const SchemaNode& n = descriptor.node(index);
    const std::string& name = n.element->name;
    if (!variant_storage && IsVariantGroup(n) && (as_element || n.repetition() != FieldRepetitionType::kRepeated)) {
      // The variant's columns assemble as its storage struct, which the kVariant node rebuilds.
      AssemblyNode variant;
      variant.kind = AssemblyNode::Kind::kVariant;
      variant.type = type;
      variant.slot_def = slot_def;
      variant.slot_rep = slot_rep;
      variant.valid_def = n.max_definition_level;
      variant.top_level = n.parent == 0;
      STRATA_ASSIGN_OR_RETURN(variant.variant, MakeVariantShredding(descriptor, index));
      STRATA_ASSIGN_OR_RETURN(const FieldPtr storage, descriptor.StorageField(index));
      const int id = NewNode(std::move(variant));
      STRATA_ASSIGN_OR_RETURN(const int child, Add(index, storage->type(), slot_def, slot_rep, as_element, true));
      plan.nodes_[static_cast<size_t>(id)].children.push_back(child);
      SetRepresentativeLeaf(id);
      return id;
    }
    if (n.repetition() == FieldRepetitionType::kRepeated && !as_element) {
      // An unannotated repeated field: a required list whose elements are the field itself.
      if (type->id() != TypeId::kList) {
        return Status::Invalid("repeated field '{}' maps to {}, not a list", name, type->ToString());
      }
      AssemblyNode list;
      list.kind = AssemblyNode::Kind::kList;
      list.type = type;
      list.slot_def = slot_def;
      list.slot_rep = slot_rep;
      list.valid_def = slot_def;
      list.element_def = n.max_definition_level;
      list.element_rep = n.max_repetition_level;
      const int id = NewNode(std::move(list));
      STRATA_ASSIGN_OR_RETURN(const int child, Add(index, type->list_value_type(), n.max_definition_level,
                                                   n.max_repetition_level, true));
      plan.nodes_[static_cast<size_t>(id)].children.push_back(child);
      SetRepresentativeLeaf(id);
      return id;
    }

    AssemblyNode node;
    node.type = type;
    node.slot_def = slot_def;
    node.slot_rep = slot_rep;
    node.valid_def = n.max_definition_level;
    if (n.is_leaf()) {
      node.kind = AssemblyNode::Kind::kLeaf;
      node.leaf = n.leaf_index - first_column;
      const int id = NewNode(std::move(node));
      plan.leaf_nodes_[static_cast<size_t>(n.leaf_index - first_column)] = id;
      return id;
    }

    const TypeId type_id = type->id();
    if (type_id == TypeId::kList || type_id == TypeId::kLargeList || type_id == TypeId::kMap) {
      if (n.children.size() != 1) return Status::Invalid("group '{}' maps to {}", name, type->ToString());
      const int repeated_index = n.children[0];
      const SchemaNode& repeated = descriptor.node(repeated_index);
      node.kind = AssemblyNode::Kind::kList;
      node.element_def = repeated.max_definition_level;
      node.element_rep = repeated.max_repetition_level;
      const int id = NewNode(std::move(node));
      const TypePtr& value_type = type->list_value_type();
      int child = -1;
      if (type_id == TypeId::kMap) {
        STRATA_ASSIGN_OR_RETURN(child, AddMapEntries(repeated_index, value_type));
      } else {
        // LogicalTypes.md backward-compatibility rules, as SchemaDescriptor applies them: the
        // repeated field is the element when it is a primitive, a group of several fields, or
        // named "array" / "<list>_tuple"; otherwise its one child is.
        const std::string& repeated_name = repeated.element->name;
        const bool repeated_is_element = repeated.is_leaf() || repeated.children.size() != 1 ||
                                         repeated_name == "array" || repeated_name == name + "_tuple";
        if (repeated_is_element) {
          STRATA_ASSIGN_OR_RETURN(child, Add(repeated_index, value_type, repeated.max_definition_level,
                                             repeated.max_repetition_level, true));
        } else {
          STRATA_ASSIGN_OR_RETURN(child, Add(repeated.children[0], value_type, repeated.max_definition_level,
                                             repeated.max_repetition_level, false));
        }
      }
      plan.nodes_[static_cast<size_t>(id)].children.push_back(child);
      SetRepresentativeLeaf(id);
      return id;
    }

    if (type_id != TypeId::kStruct || type->num_fields() != static_cast<int>(n.children.size())) {
      return Status::Invalid("group '{}' maps to {}", name, type->ToString());
    }
    node.kind = AssemblyNode::Kind::kStruct;
    const int id = NewNode(std::move(node));
    for (size_t i = 0; i < n.children.size(); ++i) {
      STRATA_ASSIGN_OR_RETURN(const int child, Add(n.children[i], type->field(static_cast<int>(i))->type(), slot_def,
                                                   slot_rep, false));
      plan.nodes_[static_cast<size_t>(id)].children.push_back(child);
    }
    SetRepresentativeLeaf(id);
    return id;
  }

  // The non-null "entries" struct of a map: key, and value (or all nulls when the file has no
  // value column). Columns after the second are not part of the map type and are not read.
  Result<int> AddMapEntries(int key_value_index, const TypePtr& entries_type) {
    const SchemaNode& kv = descriptor.node(key_value_index);
    if (kv.is_leaf() || kv.children.empty() || entries_type->num_fields() != 2) {
      return Status::Invalid("map group '{}' does not match {}", kv.element->name, entries_type->ToString());
    }
    AssemblyNode entries;
    entries.kind = AssemblyNode::Kind::kStruct;
    entries.type = entries_type;
    entries.slot_def = kv.max_definition_level;
    entries.slot_rep = kv.max_repetition_level;
    entries.valid_def = kv.max_definition_level;
    const int id = NewNode(std::move(entries));
    STRATA_ASSIGN_OR_RETURN(const int key, Add(kv.children[0], entries_type->field(0)->type(), kv.max_definition_level,
                                               kv.max_repetition_level, false));
    plan.nodes_[static_cast<size_t>(id)].children.push_back(key);
    int value = -1;
    if (kv.children.size() >= 2) {
      STRATA_ASSIGN_OR_RETURN(value, Add(kv.children[1], entries_type->field(1)->type(), kv.max_definition_level,
                                         kv.max_repetition_level, false));
    } else {
      AssemblyNode nulls;
      nulls.kind = AssemblyNode::Kind::kAllNull;
      nulls.type = entries_type->field(1)->type();
      nulls.slot_def = kv.max_definition_level;
      nulls.slot_rep = kv.max_repetition_level;
      nulls.valid_def = std::numeric_limits<int16_t>::max();
      value = NewNode(std::move(nulls));
    }
    plan.nodes_[static_cast<size_t>(id)].children.push_back(value);
    SetRepresentativeLeaf(id);
    return id;
  }
};

Result<AssemblyPlan> AssemblyPlan::Make(const SchemaDescriptor& descriptor, int field) {
  if (field < 0 || field >= descriptor.num_fields()) {
    return Status::Invalid("field {} of a schema with {} fields", field, descriptor.num_fields());
  }
  AssemblyPlan plan;
  const int first = descriptor.field_first_column(field);
  const int count = descriptor.field_num_columns(field);
  plan.leaf_nodes_.assign(static_cast<size_t>(count), -1);
  for (int c = 0; c < count; ++c) plan.leaf_paths_.push_back(descriptor.column(first + c).dotted_path);
  Builder builder{descriptor, plan, first};
  const int node_index = descriptor.root().children[static_cast<size_t>(field)];
  auto root = builder.Add(node_index, descriptor.schema()->field(field)->type(), 0, 0, false);
  if (!root.ok()) return root.status().WithContext(fmt::format("field '{}'", descriptor.schema()->field(field)->name()));
  if (plan.root().leaf < 0) {
    return Status::NotImplemented("field '{}' has no leaf column to read", descriptor.schema()->field(field)->name());
  }
  return plan;
}

bool AssemblyPlan::UseLargeOffsets(int leaf) {
  if (leaf < 0 || leaf >= num_leaves() || !has_leaf_node(leaf)) return false;
  const int target = leaf_nodes_[static_cast<size_t>(leaf)];
  std::vector<int> parent(nodes_.size(), -1);
  for (size_t i = 0; i < nodes_.size(); ++i) {
    for (int child : nodes_[i].children) parent[static_cast<size_t>(child)] = static_cast<int>(i);
  }
  for (int up = parent[static_cast<size_t>(target)]; up >= 0; up = parent[static_cast<size_t>(up)]) {
    if (nodes_[static_cast<size_t>(up)].kind == AssemblyNode::Kind::kVariant) return false;  // storage stays binary
  }
  TypePtr& type = nodes_[static_cast<size_t>(target)].type;
  if (type->id() == TypeId::kString) {
    type = large_utf8();
  } else if (type->id() == TypeId::kBinary) {
    type = large_binary();
  } else {
    return false;
  }
  // Each ancestor takes its children's new types (fields keep their names, nullability and
  // metadata).
  for (int node = parent[static_cast<size_t>(target)]; node >= 0; node = parent[static_cast<size_t>(node)]) {
    AssemblyNode& n = nodes_[static_cast<size_t>(node)];
    const TypePtr& old_type = n.type;
    std::vector<FieldPtr> fields = old_type->fields();
    for (size_t c = 0; c < n.children.size() && c < fields.size(); ++c) {
      const TypePtr& child_type = nodes_[static_cast<size_t>(n.children[c])].type;
      if (fields[c]->type() != child_type) fields[c] = fields[c]->WithType(child_type);
    }
    switch (old_type->id()) {
      case TypeId::kStruct: n.type = struct_(std::move(fields)); break;
      case TypeId::kList: n.type = list(fields[0]); break;
      case TypeId::kLargeList: n.type = large_list(fields[0]); break;
      case TypeId::kMap: {
        auto map_type = MakeMap(fields[0], old_type->keys_sorted());
        if (map_type.ok()) n.type = *map_type;  // the entries keep a non-null key: cannot fail
        break;
      }
      default: break;
    }
  }
  return true;
}

// ---------------------------------------------------------------------------------------------
// Assembly.

namespace {

class Assembler {
 public:
  Assembler(const AssemblyPlan& plan, std::span<const LeafLevels> leaves, MemoryPool* pool, int64_t first_row)
      : plan_(plan), leaves_(leaves), pool_(pool), first_row_(first_row) {}

  // The array of node `index`, which its parent expects to have `expected` slots.
  Result<ArrayDataPtr> Build(int index, int64_t expected) {
    const AssemblyNode& node = plan_.nodes()[static_cast<size_t>(index)];
    switch (node.kind) {
      case AssemblyNode::Kind::kAllNull:
        return ArrayData::Make(node.type, expected, {nullptr}, expected);
      case AssemblyNode::Kind::kLeaf: {
        const ArrayDataPtr& values = leaves_[static_cast<size_t>(node.leaf)].values;
        if (values == nullptr || values->length != expected) {
          return Status::Corrupt("column '{}' holds {} values where its parent in column '{}' has {} slots",
                                 plan_.leaf_path(node.leaf), values ? values->length : 0, parent_path_, expected);
        }
        return values;
      }
      case AssemblyNode::Kind::kStruct:
        return BuildStruct(node, expected);
      case AssemblyNode::Kind::kList:
        return BuildList(node, expected);
      case AssemblyNode::Kind::kVariant: {
        STRATA_ASSIGN_OR_RETURN(const ArrayDataPtr storage, Build(node.children[0], expected));
        return ReconstructVariant(*node.variant, *storage, node.type, first_row_, node.top_level, pool_);
      }
    }
    return Status::Invalid("unknown assembly node");
  }

 private:
  Result<ArrayDataPtr> BuildStruct(const AssemblyNode& node, int64_t expected) {
    const LeafLevels& levels = leaves_[static_cast<size_t>(node.leaf)];
    const int16_t* def = levels.def;
    const int16_t* rep = levels.rep;
    const int64_t n = levels.num_levels;
    std::shared_ptr<ResizableBuffer> validity;
    int64_t slots = 0;
    int64_t valid = 0;
    if (node.nullable()) {
      STRATA_ASSIGN_OR_RETURN(validity, ResizableBuffer::Make(pool_));
      STRATA_RETURN_NOT_OK(validity->ResizeZeroed(bit_util::BytesForBits(expected)));
      uint8_t* bits = validity->mutable_data();
      const int16_t a = node.slot_def, r = node.slot_rep, v = node.valid_def;
      for (int64_t i = 0; i < n; ++i) {
        if (def[i] < a || (rep != nullptr && rep[i] > r)) continue;
        if (slots < expected && def[i] >= v) {
          bit_util::SetBit(bits, slots);
          ++valid;
        }
        ++slots;
      }
    } else {
      slots = CountSlots(node, levels);
      valid = slots;
    }
    if (slots != expected) return SlotMismatch(node, slots, expected);
    std::vector<ArrayDataPtr> children;
    children.reserve(node.children.size());
    const std::string saved = parent_path_;
    parent_path_ = plan_.leaf_path(node.leaf);
    for (int child : node.children) {
      STRATA_ASSIGN_OR_RETURN(auto array, Build(child, slots));
      children.push_back(std::move(array));
    }
    parent_path_ = saved;
    auto out = ArrayData::Make(node.type, slots, {validity}, slots - valid);
    out->children = std::move(children);
    return out;
  }

  template <typename Offset>
  Result<ArrayDataPtr> BuildListOf(const AssemblyNode& node, int64_t expected) {
    const LeafLevels& levels = leaves_[static_cast<size_t>(node.leaf)];
    const int16_t* def = levels.def;
    const int16_t* rep = levels.rep;
    const int64_t n = levels.num_levels;
    if (rep == nullptr) return Status::Invalid("list over column '{}' without repetition levels", plan_.leaf_path(node.leaf));
    STRATA_ASSIGN_OR_RETURN(auto offsets, ResizableBuffer::Make(pool_));
    STRATA_RETURN_NOT_OK(offsets->Resize((expected + 1) * static_cast<int64_t>(sizeof(Offset))));
    auto* out = offsets->mutable_data_as<Offset>();
    std::shared_ptr<ResizableBuffer> validity;
    uint8_t* bits = nullptr;
    if (node.nullable()) {
      STRATA_ASSIGN_OR_RETURN(validity, ResizableBuffer::Make(pool_));
      STRATA_RETURN_NOT_OK(validity->ResizeZeroed(bit_util::BytesForBits(expected)));
      bits = validity->mutable_data();
    }
    const int16_t a = node.slot_def, r = node.slot_rep, v = node.valid_def;
    const int16_t ed = node.element_def, er = node.element_rep;
    int64_t slots = 0;
    int64_t valid = 0;
    int64_t elements = 0;
    bool open = false;  // whether the current slot is a non-empty list, which later entries may extend
    for (int64_t i = 0; i < n; ++i) {
      const int16_t d = def[i];
      if (rep[i] <= r) {
        open = d >= ed;
        if (d >= a) {
          if (slots == expected) return SlotMismatch(node, CountSlots(node, levels), expected);
          out[slots] = static_cast<Offset>(elements);
          if (d >= v && bits != nullptr) {
            bit_util::SetBit(bits, slots);
            ++valid;
          }
          ++slots;
        }
      }
      if (d >= ed && rep[i] <= er) {
        if (!open) {
          return Status::Corrupt(
              "column '{}': level entry {} (definition {}, repetition {}) continues a list that was never started",
              plan_.leaf_path(node.leaf), i, d, rep[i]);
        }
        ++elements;
      }
    }
    if (slots != expected) return SlotMismatch(node, slots, expected);
    if constexpr (sizeof(Offset) == 4) {
      if (elements > std::numeric_limits<int32_t>::max()) {
        return Status::LimitExceeded("column '{}': {} list elements in one batch overflow 32-bit offsets",
                                     plan_.leaf_path(node.leaf), elements);
      }
    }
    out[slots] = static_cast<Offset>(elements);
    if (bits == nullptr) valid = slots;
    const std::string saved = parent_path_;
    parent_path_ = plan_.leaf_path(node.leaf);
    STRATA_ASSIGN_OR_RETURN(auto child, Build(node.children[0], elements));
    parent_path_ = saved;
    auto array = ArrayData::Make(node.type, slots, {validity, offsets}, slots - valid);
    array->children.push_back(std::move(child));
    return array;
  }

  Result<ArrayDataPtr> BuildList(const AssemblyNode& node, int64_t expected) {
    if (node.type->id() == TypeId::kLargeList) return BuildListOf<int64_t>(node, expected);
    return BuildListOf<int32_t>(node, expected);
  }

  static int64_t CountSlots(const AssemblyNode& node, const LeafLevels& levels) {
    const int16_t* def = levels.def;
    const int16_t* rep = levels.rep;
    const int16_t a = node.slot_def, r = node.slot_rep;
    int64_t slots = 0;
    if (rep == nullptr) {
      for (int64_t i = 0; i < levels.num_levels; ++i) slots += def[i] >= a;
    } else {
      for (int64_t i = 0; i < levels.num_levels; ++i) slots += (def[i] >= a) & (rep[i] <= r);
    }
    return slots;
  }

  Status SlotMismatch(const AssemblyNode& node, int64_t slots, int64_t expected) const {
    return Status::Corrupt("column '{}' describes {} slots of {} where column '{}' describes {}",
                           plan_.leaf_path(node.leaf), slots, node.type->ToString(), parent_path_, expected);
  }

  const AssemblyPlan& plan_;
  std::span<const LeafLevels> leaves_;
  MemoryPool* pool_;
  int64_t first_row_;
  std::string parent_path_;  // the column whose levels gave the current parent's slots
};

}  // namespace

Result<ArrayDataPtr> AssembleRecords(const AssemblyPlan& plan, std::span<const LeafLevels> leaves, MemoryPool* pool,
                                     int64_t first_row) {
  if (static_cast<int>(leaves.size()) != plan.num_leaves()) {
    return Status::Invalid("{} leaves given to a plan of {}", leaves.size(), plan.num_leaves());
  }
  const LeafLevels& first = leaves[static_cast<size_t>(plan.root().leaf)];
  int64_t rows = first.num_levels;
  if (first.rep != nullptr) {
    rows = 0;
    for (int64_t i = 0; i < first.num_levels; ++i) rows += first.rep[i] == 0;
  }
  Assembler assembler(plan, leaves, pool, first_row);
  return assembler.Build(0, rows);
}

}  // namespace strata::parquet
