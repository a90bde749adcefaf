// ArrowSchema -> strata types, fields and schemas (import.h).
#include <charconv>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "strata/arrow_c/import.h"

namespace strata::arrow_c {

namespace {

constexpr int kMaxDepth = 64;

// Releases the schema when the import is done, however it ends.
struct SchemaReleaser {
  ArrowSchema* schema;
  ~SchemaReleaser() {
    if (schema != nullptr && schema->release != nullptr) schema->release(schema);
  }
};

// A whole-string decimal integer, or nothing.
bool ParseInt(std::string_view text, int32_t* out) {
  if (text.empty()) return false;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, *out);
  return ec == std::errc() && ptr == end;
}

Result<TimeUnit> ParseUnit(char c, std::string_view format) {
  switch (c) {
    case 's': return TimeUnit::kSecond;
    case 'm': return TimeUnit::kMilli;
    case 'u': return TimeUnit::kMicro;
    case 'n': return TimeUnit::kNano;
    default: return Status::Invalid("format '{}': unknown time unit '{}'", format, c);
  }
}

Result<KeyValueMetadata> ParseMetadata(const char* bytes, const std::string& where) {
  KeyValueMetadata metadata;
  if (bytes == nullptr) return metadata;
  // The encoding carries no total size: only the counts and lengths can be checked.
  auto read_int = [&bytes]() {
    int32_t v;
    std::memcpy(&v, bytes, sizeof(v));
    bytes += sizeof(v);
    return v;
  };
  const int32_t n = read_int();
  if (n < 0) return Status::Invalid("{}: metadata declares {} pairs", where, n);
  std::vector<std::pair<std::string, std::string>> pairs;
  for (int32_t i = 0; i < n; ++i) {
    std::string kv[2];
    for (std::string& s : kv) {
      const int32_t len = read_int();
      if (len < 0) return Status::Invalid("{}: metadata pair {} has a length of {}", where, i, len);
      s.assign(bytes, static_cast<size_t>(len));
      bytes += len;
    }
    pairs.emplace_back(std::move(kv[0]), std::move(kv[1]));
  }
  return KeyValueMetadata(std::move(pairs));
}

Result<FieldPtr> ParseField(const ArrowSchema* s, const std::string& path, int depth);

Status CheckChildren(const ArrowSchema* s, std::string_view format, const std::string& path, int64_t expected) {
  if (s->n_children != expected) {
    return Status::Invalid("{}: format '{}' takes {} children, the schema has {}", path, format, expected,
                           s->n_children);
  }
  return Status::OK();
}

Result<std::vector<FieldPtr>> ParseChildren(const ArrowSchema* s, const std::string& path, int depth) {
  std::vector<FieldPtr> fields;
  for (int64_t i = 0; i < s->n_children; ++i) {
    STRATA_ASSIGN_OR_RETURN(FieldPtr f, ParseField(s->children[i], fmt::format("{}.children[{}]", path, i), depth + 1));
    fields.push_back(std::move(f));
  }
  return fields;
}

// Fixed-size / parameterised formats after the first character(s).
Result<TypePtr> ParseParameterised(std::string_view f, const std::string& path) {
  if (f.starts_with("w:")) {
    int32_t width;
    if (!ParseInt(f.substr(2), &width) || width < 0 || width > kMaxFixedSizeBinaryWidth) {
      return Status::Invalid("{}: format '{}': byte width must be an integer in [0, {}]", path, f,
                             kMaxFixedSizeBinaryWidth);
    }
    return fixed_size_binary(width);
  }
  if (f.starts_with("d:")) {
    std::string_view rest = f.substr(2);
    std::vector<std::string_view> parts;
    while (true) {
      const size_t comma = rest.find(',');
      parts.push_back(rest.substr(0, comma));
      if (comma == std::string_view::npos) break;
      rest = rest.substr(comma + 1);
    }
    int32_t p = 0, sc = 0, bits = 128;
    if (parts.size() < 2 || parts.size() > 3 || !ParseInt(parts[0], &p) || !ParseInt(parts[1], &sc) ||
        (parts.size() == 3 && !ParseInt(parts[2], &bits))) {
      return Status::Invalid("{}: format '{}' is not 'd:precision,scale[,bitwidth]'", path, f);
    }
    if (bits != 32 && bits != 64 && bits != 128 && bits != 256) {
      return Status::Invalid("{}: format '{}': decimal bit width {}", path, f, bits);
    }
    Result<TypePtr> type = MakeDecimalOfWidth(bits, p, sc);
    if (!type.ok()) return Status::Invalid("{}: format '{}': {}", path, f, type.status().message());
    return type;
  }
  if (f.size() >= 3 && f[0] == 't') {
    if (f == "tdD") return date32();
    if (f == "tdm") return date64();
    if (f.size() == 3 && f[1] == 't') {
      STRATA_ASSIGN_OR_RETURN(TimeUnit unit, ParseUnit(f[2], f));
      return unit <= TimeUnit::kMilli ? time32(unit) : time64(unit);
    }
    if (f.size() == 3 && f[1] == 'D') {
      STRATA_ASSIGN_OR_RETURN(TimeUnit unit, ParseUnit(f[2], f));
      return duration(unit);
    }
    if (f[1] == 's') {
      if (f.size() < 4 || f[3] != ':') {
        return Status::Invalid("{}: format '{}': a timestamp is 'ts<unit>:<timezone>'", path, f);
      }
      STRATA_ASSIGN_OR_RETURN(TimeUnit unit, ParseUnit(f[2], f));
      return timestamp(unit, std::string(f.substr(4)));
    }
    if (f == "tin") return month_day_nano_interval();
    if (f == "tiM") return year_month_interval();
    if (f == "tiD") return day_time_interval();
  }
  return Status::Invalid("{}: unknown format '{}'", path, f);
}

Result<TypePtr> ParseFormat(const ArrowSchema* s, const std::string& path, int depth) {
  const std::string_view f(s->format);
  if (f.size() == 1) {
    STRATA_RETURN_NOT_OK(CheckChildren(s, f, path, 0));
    switch (f[0]) {
      case 'n': return null();
      case 'b': return boolean();
      case 'c': return int8();
      case 'C': return uint8();
      case 's': return int16();
      case 'S': return uint16();
      case 'i': return int32();
      case 'I': return uint32();
      case 'l': return int64();
      case 'L': return uint64();
      case 'e': return float16();
      case 'f': return float32();
      case 'g': return float64();
      case 'z': return binary();
      case 'Z': return large_binary();
      case 'u': return utf8();
      case 'U': return large_utf8();
      default: return Status::Invalid("{}: unknown format '{}'", path, f);
    }
  }
  if (f == "vz" || f == "vu") {
    STRATA_RETURN_NOT_OK(CheckChildren(s, f, path, 0));
    return f == "vz" ? binary_view() : utf8_view();
  }
  if (!f.starts_with("+")) {
    STRATA_RETURN_NOT_OK(CheckChildren(s, f, path, 0));
    return ParseParameterised(f, path);
  }
  if (f == "+l" || f == "+L" || f.starts_with("+w:") || f == "+m") {
    STRATA_RETURN_NOT_OK(CheckChildren(s, f, path, 1));
    STRATA_ASSIGN_OR_RETURN(std::vector<FieldPtr> children, ParseChildren(s, path, depth));
    if (f == "+l") return list(children[0]);
    if (f == "+L") return large_list(children[0]);
    if (f == "+m") {
      auto map = MakeMap(children[0], (s->flags & ARROW_FLAG_MAP_KEYS_SORTED) != 0);
      if (!map.ok()) return Status::Invalid("{}: map: {}", path, map.status().message());
      return map;
    }
    int32_t size;
    if (!ParseInt(f.substr(3), &size) || size < 0) {
      return Status::Invalid("{}: format '{}': list size must be a non-negative integer", path, f);
    }
    return fixed_size_list(children[0], size);
  }
  if (f == "+s") {
    STRATA_ASSIGN_OR_RETURN(std::vector<FieldPtr> children, ParseChildren(s, path, depth));
    return struct_(std::move(children));
  }
  if (f.starts_with("+ud:") || f.starts_with("+us:")) {
    // The type ids, comma-separated (none for a union without members).
    std::vector<int8_t> codes;
    std::string_view rest = f.substr(4);
    while (!rest.empty()) {
      const size_t comma = rest.find(',');
      int32_t code;
      if (!ParseInt(rest.substr(0, comma), &code) || code < 0 || code > kMaxUnionTypeCode) {
        return Status::Invalid("{}: format '{}': union type ids are integers in [0, {}]", path, f,
                               kMaxUnionTypeCode);
      }
      codes.push_back(static_cast<int8_t>(code));
      if (comma == std::string_view::npos) break;
      rest = rest.substr(comma + 1);
      if (rest.empty()) return Status::Invalid("{}: format '{}' ends with a comma", path, f);
    }
    STRATA_RETURN_NOT_OK(CheckChildren(s, f, path, static_cast<int64_t>(codes.size())));
    STRATA_ASSIGN_OR_RETURN(std::vector<FieldPtr> children, ParseChildren(s, path, depth));
    auto type = f[2] == 'd' ? MakeDenseUnion(std::move(children), std::move(codes))
                            : MakeSparseUnion(std::move(children), std::move(codes));
    if (!type.ok()) return Status::Invalid("{}: format '{}': {}", path, f, type.status().message());
    return type;
  }
  if (f == "+r") {
    STRATA_RETURN_NOT_OK(CheckChildren(s, f, path, 2));
    STRATA_ASSIGN_OR_RETURN(std::vector<FieldPtr> children, ParseChildren(s, path, depth));
    auto type = MakeRunEndEncoded(children[0]->type(), children[1]->type());
    if (!type.ok()) return Status::Invalid("{}: format '+r': {}", path, type.status().message());
    return type;
  }
  if (f == "+vl" || f == "+vL") {
    STRATA_RETURN_NOT_OK(CheckChildren(s, f, path, 1));
    STRATA_ASSIGN_OR_RETURN(std::vector<FieldPtr> children, ParseChildren(s, path, depth));
    return f == "+vl" ? list_view(children[0]) : large_list_view(children[0]);
  }
  return Status::Invalid("{}: unknown format '{}'", path, f);
}

Status CheckSchemaStruct(const ArrowSchema* s, const std::string& path) {
  if (s == nullptr) return Status::Invalid("{}: schema is null", path);
  if (s->release == nullptr) return Status::Invalid("{}: schema is released", path);
  if (s->format == nullptr) return Status::Invalid("{}: format is null", path);
  if (s->n_children < 0) return Status::Invalid("{}: n_children is {}", path, s->n_children);
  if (s->n_children > 0 && s->children == nullptr) {
    return Status::Invalid("{}: {} children but the children pointer is null", path, s->n_children);
  }
  for (int64_t i = 0; i < s->n_children; ++i) {
    if (s->children[i] == nullptr) return Status::Invalid("{}: child {} is null", path, i);
  }
  return Status::OK();
}

Result<TypePtr> ParseType(const ArrowSchema* s, const std::string& path, int depth) {
  if (depth > kMaxDepth) return Status::Invalid("{}: types nest deeper than {} levels", path, kMaxDepth);
  STRATA_RETURN_NOT_OK(CheckSchemaStruct(s, path));
  STRATA_ASSIGN_OR_RETURN(TypePtr type, ParseFormat(s, path, depth));
  if (s->dictionary == nullptr) return type;
  // A dictionary: the format is the index type, the dictionary member the values.
  if (!is_integer(type->id())) {
    return Status::Invalid("{}: dictionary index format '{}' is not an integer", path, s->format);
  }
  STRATA_ASSIGN_OR_RETURN(TypePtr values, ParseType(s->dictionary, path + ".dictionary", depth + 1));
  return dictionary(type, values, (s->flags & ARROW_FLAG_DICTIONARY_ORDERED) != 0);
}

Result<FieldPtr> ParseField(const ArrowSchema* s, const std::string& path, int depth) {
  STRATA_ASSIGN_OR_RETURN(TypePtr type, ParseType(s, path, depth));
  std::string name = s->name != nullptr ? s->name : "";
  STRATA_ASSIGN_OR_RETURN(KeyValueMetadata metadata, ParseMetadata(s->metadata, path));
  return field(std::move(name), std::move(type), (s->flags & ARROW_FLAG_NULLABLE) != 0, std::move(metadata));
}

}  // namespace

Result<TypePtr> ImportType(ArrowSchema* schema) {
  SchemaReleaser releaser{schema};
  return ParseType(schema, "schema", 0);
}

Result<FieldPtr> ImportField(ArrowSchema* schema) {
  SchemaReleaser releaser{schema};
  return ParseField(schema, "schema", 0);
}

Result<SchemaPtr> ImportSchema(ArrowSchema* schema) {
  SchemaReleaser releaser{schema};
  STRATA_ASSIGN_OR_RETURN(FieldPtr root, ParseField(schema, "schema", 0));
  if (root->type()->id() != TypeId::kStruct) {
    return Status::Invalid("schema: the root of a schema must be a struct ('+s'), not '{}'", schema->format);
  }
  return strata::schema(root->type()->fields(), root->metadata());
}

}  // namespace strata::arrow_c
