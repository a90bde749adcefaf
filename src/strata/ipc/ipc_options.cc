#include "strata/ipc/ipc_options.h"

#include <algorithm>
#include <cctype>
#include <string>

namespace strata::ipc {

Result<IpcCompression> ParseIpcCompression(std::string_view name) {
  std::string lower(name);
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  if (lower == "none" || lower == "uncompressed") return IpcCompression::kNone;
  if (lower == "lz4" || lower == "lz4_frame") return IpcCompression::kLz4Frame;
  if (lower == "zstd") return IpcCompression::kZstd;
  return Status::Invalid("unknown IPC compression '{}' (none, lz4, zstd)", name);
}

std::string_view IpcCompressionName(IpcCompression compression) {
  switch (compression) {
    case IpcCompression::kNone: return "none";
    case IpcCompression::kLz4Frame: return "lz4";
    case IpcCompression::kZstd: return "zstd";
  }
  return "unknown";
}

Status IpcWriteOptions::Validate() const { return Status::OK(); }

Status IpcReadOptions::Validate() const {
  if (max_message_bytes < 64) return Status::Invalid("max_message_bytes must be at least 64, not {}", max_message_bytes);
  return Status::OK();
}

}  // namespace strata::ipc
