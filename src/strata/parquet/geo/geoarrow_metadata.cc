#include "strata/parquet/geo/geoarrow_metadata.h"

#include <cctype>

#include "strata/util/json_writer.h"

namespace strata::parquet {
namespace {

using Kind = LogicalType::Kind;

constexpr std::string_view kSridPrefix = "srid:";
constexpr std::string_view kProjjsonPrefix = "projjson:";
constexpr std::string_view kDefaultCrs = "OGC:CRS84";
constexpr int kMaxJsonDepth = 64;

// A small JSON scanner: enough to validate a value and to read the top-level members of the
// extension metadata object. Positions are byte offsets into `text`.
class JsonScanner {
 public:
  explicit JsonScanner(std::string_view text) : text_(text) {}

  void SkipSpace() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  bool AtEnd() const { return pos_ >= text_.size(); }
  bool Consume(char c) {
    SkipSpace();
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  size_t pos() const { return pos_; }

  // A string at the current position, its escapes decoded (\uXXXX as UTF-8, surrogate pairs joined).
  bool String(std::string* out) {
    SkipSpace();
    if (pos_ >= text_.size() || text_[pos_] != '"') return false;
    ++pos_;
    while (pos_ < text_.size()) {
      const char c = text_[pos_++];
      if (c == '"') return true;
      if (static_cast<unsigned char>(c) < 0x20) return false;
      if (c != '\\') {
        if (out) *out += c;
        continue;
      }
      if (pos_ >= text_.size()) return false;
      const char e = text_[pos_++];
      switch (e) {
        case '"': case '\\': case '/': if (out) *out += e; break;
        case 'b': if (out) *out += '\b'; break;
        case 'f': if (out) *out += '\f'; break;
        case 'n': if (out) *out += '\n'; break;
        case 'r': if (out) *out += '\r'; break;
        case 't': if (out) *out += '\t'; break;
        case 'u': {
          uint32_t code = 0;
          if (!Hex4(&code)) return false;
          if (code >= 0xD800 && code < 0xDC00 && pos_ + 1 < text_.size() && text_[pos_] == '\\' &&
              text_[pos_ + 1] == 'u') {
            pos_ += 2;
            uint32_t low = 0;
            if (!Hex4(&low) || low < 0xDC00 || low > 0xDFFF) return false;
            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
          }
          if (out) AppendUtf8(code, out);
          break;
        }
        default: return false;
      }
    }
    return false;
  }

  // Skips one value of any kind; false when it is malformed.
  bool Value(int depth = 0) {
    if (depth > kMaxJsonDepth) return false;
    SkipSpace();
    if (pos_ >= text_.size()) return false;
    const char c = text_[pos_];
    if (c == '"') return String(nullptr);
    if (c == '{' || c == '[') {
      const bool object = c == '{';
      ++pos_;
      if (Consume(object ? '}' : ']')) return true;
      do {
        if (object && (!String(nullptr) || !Consume(':'))) return false;
        if (!Value(depth + 1)) return false;
      } while (Consume(','));
      return Consume(object ? '}' : ']');
    }
    for (std::string_view literal : {"true", "false", "null"}) {
      if (text_.substr(pos_, literal.size()) == literal) {
        pos_ += literal.size();
        return true;
      }
    }
    return Number();
  }

 private:
  bool Hex4(uint32_t* code) {
    if (pos_ + 4 > text_.size()) return false;
    for (int i = 0; i < 4; ++i) {
      const char h = text_[pos_++];
      *code <<= 4;
      if (h >= '0' && h <= '9') *code |= static_cast<uint32_t>(h - '0');
      else if (h >= 'a' && h <= 'f') *code |= static_cast<uint32_t>(h - 'a' + 10);
      else if (h >= 'A' && h <= 'F') *code |= static_cast<uint32_t>(h - 'A' + 10);
      else return false;
    }
    return true;
  }

  static void AppendUtf8(uint32_t code, std::string* out) {
    if (code < 0x80) {
      *out += static_cast<char>(code);
    } else if (code < 0x800) {
      *out += static_cast<char>(0xC0 | (code >> 6));
      *out += static_cast<char>(0x80 | (code & 0x3F));
    } else if (code < 0x10000) {
      *out += static_cast<char>(0xE0 | (code >> 12));
      *out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
      *out += static_cast<char>(0x80 | (code & 0x3F));
    } else {
      *out += static_cast<char>(0xF0 | (code >> 18));
      *out += static_cast<char>(0x80 | ((code >> 12) & 0x3F));
      *out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
      *out += static_cast<char>(0x80 | (code & 0x3F));
    }
  }

  bool Digits() {
    const size_t start = pos_;
    while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) ++pos_;
    return pos_ > start;
  }

  bool Number() {
    if (pos_ < text_.size() && text_[pos_] == '-') ++pos_;
    if (!Digits()) return false;
    if (pos_ < text_.size() && text_[pos_] == '.') {
      ++pos_;
      if (!Digits()) return false;
    }
    if (pos_ < text_.size() && (text_[pos_] == 'e' || text_[pos_] == 'E')) {
      ++pos_;
      if (pos_ < text_.size() && (text_[pos_] == '+' || text_[pos_] == '-')) ++pos_;
      if (!Digits()) return false;
    }
    return true;
  }

  std::string_view text_;
  size_t pos_ = 0;
};

bool IsJsonObject(std::string_view text) {
  JsonScanner scanner(text);
  scanner.SkipSpace();
  return !scanner.AtEnd() && text[scanner.pos()] == '{' && IsJsonValue(text);
}

std::optional<std::string_view> FileValue(const std::vector<KeyValue>* key_values, std::string_view key) {
  if (key_values == nullptr) return std::nullopt;
  for (const KeyValue& kv : *key_values) {
    if (kv.key == key && kv.value) return std::string_view(*kv.value);
  }
  return std::nullopt;
}

std::string LowerCase(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::optional<EdgeInterpolationAlgorithm> AlgorithmNamed(std::string_view lower) {
  for (auto algorithm : {EdgeInterpolationAlgorithm::kSpherical, EdgeInterpolationAlgorithm::kVincenty,
                         EdgeInterpolationAlgorithm::kThomas, EdgeInterpolationAlgorithm::kAndoyer,
                         EdgeInterpolationAlgorithm::kKarney}) {
    if (LowerCase(EdgeInterpolationAlgorithmName(algorithm)) == lower) return algorithm;
  }
  return std::nullopt;
}

}  // namespace

bool IsJsonValue(std::string_view text) {
  JsonScanner scanner(text);
  if (!scanner.Value()) return false;
  scanner.SkipSpace();
  return scanner.AtEnd();
}

bool IsGeospatial(const LogicalType& logical) {
  return logical.kind == Kind::kGeometry || logical.kind == Kind::kGeography;
}

std::string GeoArrowMetadataJson(const LogicalType& logical, const std::vector<KeyValue>* file_key_values) {
  std::string out = "{\"crs\":";
  const std::string_view crs = logical.crs ? std::string_view(*logical.crs) : std::string_view();
  if (crs.empty()) {
    AppendJsonString(kDefaultCrs, &out);
    out += ",\"crs_type\":\"authority_code\"";
  } else if (crs.starts_with(kSridPrefix)) {
    AppendJsonString(crs.substr(kSridPrefix.size()), &out);
    out += ",\"crs_type\":\"srid\"";
  } else if (auto projjson = crs.starts_with(kProjjsonPrefix)
                                 ? FileValue(file_key_values, crs.substr(kProjjsonPrefix.size()))
                                 : std::nullopt;
             projjson && IsJsonObject(*projjson)) {
    out += *projjson;
    out += ",\"crs_type\":\"projjson\"";
  } else if (IsJsonObject(crs)) {
    out += crs;  // inline PROJJSON (GeoArrow's only object crs): kept an object, not a string holding one
    out += ",\"crs_type\":\"projjson\"";
  } else {
    AppendJsonString(crs, &out);
  }
  if (logical.kind == Kind::kGeography) {
    out += ",\"edges\":";
    AppendJsonString(LowerCase(EdgeInterpolationAlgorithmName(
                         logical.algorithm.value_or(EdgeInterpolationAlgorithm::kSpherical))),
                     &out);
  }
  out += '}';
  return out;
}

KeyValueMetadata WithGeoArrowExtension(KeyValueMetadata metadata, const LogicalType& logical,
                                       const std::vector<KeyValue>* file_key_values) {
  metadata.Set("ARROW:extension:name", std::string(kGeoArrowWkbExtensionName));
  metadata.Set("ARROW:extension:metadata", GeoArrowMetadataJson(logical, file_key_values));
  return metadata;
}

Result<std::optional<LogicalType>> GeospatialLogicalTypeOf(const Field& field) {
  if (field.metadata().Get("ARROW:extension:name") != kGeoArrowWkbExtensionName) return std::optional<LogicalType>();
  const std::string_view json = field.metadata().Get("ARROW:extension:metadata").value_or("");
  std::optional<std::string> crs_text;  // a string crs
  std::optional<std::string> crs_raw;   // an object (PROJJSON) crs, as its JSON text
  std::string crs_type, edges;
  if (!json.empty()) {
    JsonScanner scanner(json);
    auto malformed = [&] {
      return Status::Invalid("field '{}': geoarrow.wkb extension metadata is not a JSON object: {}", field.name(),
                             json);
    };
    if (!scanner.Consume('{')) return malformed();
    if (!scanner.Consume('}')) {
      do {
        std::string key;
        if (!scanner.String(&key) || !scanner.Consume(':')) return malformed();
        scanner.SkipSpace();
        const size_t start = scanner.pos();
        std::string text;
        const bool is_string = !scanner.AtEnd() && json[start] == '"';
        if (is_string ? !scanner.String(&text) : !scanner.Value()) return malformed();
        if (key == "crs") {
          if (is_string) crs_text = std::move(text);
          else if (json.substr(start, scanner.pos() - start) != "null") crs_raw = std::string(json.substr(start, scanner.pos() - start));
        } else if (key == "crs_type" && is_string) {
          crs_type = std::move(text);
        } else if (key == "edges" && is_string) {
          edges = std::move(text);
        }
      } while (scanner.Consume(','));
      if (!scanner.Consume('}')) return malformed();
    }
    scanner.SkipSpace();
    if (!scanner.AtEnd()) return malformed();
  }

  LogicalType logical;
  logical.kind = edges.empty() || edges == "planar" ? Kind::kGeometry : Kind::kGeography;
  if (logical.kind == Kind::kGeography) {
    auto algorithm = AlgorithmNamed(LowerCase(edges));
    if (!algorithm) return Status::Invalid("field '{}': geoarrow.wkb edges '{}' have no Parquet form", field.name(), edges);
    logical.algorithm = *algorithm;
  }
  if (crs_raw) {
    logical.crs = std::move(*crs_raw);  // PROJJSON inline: Parquet allows any crs string
  } else if (crs_text && !crs_text->empty()) {
    if (crs_type == "srid") logical.crs = std::string(kSridPrefix) + *crs_text;
    else if (*crs_text != kDefaultCrs) logical.crs = std::move(*crs_text);  // the default is written as omitted
  }
  return std::optional<LogicalType>(std::move(logical));
}

}  // namespace strata::parquet
