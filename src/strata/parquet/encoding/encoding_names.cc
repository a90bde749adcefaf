#include "strata/parquet/encoding/encoding_names.h"

#include <cctype>
#include <string>

namespace strata::parquet {

Result<Encoding> EncodingFromName(std::string_view name) {
  std::string n(name);
  for (char& c : n) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (n == "plain") return Encoding::kPlain;
  if (n == "rle") return Encoding::kRle;
  if (n == "rle_dictionary" || n == "dictionary") return Encoding::kRleDictionary;
  if (n == "delta_binary_packed") return Encoding::kDeltaBinaryPacked;
  if (n == "delta_length_byte_array") return Encoding::kDeltaLengthByteArray;
  if (n == "delta_byte_array") return Encoding::kDeltaByteArray;
  if (n == "byte_stream_split") return Encoding::kByteStreamSplit;
  if (n == "alp") return Encoding::kAlp;
  return Status::Invalid(
      "unknown encoding '{}' (PLAIN, RLE, RLE_DICTIONARY, DELTA_BINARY_PACKED, DELTA_LENGTH_BYTE_ARRAY, "
      "DELTA_BYTE_ARRAY, BYTE_STREAM_SPLIT, ALP)",
      name);
}

}  // namespace strata::parquet
