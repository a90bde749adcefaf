#include "strata/parquet/filter/predicate_values.h"

#include <cmath>
#include <cstring>
#include <limits>

#include "strata/array/value_text.h"
#include "strata/parquet/stats/bloom_filter.h"
#include "strata/parquet/stats/statistics.h"

namespace strata::parquet::filter {
namespace {

using Kind = expr::Value::Kind;

template <typename T>
T Load(std::string_view bytes) {
  T v;
  std::memcpy(&v, bytes.data(), sizeof(T));
  return v;
}

bool IsDecimalColumn(const SchemaElement* element) {
  if (element == nullptr) return false;
  if (element->logical_type) return element->logical_type->kind == LogicalType::Kind::kDecimal;
  return element->converted_type == ConvertedType::kDecimal;
}

// Big-endian two's complement (DECIMAL in BYTE_ARRAY / FIXED_LEN_BYTE_ARRAY) as a 128-bit
// integer; nullopt when empty or wider than 128 bits of significance.
std::optional<__int128> BigEndianDecimal(std::string_view bytes) {
  if (bytes.empty()) return std::nullopt;
  const auto* b = reinterpret_cast<const uint8_t*>(bytes.data());
  const size_t n = bytes.size();
  const uint8_t sign = (b[0] & 0x80) ? 0xFF : 0x00;
  size_t first = 0;
  if (n > 16) {
    // Leading bytes beyond 16 must be sign extension, and keep the sign bit.
    for (; first < n - 16; ++first) {
      if (b[first] != sign) return std::nullopt;
    }
    if ((b[first] & 0x80) != (sign & 0x80)) return std::nullopt;
  }
  unsigned __int128 v = sign ? ~static_cast<unsigned __int128>(0) : 0;
  for (size_t i = first; i < n; ++i) v = (v << 8) | b[i];
  return static_cast<__int128>(v);
}

std::string BigEndianBytes(__int128 value, int width) {
  std::string out(static_cast<size_t>(width), '\0');
  auto v = static_cast<unsigned __int128>(value);
  for (int i = width - 1; i >= 0; --i) {
    out[static_cast<size_t>(i)] = static_cast<char>(v & 0xFF);
    v >>= 8;
  }
  return out;
}

// Does the physical type store values of this kind (and in the order that kind compares)?
bool StoresKind(PhysicalType physical, bool decimal, bool float16, SortOrder order, Kind kind) {
  switch (kind) {
    case Kind::kBool: return physical == PhysicalType::kBoolean;
    case Kind::kInt:
      return !decimal && order == SortOrder::kSigned &&
             (physical == PhysicalType::kInt32 || physical == PhysicalType::kInt64);
    case Kind::kUInt:
      return order == SortOrder::kUnsigned && (physical == PhysicalType::kInt32 || physical == PhysicalType::kInt64);
    case Kind::kDouble:
      return physical == PhysicalType::kFloat || physical == PhysicalType::kDouble || float16;
    case Kind::kDecimal:
      return decimal && order == SortOrder::kSigned && physical != PhysicalType::kInt96 &&
             physical != PhysicalType::kBoolean;
    case Kind::kBytes:
      return !decimal && !float16 && order == SortOrder::kUnsigned &&
             (physical == PhysicalType::kByteArray || physical == PhysicalType::kFixedLenByteArray);
  }
  return false;
}

}  // namespace

std::optional<expr::Value::Kind> ValueKindOf(const DataType& type) {
  const TypeId id = type.id();
  if (id == TypeId::kDictionary) return ValueKindOf(*type.value_type());
  if (id == TypeId::kBoolean) return Kind::kBool;
  if (is_signed_integer(id) || is_temporal(id)) return Kind::kInt;
  if (is_unsigned_integer(id)) return Kind::kUInt;
  if (is_floating(id)) return Kind::kDouble;
  if (id == TypeId::kDecimal128) return Kind::kDecimal;
  switch (id) {
    case TypeId::kBinary: case TypeId::kString: case TypeId::kLargeBinary: case TypeId::kLargeString:
    case TypeId::kBinaryView: case TypeId::kStringView: case TypeId::kFixedSizeBinary:
      return Kind::kBytes;
    default: return std::nullopt;
  }
}

int LeafColumnIndex(const SchemaDescriptor& schema, const std::vector<int>& path) {
  if (path.empty()) return -1;
  const SchemaNode* node = &schema.root();
  for (const int child : path) {
    if (node->is_leaf() || child < 0 || static_cast<size_t>(child) >= node->children.size()) return -1;
    node = &schema.node(node->children[static_cast<size_t>(child)]);
    // A repeated node is a list: its rows hold many values, which no leaf compares.
    if (node->repetition() == FieldRepetitionType::kRepeated) return -1;
  }
  return node->is_leaf() ? node->leaf_index : -1;
}

ColumnValueReader::ColumnValueReader(const ColumnDescriptor& column, expr::Value::Kind kind)
    : column_(column), kind_(kind) {
  const SchemaElement* element = column.element;
  const std::optional<LogicalType> logical = element ? element->logical_type : std::nullopt;
  const std::optional<ConvertedType> converted = element ? element->converted_type : std::nullopt;
  const SortOrder order = ColumnSortOrder(column.physical_type, logical, converted);
  is_decimal_ = IsDecimalColumn(element);
  is_float16_ = IsFloat16Column(column.physical_type, logical);
  bounds_usable_ = order != SortOrder::kUnknown && column.physical_type != PhysicalType::kInt96 &&
                   StoresKind(column.physical_type, is_decimal_, is_float16_, order, kind);
  const PhysicalType p = column.physical_type;
  legacy_bounds_usable_ = bounds_usable_ && order == SortOrder::kSigned && !is_decimal_ &&
                          (p == PhysicalType::kInt32 || p == PhysicalType::kInt64 || p == PhysicalType::kFloat ||
                           p == PhysicalType::kDouble || p == PhysicalType::kBoolean);
}

std::optional<expr::Value> ColumnValueReader::Decode(std::string_view bytes) const {
  switch (column_.physical_type) {
    case PhysicalType::kBoolean:
      if (bytes.size() != 1 || kind_ != Kind::kBool) return std::nullopt;
      return expr::Value::Bool(bytes[0] != 0);
    case PhysicalType::kInt32: {
      if (bytes.size() != 4) return std::nullopt;
      const auto v = Load<int32_t>(bytes);
      if (kind_ == Kind::kUInt) return expr::Value::UInt(static_cast<uint32_t>(v));
      if (kind_ == Kind::kDecimal) return expr::Value::Decimal(v);
      if (kind_ == Kind::kInt) return expr::Value::Int(v);
      return std::nullopt;
    }
    case PhysicalType::kInt64: {
      if (bytes.size() != 8) return std::nullopt;
      const auto v = Load<int64_t>(bytes);
      if (kind_ == Kind::kUInt) return expr::Value::UInt(static_cast<uint64_t>(v));
      if (kind_ == Kind::kDecimal) return expr::Value::Decimal(v);
      if (kind_ == Kind::kInt) return expr::Value::Int(v);
      return std::nullopt;
    }
    case PhysicalType::kFloat: {
      if (bytes.size() != 4 || kind_ != Kind::kDouble) return std::nullopt;
      const double v = Load<float>(bytes);
      if (std::isnan(v)) return std::nullopt;
      return expr::Value::Double(v);
    }
    case PhysicalType::kDouble: {
      if (bytes.size() != 8 || kind_ != Kind::kDouble) return std::nullopt;
      const double v = Load<double>(bytes);
      if (std::isnan(v)) return std::nullopt;
      return expr::Value::Double(v);
    }
    case PhysicalType::kByteArray:
    case PhysicalType::kFixedLenByteArray: {
      if (column_.physical_type == PhysicalType::kFixedLenByteArray &&
          static_cast<int64_t>(bytes.size()) != column_.type_length) {
        return std::nullopt;
      }
      if (kind_ == Kind::kDecimal) {
        const auto v = BigEndianDecimal(bytes);
        if (!v) return std::nullopt;
        return expr::Value::Decimal(*v);
      }
      if (kind_ == Kind::kDouble && is_float16_) {
        if (bytes.size() != 2) return std::nullopt;
        const double v = value_text::HalfToFloat(Load<uint16_t>(bytes));
        if (std::isnan(v)) return std::nullopt;
        return expr::Value::Double(v);
      }
      if (kind_ != Kind::kBytes) return std::nullopt;
      return expr::Value::Bytes(std::string(bytes));
    }
    case PhysicalType::kInt96: return std::nullopt;
  }
  return std::nullopt;
}

expr::ValueRange ColumnValueReader::ChunkRange(const ColumnMetaData& metadata, int64_t rows) const {
  expr::ValueRange range;
  range.row_count = rows;
  if (!metadata.statistics) return range;
  const Statistics& stats = *metadata.statistics;
  if (stats.null_count && *stats.null_count >= 0) range.null_count = stats.null_count;
  if (kind_ == Kind::kDouble && stats.nan_count && *stats.nan_count >= 0) range.nan_count = stats.nan_count;
  const std::string* min = nullptr;
  const std::string* max = nullptr;
  if (bounds_usable_ && stats.min_value && stats.max_value) {
    min = &*stats.min_value;
    max = &*stats.max_value;
    range.min_exact = stats.is_min_value_exact.value_or(true);
    range.max_exact = stats.is_max_value_exact.value_or(true);
  } else if (legacy_bounds_usable_ && stats.min && stats.max) {
    min = &*stats.min;
    max = &*stats.max;
  }
  if (min != nullptr) {
    auto lo = Decode(*min);
    auto hi = Decode(*max);
    // Both or neither: a NaN or malformed bound makes the pair meaningless.
    if (lo && hi && lo->Compare(*hi) <= 0) {
      range.min = std::move(lo);
      range.max = std::move(hi);
    }
  }
  return range;
}

expr::ValueRange ColumnValueReader::PageRange(const ColumnIndex& index, size_t page, int64_t rows) const {
  expr::ValueRange range;
  range.row_count = rows;
  if (index.null_counts && page < index.null_counts->size() && (*index.null_counts)[page] >= 0) {
    range.null_count = (*index.null_counts)[page];
  }
  if (kind_ == Kind::kDouble && index.nan_counts && page < index.nan_counts->size() && (*index.nan_counts)[page] >= 0) {
    range.nan_count = (*index.nan_counts)[page];
  }
  if (page < index.null_pages.size() && index.null_pages[page]) {
    range.null_count = rows;
    return range;
  }
  if (bounds_usable_ && page < index.min_values.size() && page < index.max_values.size()) {
    auto lo = Decode(index.min_values[page]);
    auto hi = Decode(index.max_values[page]);
    if (lo && hi && lo->Compare(*hi) <= 0) {
      range.min = std::move(lo);
      range.max = std::move(hi);
      // The page index may truncate byte arrays; truncated bounds still bound.
      range.min_exact = range.max_exact = kind_ != Kind::kBytes;
    }
  }
  return range;
}

std::vector<uint64_t> ColumnValueReader::BloomHashes(const expr::Value& value) const {
  if (value.kind != kind_) return {};
  const PhysicalType p = column_.physical_type;
  auto fits32 = [](auto v) { return v >= std::numeric_limits<int32_t>::min() && v <= std::numeric_limits<int32_t>::max(); };
  switch (p) {
    case PhysicalType::kInt32:
      if (kind_ == Kind::kInt && fits32(value.i)) return {BloomFilter::HashInt32(static_cast<int32_t>(value.i))};
      if (kind_ == Kind::kUInt && value.u <= std::numeric_limits<uint32_t>::max()) {
        return {BloomFilter::HashInt32(static_cast<int32_t>(static_cast<uint32_t>(value.u)))};
      }
      if (kind_ == Kind::kDecimal && fits32(value.dec)) return {BloomFilter::HashInt32(static_cast<int32_t>(value.dec))};
      return {};
    case PhysicalType::kInt64:
      if (kind_ == Kind::kInt) return {BloomFilter::HashInt64(value.i)};
      if (kind_ == Kind::kUInt) return {BloomFilter::HashInt64(static_cast<int64_t>(value.u))};
      if (kind_ == Kind::kDecimal && value.dec >= std::numeric_limits<int64_t>::min() &&
          value.dec <= std::numeric_limits<int64_t>::max()) {
        return {BloomFilter::HashInt64(static_cast<int64_t>(value.dec))};
      }
      return {};
    case PhysicalType::kFloat: {
      const auto f = static_cast<float>(value.d);
      if (std::isnan(value.d) || static_cast<double>(f) != value.d) return {};
      if (f == 0.0f) return {BloomFilter::HashFloat(0.0f), BloomFilter::HashFloat(-0.0f)};
      return {BloomFilter::HashFloat(f)};
    }
    case PhysicalType::kDouble:
      if (std::isnan(value.d)) return {};
      if (value.d == 0.0) return {BloomFilter::HashDouble(0.0), BloomFilter::HashDouble(-0.0)};
      return {BloomFilter::HashDouble(value.d)};
    case PhysicalType::kByteArray:
      if (kind_ == Kind::kBytes) return {BloomFilter::Hash(value.bytes.data(), value.bytes.size())};
      return {};  // a decimal's byte length is the writer's choice
    case PhysicalType::kFixedLenByteArray:
      if (kind_ == Kind::kBytes && static_cast<int64_t>(value.bytes.size()) == column_.type_length) {
        return {BloomFilter::Hash(value.bytes.data(), value.bytes.size())};
      }
      if (kind_ == Kind::kDecimal && column_.type_length > 0 && column_.type_length <= 16) {
        const std::string bytes = BigEndianBytes(value.dec, column_.type_length);
        if (BigEndianDecimal(bytes) != value.dec) return {};
        return {BloomFilter::Hash(bytes.data(), bytes.size())};
      }
      return {};
    default: return {};
  }
}

}  // namespace strata::parquet::filter
