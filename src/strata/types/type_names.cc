// Type names as people write them (ParseTypeName) and "name:type,..." column lists
// (ParseSchemaSpec): see type_names.h.
#include "strata/types/type_names.h"

#include <cctype>
#include <optional>

#include <fmt/format.h>

namespace strata {
namespace {

constexpr const char* kTypeList =
    "int8..int64, uint8..uint64, float32, float64, bool, string, binary, date32, timestamp[us], "
    "timestamp[us,UTC], time64[us], decimal(p,s)";

std::string_view Trim(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) text.remove_prefix(1);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.remove_suffix(1);
  return text;
}

std::string LowerNoSpaces(std::string_view text) {
  std::string out;
  for (const char c : text) {
    if (!std::isspace(static_cast<unsigned char>(c))) out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return out;
}

// Splits at `separator` outside [] and (); the pieces keep their spaces.
std::vector<std::string_view> SplitOutsideBrackets(std::string_view text, char separator) {
  std::vector<std::string_view> pieces;
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '[' || c == '(') ++depth;
    if ((c == ']' || c == ')') && depth > 0) --depth;
    if (c == separator && depth == 0) {
      pieces.push_back(text.substr(start, i - start));
      start = i + 1;
    }
  }
  pieces.push_back(text.substr(start));
  return pieces;
}

std::optional<TimeUnit> ParseUnit(std::string_view unit) {
  if (unit == "s") return TimeUnit::kSecond;
  if (unit == "ms") return TimeUnit::kMilli;
  if (unit == "us") return TimeUnit::kMicro;
  if (unit == "ns") return TimeUnit::kNano;
  return std::nullopt;
}

// Strict decimal digits to int (no sign, no spaces, at most 5 digits).
std::optional<int> ParseSmallInt(std::string_view digits) {
  if (digits.empty() || digits.size() > 5) return std::nullopt;
  int value = 0;
  for (const char c : digits) {
    if (c < '0' || c > '9') return std::nullopt;
    value = value * 10 + (c - '0');
  }
  return value;
}

// "name[args]" or "name(args)": the name and the text between the brackets; the brackets
// must close at the end.
bool SplitParameters(std::string_view text, char open, char close, std::string_view* name, std::string_view* args) {
  const size_t at = text.find(open);
  if (at == std::string_view::npos || text.back() != close) return false;
  *name = text.substr(0, at);
  *args = text.substr(at + 1, text.size() - at - 2);
  return true;
}

Status UnknownType(std::string_view text) {
  return Status::Invalid("unknown type '{}' (types: {})", text, kTypeList);
}

Result<TypePtr> ParseTimestamp(std::string_view original, std::string_view args) {
  // args in lower case without spaces: "us", "us,utc", "us,tz=utc". The zone keeps the user's
  // spelling, so take it from the original text.
  const size_t comma = args.find(',');
  const auto unit = ParseUnit(args.substr(0, comma));
  if (!unit) return Status::Invalid("type '{}': the unit must be s, ms, us or ns", original);
  if (comma == std::string_view::npos) return timestamp(*unit);
  std::string_view zone = Trim(original.substr(original.find(',') + 1));
  zone.remove_suffix(1);  // the closing bracket
  zone = Trim(zone);
  if (zone.size() > 3 && LowerNoSpaces(zone.substr(0, 3)) == "tz=") zone = Trim(zone.substr(3));
  if (zone.empty()) return Status::Invalid("type '{}': the time zone is empty", original);
  const std::string lower = LowerNoSpaces(zone);
  return timestamp(*unit, lower == "utc" || lower == "z" ? std::string("UTC") : std::string(zone));
}

Result<TypePtr> ParseDecimal(std::string_view original, std::string_view name, std::string_view args) {
  const size_t comma = args.find(',');
  const auto precision = ParseSmallInt(args.substr(0, comma));
  const auto scale = comma == std::string_view::npos ? std::optional<int>(0) : ParseSmallInt(args.substr(comma + 1));
  if (!precision || !scale) return Status::Invalid("type '{}': write decimal(precision,scale), e.g. decimal(10,2)", original);
  if (*precision < 1 || *precision > 76) {
    return Status::Invalid("type '{}': the precision must be 1 to 76, not {}", original, *precision);
  }
  if (*scale > *precision) {
    return Status::Invalid("type '{}': the scale {} is larger than the precision {}", original, *scale, *precision);
  }
  if (name == "decimal128" && *precision > 38) {
    return Status::Invalid("type '{}': decimal128 holds at most 38 digits (use decimal256)", original);
  }
  if (name == "decimal256" || *precision > 38) return decimal256(*precision, *scale);
  return decimal128(*precision, *scale);
}

}  // namespace

Result<TypePtr> ParseTypeName(std::string_view text) {
  const std::string_view original = Trim(text);
  const std::string t = LowerNoSpaces(original);
  if (t.empty()) return Status::Invalid("a type is missing (types: {})", kTypeList);
  if (t == "int8") return int8();
  if (t == "int16") return int16();
  if (t == "int32") return int32();
  if (t == "int64") return int64();
  if (t == "uint8") return uint8();
  if (t == "uint16") return uint16();
  if (t == "uint32") return uint32();
  if (t == "uint64") return uint64();
  if (t == "float32" || t == "float") return float32();
  if (t == "float64" || t == "double") return float64();
  if (t == "bool" || t == "boolean") return boolean();
  if (t == "string" || t == "utf8" || t == "str" || t == "text") return utf8();
  if (t == "large_string" || t == "large_utf8") return large_utf8();
  if (t == "binary") return binary();
  if (t == "large_binary") return large_binary();
  if (t == "date32" || t == "date" || t == "date32[day]") return date32();
  if (t == "timestamp") return timestamp(TimeUnit::kMicro);
  if (t == "timestamptz") return timestamp(TimeUnit::kMicro, "UTC");
  if (t == "time" || t == "time64") return time64(TimeUnit::kMicro);
  std::string_view name, args;
  if (SplitParameters(t, '[', ']', &name, &args)) {
    if (name == "timestamp") return ParseTimestamp(original, args);
    if (name == "time64" || name == "time32" || name == "time") {
      const auto unit = ParseUnit(args);
      const bool is32 = unit && (*unit == TimeUnit::kSecond || *unit == TimeUnit::kMilli);
      if (!unit || (name == "time32" && !is32) || (name == "time64" && is32)) {
        return Status::Invalid("type '{}': time32 takes s or ms, time64 us or ns", original);
      }
      return is32 ? time32(*unit) : time64(*unit);
    }
  }
  if (SplitParameters(t, '(', ')', &name, &args) &&
      (name == "decimal" || name == "decimal128" || name == "decimal256" || name == "numeric")) {
    return ParseDecimal(original, name, args);
  }
  return UnknownType(original);
}

Result<std::vector<ColumnTypeSpec>> ParseSchemaSpec(std::string_view text, std::string_view label) {
  if (Trim(text).empty()) return Status::Invalid("{} is empty (write 'name:type,name:type')", label);
  std::vector<ColumnTypeSpec> columns;
  for (const std::string_view piece : SplitOutsideBrackets(text, ',')) {
    // The name ends at the last ':' outside brackets (a zone like +05:30 sits inside them).
    const std::vector<std::string_view> parts = SplitOutsideBrackets(piece, ':');
    if (parts.size() < 2) {
      return Status::Invalid("{}: '{}' is not name:type (write 'name:type,name:type')", label, Trim(piece));
    }
    const std::string_view type_text = parts.back();
    std::string_view name = piece.substr(0, piece.size() - type_text.size() - 1);
    name = Trim(name);
    if (name.empty()) return Status::Invalid("{}: '{}' has no column name", label, Trim(piece));
    auto type = ParseTypeName(type_text);
    if (!type.ok()) return Status::Invalid("{} column '{}': {}", label, name, type.status().message());
    for (const auto& column : columns) {
      if (column.name == name) return Status::Invalid("{}: column '{}' is given twice", label, name);
    }
    columns.push_back({std::string(name), *type});
  }
  return columns;
}

}  // namespace strata
