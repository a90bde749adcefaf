// UTF-8 validation for string arrays built from untrusted bytes (Unicode 15, table 3-7:
// no overlong forms, no surrogates, nothing above U+10FFFF, no truncated sequences).
#pragma once

#include <cstdint>
#include <string_view>

namespace strata {

// True when data[0, size) is well-formed UTF-8. ASCII runs are checked 8 bytes at a time.
bool ValidateUtf8(const uint8_t* data, int64_t size);
inline bool ValidateUtf8(std::string_view s) {
  return ValidateUtf8(reinterpret_cast<const uint8_t*>(s.data()), static_cast<int64_t>(s.size()));
}

// The byte offset of the first ill-formed sequence, or -1 when all of data is well-formed.
int64_t FindInvalidUtf8(const uint8_t* data, int64_t size);

// The length (1 to 4) of the well-formed sequence that begins at `p`, of which `remaining`
// >= 1 bytes are readable, or 0 when the byte at `p` begins none (an ill-formed lead or
// continuation, a truncated sequence).
int Utf8SequenceLength(const uint8_t* p, int64_t remaining);

}  // namespace strata
