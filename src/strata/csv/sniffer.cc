#include "strata/csv/sniffer.h"

#include <algorithm>
#include <vector>

namespace strata::csv {

namespace {

struct Score {
  bool parsed = false;
  int64_t rows = 0;
  int64_t consistent_rows = 0;  // rows with the modal field count
  int columns = 0;              // the modal field count
  int64_t text_after_quote = 0;  // quoted fields with text after the closing quote ("ab"c)
};

// Parses the sample's first rows in `dialect` with every row kept whatever its width, and
// measures how well the rows agree.
Score ScoreDialect(std::string_view sample, const Dialect& dialect, MemoryPool* pool) {
  constexpr int64_t kRows = 200;
  BlockParser parser(dialect, RaggedRows::kError, int64_t{1} << 31, "sample");
  ParsedRows rows(pool);
  Score score;
  std::vector<std::pair<int, int64_t>> widths;  // field count -> rows
  int64_t at = 0;
  while (score.rows < kRows && at < static_cast<int64_t>(sample.size())) {
    rows.Clear(-1);
    BlockParseResult result;
    const std::string_view rest = sample.substr(static_cast<size_t>(at));
    if (!parser.Parse(rest, static_cast<int64_t>(rest.size()), false, 1, 1, &rows, &result).ok()) return score;
    if (result.consumed == 0) break;  // the cut last line
    at += result.consumed;
    score.text_after_quote += result.text_after_quote;
    if (rows.num_rows() == 0) continue;
    ++score.rows;
    auto it = std::find_if(widths.begin(), widths.end(), [&](auto& w) { return w.first == rows.num_columns(); });
    if (it == widths.end()) widths.push_back({rows.num_columns(), 1});
    else ++it->second;
  }
  score.parsed = true;
  for (const auto& [width, count] : widths) {
    if (count > score.consistent_rows || (count == score.consistent_rows && width > score.columns)) {
      score.consistent_rows = count;
      score.columns = width;
    }
  }
  return score;
}

// Better: more rows agreeing; then fewer quoted fields with text after the closing quote
// (the mark of a wrong quote or escape); then more columns (a delimiter that splits nothing
// gives 1). Strictly better only: on a tie the candidate tried first stays.
bool Better(const Score& a, const Score& b) {
  if (a.parsed != b.parsed) return a.parsed;
  const bool a_splits = a.columns > 1, b_splits = b.columns > 1;
  if (a_splits != b_splits) return a_splits;
  // Agreement as a fraction of the rows, compared without division.
  const int64_t lhs = a.consistent_rows * std::max<int64_t>(b.rows, 1);
  const int64_t rhs = b.consistent_rows * std::max<int64_t>(a.rows, 1);
  if (lhs != rhs) return lhs > rhs;
  if (a.text_after_quote != b.text_after_quote) return a.text_after_quote < b.text_after_quote;
  return a.columns > b.columns;
}

}  // namespace

SampleWidth MajorityWidth(std::string_view sample, const Dialect& dialect, MemoryPool* pool) {
  const Score score = ScoreDialect(sample, dialect, pool);
  if (!score.parsed) return {};
  SampleWidth out;
  out.width = score.columns;
  out.rows_with_width = score.consistent_rows;
  out.rows = score.rows;
  return out;
}

Result<Dialect> DetectDialect(std::string_view sample, const ParseOptions& options, MemoryPool* pool,
                              std::vector<DialectCandidate>* considered) {
  const Dialect base = Dialect::FromOptions(options);
  std::vector<char> delimiters = options.delimiter ? std::vector<char>{*options.delimiter}
                                                   : std::vector<char>{',', '\t', ';', '|'};
  std::vector<char> quotes = options.quote ? std::vector<char>{*options.quote} : std::vector<char>{'"', '\''};
  // No escape first: escaping changes bytes (it drops the escape character), so it is tried
  // second and must do strictly better than the literal reading.
  std::vector<char> escapes = options.escape ? std::vector<char>{*options.escape} : std::vector<char>{'\0', '\\'};
  // A single quote is a quote character only when no double quote appears at all.
  if (!options.quote && sample.find('"') != std::string_view::npos) quotes = {'"'};

  Dialect best = base;
  Score best_score;
  bool first = true;
  for (char delimiter : delimiters) {
    for (char quote : quotes) {
      for (char escape : escapes) {
        if (quote == delimiter || escape == delimiter || (escape != '\0' && escape == quote)) continue;
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
          considered->push_back(candidate);
        }
        if (first || Better(score, best_score)) {
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
