// ParsedRows: what the CSV parser makes of one block of input and what the column converters
// and type inference read. Fields are unescaped (quotes removed, doubled quotes and escapes
// resolved) and stored back to back in one byte buffer; every row has exactly num_columns()
// fields (short rows are padded with "missing" fields when the options ask for it). The
// buffers are pool memory kept across blocks: Clear() keeps their capacity, so a parser
// slot reused block after block allocates nothing in steady state.
#pragma once

#include <cstdint>
#include <cstring>
#include <memory>
#include <string_view>

#include "strata/memory/buffer.h"
#include "strata/util/result.h"

namespace strata::csv {

// How a field was spelled in the input.
enum class FieldKind : uint8_t {
  kPlain = 0,    // unquoted text (possibly empty)
  kQuoted = 1,   // a quoted field: never a null spelling, always the exact text
  kMissing = 2,  // absent from a short row (RaggedRows::kFill): always null
};

class ParsedRows {
 public:
  explicit ParsedRows(MemoryPool* pool);

  int num_columns() const { return num_columns_; }
  int64_t num_rows() const { return num_rows_; }

  // Field `column` of row `row`: a view into this object's data buffer, valid until the next
  // Clear() or append. Bounds are the caller's precondition.
  std::string_view Field(int64_t row, int column) const {
    const int64_t index = row * num_columns_ + column;
    const uint32_t begin = field_ends()[index - 1];  // field_ends()[-1] is the leading 0
    return {reinterpret_cast<const char*>(data_->data()) + begin, field_ends()[index] - begin};
  }
  FieldKind Kind(int64_t row, int column) const {
    return static_cast<FieldKind>(kinds_->data()[row * num_columns_ + column]);
  }
  // The 1-based input line on which row `row` starts (newlines inside quoted fields count).
  int64_t Line(int64_t row) const { return lines_->data_as<int64_t>()[row]; }
  // Bytes of unescaped field text over all rows (what a string column of all fields holds).
  int64_t data_size() const { return data_->size(); }

  // Field bytes of column `column` over all rows (sizes string offsets exactly).
  int64_t ColumnDataSize(int column) const;

  // Pool bytes held (capacity of the buffers).
  int64_t memory_size() const;

  // --- Building (the parser) ---
  // Starts a new block of rows with `num_columns` fields each; keeps capacity.
  void Clear(int num_columns);
  // Sets the width when Clear() was given -1 (the first row decides); no complete row yet.
  void set_num_columns(int num_columns) { num_columns_ = num_columns; }
  // Reserves room for `rows` more rows and `bytes` more field bytes.
  Status Reserve(int64_t rows, int64_t bytes);
  ResizableBuffer* data() { return data_.get(); }
  // Appends one finished field whose bytes are already at the end of data(); callers have
  // reserved room (see Reserve) and call EndRow() after each row's fields.
  Status AppendFieldEnd(FieldKind kind) {
    // The parser's hot path: two stores when there is room (checked once per field).
    const int64_t ends_size = field_ends_->size();
    if (ends_size == 0 || ends_size + 4 > field_ends_->capacity() || kinds_->size() >= kinds_->capacity() ||
        data_->size() > int64_t{UINT32_MAX}) {
      return AppendFieldEndSlow(kind);
    }
    const auto end = static_cast<uint32_t>(data_->size());
    std::memcpy(field_ends_->mutable_data() + ends_size, &end, 4);
    field_ends_->set_size(ends_size + 4);
    kinds_->mutable_data()[kinds_->size()] = static_cast<uint8_t>(kind);
    kinds_->set_size(kinds_->size() + 1);
    ++num_fields_;
    return Status::OK();
  }
  Status EndRow(int64_t line);
  // Drops the fields appended since the last EndRow() (a skipped bad row), and their bytes.
  void DiscardPartialRow();
  int64_t fields_in_partial_row() const;

 private:
  Status AppendFieldEndSlow(FieldKind kind);
  const uint32_t* field_ends() const { return field_ends_->data_as<uint32_t>() + 1; }

  int num_columns_ = 0;
  int64_t num_rows_ = 0;
  int64_t num_fields_ = 0;          // complete and partial-row fields appended
  std::shared_ptr<ResizableBuffer> data_;        // unescaped field bytes
  std::shared_ptr<ResizableBuffer> field_ends_;  // uint32: 0, then the end of every field
  std::shared_ptr<ResizableBuffer> kinds_;       // FieldKind per field
  std::shared_ptr<ResizableBuffer> lines_;       // int64 start line per row
};

}  // namespace strata::csv
