// Test support: the schema part of Arrow's integration JSON (fields, types, metadata,
// dictionary encodings) as strata fields. Internal to integration_json.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "strata/ipc/integration_json.h"
#include "strata/ipc/integration_json_util.h"
#include "strata/types/field.h"

namespace strata::ipc::integration_json {

// A field as the JSON describes it: the strata field, the dictionary id when it is
// dictionary-encoded, and its JSON children (for a dictionary field, those of the value type).
struct FieldNode {
  FieldPtr field;
  std::string path;  // dotted names, for messages
  int64_t dict_id = -1;
  TypePtr value_type;  // the field's type without the dictionary encoding
  std::vector<FieldNode> children;
};

// A "metadata" member: null, or an array of {"key", "value"} objects, in order.
Result<KeyValueMetadata> ParseMetadata(const Json& v, const std::string& ctx);

class SchemaParser {
 public:
  // The field `f` (at `path`, child indices from the schema down) and everything below it.
  Result<FieldNode> ParseField(const Json& f, const std::string& parent, std::vector<int> path, int depth);

  std::map<int64_t, FieldNode>& value_nodes() { return value_nodes_; }
  std::vector<IntegrationDictionaryField>& dictionary_fields() { return dictionary_fields_; }

 private:
  std::map<int64_t, FieldNode> value_nodes_;
  std::vector<IntegrationDictionaryField> dictionary_fields_;
};

}  // namespace strata::ipc::integration_json
