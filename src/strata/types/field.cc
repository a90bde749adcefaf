#include "strata/types/field.h"

#include <fmt/format.h>

namespace strata {

std::optional<std::string_view> KeyValueMetadata::Get(std::string_view key) const {
  for (const auto& [k, v] : pairs_) {
    if (k == key) return std::string_view(v);
  }
  return std::nullopt;
}

void KeyValueMetadata::Set(std::string key, std::string value) {
  for (auto& [k, v] : pairs_) {
    if (k == key) {
      v = std::move(value);
      return;
    }
  }
  pairs_.emplace_back(std::move(key), std::move(value));
}

std::string KeyValueMetadata::ToString() const {
  std::string out = "{";
  for (size_t i = 0; i < pairs_.size(); ++i) {
    if (i > 0) out += ", ";
    out += pairs_[i].first;
    out += ": ";
    out += pairs_[i].second;
  }
  out += "}";
  return out;
}

FieldPtr Field::WithName(std::string name) const {
  return std::make_shared<const Field>(std::move(name), type_, nullable_, metadata_);
}
FieldPtr Field::WithType(TypePtr type) const {
  return std::make_shared<const Field>(name_, std::move(type), nullable_, metadata_);
}
FieldPtr Field::WithNullable(bool nullable) const {
  return std::make_shared<const Field>(name_, type_, nullable, metadata_);
}
FieldPtr Field::WithMetadata(KeyValueMetadata metadata) const {
  return std::make_shared<const Field>(name_, type_, nullable_, std::move(metadata));
}

std::string Field::ToString() const {
  return fmt::format("{}: {}{}", name_, type_->ToString(), nullable_ ? "" : " not null");
}

bool Field::Equals(const Field& other, bool check_metadata) const {
  if (this == &other) return true;
  if (name_ != other.name_ || nullable_ != other.nullable_ || !type_->Equals(*other.type_)) return false;
  return !check_metadata || metadata_.Equals(other.metadata_);
}

FieldPtr field(std::string name, TypePtr type, bool nullable, KeyValueMetadata metadata) {
  return std::make_shared<const Field>(std::move(name), std::move(type), nullable, std::move(metadata));
}

}  // namespace strata
