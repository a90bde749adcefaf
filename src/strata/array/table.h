// Table: a schema and one ChunkedArray per field, all of the same length; what a whole-file
// read returns.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "strata/array/chunked_array.h"
#include "strata/array/record_batch.h"

namespace strata {

class Table {
 public:
  Table(SchemaPtr schema, std::vector<std::shared_ptr<ChunkedArray>> columns, int64_t num_rows)
      : schema_(std::move(schema)), columns_(std::move(columns)), num_rows_(num_rows) {}
  // Checks column count, types and lengths.
  static Result<std::shared_ptr<Table>> Make(SchemaPtr schema, std::vector<std::shared_ptr<ChunkedArray>> columns);
  // Columns chunked along the batches (zero-copy); every batch must have `schema`.
  static Result<std::shared_ptr<Table>> FromRecordBatches(SchemaPtr schema,
                                                          const std::vector<std::shared_ptr<RecordBatch>>& batches);

  const SchemaPtr& schema() const { return schema_; }
  int64_t num_rows() const { return num_rows_; }
  int num_columns() const { return static_cast<int>(columns_.size()); }
  const std::shared_ptr<ChunkedArray>& column(int i) const { return columns_[static_cast<size_t>(i)]; }
  std::shared_ptr<ChunkedArray> GetColumnByName(std::string_view name) const;

  // Schemas equal (metadata ignored) and columns value-wise equal, whatever the chunking.
  bool Equals(const Table& other) const;
  std::string ToString() const;

 private:
  SchemaPtr schema_;
  std::vector<std::shared_ptr<ChunkedArray>> columns_;
  int64_t num_rows_;
};

}  // namespace strata
