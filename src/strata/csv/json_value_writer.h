// Nested values (list, large_list, fixed_size_list, struct, map) as JSON text for the CSV
// writer: [1,null,3], {"a":1,"b":"x"}, maps as objects {"k":v} (keys that are not strings are
// written as the string of their JSON: {"1":"x"}). Inside, strings are JSON strings; dates,
// times, timestamps and binary (hex or base64) are strings; numbers, booleans and decimals are
// bare; NaN and infinities, which JSON lacks, are the strings "NaN", "inf", "-inf". A tree of
// JsonNodes mirrors the type and is built once per column. Internal to the CSV layer.
#pragma once

#include <memory>
#include <string>

#include "strata/array/array_data.h"
#include "strata/csv/value_formats.h"
#include "strata/csv/value_writer.h"

namespace strata::csv {

class JsonNode {
 public:
  virtual ~JsonNode() = default;
  // Writes the JSON of the valid element `index` of `data` (absolute: data.offset included) at
  // the cursor of `out`, without ending the cell.
  virtual Status Write(const ArrayData& data, int64_t index, CellBlock* out) const = 0;
};

// The node for values of `type` in column `name` (named in errors): NotImplemented for binary
// values when options.binary is kRefuse.
Result<std::unique_ptr<JsonNode>> MakeJsonNode(const std::string& name, const TypePtr& type,
                                               const formats::FormatOptions& options);

}  // namespace strata::csv
