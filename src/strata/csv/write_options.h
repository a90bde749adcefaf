// Options of the CSV writer (CsvWriter, writer.h): the dialect it writes and how values
// without a plain CSV form (binary, nested) are spelled. Defaults write RFC 4180 CSV whose
// values DuckDB and Polars read back (NaN, inf, -inf; ISO dates and timestamps, Z for UTC);
// an empty string is written "" and a null as nothing, which Polars and strata's reader keep
// apart, and DuckDB too with allow_quoted_nulls=false.
#pragma once

#include <cstdint>
#include <string>

#include "strata/io/s3/s3_options.h"
#include "strata/util/status.h"

namespace strata::csv {

struct WriteOptions {
  // Open(path) of an s3:// URL: endpoint, region, credentials, part size (empty: the
  // environment's).
  s3::S3Options s3;
  // Field separator and quote character: neither a line break nor the other.
  char delimiter = ',';
  char quote = '"';
  // First line: the field names (quoted where needed like any string).
  bool header = true;
  // How a null is written, never quoted. Must not contain the delimiter, the quote or a line
  // break. A string that reads as this spelling (or as another common null spelling) is
  // quoted, so that nulls and strings stay distinct on read-back.
  std::string null_value = "";
  // "\n", "\r\n" or "\r".
  std::string line_ending = "\n";

  // list, large_list, fixed_size_list, struct and map columns.
  enum class NestedValues {
    kJson,    // JSON text ([1,2], {"a":1}, maps as objects), quoted as CSV requires
    kRefuse,  // Write fails with NotImplemented naming the column
  };
  NestedValues nested = NestedValues::kJson;

  // binary, large_binary, binary_view and fixed_size_binary columns (uuid included). Hex by
  // default: it is unambiguous, needs no quoting, and DuckDB (unhex/from_hex) and Polars
  // (str.decode("hex")) decode it; strata cat spells binary the same way.
  enum class BinaryValues {
    kHex,     // lowercase hexadecimal, two digits per byte
    kBase64,  // RFC 4648 with '=' padding
    kRefuse,  // Write fails with NotImplemented naming the column
  };
  BinaryValues binary = BinaryValues::kHex;

  // Text collected before each write to the sink (at least 4 KiB). The writer's memory is
  // about this plus one block of rows' text per column.
  int64_t buffer_bytes = 1 << 20;

  Status Validate() const;
};

}  // namespace strata::csv
