#include "strata/csv/preamble.h"

#include <algorithm>
#include <cstdlib>

#include <fmt/format.h>

#include "strata/csv/sniffer.h"
#include "strata/csv/type_inference.h"

namespace strata::csv {

namespace {

// One row of the sample: where it is and its shape.
struct RowShape {
  int64_t begin = 0;  // the end of the row above (blank or comment lines between are its own)
  int64_t end = 0;    // the byte after its line break
  int64_t lines_end = 0;  // line breaks from the sample's start to `end`
  int width = 0;
  int non_empty = 0;
};

// Reads rows of the sample one at a time and judges them against the column types below.
class PreambleFinder {
 public:
  PreambleFinder(std::string_view sample, bool at_end, const Dialect& dialect, const ConvertOptions& convert,
                 MemoryPool* pool)
      : sample_(sample),
        at_end_(at_end),
        parser_(dialect, RaggedRows::kError, int64_t{1} << 31, "sample"),
        body_parser_(dialect, RaggedRows::kSkip, int64_t{1} << 31, "sample"),
        typed_(convert),
        scratch_(pool),
        body_(pool) {
    typed_.all_strings = false;
  }

  Preamble Find() {
    ReadShapes();
    const int n = static_cast<int>(rows_.size());
    if (n < 2) return {};
    width_ = MostCommonWidth();
    // A width held by a strict majority of the rows read, two at least: else nothing to go by.
    if (width_ <= 1 || width_count_ < 2 || 2 * width_count_ <= n) return {};
    int first = 0;  // the first row of the common width
    while (first < n && rows_[static_cast<size_t>(first)].width != width_) ++first;
    if (first >= kMaxPreambleRows) return {};
    InferBodyTypes(first);
    // Sparse rows of that width above a header-like one are preamble too ("PREAMBLE,,,,"
    // above a note): the table starts at the first row that is not sparse.
    int dense = first;
    while (dense < n && dense < kMaxPreambleRows && (Row(dense).width != width_ || IsSparse(dense))) ++dense;
    std::string why = fmt::format("the first row of {} fields", width_);
    if (dense > first && dense < n && dense < kMaxPreambleRows && (typed_columns_ == 0 || Misfits(dense))) {
      first = dense;
      why = fmt::format("the first row of {} fields that is not sparse", width_);
    }

    int top = first;
    if (first > 0 && IsBrokenHeader(first - 1, first)) {
      top = first - 1;
      why = fmt::format("a header of {} fields above the first row of {}", Row(top).width, width_);
    }
    // Rows at the top of the table that are not its header: a sparse one (a title padded with
    // separators, a group row) or one not fitting the types, above a header-like row.
    while (top + 1 < n && top + 1 < kMaxPreambleRows && Row(top + 1).width == width_) {
      const bool above = IsSparse(top) || (typed_columns_ > 0 && Misfits(top));
      const bool next_is_header = typed_columns_ > 0 ? Misfits(top + 1) : !IsSparse(top + 1);
      if (!above || !next_is_header) break;
      ++top;
      why = fmt::format("the header-like row below {}", IsSparse(top - 1) ? "a sparse row" : "another header-like row");
    }
    if (top == 0) return {};
    // Rows above that look like data (delimited, dense, fitting the types: a table whose first
    // rows lack a column) are not preamble: then there is none, and they are ragged rows.
    for (int i = 0; i < top; ++i) {
      if (LooksLikeData(i)) return {};
    }
    Preamble out;
    out.rows = top;
    out.bytes = Row(top - 1).end;
    out.lines = Row(top - 1).lines_end;
    for (int i = 0; i < top && i < 3; ++i) out.excerpts.push_back(Excerpt(Row(i)));
    out.reason = fmt::format("{} of the {} rows read have {} fields; the table starts at {}", width_count_, n, width_,
                             why);
    return out;
  }

 private:
  const RowShape& Row(int i) const { return rows_[static_cast<size_t>(i)]; }

  void ReadShapes() {
    int64_t at = 0, lines = 0;
    while (static_cast<int64_t>(rows_.size()) < kSniffRows && at < static_cast<int64_t>(sample_.size())) {
      scratch_.Clear(-1);
      BlockParseResult result;
      const std::string_view rest = sample_.substr(static_cast<size_t>(at));
      if (!parser_.Parse(rest, static_cast<int64_t>(rest.size()), at_end_, 1, 1, &scratch_, &result).ok()) break;
      if (result.consumed == 0) break;
      if (scratch_.num_rows() == 1) {
        RowShape row;
        row.begin = at;  // blank or comment lines above it included
        row.end = at + result.consumed;
        row.lines_end = lines + result.lines;
        row.width = scratch_.num_columns();
        for (int c = 0; c < row.width; ++c) row.non_empty += scratch_.Field(0, c).empty() ? 0 : 1;
        rows_.push_back(row);
      }
      at += result.consumed;
      lines += result.lines;
    }
  }

  int MostCommonWidth() {
    std::vector<std::pair<int, int64_t>> widths;
    for (const RowShape& row : rows_) {
      auto it = std::find_if(widths.begin(), widths.end(), [&](auto& w) { return w.first == row.width; });
      if (it == widths.end()) widths.push_back({row.width, 1});
      else ++it->second;
    }
    int best = 0;
    for (const auto& [width, count] : widths) {
      if (count > width_count_ || (count == width_count_ && width > best)) {
        width_count_ = count;
        best = width;
      }
    }
    return best;
  }

  // The types of the rows of the common width below `first` (past the two after it when there
  // are many: they may be more header rows).
  void InferBodyTypes(int first) {
    int from = first;
    int later = 0;
    for (size_t i = static_cast<size_t>(first) + 1; i < rows_.size(); ++i) later += rows_[i].width == width_ ? 1 : 0;
    if (later >= 8) {
      for (int skipped = 0; skipped < 2;) {
        ++from;
        if (Row(from).width == width_) ++skipped;
      }
    }
    body_.Clear(width_);
    BlockParseResult result;
    const std::string_view rest = sample_.substr(static_cast<size_t>(Row(from).end));
    if (!body_parser_.Parse(rest, static_cast<int64_t>(rest.size()), false, 1, INT64_MAX, &body_, &result).ok() ||
        body_.num_rows() == 0) {
      return;
    }
    for (int c = 0; c < width_; ++c) {
      ColumnTypeInferrer inferrer(typed_);
      inferrer.Observe(body_, c);
      const TypeId id = inferrer.type()->id();
      const bool typed = id != TypeId::kString && id != TypeId::kNull && id != TypeId::kBinary;
      body_types_.push_back(typed ? inferrer.type() : nullptr);
      typed_columns_ += typed ? 1 : 0;
    }
  }

  // Parses row i alone into scratch_.
  bool ParseRow(int i) {
    scratch_.Clear(-1);
    BlockParseResult result;
    const std::string_view rest = sample_.substr(static_cast<size_t>(Row(i).begin));
    return parser_.Parse(rest, static_cast<int64_t>(rest.size()), at_end_, 1, 1, &scratch_, &result).ok() &&
           scratch_.num_rows() == 1;
  }

  // Row i's non-empty values do not fit the types below in at least half of the typed columns
  // where it has one (a header's names; a data row with one odd value fits the others).
  bool Misfits(int i) {
    if (!ParseRow(i)) return false;
    int considered = 0, misfits = 0;
    for (int c = 0; c < std::min(scratch_.num_columns(), width_); ++c) {
      const TypePtr& below = body_types_.empty() ? nullptr : body_types_[static_cast<size_t>(c)];
      if (!below || scratch_.Field(0, c).empty()) continue;
      ++considered;
      ColumnTypeInferrer with_row(typed_);
      with_row.Observe(scratch_, c);
      with_row.Observe(body_, c);
      misfits += with_row.type()->Equals(below) ? 0 : 1;
    }
    return considered > 0 && 2 * misfits >= considered;
  }

  bool LooksLikeData(int i) {
    const RowShape& r = Row(i);
    if (r.width <= 1 || IsSparse(i)) return false;
    if (typed_columns_ > 0) return !Misfits(i);
    return std::abs(r.width - width_) <= 1;
  }

  bool IsSparse(int i) const { return width_ >= 3 && 2 * Row(i).non_empty <= width_; }

  // Row `row`, of another width, right above the first row of the common width, is that
  // table's header with a separator missing or extra: delimited, several values, and the row
  // below it is data (fits the types; without types, a width off by one only).
  bool IsBrokenHeader(int row, int first) {
    const RowShape& r = Row(row);
    if (r.width <= 1 || r.non_empty < 2) return false;
    if (typed_columns_ > 0) return !Misfits(first);
    return std::abs(r.width - width_) <= 1;
  }

  std::string Excerpt(const RowShape& row) const {
    std::string out;
    for (int64_t i = row.begin; i < row.end && out.size() < 40; ++i) {
      const char c = sample_[static_cast<size_t>(i)];
      if (c == '\n' || c == '\r') {
        if (out.empty()) continue;  // blank lines above it
        break;
      }
      out += c;
    }
    return out;
  }

  std::string_view sample_;
  bool at_end_;
  BlockParser parser_;
  BlockParser body_parser_;
  ConvertOptions typed_;
  ParsedRows scratch_;
  ParsedRows body_;
  std::vector<RowShape> rows_;
  int width_ = 0;
  int64_t width_count_ = 0;
  std::vector<TypePtr> body_types_;  // per column: the type below, or null for text
  int typed_columns_ = 0;
};

}  // namespace

Preamble DetectPreamble(std::string_view sample, bool at_end, const Dialect& dialect, const ConvertOptions& convert,
                        MemoryPool* pool) {
  return PreambleFinder(sample, at_end, dialect, convert, pool).Find();
}

}  // namespace strata::csv
