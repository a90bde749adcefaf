// Base64 (RFC 4648 section 4, the standard alphabet with '=' padding): used for the Arrow
// schema that Parquet files carry as text in their key-value metadata (`ARROW:schema`).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "strata/util/result.h"

namespace strata {

// The padded base64 text of `bytes` (4 characters per 3 bytes, rounded up).
std::string Base64Encode(std::string_view bytes);
// The same written to `out`, which has room for Base64EncodedLength(bytes.size()) characters;
// returns the end of the text. No allocation (the CSV writer encodes value after value).
constexpr int64_t Base64EncodedLength(int64_t bytes) { return (bytes + 2) / 3 * 4; }
char* Base64EncodeTo(std::string_view bytes, char* out);

// The bytes `text` encodes. Padding may be omitted (some writers drop it), but when present it
// must be correct; whitespace, characters outside the alphabet, a lone trailing character and
// non-zero bits in the last character's unused low bits are Invalid, with the offset.
Result<std::string> Base64Decode(std::string_view text);

}  // namespace strata
