// Variant columns: a Parquet group annotated VARIANT reads as Arrow's canonical variant,
// struct<metadata: binary not null, value: binary>. Unshredded groups pass their two columns
// through; shredded ones (a typed_value beside value, VariantShredding.md) are assembled as
// their storage struct and rebuilt here, row by row, into the exact variant value bytes:
// shredded objects merged with the residual `value` object, arrays, primitives, nested to any
// depth. The plan is made once per file from the Parquet schema (which also rejects types the
// spec does not allow); record assembly calls ReconstructVariant() on each batch's struct.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "strata/array/array_data.h"
#include "strata/parquet/schema.h"
#include "strata/variant/variant_value.h"

namespace strata::parquet {

// How one value / typed_value pair (the variant group itself, a shredded object field, an
// array element) is read. Child indices count the pair's group's fields in file order.
struct ShreddedNode {
  enum class Kind : uint8_t {
    kValueOnly,  // no typed_value: the value column holds every value
    kPrimitive,  // typed_value is a leaf
    kObject,     // typed_value is a group of field groups
    kArray,      // typed_value is a LIST of element groups
  };
  Kind kind = Kind::kValueOnly;
  int value_child = -1;  // -1 when the group has no value column
  int typed_child = -1;  // -1 when the group has no typed_value
  std::string path;      // "var.typed_value.a", for messages
  // kPrimitive: the variant type the column's values become (kTrue stands for boolean).
  variant::PrimitiveType primitive = variant::PrimitiveType::kNull;
  int32_t scale = 0;  // decimals
  // kObject: the shredded fields sorted by name (unsigned bytes), and where each one's group
  // is among typed_value's fields. `children` holds one node per field in that order; kArray:
  // the element's node.
  std::vector<std::string> names;
  std::vector<int> field_children;
  std::vector<ShreddedNode> children;
};

struct VariantShredding {
  std::string path;        // the variant group's dotted path
  int metadata_child = -1;
  ShreddedNode root;
  bool shredded() const { return root.typed_child >= 0; }
};

// The plan of the VARIANT group at `node_index`. Corrupt when the group lacks metadata or
// both value and typed_value, or holds other fields; NotImplemented ("unsupported shredded
// value type") for a typed_value whose Parquet type the spec does not list (unsigned
// integers, FIXED_LEN_BYTE_ARRAY other than UUID and decimals, millisecond timestamps, ...).
Result<std::shared_ptr<const VariantShredding>> MakeVariantShredding(const SchemaDescriptor& descriptor,
                                                                      int node_index);

// Turns one batch of the group's storage struct (as the assembly plan built it from
// StorageField()) into struct<metadata, value> of `type`: the value bytes of every non-null
// slot rebuilt (a slot whose value and typed_value are both null becomes variant null, 00),
// null where the group is. Buffers come from `pool`, each allocated once at its exact size
// (every value is measured before any is written). Corrupt for the invalid shreddings of the
// spec (value and typed_value both set outside objects, a residual that is not an object
// beside shredded fields, a field both shredded and in the residual, a name missing from the
// metadata, a null metadata beside a value or typed_value), naming the column and the row:
// `first_row` is the batch's first row in the row group, and `slots_are_rows` says whether
// slots count rows (a top-level variant). Metadata declared optional (Arrow C++ 21-23 and
// DuckDB 1.4 write it so) may be null where value and typed_value are null too: that slot
// reads as a null variant.
Result<ArrayDataPtr> ReconstructVariant(const VariantShredding& shredding, const ArrayData& storage,
                                        const TypePtr& type, int64_t first_row, bool slots_are_rows,
                                        MemoryPool* pool);

}  // namespace strata::parquet
