// ReadRange and coalescing: the planner half of the I/O layer. A reader lists the byte ranges
// it will need (column chunks of a row group); coalescing merges ranges separated by small
// holes into fewer, larger reads, which is what makes remote (HTTP) sources affordable.
#pragma once

#include <cstdint>
#include <vector>

#include "strata/util/result.h"

namespace strata {

// A byte range [offset, offset + length) of a source.
struct ReadRange {
  int64_t offset = 0;
  int64_t length = 0;

  int64_t end() const { return offset + length; }
  bool Contains(const ReadRange& other) const { return other.offset >= offset && other.end() <= end(); }
  friend bool operator==(const ReadRange&, const ReadRange&) = default;
};

struct CoalesceOptions {
  // Two ranges separated by at most this many unneeded bytes are read as one: one request
  // instead of two costs more than reading a few KiB of waste (a loopback HTTP request costs
  // about the time of transferring ~50 KiB; object stores far more).
  int64_t hole_size_limit = 8 * 1024;
  // A merged range never grows past this many bytes, so one read does not pin a whole file in
  // memory and several reads can proceed in parallel. A single input range longer than this is
  // kept whole (never split), so every input range lies inside exactly one output range.
  int64_t range_size_limit = 32 * 1024 * 1024;

  // Invalid when a limit is negative or the range limit is zero.
  Status Validate() const;
};

// Merges `ranges` (any order; overlapping, adjacent and duplicate ranges allowed; empty ranges
// are dropped) into sorted, non-overlapping ranges such that every input range lies wholly
// inside one output range. Ranges with a negative offset or length, or whose end overflows,
// are Invalid.
Result<std::vector<ReadRange>> CoalesceReadRanges(std::vector<ReadRange> ranges, const CoalesceOptions& options);

}  // namespace strata
