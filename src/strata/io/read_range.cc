#include "strata/io/read_range.h"

#include <algorithm>
#include <limits>

namespace strata {

Status CoalesceOptions::Validate() const {
  if (hole_size_limit < 0) return Status::Invalid("hole_size_limit must not be negative (got {})", hole_size_limit);
  if (range_size_limit <= 0) return Status::Invalid("range_size_limit must be positive (got {})", range_size_limit);
  return Status::OK();
}

Result<std::vector<ReadRange>> CoalesceReadRanges(std::vector<ReadRange> ranges, const CoalesceOptions& options) {
  STRATA_RETURN_NOT_OK(options.Validate());
  for (const ReadRange& range : ranges) {
    if (range.offset < 0 || range.length < 0 ||
        range.length > std::numeric_limits<int64_t>::max() - range.offset) {
      return Status::Invalid("read range of {} bytes at offset {} is not a valid byte range", range.length,
                             range.offset);
    }
  }
  std::erase_if(ranges, [](const ReadRange& range) { return range.length == 0; });
  // Sorting by offset, then longest first, puts a range before everything it contains.
  std::sort(ranges.begin(), ranges.end(), [](const ReadRange& a, const ReadRange& b) {
    return a.offset != b.offset ? a.offset < b.offset : a.length > b.length;
  });

  std::vector<ReadRange> merged;
  merged.reserve(ranges.size());
  for (const ReadRange& range : ranges) {
    if (!merged.empty()) {
      ReadRange& last = merged.back();
      // Overlapping or contained ranges must merge whatever the size cap says: otherwise an
      // input range could straddle two outputs. Otherwise merge across a small hole while the
      // result stays within the cap.
      const bool overlaps = range.offset < last.end();
      const int64_t new_end = std::max(last.end(), range.end());
      const bool small_hole = range.offset - last.end() <= options.hole_size_limit;
      if (overlaps || (small_hole && new_end - last.offset <= options.range_size_limit)) {
        last.length = new_end - last.offset;
        continue;
      }
    }
    merged.push_back(range);
  }
  return merged;
}

}  // namespace strata
