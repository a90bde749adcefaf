#include "strata/array/table.h"

#include "strata/array/pretty_print.h"

namespace strata {

Result<std::shared_ptr<Table>> Table::Make(SchemaPtr schema, std::vector<std::shared_ptr<ChunkedArray>> columns) {
  if (static_cast<int>(columns.size()) != schema->num_fields()) {
    return Status::Invalid("{} columns for a schema of {} fields", columns.size(), schema->num_fields());
  }
  const int64_t num_rows = columns.empty() ? 0 : columns[0]->length();
  for (size_t i = 0; i < columns.size(); ++i) {
    const Field& f = *schema->field(static_cast<int>(i));
    if (columns[i]->length() != num_rows) {
      return Status::Invalid("column '{}' has {} rows, column 0 has {}", f.name(), columns[i]->length(), num_rows);
    }
    if (!columns[i]->type()->Equals(*f.type())) {
      return Status::Invalid("column '{}' has type {}, the schema says {}", f.name(), columns[i]->type()->ToString(),
                             f.type()->ToString());
    }
  }
  return std::make_shared<Table>(std::move(schema), std::move(columns), num_rows);
}

Result<std::shared_ptr<Table>> Table::FromRecordBatches(SchemaPtr schema,
                                                        const std::vector<std::shared_ptr<RecordBatch>>& batches) {
  const int n = schema->num_fields();
  std::vector<std::vector<Array>> chunks(static_cast<size_t>(n));
  int64_t num_rows = 0;
  for (size_t b = 0; b < batches.size(); ++b) {
    if (!batches[b]->schema()->Equals(*schema)) {
      return Status::Invalid("record batch {} has schema\n{}\nexpected\n{}", b, batches[b]->schema()->ToString(),
                             schema->ToString());
    }
    for (int i = 0; i < n; ++i) chunks[static_cast<size_t>(i)].push_back(batches[b]->column(i));
    num_rows += batches[b]->num_rows();
  }
  std::vector<std::shared_ptr<ChunkedArray>> columns;
  for (int i = 0; i < n; ++i) {
    columns.push_back(std::make_shared<ChunkedArray>(schema->field(i)->type(), std::move(chunks[static_cast<size_t>(i)])));
  }
  return std::make_shared<Table>(std::move(schema), std::move(columns), num_rows);
}

std::shared_ptr<ChunkedArray> Table::GetColumnByName(std::string_view name) const {
  const int i = schema_->GetFieldIndex(name);
  return i < 0 ? nullptr : columns_[static_cast<size_t>(i)];
}

bool Table::Equals(const Table& other) const {
  if (num_rows_ != other.num_rows_ || !schema_->Equals(*other.schema_)) return false;
  for (size_t i = 0; i < columns_.size(); ++i) {
    if (!columns_[i]->Equals(*other.columns_[i])) return false;
  }
  return true;
}

std::string Table::ToString() const { return PrettyPrint(*this); }

}  // namespace strata
