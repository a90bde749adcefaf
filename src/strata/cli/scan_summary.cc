#include "strata/cli/scan_summary.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <cstring>
#include <optional>

#include <fmt/format.h>

#include "strata/array/bitmap.h"
#include "strata/exec/task_group.h"
#include "strata/exec/thread_pool.h"
#include "strata/parquet/decimal_text.h"
#include "strata/types/month_day_nano.h"

#include "strata/cli/value_format.h"
#include "strata/util/json_writer.h"

namespace strata::cli {
namespace {

// A value's first 8 bytes as a big-endian number, zero-padded: keys order values as bytewise
// comparison does wherever they differ. `readable_end` is where the value's buffer ends: a
// shorter value is loaded as 8 bytes and masked when they lie inside it.
inline uint64_t PrefixKey(std::string_view v, const char* readable_end) {
  uint64_t key = 0;
  if (v.size() >= 8) {
    std::memcpy(&key, v.data(), 8);
    return __builtin_bswap64(key);
  }
  if (v.empty()) return 0;
  if (readable_end - v.data() >= 8) {
    std::memcpy(&key, v.data(), 8);
    return __builtin_bswap64(key) & (~uint64_t{0} << (8 * (8 - v.size())));
  }
  for (size_t i = 0; i < v.size(); ++i) key |= uint64_t{static_cast<unsigned char>(v[i])} << (8 * i);
  return __builtin_bswap64(key);
}

// A running extreme with its key: most comparisons against it are decided by the keys, and
// equal short values (a dictionary column's repeats) by the keys and lengths, without a memcmp
// call per value (memcmp was 15% of a lineitem scan).
struct KeyedBytes {
  std::string_view value;
  uint64_t key = 0;
  void Set(std::string_view v, uint64_t k) {
    value = v;
    key = k;
  }
};
inline bool BytesLess(std::string_view a, uint64_t a_key, const KeyedBytes& b) {
  if (a_key != b.key) return a_key < b.key;
  if (a.size() <= 8 && b.value.size() <= 8) return a.size() < b.value.size();
  return a < b.value;
}
inline bool BytesGreater(std::string_view a, uint64_t a_key, const KeyedBytes& b) {
  if (a_key != b.key) return a_key > b.key;
  if (a.size() <= 8 && b.value.size() <= 8) return a.size() > b.value.size();
  return a > b.value;
}

// Decimal text (a Parquet decimal wider than decimal256, read as "-12345.678"): compares by
// value. Each side is an optional '-', integer digits, and optionally '.' and fraction digits;
// leading integer zeros and trailing fraction zeros do not count, so any two texts compare
// right, not only those of one scale. -1, 0 or 1.
int CompareDecimalText(std::string_view a, std::string_view b) {
  const bool a_negative = !a.empty() && a[0] == '-';
  const bool b_negative = !b.empty() && b[0] == '-';
  if (a_negative) a.remove_prefix(1);
  if (b_negative) b.remove_prefix(1);
  auto split = [](std::string_view v, std::string_view* integer, std::string_view* fraction) {
    const size_t point = v.find('.');
    *integer = v.substr(0, point);
    *fraction = point == std::string_view::npos ? std::string_view() : v.substr(point + 1);
    while (!integer->empty() && integer->front() == '0') integer->remove_prefix(1);
    while (!fraction->empty() && fraction->back() == '0') fraction->remove_suffix(1);
  };
  std::string_view a_integer, a_fraction, b_integer, b_fraction;
  split(a, &a_integer, &a_fraction);
  split(b, &b_integer, &b_fraction);
  const bool a_zero = a_integer.empty() && a_fraction.empty();
  const bool b_zero = b_integer.empty() && b_fraction.empty();
  const int a_sign = a_zero ? 0 : a_negative ? -1 : 1;
  const int b_sign = b_zero ? 0 : b_negative ? -1 : 1;
  if (a_sign != b_sign) return a_sign < b_sign ? -1 : 1;
  // Same sign: compare magnitudes (integer digits first, then the fraction bytewise, where a
  // shorter fraction is padded with zeros).
  int magnitude = 0;
  if (a_integer.size() != b_integer.size()) {
    magnitude = a_integer.size() < b_integer.size() ? -1 : 1;
  } else if (const int c = a_integer.compare(b_integer); c != 0) {
    magnitude = c < 0 ? -1 : 1;
  } else if (const int f = a_fraction.compare(b_fraction); f != 0) {
    magnitude = f < 0 ? -1 : 1;
  }
  return a_sign < 0 ? -magnitude : magnitude;
}

// The contract's type of a decimal read as text ("decimal(77,38)", from the field metadata
// the Parquet reader gives it), or empty for any other field.
std::string DecimalTextTypeName(const Field& field) {
  const TypeId id = field.type()->id();
  if (id != TypeId::kString && id != TypeId::kLargeString && id != TypeId::kStringView) return {};
  const auto parquet_type = field.metadata().Get(parquet::kDecimalTextMetadataKey);
  if (!parquet_type) return {};
  std::string name;
  for (const char c : *parquet_type) {
    if (c != ' ') name += c;
  }
  return name;
}

// Value i of a binary-like or view array (i counts from the array's offset), as a view into
// the array's buffers.
template <typename Offset>
auto BinaryGetter(const ArrayData& a) {
  const Offset* offsets = a.buffers[1]->data_as<Offset>() + a.offset;
  const char* data = a.buffers[2] ? reinterpret_cast<const char*>(a.buffers[2]->data()) : "";
  return [offsets, data](int64_t i) {
    return std::string_view(data + offsets[i], static_cast<size_t>(offsets[i + 1] - offsets[i]));
  };
}
auto ViewGetter(const ArrayData& a) {
  const uint8_t* views = a.buffers[1]->data() + 16 * a.offset;
  return [views, &a](int64_t i) {
    const uint8_t* view = views + 16 * i;
    int32_t length, buffer, offset;
    std::memcpy(&length, view, 4);
    if (length <= 12) return std::string_view(reinterpret_cast<const char*>(view + 4), static_cast<size_t>(length));
    std::memcpy(&buffer, view + 8, 4);
    std::memcpy(&offset, view + 12, 4);
    const auto* data = reinterpret_cast<const char*>(a.buffers[2 + static_cast<size_t>(buffer)]->data());
    return std::string_view(data + offset, static_cast<size_t>(length));
  };
}

// Validity of an array's slots, looked up once per batch rather than per value.
struct Validity {
  explicit Validity(const ArrayData& a)
      : bits(a.validity_data()), offset(a.offset), all_valid(bits == nullptr || a.GetNullCount() == 0) {}
  bool operator()(int64_t i) const {
    if (all_valid) return true;
    const int64_t bit = offset + i;
    return (bits[bit >> 3] >> (bit & 7)) & 1;
  }
  const uint8_t* bits;
  int64_t offset;
  bool all_valid;
};

int64_t BufferBytes(const ArrayData& a) {
  int64_t total = 0;
  for (const auto& b : a.buffers) {
    if (b) total += b->size();
  }
  for (const auto& c : a.children) total += BufferBytes(*c);
  return total;
}

}  // namespace

std::string SummaryTypeName(const DataType& type) {
  switch (type.id()) {
    case TypeId::kBoolean: return "bool";
    case TypeId::kInt8: return "int8";
    case TypeId::kInt16: return "int16";
    case TypeId::kInt32: return "int32";
    case TypeId::kInt64: return "int64";
    case TypeId::kUInt8: return "uint8";
    case TypeId::kUInt16: return "uint16";
    case TypeId::kUInt32: return "uint32";
    case TypeId::kUInt64: return "uint64";
    case TypeId::kFloat16: return "float16";
    case TypeId::kFloat32: return "float32";
    case TypeId::kFloat64: return "float64";
    case TypeId::kDecimal32:
    case TypeId::kDecimal64:
    case TypeId::kDecimal128:
    case TypeId::kDecimal256: return fmt::format("decimal({},{})", type.precision(), type.scale());
    case TypeId::kDate32:
    case TypeId::kDate64: return "date";
    case TypeId::kTimestamp: return fmt::format("timestamp[{}]", TimeUnitName(type.unit()));
    // A duration (restored from an ARROW:schema, or an IPC input) is stored as a plain INT64:
    // the contract summarises it as that integer, as every other engine reads it.
    case TypeId::kDuration: return "int64";
    case TypeId::kTime32:
    case TypeId::kTime64: return fmt::format("time[{}]", TimeUnitName(type.unit()));
    case TypeId::kString:
    case TypeId::kLargeString:
    case TypeId::kStringView: return "string";
    case TypeId::kBinary:
    case TypeId::kLargeBinary:
    case TypeId::kBinaryView:
    case TypeId::kFixedSizeBinary:
    // Parquet INTERVAL is a FIXED_LEN_BYTE_ARRAY(12), which the contract summarises as binary;
    // the three Arrow interval types are summarised by that form.
    case TypeId::kIntervalYearMonth:
    case TypeId::kIntervalDayTime:
    case TypeId::kIntervalMonthDayNano: return "binary";
    case TypeId::kNull: return "null";
    case TypeId::kDictionary: return SummaryTypeName(*type.value_type());  // summarised by value
    case TypeId::kRunEndEncoded: return SummaryTypeName(*type.encoded_value_type());  // by logical value
    // A union's values are of several types: counted (a slot is null when its member's value
    // is), without min or max.
    case TypeId::kSparseUnion:
    case TypeId::kDenseUnion: return "union";
    default: return "nested";
  }
}

// Running count, nulls, min and max of one column. Values are kept in a comparable native
// form and formatted once at the end.
class ColumnSummary {
 public:
  // `decimal_text`: the contract's type ("decimal(P,S)") when the column holds decimal text,
  // which is summarised in numeric order; empty otherwise.
  ColumnSummary(std::string name, TypePtr type, std::string decimal_text = {})
      : name_(std::move(name)), type_(std::move(type)), decimal_text_(std::move(decimal_text)) {
    if (type_->id() == TypeId::kDictionary) {
      values_ = std::make_unique<ColumnSummary>(name_, type_->value_type(), decimal_text_);
    }
    if (type_->id() == TypeId::kRunEndEncoded) {
      values_ = std::make_unique<ColumnSummary>(name_, type_->encoded_value_type(), decimal_text_);
    }
  }

  void Add(const ArrayData& a) {
    if (type_->id() == TypeId::kDictionary) return AddDictionary(a);
    if (type_->id() == TypeId::kRunEndEncoded) return AddRunEndEncoded(a);
    if (is_union(type_->id())) {
      const int64_t nulls = UnionArray(std::make_shared<ArrayData>(a)).LogicalNullCount();
      nulls_ += nulls;
      count_ += a.length - nulls;
      return;
    }
    const int64_t n = a.length;
    const int64_t nulls = a.validity_data() ? a.GetNullCount() : (a.type->id() == TypeId::kNull ? n : 0);
    nulls_ += nulls;
    count_ += n - nulls;
    switch (type_->id()) {
      case TypeId::kBoolean: return AddBooleans(a);
      case TypeId::kInt8: return AddIntegers<int8_t>(a);
      case TypeId::kInt16: return AddIntegers<int16_t>(a);
      case TypeId::kInt32:
      case TypeId::kDecimal32:  // the unscaled value orders it
      case TypeId::kDate32:
      case TypeId::kTime32: return AddIntegers<int32_t>(a);
      case TypeId::kInt64:
      case TypeId::kDecimal64:
      case TypeId::kDate64:
      case TypeId::kTime64:
      case TypeId::kTimestamp:
      case TypeId::kDuration: return AddIntegers<int64_t>(a);
      case TypeId::kUInt8: return AddUnsigned<uint8_t>(a);
      case TypeId::kUInt16: return AddUnsigned<uint16_t>(a);
      case TypeId::kUInt32: return AddUnsigned<uint32_t>(a);
      case TypeId::kUInt64: return AddUnsigned<uint64_t>(a);
      case TypeId::kFloat16: return AddFloats(a, [](const uint8_t* p, int64_t i) {
          uint16_t bits;
          std::memcpy(&bits, p + 2 * i, 2);
          return static_cast<double>(Float16ToFloat32(bits));
        });
      case TypeId::kFloat32: return AddFloats(a, [](const uint8_t* p, int64_t i) {
          return static_cast<double>(reinterpret_cast<const float*>(p)[i]);
        });
      case TypeId::kFloat64: return AddFloats(a, [](const uint8_t* p, int64_t i) {
          return reinterpret_cast<const double*>(p)[i];
        });
      case TypeId::kDecimal128: return AddDecimal128(a);
      case TypeId::kString:
        if (!decimal_text_.empty()) return AddDecimalTexts(a, BinaryGetter<int32_t>(a));
        return AddBinary<int32_t>(a);
      case TypeId::kLargeString:
        if (!decimal_text_.empty()) return AddDecimalTexts(a, BinaryGetter<int64_t>(a));
        return AddBinary<int64_t>(a);
      case TypeId::kStringView:
        if (!decimal_text_.empty()) return AddDecimalTexts(a, ViewGetter(a));
        return AddViews(a);
      case TypeId::kBinary: return AddBinary<int32_t>(a);
      case TypeId::kLargeBinary: return AddBinary<int64_t>(a);
      case TypeId::kBinaryView: return AddViews(a);
      case TypeId::kFixedSizeBinary:
      case TypeId::kDecimal256: return AddFixedBytes(a);
      case TypeId::kIntervalYearMonth:
      case TypeId::kIntervalDayTime:
      case TypeId::kIntervalMonthDayNano: return AddIntervals(a);
      default: return;  // nested and null: counted only
    }
  }

  void Merge(const ColumnSummary& other) {
    count_ += other.count_;
    nulls_ += other.nulls_;
    saw_nan_ = saw_nan_ || other.saw_nan_;
    interval_without_parquet_form_ = interval_without_parquet_form_ || other.interval_without_parquet_form_;
    if (values_ != nullptr) values_->Merge(*other.values_);
    if (!other.has_value_) return;
    if (!has_value_) {
      int_min_ = other.int_min_, int_max_ = other.int_max_;
      uint_min_ = other.uint_min_, uint_max_ = other.uint_max_;
      float_min_ = other.float_min_, float_max_ = other.float_max_;
      decimal_min_ = other.decimal_min_, decimal_max_ = other.decimal_max_;
      bytes_min_ = other.bytes_min_, bytes_max_ = other.bytes_max_;
      has_value_ = true;
      return;
    }
    // Only the type's own pair is meaningful; the others stay 0 on both sides.
    int_min_ = std::min(int_min_, other.int_min_), int_max_ = std::max(int_max_, other.int_max_);
    uint_min_ = std::min(uint_min_, other.uint_min_), uint_max_ = std::max(uint_max_, other.uint_max_);
    float_min_ = std::min(float_min_, other.float_min_), float_max_ = std::max(float_max_, other.float_max_);
    decimal_min_ = std::min(decimal_min_, other.decimal_min_), decimal_max_ = std::max(decimal_max_, other.decimal_max_);
    if (!decimal_text_.empty()) {
      if (CompareDecimalText(other.bytes_min_, bytes_min_) < 0) bytes_min_ = other.bytes_min_;
      if (CompareDecimalText(other.bytes_max_, bytes_max_) > 0) bytes_max_ = other.bytes_max_;
      return;
    }
    if (other.bytes_min_ < bytes_min_) bytes_min_ = other.bytes_min_;
    if (other.bytes_max_ > bytes_max_) bytes_max_ = other.bytes_max_;
  }

  void AppendJson(std::string* out) const {
    *out += "{\"name\":";
    AppendJsonString(name_, out);
    *out += ",\"type\":";
    const std::string type = decimal_text_.empty() ? SummaryTypeName(*type_) : decimal_text_;
    AppendJsonString(type, out);
    if (type == "nested") {
      *out += fmt::format(",\"count\":null,\"nulls\":{},\"min\":null,\"max\":null}}", nulls_);
      return;
    }
    if (type == "union") {
      *out += fmt::format(",\"count\":{},\"nulls\":{},\"min\":null,\"max\":null}}", count_, nulls_);
      return;
    }
    *out += fmt::format(",\"count\":{},\"nulls\":{},\"min\":", count_, nulls_);
    auto min = Format(true);
    auto max = Format(false);
    if (min) AppendJsonString(*min, out); else *out += "null";
    *out += ",\"max\":";
    if (max) AppendJsonString(*max, out); else *out += "null";
    *out += '}';
  }

  std::string ToText() const {
    const bool nested = SummaryTypeName(*type_) == "nested";
    return fmt::format("{}  {}  count={}  nulls={}  min={}  max={}", name_,
                       decimal_text_.empty() ? type_->ToString() : decimal_text_ + " as text",
                       nested ? std::string("-") : std::to_string(count_), nulls_, Format(true).value_or("null"),
                       Format(false).value_or("null"));
  }

 private:
  template <typename T>
  void AddIntegers(const ArrayData& a) {
    const T* values = a.buffers[1]->data_as<T>() + a.offset;
    T lo = std::numeric_limits<T>::max();
    T hi = std::numeric_limits<T>::min();
    if (!MinMax(a, values, &lo, &hi)) return;
    if (!has_value_ || lo < int_min_) int_min_ = lo;
    if (!has_value_ || hi > int_max_) int_max_ = hi;
    has_value_ = true;
  }
  template <typename T>
  void AddUnsigned(const ArrayData& a) {
    const T* values = a.buffers[1]->data_as<T>() + a.offset;
    T lo = std::numeric_limits<T>::max();
    T hi = 0;
    if (!MinMax(a, values, &lo, &hi)) return;
    if (!has_value_ || lo < uint_min_) uint_min_ = lo;
    if (!has_value_ || hi > uint_max_) uint_max_ = hi;
    has_value_ = true;
  }
  // The batch's min and max of the valid values (false when there is none), in loops the
  // compiler vectorises (no nulls) or keeps branch-free; the running extremes are touched once
  // per batch.
  template <typename T>
  static bool MinMax(const ArrayData& a, const T* values, T* lo_out, T* hi_out) {
    const Validity valid(a);
    T lo = *lo_out;
    T hi = *hi_out;
    bool any = false;
    if (valid.all_valid) {
      for (int64_t i = 0; i < a.length; ++i) {
        lo = std::min(lo, values[i]);
        hi = std::max(hi, values[i]);
      }
      any = a.length > 0;
    } else {
      for (int64_t i = 0; i < a.length; ++i) {
        if (!valid(i)) continue;
        lo = std::min(lo, values[i]);
        hi = std::max(hi, values[i]);
        any = true;
      }
    }
    *lo_out = lo;
    *hi_out = hi;
    return any;
  }
  void AddBooleans(const ArrayData& a) {
    const uint8_t* bits = a.buffers[1]->data();
    const Validity valid(a);
    for (int64_t i = 0; i < a.length; ++i) {
      if (!valid(i)) continue;
      const int64_t bit = a.offset + i;
      const int64_t v = (bits[bit >> 3] >> (bit & 7)) & 1;
      if (!has_value_ || v < int_min_) int_min_ = v;
      if (!has_value_ || v > int_max_) int_max_ = v;
      has_value_ = true;
    }
  }
  template <typename Get>
  void AddFloats(const ArrayData& a, Get get) {
    const uint8_t* values = a.buffers[1]->data();
    const Validity valid(a);
    // NaN fails both comparisons, so it never becomes an extreme; it is only noted.
    double lo = std::numeric_limits<double>::infinity();
    double hi = -std::numeric_limits<double>::infinity();
    int64_t non_nan = 0;
    for (int64_t i = 0; i < a.length; ++i) {
      if (!valid(i)) continue;
      const double v = get(values, a.offset + i);
      non_nan += v == v;
      lo = v < lo ? v : lo;
      hi = v > hi ? v : hi;
    }
    const int64_t valid_count = valid.all_valid ? a.length : a.length - a.GetNullCount();
    if (non_nan < valid_count) saw_nan_ = true;
    if (non_nan == 0) return;
    if (!has_value_ || lo < float_min_) float_min_ = lo;
    if (!has_value_ || hi > float_max_) float_max_ = hi;
    has_value_ = true;
  }
  void AddDecimal128(const ArrayData& a) {
    const uint8_t* values = a.buffers[1]->data() + 16 * a.offset;
    const Validity valid(a);
    __int128 lo = ~(static_cast<__int128>(1) << 127);  // the largest
    __int128 hi = static_cast<__int128>(1) << 127;      // the smallest
    bool any = false;
    if (valid.all_valid) {
      // Without nulls, in 64-bit halves: decimals widened from INT64 storage (precision up to
      // 18, most files) have a high half that is the low half's sign, and then the low halves
      // alone order them; the loop checks that as it goes and runs branch-free.
      int64_t lo64 = std::numeric_limits<int64_t>::max(), hi64 = std::numeric_limits<int64_t>::min();
      uint64_t wide = 0;
      for (int64_t i = 0; i < a.length; ++i) {
        int64_t half[2];
        std::memcpy(half, values + 16 * i, 16);
        wide |= static_cast<uint64_t>(half[1] ^ (half[0] >> 63));
        lo64 = std::min(lo64, half[0]);
        hi64 = std::max(hi64, half[0]);
      }
      if (wide == 0) {
        any = a.length > 0;
        lo = lo64;
        hi = hi64;
      }
    }
    if (!any) {
      for (int64_t i = 0; i < a.length; ++i) {
        if (!valid(i)) continue;
        __int128 v;
        std::memcpy(&v, values + 16 * i, 16);
        lo = v < lo ? v : lo;
        hi = v > hi ? v : hi;
        any = true;
      }
    }
    if (!any) return;
    if (!has_value_ || lo < decimal_min_) decimal_min_ = lo;
    if (!has_value_ || hi > decimal_max_) decimal_max_ = hi;
    has_value_ = true;
  }
  template <typename Offset>
  void AddBinary(const ArrayData& a) {
    const Offset* offsets = a.buffers[1]->data_as<Offset>() + a.offset;
    const char* data = a.buffers[2] ? reinterpret_cast<const char*>(a.buffers[2]->data()) : "";
    const char* end = a.buffers[2] ? data + a.buffers[2]->size() : data;
    // Bytes past the values but inside the allocation may be loaded (and masked off).
    const int64_t readable = a.buffers[2] ? a.buffers[2]->capacity() : 0;
    if (Validity(a).all_valid && AddShortBinary(offsets, data, readable, a.length)) return;
    AddBytes(a, end, [&](int64_t i) {
      return std::string_view(data + offsets[i], static_cast<size_t>(offsets[i + 1] - offsets[i]));
    });
  }
  // A batch of values of at most 7 bytes (flags, codes, short names), none null: one number
  // per value holds it whole (its bytes big-endian and zero-padded, its length in the low
  // byte) and orders as bytewise comparison does, so min and max take one branch-free loop
  // (three times the speed of the keyed comparison). False, having changed nothing, when a
  // value is longer or lies too near the end of the `readable` bytes for an 8-byte load.
  template <typename Offset>
  bool AddShortBinary(const Offset* offsets, const char* data, int64_t readable, int64_t n) {
    if (n == 0 || static_cast<int64_t>(offsets[n - 1]) + 8 > readable) return false;
    uint64_t lo = ~uint64_t{0}, hi = 0;
    // Checked every 256 values, so a batch of longer values gives up at once.
    for (int64_t begin = 0; begin < n; begin += 256) {
      const int64_t end = std::min<int64_t>(n, begin + 256);
      uint64_t too_long = 0;
      for (int64_t i = begin; i < end; ++i) {
        const int64_t start = offsets[i];
        const auto length = static_cast<uint64_t>(offsets[i + 1] - start);
        uint64_t bytes;
        std::memcpy(&bytes, data + start, 8);
        const uint64_t mask = length == 0 ? 0 : ~uint64_t{0} << ((64 - 8 * length) & 63);
        const uint64_t packed = (__builtin_bswap64(bytes) & mask & ~uint64_t{0xFF}) | length;
        too_long |= length > 7 ? 1 : 0;
        lo = std::min(lo, packed);
        hi = std::max(hi, packed);
      }
      if (too_long != 0) return false;
    }
    auto unpack = [](uint64_t packed) {
      std::string value(static_cast<size_t>(packed & 0xFF), '\0');
      for (size_t k = 0; k < value.size(); ++k) value[k] = static_cast<char>(packed >> (56 - 8 * k));
      return value;
    };
    const std::string min = unpack(lo), max = unpack(hi);
    if (!has_value_ || min < bytes_min_) bytes_min_ = min;
    if (!has_value_ || max > bytes_max_) bytes_max_ = max;
    has_value_ = true;
    return true;
  }
  void AddViews(const ArrayData& a) { AddBytes(a, nullptr, ViewGetter(a)); }
  // Decimal text in numeric order (text order put "-0.5" below "-10.0"). Such columns are rare
  // and short-lived (precision above 76), so values are compared one by one.
  template <typename Get>
  void AddDecimalTexts(const ArrayData& a, Get get) {
    const Validity valid(a);
    std::string_view lo, hi;
    bool any = false;
    for (int64_t i = 0; i < a.length; ++i) {
      if (!valid(i)) continue;
      const std::string_view v = get(i);
      if (!any) {
        lo = hi = v;
        any = true;
      } else if (CompareDecimalText(v, lo) < 0) {
        lo = v;
      } else if (CompareDecimalText(v, hi) > 0) {
        hi = v;
      }
    }
    if (!any) return;
    if (!has_value_ || CompareDecimalText(lo, bytes_min_) < 0) bytes_min_.assign(lo);
    if (!has_value_ || CompareDecimalText(hi, bytes_max_) > 0) bytes_max_.assign(hi);
    has_value_ = true;
  }
  // A dictionary column: counts from its indices (a valid index to a null value is a null),
  // min and max over the values its valid indices use.
  // Logical values: each run counts as many times as it covers the array's range; min and max
  // come from the runs the range touches (fed to the value type's summary through a bitmap
  // over the values, as a dictionary's used entries are).
  void AddRunEndEncoded(const ArrayData& a) {
    if (a.length == 0) return;
    const RunEndEncodedArray ree(std::make_shared<ArrayData>(a));
    const ArrayData& values = ree.values();
    const int64_t base = values.offset;
    used_.assign(static_cast<size_t>(bitmap::BytesForBits(base + values.length)), 0);
    const Validity value_valid(values);
    const bool values_have_validity = values.validity_data() != nullptr || values.type->id() == TypeId::kNull;
    const int64_t begin = a.offset, end = a.offset + a.length;
    for (int64_t run = ree.PhysicalIndex(0); run < values.length; ++run) {
      const int64_t run_start = run == 0 ? 0 : ree.RunEnd(run - 1);
      const int64_t run_end = ree.RunEnd(run);
      const int64_t covered = std::min(run_end, end) - std::max(run_start, begin);
      const bool is_null = values.type->id() == TypeId::kNull || (values_have_validity && !value_valid(run));
      if (is_null) {
        nulls_ += covered;
      } else {
        count_ += covered;
        bitmap::SetBit(used_.data(), base + run);
      }
      if (run_end >= end) break;
    }
    Buffer used(used_.data(), static_cast<int64_t>(used_.size()));
    ArrayData selected = values;
    if (values.type->id() == TypeId::kNull) return;
    selected.buffers[0] = std::shared_ptr<Buffer>(std::shared_ptr<Buffer>(), &used);  // not owned
    selected.null_count = kUnknownNullCount;
    values_->Add(selected);
  }

  void AddDictionary(const ArrayData& a) {
    const ArrayData& dictionary = *a.dictionary;
    const int width = a.type->index_type()->byte_width();
    const bool is_signed = is_signed_integer(a.type->index_type()->id());
    const uint8_t* indices = a.buffers[1]->data() + static_cast<int64_t>(width) * a.offset;
    auto index = [&](int64_t i) -> int64_t {
      switch (width) {
        case 1: return is_signed ? int64_t{reinterpret_cast<const int8_t*>(indices)[i]} : int64_t{indices[i]};
        case 2: return is_signed ? int64_t{reinterpret_cast<const int16_t*>(indices)[i]}
                                 : int64_t{reinterpret_cast<const uint16_t*>(indices)[i]};
        case 4: return is_signed ? int64_t{reinterpret_cast<const int32_t*>(indices)[i]}
                                 : int64_t{reinterpret_cast<const uint32_t*>(indices)[i]};
        default: return reinterpret_cast<const int64_t*>(indices)[i];
      }
    };
    // Which values are used: a bitmap over the dictionary (at its offset), fed to the value
    // type's summary as the dictionary's validity.
    const int64_t base = dictionary.offset;
    used_.assign(static_cast<size_t>(bitmap::BytesForBits(base + dictionary.length)), 0);
    const Validity valid(a);
    const Validity value_valid(dictionary);
    int64_t nulls = 0;
    for (int64_t i = 0; i < a.length; ++i) {
      const int64_t k = valid(i) ? index(i) : -1;
      if (k < 0 || !value_valid(k)) {
        ++nulls;
        continue;
      }
      bitmap::SetBit(used_.data(), base + k);
    }
    nulls_ += nulls;
    count_ += a.length - nulls;
    Buffer used(used_.data(), static_cast<int64_t>(used_.size()));
    ArrayData selected = dictionary;
    selected.buffers[0] = std::shared_ptr<Buffer>(std::shared_ptr<Buffer>(), &used);  // not owned
    selected.null_count = kUnknownNullCount;
    values_->Add(selected);
  }
  // `readable_end`: the end of the one buffer every value lies in, or null (views: several).
  template <typename Get>
  void AddBytes(const ArrayData& a, const char* readable_end, Get get) {
    const Validity valid(a);
    // The batch's extremes as views into it; copied out once per batch, not per new extreme.
    KeyedBytes lo, hi;
    bool any = false;
    for (int64_t i = 0; i < a.length; ++i) {
      if (!valid(i)) continue;
      const std::string_view v = get(i);
      const uint64_t key = PrefixKey(v, readable_end == nullptr ? v.data() : readable_end);
      if (!any) {
        lo.Set(v, key);
        hi.Set(v, key);
        any = true;
      } else if (BytesLess(v, key, lo)) {
        lo.Set(v, key);
      } else if (BytesGreater(v, key, hi)) {
        hi.Set(v, key);
      }
    }
    if (!any) return;
    if (!has_value_ || lo.value < bytes_min_) bytes_min_.assign(lo.value);
    if (!has_value_ || hi.value > bytes_max_) bytes_max_.assign(hi.value);
    has_value_ = true;
  }
  void AddFixedBytes(const ArrayData& a) {
    const int width = type_->byte_width();
    const char* values = reinterpret_cast<const char*>(a.buffers[1]->data());
    const Validity valid(a);
    for (int64_t i = 0; i < a.length; ++i) {
      if (!valid(i)) continue;
      std::string_view v(values + width * (a.offset + i), static_cast<size_t>(width));
      if (type_->id() == TypeId::kDecimal256) {
        // Little-endian two's complement: compare as big-endian with the sign bit flipped.
        std::string key(v.rbegin(), v.rend());
        key[0] = static_cast<char>(key[0] ^ 0x80);
        if (!has_value_ || key < bytes_min_) bytes_min_ = key;
        if (!has_value_ || key > bytes_max_) bytes_max_ = key;
      } else {
        if (!has_value_ || v < bytes_min_) bytes_min_.assign(v);
        if (!has_value_ || v > bytes_max_) bytes_max_.assign(v);
      }
      has_value_ = true;
    }
  }

  // Intervals have no order of their own (is a month more than 30 days?): like every
  // FIXED_LEN_BYTE_ARRAY they compare by the bytes a Parquet file stores, INTERVAL's
  // little-endian unsigned 32-bit months, days and milliseconds, as the peers compare them.
  // A value INTERVAL cannot hold (negative parts, a fraction of a millisecond: never read from
  // Parquet, possible from IPC) has no such bytes, and the column then shows no min or max.
  void AddIntervals(const ArrayData& a) {
    constexpr int64_t kNanosPerMilli = 1000000;
    const uint8_t* values = a.buffers[1]->data();
    const Validity valid(a);
    char bytes[12];
    for (int64_t i = 0; i < a.length; ++i) {
      if (!valid(i)) continue;
      const MonthDayNano v = LoadIntervalAsMonthDayNano(type_->id(), values, a.offset + i);
      if (v.months < 0 || v.days < 0 || v.nanoseconds < 0 || v.nanoseconds % kNanosPerMilli != 0 ||
          v.nanoseconds / kNanosPerMilli > UINT32_MAX) {
        interval_without_parquet_form_ = true;
        continue;
      }
      const uint32_t parts[3] = {static_cast<uint32_t>(v.months), static_cast<uint32_t>(v.days),
                                 static_cast<uint32_t>(v.nanoseconds / kNanosPerMilli)};
      std::memcpy(bytes, parts, sizeof(parts));
      const std::string_view key(bytes, sizeof(bytes));
      if (!has_value_ || key < bytes_min_) bytes_min_.assign(key);
      if (!has_value_ || key > bytes_max_) bytes_max_.assign(key);
      has_value_ = true;
    }
  }

  std::optional<std::string> Format(bool min) const {
    if (count_ == 0) return std::nullopt;
    if (values_ != nullptr) return values_->Format(min);
    const TypeId id = type_->id();
    if (is_floating(id)) {
      if (!has_value_) return saw_nan_ ? std::optional<std::string>("NaN") : std::nullopt;
      const double v = min ? float_min_ : float_max_;
      if (id == TypeId::kFloat64) return FormatFloat64(v);
      return FormatFloat32(static_cast<float>(v));
    }
    if (!has_value_) return std::nullopt;
    const int64_t i = min ? int_min_ : int_max_;
    switch (id) {
      case TypeId::kBoolean: return std::string(i ? "true" : "false");
      case TypeId::kUInt8:
      case TypeId::kUInt16:
      case TypeId::kUInt32:
      case TypeId::kUInt64: return std::to_string(min ? uint_min_ : uint_max_);
      case TypeId::kDate32: return FormatDate(i);
      case TypeId::kDate64: return FormatDate(i / 86400000 - (i % 86400000 < 0 ? 1 : 0));
      case TypeId::kTimestamp: return FormatTimestamp(i, ToFormatUnit(type_->unit()));
      case TypeId::kTime32:
      case TypeId::kTime64: return FormatTime(i, ToFormatUnit(type_->unit()));
      case TypeId::kDecimal32:
      case TypeId::kDecimal64: return FormatDecimal128(i, type_->scale());
      case TypeId::kDecimal128: return FormatDecimal128(min ? decimal_min_ : decimal_max_, type_->scale());
      case TypeId::kDecimal256: {
        std::string key = min ? bytes_min_ : bytes_max_;
        key[0] = static_cast<char>(key[0] ^ 0x80);
        return FormatDecimalBigEndian(reinterpret_cast<const uint8_t*>(key.data()), static_cast<int64_t>(key.size()),
                                      type_->scale());
      }
      case TypeId::kString:
      case TypeId::kLargeString:
      case TypeId::kStringView: return min ? bytes_min_ : bytes_max_;
      case TypeId::kBinary:
      case TypeId::kLargeBinary:
      case TypeId::kBinaryView:
      case TypeId::kFixedSizeBinary: return FormatBinaryDigest(min ? bytes_min_ : bytes_max_);
      case TypeId::kIntervalYearMonth:
      case TypeId::kIntervalDayTime:
      case TypeId::kIntervalMonthDayNano:
        if (interval_without_parquet_form_) return std::nullopt;
        return FormatBinaryDigest(min ? bytes_min_ : bytes_max_);
      default:
        if (is_integer(id) || id == TypeId::kDuration) return std::to_string(i);
        return std::nullopt;
    }
  }

  std::string name_;
  TypePtr type_;
  std::string decimal_text_;  // "decimal(P,S)" for decimal text, else empty
  int64_t count_ = 0;
  int64_t nulls_ = 0;
  bool has_value_ = false;
  bool saw_nan_ = false;
  bool interval_without_parquet_form_ = false;
  int64_t int_min_ = 0, int_max_ = 0;
  uint64_t uint_min_ = 0, uint_max_ = 0;
  double float_min_ = 0, float_max_ = 0;
  __int128 decimal_min_ = 0, decimal_max_ = 0;
  std::string bytes_min_, bytes_max_;
  std::unique_ptr<ColumnSummary> values_;  // a dictionary column's values
  std::vector<uint8_t> used_;              // scratch: the dictionary entries a batch uses
};

ScanSummary::ScanSummary(const Schema& schema) {
  for (const auto& f : schema.fields()) {
    columns_.push_back(std::make_unique<ColumnSummary>(f->name(), f->type(), DecimalTextTypeName(*f)));
  }
}

ScanSummary::~ScanSummary() = default;

void ScanSummary::Add(const RecordBatch& batch, const exec::Executor& executor) {
  rows_ += batch.num_rows();
  for (int i = 0; i < batch.num_columns(); ++i) decoded_bytes_ += BufferBytes(*batch.column(i).data());
  if (!executor.parallel() || batch.num_columns() < 2) {
    for (int i = 0; i < batch.num_columns(); ++i) columns_[static_cast<size_t>(i)]->Add(*batch.column(i).data());
    return;
  }
  // The summary was a quarter of a one-thread lineitem scan, all on the main thread: it
  // capped the parallel scan at 1.1-1.2x on 2 cores.
  exec::TaskGroup group(executor.pool(), executor.threads());
  for (int i = 0; i < batch.num_columns(); ++i) {
    group.Submit([this, &batch, i]() {
      columns_[static_cast<size_t>(i)]->Add(*batch.column(i).data());
      return Status::OK();
    });
  }
  (void)group.Wait();  // the tasks cannot fail
}

void ScanSummary::Merge(const ScanSummary& other) {
  rows_ += other.rows_;
  decoded_bytes_ += other.decoded_bytes_;
  for (size_t i = 0; i < columns_.size(); ++i) columns_[i]->Merge(*other.columns_[i]);
}

std::string ScanSummary::ToJson() const {
  std::string out = fmt::format("{{\"rows\":{},\"columns\":[", rows_);
  for (size_t i = 0; i < columns_.size(); ++i) {
    if (i) out += ',';
    columns_[i]->AppendJson(&out);
  }
  out += "]}";
  return out;
}

std::string ScanSummary::ToText() const {
  std::string out = fmt::format("rows: {}\n", rows_);
  for (const auto& c : columns_) {
    out += c->ToText();
    out += '\n';
  }
  return out;
}

}  // namespace strata::cli
