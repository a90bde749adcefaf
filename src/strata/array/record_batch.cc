#include "strata/array/record_batch.h"

#include "strata/array/pretty_print.h"

namespace strata {

Result<std::shared_ptr<RecordBatch>> RecordBatch::Make(SchemaPtr schema, int64_t num_rows, std::vector<Array> columns) {
  if (static_cast<int>(columns.size()) != schema->num_fields()) {
    return Status::Invalid("{} columns for a schema of {} fields", columns.size(), schema->num_fields());
  }
  for (size_t i = 0; i < columns.size(); ++i) {
    const Field& f = *schema->field(static_cast<int>(i));
    if (columns[i].length() != num_rows) {
      return Status::Invalid("column '{}' has {} rows, the batch {}", f.name(), columns[i].length(), num_rows);
    }
    if (!columns[i].type()->Equals(*f.type())) {
      return Status::Invalid("column '{}' has type {}, the schema says {}", f.name(), columns[i].type()->ToString(),
                             f.type()->ToString());
    }
  }
  return std::make_shared<RecordBatch>(std::move(schema), num_rows, std::move(columns));
}

const Array* RecordBatch::GetColumnByName(std::string_view name) const {
  const int i = schema_->GetFieldIndex(name);
  return i < 0 ? nullptr : &columns_[static_cast<size_t>(i)];
}

std::shared_ptr<RecordBatch> RecordBatch::Slice(int64_t offset, int64_t length) const {
  std::vector<Array> sliced;
  sliced.reserve(columns_.size());
  for (const Array& c : columns_) sliced.push_back(c.Slice(offset, length));
  return std::make_shared<RecordBatch>(schema_, length, std::move(sliced));
}

bool RecordBatch::Equals(const RecordBatch& other) const {
  if (num_rows_ != other.num_rows_ || !schema_->Equals(*other.schema_)) return false;
  for (size_t i = 0; i < columns_.size(); ++i) {
    if (!columns_[i].Equals(other.columns_[i])) return false;
  }
  return true;
}

std::string RecordBatch::ToString() const { return PrettyPrint(*this); }

}  // namespace strata
