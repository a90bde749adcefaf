#include "strata/codec/codec_names.h"

#include <cctype>
#include <string>

namespace strata::codec {

Result<CompressionCodec> CodecFromName(std::string_view name) {
  std::string n(name);
  for (char& c : n) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (n == "none" || n == "uncompressed") return CompressionCodec::kUncompressed;
  if (n == "snappy") return CompressionCodec::kSnappy;
  if (n == "gzip") return CompressionCodec::kGzip;
  if (n == "zstd") return CompressionCodec::kZstd;
  if (n == "lz4") return CompressionCodec::kLz4;
  if (n == "lz4_raw" || n == "lz4raw") return CompressionCodec::kLz4Raw;
  if (n == "brotli") return CompressionCodec::kBrotli;
  if (n == "lzo") return CompressionCodec::kLzo;
  return Status::Invalid("unknown codec '{}' (uncompressed, snappy, gzip, zstd, lz4, lz4_raw, brotli, lzo)", name);
}

}  // namespace strata::codec
