// Value encoding names as users type them (command line, Python keywords): one parser for
// every front end.
#pragma once

#include <string_view>

#include "strata/parquet/encoding/encoding.h"
#include "strata/util/result.h"

namespace strata::parquet {

// PLAIN, RLE, RLE_DICTIONARY (or DICTIONARY), DELTA_BINARY_PACKED, DELTA_LENGTH_BYTE_ARRAY,
// DELTA_BYTE_ARRAY, BYTE_STREAM_SPLIT, ALP; any case. Invalid otherwise, listing the names.
// Whether the encoding suits a column's type is the writer options' check, not this one.
Result<Encoding> EncodingFromName(std::string_view name);

}  // namespace strata::parquet
