// Column statistics: sort orders, the min/max/null/NaN collector and its Thrift form.
#include "strata/parquet/stats/statistics.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <type_traits>

#include "strata/util/bit_util.h"

namespace strata::parquet {

SortOrder ColumnSortOrder(PhysicalType physical, const std::optional<LogicalType>& logical,
                          std::optional<ConvertedType> converted) {
  // INT96 TYPE_ORDER statistics are to be ignored by readers (parquet.thrift ColumnOrder).
  if (physical == PhysicalType::kInt96) return SortOrder::kUnknown;
  // INTERVAL's order is undefined (LogicalTypes.md), whatever logical type sits beside it
  // (parquet-mr writes UNKNOWN, whose own order would be the physical type's).
  if (converted == ConvertedType::kInterval) return SortOrder::kUnknown;
  if (logical.has_value()) {
    using Kind = LogicalType::Kind;
    switch (logical->kind) {
      case Kind::kString:
      case Kind::kEnum:
      case Kind::kJson:
      case Kind::kBson:
      case Kind::kUuid:
        return SortOrder::kUnsigned;
      case Kind::kInteger:
        return logical->is_signed ? SortOrder::kSigned : SortOrder::kUnsigned;
      case Kind::kDecimal:
      case Kind::kDate:
      case Kind::kTime:
      case Kind::kTimestamp:
      case Kind::kFloat16:
        return SortOrder::kSigned;
      case Kind::kNull:
        break;  // only nulls: the physical type's order is as good as any
      default:  // LIST, MAP, VARIANT, GEOMETRY, GEOGRAPHY, VECTOR, unrecognized: undefined
        return SortOrder::kUnknown;
    }
  } else if (converted.has_value()) {
    switch (*converted) {
      case ConvertedType::kUtf8:
      case ConvertedType::kEnum:
      case ConvertedType::kJson:
      case ConvertedType::kBson:
      case ConvertedType::kUint8:
      case ConvertedType::kUint16:
      case ConvertedType::kUint32:
      case ConvertedType::kUint64:
        return SortOrder::kUnsigned;
      case ConvertedType::kInt8:
      case ConvertedType::kInt16:
      case ConvertedType::kInt32:
      case ConvertedType::kInt64:
      case ConvertedType::kDecimal:
      case ConvertedType::kDate:
      case ConvertedType::kTimeMillis:
      case ConvertedType::kTimeMicros:
      case ConvertedType::kTimestampMillis:
      case ConvertedType::kTimestampMicros:
        return SortOrder::kSigned;
      default:  // INTERVAL, MAP, LIST, MAP_KEY_VALUE, numbers newer than this code
        return SortOrder::kUnknown;
    }
  }
  switch (physical) {
    case PhysicalType::kBoolean:
    case PhysicalType::kInt32:
    case PhysicalType::kInt64:
    case PhysicalType::kFloat:
    case PhysicalType::kDouble:
      return SortOrder::kSigned;
    case PhysicalType::kByteArray:
    case PhysicalType::kFixedLenByteArray:
      return SortOrder::kUnsigned;
    default:
      return SortOrder::kUnknown;
  }
}

bool IsFloat16Column(PhysicalType physical, const std::optional<LogicalType>& logical) {
  return physical == PhysicalType::kFixedLenByteArray && logical.has_value() &&
         logical->kind == LogicalType::Kind::kFloat16;
}

Status StatisticsOptions::Validate() const {
  if (max_value_bytes < 0) {
    return Status::Invalid("statistics max_value_bytes must be 0 (no truncation) or positive (got {})",
                           max_value_bytes);
  }
  return Status::OK();
}

TruncatedBound TruncateBound(std::string_view value, int32_t max_value_bytes, bool is_max) {
  TruncatedBound bound;
  if (max_value_bytes <= 0 || value.size() <= static_cast<size_t>(max_value_bytes)) {
    bound.value.assign(value);
    return bound;
  }
  bound.exact = false;
  std::string_view prefix = value.substr(0, static_cast<size_t>(max_value_bytes));
  if (!is_max) {
    bound.value.assign(prefix);  // a prefix sorts before every value it begins
    return bound;
  }
  // The shortest upper bound of this length: bump the last byte that can be bumped.
  size_t last = prefix.size();
  while (last > 0 && static_cast<uint8_t>(prefix[last - 1]) == 0xFF) --last;
  if (last == 0) {
    bound.present = false;
    return bound;
  }
  bound.value.assign(prefix.substr(0, last));
  bound.value.back() = static_cast<char>(static_cast<uint8_t>(bound.value.back()) + 1);
  return bound;
}

namespace {

template <typename T>
T Load(const void* p) {
  T value;
  std::memcpy(&value, p, sizeof(T));
  return value;
}

template <typename T>
int CompareValues(T a, T b) {
  return a < b ? -1 : (b < a ? 1 : 0);  // -0.0 == +0.0 for floats
}

int CompareUnsignedBytes(std::string_view a, std::string_view b) {
  const size_t common = std::min(a.size(), b.size());
  const int c = common == 0 ? 0 : std::memcmp(a.data(), b.data(), common);
  if (c != 0) return c < 0 ? -1 : 1;
  return CompareValues(a.size(), b.size());
}

// Big-endian two's complement of possibly different lengths: sign-extend the shorter one. With
// equal signs, the padded forms compare as unsigned bytes. An empty value counts as zero.
int CompareDecimalBytes(std::string_view a, std::string_view b) {
  const bool a_negative = !a.empty() && (static_cast<uint8_t>(a[0]) & 0x80) != 0;
  const bool b_negative = !b.empty() && (static_cast<uint8_t>(b[0]) & 0x80) != 0;
  if (a_negative != b_negative) return a_negative ? -1 : 1;
  const uint8_t pad = a_negative ? 0xFF : 0x00;
  const size_t width = std::max(a.size(), b.size());
  const size_t a_pad = width - a.size();
  const size_t b_pad = width - b.size();
  for (size_t i = 0; i < width; ++i) {
    const uint8_t x = i < a_pad ? pad : static_cast<uint8_t>(a[i - a_pad]);
    const uint8_t y = i < b_pad ? pad : static_cast<uint8_t>(b[i - b_pad]);
    if (x != y) return x < y ? -1 : 1;
  }
  return 0;
}

constexpr uint16_t kHalfSignBit = 0x8000;
constexpr uint16_t kHalfNegativeZero = 0x8000;
constexpr uint16_t kHalfPositiveZero = 0x0000;

bool IsHalfNaN(uint16_t bits) { return (bits & 0x7FFF) > 0x7C00; }  // exponent all ones, mantissa != 0
// An integer that orders non-NaN half floats as their values, -0 and +0 alike (sign-magnitude).
int32_t HalfOrderKey(uint16_t bits) {
  const int32_t magnitude = bits & 0x7FFF;
  return (bits & kHalfSignBit) != 0 ? -magnitude : magnitude;
}
uint16_t LoadHalf(const uint8_t* p) { return static_cast<uint16_t>(p[0] | (p[1] << 8)); }  // little-endian

}  // namespace

StatisticsCollector::StatisticsCollector(MemoryPool* pool, PhysicalType physical, int32_t type_length,
                                         SortOrder order, bool is_float16)
    : physical_(physical),
      type_length_(physical == PhysicalType::kFixedLenByteArray ? type_length : PhysicalTypeByteWidth(physical)),
      order_(physical == PhysicalType::kInt96 ? SortOrder::kUnknown : order),
      is_float16_(is_float16 && physical == PhysicalType::kFixedLenByteArray && type_length == 2),
      kind_(Kind::kNone),
      min_buffer_(pool),
      max_buffer_(pool) {
  if (order_ == SortOrder::kUnknown) return;
  const bool is_unsigned = order_ == SortOrder::kUnsigned;
  switch (physical_) {
    case PhysicalType::kBoolean: kind_ = Kind::kBoolean; break;
    case PhysicalType::kInt32: kind_ = is_unsigned ? Kind::kUInt32 : Kind::kInt32; break;
    case PhysicalType::kInt64: kind_ = is_unsigned ? Kind::kUInt64 : Kind::kInt64; break;
    case PhysicalType::kFloat: kind_ = Kind::kFloat; break;
    case PhysicalType::kDouble: kind_ = Kind::kDouble; break;
    case PhysicalType::kByteArray: kind_ = is_unsigned ? Kind::kBytesUnsigned : Kind::kBytesDecimal; break;
    case PhysicalType::kFixedLenByteArray:
      kind_ = is_float16_ ? Kind::kFloat16 : (is_unsigned ? Kind::kBytesUnsigned : Kind::kBytesDecimal);
      break;
    default: order_ = SortOrder::kUnknown; break;
  }
}

bool StatisticsCollector::is_floating() const {
  return physical_ == PhysicalType::kFloat || physical_ == PhysicalType::kDouble || is_float16_;
}

std::string_view StatisticsCollector::InlineView(const uint8_t* bytes) const {
  size_t size = 0;
  switch (kind_) {
    case Kind::kBoolean: size = 1; break;
    case Kind::kFloat16: size = 2; break;
    case Kind::kInt32: case Kind::kUInt32: case Kind::kFloat: size = 4; break;
    case Kind::kInt64: case Kind::kUInt64: case Kind::kDouble: size = 8; break;
    default: break;
  }
  return {reinterpret_cast<const char*>(bytes), size};
}

std::string_view StatisticsCollector::min_bytes() const {
  if (kind_ == Kind::kBytesUnsigned || kind_ == Kind::kBytesDecimal) return min_buffer_.view();
  return InlineView(min_inline_);
}

std::string_view StatisticsCollector::max_bytes() const {
  if (kind_ == Kind::kBytesUnsigned || kind_ == Kind::kBytesDecimal) return max_buffer_.view();
  return InlineView(max_inline_);
}

// One min/max reduction for every numeric type, on GCC/Clang vector types of 16 bytes (4 int32
// / float or 2 int64 / double lanes, one SSE register), the lanes folded once at the end. GCC
// 12 leaves plain loops scalar for float and double (it does not turn `v < m ? v : m` into
// minps on its own) and lowers 32-byte vectors to scalar code without AVX; this form gives
// minps/maxps/cmpneqps and pcmpgtd-based int32 loops on baseline x86-64 (int64 stays cmov:
// SSE2 has no 64-bit compare). NaN fails both comparisons, so it never enters a lane; floating
// lanes start at +inf / -inf (or the stored min/max) and the NaN count (the -1 of each
// `v != v` lane, summed) tells whether any other value was seen.
template <typename T>
void StatisticsCollector::UpdateNumeric(const T* values, int64_t count) {
  constexpr bool kFloating = std::is_floating_point_v<T>;
  typedef T Vec __attribute__((vector_size(16)));
  constexpr int64_t kLanes = 16 / sizeof(T);
  T start_min;
  T start_max;
  if (has_min_max_) {
    start_min = Load<T>(min_inline_);
    start_max = Load<T>(max_inline_);
  } else if constexpr (kFloating) {
    start_min = std::numeric_limits<T>::infinity();
    start_max = -std::numeric_limits<T>::infinity();
  } else {
    start_min = start_max = Load<T>(values);
  }
  if constexpr (sizeof(T) == 8 && !kFloating) {
    // 64-bit integers: baseline x86-64 (SSE2) has no 64-bit vector compare, and the vector
    // form above compiles to shuffles (~1.7 ns a value, 28% of an int64 PLAIN write in
    // writer_benchmark's profile). Four independent scalar min/max chains (cmov) do better.
    T mn[4] = {start_min, start_min, start_min, start_min};
    T mx[4] = {start_max, start_max, start_max, start_max};
    int64_t i = 0;
    for (; i + 4 <= count; i += 4) {
      for (int k = 0; k < 4; ++k) {
        const T v = Load<T>(values + i + k);
        mn[k] = v < mn[k] ? v : mn[k];
        mx[k] = v > mx[k] ? v : mx[k];
      }
    }
    for (; i < count; ++i) {
      const T v = Load<T>(values + i);
      mn[0] = v < mn[0] ? v : mn[0];
      mx[0] = v > mx[0] ? v : mx[0];
    }
    T result_min = std::min(std::min(mn[0], mn[1]), std::min(mn[2], mn[3]));
    T result_max = std::max(std::max(mx[0], mx[1]), std::max(mx[2], mx[3]));
    std::memcpy(min_inline_, &result_min, sizeof(T));
    std::memcpy(max_inline_, &result_max, sizeof(T));
    has_min_max_ = true;
    return;
  }
  Vec lane_min;
  Vec lane_max;
  for (int64_t j = 0; j < kLanes; ++j) lane_min[j] = start_min, lane_max[j] = start_max;
  using Mask = decltype(lane_min < lane_max);
  int64_t nans = 0;
  int64_t i = 0;
  while (i + kLanes <= count) {
    // NaN lanes count down in the mask's own width; fold them every 2^20 steps so no lane
    // can overflow.
    Mask lane_nans = {};
    const int64_t block_end = std::min(count - kLanes, i + (int64_t{1} << 20) * kLanes);
    for (; i <= block_end; i += kLanes) {
      Vec v;
      std::memcpy(&v, values + i, sizeof(Vec));
      lane_min = v < lane_min ? v : lane_min;
      lane_max = v > lane_max ? v : lane_max;
      if constexpr (kFloating) lane_nans += (v != v);
    }
    if constexpr (kFloating) {
      for (int64_t j = 0; j < kLanes; ++j) nans -= lane_nans[j];
    }
  }
  T result_min = lane_min[0];
  T result_max = lane_max[0];
  for (int64_t j = 1; j < kLanes; ++j) {
    result_min = lane_min[j] < result_min ? lane_min[j] : result_min;
    result_max = lane_max[j] > result_max ? lane_max[j] : result_max;
  }
  for (; i < count; ++i) {
    const T v = Load<T>(values + i);
    result_min = v < result_min ? v : result_min;
    result_max = v > result_max ? v : result_max;
    if constexpr (kFloating) nans += v != v;
  }
  if constexpr (kFloating) {
    nan_count_ += nans;
    if (!has_min_max_ && nans == count) return;  // all NaN: still no min/max
    // parquet.thrift: a zero min is written as -0.0, a zero max as +0.0, whichever zeros were seen.
    if (result_min == T(0)) result_min = -T(0);
    if (result_max == T(0)) result_max = T(0);
  }
  std::memcpy(min_inline_, &result_min, sizeof(T));
  std::memcpy(max_inline_, &result_max, sizeof(T));
  has_min_max_ = true;
}

Status StatisticsCollector::UpdateFloat16(const uint8_t* values, int64_t count) {
  int32_t min_key = std::numeric_limits<int32_t>::max();
  int32_t max_key = std::numeric_limits<int32_t>::min();
  if (has_min_max_) {
    min_key = HalfOrderKey(LoadHalf(min_inline_));
    max_key = HalfOrderKey(LoadHalf(max_inline_));
  }
  uint16_t min_bits = LoadHalf(min_inline_);
  uint16_t max_bits = LoadHalf(max_inline_);
  int64_t nans = 0;
  for (int64_t i = 0; i < count; ++i) {
    const uint16_t bits = LoadHalf(values + 2 * i);
    if (IsHalfNaN(bits)) {
      ++nans;
      continue;
    }
    const int32_t key = HalfOrderKey(bits);
    if (key < min_key) min_key = key, min_bits = bits;
    if (key > max_key) max_key = key, max_bits = bits;
  }
  nan_count_ += nans;
  if (!has_min_max_ && nans == count) return Status::OK();
  if (min_key == 0) min_bits = kHalfNegativeZero;
  if (max_key == 0) max_bits = kHalfPositiveZero;
  min_inline_[0] = static_cast<uint8_t>(min_bits), min_inline_[1] = static_cast<uint8_t>(min_bits >> 8);
  max_inline_[0] = static_cast<uint8_t>(max_bits), max_inline_[1] = static_cast<uint8_t>(max_bits >> 8);
  has_min_max_ = true;
  return Status::OK();
}

Status StatisticsCollector::UpdateFixedBytes(const uint8_t* values, int64_t count) {
  const size_t width = static_cast<size_t>(type_length_);
  auto value_at = [&](int64_t i) {
    return std::string_view(reinterpret_cast<const char*>(values) + static_cast<size_t>(i) * width, width);
  };
  std::string_view batch_min = value_at(0);
  std::string_view batch_max = batch_min;
  for (int64_t i = 1; i < count; ++i) {
    const std::string_view v = value_at(i);
    if (Compare(v, batch_min) < 0) batch_min = v;
    if (Compare(v, batch_max) > 0) batch_max = v;
  }
  return OfferBytes(batch_min, batch_max);
}

Status StatisticsCollector::UpdateFixed(const void* values, int64_t count) {
  if (count <= 0) return Status::OK();
  num_values_ += count;
  const auto* bytes = static_cast<const uint8_t*>(values);
  switch (kind_) {
    case Kind::kInt32: UpdateNumeric(static_cast<const int32_t*>(values), count); break;
    case Kind::kUInt32: UpdateNumeric(static_cast<const uint32_t*>(values), count); break;
    case Kind::kInt64: UpdateNumeric(static_cast<const int64_t*>(values), count); break;
    case Kind::kUInt64: UpdateNumeric(static_cast<const uint64_t*>(values), count); break;
    case Kind::kFloat: UpdateNumeric(static_cast<const float*>(values), count); break;
    case Kind::kDouble: UpdateNumeric(static_cast<const double*>(values), count); break;
    case Kind::kFloat16: return UpdateFloat16(bytes, count);
    case Kind::kBytesUnsigned:
    case Kind::kBytesDecimal:
      if (physical_ != PhysicalType::kFixedLenByteArray || type_length_ <= 0) {
        return Status::Invalid("UpdateFixed on a {} column (type_length {}): byte arrays go through "
                               "UpdateByteArrays",
                               PhysicalTypeName(physical_), type_length_);
      }
      return UpdateFixedBytes(bytes, count);
    case Kind::kBoolean:
      return Status::Invalid("UpdateFixed on a BOOLEAN column: booleans go through UpdateBooleans");
    case Kind::kNone: break;  // INT96 and unknown orders: counts only
  }
  return Status::OK();
}

void StatisticsCollector::UpdateBooleans(const uint8_t* bits, int64_t bit_offset, int64_t count) {
  if (count <= 0) return;
  num_values_ += count;
  if (kind_ != Kind::kBoolean) return;
  const int64_t trues = bit_util::CountSetBits(bits, bit_offset, count);
  uint8_t batch_min = trues == count ? 1 : 0;  // false if any false
  uint8_t batch_max = trues > 0 ? 1 : 0;       // true if any true
  if (has_min_max_) {
    batch_min = std::min(batch_min, min_inline_[0]);
    batch_max = std::max(batch_max, max_inline_[0]);
  }
  min_inline_[0] = batch_min;
  max_inline_[0] = batch_max;
  has_min_max_ = true;
}

Status StatisticsCollector::UpdateByteArrays(const ByteArrayView* values, int64_t count) {
  if (count <= 0) return Status::OK();
  num_values_ += count;
  if (kind_ == Kind::kNone) return Status::OK();
  if (kind_ == Kind::kFloat16) {  // FLBA(2) handed over as views: rare, one value at a time
    for (int64_t i = 0; i < count; ++i) {
      if (values[i].length != 2) {
        num_values_ -= count - i;
        return Status::Invalid("FLOAT16 value {} of a batch has {} bytes, not 2", i, values[i].length);
      }
      STRATA_RETURN_NOT_OK(UpdateFloat16(values[i].data, 1));
    }
    return Status::OK();
  }
  if (kind_ != Kind::kBytesUnsigned && kind_ != Kind::kBytesDecimal) {
    return Status::Invalid("UpdateByteArrays on a {} column: fixed-width values go through UpdateFixed",
                           PhysicalTypeName(physical_));
  }
  // Find the batch's min and max among the caller's views, then copy at most two values.
  std::string_view batch_min = values[0].view();
  std::string_view batch_max = batch_min;
  for (int64_t i = 1; i < count; ++i) {
    const std::string_view v = values[i].view();
    if (Compare(v, batch_min) < 0) batch_min = v;
    if (Compare(v, batch_max) > 0) batch_max = v;
  }
  return OfferBytes(batch_min, batch_max);
}

Status StatisticsCollector::Store(ResizableBuffer* buffer, std::string_view value) {
  // Reserve keeps the old value when the pool refuses, so a failure leaves min/max as they were.
  STRATA_RETURN_NOT_OK(buffer->Reserve(static_cast<int64_t>(value.size())));
  buffer->Clear();
  buffer->UnsafeAppend(value.data(), static_cast<int64_t>(value.size()));
  return Status::OK();
}

Status StatisticsCollector::OfferBytes(std::string_view min_candidate, std::string_view max_candidate) {
  const bool new_min = !has_min_max_ || Compare(min_candidate, min_buffer_.view()) < 0;
  const bool new_max = !has_min_max_ || Compare(max_candidate, max_buffer_.view()) > 0;
  // Both reservations before either copy: a refusal changes nothing.
  if (new_min) STRATA_RETURN_NOT_OK(min_buffer_.Reserve(static_cast<int64_t>(min_candidate.size())));
  if (new_max) STRATA_RETURN_NOT_OK(max_buffer_.Reserve(static_cast<int64_t>(max_candidate.size())));
  if (new_min) STRATA_RETURN_NOT_OK(Store(&min_buffer_, min_candidate));
  if (new_max) STRATA_RETURN_NOT_OK(Store(&max_buffer_, max_candidate));
  has_min_max_ = true;
  return Status::OK();
}

void StatisticsCollector::AddNulls(int64_t count) {
  if (count > 0) null_count_ += count;
}

Status StatisticsCollector::Merge(const StatisticsCollector& other) {
  if (other.kind_ != kind_ || other.physical_ != physical_ || other.type_length_ != type_length_) {
    return Status::Invalid("cannot merge statistics of a {} column (type_length {}) into a {} column "
                           "(type_length {}) of another sort order or type",
                           PhysicalTypeName(other.physical_), other.type_length_, PhysicalTypeName(physical_),
                           type_length_);
  }
  null_count_ += other.null_count_;
  nan_count_ += other.nan_count_;
  num_values_ += other.num_values_;
  if (!other.has_min_max_) return Status::OK();
  if (kind_ == Kind::kBytesUnsigned || kind_ == Kind::kBytesDecimal) {
    return OfferBytes(other.min_bytes(), other.max_bytes());
  }
  // Inline kinds: both sides already follow the zero rule, and Compare treats -0 == +0, so a
  // kept -0.0 min / +0.0 max stays as it is.
  const size_t width = other.min_bytes().size();
  if (!has_min_max_ || Compare(other.min_bytes(), min_bytes()) < 0) std::memcpy(min_inline_, other.min_inline_, width);
  if (!has_min_max_ || Compare(other.max_bytes(), max_bytes()) > 0) std::memcpy(max_inline_, other.max_inline_, width);
  has_min_max_ = true;
  return Status::OK();
}

void StatisticsCollector::Reset() {
  has_min_max_ = false;
  null_count_ = 0;
  nan_count_ = 0;
  num_values_ = 0;
  min_buffer_.Clear();
  max_buffer_.Clear();
}

int StatisticsCollector::Compare(std::string_view a, std::string_view b) const {
  switch (kind_) {
    case Kind::kBoolean: return CompareValues(Load<uint8_t>(a.data()), Load<uint8_t>(b.data()));
    case Kind::kInt32: return CompareValues(Load<int32_t>(a.data()), Load<int32_t>(b.data()));
    case Kind::kUInt32: return CompareValues(Load<uint32_t>(a.data()), Load<uint32_t>(b.data()));
    case Kind::kInt64: return CompareValues(Load<int64_t>(a.data()), Load<int64_t>(b.data()));
    case Kind::kUInt64: return CompareValues(Load<uint64_t>(a.data()), Load<uint64_t>(b.data()));
    case Kind::kFloat: return CompareValues(Load<float>(a.data()), Load<float>(b.data()));
    case Kind::kDouble: return CompareValues(Load<double>(a.data()), Load<double>(b.data()));
    case Kind::kFloat16:
      return CompareValues(HalfOrderKey(LoadHalf(reinterpret_cast<const uint8_t*>(a.data()))),
                           HalfOrderKey(LoadHalf(reinterpret_cast<const uint8_t*>(b.data()))));
    case Kind::kBytesDecimal: return CompareDecimalBytes(a, b);
    case Kind::kBytesUnsigned:
    case Kind::kNone: break;
  }
  return CompareUnsignedBytes(a, b);
}

Statistics StatisticsCollector::ToThrift(const StatisticsOptions& options) const {
  Statistics stats;
  stats.null_count = null_count_;
  if (kind_ == Kind::kNone) return stats;
  if (is_floating()) stats.nan_count = nan_count_;
  if (!has_min_max_) return stats;
  const std::string_view min = min_bytes();
  const std::string_view max = max_bytes();
  const int32_t limit = kind_ == Kind::kBytesUnsigned ? options.max_value_bytes : 0;
  TruncatedBound min_bound = TruncateBound(min, limit, /*is_max=*/false);
  TruncatedBound max_bound = TruncateBound(max, limit, /*is_max=*/true);
  stats.min_value = std::move(min_bound.value);
  stats.is_min_value_exact = min_bound.exact;
  if (max_bound.present) {
    stats.max_value = std::move(max_bound.value);
    stats.is_max_value_exact = max_bound.exact;
  }
  // The legacy fields are defined as signed comparisons; only these kinds mean the same there.
  const bool legacy_same = kind_ == Kind::kBoolean || kind_ == Kind::kInt32 || kind_ == Kind::kInt64 ||
                           kind_ == Kind::kFloat || kind_ == Kind::kDouble;
  if (legacy_same) {
    stats.min.emplace(min);
    stats.max.emplace(max);
  }
  return stats;
}

int64_t StatisticsCollector::memory_size() const { return min_buffer_.capacity() + max_buffer_.capacity(); }

}  // namespace strata::parquet
