#include "strata/parquet/schema.h"

#include <fmt/format.h>

#include "strata/parquet/decimal_text.h"
#include "strata/parquet/geo/geoarrow_metadata.h"
#include "strata/variant/variant_extension.h"

#include "strata/parquet/thrift/heap_bytes.h"

namespace strata::parquet {
namespace {

// Deeper schemas exist in no real file; the limit keeps recursion bounded on hostile input.
constexpr int kMaxSchemaDepth = 100;

::strata::TimeUnit ToTimeUnit(parquet::TimeUnit unit) {
  switch (unit) {
    case parquet::TimeUnit::kMillis: return ::strata::TimeUnit::kMilli;
    case parquet::TimeUnit::kMicros: return ::strata::TimeUnit::kMicro;
    case parquet::TimeUnit::kNanos: return ::strata::TimeUnit::kNano;
    default: return ::strata::TimeUnit::kMicro;
  }
}

Result<TypePtr> DecimalType(const SchemaElement& e, int32_t precision, int32_t scale) {
  if (precision <= 0 || scale < 0 || scale > precision) {
    return Status::Corrupt("column '{}' declares DECIMAL({}, {})", e.name, precision, scale);
  }
  return MakeDecimal(precision, scale);
}

Result<TypePtr> IntegerType(int bit_width, bool is_signed) {
  switch (bit_width) {
    case 8: return is_signed ? int8() : uint8();
    case 16: return is_signed ? int16() : uint16();
    case 32: return is_signed ? int32() : uint32();
    case 64: return is_signed ? int64() : uint64();
  }
  return Status::Corrupt("INTEGER logical type with bit width {}", bit_width);
}

// The metadata a leaf's field carries because of its logical type (ColumnDescriptor::field_metadata).
KeyValueMetadata LeafFieldMetadata(const SchemaElement& e, const DataType& type,
                                   const std::vector<KeyValue>* file_key_values) {
  if (e.logical_type && IsGeospatial(*e.logical_type) && type.id() == TypeId::kBinary) {
    return WithGeoArrowExtension({}, *e.logical_type, file_key_values);
  }
  // The same rule as LeafValueType: the logical type's parameters when it is DECIMAL.
  const bool logical = e.logical_type && e.logical_type->kind == LogicalType::Kind::kDecimal;
  if ((logical || e.converted_type == ConvertedType::kDecimal) && type.id() == TypeId::kString) {
    return KeyValueMetadata({{std::string(kDecimalTextMetadataKey),
                              fmt::format("decimal({}, {})", logical ? e.logical_type->precision : e.precision.value_or(0),
                                          logical ? e.logical_type->scale : e.scale.value_or(0))}});
  }
  return {};
}

}  // namespace

bool IsVariantGroup(const SchemaNode& node) {
  const auto& logical = node.element->logical_type;
  return !node.is_leaf() && logical && logical->kind == LogicalType::Kind::kVariant;
}

Result<TypePtr> LeafValueType(const SchemaElement& e, const SchemaOptions& options) {
  if (!e.type) return Status::Corrupt("schema leaf '{}' has no physical type", e.name);
  const PhysicalType physical = *e.type;
  const LogicalType* logical = e.logical_type ? &*e.logical_type : nullptr;
  const auto kind = logical ? logical->kind : LogicalType::Kind::kUnrecognized;
  const auto converted = e.converted_type;
  auto has_converted = [&](ConvertedType c) { return converted && *converted == c; };

  // INTERVAL has no logical type; parquet-mr writes UNKNOWN (NullType) beside it, which must not
  // turn its values into nulls. A recognised logical type of another kind decides instead.
  const bool interval_logical = kind == LogicalType::Kind::kUnrecognized || kind == LogicalType::Kind::kNull;
  if (physical == PhysicalType::kFixedLenByteArray && has_converted(ConvertedType::kInterval) && interval_logical) {
    if (e.type_length.value_or(-1) != 12) {
      return Status::Corrupt("INTERVAL column '{}' has type_length {}, not 12", e.name, e.type_length.value_or(-1));
    }
    return month_day_nano_interval();
  }
  if (kind == LogicalType::Kind::kNull) return null();
  const bool is_decimal = kind == LogicalType::Kind::kDecimal || has_converted(ConvertedType::kDecimal);
  if (is_decimal && physical != PhysicalType::kBoolean && physical != PhysicalType::kFloat &&
      physical != PhysicalType::kDouble && physical != PhysicalType::kInt96) {
    const int32_t precision = kind == LogicalType::Kind::kDecimal ? logical->precision : e.precision.value_or(0);
    const int32_t scale = kind == LogicalType::Kind::kDecimal ? logical->scale : e.scale.value_or(0);
    if (precision > kMaxDecimal256Precision &&
        (physical == PhysicalType::kByteArray || physical == PhysicalType::kFixedLenByteArray) && scale >= 0 &&
        scale <= precision) {
      return utf8();  // wider than decimal256: exact text (decimal_text.h)
    }
    return DecimalType(e, precision, scale);
  }

  switch (physical) {
    case PhysicalType::kBoolean:
      return boolean();
    case PhysicalType::kInt32:
      if (kind == LogicalType::Kind::kInteger) return IntegerType(logical->bit_width, logical->is_signed);
      if (kind == LogicalType::Kind::kDate || has_converted(ConvertedType::kDate)) return date32();
      if (kind == LogicalType::Kind::kTime) return time32(ToTimeUnit(logical->unit));
      if (has_converted(ConvertedType::kTimeMillis)) return time32(::strata::TimeUnit::kMilli);
      if (has_converted(ConvertedType::kInt8)) return int8();
      if (has_converted(ConvertedType::kInt16)) return int16();
      if (has_converted(ConvertedType::kUint8)) return uint8();
      if (has_converted(ConvertedType::kUint16)) return uint16();
      if (has_converted(ConvertedType::kUint32)) return uint32();
      return int32();
    case PhysicalType::kInt64:
      if (kind == LogicalType::Kind::kInteger) return IntegerType(logical->bit_width, logical->is_signed);
      if (kind == LogicalType::Kind::kTimestamp) {
        return timestamp(ToTimeUnit(logical->unit), logical->is_adjusted_to_utc ? "UTC" : "");
      }
      if (kind == LogicalType::Kind::kTime) return time64(ToTimeUnit(logical->unit));
      if (has_converted(ConvertedType::kTimestampMillis)) return timestamp(::strata::TimeUnit::kMilli, "UTC");
      if (has_converted(ConvertedType::kTimestampMicros)) return timestamp(::strata::TimeUnit::kMicro, "UTC");
      if (has_converted(ConvertedType::kTimeMicros)) return time64(::strata::TimeUnit::kMicro);
      if (has_converted(ConvertedType::kUint64)) return uint64();
      return int64();
    case PhysicalType::kInt96:
      if (options.int96_unit != ::strata::TimeUnit::kNano && options.int96_unit != ::strata::TimeUnit::kMicro &&
          options.int96_unit != ::strata::TimeUnit::kMilli) {
        return Status::Invalid("INT96 reads as nanoseconds, microseconds or milliseconds, not {}",
                               TimeUnitName(options.int96_unit));
      }
      return timestamp(options.int96_wrap ? ::strata::TimeUnit::kNano : options.int96_unit);
    case PhysicalType::kFloat:
      return float32();
    case PhysicalType::kDouble:
      return float64();
    case PhysicalType::kByteArray:
      if (kind == LogicalType::Kind::kString || kind == LogicalType::Kind::kEnum ||
          kind == LogicalType::Kind::kJson || has_converted(ConvertedType::kUtf8) ||
          has_converted(ConvertedType::kEnum) || has_converted(ConvertedType::kJson)) {
        return utf8();
      }
      return binary();
    case PhysicalType::kFixedLenByteArray: {
      const int32_t width = e.type_length.value_or(-1);
      if (width < 0) return Status::Corrupt("FIXED_LEN_BYTE_ARRAY column '{}' has no type_length", e.name);
      if (width > kMaxFixedSizeBinaryWidth) {
        return Status::Corrupt("FIXED_LEN_BYTE_ARRAY column '{}' has type_length {}, above {}", e.name, width,
                               kMaxFixedSizeBinaryWidth);
      }
      if (kind == LogicalType::Kind::kFloat16) {
        if (width != 2) return Status::Corrupt("FLOAT16 column '{}' has type_length {}, not 2", e.name, width);
        return float16();
      }
      if (kind == LogicalType::Kind::kUuid && width != 16) {
        return Status::Corrupt("UUID column '{}' has type_length {}, not 16", e.name, width);
      }
      return fixed_size_binary(width);
    }
  }
  return Status::Corrupt("schema leaf '{}' has unknown physical type {}", e.name, static_cast<int>(physical));
}

Result<std::shared_ptr<SchemaDescriptor>> SchemaDescriptor::Make(const std::vector<SchemaElement>& elements,
                                                                 const SchemaOptions& options,
                                                                 const std::vector<KeyValue>* file_key_values) {
  auto descriptor = std::shared_ptr<SchemaDescriptor>(new SchemaDescriptor());
  STRATA_RETURN_NOT_OK(descriptor->Build(elements, options, file_key_values));
  return descriptor;
}

Status SchemaDescriptor::Build(const std::vector<SchemaElement>& elements, const SchemaOptions& options,
                               const std::vector<KeyValue>* file_key_values) {
  if (elements.empty()) return Status::Corrupt("the schema is empty (no root element)");
  const SchemaElement* root_element = &elements[0];
  if (root_element->type) {
    // A root with children is the schema's group whatever type it also claims.
    if (root_element->num_children.value_or(0) <= 0) {
      return Status::Corrupt("the schema root '{}' has a physical type and no children", root_element->name);
    }
    untyped_root_ = std::make_unique<SchemaElement>(*root_element);
    untyped_root_->type.reset();
    untyped_root_->type_length.reset();
    root_element = untyped_root_.get();
  }
  const SchemaElement& root = *root_element;
  nodes_.reserve(elements.size());
  // Iterative depth-first walk; `open` holds (node, children still expected).
  struct Open {
    int node;
    int remaining;
  };
  std::vector<Open> open;
  nodes_.push_back(SchemaNode{&root, -1, {}, 0, 0, -1});
  open.push_back({0, root.num_children.value_or(0)});
  if (root.num_children.value_or(0) < 0) return Status::Corrupt("the schema root declares {} children", *root.num_children);
  size_t next = 1;
  while (!open.empty()) {
    if (open.back().remaining == 0) {
      open.pop_back();
      continue;
    }
    if (next >= elements.size()) {
      return Status::Corrupt("schema element '{}' declares more children than the schema holds ({} elements)",
                             nodes_[static_cast<size_t>(open.back().node)].element->name, elements.size());
    }
    if (open.size() > kMaxSchemaDepth) return Status::LimitExceeded("schema nesting deeper than {}", kMaxSchemaDepth);
    --open.back().remaining;
    const SchemaElement& e = elements[next++];
    const int parent = open.back().node;
    const SchemaNode& p = nodes_[static_cast<size_t>(parent)];
    SchemaNode node{&e, parent, {}, p.max_definition_level, p.max_repetition_level, -1};
    const auto repetition = e.repetition_type.value_or(FieldRepetitionType::kRequired);
    if (repetition == FieldRepetitionType::kOptional) ++node.max_definition_level;
    if (repetition == FieldRepetitionType::kRepeated) {
      ++node.max_definition_level;
      ++node.max_repetition_level;
    }
    const int index = static_cast<int>(nodes_.size());
    const int num_children = e.num_children.value_or(0);
    if (num_children < 0) return Status::Corrupt("schema element '{}' declares {} children", e.name, num_children);
    const bool is_group = e.num_children.has_value() && !e.type;
    if (!is_group) {
      if (!e.type) return Status::Corrupt("schema leaf '{}' has no physical type", e.name);
      node.leaf_index = static_cast<int>(columns_.size());
    }
    nodes_.push_back(std::move(node));
    nodes_[static_cast<size_t>(parent)].children.push_back(index);
    if (is_group) {
      open.push_back({index, num_children});
    } else {
      ColumnDescriptor column;
      column.column_index = nodes_[static_cast<size_t>(index)].leaf_index;
      column.node_index = index;
      for (int n = index; n > 0; n = nodes_[static_cast<size_t>(n)].parent) {
        column.path.insert(column.path.begin(), nodes_[static_cast<size_t>(n)].element->name);
      }
      for (size_t i = 0; i < column.path.size(); ++i) {
        if (i) column.dotted_path += '.';
        column.dotted_path += column.path[i];
      }
      column.physical_type = *e.type;
      column.type_length = e.type_length.value_or(0);
      if (column.physical_type == PhysicalType::kFixedLenByteArray && column.type_length <= 0) {
        return Status::Corrupt("FIXED_LEN_BYTE_ARRAY column '{}' has type_length {}", column.dotted_path,
                               column.type_length);
      }
      column.max_definition_level = nodes_[static_cast<size_t>(index)].max_definition_level;
      column.max_repetition_level = nodes_[static_cast<size_t>(index)].max_repetition_level;
      column.element = &e;
      auto type = LeafValueType(e, options);
      if (!type.ok()) return type.status().WithContext(fmt::format("column '{}'", column.dotted_path));
      column.type = *type;
      column.int96_wrap = options.int96_wrap;
      column.field_metadata = LeafFieldMetadata(e, *column.type, file_key_values);
      columns_.push_back(std::move(column));
    }
  }
  if (next != elements.size()) {
    return Status::Corrupt("the schema holds {} elements but its tree covers only {}", elements.size(), next);
  }
  // Leaf ranges of the top-level fields.
  int column = 0;
  for (int child : root_children()) {
    field_first_column_.push_back(column);
    std::vector<int> stack{child};
    while (!stack.empty()) {
      const SchemaNode& n = nodes_[static_cast<size_t>(stack.back())];
      stack.pop_back();
      if (n.is_leaf()) ++column;
      for (int c : n.children) stack.push_back(c);
    }
  }
  field_first_column_.push_back(column);

  std::vector<FieldPtr> fields;
  for (int child : root_children()) {
    STRATA_ASSIGN_OR_RETURN(auto f, MakeField(child));
    fields.push_back(std::move(f));
  }
  schema_ = std::make_shared<Schema>(std::move(fields));
  return Status::OK();
}

int SchemaDescriptor::field_first_column(int field) const { return field_first_column_[static_cast<size_t>(field)]; }
int SchemaDescriptor::field_num_columns(int field) const {
  return field_first_column_[static_cast<size_t>(field) + 1] - field_first_column_[static_cast<size_t>(field)];
}

int SchemaDescriptor::FieldIndex(const std::string& name) const {
  const auto& children = root().children;
  for (size_t i = 0; i < children.size(); ++i) {
    if (nodes_[static_cast<size_t>(children[i])].element->name == name) return static_cast<int>(i);
  }
  return -1;
}

Result<FieldPtr> SchemaDescriptor::MakeField(int node_index, bool variant_storage) const {
  const SchemaNode& n = node(node_index);
  const SchemaElement& e = *n.element;
  KeyValueMetadata metadata;
  if (e.field_id) metadata = KeyValueMetadata({{"PARQUET:field_id", std::to_string(*e.field_id)}});
  const auto repetition = n.repetition();
  const bool nullable = repetition == FieldRepetitionType::kOptional;
  if (!variant_storage && IsVariantGroup(n)) {
    // Read as Arrow's canonical variant, shredded or not: the reader rebuilds each value.
    auto type = variant::VariantStorageType();
    metadata = variant::WithVariantExtension(std::move(metadata));
    if (repetition == FieldRepetitionType::kRepeated) {
      return field(e.name, list(field(e.name, type, false, metadata)), false);
    }
    return field(e.name, type, nullable, std::move(metadata));
  }

  // A repeated field outside a LIST or MAP annotation is a required list of required elements.
  auto wrap_repeated = [&](TypePtr element_type) -> FieldPtr {
    auto element = field(e.name, std::move(element_type), false);
    return field(e.name, list(element), false, metadata);
  };

  if (n.is_leaf()) {
    const ColumnDescriptor& column = columns_[static_cast<size_t>(n.leaf_index)];
    const TypePtr& type = column.type;
    for (const auto& [key, value] : column.field_metadata.pairs()) metadata.Set(key, value);
    if (repetition == FieldRepetitionType::kRepeated) return wrap_repeated(type);
    return field(e.name, type, nullable, metadata);
  }

  const bool is_list = (e.logical_type && e.logical_type->kind == LogicalType::Kind::kList) ||
                       (e.converted_type && *e.converted_type == ConvertedType::kList);
  const bool is_map = (e.logical_type && e.logical_type->kind == LogicalType::Kind::kMap) ||
                      (e.converted_type && (*e.converted_type == ConvertedType::kMap ||
                                            *e.converted_type == ConvertedType::kMapKeyValue));
  if (is_list && n.children.size() == 1 && node(n.children[0]).repetition() == FieldRepetitionType::kRepeated) {
    const SchemaNode& repeated = node(n.children[0]);
    const std::string& repeated_name = repeated.element->name;
    FieldPtr element;
    // LogicalTypes.md backward-compatibility rules: the repeated field is itself the element
    // when it is a primitive, a group of several fields, or named "array" / "<list>_tuple".
    if (repeated.is_leaf() || repeated.children.size() != 1 || repeated_name == "array" ||
        repeated_name == e.name + "_tuple") {
      const SchemaElement& re = *repeated.element;
      const bool repeated_is_annotated =
          (re.logical_type && (re.logical_type->kind == LogicalType::Kind::kList ||
                               re.logical_type->kind == LogicalType::Kind::kMap)) ||
          (re.converted_type && (*re.converted_type == ConvertedType::kList || *re.converted_type == ConvertedType::kMap));
      if (repeated.is_leaf()) {
        element = field(repeated_name, columns_[static_cast<size_t>(repeated.leaf_index)].type, false);
      } else if (repeated_is_annotated) {
        // The element is itself a LIST or MAP (old_list_structure.parquet: a 2-level
        // list<list<int32>> whose repeated group "array" is annotated LIST): its type is that
        // of the group read as a required field, which MakeField wraps as repeated.
        STRATA_ASSIGN_OR_RETURN(auto wrapped, MakeField(n.children[0]));
        element = field(repeated_name, wrapped->type()->value_field()->type(), false);
      } else {
        std::vector<FieldPtr> members;
        for (int c : repeated.children) {
          STRATA_ASSIGN_OR_RETURN(auto m, MakeField(c));
          members.push_back(std::move(m));
        }
        element = field(repeated_name, struct_(std::move(members)), false);
      }
    } else {
      STRATA_ASSIGN_OR_RETURN(element, MakeField(repeated.children[0]));
    }
    auto type = list(element);
    if (repetition == FieldRepetitionType::kRepeated) return wrap_repeated(type);
    return field(e.name, type, nullable, metadata);
  }
  if (is_map && n.children.size() == 1 && node(n.children[0]).repetition() == FieldRepetitionType::kRepeated &&
      !node(n.children[0]).is_leaf() && !node(n.children[0]).children.empty()) {
    const SchemaNode& key_value = node(n.children[0]);
    STRATA_ASSIGN_OR_RETURN(auto key, MakeField(key_value.children[0]));
    TypePtr type;
    if (key_value.children.size() >= 2) {
      STRATA_ASSIGN_OR_RETURN(auto item, MakeField(key_value.children[1]));
      type = map(key->type(), item);
    } else {
      // A map without values (map_no_value.parquet): keys with null items, as other readers do.
      type = map(key->type(), field("value", null(), true));
    }
    if (repetition == FieldRepetitionType::kRepeated) return wrap_repeated(type);
    return field(e.name, type, nullable, metadata);
  }
  std::vector<FieldPtr> members;
  for (int c : n.children) {
    STRATA_ASSIGN_OR_RETURN(auto m, MakeField(c));
    members.push_back(std::move(m));
  }
  auto type = struct_(std::move(members));
  if (repetition == FieldRepetitionType::kRepeated) return wrap_repeated(type);
  return field(e.name, type, nullable, metadata);
}

std::string SchemaDescriptor::ToTreeString() const {
  std::string out;
  struct Item {
    int node;
    int depth;
  };
  std::vector<Item> stack{{0, 0}};
  while (!stack.empty()) {
    const Item item = stack.back();
    stack.pop_back();
    const SchemaNode& n = node(item.node);
    const SchemaElement& e = *n.element;
    out.append(static_cast<size_t>(item.depth) * 2, ' ');
    if (item.node == 0) {
      out += fmt::format("message {}", e.name.empty() ? "schema" : e.name);
    } else {
      out += FieldRepetitionTypeName(n.repetition());
      out += ' ';
      if (n.is_leaf()) {
        out += PhysicalTypeName(*e.type);
        if (*e.type == PhysicalType::kFixedLenByteArray) out += fmt::format("({})", e.type_length.value_or(0));
      } else {
        out += "group";
      }
      out += ' ';
      out += e.name;
      if (e.logical_type) {
        out += fmt::format(" ({})", LogicalTypeToString(*e.logical_type));
      } else if (e.converted_type) {
        out += fmt::format(" ({})", ConvertedTypeName(*e.converted_type));
      }
      if (n.is_leaf()) {
        const ColumnDescriptor& c = columns_[static_cast<size_t>(n.leaf_index)];
        out += fmt::format(" -> {}  [def {}, rep {}]", c.type->ToString(), c.max_definition_level,
                           c.max_repetition_level);
      }
      if (e.field_id) out += fmt::format(" id={}", *e.field_id);
    }
    out += '\n';
    for (size_t i = n.children.size(); i-- > 0;) stack.push_back({n.children[i], item.depth + 1});
  }
  return out;
}

int64_t SchemaDescriptor::heap_bytes() const {
  auto vector_bytes = [](const auto& v) {
    return static_cast<int64_t>(v.capacity() * sizeof(typename std::decay_t<decltype(v)>::value_type));
  };
  int64_t bytes = vector_bytes(nodes_) + vector_bytes(columns_) + vector_bytes(field_first_column_);
  for (const SchemaNode& n : nodes_) bytes += vector_bytes(n.children);
  for (const ColumnDescriptor& c : columns_) {
    bytes += vector_bytes(c.path) + HeapBytes(c.dotted_path) + vector_bytes(c.field_metadata.pairs());
    for (const auto& [key, value] : c.field_metadata.pairs()) bytes += HeapBytes(key) + HeapBytes(value);
    for (const std::string& part : c.path) bytes += HeapBytes(part);
  }
  if (untyped_root_) bytes += static_cast<int64_t>(sizeof(SchemaElement)) + HeapBytes(untyped_root_->name);
  return bytes;
}

}  // namespace strata::parquet
