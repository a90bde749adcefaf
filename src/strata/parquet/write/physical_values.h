// PhysicalValueGatherer: turns a leaf's Arrow values into the Parquet physical values the
// encoders take: fixed-width values back to back (converted where the types differ: int8 ->
// INT32, decimal -> big-endian bytes, seconds -> milliseconds, ...), byte-array views, or
// boolean bits, with nulls left out. Values that need no conversion and hold no nulls are
// handed out in place (no copy). Sits between the level builder and the column writer.
#pragma once

#include <cstdint>

#include "strata/array/array_data.h"
#include "strata/parquet/encoding/byte_array.h"
#include "strata/parquet/write/writer_schema.h"

namespace strata::parquet {

// Non-null values of a range, in physical layout. Pointers refer to the input array or to the
// gatherer's scratch: valid until the gatherer's next call (and while the array lives).
struct GatheredValues {
  int64_t count = 0;                     // non-null values
  const uint8_t* fixed = nullptr;        // count * physical width bytes (INT32 ... FLBA)
  const ByteArrayView* views = nullptr;  // BYTE_ARRAY
  const uint8_t* bits = nullptr;         // BOOLEAN: count bits from bit_offset (LSB first)
  int64_t bit_offset = 0;
  int64_t byte_array_bytes = 0;          // BYTE_ARRAY: sum of the value lengths
};

class PhysicalValueGatherer {
 public:
  // `column` must outlive the gatherer.
  PhysicalValueGatherer(const WriterColumn& column, MemoryPool* pool);

  // Bytes of one physical value (0 for BOOLEAN and BYTE_ARRAY).
  int value_width() const { return value_width_; }

  // The non-null values among elements [begin, end) of `values`, an array of the column's
  // value type (for a dictionary column: its dictionary). Invalid when a conversion would
  // overflow (timestamp[s] times 1000), naming the column.
  //
  // With `append_to`, fixed-width values (not BOOLEAN or BYTE_ARRAY) are written at the end of
  // that buffer instead of scratch or in place, and `out->fixed` points at them there: a PLAIN
  // page buffer then receives compacted or converted values without a second copy.
  Status Gather(const ArrayData& values, int64_t begin, int64_t end, GatheredValues* out,
                ResizableBuffer* append_to = nullptr);

  // Dictionary columns: the non-null indices among elements [begin, end) of `indices` as
  // int32, each checked against `dictionary_length` (Invalid otherwise).
  Status GatherIndices(const ArrayData& indices, int64_t begin, int64_t end, int64_t dictionary_length,
                       const int32_t** out, int64_t* count);

  int64_t memory_size() const { return scratch_.capacity() + views_.capacity() + indices_.capacity(); }

 private:
  template <typename In, typename Out, typename Convert>
  void Convert(const ArrayData& values, int64_t begin, int64_t end, Convert convert, GatheredValues* out);
  Status GatherByteArrays(const ArrayData& values, int64_t begin, int64_t end, GatheredValues* out);
  Status GatherBooleans(const ArrayData& values, int64_t begin, int64_t end, GatheredValues* out);
  // Fixed-width values into target_ (converted where the types differ).
  Status GatherFixedWidth(const ArrayData& values, int64_t begin, int64_t end, GatheredValues* out);
  void GatherFixedBytes(const ArrayData& values, int64_t begin, int64_t end, int width, GatheredValues* out);
  // month_day_nano -> INTERVAL (kIntervalToFixed); Invalid for a value INTERVAL cannot hold.
  Status GatherIntervals(const ArrayData& values, int64_t begin, int64_t end, GatheredValues* out);

  const WriterColumn& column_;
  int value_width_ = 0;
  ResizableBuffer scratch_;  // converted or compacted fixed-width values, boolean bits
  uint8_t* target_ = nullptr;  // where the current Gather writes fixed-width values
  bool appending_ = false;     // target_ is the caller's buffer (values without nulls are copied)
  ResizableBuffer views_;    // ByteArrayView per value
  ResizableBuffer indices_;  // int32 dictionary indices
};

}  // namespace strata::parquet
