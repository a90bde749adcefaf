// Hive partitioning: the `key=value` directory segments of each file of a dataset
// (`year=2024/month=05/part-0.parquet`) as typed, constant-per-file columns. Reads what
// discovery.h found; the dataset reader appends these columns and prunes files by them.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "strata/array/array.h"
#include "strata/dataset/discovery.h"
#include "strata/expr/predicate.h"
#include "strata/memory/memory_pool.h"
#include "strata/types/field.h"
#include "strata/util/result.h"

namespace strata::dataset {

// The value hive writers (Hive, Spark, DuckDB) write for a null partition value.
inline constexpr const char* kHiveDefaultPartition = "__HIVE_DEFAULT_PARTITION__";

struct PartitionOptions {
  // Read `key=value` segments at all; false: no partition columns.
  bool hive = true;
  // Infer each key's type over every file's value: boolean when every non-null value is true
  // or false, int64 when every one is an integer (optional sign, digits, fits int64), else date32 when every one is a valid
  // YYYY-MM-DD, else timestamp[us] when every one is 'YYYY-MM-DD HH:MM:SS[.ffffff]' (or with
  // 'T'), else string. A key without any non-null value is a string. False: every key a string.
  bool infer_types = true;
  // Types given by key, overriding inference: boolean, (u)int8..64, float32/64, string,
  // large_string, date32 or timestamp (any unit). A value the type cannot take fails naming
  // the file, key and value.
  std::map<std::string, TypePtr> types;
};

// One file's value of one partition key.
struct PartitionValue {
  // The decoded text; nullopt: null (an empty value or __HIVE_DEFAULT_PARTITION__).
  std::optional<std::string> text;
  // The value in the key's type, as expr compares it (unset when null).
  std::optional<expr::Value> value;
  // The value as an array of length 1 of the key's type (a null slot when null): what the
  // reader repeats into a column for each of the file's batches.
  Array array;
};

struct Partitioning {
  // The partition columns in the order their keys appear in the paths (all nullable).
  std::vector<FieldPtr> fields;
  // values[file][key]: file as in the DiscoverFiles list, key as in `fields`.
  std::vector<std::vector<PartitionValue>> values;

  bool empty() const { return fields.empty(); }
};

// Decodes %XX escapes (as DuckDB and Spark escape '/', '=', '%', ':' and others in
// partition values); a '%' not followed by two hex digits is kept as written.
std::string UrlDecode(const std::string& text);

// Splits a segment "key=value" at its first '='; nullopt when it has none (then it is not a
// partition segment and is ignored) or the key is empty.
std::optional<std::pair<std::string, std::string>> ParseHiveSegment(const std::string& segment);

// The partitioning of `files`. Every file must have the same set of keys (in any order); the
// order of `fields` is the first file's. Fails (Invalid) naming two files whose keys differ,
// a file repeating a key, or a value an explicit type cannot take. Arrays come from `pool`.
Result<Partitioning> ParsePartitions(const std::vector<DatasetFile>& files, const PartitionOptions& options,
                                     MemoryPool* pool);

}  // namespace strata::dataset
