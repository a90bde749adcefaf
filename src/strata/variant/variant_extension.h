// The Arrow canonical extension that marks a variant column: a struct field whose metadata
// says ARROW:extension:name = arrow.parquet.variant (storage struct<metadata: binary not null,
// value: binary>, the extension metadata empty).
#pragma once

#include <string_view>

#include "strata/types/field.h"

namespace strata::variant {

inline constexpr std::string_view kExtensionNameKey = "ARROW:extension:name";
inline constexpr std::string_view kExtensionMetadataKey = "ARROW:extension:metadata";
inline constexpr std::string_view kVariantExtensionName = "arrow.parquet.variant";

// `metadata` with the two extension keys set for a variant.
KeyValueMetadata WithVariantExtension(KeyValueMetadata metadata);
// Whether `field` is marked as a variant.
bool IsVariantField(const Field& field);
// struct<metadata: binary not null, value: binary>: how strata reads every variant, shredded
// or not.
TypePtr VariantStorageType();

}  // namespace strata::variant
