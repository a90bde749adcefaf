#include "strata/dataset/partitioning.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <set>

#include "strata/array/binary_builder.h"
#include "strata/array/boolean_builder.h"
#include "strata/array/primitive_builder.h"
#include "strata/expr/temporal_literals.h"

namespace strata::dataset {

namespace {

// expr::Value's fields set directly (its factories are the same; this keeps the
// partition parser usable without linking the expression layer's code).
expr::Value IntValue(int64_t v) {
  expr::Value out;
  out.kind = expr::Value::Kind::kInt;
  out.i = v;
  return out;
}
expr::Value UIntValue(uint64_t v) {
  expr::Value out;
  out.kind = expr::Value::Kind::kUInt;
  out.u = v;
  return out;
}
expr::Value DoubleValue(double v) {
  expr::Value out;
  out.kind = expr::Value::Kind::kDouble;
  out.d = v;
  return out;
}
expr::Value BoolValue(bool v) {
  expr::Value out;
  out.kind = expr::Value::Kind::kBool;
  out.b = v;
  return out;
}
expr::Value BytesValue(std::string v) {
  expr::Value out;
  out.kind = expr::Value::Kind::kBytes;
  out.bytes = std::move(v);
  return out;
}

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

std::optional<int64_t> ParseInt64(const std::string& text) {
  std::string_view digits = text;
  if (!digits.empty() && digits[0] == '+') digits.remove_prefix(1);
  if (digits.empty() || digits[0] == '+') return std::nullopt;
  const size_t first_digit = digits[0] == '-' ? 1 : 0;
  if (digits.size() == first_digit) return std::nullopt;
  for (size_t i = first_digit; i < digits.size(); ++i) {
    if (!IsDigit(digits[i])) return std::nullopt;
  }
  int64_t value = 0;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (ec != std::errc() || end != digits.data() + digits.size()) return std::nullopt;
  return value;
}

std::optional<uint64_t> ParseUInt64(const std::string& text) {
  std::string_view digits = text;
  if (!digits.empty() && digits[0] == '+') digits.remove_prefix(1);
  if (digits.empty()) return std::nullopt;
  for (char c : digits) {
    if (!IsDigit(c)) return std::nullopt;
  }
  uint64_t value = 0;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (ec != std::errc() || end != digits.data() + digits.size()) return std::nullopt;
  return value;
}

// The filter layer's reading of dates and timestamps (expr/temporal_literals.h), exact: a
// value finer than the unit, or out of int64, is not one.
std::optional<int64_t> ParseExact(std::string_view text, int64_t unit_nanos) {
  auto parsed = expr::ParseTimestampLiteral(text, unit_nanos);
  if (!parsed.ok() || !parsed->exact || parsed->floor > std::numeric_limits<int64_t>::max() ||
      parsed->floor < std::numeric_limits<int64_t>::min()) {
    return std::nullopt;
  }
  return static_cast<int64_t>(parsed->floor);
}

// 'YYYY-MM-DD' alone: days since the epoch.
std::optional<int64_t> ParseDate(const std::string& text) {
  if (text.size() != 10) return std::nullopt;
  return ParseExact(text, expr::kNanosPerDay);
}

// A date with a time of day (and optionally an offset) in `unit`.
std::optional<int64_t> ParseTimestamp(const std::string& text, TimeUnit unit) {
  if (text.size() <= 10) return std::nullopt;
  return ParseExact(text, expr::NanosPerUnit(unit));
}

bool IsMicrosTimestamp(const std::string& text) { return ParseTimestamp(text, TimeUnit::kMicro).has_value(); }

TypePtr InferType(const std::vector<const std::string*>& texts) {
  if (texts.empty()) return utf8();
  auto all = [&](auto&& predicate) {
    return std::all_of(texts.begin(), texts.end(), [&](const std::string* text) { return predicate(*text); });
  };
  // Spark and DuckDB write boolean partition values as true / false.
  if (all([](const std::string& t) { return t == "true" || t == "false"; })) return boolean();
  if (all([](const std::string& t) { return ParseInt64(t).has_value(); })) return int64();
  if (all([](const std::string& t) { return ParseDate(t).has_value(); })) return date32();
  if (all([](const std::string& t) { return IsMicrosTimestamp(t); })) return timestamp(TimeUnit::kMicro);
  return utf8();
}

template <typename T>
Result<Array> OneValue(const TypePtr& type, std::optional<T> value, MemoryPool* pool) {
  PrimitiveBuilder<T> builder(type, pool);
  if (value) {
    STRATA_RETURN_NOT_OK(builder.Append(*value));
  } else {
    STRATA_RETURN_NOT_OK(builder.AppendNulls(1));
  }
  STRATA_ASSIGN_OR_RETURN(auto data, builder.Finish());
  return Array(std::move(data));
}

template <typename T>
bool InRange(int64_t v) {
  return v >= static_cast<int64_t>(std::numeric_limits<T>::min()) &&
         v <= static_cast<int64_t>(std::numeric_limits<T>::max());
}

// Converts one value (text set) or a null (text unset) to `type`.
Result<PartitionValue> MakeValue(const TypePtr& type, const std::optional<std::string>& text, MemoryPool* pool,
                                 const std::string& key, const std::string& file) {
  PartitionValue out;
  out.text = text;
  auto refuse = [&]() {
    return Status::Invalid("dataset: partition value '{}' of key '{}' in '{}' is not a valid {}", *text, key, file,
                           type->ToString());
  };
  const bool null = !text.has_value();
  switch (type->id()) {
    case TypeId::kInt8:
    case TypeId::kInt16:
    case TypeId::kInt32:
    case TypeId::kInt64: {
      std::optional<int64_t> v;
      if (!null) {
        v = ParseInt64(*text);
        const bool fits =
            v && (type->id() == TypeId::kInt64 || (type->id() == TypeId::kInt32 && InRange<int32_t>(*v)) ||
                  (type->id() == TypeId::kInt16 && InRange<int16_t>(*v)) ||
                  (type->id() == TypeId::kInt8 && InRange<int8_t>(*v)));
        if (!fits) return refuse();
        out.value = IntValue(*v);
      }
      if (type->id() == TypeId::kInt64) {
        STRATA_ASSIGN_OR_RETURN(out.array, OneValue<int64_t>(type, v, pool));
      } else if (type->id() == TypeId::kInt32) {
        STRATA_ASSIGN_OR_RETURN(out.array,
                                OneValue<int32_t>(type, v ? std::optional<int32_t>(*v) : std::nullopt, pool));
      } else if (type->id() == TypeId::kInt16) {
        STRATA_ASSIGN_OR_RETURN(out.array,
                                OneValue<int16_t>(type, v ? std::optional<int16_t>(*v) : std::nullopt, pool));
      } else {
        STRATA_ASSIGN_OR_RETURN(out.array, OneValue<int8_t>(type, v ? std::optional<int8_t>(*v) : std::nullopt, pool));
      }
      return out;
    }
    case TypeId::kUInt8:
    case TypeId::kUInt16:
    case TypeId::kUInt32:
    case TypeId::kUInt64: {
      std::optional<uint64_t> v;
      if (!null) {
        v = ParseUInt64(*text);
        const uint64_t max = type->id() == TypeId::kUInt64   ? std::numeric_limits<uint64_t>::max()
                             : type->id() == TypeId::kUInt32 ? std::numeric_limits<uint32_t>::max()
                             : type->id() == TypeId::kUInt16 ? std::numeric_limits<uint16_t>::max()
                                                             : std::numeric_limits<uint8_t>::max();
        if (!v || *v > max) return refuse();
        out.value = UIntValue(*v);
      }
      if (type->id() == TypeId::kUInt64) {
        STRATA_ASSIGN_OR_RETURN(out.array, OneValue<uint64_t>(type, v, pool));
      } else if (type->id() == TypeId::kUInt32) {
        STRATA_ASSIGN_OR_RETURN(out.array,
                                OneValue<uint32_t>(type, v ? std::optional<uint32_t>(*v) : std::nullopt, pool));
      } else if (type->id() == TypeId::kUInt16) {
        STRATA_ASSIGN_OR_RETURN(out.array,
                                OneValue<uint16_t>(type, v ? std::optional<uint16_t>(*v) : std::nullopt, pool));
      } else {
        STRATA_ASSIGN_OR_RETURN(out.array,
                                OneValue<uint8_t>(type, v ? std::optional<uint8_t>(*v) : std::nullopt, pool));
      }
      return out;
    }
    case TypeId::kFloat32:
    case TypeId::kFloat64: {
      std::optional<double> v;
      if (!null) {
        char* end = nullptr;
        errno = 0;
        const double parsed = std::strtod(text->c_str(), &end);
        if (text->empty() || end != text->c_str() + text->size()) return refuse();
        v = parsed;
        out.value = DoubleValue(parsed);
      }
      if (type->id() == TypeId::kFloat64) {
        STRATA_ASSIGN_OR_RETURN(out.array, OneValue<double>(type, v, pool));
      } else {
        STRATA_ASSIGN_OR_RETURN(
            out.array, OneValue<float>(type, v ? std::optional<float>(static_cast<float>(*v)) : std::nullopt, pool));
      }
      return out;
    }
    case TypeId::kBoolean: {
      BooleanBuilder builder(pool);
      if (null) {
        STRATA_RETURN_NOT_OK(builder.AppendNulls(1));
      } else {
        std::string lower = *text;
        std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
        if (lower != "true" && lower != "false") return refuse();
        out.value = BoolValue(lower == "true");
        STRATA_RETURN_NOT_OK(builder.Append(lower == "true"));
      }
      STRATA_ASSIGN_OR_RETURN(auto data, builder.Finish());
      out.array = Array(std::move(data));
      return out;
    }
    case TypeId::kDate32: {
      std::optional<int32_t> v;
      if (!null) {
        const auto days = ParseDate(*text);
        if (!days || !InRange<int32_t>(*days)) return refuse();
        v = static_cast<int32_t>(*days);
        out.value = IntValue(*days);
      }
      STRATA_ASSIGN_OR_RETURN(out.array, OneValue<int32_t>(type, v, pool));
      return out;
    }
    case TypeId::kTimestamp: {
      std::optional<int64_t> v;
      if (!null) {
        v = ParseTimestamp(*text, type->unit());
        if (!v) return refuse();
        out.value = IntValue(*v);
      }
      STRATA_ASSIGN_OR_RETURN(out.array, OneValue<int64_t>(type, v, pool));
      return out;
    }
    case TypeId::kString:
    case TypeId::kLargeString: {
      auto append = [&](auto& builder) -> Status {
        if (null) return builder.AppendNulls(1);
        return builder.Append(std::string_view(*text));
      };
      ArrayDataPtr data;
      if (type->id() == TypeId::kString) {
        StringBuilder builder(type, pool);
        STRATA_RETURN_NOT_OK(append(builder));
        STRATA_ASSIGN_OR_RETURN(data, builder.Finish());
      } else {
        LargeStringBuilder builder(type, pool);
        STRATA_RETURN_NOT_OK(append(builder));
        STRATA_ASSIGN_OR_RETURN(data, builder.Finish());
      }
      if (!null) out.value = BytesValue(*text);
      out.array = Array(std::move(data));
      return out;
    }
    default:
      return Status::NotImplemented("dataset: partition key '{}' cannot have type {} (in '{}')", key, type->ToString(),
                                    file);
  }
}

}  // namespace

std::string UrlDecode(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '%' && i + 2 < text.size() && HexDigit(text[i + 1]) >= 0 && HexDigit(text[i + 2]) >= 0) {
      out.push_back(static_cast<char>(HexDigit(text[i + 1]) * 16 + HexDigit(text[i + 2])));
      i += 2;
    } else {
      out.push_back(text[i]);
    }
  }
  return out;
}

std::optional<std::pair<std::string, std::string>> ParseHiveSegment(const std::string& segment) {
  const size_t eq = segment.find('=');
  if (eq == std::string::npos || eq == 0) return std::nullopt;
  return std::make_pair(UrlDecode(segment.substr(0, eq)), UrlDecode(segment.substr(eq + 1)));
}

Result<Partitioning> ParsePartitions(const std::vector<DatasetFile>& files, const PartitionOptions& options,
                                     MemoryPool* pool) {
  Partitioning out;
  if (!options.hive || files.empty()) {
    out.values.resize(files.size());
    return out;
  }
  // texts[file][key] in the first file's key order.
  std::vector<std::string> keys;
  std::vector<std::vector<std::optional<std::string>>> texts(files.size());
  for (size_t f = 0; f < files.size(); ++f) {
    std::vector<std::pair<std::string, std::string>> pairs;
    for (const std::string& segment : files[f].segments) {
      auto pair = ParseHiveSegment(segment);
      if (!pair) continue;
      for (const auto& existing : pairs) {
        if (existing.first == pair->first) {
          return Status::Invalid("dataset: partition key '{}' appears twice in the path of '{}'", pair->first,
                                 files[f].path);
        }
      }
      pairs.push_back(std::move(*pair));
    }
    if (f == 0) {
      for (const auto& pair : pairs) keys.push_back(pair.first);
    }
    std::set<std::string> these;
    for (const auto& pair : pairs) these.insert(pair.first);
    if (these != std::set<std::string>(keys.begin(), keys.end())) {
      auto list = [](const std::set<std::string>& set) {
        std::string text;
        for (const std::string& key : set) text += (text.empty() ? "" : ", ") + key;
        return "{" + text + "}";
      };
      return Status::Invalid("dataset: files have different partition keys: '{}' has {}, '{}' has {}", files[0].path,
                             list(std::set<std::string>(keys.begin(), keys.end())), files[f].path, list(these));
    }
    texts[f].resize(keys.size());
    for (auto& pair : pairs) {
      const size_t k = static_cast<size_t>(std::find(keys.begin(), keys.end(), pair.first) - keys.begin());
      if (!pair.second.empty() && pair.second != kHiveDefaultPartition) texts[f][k] = std::move(pair.second);
    }
  }
  out.values.assign(files.size(), std::vector<PartitionValue>(keys.size()));
  for (size_t k = 0; k < keys.size(); ++k) {
    TypePtr type;
    if (auto given = options.types.find(keys[k]); given != options.types.end()) {
      type = given->second;
    } else if (options.infer_types) {
      std::vector<const std::string*> non_null;
      for (const auto& file_texts : texts) {
        if (file_texts[k]) non_null.push_back(&*file_texts[k]);
      }
      type = InferType(non_null);
    } else {
      type = utf8();
    }
    out.fields.push_back(field(keys[k], type, /*nullable=*/true));
    for (size_t f = 0; f < files.size(); ++f) {
      STRATA_ASSIGN_OR_RETURN(out.values[f][k], MakeValue(type, texts[f][k], pool, keys[k], files[f].path));
    }
  }
  return out;
}

}  // namespace strata::dataset
