#include "strata/csv/write_options.h"

namespace strata::csv {
namespace {

bool IsLineBreak(char c) { return c == '\n' || c == '\r'; }

// 'x' for printable characters, else the escape or code, for messages.
std::string Describe(char c) {
  switch (c) {
    case '\n': return "'\\n'";
    case '\r': return "'\\r'";
    case '\t': return "'\\t'";
    case '\0': return "'\\0'";
    default: break;
  }
  const auto byte = static_cast<unsigned char>(c);
  if (byte < 0x20 || byte >= 0x7f) return fmt::format("byte 0x{:02x}", byte);
  return fmt::format("'{}'", c);
}

}  // namespace

Status WriteOptions::Validate() const {
  if (IsLineBreak(delimiter) || delimiter == '\0') {
    return Status::Invalid("CSV delimiter {} cannot be a line break or NUL", Describe(delimiter));
  }
  if (IsLineBreak(quote) || quote == '\0') {
    return Status::Invalid("CSV quote {} cannot be a line break or NUL", Describe(quote));
  }
  if (delimiter == quote) {
    return Status::Invalid("CSV delimiter and quote are both {}", Describe(delimiter));
  }
  for (const char c : null_value) {
    if (c == delimiter || c == quote || IsLineBreak(c)) {
      return Status::Invalid("CSV null spelling '{}' contains {}, which would split or quote it", null_value,
                             Describe(c));
    }
  }
  if (line_ending != "\n" && line_ending != "\r\n" && line_ending != "\r") {
    return Status::Invalid("CSV line ending must be \\n, \\r\\n or \\r, got {} bytes", line_ending.size());
  }
  if (buffer_bytes < 4096 || buffer_bytes > (int64_t{1} << 30)) {
    return Status::Invalid("CSV writer buffer_bytes must be in [4096, 1 GiB], got {}", buffer_bytes);
  }
  return Status::OK();
}

}  // namespace strata::csv
