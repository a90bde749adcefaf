// A variant value as JSON text: objects, arrays, strings (escaped; bytes that are not UTF-8
// become U+FFFD), numbers (integers and decimals exact, floats shortest round-trip), booleans
// and null. Types JSON lacks are strings: dates (2025-04-16), times (12:33:54.123456),
// timestamps (ISO 8601, "+00:00" when adjusted to UTC), UUIDs (8-4-4-4-12 hex) and binary
// (base64). Non-finite floats are the strings "NaN", "Infinity" and "-Infinity".
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "strata/util/status.h"
#include "strata/variant/variant_metadata.h"
#include "strata/variant/variant_value.h"

namespace strata::variant {

struct JsonOptions {
  // Containers may point several elements at one encoded child, so a small value can stand
  // for a huge text: output beyond this many bytes is LimitExceeded.
  int64_t max_output_bytes = int64_t{1} << 28;
};

// Appends the JSON text of `value` to `out`, validating as it goes (ids against `metadata`,
// every child's extent, nesting depth). On error `out` may hold a partial text.
Status AppendVariantJson(const VariantMetadata& metadata, const VariantValue& value, std::string* out,
                         const JsonOptions& options = {});

// The same from the raw metadata and value bytes of one row.
Status AppendVariantJson(std::string_view metadata, std::string_view value, std::string* out,
                         const JsonOptions& options = {});

}  // namespace strata::variant
