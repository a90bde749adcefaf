// ValueDecoder: one interface over the encodings of a data page's values, so the column reader
// picks a decoder once per page and then decodes in bulk. Counts are values (non-null entries),
// never levels or rows. Fixed-width output is in the physical type's width (INT96: 12 bytes,
// FIXED_LEN_BYTE_ARRAY: type_length); booleans are bits; byte arrays are views into the page
// (or into decoder scratch for DELTA_BYTE_ARRAY), valid until the next SetData().
#pragma once

#include <cstdint>
#include <limits>
#include <memory>

#include "strata/parquet/encoding/byte_array.h"
#include "strata/parquet/encoding/dictionary.h"
#include "strata/parquet/encoding/encoding.h"
#include "strata/util/result.h"

namespace strata {
class MemoryPool;
}

namespace strata::parquet {

class ValueDecoder {
 public:
  virtual ~ValueDecoder() = default;

  // A new page: `num_values` non-null values encoded in [data, data + size); `file_offset` is
  // where the bytes start in the file, for messages.
  virtual Status SetData(int64_t num_values, const uint8_t* data, int64_t size, int64_t file_offset) = 0;
  // The most values one Decode call will ask for (a batch's rows, for flat columns): scratch
  // sized per page is sized for this many rather than for the whole page.
  void set_largest_range(int64_t values) { largest_range_ = values; }
  virtual Status DecodeFixed(uint8_t* out, int64_t count);
  virtual Status DecodeBits(uint8_t* bitmap, int64_t bit_offset, int64_t count);
  virtual Status DecodeViews(ByteArrayView* out, int64_t count);

 protected:
  int64_t largest_range_ = std::numeric_limits<int64_t>::max();
};

// The decoder of `encoding` for values of `physical_type` (`type_length` bytes for
// FIXED_LEN_BYTE_ARRAY). Dictionary encodings read indices and gather from `dictionary`, which
// must outlive the decoder's use. NotImplemented for encodings that do not apply.
Result<std::unique_ptr<ValueDecoder>> MakeValueDecoder(Encoding encoding, PhysicalType physical_type,
                                                       int32_t type_length, const Dictionary* dictionary,
                                                       MemoryPool* pool);

// Width in bytes of one PLAIN value of a fixed-width physical type; 0 for BOOLEAN and BYTE_ARRAY.
int PhysicalValueWidth(PhysicalType type, int32_t type_length);

}  // namespace strata::parquet
