// Record assembly: turns the definition and repetition levels of a nested field's leaf columns
// into Arrow-layout list, large_list, map and struct arrays (Dremel's record assembly, done
// level by level rather than record by record). It sits above the leaf readers
// (nested_leaf_reader.h, which give each leaf's levels and its slot-aligned values) and below
// the nested column reader, which drives one field batch by batch.
//
// How levels map to slots. Every node of the output tree has a "slot" per entry of its parent
// that can hold it: a level entry (def, rep) starts a new slot of a node when
// def >= slot_def and rep <= slot_rep; the slot is non-null when def >= valid_def. A list (or
// map) gains an element from an entry with def >= element_def and rep <= element_rep, where
// element_def / element_rep are the levels of its repeated Parquet node. Children of a list
// have slot_def = element_def and slot_rep = element_rep; children of a struct share the
// struct's. Every node reads the levels of the first leaf below it (all leaves below a node
// agree on the structure above them; a file where they do not is Corrupt).
#pragma once

#include <memory>
#include <span>
#include <string>
#include <vector>

#include "strata/array/array_data.h"
#include "strata/parquet/schema.h"

namespace strata::parquet {

struct VariantShredding;  // variant_column.h

struct AssemblyNode {
  enum class Kind : uint8_t {
    kLeaf,     // values come from a leaf reader
    kStruct,   // children share this node's slots
    kList,     // list, large_list or map: offsets over one child
    kAllNull,  // a map without a value column: null values, one per entry
    kVariant,  // a VARIANT group: its one child is the storage struct, rebuilt (variant_column.h)
  };
  Kind kind = Kind::kLeaf;
  TypePtr type;  // the output type (the SchemaDescriptor's, at this depth)
  int16_t slot_def = 0;
  int16_t slot_rep = 0;
  int16_t valid_def = 0;
  int16_t element_def = 0;  // kList only
  int16_t element_rep = 0;  // kList only
  // kLeaf: the leaf this node reads; otherwise the first leaf below (whose levels it reads).
  // Leaves are numbered from 0 within the field, in column order. -1 for kAllNull.
  int leaf = -1;
  std::vector<int> children;  // indices into AssemblyPlan::nodes()
  std::shared_ptr<const VariantShredding> variant;  // kVariant only
  bool top_level = false;  // kVariant: the field itself, so its slots are rows

  bool nullable() const { return valid_def > slot_def; }
};

// The assembly tree of one top-level field, built once per file.
class AssemblyPlan {
 public:
  // The plan of top-level field `field`, mirroring how SchemaDescriptor maps it to a type
  // (LIST and MAP with their backward-compatibility forms, unannotated repeated fields).
  static Result<AssemblyPlan> Make(const SchemaDescriptor& descriptor, int field);

  // Leaf `leaf` (a string or binary leaf outside any VARIANT) reads with 64-bit offsets: its
  // type becomes large_string / large_binary, and the types of the nodes above it follow.
  // False, changing nothing, for any other leaf.
  bool UseLargeOffsets(int leaf);

  const std::vector<AssemblyNode>& nodes() const { return nodes_; }
  const AssemblyNode& root() const { return nodes_[0]; }
  int num_leaves() const { return static_cast<int>(leaf_nodes_.size()); }
  // False for a leaf outside the field's type (children of a map group beyond key and value).
  bool has_leaf_node(int leaf) const { return leaf_nodes_[static_cast<size_t>(leaf)] >= 0; }
  // The plan node of leaf `leaf` (its slot_def is what the leaf reader needs).
  const AssemblyNode& leaf_node(int leaf) const { return nodes_[static_cast<size_t>(leaf_nodes_[static_cast<size_t>(leaf)])]; }
  // "a.b.c" of each leaf, for messages.
  const std::string& leaf_path(int leaf) const { return leaf_paths_[static_cast<size_t>(leaf)]; }

 private:
  struct Builder;
  std::vector<AssemblyNode> nodes_;
  std::vector<int> leaf_nodes_;
  std::vector<std::string> leaf_paths_;
};

// One leaf's share of a batch: levels for every entry of the rows read (rep may be nullptr
// when the leaf is not repeated: all zeros), and `values`, the leaf's array with one slot per
// entry with def >= the leaf's slot_def (nulls where def < its max level). The spans must stay
// valid during AssembleRecords.
struct LeafLevels {
  const int16_t* def = nullptr;
  const int16_t* rep = nullptr;
  int64_t num_levels = 0;
  ArrayDataPtr values;
};

// Builds the field's array for one batch: one slot per row (entries with rep == 0). Output
// buffers come from `pool`, each sized exactly (slots are counted before anything is
// allocated). Corrupt when the leaves disagree on the structure (different slot counts under
// one struct, elements without an open list), naming the columns.
// `first_row` (the batch's first row in the row group) only numbers rows in messages.
Result<ArrayDataPtr> AssembleRecords(const AssemblyPlan& plan, std::span<const LeafLevels> leaves, MemoryPool* pool,
                                     int64_t first_row = 0);

}  // namespace strata::parquet
