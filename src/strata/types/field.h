// Field: a named, typed, nullable slot (a schema column or a nested child), with optional
// key/value metadata. Immutable and shared as FieldPtr.
#pragma once

#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "strata/types/data_type.h"

namespace strata {

// Ordered key/value string pairs (order is kept as written; keys are expected unique).
class KeyValueMetadata {
 public:
  KeyValueMetadata() = default;
  KeyValueMetadata(std::initializer_list<std::pair<std::string, std::string>> pairs) : pairs_(pairs) {}  // NOLINT
  explicit KeyValueMetadata(std::vector<std::pair<std::string, std::string>> pairs) : pairs_(std::move(pairs)) {}

  // The value of the first pair with this key, if any.
  std::optional<std::string_view> Get(std::string_view key) const;
  // Replaces the value of `key` if present, appends the pair otherwise.
  void Set(std::string key, std::string value);

  const std::vector<std::pair<std::string, std::string>>& pairs() const { return pairs_; }
  size_t size() const { return pairs_.size(); }
  bool empty() const { return pairs_.empty(); }

  bool Equals(const KeyValueMetadata& other) const { return pairs_ == other.pairs_; }
  // `{key: value, ...}`
  std::string ToString() const;

 private:
  std::vector<std::pair<std::string, std::string>> pairs_;
};

class Field {
 public:
  Field(std::string name, TypePtr type, bool nullable = true, KeyValueMetadata metadata = {})
      : name_(std::move(name)), type_(std::move(type)), nullable_(nullable), metadata_(std::move(metadata)) {}

  const std::string& name() const { return name_; }
  const TypePtr& type() const { return type_; }
  bool nullable() const { return nullable_; }
  const KeyValueMetadata& metadata() const { return metadata_; }

  // Copies with one attribute changed.
  FieldPtr WithName(std::string name) const;
  FieldPtr WithType(TypePtr type) const;
  FieldPtr WithNullable(bool nullable) const;
  FieldPtr WithMetadata(KeyValueMetadata metadata) const;

  // "name: type", plus " not null" when not nullable.
  std::string ToString() const;
  // Name, type and nullability; metadata too when `check_metadata`.
  bool Equals(const Field& other, bool check_metadata = false) const;

 private:
  std::string name_;
  TypePtr type_;
  bool nullable_;
  KeyValueMetadata metadata_;
};

FieldPtr field(std::string name, TypePtr type, bool nullable = true, KeyValueMetadata metadata = {});

}  // namespace strata
