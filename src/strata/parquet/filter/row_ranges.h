// Row ranges: sorted, disjoint, non-adjacent [begin, end) spans of a row group's rows, and the
// set operations a predicate tree combines them with.
#pragma once

#include <cstdint>
#include <vector>

namespace strata::parquet::filter {

struct RowRange {
  int64_t begin = 0;
  int64_t end = 0;
  bool operator==(const RowRange&) const = default;
};

class RowRanges {
 public:
  RowRanges() = default;
  static RowRanges All(int64_t rows) { return rows > 0 ? RowRanges({{0, rows}}) : RowRanges(); }

  // Appends [begin, end), which must not begin before the last range begins (merged with it
  // when they overlap or touch); empty spans are ignored.
  void Append(int64_t begin, int64_t end);

  const std::vector<RowRange>& ranges() const { return ranges_; }
  bool empty() const { return ranges_.empty(); }
  int64_t row_count() const;

  static RowRanges Intersect(const RowRanges& a, const RowRanges& b);
  static RowRanges Union(const RowRanges& a, const RowRanges& b);

  bool operator==(const RowRanges&) const = default;

 private:
  explicit RowRanges(std::vector<RowRange> ranges) : ranges_(std::move(ranges)) {}
  std::vector<RowRange> ranges_;
};

}  // namespace strata::parquet::filter
