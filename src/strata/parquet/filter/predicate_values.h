// Parquet's values in the predicate's terms: statistics, page index bounds and dictionary
// entries (PLAIN bytes of the physical type) read as expr::Value in the column's domain, and
// predicate values turned back into the physical form a Bloom filter hashes.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "strata/expr/predicate.h"
#include "strata/expr/range_pruning.h"
#include "strata/parquet/schema.h"
#include "strata/parquet/thrift/parquet_types.h"

namespace strata::parquet::filter {

// The Value kind a column of `type` compares in (dictionary: its value type); nullopt for
// types no predicate compares (lists, maps, structs, decimal256, null).
std::optional<expr::Value::Kind> ValueKindOf(const DataType& type);

// The leaf column a predicate path (top-level field, then struct members) names, or -1 when
// it names a group or leaves the schema.
int LeafColumnIndex(const SchemaDescriptor& schema, const std::vector<int>& path);

// How a column's statistics can be used: whether min/max are in the order the leaf's Value
// compares in, and the decoding of its bytes. Made once per leaf and column.
class ColumnValueReader {
 public:
  ColumnValueReader(const ColumnDescriptor& column, expr::Value::Kind kind);

  // False when the column's min/max cannot be read as the leaf's values (INT96, an order
  // Parquet leaves undefined, a Value kind the column does not store).
  bool bounds_usable() const { return bounds_usable_; }
  // One PLAIN value of the physical type (as statistics, the page index and dictionary pages
  // store them) as a Value; nullopt when its size is wrong or it is NaN (older writers put NaN
  // in min/max: then the bound says nothing).
  std::optional<expr::Value> Decode(std::string_view bytes) const;

  // The chunk's statistics as a range over `rows` rows. min_value/max_value are trusted when
  // present (writers that set them follow the column order); the deprecated min/max only for
  // numeric columns in signed order (old writers compared bytes as signed, and unsigned
  // integers as signed).
  expr::ValueRange ChunkRange(const ColumnMetaData& metadata, int64_t rows) const;
  // Page `page` of a column index, over `rows` rows.
  expr::ValueRange PageRange(const ColumnIndex& index, size_t page, int64_t rows) const;

  // The Bloom filter hashes of `value` in this column's physical form: every form the value
  // takes (0.0 and -0.0 are two), or empty when the filter cannot answer for it (NaN, a value
  // the physical type cannot hold, INT96).
  std::vector<uint64_t> BloomHashes(const expr::Value& value) const;

 private:
  const ColumnDescriptor& column_;
  expr::Value::Kind kind_;
  bool bounds_usable_ = false;
  bool legacy_bounds_usable_ = false;
  bool is_float16_ = false;
  bool is_decimal_ = false;
};

}  // namespace strata::parquet::filter
