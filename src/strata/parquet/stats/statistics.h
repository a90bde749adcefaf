// Column statistics for the Parquet writer: min, max, null and NaN counts of a page or column
// chunk, kept in the order the column's logical type defines (parquet.thrift ColumnOrder,
// TYPE_ORDER), and their Thrift form. The column writer feeds one collector per page and merges
// it into the chunk's; the page index (page_index.h) reads the page collectors.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "strata/memory/buffer.h"
#include "strata/parquet/encoding/byte_array.h"
#include "strata/parquet/encoding/encoding.h"
#include "strata/parquet/thrift/parquet_types.h"
#include "strata/util/status.h"

namespace strata::parquet {

enum class SortOrder { kSigned, kUnsigned, kUnknown };

// The order min/max follow for a column (parquet.thrift ColumnOrder TypeDefinedOrder rules):
// unsigned for UINT_* / INT(unsigned) logical types, strings, enums, JSON/BSON, binary and
// FLBA without a signed logical type, UUID; signed for other integers, floats, DECIMAL (signed
// two's-complement big-endian for BYTE_ARRAY / FLBA), DATE/TIME/TIMESTAMP, FLOAT16 (compared as
// half floats); unknown for INT96 and INTERVAL (no statistics written), and for the types the
// spec leaves undefined (LIST, MAP, VARIANT, GEOMETRY, GEOGRAPHY, logical types this code does
// not know). The logical type wins over the converted type when both are given, except that
// INTERVAL is unknown beside any logical type (parquet-mr pairs it with UNKNOWN).
SortOrder ColumnSortOrder(PhysicalType physical, const std::optional<LogicalType>& logical,
                          std::optional<ConvertedType> converted);

// True when the column holds FLOAT16 values (FIXED_LEN_BYTE_ARRAY(2) with the FLOAT16 logical
// type): the collector's is_float16 argument.
bool IsFloat16Column(PhysicalType physical, const std::optional<LogicalType>& logical);

struct StatisticsOptions {
  // BYTE_ARRAY / FIXED_LEN_BYTE_ARRAY min and max longer than this are truncated (0: never):
  // min to a prefix, max to a prefix incremented at its last byte that is not 0xFF (bytes after
  // it dropped); a max that cannot be incremented (all 0xFF) is left out. Truncated values are
  // flagged is_min/max_value_exact = false. Only byte arrays in unsigned (bytewise) order are
  // truncated: a prefix of a signed big-endian DECIMAL or of a FLOAT16 is another number, not
  // a bound.
  int32_t max_value_bytes = 64;
  Status Validate() const;
};

// One truncated bound (see StatisticsOptions). `value` is empty and `present` false when a max
// cannot be shortened (its first max_value_bytes bytes are all 0xFF).
struct TruncatedBound {
  std::string value;
  bool exact = true;
  bool present = true;
};
// Exposed for the page index and tests. `is_max` picks the max rule.
TruncatedBound TruncateBound(std::string_view value, int32_t max_value_bytes, bool is_max);

// Min, max, null count and NaN count of the values of one page or column chunk, in the
// column's sort order. Values are passed in their PLAIN physical layout, non-null values only.
// All storage (the byte-array min and max) comes from `pool`; numeric min/max live inline.
// Not thread-safe; one collector per page or chunk.
class StatisticsCollector {
 public:
  // type_length: FIXED_LEN_BYTE_ARRAY width in bytes (else ignored). is_float16: FLBA(2)
  // FLOAT16 values (compared as half floats, NaNs counted). INT96 always collects no min/max
  // (its TYPE_ORDER statistics are to be ignored by readers), whatever `order` says.
  StatisticsCollector(MemoryPool* pool, PhysicalType physical, int32_t type_length, SortOrder order,
                      bool is_float16 = false);
  StatisticsCollector(const StatisticsCollector&) = delete;
  StatisticsCollector& operator=(const StatisticsCollector&) = delete;

  // `count` values back to back: int32 / int64 / float / double / 12-byte INT96 / FLBA of
  // type_length bytes. The numeric loops are branch-free reductions the compiler vectorises
  // (this is the writer's hot path); FLBA copies the batch's new min/max at most once each.
  // Fails when the pool refuses memory for an FLBA min/max (the counts are then updated, the
  // min/max left as before the call), and with Invalid on a BOOLEAN or BYTE_ARRAY column.
  Status UpdateFixed(const void* values, int64_t count);
  // `count` booleans, bit i of `bits` starting at bit `bit_offset` (LSB first).
  void UpdateBooleans(const uint8_t* bits, int64_t bit_offset, int64_t count);
  // BYTE_ARRAY values (or FLBA values as views, FLOAT16 included). The views are read during the
  // call only: a new min or max is copied into buffers this collector owns (reused; grown
  // exactly). Invalid for BOOLEAN and the numeric types, and for a FLOAT16 view not of 2 bytes.
  Status UpdateByteArrays(const ByteArrayView* values, int64_t count);
  void AddNulls(int64_t count);
  // Folds another collector of the same column in (page stats into chunk stats). Either side
  // may be empty or without min/max.
  Status Merge(const StatisticsCollector& other);
  void Reset();  // keeps capacity

  bool has_min_max() const { return has_min_max_; }
  int64_t null_count() const { return null_count_; }
  int64_t nan_count() const { return nan_count_; }  // FLOAT, DOUBLE, FLOAT16 only
  int64_t num_values() const { return num_values_; }  // non-null values seen (NaNs included)
  // Encoded min/max: PLAIN bytes of one value (little-endian fixed width, 1 byte 0/1 for
  // BOOLEAN, raw bytes for byte arrays), untruncated, with the zero rule applied to floats (a
  // zero min is -0.0, a zero max +0.0). Valid when has_min_max(); the views point into this
  // collector and stay valid until its next Update*, Merge or Reset.
  std::string_view min_bytes() const;
  std::string_view max_bytes() const;
  // Thrift statistics: min_value / max_value (truncated per options, exactness flags set),
  // null_count, nan_count for floating types; the legacy min / max fields too where their
  // (signed) meaning is the same as the sort order's (signed BOOLEAN, INT32, INT64, FLOAT,
  // DOUBLE). Nothing for SortOrder::kUnknown except null_count.
  Statistics ToThrift(const StatisticsOptions& options) const;
  // Compares two encoded values of this column in its sort order (<0, 0, >0). Byte arrays may
  // be of any length (truncated bounds); -0.0 and +0.0 compare equal.
  int Compare(std::string_view a, std::string_view b) const;
  // Bytes held (for the writer's memory_size()).
  int64_t memory_size() const;

  PhysicalType physical_type() const { return physical_; }
  SortOrder sort_order() const { return order_; }
  int32_t type_length() const { return type_length_; }
  bool is_float16() const { return is_float16_; }
  // FLOAT, DOUBLE or FLOAT16: the types that carry nan_count.
  bool is_floating() const;

 private:
  enum class Kind : uint8_t {
    kNone,  // no min/max (SortOrder::kUnknown, INT96)
    kBoolean, kInt32, kUInt32, kInt64, kUInt64, kFloat, kDouble,
    kBytesUnsigned,  // BYTE_ARRAY / FLBA bytewise
    kBytesDecimal,   // BYTE_ARRAY / FLBA signed big-endian two's complement
    kFloat16,
  };
  template <typename T>
  void UpdateNumeric(const T* values, int64_t count);
  Status UpdateFloat16(const uint8_t* values, int64_t count);
  Status UpdateFixedBytes(const uint8_t* values, int64_t count);
  // Offers candidates for min and max (either may be empty: no candidate).
  Status OfferBytes(std::string_view min_candidate, std::string_view max_candidate);
  static Status Store(ResizableBuffer* buffer, std::string_view value);
  std::string_view InlineView(const uint8_t* bytes) const;

  PhysicalType physical_;
  int32_t type_length_;
  SortOrder order_;
  bool is_float16_;
  Kind kind_;
  bool has_min_max_ = false;
  int64_t null_count_ = 0;
  int64_t nan_count_ = 0;
  int64_t num_values_ = 0;
  // Numeric and boolean min/max, PLAIN bytes (little-endian).
  alignas(8) uint8_t min_inline_[8] = {};
  alignas(8) uint8_t max_inline_[8] = {};
  // Byte-array and FLBA min/max; size() is the value's length.
  ResizableBuffer min_buffer_;
  ResizableBuffer max_buffer_;
};

}  // namespace strata::parquet
