#include "strata/variant/variant_extension.h"

#include <string>

namespace strata::variant {

KeyValueMetadata WithVariantExtension(KeyValueMetadata metadata) {
  metadata.Set(std::string(kExtensionNameKey), std::string(kVariantExtensionName));
  metadata.Set(std::string(kExtensionMetadataKey), "");
  return metadata;
}

bool IsVariantField(const Field& field) {
  return field.metadata().Get(kExtensionNameKey) == kVariantExtensionName;
}

TypePtr VariantStorageType() {
  return struct_({field("metadata", binary(), false), field("value", binary(), true)});
}

}  // namespace strata::variant
