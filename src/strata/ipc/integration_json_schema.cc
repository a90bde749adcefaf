#include "strata/ipc/integration_json_schema.h"

namespace strata::ipc::integration_json {

Result<KeyValueMetadata> ParseMetadata(const Json& v, const std::string& ctx) {
  KeyValueMetadata metadata;
  if (v.is_null()) return metadata;
  if (v.is_array()) {
    for (const Json& kv : v) {
      STRATA_ASSIGN_OR_RETURN(const Json* k, Required(kv, "key", ctx + " metadata"));
      STRATA_ASSIGN_OR_RETURN(const Json* val, Required(kv, "value", ctx + " metadata"));
      STRATA_ASSIGN_OR_RETURN(std::string key, GetString(*k, ctx + " metadata key"));
      STRATA_ASSIGN_OR_RETURN(std::string value, GetString(*val, ctx + " metadata value"));
      metadata.Set(std::move(key), std::move(value));
    }
    return metadata;
  }
  if (v.is_object()) {  // some producers write a plain object
    for (auto it = v.begin(); it != v.end(); ++it) {
      STRATA_ASSIGN_OR_RETURN(std::string value, GetString(it.value(), ctx + " metadata value"));
      metadata.Set(it.key(), std::move(value));
    }
    return metadata;
  }
  return Status::Invalid("{}: metadata must be an array of {{key, value}}, got {}", ctx, v.type_name());
}

namespace {


Result<TypePtr> ParseIntType(const Json& type, const std::string& ctx) {
  STRATA_ASSIGN_OR_RETURN(const Json* bw, Required(type, "bitWidth", ctx));
  STRATA_ASSIGN_OR_RETURN(int bits, GetInteger<int>(*bw, ctx + " bitWidth"));
  STRATA_ASSIGN_OR_RETURN(const Json* sg, Required(type, "isSigned", ctx));
  STRATA_ASSIGN_OR_RETURN(bool is_signed, GetBool(*sg, ctx + " isSigned"));
  switch (bits) {
    case 8: return is_signed ? int8() : uint8();
    case 16: return is_signed ? int16() : uint16();
    case 32: return is_signed ? int32() : uint32();
    case 64: return is_signed ? int64() : uint64();
    default: return Status::Invalid("{}: integer bitWidth {} (expected 8, 16, 32 or 64)", ctx, bits);
  }
}

Status ExpectChildren(const std::vector<FieldNode>& children, size_t n, const std::string& type_name,
                      const std::string& ctx) {
  if (children.size() != n) {
    return Status::Invalid("{}: type {} needs {} child field(s), got {}", ctx, type_name, n, children.size());
  }
  return Status::OK();
}

Result<TypePtr> ParseType(const Json& type, const std::vector<FieldNode>& children, const std::string& ctx) {
  if (!type.is_object()) return Status::Invalid("{}: \"type\" must be an object", ctx);
  STRATA_ASSIGN_OR_RETURN(const Json* n, Required(type, "name", ctx + " type"));
  STRATA_ASSIGN_OR_RETURN(std::string name, GetString(*n, ctx + " type name"));
  auto leaf = [&](TypePtr t) -> Result<TypePtr> {
    STRATA_RETURN_NOT_OK(ExpectChildren(children, 0, name, ctx));
    return t;
  };
  if (name == "null") return leaf(null());
  if (name == "bool") return leaf(boolean());
  if (name == "int") {
    STRATA_ASSIGN_OR_RETURN(TypePtr t, ParseIntType(type, ctx));
    return leaf(t);
  }
  if (name == "floatingpoint") {
    STRATA_ASSIGN_OR_RETURN(const Json* p, Required(type, "precision", ctx));
    STRATA_ASSIGN_OR_RETURN(std::string precision, GetString(*p, ctx + " precision"));
    if (precision == "HALF") return leaf(float16());
    if (precision == "SINGLE") return leaf(float32());
    if (precision == "DOUBLE") return leaf(float64());
    return Status::Invalid("{}: unknown floating point precision \"{}\"", ctx, precision);
  }
  if (name == "binary") return leaf(binary());
  if (name == "utf8") return leaf(utf8());
  if (name == "largebinary") return leaf(large_binary());
  if (name == "largeutf8") return leaf(large_utf8());
  if (name == "binaryview") return leaf(binary_view());
  if (name == "utf8view") return leaf(utf8_view());
  if (name == "fixedsizebinary") {
    STRATA_ASSIGN_OR_RETURN(const Json* w, Required(type, "byteWidth", ctx));
    STRATA_ASSIGN_OR_RETURN(int32_t width, GetInteger<int32_t>(*w, ctx + " byteWidth"));
    // DataType keeps the width in bits as an int: wider types cannot be represented.
    if (width > std::numeric_limits<int32_t>::max() / 8) {
      return Status::LimitExceeded("{}: fixedsizebinary byteWidth {} is too large", ctx, width);
    }
    STRATA_ASSIGN_OR_RETURN(TypePtr t, MakeFixedSizeBinary(width));
    return leaf(t);
  }
  if (name == "decimal") {
    STRATA_ASSIGN_OR_RETURN(const Json* p, Required(type, "precision", ctx));
    STRATA_ASSIGN_OR_RETURN(int32_t precision, GetInteger<int32_t>(*p, ctx + " precision"));
    STRATA_ASSIGN_OR_RETURN(const Json* s, Required(type, "scale", ctx));
    STRATA_ASSIGN_OR_RETURN(int32_t scale, GetInteger<int32_t>(*s, ctx + " scale"));
    int bits = 128;
    if (const Json* bw = Member(type, "bitWidth")) {
      STRATA_ASSIGN_OR_RETURN(bits, GetInteger<int>(*bw, ctx + " bitWidth"));
    }
    if (bits != 32 && bits != 64 && bits != 128 && bits != 256) return Status::Invalid("{}: decimal bitWidth {}", ctx, bits);
    auto t = MakeDecimalOfWidth(bits, precision, scale);
    if (!t.ok()) return t.status().WithContext(ctx);
    return leaf(*t);
  }
  if (name == "date") {
    STRATA_ASSIGN_OR_RETURN(const Json* u, Required(type, "unit", ctx));
    STRATA_ASSIGN_OR_RETURN(std::string unit, GetString(*u, ctx + " unit"));
    if (unit == "DAY") return leaf(date32());
    if (unit == "MILLISECOND") return leaf(date64());
    return Status::Invalid("{}: unknown date unit \"{}\"", ctx, unit);
  }
  if (name == "time") {
    STRATA_ASSIGN_OR_RETURN(TimeUnit unit, ParseUnit(type, ctx));
    const bool is32 = unit == TimeUnit::kSecond || unit == TimeUnit::kMilli;
    if (const Json* bw = Member(type, "bitWidth")) {
      STRATA_ASSIGN_OR_RETURN(int bits, GetInteger<int>(*bw, ctx + " bitWidth"));
      if (bits != (is32 ? 32 : 64)) {
        return Status::Invalid("{}: time unit {} with bitWidth {}", ctx, UnitJsonName(unit), bits);
      }
    }
    STRATA_ASSIGN_OR_RETURN(TypePtr t, is32 ? MakeTime32(unit) : MakeTime64(unit));
    return leaf(t);
  }
  if (name == "timestamp") {
    STRATA_ASSIGN_OR_RETURN(TimeUnit unit, ParseUnit(type, ctx));
    std::string tz;
    if (const Json* z = Member(type, "timezone"); z != nullptr && !z->is_null()) {
      STRATA_ASSIGN_OR_RETURN(tz, GetString(*z, ctx + " timezone"));
    }
    return leaf(timestamp(unit, std::move(tz)));
  }
  if (name == "duration") {
    STRATA_ASSIGN_OR_RETURN(TimeUnit unit, ParseUnit(type, ctx));
    return leaf(duration(unit));
  }
  if (name == "list" || name == "largelist") {
    STRATA_RETURN_NOT_OK(ExpectChildren(children, 1, name, ctx));
    return name == "list" ? list(children[0].field) : large_list(children[0].field);
  }
  if (name == "fixedsizelist") {
    STRATA_RETURN_NOT_OK(ExpectChildren(children, 1, name, ctx));
    STRATA_ASSIGN_OR_RETURN(const Json* s, Required(type, "listSize", ctx));
    STRATA_ASSIGN_OR_RETURN(int32_t size, GetInteger<int32_t>(*s, ctx + " listSize"));
    return MakeFixedSizeList(children[0].field, size);
  }
  if (name == "struct") {
    std::vector<FieldPtr> fields;
    fields.reserve(children.size());
    for (const FieldNode& c : children) fields.push_back(c.field);
    return struct_(std::move(fields));
  }
  if (name == "map") {
    STRATA_RETURN_NOT_OK(ExpectChildren(children, 1, name, ctx));
    bool keys_sorted = false;
    if (const Json* k = Member(type, "keysSorted")) {
      STRATA_ASSIGN_OR_RETURN(keys_sorted, GetBool(*k, ctx + " keysSorted"));
    }
    auto t = MakeMap(children[0].field, keys_sorted);
    if (!t.ok()) return t.status().WithContext(ctx);
    return t;
  }
  if (name == "interval") {
    STRATA_ASSIGN_OR_RETURN(const Json* u, Required(type, "unit", ctx));
    STRATA_ASSIGN_OR_RETURN(std::string unit, GetString(*u, ctx + " unit"));
    if (unit == "YEAR_MONTH") return leaf(year_month_interval());
    if (unit == "DAY_TIME") return leaf(day_time_interval());
    if (unit == "MONTH_DAY_NANO") return leaf(month_day_nano_interval());
    return Status::Invalid("{}: unknown interval unit \"{}\"", ctx, unit);
  }
  if (name == "union") {
    STRATA_ASSIGN_OR_RETURN(const Json* m, Required(type, "mode", ctx));
    STRATA_ASSIGN_OR_RETURN(std::string mode, GetString(*m, ctx + " mode"));
    if (mode != "SPARSE" && mode != "DENSE") return Status::Invalid("{}: unknown union mode \"{}\"", ctx, mode);
    std::vector<int8_t> codes;
    if (const Json* ids = Member(type, "typeIds"); ids != nullptr && !ids->is_null()) {
      if (!ids->is_array()) return Status::Invalid("{}: typeIds must be an array", ctx);
      for (const Json& id : *ids) {
        STRATA_ASSIGN_OR_RETURN(int code, GetInteger<int>(id, ctx + " typeIds"));
        if (code < 0 || code > kMaxUnionTypeCode) return Status::Invalid("{}: union type id {}", ctx, code);
        codes.push_back(static_cast<int8_t>(code));
      }
    }
    std::vector<FieldPtr> fields;
    for (const FieldNode& c : children) fields.push_back(c.field);
    auto t = mode == "DENSE" ? MakeDenseUnion(std::move(fields), std::move(codes))
                             : MakeSparseUnion(std::move(fields), std::move(codes));
    if (!t.ok()) return t.status().WithContext(ctx);
    return t;
  }
  if (name == "runendencoded") {
    STRATA_RETURN_NOT_OK(ExpectChildren(children, 2, name, ctx));
    STRATA_ASSIGN_OR_RETURN(TypePtr t, MakeRunEndEncoded(children[0].field->type(), children[1].field->type()));
    return t;
  }
  if (name == "listview" || name == "largelistview") {
    STRATA_RETURN_NOT_OK(ExpectChildren(children, 1, name, ctx));
    return name == "listview" ? list_view(children[0].field) : large_list_view(children[0].field);
  }
  return Status::NotImplemented("field '{}': unknown integration JSON type \"{}\"", ctx, name);
}

}  // namespace

Result<FieldNode> SchemaParser::ParseField(const Json& f, const std::string& parent, std::vector<int> path,
                                          int depth) {
  if (!f.is_object()) return Status::Invalid("{}: a field must be an object", parent.empty() ? "schema" : parent);
  std::string name;
  if (const Json* n = Member(f, "name"); n != nullptr && !n->is_null()) {
    STRATA_ASSIGN_OR_RETURN(name, GetString(*n, JoinPath(parent, "<field>") + " name"));
  }
  FieldNode node;
  node.path = JoinPath(parent, name);
  const std::string& ctx = node.path;
  if (depth > kMaxDepth) return Status::LimitExceeded("{}: fields nested deeper than {}", ctx, kMaxDepth);
  bool nullable = true;
  if (const Json* n = Member(f, "nullable")) { STRATA_ASSIGN_OR_RETURN(nullable, GetBool(*n, ctx + " nullable")); }
  if (const Json* c = Member(f, "children"); c != nullptr && !c->is_null()) {
    if (!c->is_array()) return Status::Invalid("{}: \"children\" must be an array", ctx);
    for (size_t i = 0; i < c->size(); ++i) {
      std::vector<int> child_path = path;
      child_path.push_back(static_cast<int>(i));
      STRATA_ASSIGN_OR_RETURN(FieldNode child, ParseField((*c)[i], ctx, std::move(child_path), depth + 1));
      node.children.push_back(std::move(child));
    }
  }
  STRATA_ASSIGN_OR_RETURN(const Json* t, Required(f, "type", ctx));
  STRATA_ASSIGN_OR_RETURN(node.value_type, ParseType(*t, node.children, ctx));
  KeyValueMetadata metadata;
  if (const Json* m = Member(f, "metadata")) { STRATA_ASSIGN_OR_RETURN(metadata, ParseMetadata(*m, ctx)); }
  TypePtr field_type = node.value_type;
  if (const Json* d = Member(f, "dictionary"); d != nullptr && !d->is_null()) {
    STRATA_ASSIGN_OR_RETURN(const Json* id, Required(*d, "id", ctx + " dictionary"));
    STRATA_ASSIGN_OR_RETURN(node.dict_id, GetInteger<int64_t>(*id, ctx + " dictionary id"));
    if (node.dict_id < 0) return Status::Invalid("{}: negative dictionary id {}", ctx, node.dict_id);
    TypePtr index_type = int32();  // the format's default
    if (const Json* it = Member(*d, "indexType")) {
      STRATA_ASSIGN_OR_RETURN(index_type, ParseIntType(*it, ctx + " dictionary indexType"));
    }
    bool ordered = false;
    if (const Json* o = Member(*d, "isOrdered")) { STRATA_ASSIGN_OR_RETURN(ordered, GetBool(*o, ctx + " isOrdered")); }
    STRATA_ASSIGN_OR_RETURN(field_type, MakeDictionary(index_type, node.value_type, ordered));
    // One id, one value type (dictionaries may be shared by several fields).
    auto [it, inserted] = value_nodes_.emplace(node.dict_id, FieldNode{});
    if (!inserted && !it->second.value_type->Equals(*node.value_type)) {
      return Status::Invalid("{}: dictionary id {} has value type {} here and {} at '{}'", ctx, node.dict_id,
                             node.value_type->ToString(), it->second.value_type->ToString(), it->second.path);
    }
    dictionary_fields_.push_back({path, node.path, node.dict_id});
  }
  node.field = field(name, field_type, nullable, std::move(metadata));
  if (node.dict_id >= 0) {
    // The node the dictionary's own values are read with: the value type, no encoding.
    FieldNode& value = value_nodes_[node.dict_id];
    if (value.field == nullptr) {
      value.field = field(name, node.value_type, true);
      value.path = node.path + " (dictionary " + std::to_string(node.dict_id) + ")";
      value.value_type = node.value_type;
      value.children = node.children;
    }
  }
  return node;
}

}  // namespace strata::ipc::integration_json
