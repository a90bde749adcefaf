// The shredding plan: which of a variant group's Parquet fields are metadata, value and
// typed_value, at every depth, and the variant type each shredded leaf becomes.
#include "strata/parquet/variant/variant_column.h"

#include <algorithm>
#include <numeric>

#include <fmt/format.h>

#include "strata/parquet/encoding/encoding.h"

namespace strata::parquet {
namespace {

using variant::PrimitiveType;
using Kind = LogicalType::Kind;

std::string Describe(const SchemaElement& e) {
  std::string text(PhysicalTypeName(*e.type));
  if (*e.type == PhysicalType::kFixedLenByteArray) text += fmt::format("({})", e.type_length.value_or(0));
  if (e.logical_type) {
    text += fmt::format(" ({})", LogicalTypeToString(*e.logical_type));
  } else if (e.converted_type) {
    text += fmt::format(" ({})", ConvertedTypeName(*e.converted_type));
  }
  return text;
}

// The logical kind of a leaf, from its converted type when it has no logical type.
struct LeafKind {
  Kind kind = Kind::kUnrecognized;
  int bit_width = 0;
  bool is_signed = true;
  bool utc = false;
  TimeUnit unit = TimeUnit::kUnknown;
  int32_t precision = 0;
  int32_t scale = 0;
};

LeafKind KindOf(const SchemaElement& e) {
  LeafKind k;
  if (e.logical_type) {
    const LogicalType& l = *e.logical_type;
    k.kind = l.kind;
    k.bit_width = l.bit_width;
    k.is_signed = l.is_signed;
    k.utc = l.is_adjusted_to_utc;
    k.unit = l.unit;
    k.precision = l.precision;
    k.scale = l.scale;
    return k;
  }
  if (!e.converted_type) return k;
  switch (*e.converted_type) {
    case ConvertedType::kUtf8: k.kind = Kind::kString; break;
    case ConvertedType::kDate: k.kind = Kind::kDate; break;
    case ConvertedType::kDecimal:
      k.kind = Kind::kDecimal;
      k.precision = e.precision.value_or(0);
      k.scale = e.scale.value_or(0);
      break;
    case ConvertedType::kInt8: k.kind = Kind::kInteger; k.bit_width = 8; break;
    case ConvertedType::kInt16: k.kind = Kind::kInteger; k.bit_width = 16; break;
    case ConvertedType::kInt32: k.kind = Kind::kInteger; k.bit_width = 32; break;
    case ConvertedType::kInt64: k.kind = Kind::kInteger; k.bit_width = 64; break;
    case ConvertedType::kTimestampMicros: k.kind = Kind::kTimestamp; k.utc = true; k.unit = TimeUnit::kMicros; break;
    case ConvertedType::kTimeMicros: k.kind = Kind::kTime; k.unit = TimeUnit::kMicros; break;
    default: k.kind = Kind::kBson; break;  // anything else: not a shredding type
  }
  return k;
}

// The variant type of a typed_value leaf (VariantShredding.md, "Shredded Value Types").
Status PrimitiveFor(const SchemaElement& e, const std::string& path, ShreddedNode* node) {
  const LeafKind k = KindOf(e);
  const bool plain = k.kind == Kind::kUnrecognized;
  auto unsupported = [&] {
    return Status::NotImplemented("column '{}': unsupported shredded value type {}", path, Describe(e));
  };
  if (k.kind == Kind::kDecimal) {
    if (k.precision < 1 || k.precision > 38 || k.scale < 0 || k.scale > k.precision) return unsupported();
    node->scale = k.scale;
    switch (*e.type) {
      case PhysicalType::kInt32: node->primitive = PrimitiveType::kDecimal4; return Status::OK();
      case PhysicalType::kInt64: node->primitive = PrimitiveType::kDecimal8; return Status::OK();
      case PhysicalType::kByteArray:
      case PhysicalType::kFixedLenByteArray: node->primitive = PrimitiveType::kDecimal16; return Status::OK();
      default: return unsupported();
    }
  }
  switch (*e.type) {
    case PhysicalType::kBoolean:
      if (!plain) return unsupported();
      node->primitive = PrimitiveType::kTrue;
      return Status::OK();
    case PhysicalType::kInt32:
      if (plain || (k.kind == Kind::kInteger && k.is_signed && k.bit_width == 32)) {
        node->primitive = PrimitiveType::kInt32;
      } else if (k.kind == Kind::kInteger && k.is_signed && k.bit_width == 8) {
        node->primitive = PrimitiveType::kInt8;
      } else if (k.kind == Kind::kInteger && k.is_signed && k.bit_width == 16) {
        node->primitive = PrimitiveType::kInt16;
      } else if (k.kind == Kind::kDate) {
        node->primitive = PrimitiveType::kDate;
      } else {
        return unsupported();
      }
      return Status::OK();
    case PhysicalType::kInt64:
      if (plain || (k.kind == Kind::kInteger && k.is_signed && k.bit_width == 64)) {
        node->primitive = PrimitiveType::kInt64;
      } else if (k.kind == Kind::kTime && k.unit == TimeUnit::kMicros) {
        node->primitive = PrimitiveType::kTimeNtzMicros;
      } else if (k.kind == Kind::kTimestamp && k.unit == TimeUnit::kMicros) {
        node->primitive = k.utc ? PrimitiveType::kTimestampMicros : PrimitiveType::kTimestampNtzMicros;
      } else if (k.kind == Kind::kTimestamp && k.unit == TimeUnit::kNanos) {
        node->primitive = k.utc ? PrimitiveType::kTimestampNanos : PrimitiveType::kTimestampNtzNanos;
      } else {
        return unsupported();
      }
      return Status::OK();
    case PhysicalType::kFloat:
      if (!plain) return unsupported();
      node->primitive = PrimitiveType::kFloat;
      return Status::OK();
    case PhysicalType::kDouble:
      if (!plain) return unsupported();
      node->primitive = PrimitiveType::kDouble;
      return Status::OK();
    case PhysicalType::kByteArray:
      if (plain) {
        node->primitive = PrimitiveType::kBinary;
      } else if (k.kind == Kind::kString) {
        node->primitive = PrimitiveType::kString;
      } else {
        return unsupported();
      }
      return Status::OK();
    case PhysicalType::kFixedLenByteArray:
      if (k.kind != Kind::kUuid || e.type_length.value_or(0) != 16) return unsupported();
      node->primitive = PrimitiveType::kUuid;
      return Status::OK();
    default:
      return unsupported();
  }
}

class PlanBuilder {
 public:
  explicit PlanBuilder(const SchemaDescriptor& descriptor) : descriptor_(descriptor) {}

  // The node of a value / typed_value group; `top` is the variant group itself (which also
  // holds metadata).
  Status Build(int group_index, const std::string& path, bool top, int* metadata_child, ShreddedNode* out) {
    const SchemaNode& group = descriptor_.node(group_index);
    out->path = path;
    for (size_t i = 0; i < group.children.size(); ++i) {
      const SchemaNode& child = descriptor_.node(group.children[i]);
      const std::string& name = child.element->name;
      const std::string child_path = path + "." + name;
      if (child.repetition() == FieldRepetitionType::kRepeated) {
        return Status::Corrupt("variant column '{}': field '{}' is repeated", path, name);
      }
      if (name == "metadata" && top) {
        // The spec says required; Arrow C++ 21-23 and DuckDB 1.4 write it optional. Either
        // reads: ReconstructVariant refuses a row whose metadata is null beside a value.
        if (!IsBinaryLeaf(child)) return Status::Corrupt("variant column '{}': metadata must be a binary column", path);
        *metadata_child = static_cast<int>(i);
      } else if (name == "value") {
        if (!IsBinaryLeaf(child)) return Status::Corrupt("variant column '{}': value must be a binary column", path);
        out->value_child = static_cast<int>(i);
      } else if (name == "typed_value") {
        out->typed_child = static_cast<int>(i);
        STRATA_RETURN_NOT_OK(BuildTyped(group.children[i], child_path, out));
      } else {
        return Status::Corrupt("variant column '{}' has a field '{}' (only {}value and typed_value belong there)", path,
                               name, top ? "metadata, " : "");
      }
    }
    if (top && *metadata_child < 0) return Status::Corrupt("variant column '{}' has no metadata column", path);
    if (out->value_child < 0 && out->typed_child < 0) {
      return Status::Corrupt("variant column '{}' has neither value nor typed_value", path);
    }
    return Status::OK();
  }

 private:
  bool IsBinaryLeaf(const SchemaNode& n) const {
    return n.is_leaf() && *n.element->type == PhysicalType::kByteArray &&
           (!n.element->logical_type || n.element->logical_type->kind == Kind::kUnrecognized);
  }

  Status BuildTyped(int index, const std::string& path, ShreddedNode* out) {
    const SchemaNode& typed = descriptor_.node(index);
    if (typed.is_leaf()) {
      out->kind = ShreddedNode::Kind::kPrimitive;
      return PrimitiveFor(*typed.element, path, out);
    }
    const SchemaElement& e = *typed.element;
    const bool is_list = (e.logical_type && e.logical_type->kind == Kind::kList) ||
                         (e.converted_type && *e.converted_type == ConvertedType::kList);
    if (is_list) {
      // Only the 3-level form: typed_value (LIST) { repeated group list { required group element } }.
      if (typed.children.size() != 1) return Status::Corrupt("column '{}': a shredded array needs one repeated group", path);
      const SchemaNode& repeated = descriptor_.node(typed.children[0]);
      if (repeated.is_leaf() || repeated.repetition() != FieldRepetitionType::kRepeated || repeated.children.size() != 1 ||
          repeated.element->name == "array" || repeated.element->name == e.name + "_tuple") {
        return Status::Corrupt("column '{}': a shredded array must be a 3-level list of element groups", path);
      }
      const int element_index = repeated.children[0];
      const SchemaNode& element = descriptor_.node(element_index);
      if (element.is_leaf()) return Status::Corrupt("column '{}': shredded array elements must be groups", path);
      out->kind = ShreddedNode::Kind::kArray;
      out->children.resize(1);
      int unused = -1;
      return Build(element_index, path + "." + repeated.element->name + "." + element.element->name, false, &unused,
                   &out->children[0]);
    }
    if (e.logical_type || e.converted_type) {
      return Status::NotImplemented("column '{}': unsupported shredded value type {}", path,
                                    e.logical_type ? LogicalTypeToString(*e.logical_type)
                                                   : std::string(ConvertedTypeName(*e.converted_type)));
    }
    out->kind = ShreddedNode::Kind::kObject;
    std::vector<int> order(typed.children.size());
    std::iota(order.begin(), order.end(), 0);
    auto name_of = [&](int i) -> const std::string& { return descriptor_.node(typed.children[static_cast<size_t>(i)]).element->name; };
    std::sort(order.begin(), order.end(), [&](int a, int b) { return name_of(a) < name_of(b); });
    for (size_t k = 0; k < order.size(); ++k) {
      const int i = order[k];
      if (k > 0 && name_of(order[k - 1]) == name_of(i)) {
        return Status::Corrupt("column '{}' shreds field '{}' twice", path, name_of(i));
      }
      const SchemaNode& field = descriptor_.node(typed.children[static_cast<size_t>(i)]);
      if (field.is_leaf()) {
        return Status::Corrupt("column '{}': shredded field '{}' must be a group of value and typed_value", path, name_of(i));
      }
      out->names.push_back(name_of(i));
      out->field_children.push_back(i);
      out->children.emplace_back();
      int unused = -1;
      STRATA_RETURN_NOT_OK(Build(typed.children[static_cast<size_t>(i)], path + "." + name_of(i), false, &unused,
                                 &out->children.back()));
    }
    return Status::OK();
  }

  const SchemaDescriptor& descriptor_;
};

}  // namespace

Result<std::shared_ptr<const VariantShredding>> MakeVariantShredding(const SchemaDescriptor& descriptor,
                                                                      int node_index) {
  auto shredding = std::make_shared<VariantShredding>();
  std::string path;
  for (int n = node_index; n > 0; n = descriptor.node(n).parent) {
    path = descriptor.node(n).element->name + (path.empty() ? "" : "." + path);
  }
  shredding->path = path;
  PlanBuilder builder(descriptor);
  STRATA_RETURN_NOT_OK(builder.Build(node_index, path, true, &shredding->metadata_child, &shredding->root));
  return std::shared_ptr<const VariantShredding>(std::move(shredding));
}

}  // namespace strata::parquet
