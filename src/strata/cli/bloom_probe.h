// `strata meta FILE --bloom-probe COLUMN=VALUE`: asks each row group's Bloom filter of a column
// whether VALUE may be in it. VALUE is text, converted to the PLAIN encoding of the column's
// physical type per its logical type, then hashed as the writer hashed what it inserted
// (BloomFilter::Hash of the PLAIN bytes).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "strata/io/random_access_source.h"
#include "strata/memory/memory_pool.h"
#include "strata/parquet/thrift/footer.h"
#include "strata/parquet/thrift/parquet_types.h"
#include "strata/util/result.h"

namespace strata::cli {

// VALUE as the PLAIN bytes of `leaf`'s physical type (BYTE_ARRAY without its length prefix):
// - INT32 / INT64: decimal integers, range-checked for the logical or converted integer type
//   (unsigned types as their bit pattern); TIME and TIMESTAMP as the raw count of their unit.
// - DATE: YYYY-MM-DD (proleptic Gregorian) -> days since 1970-01-01.
// - DECIMAL: [-]digits[.digits] with at most `scale` fraction digits -> the unscaled integer:
//   INT32 / INT64 little-endian, FIXED_LEN_BYTE_ARRAY big-endian two's complement of the type's
//   width, BYTE_ARRAY the shortest big-endian two's complement (as Java's BigInteger writes it).
// - FLOAT / DOUBLE: decimal or scientific text, nan, inf (the bit pattern parsed is hashed).
// - BYTE_ARRAY: the text's UTF-8 bytes; a binary (not STRING/ENUM/JSON) column also takes
//   `hex:0a1b..` for arbitrary bytes.
// - FIXED_LEN_BYTE_ARRAY and INT96: `hex:..` of exactly the type's width; UUID also as
//   8-4-4-4-12 hex.
// BOOLEAN has no Bloom filter (Invalid). Invalid errors say what was expected.
Result<std::string> EncodeProbeValue(std::string_view value, const parquet::SchemaElement& leaf);

// Probes every row group's chunk of each COLUMN (dotted path, e.g. `a.list.element`) for each
// `COLUMN=VALUE` in `probes`, appending to `out` one line per row group that answered
// ("id=7: row group 0: absent" / "maybe present"), or with `json` one object
// {"file":...,"bloom_probes":[{"column","value","row_groups":[{"row_group","result"}]}]}.
// Problems are appended to `errors`, one Status each, and the other probes still run: an
// unknown column, a value that does not convert, a chunk without a filter ("no Bloom filter"),
// a filter that does not read, an encrypted chunk whose key was not given. Encrypted chunks'
// filters are decrypted with the keys the footer was read with (footer.decryptor).
void RunBloomProbes(RandomAccessSource& source, const parquet::FileFooter& footer,
                    const std::vector<std::string>& probes, bool json, MemoryPool* pool, std::string* out,
                    std::vector<Status>* errors);

}  // namespace strata::cli
