#include "strata/csv/parsed_rows.h"

#include <algorithm>

namespace strata::csv {

namespace {
std::shared_ptr<ResizableBuffer> NewBuffer(MemoryPool* pool) { return std::make_shared<ResizableBuffer>(pool); }
}  // namespace

ParsedRows::ParsedRows(MemoryPool* pool)
    : data_(NewBuffer(pool)), field_ends_(NewBuffer(pool)), kinds_(NewBuffer(pool)), lines_(NewBuffer(pool)) {}

void ParsedRows::Clear(int num_columns) {
  num_columns_ = num_columns;
  num_rows_ = 0;
  num_fields_ = 0;
  data_->Clear();
  field_ends_->Clear();
  kinds_->Clear();
  lines_->Clear();
}

Status ParsedRows::Reserve(int64_t rows, int64_t bytes) {
  const int64_t fields = num_fields_ + rows * std::max(num_columns_, 1);
  // +1: the leading 0 of field_ends_. Growth doubles: blocks' sizes are not known ahead, and
  // a slot reused block after block stops growing after the first few.
  if (field_ends_->capacity() < (fields + 1) * 4) STRATA_RETURN_NOT_OK(field_ends_->GrowForAppend((fields + 1) * 4));
  if (kinds_->capacity() < fields) STRATA_RETURN_NOT_OK(kinds_->GrowForAppend(fields));
  if (lines_->capacity() < (num_rows_ + rows) * 8) STRATA_RETURN_NOT_OK(lines_->GrowForAppend((num_rows_ + rows) * 8));
  if (data_->capacity() < data_->size() + bytes) STRATA_RETURN_NOT_OK(data_->GrowForAppend(data_->size() + bytes));
  if (field_ends_->size() == 0) {
    const uint32_t zero = 0;
    field_ends_->UnsafeAppend(&zero, 4);
  }
  return Status::OK();
}

Status ParsedRows::AppendFieldEndSlow(FieldKind kind) {
  if (data_->size() > int64_t{UINT32_MAX}) {
    return Status::LimitExceeded("a CSV block holds more than 4 GiB of field text");
  }
  if (field_ends_->size() == 0 || field_ends_->capacity() < field_ends_->size() + 4 ||
      kinds_->size() >= kinds_->capacity()) {
    STRATA_RETURN_NOT_OK(Reserve(1, 0));
  }
  const auto end = static_cast<uint32_t>(data_->size());
  field_ends_->UnsafeAppend(&end, 4);
  const auto k = static_cast<uint8_t>(kind);
  kinds_->UnsafeAppend(&k, 1);
  ++num_fields_;
  return Status::OK();
}

Status ParsedRows::EndRow(int64_t line) {
  if (lines_->capacity() < lines_->size() + 8) STRATA_RETURN_NOT_OK(lines_->GrowForAppend(lines_->size() + 8));
  lines_->UnsafeAppend(&line, 8);
  ++num_rows_;
  return Status::OK();
}

int64_t ParsedRows::fields_in_partial_row() const { return num_fields_ - num_rows_ * std::max(num_columns_, 0); }

void ParsedRows::DiscardPartialRow() {
  const int64_t complete = num_rows_ * std::max(num_columns_, 0);
  // With no complete row, field_ends_ may not hold its leading 0 yet (nothing appended since
  // Clear(), or a fresh buffer): a partial first field leaves only text bytes behind.
  const uint32_t end = complete == 0 ? 0 : field_ends()[complete - 1];
  num_fields_ = complete;
  if (field_ends_->size() > 0) field_ends_->set_size((complete + 1) * 4);
  kinds_->set_size(complete);
  data_->set_size(end);
}

int64_t ParsedRows::ColumnDataSize(int column) const {
  int64_t total = 0;
  const uint32_t* ends = field_ends();
  for (int64_t row = 0; row < num_rows_; ++row) {
    const int64_t index = row * num_columns_ + column;
    total += ends[index] - ends[index - 1];
  }
  return total;
}

int64_t ParsedRows::memory_size() const {
  return data_->capacity() + field_ends_->capacity() + kinds_->capacity() + lines_->capacity();
}

}  // namespace strata::csv
