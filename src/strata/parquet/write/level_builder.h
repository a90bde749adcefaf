// LevelBuilder: record shredding for the Parquet writer. From one top-level field's Arrow
// array it computes, for every Parquet leaf column under the field, the definition and
// repetition levels (Dremel's rules) and which elements of the leaf's array are written. It is
// the inverse of record_assembly.h and sits between the arrays and the column writers.
//
// The Parquet shape of a field (the writer's schema converter uses exactly this): leaves depth
// first (struct members in order; list, large_list and fixed_size_list -> the element; map ->
// key, then value; every other type, dictionary included, is a leaf). Definition levels count
// each nullable node on the path plus the repeated group of each list/map (3-level LIST
// `list`/`element`, MAP `key_value`/`key`/`value`); repetition levels count the lists/maps.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "strata/array/array_data.h"
#include "strata/types/field.h"
#include "strata/util/result.h"

namespace strata::parquet {

struct ShreddedLeaf {
  std::vector<std::string> path;  // Parquet path: names incl. "list"/"element", "key_value"/"key"/"value"
  int16_t max_definition_level = 0;
  int16_t max_repetition_level = 0;
  // Levels with def >= this have an element in `values` (= max_def, or max_def - 1 when the
  // leaf itself is nullable: those entries are the leaf's nulls).
  int16_t value_slot_definition_level = 0;
  const int16_t* def_levels = nullptr;  // num_levels entries; nullptr when max_def == 0
  const int16_t* rep_levels = nullptr;  // num_levels entries; nullptr when max_rep == 0
  int64_t num_levels = 0;
  // The leaf's array (as found in the input, with its own offset). For a top-level leaf this
  // is a non-owning pointer to the array passed to Build: valid while that array lives.
  ArrayDataPtr values;
  // Element ranges [begin, end) of `values` (indices relative to values' logical element 0)
  // whose elements are written, in order; their total length equals the number of level
  // entries with def >= value_slot_definition_level. Adjacent ranges are merged: a flat
  // column or a list column without gaps is one range.
  std::span<const std::pair<int64_t, int64_t>> ranges;
};

class LevelBuilder {
 public:
  // For one top-level field. Invalid for types with no Parquet shape (a struct without
  // members, a map whose entries are not a two-member struct).
  static Result<std::unique_ptr<LevelBuilder>> Make(const Field& field, MemoryPool* pool);
  ~LevelBuilder();
  LevelBuilder(const LevelBuilder&) = delete;
  LevelBuilder& operator=(const LevelBuilder&) = delete;

  int num_leaves() const { return static_cast<int>(leaves_.size()); }

  // For a top-level nullable field that is a leaf: leave ShreddedLeaf::def_levels null, as
  // the levels are the values' validity bits and a caller that encodes them from the bitmap
  // (the column writer does) would only throw the int16 copy away.
  void set_flat_levels_from_validity(bool on) { flat_levels_from_validity_ = on; }

  // Computes every leaf's levels for `array` (length = rows of this batch; may be a slice
  // with an offset). Invalid when the array's type does not match the field, when a
  // non-nullable node has nulls at written positions, or a map key is null (naming the
  // column and the count); Invalid too for list offsets outside the child. Buffers are pool
  // memory reused across calls, each reserved exactly (sizes are counted first): the second
  // call on a batch of the same shape allocates nothing. After an error the leaves' contents
  // are unspecified until the next successful Build.
  Status Build(const ArrayData& array);

  // Leaf `i` in column order. Its level pointers and ranges point into this builder's
  // buffers: valid until the next Build.
  const ShreddedLeaf& leaf(int i) const { return leaves_[static_cast<size_t>(i)]; }

  // Bytes held across calls (level, index and range buffers).
  int64_t memory_size() const;

 private:
  struct Node;
  explicit LevelBuilder(MemoryPool* pool);
  // Appends the node for `type` below `parent` (-1: the field itself), and its subtree.
  Status AddNode(const TypePtr& type, bool nullable, int parent, std::vector<std::string> path);
  Status BuildFlat(const ArrayData& array);
  Status Visit(int node_index, const ArrayDataPtr& data);
  template <bool kRepeated>
  Status ApplyValidity(Node& node, const ArrayData& data);
  template <bool kRepeated>
  Status ShredStruct(Node& node, const ArrayData& data);
  template <bool kRepeated, typename OffsetT>
  Status ShredList(Node& node, const ArrayData& data, const OffsetT* offsets, int32_t list_size);
  template <bool kRepeated>
  void CollectRanges(Node& node, ShreddedLeaf& leaf);

  MemoryPool* pool_;
  bool flat_levels_from_validity_ = false;
  std::vector<std::unique_ptr<Node>> nodes_;  // nodes_[0] is the field
  std::vector<ShreddedLeaf> leaves_;
  std::vector<std::vector<std::pair<int64_t, int64_t>>> leaf_ranges_;
};

}  // namespace strata::parquet
