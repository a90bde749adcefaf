// SchemaDescriptor: the Parquet schema (a depth-first list of SchemaElements) turned into a
// tree, with each leaf column's path, maximum definition and repetition levels and the strata
// type its values decode to; and the strata Schema of the file's top-level fields. The
// backward-compatibility rules of LogicalTypes.md for lists and maps are applied here, once.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "strata/parquet/thrift/parquet_types.h"
#include "strata/types/schema.h"

namespace strata::parquet {

// One element of the schema tree.
struct SchemaNode {
  const SchemaElement* element = nullptr;  // points into the FileMetaData's schema
  int parent = -1;                         // node index; -1 for the root
  std::vector<int> children;               // node indices, in file order
  int16_t max_definition_level = 0;        // at this node, counting it
  int16_t max_repetition_level = 0;
  int leaf_index = -1;                     // column index for leaves; -1 for groups

  bool is_leaf() const { return leaf_index >= 0; }
  FieldRepetitionType repetition() const {
    return element->repetition_type.value_or(FieldRepetitionType::kRequired);
  }
};

// Whether `node` is a group annotated VARIANT (read as Arrow's canonical variant:
// variant/variant_column.h).
bool IsVariantGroup(const SchemaNode& node);

// A leaf column: what a column reader needs to know to decode it.
// How INT96 (deprecated nanosecond timestamps) is read: as timestamp[ns] (which holds years
// 1677-2262; a value outside fails, naming the column and row), [us] or [ms] (which hold
// Spark's whole range). `int96_wrap` keeps nanoseconds and wraps out-of-range values in 64-bit
// arithmetic instead of failing: the scan-summary contract's rule, for comparisons only.
struct SchemaOptions {
  ::strata::TimeUnit int96_unit = ::strata::TimeUnit::kNano;
  bool int96_wrap = false;
};

struct ColumnDescriptor {
  int column_index = 0;
  int node_index = 0;
  std::vector<std::string> path;  // path_in_schema, without the root
  std::string dotted_path;        // "a.b.c", for messages
  PhysicalType physical_type = PhysicalType::kBoolean;
  int32_t type_length = 0;        // FIXED_LEN_BYTE_ARRAY width
  int16_t max_definition_level = 0;
  int16_t max_repetition_level = 0;
  const SchemaElement* element = nullptr;
  TypePtr type;  // the strata type values decode to (logical and converted types applied)
  bool int96_wrap = false;  // SchemaOptions::int96_wrap
  // Metadata the leaf's field carries besides its field id: the geoarrow.wkb extension of a
  // GEOMETRY or GEOGRAPHY column (geoarrow_metadata.h), or the original type of a decimal read
  // as text (kDecimalTextMetadataKey). Empty for most columns.
  KeyValueMetadata field_metadata;
};

class SchemaDescriptor {
 public:
  // Builds the tree from a footer's schema list; Corrupt when the list is malformed (child counts
  // that run past the end, leaves without a physical type, a root with a physical type, excessive
  // depth). `elements` must outlive the descriptor. `file_key_values` (the footer's key-value
  // metadata, may be null; read during the call only) resolves the "projjson:<key>" crs of
  // geospatial columns.
  static Result<std::shared_ptr<SchemaDescriptor>> Make(const std::vector<SchemaElement>& elements,
                                                        const SchemaOptions& options = {},
                                                        const std::vector<KeyValue>* file_key_values = nullptr);

  int num_columns() const { return static_cast<int>(columns_.size()); }
  const ColumnDescriptor& column(int i) const { return columns_[static_cast<size_t>(i)]; }
  const std::vector<ColumnDescriptor>& columns() const { return columns_; }

  const std::vector<SchemaNode>& nodes() const { return nodes_; }
  const SchemaNode& node(int i) const { return nodes_[static_cast<size_t>(i)]; }
  const SchemaNode& root() const { return nodes_[0]; }

  // Top-level fields: field i is node root().children[i] and covers the leaf columns
  // [field_first_column(i), field_first_column(i) + field_num_columns(i)).
  int num_fields() const { return static_cast<int>(root().children.size()); }
  int field_first_column(int field) const;
  int field_num_columns(int field) const;
  // Index of the top-level field with this name, or -1.
  int FieldIndex(const std::string& name) const;

  // The strata schema: one field per top-level Parquet field, groups as struct, LIST and MAP
  // (and their legacy forms) as list and map, field ids kept as "PARQUET:field_id" metadata.
  const std::shared_ptr<Schema>& schema() const { return schema_; }

  // The field of node `node_index` as its columns are assembled: as schema() has it, except
  // that a VARIANT group is its storage struct as written (metadata, value and typed_value,
  // in file order) rather than struct<metadata, value> (parquet/variant_column.h).
  Result<FieldPtr> StorageField(int node_index) const { return MakeField(node_index, true); }

  // A tree for people: "optional int64 id (INT(64,signed)) -> int64", indented by depth.
  std::string ToTreeString() const;

  // Heap bytes of the tree and column descriptors (vectors, paths, names), as the standard
  // library requests them: what FileReader charges to its pool. Not counted: the strata types
  // and Schema, shared (by shared_ptr) with every batch read.
  int64_t heap_bytes() const;

 private:
  Status Build(const std::vector<SchemaElement>& elements, const SchemaOptions& options,
               const std::vector<KeyValue>* file_key_values);
  const std::vector<int>& root_children() const { return nodes_[0].children; }
  // `variant_storage`: a VARIANT group at `node_index` maps to its storage struct.
  Result<FieldPtr> MakeField(int node_index, bool variant_storage = false) const;

  // The root as read when its writer gave it a physical type too (some old writers do): kept
  // here without the type, so the tree's root is a group like any other's.
  std::unique_ptr<SchemaElement> untyped_root_;
  std::vector<SchemaNode> nodes_;
  std::vector<ColumnDescriptor> columns_;
  std::vector<int> field_first_column_;
  std::shared_ptr<Schema> schema_;
};

// The strata type a leaf's values decode to, from its physical, logical and converted types.
// Unknown logical types fall back to the physical type's natural type.
Result<TypePtr> LeafValueType(const SchemaElement& element, const SchemaOptions& options = {});

}  // namespace strata::parquet
