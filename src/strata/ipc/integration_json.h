// Reader of Arrow's integration-test JSON format: the `.json.gz` (or plain `.json`) files that
// sit beside the golden IPC streams and files of apache/arrow-testing and describe, in a
// human-readable form, the schema, the dictionaries and every record batch the IPC bytes hold.
// Test support only (library strata_ipc_json, built with the tests): the IPC reader's results
// are compared against what this reader builds. It builds ArrayData directly from the JSON
// buffers (VALIDITY, OFFSET, DATA, VIEWS, VARIADIC_DATA_BUFFERS, children), and every array is
// checked with ValidateFull (UTF-8 included) before it is handed out.
//
// Value encodings it accepts, as the format defines them: 64-bit integers (int64, uint64,
// date64, time64, timestamp, duration, large offsets) as decimal strings or JSON numbers;
// decimals as decimal strings of the unscaled integer; binary and fixed_size_binary as hex;
// strings as JSON strings; floats as numbers (float16 values are rounded to half precision).
//
// Types strata lacks (interval, union, run-end encoded, list views, 32/64-bit decimals, and
// type names it does not know) are NotImplemented naming the field and the JSON type name.
// Dictionary deltas (`isDelta: true`) are NotImplemented too. Malformed JSON, or JSON that
// contradicts itself (lengths, offsets, child names, dictionary ids), is Invalid naming the
// field path and the batch.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "strata/array/array_data.h"
#include "strata/array/record_batch.h"
#include "strata/memory/memory_pool.h"
#include "strata/types/schema.h"
#include "strata/util/result.h"

namespace strata::ipc {

// A dictionary-encoded field of the schema and the id of its dictionary (strata's DataType
// carries no id, so the ids are listed here). Fields inside a dictionary's value type are
// listed too (the JSON nests them the same way).
struct IntegrationDictionaryField {
  // Child indices from the schema down to the field: {top-level index, child index, ...},
  // where the children of a dictionary field are those of its value type.
  std::vector<int> path;
  // The names along the path joined by '.', e.g. "list_dict.str_dict".
  std::string name;
  int64_t id = 0;
};

struct IntegrationFile {
  SchemaPtr schema;
  // In schema order (pre-order, depth-first).
  std::vector<IntegrationDictionaryField> dictionary_fields;
  // The dictionary values by id, as the "dictionaries" section gives them.
  std::map<int64_t, ArrayDataPtr> dictionaries;
  std::vector<std::shared_ptr<RecordBatch>> batches;
};

// Reads a `.json.gz` (decompressed with codec::OpenInputStream, which also sniffs gzip and
// zstd magic when the extension says nothing) or a plain `.json` file.
Result<IntegrationFile> ReadIntegrationJson(const std::string& path_or_gz, MemoryPool* pool);

// The same for JSON text already in memory; `name` appears in error messages.
Result<IntegrationFile> ParseIntegrationJson(std::string_view json_text, MemoryPool* pool,
                                             std::string_view name = "<memory>");

}  // namespace strata::ipc
