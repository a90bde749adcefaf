// The text of one column's values as CSV cells: the converter stage of the CSV writer
// (CsvWriter, writer.h, interleaves the columns' cells into rows). A ValueWriter is made once
// per column from its type, dispatching on the type there, and then converts a block of rows
// at a time in one tight loop into a reused CellBlock: no allocation per value, and none at all
// once the block's buffers have grown to the size the data needs.
#pragma once

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>

#include "strata/array/array_data.h"
#include "strata/csv/write_options.h"
#include "strata/memory/buffer.h"

namespace strata::csv {

// When a cell is quoted. A text cell (string, field name, JSON) is quoted when it contains the
// delimiter, the quote, CR or LF; when it is empty (an unquoted empty cell is a null to most
// readers, and an empty line to some); when it starts or ends with a space or a tab (readers
// that trim unquoted fields keep quoted ones); and when it equals the null spelling or one of
// the spellings readers take as null by default (NULL, null, NA, N/A). Inner quotes are doubled.
// Numbers, dates and the like are never quoted, unless the delimiter or the quote is a
// character they use (a digit, a letter, + - . / : =) or the cell equals the null spelling.
class CellQuoting {
 public:
  explicit CellQuoting(const WriteOptions& options);

  bool NeedsQuotes(std::string_view text) const;
  // Bytes of `text` once quoted: its size, 2, and one per inner quote.
  int64_t QuotedLength(std::string_view text) const;
  // Writes `text` quoted; returns the end.
  char* WriteQuoted(std::string_view text, char* out) const;

  // The non-text rules: whether a number's or a date's text may need quotes at all, and
  // whether `text` (such a cell) does.
  bool check_plain_cells() const { return check_plain_cells_; }
  bool PlainCellNeedsQuotes(std::string_view text) const;

  char quote() const { return quote_; }
  const std::string& null_value() const { return null_value_; }

 private:
  bool IsNullLookalike(std::string_view text) const;

  bool special_[256] = {};  // delimiter, quote, CR, LF
  char quote_;
  uint64_t delimiter_;
  uint64_t quote_byte_;
  size_t max_lookalike_size_ = 4;  // the longest null spelling
  std::string null_value_;
  bool scan_plain_cells_ = false;     // the delimiter or the quote is in their alphabet
  bool compare_plain_cells_ = false;  // the null spelling is
  bool check_plain_cells_ = false;    // either
};

// The cells of one block of rows of one column: their text back to back in pool memory and
// where each ends. The text buffer keeps kPadding bytes of room past its end so that the
// writer may copy short cells kPadding bytes at a time.
class CellBlock {
 public:
  static constexpr int64_t kPadding = 32;

  explicit CellBlock(MemoryPool* pool) : text_(pool), ends_(pool) {}

  // Empties the block; the buffers keep their capacity.
  void Clear() {
    text_.Clear();
    ends_.Clear();
  }
  int64_t num_cells() const { return ends_.size() / static_cast<int64_t>(sizeof(int64_t)); }
  // Cell i is text()[start, ends()[i]) with start = ends()[i - 1], or 0 for the first. Both
  // pointers are valid until the next call that appends.
  const char* text() const { return reinterpret_cast<const char*>(text_.data()); }
  const int64_t* ends() const { return ends_.data_as<int64_t>(); }
  int64_t text_size() const { return text_.size(); }
  std::string_view cell(int64_t i) const {
    const int64_t start = i == 0 ? 0 : ends()[i - 1];
    return {text() + start, static_cast<size_t>(ends()[i] - start)};
  }
  // Pool bytes held.
  int64_t memory_size() const { return text_.capacity() + ends_.capacity(); }

  // For ValueWriters. ReserveCells(n) makes room for n more cell ends (EndCell is unchecked
  // past it); EnsureBytes(n) for n more text bytes at cursor().
  Status ReserveCells(int64_t cells) {
    return ends_.GrowForAppend(ends_.size() + cells * static_cast<int64_t>(sizeof(int64_t)));
  }
  Status EnsureBytes(int64_t bytes) {
    const int64_t needed = text_.size() + bytes + kPadding;
    if (__builtin_expect(needed > text_.capacity(), 0)) return text_.GrowForAppend(needed);
    return Status::OK();
  }
  char* cursor() { return reinterpret_cast<char*>(text_.mutable_data()) + text_.size(); }
  // Ends the current cell at `end` (written from cursor()).
  void EndCell(const char* end) {
    text_.set_size(end - reinterpret_cast<const char*>(text_.data()));
    ends_.mutable_data_as<int64_t>()[num_cells()] = text_.size();
    ends_.set_size(ends_.size() + static_cast<int64_t>(sizeof(int64_t)));
  }
  // Moves the cursor to `end` without ending the cell (a cell written in pieces).
  void Advance(const char* end) { text_.set_size(end - reinterpret_cast<const char*>(text_.data())); }
  // Offset of the cursor in the text.
  int64_t cursor_offset() const { return text_.size(); }
  // Encloses the text from `start` (an offset) to `end` in `quote` characters, in place, and
  // moves the cursor past it. Inner quotes are doubled (CSV), or with `json_escape` the quotes
  // and backslashes get a backslash (a JSON string).
  Status QuoteInPlace(int64_t start, const char* end, char quote, bool json_escape);
  // Ends the current cell at `end` after quoting it in place (inner quotes doubled).
  Status EndCellQuoted(const char* end, char quote) {
    const int64_t start = num_cells() == 0 ? 0 : ends()[num_cells() - 1];
    STRATA_RETURN_NOT_OK(QuoteInPlace(start, end, quote, false));
    EndCell(cursor());
    return Status::OK();
  }
  // Appends `text` as a whole cell.
  Status AppendCell(std::string_view text) {
    STRATA_RETURN_NOT_OK(EnsureBytes(static_cast<int64_t>(text.size())));
    char* out = cursor();
    if (!text.empty()) std::memcpy(out, text.data(), text.size());
    EndCell(out + text.size());
    return Status::OK();
  }

 private:
  ResizableBuffer text_;
  ResizableBuffer ends_;  // int64 per cell
};

class ValueWriter {
 public:
  virtual ~ValueWriter() = default;

  // Appends one cell per element [offset, offset + length) of `data` (which has the column's
  // type; offsets are relative to data.offset, as for Array::Slice) to `cells`. Nulls are
  // written as the null spelling.
  virtual Status Append(const ArrayData& data, int64_t offset, int64_t length, CellBlock* cells) = 0;
};

// The writer of column `name` of type `type`. NotImplemented (naming the column) for binary
// or nested columns that `options` refuses, and for types without a CSV form.
// `quoting` must outlive the writer.
Result<std::unique_ptr<ValueWriter>> MakeValueWriter(const std::string& name, const TypePtr& type,
                                                     const WriteOptions& options, const CellQuoting* quoting);

}  // namespace strata::csv
