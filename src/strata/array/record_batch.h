// RecordBatch: a schema and one array per field, all of the same length. The unit readers
// produce and writers consume.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "strata/array/array.h"
#include "strata/types/schema.h"

namespace strata {

class RecordBatch {
 public:
  // Unchecked; use Make for columns from elsewhere.
  RecordBatch(SchemaPtr schema, int64_t num_rows, std::vector<Array> columns)
      : schema_(std::move(schema)), num_rows_(num_rows), columns_(std::move(columns)) {}
  // Checks the column count, every column's length against num_rows and its type against
  // the schema.
  static Result<std::shared_ptr<RecordBatch>> Make(SchemaPtr schema, int64_t num_rows, std::vector<Array> columns);

  const SchemaPtr& schema() const { return schema_; }
  int64_t num_rows() const { return num_rows_; }
  int num_columns() const { return static_cast<int>(columns_.size()); }
  const Array& column(int i) const { return columns_[static_cast<size_t>(i)]; }
  const std::vector<Array>& columns() const { return columns_; }
  // The column called `name`, or nullptr.
  const Array* GetColumnByName(std::string_view name) const;

  // Zero-copy rows [offset, offset + length).
  std::shared_ptr<RecordBatch> Slice(int64_t offset, int64_t length) const;
  // Schemas equal (metadata ignored) and every column value-wise equal.
  bool Equals(const RecordBatch& other) const;
  std::string ToString() const;

 private:
  SchemaPtr schema_;
  int64_t num_rows_;
  std::vector<Array> columns_;
};

}  // namespace strata
