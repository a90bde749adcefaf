// Where a batch of string or binary values with 32-bit offsets ends: the one rule both leaf
// readers follow (ColumnReader for flat columns, NestedLeafReader inside nested fields). A
// batch's value bytes stay within OffsetLimit(); the batch ends at the last row start before
// the range of values being appended would pass it, and the values after the cut, decoded
// already, open the next batch. A row whose values alone pass the limit cannot be read with
// 32-bit offsets at all (OneRowPastOffsetLimit).
#pragma once

#include <cstdint>

#include "strata/parquet/encoding/byte_array.h"
#include "strata/util/bit_util.h"
#include "strata/util/status.h"

namespace strata::parquet {

// The most value bytes a batch with 32-bit offsets holds: 2^31 - 1, unless a test lowered it.
int64_t OffsetLimit();
// Tests lower the limit (for readers made afterwards) to cut batches without gigabytes of
// data; 0 restores it.
void SetOffsetLimitForTesting(int64_t bytes);

// The part of a range that stays in the batch: entries [0, entries) of it, holding `slots`
// slots and `values` non-null values of `bytes` bytes. `at_row_start` is false when no row
// start of the range keeps the batch within the limit: the range continues a row begun
// before it, and the batch must end before that row.
struct RangeCut {
  bool at_row_start = false;
  int64_t entries = 0;
  int64_t slots = 0;
  int64_t values = 0;
  int64_t bytes = 0;
};

// One entry of a range: whether a row starts at it, holds a slot of the leaf, holds a value.
struct RangeEntry {
  bool row_start;
  bool slot;
  bool value;
};

// The longest prefix of a range (`count` entries; `entry(i)` describes entry i, `views` are
// its values in order) that ends at a row start (or at the range's end) and keeps a batch that
// holds `batch_bytes` bytes within `limit`: the whole range when it fits.
template <typename EntryAt>
RangeCut KeepWithinOffsetLimit(int64_t count, const ByteArrayView* views, int64_t batch_bytes, int64_t limit,
                              EntryAt&& entry) {
  RangeCut cut;
  RangeCut seen;
  for (int64_t i = 0; i < count; ++i) {
    const RangeEntry e = entry(i);
    if (e.row_start) {
      if (batch_bytes + seen.bytes > limit) return cut;
      cut = seen;
      cut.at_row_start = true;
    }
    seen.entries = i + 1;
    seen.slots += e.slot;
    if (e.value) seen.bytes += views[seen.values++].length;
  }
  if (batch_bytes + seen.bytes > limit) return cut;
  seen.at_row_start = true;  // the range's end: where the next range starts
  return seen;
}

// The same rule for flat slots, each a row, valid where `validity` (null: all) has its bit set
// from `slot` on.
inline RangeCut KeepFlatWithinOffsetLimit(int64_t count, const ByteArrayView* views, const uint8_t* validity,
                                         int64_t slot, int64_t batch_bytes, int64_t limit) {
  return KeepWithinOffsetLimit(count, views, batch_bytes, limit, [&](int64_t i) {
    return RangeEntry{true, true, validity == nullptr || bit_util::GetBit(validity, slot + i)};
  });
}

// The error of a row whose values alone pass the limit (`bytes` of them, -1: not known).
Status OneRowPastOffsetLimit(int64_t limit, int64_t bytes = -1);

}  // namespace strata::parquet
