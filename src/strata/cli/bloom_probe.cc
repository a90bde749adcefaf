// Bloom filter probes for `strata meta --bloom-probe` (see bloom_probe.h).
#include "strata/cli/bloom_probe.h"

#include <charconv>
#include <cstring>
#include <limits>

#include "strata/cli/meta_format.h"
#include "strata/parquet/read/chunk_decryption.h"
#include "strata/parquet/encoding/encoding.h"
#include "strata/parquet/stats/bloom_filter.h"

namespace strata::cli {

using namespace strata::parquet;  // NOLINT: this file is all about its types

namespace {

using Int128 = __int128;

template <typename T>
std::string LittleEndian(T value) {
  std::string out(sizeof(T), '\0');
  std::memcpy(out.data(), &value, sizeof(T));  // PLAIN is little-endian, as is this host
  return out;
}

template <typename T>
bool ParseNumber(std::string_view text, T* out) {
  if (!text.empty() && text[0] == '+') text.remove_prefix(1);  // from_chars refuses a '+'
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), *out);
  return ec == std::errc() && end == text.data() + text.size() && !text.empty();
}

Result<std::string> ParseHex(std::string_view value, std::string_view what) {
  std::string_view digits = value.substr(4);  // after "hex:"
  if (digits.size() % 2 != 0) return Status::Invalid("'{}' has an odd number of hex digits for {}", value, what);
  std::string out(digits.size() / 2, '\0');
  for (size_t i = 0; i < out.size(); ++i) {
    uint8_t byte = 0;
    const auto [end, ec] = std::from_chars(digits.data() + 2 * i, digits.data() + 2 * i + 2, byte, 16);
    if (ec != std::errc() || end != digits.data() + 2 * i + 2) {
      return Status::Invalid("'{}' is not hex (expected hex:0a1b... for {})", value, what);
    }
    out[i] = static_cast<char>(byte);
  }
  return out;
}

// Signed range of an integer column per its logical or converted type: bits, and signedness.
struct IntegerKind {
  int bits;
  bool is_signed;
};

IntegerKind IntegerKindOf(const SchemaElement& leaf, PhysicalType type) {
  const int physical_bits = type == PhysicalType::kInt32 ? 32 : 64;
  if (leaf.logical_type && leaf.logical_type->kind == LogicalType::Kind::kInteger && leaf.logical_type->bit_width > 0 &&
      leaf.logical_type->bit_width <= physical_bits) {
    return {leaf.logical_type->bit_width, leaf.logical_type->is_signed};
  }
  if (leaf.converted_type) {
    switch (*leaf.converted_type) {
      case ConvertedType::kInt8: return {8, true};
      case ConvertedType::kInt16: return {16, true};
      case ConvertedType::kUint8: return {8, false};
      case ConvertedType::kUint16: return {16, false};
      case ConvertedType::kUint32: return {32, false};
      case ConvertedType::kUint64: return {64, false};
      default: break;
    }
  }
  return {physical_bits, true};
}

Result<std::string> EncodeInteger(std::string_view value, const SchemaElement& leaf, PhysicalType type) {
  const IntegerKind kind = IntegerKindOf(leaf, type);
  const std::string what = fmt::format("{}{} integer", kind.is_signed ? "a signed " : "an unsigned ", kind.bits);
  uint64_t bits = 0;
  if (kind.is_signed) {
    int64_t v = 0;
    const int64_t max = kind.bits == 64 ? std::numeric_limits<int64_t>::max() : (int64_t{1} << (kind.bits - 1)) - 1;
    if (!ParseNumber(value, &v) || v > max || v < -max - 1) {
      return Status::Invalid("'{}' is not {} (from {} to {})", value, what, -max - 1, max);
    }
    bits = static_cast<uint64_t>(v);
  } else {
    const uint64_t max = kind.bits == 64 ? std::numeric_limits<uint64_t>::max() : (uint64_t{1} << kind.bits) - 1;
    if (!ParseNumber(value, &bits) || bits > max) return Status::Invalid("'{}' is not {} (0 to {})", value, what, max);
  }
  // Unsigned values are stored as their bit pattern in the signed physical type.
  if (type == PhysicalType::kInt32) return LittleEndian(static_cast<int32_t>(static_cast<uint32_t>(bits)));
  return LittleEndian(static_cast<int64_t>(bits));
}

bool IsLeapYear(int64_t y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil).
int64_t DaysFromCivil(int64_t y, int64_t m, int64_t d) {
  y -= m <= 2;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const int64_t yoe = y - era * 400;
  const int64_t doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
  const int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

Result<std::string> EncodeDate(std::string_view value) {
  auto invalid = [&] { return Status::Invalid("'{}' is not a date (expected YYYY-MM-DD)", value); };
  // The year may be negative; the month and day are the last two '-'-separated fields.
  const size_t day_dash = value.rfind('-');
  if (day_dash == std::string_view::npos || day_dash == 0) return invalid();
  const size_t month_dash = value.rfind('-', day_dash - 1);
  if (month_dash == std::string_view::npos || month_dash == 0) return invalid();
  int64_t year = 0, month = 0, day = 0;
  const std::string_view month_text = value.substr(month_dash + 1, day_dash - month_dash - 1);
  const std::string_view day_text = value.substr(day_dash + 1);
  if (month_text.size() != 2 || day_text.size() != 2 || !ParseNumber(value.substr(0, month_dash), &year) ||
      !ParseNumber(month_text, &month) || !ParseNumber(day_text, &day) || year < -5000000 || year > 5000000) {
    return invalid();
  }
  static constexpr int kDaysInMonth[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (month < 1 || month > 12 || day < 1 || day > kDaysInMonth[month - 1] + (month == 2 && IsLeapYear(year))) {
    return invalid();
  }
  return LittleEndian(static_cast<int32_t>(DaysFromCivil(year, month, day)));
}

// [-+]digits[.digits] with at most `scale` fraction digits -> the unscaled value.
Result<Int128> ParseDecimal(std::string_view value, int32_t scale) {
  auto invalid = [&](std::string_view why) {
    return Status::Invalid("'{}' is not a decimal with scale {} ({})", value, scale, why);
  };
  std::string_view text = value;
  const bool negative = !text.empty() && text[0] == '-';
  if (!text.empty() && (text[0] == '-' || text[0] == '+')) text.remove_prefix(1);
  const size_t dot = text.find('.');
  const std::string_view whole = text.substr(0, dot);
  const std::string_view fraction = dot == std::string_view::npos ? std::string_view() : text.substr(dot + 1);
  if (whole.empty() && fraction.empty()) return invalid("no digits");
  if (static_cast<int64_t>(fraction.size()) > scale) return invalid("too many fraction digits");
  // 10^38 - 1 fits in 127 bits: refuse more than 38 digits before any arithmetic can overflow.
  if (whole.size() + static_cast<size_t>(scale) > 38) return invalid("more than 38 digits");
  Int128 unscaled = 0;
  for (char c : whole) {
    if (c < '0' || c > '9') return invalid("not a number");
    unscaled = unscaled * 10 + (c - '0');
  }
  for (int32_t i = 0; i < scale; ++i) {
    const char c = static_cast<size_t>(i) < fraction.size() ? fraction[i] : '0';
    if (c < '0' || c > '9') return invalid("not a number");
    unscaled = unscaled * 10 + (c - '0');
  }
  return negative ? -unscaled : unscaled;
}

// Whether `v` fits `bytes` bytes of two's complement.
bool FitsBytes(Int128 v, int64_t bytes) {
  if (bytes >= 16) return true;
  const Int128 limit = Int128{1} << (8 * bytes - 1);
  return v >= -limit && v < limit;
}

std::string BigEndian(Int128 v, int64_t bytes) {
  std::string out(static_cast<size_t>(bytes), '\0');
  const auto bits = static_cast<unsigned __int128>(v);
  for (int64_t i = 0; i < bytes; ++i) {
    const uint8_t byte = i < 16 ? static_cast<uint8_t>(bits >> (8 * i)) : (v < 0 ? 0xff : 0x00);
    out[static_cast<size_t>(bytes - 1 - i)] = static_cast<char>(byte);
  }
  return out;
}

std::optional<int32_t> DecimalScale(const SchemaElement& leaf) {
  if (leaf.logical_type) {
    if (leaf.logical_type->kind == LogicalType::Kind::kDecimal) return leaf.logical_type->scale;
    return std::nullopt;
  }
  if (leaf.converted_type == ConvertedType::kDecimal) return leaf.scale.value_or(0);
  return std::nullopt;
}

Result<std::string> EncodeDecimal(std::string_view value, int32_t scale, PhysicalType type, int64_t width) {
  STRATA_ASSIGN_OR_RETURN(const Int128 unscaled, ParseDecimal(value, scale));
  const int64_t bytes = type == PhysicalType::kInt32 ? 4 : type == PhysicalType::kInt64 ? 8 : width;
  if (type == PhysicalType::kByteArray) {
    int64_t shortest = 1;
    while (!FitsBytes(unscaled, shortest)) ++shortest;
    return BigEndian(unscaled, shortest);
  }
  if (!FitsBytes(unscaled, bytes)) {
    return Status::Invalid("decimal '{}' does not fit the column's {} bytes", value, bytes);
  }
  if (type == PhysicalType::kInt32) return LittleEndian(static_cast<int32_t>(unscaled));
  if (type == PhysicalType::kInt64) return LittleEndian(static_cast<int64_t>(unscaled));
  return BigEndian(unscaled, bytes);
}

Result<std::string> EncodeFixed(std::string_view value, const SchemaElement& leaf, int64_t width) {
  const bool is_uuid = leaf.logical_type && leaf.logical_type->kind == LogicalType::Kind::kUuid;
  std::string hex;
  if (is_uuid && value.size() == 36 && value[8] == '-' && value[13] == '-' && value[18] == '-' && value[23] == '-') {
    hex = "hex:";
    for (char c : value) if (c != '-') hex += c;
    value = hex;
  }
  const std::string what = fmt::format("{} bytes", width);
  if (value.substr(0, 4) != "hex:") return Status::Invalid("'{}' is not hex:... (expected {} as hex)", value, what);
  STRATA_ASSIGN_OR_RETURN(std::string bytes, ParseHex(value, what));
  if (static_cast<int64_t>(bytes.size()) != width) {
    return Status::Invalid("'{}' has {} bytes, the column's values {}", value, bytes.size(), width);
  }
  return bytes;
}

}  // namespace

Result<std::string> EncodeProbeValue(std::string_view value, const SchemaElement& leaf) {
  if (!leaf.type) return Status::Invalid("column '{}' has no physical type", leaf.name);
  const PhysicalType type = *leaf.type;
  const bool is_date = (leaf.logical_type && leaf.logical_type->kind == LogicalType::Kind::kDate) ||
                       (!leaf.logical_type && leaf.converted_type == ConvertedType::kDate);
  const std::optional<int32_t> scale = DecimalScale(leaf);
  switch (type) {
    case PhysicalType::kBoolean:
      return Status::Invalid("BOOLEAN columns have no Bloom filter to probe");
    case PhysicalType::kInt32:
      if (is_date) return EncodeDate(value);
      [[fallthrough]];
    case PhysicalType::kInt64:
      if (scale) return EncodeDecimal(value, *scale, type, 0);
      return EncodeInteger(value, leaf, type);
    case PhysicalType::kFloat: {
      float f = 0;
      if (!ParseNumber(value, &f)) return Status::Invalid("'{}' is not a FLOAT number", value);
      return LittleEndian(f);
    }
    case PhysicalType::kDouble: {
      double d = 0;
      if (!ParseNumber(value, &d)) return Status::Invalid("'{}' is not a DOUBLE number", value);
      return LittleEndian(d);
    }
    case PhysicalType::kInt96:
      return EncodeFixed(value, leaf, 12);
    case PhysicalType::kFixedLenByteArray: {
      const int64_t width = leaf.type_length.value_or(0);
      if (width <= 0) return Status::Invalid("column '{}' is FIXED_LEN_BYTE_ARRAY without a width", leaf.name);
      if (scale) return EncodeDecimal(value, *scale, type, width);
      return EncodeFixed(value, leaf, width);
    }
    case PhysicalType::kByteArray:
      if (scale) return EncodeDecimal(value, *scale, type, 0);
      if (!IsTextColumn(&leaf) && value.substr(0, 4) == "hex:") return ParseHex(value, "binary");
      return std::string(value);
  }
  return Status::Invalid("column '{}' has physical type {}, which has no Bloom filter", leaf.name, PhysicalName(type));
}

namespace {

struct Leaf {
  std::string path;
  const SchemaElement* element;
};

// Leaf columns in column order with their dotted paths: the schema is a depth-first list where
// groups carry num_children. A malformed tree just ends the walk early.
void CollectLeaves(const std::vector<SchemaElement>& schema, size_t* next, const std::string& prefix, int depth,
                   std::vector<Leaf>* out) {
  const SchemaElement& e = schema[(*next)++];
  const std::string path = prefix.empty() ? e.name : prefix + "." + e.name;
  const int32_t children = e.num_children.value_or(0);
  if (children <= 0 || depth > 256) {
    if (e.type) out->push_back({path, &e});
    return;
  }
  for (int32_t i = 0; i < children && *next < schema.size(); ++i) CollectLeaves(schema, next, path, depth + 1, out);
}

std::vector<Leaf> LeafColumns(const FileMetaData& md) {
  std::vector<Leaf> leaves;
  if (md.schema.empty()) return leaves;
  size_t next = 1;
  const int32_t roots = md.schema[0].num_children.value_or(0);
  for (int32_t i = 0; i < roots && next < md.schema.size(); ++i) CollectLeaves(md.schema, &next, "", 0, &leaves);
  return leaves;
}

std::string ColumnList(const std::vector<Leaf>& leaves) {
  std::string s;
  for (size_t i = 0; i < leaves.size() && i < 20; ++i) s += (i ? ", " : "") + Printable(leaves[i].path);
  if (leaves.size() > 20) s += fmt::format(", ... ({} columns)", leaves.size());
  return s;
}

}  // namespace

void RunBloomProbes(RandomAccessSource& source, const FileFooter& footer, const std::vector<std::string>& probes,
                    bool json, MemoryPool* pool, std::string* out, std::vector<Status>* errors) {
  const FileMetaData& md = footer.metadata;
  const std::vector<Leaf> leaves = LeafColumns(md);
  JsonWriter writer;
  if (json) {
    writer.BeginObject();
    writer.Field("file", source.name());
    writer.Key("bloom_probes");
    writer.BeginArray();
  }
  for (const std::string& probe : probes) {
    const size_t eq = probe.find('=');
    const std::string column = probe.substr(0, eq);
    const std::string value = eq == std::string::npos ? std::string() : probe.substr(eq + 1);
    if (json) {
      writer.BeginObject();
      writer.Field("column", column);
      writer.Field("value", value);
    }
    auto fail = [&](Status status) {
      errors->push_back(std::move(status));
      if (json) writer.Field("error", errors->back().ToString());
    };
    size_t index = 0;
    while (index < leaves.size() && leaves[index].path != column) ++index;
    if (eq == std::string::npos || column.empty()) {
      fail(Status::Invalid("--bloom-probe '{}': expected COLUMN=VALUE", probe));
      if (json) writer.EndObject();
      continue;
    }
    if (index == leaves.size()) {
      fail(Status::Invalid("--bloom-probe '{}': no column '{}' in '{}' (columns: {})", probe, column, source.name(),
                           ColumnList(leaves)));
      if (json) writer.EndObject();
      continue;
    }
    Result<std::string> plain = EncodeProbeValue(value, *leaves[index].element);
    if (!plain.ok()) {
      fail(plain.status().WithContext(fmt::format("--bloom-probe '{}' ({} column '{}')", probe,
                                                  PhysicalName(*leaves[index].element->type), column)));
    } else {
      const uint64_t hash = BloomFilter::Hash(plain->data(), plain->size());
      if (json) {
        writer.Key("row_groups");
        writer.BeginArray();
      }
      for (size_t r = 0; r < md.row_groups.size(); ++r) {
        const auto& chunks = md.row_groups[r].columns;
        const ColumnMetaData* chunk = index < chunks.size() && chunks[index].meta_data ? &*chunks[index].meta_data : nullptr;
        Status problem;
        std::optional<bool> maybe_present;
        const std::string where =
            fmt::format("--bloom-probe '{}': '{}' row group {}, column {} '{}'", probe, source.name(), r, index, column);
        // Encrypted chunks: the key of the filter's modules (the column's metadata too, so
        // without it the chunk shows no filter at all).
        Result<std::shared_ptr<ColumnDecryption>> decryption = std::shared_ptr<ColumnDecryption>();
        if (index < chunks.size()) {
          decryption = FindChunkDecryption(footer, source.name(), static_cast<int>(r), static_cast<int>(index), column);
        }
        if (!decryption.ok() && (chunk == nullptr || chunk->bloom_filter_offset)) {
          problem = decryption.status().WithContext(where);
        } else if (chunk != nullptr && JoinPath(chunk->path_in_schema) != column) {
          // The schema's leaves and the row group's chunks disagree (a malformed file).
          problem = Status::Corrupt("--bloom-probe '{}': '{}' row group {}, column {} is '{}', not '{}'", probe,
                                    source.name(), r, index, Printable(JoinPath(chunk->path_in_schema)), column);
        } else if (chunk == nullptr || !chunk->bloom_filter_offset) {
          problem = Status::Invalid("--bloom-probe '{}': '{}' row group {}, column {} '{}': no Bloom filter", probe,
                                    source.name(), r, index, column);
        } else {
          auto filter = BloomFilter::Read(source, *chunk->bloom_filter_offset, chunk->bloom_filter_length, pool,
                                          decryption->get());
          if (filter.ok()) maybe_present = (*filter)->FindHash(hash);
          else problem = filter.status().WithContext(where);
        }
        const char* result = maybe_present ? (*maybe_present ? "maybe present" : "absent") : nullptr;
        if (json) {
          writer.BeginObject();
          writer.Field("row_group", static_cast<int64_t>(r));
          writer.Key("result");
          if (result) writer.String(result);
          else writer.Null();
          if (!problem.ok()) writer.Field("error", problem.ToString());
          writer.EndObject();
        } else if (result) {
          fmt::format_to(std::back_inserter(*out), "{}={}: row group {}: {}\n", Printable(column), Printable(value), r,
                         result);
        }
        if (!problem.ok()) errors->push_back(std::move(problem));
      }
      if (json) writer.EndArray();
    }
    if (json) writer.EndObject();
  }
  if (json) {
    writer.EndArray();
    writer.EndObject();
    *out += writer.out() + "\n";
  }
}

}  // namespace strata::cli
