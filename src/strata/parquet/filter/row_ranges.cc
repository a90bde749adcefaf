#include "strata/parquet/filter/row_ranges.h"

#include <algorithm>

namespace strata::parquet::filter {

void RowRanges::Append(int64_t begin, int64_t end) {
  if (end <= begin) return;
  if (!ranges_.empty() && begin <= ranges_.back().end) {
    ranges_.back().end = std::max(ranges_.back().end, end);
    return;
  }
  ranges_.push_back({begin, end});
}

int64_t RowRanges::row_count() const {
  int64_t rows = 0;
  for (const RowRange& r : ranges_) rows += r.end - r.begin;
  return rows;
}

RowRanges RowRanges::Intersect(const RowRanges& a, const RowRanges& b) {
  RowRanges out;
  size_t i = 0, j = 0;
  while (i < a.ranges_.size() && j < b.ranges_.size()) {
    const RowRange& x = a.ranges_[i];
    const RowRange& y = b.ranges_[j];
    out.Append(std::max(x.begin, y.begin), std::min(x.end, y.end));
    if (x.end < y.end) ++i;
    else ++j;
  }
  return out;
}

RowRanges RowRanges::Union(const RowRanges& a, const RowRanges& b) {
  RowRanges out;
  size_t i = 0, j = 0;
  while (i < a.ranges_.size() || j < b.ranges_.size()) {
    const bool take_a = j == b.ranges_.size() || (i < a.ranges_.size() && a.ranges_[i].begin <= b.ranges_[j].begin);
    const RowRange& r = take_a ? a.ranges_[i++] : b.ranges_[j++];
    out.Append(r.begin, r.end);
  }
  return out;
}

}  // namespace strata::parquet::filter
