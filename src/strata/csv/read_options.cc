#include "strata/csv/read_options.h"

namespace strata::csv {

namespace {
bool IsLineBreak(char c) { return c == '\n' || c == '\r'; }
}  // namespace

Status ParseOptions::Validate() const {
  if (delimiter) {
    if (delimiter->empty() || delimiter->size() > kMaxDelimiterBytes) {
      return Status::Invalid("the CSV delimiter is 1 to {} bytes, not {} ('{}')", kMaxDelimiterBytes, delimiter->size(),
                             *delimiter);
    }
    for (const char c : *delimiter) {
      if (IsLineBreak(c) || c == '\0') return Status::Invalid("the CSV delimiter cannot hold a line break or NUL");
      if (quote && *quote != '\0' && c == *quote) {
        return Status::Invalid("the CSV delimiter '{}' holds the quote '{}'", *delimiter, *quote);
      }
      if (escape && *escape != '\0' && c == *escape) {
        return Status::Invalid("the CSV delimiter '{}' holds the escape '{}'", *delimiter, *escape);
      }
    }
  }
  if (quote && *quote != '\0' && IsLineBreak(*quote)) return Status::Invalid("the CSV quote cannot be a line break");
  if (escape && *escape != '\0') {
    if (IsLineBreak(*escape)) return Status::Invalid("the CSV escape cannot be a line break");
    if (quote && *escape == *quote && double_quote) {
      return Status::Invalid("the CSV escape is the quote '{}': turn double_quote off instead", *escape);
    }
  }
  if (comment != '\0' && (IsLineBreak(comment) || (delimiter && comment == (*delimiter)[0]))) {
    return Status::Invalid("the CSV comment character cannot be a line break or the delimiter");
  }
  if (skip_rows < 0) return Status::Invalid("skip_rows must be >= 0, not {}", skip_rows);
  if (max_bad_rows < -1) return Status::Invalid("max_bad_rows must be >= 0 (or -1: half the rows), not {}", max_bad_rows);
  if (max_row_bytes < 1 || max_row_bytes > (int64_t{1} << 31)) {
    return Status::Invalid("max_row_bytes must be in [1, 2 GiB], not {}", max_row_bytes);
  }
  return Status::OK();
}

Status ConvertOptions::Validate() const {
  for (const auto& t : true_values) {
    for (const auto& f : false_values) {
      if (t == f) return Status::Invalid("'{}' is both a true and a false spelling", t);
    }
  }
  for (const auto& [name, type] : column_types) {
    if (!type) return Status::Invalid("column '{}' is given no type", name);
  }
  return Status::OK();
}

Status ReadOptions::Validate() const {
  if (batch_rows < 1) return Status::Invalid("batch_rows must be >= 1, not {}", batch_rows);
  if (block_bytes < 1) return Status::Invalid("block_bytes must be >= 1, not {}", block_bytes);
  if (sample_bytes < 1) return Status::Invalid("sample_bytes must be >= 1, not {}", sample_bytes);
  return Status::OK();
}

}  // namespace strata::csv
