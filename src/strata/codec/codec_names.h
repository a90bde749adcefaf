// Codec names as users type them (command line, C API options, Python keywords): one parser,
// so every front end accepts the same names and says the same thing about a wrong one.
#pragma once

#include <string_view>

#include "strata/codec/codec.h"
#include "strata/util/result.h"

namespace strata::codec {

// none | uncompressed, snappy, gzip, zstd, lz4, lz4_raw (lz4raw), brotli, lzo; any case.
// Invalid otherwise, listing the names.
Result<CompressionCodec> CodecFromName(std::string_view name);

}  // namespace strata::codec
