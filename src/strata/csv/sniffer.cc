#include "strata/csv/sniffer.h"

#include <algorithm>
#include <vector>

#include "strata/csv/type_inference.h"

namespace strata::csv {

namespace {

struct Score {
  bool parsed = false;
  int64_t rows = 0;
  int64_t consistent_rows = 0;  // rows with the modal field count
  int columns = 0;              // the modal field count
  int64_t text_after_quote = 0;  // quoted fields with text after the closing quote ("ab"c)
  int64_t clean_quoted = 0;      // quoted fields closed right before a delimiter or line end
};

// Parses the sample's first rows in `dialect` with every row kept whatever its width, and
// measures how well the rows agree.
// `row_widths`, when given, receives every row's field count in order, and `row_starts` where
// each row starts (blank lines above it included).
Score ScoreDialect(std::string_view sample, const Dialect& dialect, MemoryPool* pool,
                   std::vector<int>* row_widths = nullptr, std::vector<int64_t>* row_starts = nullptr) {
  BlockParser parser(dialect, RaggedRows::kError, int64_t{1} << 31, "sample");
  ParsedRows rows(pool);
  Score score;
  int64_t quoted = 0;
  std::vector<std::pair<int, int64_t>> widths;  // field count -> rows
  int64_t at = 0;
  while (score.rows < kSniffRows && at < static_cast<int64_t>(sample.size())) {
    rows.Clear(-1);
    BlockParseResult result;
    const std::string_view rest = sample.substr(static_cast<size_t>(at));
    if (!parser.Parse(rest, static_cast<int64_t>(rest.size()), false, 1, 1, &rows, &result).ok()) return score;
    if (result.consumed == 0) break;  // the cut last line
    at += result.consumed;
    score.text_after_quote += result.text_after_quote;
    if (rows.num_rows() == 0) continue;
    ++score.rows;
    if (row_widths != nullptr) {
      row_widths->push_back(rows.num_columns());
      row_starts->push_back(at - result.consumed);
    }
    for (int c = 0; c < rows.num_columns(); ++c) quoted += rows.Kind(0, c) == FieldKind::kQuoted ? 1 : 0;
    auto it = std::find_if(widths.begin(), widths.end(), [&](auto& w) { return w.first == rows.num_columns(); });
    if (it == widths.end()) widths.push_back({rows.num_columns(), 1});
    else ++it->second;
  }
  score.parsed = true;
  score.clean_quoted = quoted - score.text_after_quote;
  for (const auto& [width, count] : widths) {
    if (count > score.consistent_rows || (count == score.consistent_rows && width > score.columns)) {
      score.consistent_rows = count;
      score.columns = width;
    }
  }
  return score;
}

// `a`'s delimiter is `b`'s with one more byte, and reads the sample into the same columns:
// ", " over "," when every separating comma has its space, "||" over "|" when "|" reads an
// empty field between every two.
bool ExtendsDelimiter(const Dialect& a, const Score& as, const Dialect& b, const Score& bs) {
  if (a.delimiter.size() != b.delimiter.size() + 1 || a.delimiter.compare(0, b.delimiter.size(), b.delimiter) != 0) {
    return false;
  }
  const bool doubled = a.delimiter.size() == 2 && a.delimiter[0] == a.delimiter[1];
  return as.columns == bs.columns || (doubled && bs.columns == 2 * as.columns - 1);
}

// Better: more rows agreeing; then a delimiter extending the other's (ExtendsDelimiter); then
// fewer quoted fields with text after the closing quote (the mark of a wrong quote or escape);
// then more quoted fields closed cleanly; then more columns (a delimiter that splits nothing
// gives 1). Strictly better only: on a tie the candidate tried first stays.
bool Better(const Dialect& ad, const Score& a, const Dialect& bd, const Score& b) {
  if (a.parsed != b.parsed) return a.parsed;
  const bool a_splits = a.columns > 1, b_splits = b.columns > 1;
  if (a_splits != b_splits) return a_splits;
  // Agreement as a fraction of the rows, compared without division.
  const int64_t lhs = a.consistent_rows * std::max<int64_t>(b.rows, 1);
  const int64_t rhs = b.consistent_rows * std::max<int64_t>(a.rows, 1);
  if (lhs != rhs) return lhs > rhs;
  if (ad.quoting == bd.quoting && ad.quote == bd.quote && ad.escaping == bd.escaping) {
    if (ExtendsDelimiter(ad, a, bd, b)) return true;
    if (ExtendsDelimiter(bd, b, ad, a)) return false;
  }
  if (a.text_after_quote != b.text_after_quote) return a.text_after_quote < b.text_after_quote;
  if (a.clean_quoted != b.clean_quoted) return a.clean_quoted > b.clean_quoted;
  return a.columns > b.columns;
}

}  // namespace

SampleWidth MajorityWidth(std::string_view sample, const Dialect& dialect, MemoryPool* pool) {
  std::vector<int> widths;
  std::vector<int64_t> starts;
  const Score score = ScoreDialect(sample, dialect, pool, &widths, &starts);
  if (!score.parsed) return {};
  SampleWidth out;
  out.width = score.columns;
  out.rows_with_width = score.consistent_rows;
  out.rows = score.rows;
  // A column added from some row on: for each wider width, the earliest row from which 90% of
  // the rows to the end have it (3 at least). Counted backwards: rows_from[i] of that width.
  const auto n = static_cast<int64_t>(widths.size());
  std::vector<int> wider;
  for (int w : widths) {
    if (w > out.width && std::find(wider.begin(), wider.end(), w) == wider.end()) wider.push_back(w);
  }
  for (int w : wider) {
    int64_t suffix = 0, start = -1, count = 0;
    for (int64_t i = n - 1; i >= 0; --i) {
      if (widths[static_cast<size_t>(i)] != w) continue;
      ++suffix;
      if (suffix >= 3 && 10 * suffix >= 9 * (n - i)) {
        start = i;
        count = suffix;
      }
    }
    if (start >= 0 && (out.tail_width == 0 || start < out.tail_start)) {
      out.tail_width = w;
      out.tail_start = start;
      out.tail_offset = starts[static_cast<size_t>(start)];
      out.tail_rows = count;
    }
  }
  return out;
}

bool TailFitsTypesAbove(std::string_view sample, const Dialect& dialect, const SampleWidth& width,
                        const ConvertOptions& convert, MemoryPool* pool) {
  if (width.tail_width == 0) return false;
  ConvertOptions typed = convert;
  typed.all_strings = false;
  BlockParser parser(dialect, RaggedRows::kSkip, int64_t{1} << 31, "sample");
  ParsedRows above(pool), tail(pool);
  BlockParseResult result;
  above.Clear(width.width);
  tail.Clear(width.tail_width);
  const std::string_view head = sample.substr(0, static_cast<size_t>(width.tail_offset));
  const std::string_view rest = sample.substr(static_cast<size_t>(width.tail_offset));
  if (!parser.Parse(head, static_cast<int64_t>(head.size()), true, 1, INT64_MAX, &above, &result).ok() ||
      !parser.Parse(rest, static_cast<int64_t>(rest.size()), false, 1, INT64_MAX, &tail, &result).ok() ||
      above.num_rows() == 0 || tail.num_rows() == 0) {
    return false;
  }
  for (int c = 0; c < width.width; ++c) {
    ColumnTypeInferrer before(typed);
    before.Observe(above, c);
    const TypeId id = before.type()->id();
    if (id == TypeId::kString || id == TypeId::kNull || id == TypeId::kBinary) continue;
    ColumnTypeInferrer both(typed);
    both.Observe(above, c);
    both.Observe(tail, c);
    if (!both.type()->Equals(before.type())) return false;
  }
  return true;
}

Result<Dialect> DetectDialect(std::string_view sample, const ParseOptions& options, MemoryPool* pool,
                              std::vector<DialectCandidate>* considered) {
  const Dialect base = Dialect::FromOptions(options);
  std::vector<std::string> delimiters;
  if (options.delimiter) {
    delimiters = {*options.delimiter};
  } else {
    delimiters = {",", "\t", ";", "|"};
    for (const char* pair : {", ", "; ", "| ", "||", ";;"}) {
      if (sample.find(pair) != std::string_view::npos) delimiters.push_back(pair);
    }
  }
  std::vector<char> quotes;
  if (options.quote) {
    quotes = {*options.quote};
  } else {
    quotes = {'"'};
    // A single quote reads like no quote at all where none appears.
    if (sample.find('\'') != std::string_view::npos) quotes.push_back('\'');
  }
  // No escape first: escaping changes bytes (it drops the escape character), so it is tried
  // second and must do strictly better than the literal reading.
  std::vector<char> escapes = options.escape ? std::vector<char>{*options.escape} : std::vector<char>{'\0', '\\'};

  Dialect best = base;
  Score best_score;
  bool first = true;
  for (const std::string& delimiter : delimiters) {
    std::vector<char> usable;  // quotes that are not a byte of the delimiter
    for (char quote : quotes) {
      if (quote == '\0' || delimiter.find(quote) == std::string::npos) usable.push_back(quote);
    }
    if (usable.empty()) usable.push_back('\0');
    for (char quote : usable) {
      for (char escape : escapes) {
        if (escape != '\0' && (delimiter.find(escape) != std::string::npos || escape == quote)) continue;
        // A detected escape must be seen escaping the quote: a backslash before any other
        // byte (C:\dir, 8\'9 in a "-quoted file) is text.
        if (!options.escape && escape != '\0') {
          const char pair[2] = {escape, quote};
          if (quote == '\0' || sample.find(std::string_view(pair, 2)) == std::string_view::npos) continue;
        }
        Dialect d = base;
        d.delimiter = delimiter;
        d.quoting = quote != '\0';
        d.quote = d.quoting ? quote : '"';
        d.escaping = escape != '\0';
        d.escape = d.escaping ? escape : '\\';
        const Score score = ScoreDialect(sample, d, pool);
        if (considered != nullptr) {
          DialectCandidate candidate;
          candidate.dialect = d;
          candidate.parsed = score.parsed;
          candidate.rows = score.rows;
          candidate.rows_with_width = score.consistent_rows;
          candidate.width = score.columns;
          candidate.text_after_quote = score.text_after_quote;
          candidate.clean_quoted = score.clean_quoted;
          considered->push_back(candidate);
        }
        if (first || Better(d, score, best, best_score)) {
          best = d;
          best_score = score;
          first = false;
        }
      }
    }
  }
  return best;
}

}  // namespace strata::csv
