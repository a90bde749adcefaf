// Options of the CSV reader, by concern: the dialect (ParseOptions), how text becomes typed
// values (ConvertOptions) and how the input is read (ReadOptions). Each has defaults and a
// Validate(); "auto" fields are filled in by the sniffer from a sample of the input.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "strata/exec/executor.h"
#include "strata/types/schema.h"
#include "strata/util/status.h"

namespace strata::csv {

// What to do with a row whose field count differs from the header's.
enum class RaggedRows {
  kError,  // fail, naming the line (default)
  kFill,   // short rows padded with nulls; long rows are still an error
  kSkip,   // short and long rows skipped, counted and reported (CsvReader::skipped_rows())
  // Short rows padded with nulls, long rows skipped and reported, and a quote left open at
  // the end of the input closed there (reported): as much of a damaged file as can be kept.
  kSalvage,
};

// The longest field separator, in bytes.
inline constexpr size_t kMaxDelimiterBytes = 4;

struct ParseOptions {
  // Field separator: 1 to 4 bytes (", " and "||" are two), no line break, NUL, quote or
  // escape among them. nullopt = detect from the sample (sniffer.h lists the candidates).
  std::optional<std::string> delimiter;
  // Quote character; nullopt = detect (" or '), '\0' = no quoting at all.
  std::optional<char> quote;
  // A doubled quote inside a quoted field stands for one quote character (RFC 4180).
  bool double_quote = true;
  // Escape character ('\\' typically): the next byte is taken literally, inside quotes or
  // not. nullopt = detect a backslash-escaped quote in the sample; '\0' = none.
  std::optional<char> escape;
  // Lines starting with this byte are skipped ('\0' = none).
  char comment = '\0';
  // Blank lines (nothing between two newlines) are skipped rather than read as rows.
  bool ignore_empty_lines = true;
  // nullopt = detect from the sample (a first row that does not fit the types below it).
  std::optional<bool> header;
  // Column names when there is no header (or to replace it); default f0, f1, ...
  std::vector<std::string> column_names;
  // Lines skipped before anything else (before the header), counted as input lines.
  int64_t skip_rows = 0;
  RaggedRows ragged_rows = RaggedRows::kError;
  // kSkip and kSalvage: the read fails at the end of the input when more rows than this were
  // skipped; -1 = when more than half of the rows were (a wrong width, not a few bad rows).
  int64_t max_bad_rows = -1;
  // A row (its bytes in the input, not counting its line break) longer than this fails with
  // LimitExceeded: it bounds the memory a hostile file can take (a quote never closed).
  int64_t max_row_bytes = 64 << 20;

  Status Validate() const;
};

struct ConvertOptions {
  // Unquoted fields spelled like this are null (quoted fields never are).
  std::vector<std::string> null_values = {"", "NULL", "null", "NA", "N/A"};
  std::vector<std::string> true_values = {"true", "True", "TRUE"};
  std::vector<std::string> false_values = {"false", "False", "FALSE"};
  // Types given by the user: the whole schema, or some columns by name; the others are
  // inferred. A column in neither keeps its inferred type.
  SchemaPtr schema;
  std::vector<std::pair<std::string, TypePtr>> column_types;
  // Columns to convert, by name, in this order (empty: all). The others are still parsed
  // (their line breaks and quotes matter) but never converted.
  std::vector<std::string> include_columns;
  // Every column read as its exact text (utf8), nothing inferred.
  bool all_strings = false;
  // Strings that are not valid UTF-8 fail (naming line and column); when false they are
  // read as binary columns instead.
  bool validate_utf8 = true;

  Status Validate() const;
};

struct ReadOptions {
  // Rows per batch at most (a batch never spans two blocks).
  int64_t batch_rows = 64 * 1024;
  // Input parsed as one task per block of about this many bytes.
  int64_t block_bytes = 1 << 20;
  // Bytes of input the dialect and the types are inferred from.
  int64_t sample_bytes = 1 << 20;
  // Infer types from the whole input (a first pass; the input must be reopenable).
  bool infer_whole_file = false;
  // Where blocks are parsed and converted: up to executor.threads() blocks at once on its
  // pool; by default on the calling thread. The batches do not depend on it.
  exec::Executor executor;

  Status Validate() const;
};

}  // namespace strata::csv
