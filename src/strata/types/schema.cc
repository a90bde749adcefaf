#include "strata/types/schema.h"

#include <fmt/format.h>

namespace strata {

int Schema::GetFieldIndex(std::string_view name) const {
  for (size_t i = 0; i < fields_.size(); ++i) {
    if (fields_[i]->name() == name) return static_cast<int>(i);
  }
  return -1;
}

FieldPtr Schema::GetFieldByName(std::string_view name) const {
  const int i = GetFieldIndex(name);
  return i < 0 ? nullptr : fields_[static_cast<size_t>(i)];
}

namespace {

// Nested types print their kind on the field's line and their children below it; others
// print in full.
std::string ShortTypeName(const DataType& type) {
  switch (type.id()) {
    case TypeId::kList:
    case TypeId::kLargeList:
    case TypeId::kListView:
    case TypeId::kLargeListView:
    case TypeId::kRunEndEncoded:
    case TypeId::kStruct: return std::string(TypeIdName(type.id()));
    case TypeId::kSparseUnion:
    case TypeId::kDenseUnion: {
      std::string out = fmt::format("{}[", TypeIdName(type.id()));
      for (size_t i = 0; i < type.type_codes().size(); ++i) {
        out += fmt::format("{}{}", i > 0 ? "," : "", type.type_codes()[i]);
      }
      return out + "]";
    }
    case TypeId::kFixedSizeList: return fmt::format("fixed_size_list[{}]", type.list_size());
    case TypeId::kMap: return type.keys_sorted() ? "map (keys_sorted)" : "map";
    default: return type.ToString();
  }
}

void AppendFieldTree(const Field& f, int depth, std::string* out) {
  out->append(static_cast<size_t>(depth) * 2, ' ');
  // Arrow's canonical variant extension: its storage (metadata, value) is an encoding detail.
  if (f.metadata().Get("ARROW:extension:name") == "arrow.parquet.variant") {
    *out += fmt::format("{}: variant{}\n", f.name(), f.nullable() ? "" : " not null");
    return;
  }
  *out += fmt::format("{}: {}{}\n", f.name(), ShortTypeName(*f.type()), f.nullable() ? "" : " not null");
  if (has_children(f.type()->id())) {
    for (const FieldPtr& child : f.type()->fields()) AppendFieldTree(*child, depth + 1, out);
  }
}

}  // namespace

std::string Schema::ToString() const {
  std::string out;
  for (const FieldPtr& f : fields_) AppendFieldTree(*f, 0, &out);
  if (!metadata_.empty()) {
    out += "-- metadata --\n";
    for (const auto& [k, v] : metadata_.pairs()) out += fmt::format("{}: {}\n", k, v);
  }
  if (!out.empty()) out.pop_back();  // no trailing newline
  return out;
}

bool Schema::Equals(const Schema& other, bool check_metadata) const {
  if (this == &other) return true;
  if (fields_.size() != other.fields_.size()) return false;
  for (size_t i = 0; i < fields_.size(); ++i) {
    if (!fields_[i]->Equals(*other.fields_[i], check_metadata)) return false;
  }
  return !check_metadata || metadata_.Equals(other.metadata_);
}

SchemaPtr schema(std::vector<FieldPtr> fields, KeyValueMetadata metadata) {
  return std::make_shared<const Schema>(std::move(fields), std::move(metadata));
}

const DataType* TypeAtLeafPath(const Schema& schema, const std::vector<int>& path) {
  if (path.empty() || path[0] < 0 || path[0] >= schema.num_fields()) return nullptr;
  const DataType* type = schema.field(path[0])->type().get();
  for (size_t k = 1; k < path.size(); ++k) {
    if (type->id() != TypeId::kStruct || path[k] < 0 || path[k] >= type->num_fields()) return nullptr;
    type = type->field(path[k])->type().get();
  }
  if (type->id() == TypeId::kDictionary) type = type->value_type().get();
  return type;
}

}  // namespace strata
