// Schema: the top-level fields of a record batch, table or file, plus key/value metadata.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "strata/types/field.h"

namespace strata {

class Schema {
 public:
  explicit Schema(std::vector<FieldPtr> fields, KeyValueMetadata metadata = {})
      : fields_(std::move(fields)), metadata_(std::move(metadata)) {}

  const std::vector<FieldPtr>& fields() const { return fields_; }
  int num_fields() const { return static_cast<int>(fields_.size()); }
  const FieldPtr& field(int i) const { return fields_[static_cast<size_t>(i)]; }
  const KeyValueMetadata& metadata() const { return metadata_; }

  // Index of the first top-level field called `name`, or -1.
  int GetFieldIndex(std::string_view name) const;
  // The first field called `name`, or nullptr.
  FieldPtr GetFieldByName(std::string_view name) const;

  // One field per line, nested children indented by two spaces:
  //   id: int64 not null
  //   tags: list
  //     item: string
  // then the metadata, if any, under "-- metadata --".
  std::string ToString() const;
  // Fields equal in order; metadata (schema and fields) too when `check_metadata`.
  bool Equals(const Schema& other, bool check_metadata = false) const;

 private:
  std::vector<FieldPtr> fields_;
  KeyValueMetadata metadata_;
};

using SchemaPtr = std::shared_ptr<const Schema>;

SchemaPtr schema(std::vector<FieldPtr> fields, KeyValueMetadata metadata = {});

// The value type of the leaf at `path` (a top-level field index, then child indexes through
// structs), a dictionary's value type for a dictionary; nullptr when the path names no field.
// Filters bind leaves by such paths.
const DataType* TypeAtLeafPath(const Schema& schema, const std::vector<int>& path);

}  // namespace strata
