#include "strata/ipc/integration_json.h"

#include <charconv>
#include <cmath>
#include <cstring>
#include <exception>
#include <limits>
#include <set>
#include <utility>

#include <nlohmann/json.hpp>

#include "strata/array/bitmap.h"
#include "strata/array/validate.h"
#include "strata/codec/decompressing_input_stream.h"
#include "strata/memory/buffer.h"

namespace strata::ipc {
namespace {

using Json = nlohmann::json;

// Nesting deeper than this is refused (bounds the recursion on odd input).
constexpr int kMaxDepth = 64;
// Larger element counts are refused before anything is allocated for them.
constexpr int64_t kMaxCount = int64_t{1} << 31;

// ---------------------------------------------------------------------------------------------
// JSON access helpers: never throw, always name the context.

const Json* Member(const Json& object, const char* key) {
  if (!object.is_object()) return nullptr;
  auto it = object.find(key);
  return it == object.end() ? nullptr : &*it;
}

Result<const Json*> Required(const Json& object, const char* key, const std::string& ctx) {
  const Json* v = Member(object, key);
  if (v == nullptr) return Status::Invalid("{}: missing \"{}\"", ctx, key);
  return v;
}

Result<std::string> GetString(const Json& v, const std::string& ctx) {
  if (!v.is_string()) return Status::Invalid("{}: expected a string, got {}", ctx, v.type_name());
  return v.get<std::string>();
}

Result<bool> GetBool(const Json& v, const std::string& ctx) {
  if (!v.is_boolean()) return Status::Invalid("{}: expected a boolean, got {}", ctx, v.type_name());
  return v.get<bool>();
}

template <typename T>
Result<T> ParseIntegerText(std::string_view text, const std::string& ctx) {
  T value{};
  const char* begin = text.data();
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(begin, end, value);
  if (ec != std::errc() || ptr != end || text.empty()) {
    return Status::Invalid("{}: \"{}\" is not an integer of the expected range", ctx, text);
  }
  return value;
}

// An integer given as a JSON number or a decimal string (Arrow writes 64-bit values as strings).
template <typename T>
Result<T> GetInteger(const Json& v, const std::string& ctx) {
  if (v.is_string()) return ParseIntegerText<T>(v.get_ref<const std::string&>(), ctx);
  if (v.is_number_unsigned()) {
    const uint64_t u = v.get<uint64_t>();
    if (u > static_cast<uint64_t>(std::numeric_limits<T>::max())) {
      return Status::Invalid("{}: {} is out of range", ctx, u);
    }
    return static_cast<T>(u);
  }
  if (v.is_number_integer()) {
    const int64_t s = v.get<int64_t>();
    if constexpr (std::is_signed_v<T>) {
      if (s < static_cast<int64_t>(std::numeric_limits<T>::min()) ||
          s > static_cast<int64_t>(std::numeric_limits<T>::max())) {
        return Status::Invalid("{}: {} is out of range", ctx, s);
      }
    } else {
      if (s < 0 || static_cast<uint64_t>(s) > static_cast<uint64_t>(std::numeric_limits<T>::max())) {
        return Status::Invalid("{}: {} is out of range", ctx, s);
      }
    }
    return static_cast<T>(s);
  }
  return Status::Invalid("{}: expected an integer, got {}", ctx, v.type_name());
}

Result<double> GetDouble(const Json& v, const std::string& ctx) {
  if (v.is_number()) return v.get<double>();
  if (v.is_string()) {
    const std::string& s = v.get_ref<const std::string&>();
    if (s == "NaN" || s == "nan") return std::numeric_limits<double>::quiet_NaN();
    if (s == "Infinity" || s == "inf") return std::numeric_limits<double>::infinity();
    if (s == "-Infinity" || s == "-inf") return -std::numeric_limits<double>::infinity();
  }
  return Status::Invalid("{}: expected a number, got {}", ctx, v.dump());
}

Result<const Json*> GetArray(const Json& object, const char* key, const std::string& ctx) {
  STRATA_ASSIGN_OR_RETURN(const Json* v, Required(object, key, ctx));
  if (!v->is_array()) return Status::Invalid("{}: \"{}\" must be an array, got {}", ctx, key, v->type_name());
  return v;
}

// An array member of exactly `n` elements.
Result<const Json*> GetSizedArray(const Json& object, const char* key, int64_t n, const std::string& ctx) {
  STRATA_ASSIGN_OR_RETURN(const Json* v, GetArray(object, key, ctx));
  if (static_cast<int64_t>(v->size()) != n) {
    return Status::Invalid("{}: \"{}\" has {} entries, expected {}", ctx, key, v->size(), n);
  }
  return v;
}

Result<std::string> HexDecode(const std::string& hex, const std::string& ctx) {
  if (hex.size() % 2 != 0) return Status::Invalid("{}: hex string of odd length {}", ctx, hex.size());
  auto nibble = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  std::string out(hex.size() / 2, '\0');
  for (size_t i = 0; i < out.size(); ++i) {
    const int hi = nibble(hex[2 * i]);
    const int lo = nibble(hex[2 * i + 1]);
    if (hi < 0 || lo < 0) return Status::Invalid("{}: \"{}\" is not hex", ctx, hex);
    out[i] = static_cast<char>((hi << 4) | lo);
  }
  return out;
}

// IEEE half-precision bits of `value`, rounded to nearest even.
uint16_t DoubleToHalfBits(double value) {
  const float f = static_cast<float>(value);
  uint32_t x;
  std::memcpy(&x, &f, 4);
  const uint16_t sign = static_cast<uint16_t>((x >> 16) & 0x8000u);
  const uint32_t abs = x & 0x7fffffffu;
  if (abs >= 0x7f800000u) {  // inf or nan
    return static_cast<uint16_t>(sign | 0x7c00u | (abs > 0x7f800000u ? 0x200u : 0u));
  }
  if (abs >= 0x477ff000u) return static_cast<uint16_t>(sign | 0x7c00u);  // overflows to inf
  if (abs < 0x38800000u) {  // subnormal half (or zero)
    const int shift = 113 - static_cast<int>(abs >> 23);
    if (shift > 24) return sign;
    const uint32_t mantissa = (abs & 0x7fffffu) | 0x800000u;
    const uint32_t half = mantissa >> (shift + 13);
    const uint32_t rem = mantissa & ((1u << (shift + 13)) - 1);
    const uint32_t mid = 1u << (shift + 12);
    uint32_t r = half;
    if (rem > mid || (rem == mid && (half & 1u))) ++r;
    return static_cast<uint16_t>(sign | r);
  }
  uint32_t h = ((abs - 0x38000000u) >> 13);
  const uint32_t rem = abs & 0x1fffu;
  if (rem > 0x1000u || (rem == 0x1000u && (h & 1u))) ++h;
  return static_cast<uint16_t>(sign | h);
}

// The little-endian two's complement of a decimal integer string, in `width` bytes (16 or 32).
Status ParseDecimalInteger(const std::string& text, int width, uint8_t* out, const std::string& ctx) {
  const int limbs = width / 8;
  uint64_t v[4] = {0, 0, 0, 0};
  size_t pos = 0;
  bool negative = false;
  if (pos < text.size() && (text[pos] == '-' || text[pos] == '+')) negative = text[pos++] == '-';
  if (pos == text.size()) return Status::Invalid("{}: \"{}\" is not a decimal integer", ctx, text);
  for (; pos < text.size(); ++pos) {
    const char c = text[pos];
    if (c < '0' || c > '9') return Status::Invalid("{}: \"{}\" is not a decimal integer", ctx, text);
    unsigned __int128 carry = static_cast<unsigned>(c - '0');
    for (int i = 0; i < limbs; ++i) {
      const unsigned __int128 t = static_cast<unsigned __int128>(v[i]) * 10 + carry;
      v[i] = static_cast<uint64_t>(t);
      carry = t >> 64;
    }
    if (carry != 0) return Status::Invalid("{}: \"{}\" does not fit in {} bits", ctx, text, width * 8);
  }
  // The magnitude must fit the signed range: below 2^(bits-1), or equal to it when negative.
  const bool top_bit = (v[limbs - 1] >> 63) != 0;
  if (top_bit) {
    bool exactly_min = v[limbs - 1] == (uint64_t{1} << 63);
    for (int i = 0; i < limbs - 1; ++i) exactly_min = exactly_min && v[i] == 0;
    if (!(negative && exactly_min)) {
      return Status::Invalid("{}: \"{}\" does not fit in {} signed bits", ctx, text, width * 8);
    }
  }
  if (negative) {
    uint64_t carry = 1;
    for (int i = 0; i < limbs; ++i) {
      const uint64_t inv = ~v[i];
      v[i] = inv + carry;
      carry = (carry != 0 && v[i] == 0) ? 1 : 0;
    }
  }
  std::memcpy(out, v, static_cast<size_t>(width));  // little-endian host (x86-64, aarch64)
  return Status::OK();
}

Result<std::shared_ptr<ResizableBuffer>> ZeroedBuffer(MemoryPool* pool, int64_t size) {
  STRATA_ASSIGN_OR_RETURN(auto buffer, AllocateBuffer(pool, size));
  if (size > 0) std::memset(buffer->mutable_data(), 0, static_cast<size_t>(size));
  return buffer;
}

std::string JoinPath(const std::string& parent, const std::string& name) {
  return parent.empty() ? name : parent + "." + name;
}

std::string_view UnitJsonName(TimeUnit unit) {
  switch (unit) {
    case TimeUnit::kSecond: return "SECOND";
    case TimeUnit::kMilli: return "MILLISECOND";
    case TimeUnit::kMicro: return "MICROSECOND";
    case TimeUnit::kNano: return "NANOSECOND";
  }
  return "?";
}

Result<TimeUnit> ParseUnit(const Json& type, const std::string& ctx) {
  STRATA_ASSIGN_OR_RETURN(const Json* u, Required(type, "unit", ctx));
  STRATA_ASSIGN_OR_RETURN(std::string unit, GetString(*u, ctx + " unit"));
  for (TimeUnit t : {TimeUnit::kSecond, TimeUnit::kMilli, TimeUnit::kMicro, TimeUnit::kNano}) {
    if (unit == UnitJsonName(t)) return t;
  }
  return Status::Invalid("{}: unknown time unit \"{}\"", ctx, unit);
}

// ---------------------------------------------------------------------------------------------
// Schema

// A field as the JSON describes it: the strata field, the dictionary id when it is
// dictionary-encoded, and its JSON children (for a dictionary field, those of the value type).
struct FieldNode {
  FieldPtr field;
  std::string path;  // dotted names, for messages
  int64_t dict_id = -1;
  TypePtr value_type;  // the field's type without the dictionary encoding
  std::vector<FieldNode> children;
};

Result<KeyValueMetadata> ParseMetadata(const Json& v, const std::string& ctx) {
  KeyValueMetadata metadata;
  if (v.is_null()) return metadata;
  if (v.is_array()) {
    for (const Json& kv : v) {
      STRATA_ASSIGN_OR_RETURN(const Json* k, Required(kv, "key", ctx + " metadata"));
      STRATA_ASSIGN_OR_RETURN(const Json* val, Required(kv, "value", ctx + " metadata"));
      STRATA_ASSIGN_OR_RETURN(std::string key, GetString(*k, ctx + " metadata key"));
      STRATA_ASSIGN_OR_RETURN(std::string value, GetString(*val, ctx + " metadata value"));
      metadata.Set(std::move(key), std::move(value));
    }
    return metadata;
  }
  if (v.is_object()) {  // some producers write a plain object
    for (auto it = v.begin(); it != v.end(); ++it) {
      STRATA_ASSIGN_OR_RETURN(std::string value, GetString(it.value(), ctx + " metadata value"));
      metadata.Set(it.key(), std::move(value));
    }
    return metadata;
  }
  return Status::Invalid("{}: metadata must be an array of {{key, value}}, got {}", ctx, v.type_name());
}

Result<TypePtr> ParseIntType(const Json& type, const std::string& ctx) {
  STRATA_ASSIGN_OR_RETURN(const Json* bw, Required(type, "bitWidth", ctx));
  STRATA_ASSIGN_OR_RETURN(int bits, GetInteger<int>(*bw, ctx + " bitWidth"));
  STRATA_ASSIGN_OR_RETURN(const Json* sg, Required(type, "isSigned", ctx));
  STRATA_ASSIGN_OR_RETURN(bool is_signed, GetBool(*sg, ctx + " isSigned"));
  switch (bits) {
    case 8: return is_signed ? int8() : uint8();
    case 16: return is_signed ? int16() : uint16();
    case 32: return is_signed ? int32() : uint32();
    case 64: return is_signed ? int64() : uint64();
    default: return Status::Invalid("{}: integer bitWidth {} (expected 8, 16, 32 or 64)", ctx, bits);
  }
}

Status ExpectChildren(const std::vector<FieldNode>& children, size_t n, const std::string& type_name,
                      const std::string& ctx) {
  if (children.size() != n) {
    return Status::Invalid("{}: type {} needs {} child field(s), got {}", ctx, type_name, n, children.size());
  }
  return Status::OK();
}

Result<TypePtr> ParseType(const Json& type, const std::vector<FieldNode>& children, const std::string& ctx) {
  if (!type.is_object()) return Status::Invalid("{}: \"type\" must be an object", ctx);
  STRATA_ASSIGN_OR_RETURN(const Json* n, Required(type, "name", ctx + " type"));
  STRATA_ASSIGN_OR_RETURN(std::string name, GetString(*n, ctx + " type name"));
  auto leaf = [&](TypePtr t) -> Result<TypePtr> {
    STRATA_RETURN_NOT_OK(ExpectChildren(children, 0, name, ctx));
    return t;
  };
  if (name == "null") return leaf(null());
  if (name == "bool") return leaf(boolean());
  if (name == "int") {
    STRATA_ASSIGN_OR_RETURN(TypePtr t, ParseIntType(type, ctx));
    return leaf(t);
  }
  if (name == "floatingpoint") {
    STRATA_ASSIGN_OR_RETURN(const Json* p, Required(type, "precision", ctx));
    STRATA_ASSIGN_OR_RETURN(std::string precision, GetString(*p, ctx + " precision"));
    if (precision == "HALF") return leaf(float16());
    if (precision == "SINGLE") return leaf(float32());
    if (precision == "DOUBLE") return leaf(float64());
    return Status::Invalid("{}: unknown floating point precision \"{}\"", ctx, precision);
  }
  if (name == "binary") return leaf(binary());
  if (name == "utf8") return leaf(utf8());
  if (name == "largebinary") return leaf(large_binary());
  if (name == "largeutf8") return leaf(large_utf8());
  if (name == "binaryview") return leaf(binary_view());
  if (name == "utf8view") return leaf(utf8_view());
  if (name == "fixedsizebinary") {
    STRATA_ASSIGN_OR_RETURN(const Json* w, Required(type, "byteWidth", ctx));
    STRATA_ASSIGN_OR_RETURN(int32_t width, GetInteger<int32_t>(*w, ctx + " byteWidth"));
    // DataType keeps the width in bits as an int: wider types cannot be represented.
    if (width > std::numeric_limits<int32_t>::max() / 8) {
      return Status::LimitExceeded("{}: fixedsizebinary byteWidth {} is too large", ctx, width);
    }
    STRATA_ASSIGN_OR_RETURN(TypePtr t, MakeFixedSizeBinary(width));
    return leaf(t);
  }
  if (name == "decimal") {
    STRATA_ASSIGN_OR_RETURN(const Json* p, Required(type, "precision", ctx));
    STRATA_ASSIGN_OR_RETURN(int32_t precision, GetInteger<int32_t>(*p, ctx + " precision"));
    STRATA_ASSIGN_OR_RETURN(const Json* s, Required(type, "scale", ctx));
    STRATA_ASSIGN_OR_RETURN(int32_t scale, GetInteger<int32_t>(*s, ctx + " scale"));
    int bits = 128;
    if (const Json* bw = Member(type, "bitWidth")) {
      STRATA_ASSIGN_OR_RETURN(bits, GetInteger<int>(*bw, ctx + " bitWidth"));
    }
    if (bits == 32 || bits == 64) {
      return Status::NotImplemented("field '{}': type decimal{} (bitWidth {}) is not supported by strata", ctx,
                                    bits, bits);
    }
    if (bits == 128) {
      STRATA_ASSIGN_OR_RETURN(TypePtr t, MakeDecimal128(precision, scale));
      return leaf(t);
    }
    if (bits == 256) {
      STRATA_ASSIGN_OR_RETURN(TypePtr t, MakeDecimal256(precision, scale));
      return leaf(t);
    }
    return Status::Invalid("{}: decimal bitWidth {}", ctx, bits);
  }
  if (name == "date") {
    STRATA_ASSIGN_OR_RETURN(const Json* u, Required(type, "unit", ctx));
    STRATA_ASSIGN_OR_RETURN(std::string unit, GetString(*u, ctx + " unit"));
    if (unit == "DAY") return leaf(date32());
    if (unit == "MILLISECOND") return leaf(date64());
    return Status::Invalid("{}: unknown date unit \"{}\"", ctx, unit);
  }
  if (name == "time") {
    STRATA_ASSIGN_OR_RETURN(TimeUnit unit, ParseUnit(type, ctx));
    const bool is32 = unit == TimeUnit::kSecond || unit == TimeUnit::kMilli;
    if (const Json* bw = Member(type, "bitWidth")) {
      STRATA_ASSIGN_OR_RETURN(int bits, GetInteger<int>(*bw, ctx + " bitWidth"));
      if (bits != (is32 ? 32 : 64)) {
        return Status::Invalid("{}: time unit {} with bitWidth {}", ctx, UnitJsonName(unit), bits);
      }
    }
    STRATA_ASSIGN_OR_RETURN(TypePtr t, is32 ? MakeTime32(unit) : MakeTime64(unit));
    return leaf(t);
  }
  if (name == "timestamp") {
    STRATA_ASSIGN_OR_RETURN(TimeUnit unit, ParseUnit(type, ctx));
    std::string tz;
    if (const Json* z = Member(type, "timezone"); z != nullptr && !z->is_null()) {
      STRATA_ASSIGN_OR_RETURN(tz, GetString(*z, ctx + " timezone"));
    }
    return leaf(timestamp(unit, std::move(tz)));
  }
  if (name == "duration") {
    STRATA_ASSIGN_OR_RETURN(TimeUnit unit, ParseUnit(type, ctx));
    return leaf(duration(unit));
  }
  if (name == "list" || name == "largelist") {
    STRATA_RETURN_NOT_OK(ExpectChildren(children, 1, name, ctx));
    return name == "list" ? list(children[0].field) : large_list(children[0].field);
  }
  if (name == "fixedsizelist") {
    STRATA_RETURN_NOT_OK(ExpectChildren(children, 1, name, ctx));
    STRATA_ASSIGN_OR_RETURN(const Json* s, Required(type, "listSize", ctx));
    STRATA_ASSIGN_OR_RETURN(int32_t size, GetInteger<int32_t>(*s, ctx + " listSize"));
    return MakeFixedSizeList(children[0].field, size);
  }
  if (name == "struct") {
    std::vector<FieldPtr> fields;
    fields.reserve(children.size());
    for (const FieldNode& c : children) fields.push_back(c.field);
    return struct_(std::move(fields));
  }
  if (name == "map") {
    STRATA_RETURN_NOT_OK(ExpectChildren(children, 1, name, ctx));
    bool keys_sorted = false;
    if (const Json* k = Member(type, "keysSorted")) {
      STRATA_ASSIGN_OR_RETURN(keys_sorted, GetBool(*k, ctx + " keysSorted"));
    }
    auto t = MakeMap(children[0].field, keys_sorted);
    if (!t.ok()) return t.status().WithContext(ctx);
    return t;
  }
  if (name == "interval" || name == "union" || name == "runendencoded" || name == "listview" ||
      name == "largelistview") {
    std::string detail = name;
    if (const Json* u = Member(type, "unit"); u != nullptr && u->is_string()) detail += "[" + u->get<std::string>() + "]";
    if (const Json* m = Member(type, "mode"); m != nullptr && m->is_string()) detail += "[" + m->get<std::string>() + "]";
    return Status::NotImplemented("field '{}': type {} is not supported by strata", ctx, detail);
  }
  return Status::NotImplemented("field '{}': unknown integration JSON type \"{}\"", ctx, name);
}

class SchemaParser {
 public:
  Result<FieldNode> ParseField(const Json& f, const std::string& parent, std::vector<int> path, int depth) {
    if (!f.is_object()) return Status::Invalid("{}: a field must be an object", parent.empty() ? "schema" : parent);
    std::string name;
    if (const Json* n = Member(f, "name"); n != nullptr && !n->is_null()) {
      STRATA_ASSIGN_OR_RETURN(name, GetString(*n, JoinPath(parent, "<field>") + " name"));
    }
    FieldNode node;
    node.path = JoinPath(parent, name);
    const std::string& ctx = node.path;
    if (depth > kMaxDepth) return Status::LimitExceeded("{}: fields nested deeper than {}", ctx, kMaxDepth);
    bool nullable = true;
    if (const Json* n = Member(f, "nullable")) { STRATA_ASSIGN_OR_RETURN(nullable, GetBool(*n, ctx + " nullable")); }
    if (const Json* c = Member(f, "children"); c != nullptr && !c->is_null()) {
      if (!c->is_array()) return Status::Invalid("{}: \"children\" must be an array", ctx);
      for (size_t i = 0; i < c->size(); ++i) {
        std::vector<int> child_path = path;
        child_path.push_back(static_cast<int>(i));
        STRATA_ASSIGN_OR_RETURN(FieldNode child, ParseField((*c)[i], ctx, std::move(child_path), depth + 1));
        node.children.push_back(std::move(child));
      }
    }
    STRATA_ASSIGN_OR_RETURN(const Json* t, Required(f, "type", ctx));
    STRATA_ASSIGN_OR_RETURN(node.value_type, ParseType(*t, node.children, ctx));
    KeyValueMetadata metadata;
    if (const Json* m = Member(f, "metadata")) { STRATA_ASSIGN_OR_RETURN(metadata, ParseMetadata(*m, ctx)); }
    TypePtr field_type = node.value_type;
    if (const Json* d = Member(f, "dictionary"); d != nullptr && !d->is_null()) {
      STRATA_ASSIGN_OR_RETURN(const Json* id, Required(*d, "id", ctx + " dictionary"));
      STRATA_ASSIGN_OR_RETURN(node.dict_id, GetInteger<int64_t>(*id, ctx + " dictionary id"));
      if (node.dict_id < 0) return Status::Invalid("{}: negative dictionary id {}", ctx, node.dict_id);
      TypePtr index_type = int32();  // the format's default
      if (const Json* it = Member(*d, "indexType")) {
        STRATA_ASSIGN_OR_RETURN(index_type, ParseIntType(*it, ctx + " dictionary indexType"));
      }
      bool ordered = false;
      if (const Json* o = Member(*d, "isOrdered")) { STRATA_ASSIGN_OR_RETURN(ordered, GetBool(*o, ctx + " isOrdered")); }
      STRATA_ASSIGN_OR_RETURN(field_type, MakeDictionary(index_type, node.value_type, ordered));
      // One id, one value type (dictionaries may be shared by several fields).
      auto [it, inserted] = value_nodes_.emplace(node.dict_id, FieldNode{});
      if (!inserted && !it->second.value_type->Equals(*node.value_type)) {
        return Status::Invalid("{}: dictionary id {} has value type {} here and {} at '{}'", ctx, node.dict_id,
                               node.value_type->ToString(), it->second.value_type->ToString(), it->second.path);
      }
      dictionary_fields_.push_back({path, node.path, node.dict_id});
    }
    node.field = field(name, field_type, nullable, std::move(metadata));
    if (node.dict_id >= 0) {
      // The node the dictionary's own values are read with: the value type, no encoding.
      FieldNode& value = value_nodes_[node.dict_id];
      if (value.field == nullptr) {
        value.field = field(name, node.value_type, true);
        value.path = node.path + " (dictionary " + std::to_string(node.dict_id) + ")";
        value.value_type = node.value_type;
        value.children = node.children;
      }
    }
    return node;
  }

  std::map<int64_t, FieldNode>& value_nodes() { return value_nodes_; }
  std::vector<IntegrationDictionaryField>& dictionary_fields() { return dictionary_fields_; }

 private:
  std::map<int64_t, FieldNode> value_nodes_;
  std::vector<IntegrationDictionaryField> dictionary_fields_;
};

// ---------------------------------------------------------------------------------------------
// Columns

class ColumnConverter {
 public:
  ColumnConverter(MemoryPool* pool, const std::map<int64_t, FieldNode>& value_nodes,
                  std::map<int64_t, const Json*> dictionary_json)
      : pool_(pool), value_nodes_(value_nodes), dictionary_json_(std::move(dictionary_json)) {}

  // The dictionary values of `id`, converted on first use (dictionaries may hold
  // dictionary-encoded fields of other ids).
  Result<ArrayDataPtr> Dictionary(int64_t id, const std::string& ctx) {
    if (auto it = built_.find(id); it != built_.end()) return it->second;
    auto node = value_nodes_.find(id);
    if (node == value_nodes_.end()) return Status::Invalid("{}: dictionary id {} is not in the schema", ctx, id);
    auto js = dictionary_json_.find(id);
    if (js == dictionary_json_.end()) {
      return Status::Invalid("{}: dictionary id {} has no entry in \"dictionaries\"", ctx, id);
    }
    if (!in_progress_.insert(id).second) return Status::Invalid("{}: dictionary id {} refers to itself", ctx, id);
    const std::string dctx = "dictionary " + std::to_string(id);
    STRATA_ASSIGN_OR_RETURN(const Json* data, Required(*js->second, "data", dctx));
    STRATA_ASSIGN_OR_RETURN(const Json* count_json, Required(*data, "count", dctx));
    STRATA_ASSIGN_OR_RETURN(int64_t count, GetInteger<int64_t>(*count_json, dctx + " count"));
    STRATA_ASSIGN_OR_RETURN(const Json* columns, GetSizedArray(*data, "columns", 1, dctx));
    STRATA_ASSIGN_OR_RETURN(ArrayDataPtr values, Convert((*columns)[0], node->second, 0, /*check_name=*/false));
    if (values->length != count) {
      return Status::Invalid("{}: count {} but its column has {} values", dctx, count, values->length);
    }
    in_progress_.erase(id);
    built_[id] = values;
    return values;
  }

  const std::map<int64_t, ArrayDataPtr>& built() const { return built_; }

  Result<ArrayDataPtr> Convert(const Json& col, const FieldNode& node, int depth, bool check_name = true) {
    const std::string& ctx = node.path;
    if (depth > kMaxDepth) return Status::LimitExceeded("{}: columns nested deeper than {}", ctx, kMaxDepth);
    if (!col.is_object()) return Status::Invalid("{}: a column must be an object", ctx);
    if (check_name) {
      if (const Json* n = Member(col, "name"); n != nullptr && n->is_string() &&
                                              n->get_ref<const std::string&>() != node.field->name()) {
        return Status::Invalid("{}: column is named \"{}\", the schema says \"{}\"", ctx,
                               n->get_ref<const std::string&>(), node.field->name());
      }
    }
    STRATA_ASSIGN_OR_RETURN(const Json* count_json, Required(col, "count", ctx));
    STRATA_ASSIGN_OR_RETURN(int64_t count, GetInteger<int64_t>(*count_json, ctx + " count"));
    if (count < 0 || count > kMaxCount) return Status::Invalid("{}: count {} out of range", ctx, count);

    if (node.dict_id >= 0) {
      // The indices, then the dictionary the id names.
      const TypePtr& dict_type = node.field->type();
      STRATA_ASSIGN_OR_RETURN(ArrayDataPtr indices, ConvertValues(col, dict_type->index_type(), node, count, depth));
      STRATA_ASSIGN_OR_RETURN(ArrayDataPtr dictionary, Dictionary(node.dict_id, ctx));
      indices->type = dict_type;
      indices->dictionary = std::move(dictionary);
      return indices;
    }
    return ConvertValues(col, node.value_type, node, count, depth);
  }

 private:
  // Validity bitmap from VALIDITY (nullptr when absent or all valid), and the null count.
  Status Validity(const Json& col, int64_t count, const std::string& ctx, std::shared_ptr<Buffer>* out,
                  int64_t* null_count) {
    *out = nullptr;
    *null_count = 0;
    const Json* v = Member(col, "VALIDITY");
    if (v == nullptr) return Status::OK();  // every slot valid
    if (!v->is_array() || static_cast<int64_t>(v->size()) != count) {
      return Status::Invalid("{}: VALIDITY must be an array of {} entries", ctx, count);
    }
    STRATA_ASSIGN_OR_RETURN(auto bits, ZeroedBuffer(pool_, bitmap::BytesForBits(count)));
    for (int64_t i = 0; i < count; ++i) {
      const Json& e = (*v)[static_cast<size_t>(i)];
      bool valid;
      if (e.is_boolean()) {
        valid = e.get<bool>();
      } else {
        STRATA_ASSIGN_OR_RETURN(int flag, GetInteger<int>(e, ctx + " VALIDITY"));
        if (flag != 0 && flag != 1) return Status::Invalid("{}: VALIDITY entry {} is {}", ctx, i, flag);
        valid = flag == 1;
      }
      if (valid) {
        bitmap::SetBit(bits->mutable_data(), i);
      } else {
        ++*null_count;
      }
    }
    if (*null_count > 0) *out = std::move(bits);
    return Status::OK();
  }

  template <typename T>
  Result<std::shared_ptr<Buffer>> IntegerValues(const Json& data, int64_t count, const std::string& ctx) {
    STRATA_ASSIGN_OR_RETURN(auto buffer, ZeroedBuffer(pool_, count * static_cast<int64_t>(sizeof(T))));
    T* out = buffer->template mutable_data_as<T>();
    for (int64_t i = 0; i < count; ++i) {
      STRATA_ASSIGN_OR_RETURN(out[i], GetInteger<T>(data[static_cast<size_t>(i)], ctx + " DATA"));
    }
    return std::shared_ptr<Buffer>(std::move(buffer));
  }

  template <typename OffsetT>
  Result<std::shared_ptr<Buffer>> Offsets(const Json& col, int64_t count, const std::string& ctx,
                                          std::vector<int64_t>* values) {
    const Json* o = Member(col, "OFFSET");
    values->assign(static_cast<size_t>(count) + 1, 0);
    STRATA_ASSIGN_OR_RETURN(auto buffer, ZeroedBuffer(pool_, (count + 1) * static_cast<int64_t>(sizeof(OffsetT))));
    if (o == nullptr && count == 0) return std::shared_ptr<Buffer>(std::move(buffer));  // [0]
    if (o == nullptr || !o->is_array() || static_cast<int64_t>(o->size()) != count + 1) {
      return Status::Invalid("{}: OFFSET must be an array of {} entries", ctx, count + 1);
    }
    OffsetT* out = buffer->template mutable_data_as<OffsetT>();
    for (int64_t i = 0; i <= count; ++i) {
      STRATA_ASSIGN_OR_RETURN(out[i], GetInteger<OffsetT>((*o)[static_cast<size_t>(i)], ctx + " OFFSET"));
      if (out[i] < 0 || (i > 0 && out[i] < out[i - 1])) {
        return Status::Invalid("{}: OFFSET entry {} is {} (offsets must be non-negative and non-decreasing)",
                               ctx, i, static_cast<int64_t>(out[i]));
      }
      (*values)[static_cast<size_t>(i)] = out[i];
    }
    return std::shared_ptr<Buffer>(std::move(buffer));
  }

  template <typename OffsetT>
  Result<ArrayDataPtr> BinaryLike(const Json& col, const TypePtr& type, int64_t count, const std::string& ctx,
                                  std::shared_ptr<Buffer> validity, int64_t null_count) {
    std::vector<int64_t> offsets;
    STRATA_ASSIGN_OR_RETURN(auto offset_buffer, Offsets<OffsetT>(col, count, ctx, &offsets));
    const bool hex = !is_string(type->id());
    const Json* data = nullptr;
    if (count > 0 || Member(col, "DATA") != nullptr) {
      STRATA_ASSIGN_OR_RETURN(data, GetSizedArray(col, "DATA", count, ctx));
    }
    const int64_t total = offsets.back();
    if (total > kMaxCount * 4) return Status::Invalid("{}: {} bytes of values", ctx, total);
    STRATA_ASSIGN_OR_RETURN(auto bytes, ZeroedBuffer(pool_, total));
    for (int64_t i = 0; i < count; ++i) {
      STRATA_ASSIGN_OR_RETURN(std::string value, GetString((*data)[static_cast<size_t>(i)], ctx + " DATA"));
      if (hex) { STRATA_ASSIGN_OR_RETURN(value, HexDecode(value, ctx + " DATA")); }
      const int64_t begin = offsets[static_cast<size_t>(i)];
      const int64_t length = offsets[static_cast<size_t>(i) + 1] - begin;
      if (length != static_cast<int64_t>(value.size())) {
        return Status::Invalid("{}: value {} is {} bytes but its offsets span {}", ctx, i, value.size(), length);
      }
      if (length > 0) std::memcpy(bytes->mutable_data() + begin, value.data(), value.size());
    }
    return ArrayData::Make(type, count, {std::move(validity), std::move(offset_buffer), std::move(bytes)}, null_count);
  }

  Result<ArrayDataPtr> Views(const Json& col, const TypePtr& type, int64_t count, const std::string& ctx,
                             std::shared_ptr<Buffer> validity, int64_t null_count) {
    const bool hex = type->id() == TypeId::kBinaryView;
    std::vector<std::shared_ptr<Buffer>> buffers = {std::move(validity), nullptr};
    if (const Json* vb = Member(col, "VARIADIC_DATA_BUFFERS")) {
      if (!vb->is_array()) return Status::Invalid("{}: VARIADIC_DATA_BUFFERS must be an array", ctx);
      for (const Json& b : *vb) {
        STRATA_ASSIGN_OR_RETURN(std::string text, GetString(b, ctx + " VARIADIC_DATA_BUFFERS"));
        STRATA_ASSIGN_OR_RETURN(std::string bytes, HexDecode(text, ctx + " VARIADIC_DATA_BUFFERS"));
        STRATA_ASSIGN_OR_RETURN(auto buffer, ZeroedBuffer(pool_, static_cast<int64_t>(bytes.size())));
        if (!bytes.empty()) std::memcpy(buffer->mutable_data(), bytes.data(), bytes.size());
        buffers.push_back(std::move(buffer));
      }
    }
    STRATA_ASSIGN_OR_RETURN(const Json* views, GetSizedArray(col, "VIEWS", count, ctx));
    STRATA_ASSIGN_OR_RETURN(auto view_buffer, ZeroedBuffer(pool_, count * view_layout::kViewSize));
    for (int64_t i = 0; i < count; ++i) {
      const Json& v = (*views)[static_cast<size_t>(i)];
      uint8_t* out = view_buffer->mutable_data() + i * view_layout::kViewSize;
      const std::string vctx = ctx + " VIEWS[" + std::to_string(i) + "]";
      STRATA_ASSIGN_OR_RETURN(const Json* size_json, Required(v, "SIZE", vctx));
      STRATA_ASSIGN_OR_RETURN(int32_t size, GetInteger<int32_t>(*size_json, vctx + " SIZE"));
      if (size < 0) return Status::Invalid("{}: negative SIZE", vctx);
      std::memcpy(out, &size, 4);
      if (const Json* inlined = Member(v, "INLINED")) {
        STRATA_ASSIGN_OR_RETURN(std::string value, GetString(*inlined, vctx + " INLINED"));
        if (hex) { STRATA_ASSIGN_OR_RETURN(value, HexDecode(value, vctx + " INLINED")); }
        if (static_cast<int64_t>(value.size()) != size || size > view_layout::kInlineSize) {
          return Status::Invalid("{}: INLINED value of {} bytes with SIZE {}", vctx, value.size(), size);
        }
        if (size > 0) std::memcpy(out + 4, value.data(), value.size());
        continue;
      }
      if (size <= view_layout::kInlineSize) return Status::Invalid("{}: SIZE {} but no INLINED value", vctx, size);
      STRATA_ASSIGN_OR_RETURN(const Json* prefix_json, Required(v, "PREFIX_HEX", vctx));
      STRATA_ASSIGN_OR_RETURN(std::string prefix_hex, GetString(*prefix_json, vctx + " PREFIX_HEX"));
      STRATA_ASSIGN_OR_RETURN(std::string prefix, HexDecode(prefix_hex, vctx + " PREFIX_HEX"));
      if (prefix.size() != view_layout::kPrefixSize) return Status::Invalid("{}: PREFIX_HEX is not 4 bytes", vctx);
      STRATA_ASSIGN_OR_RETURN(const Json* index_json, Required(v, "BUFFER_INDEX", vctx));
      STRATA_ASSIGN_OR_RETURN(int32_t index, GetInteger<int32_t>(*index_json, vctx + " BUFFER_INDEX"));
      STRATA_ASSIGN_OR_RETURN(const Json* offset_json, Required(v, "OFFSET", vctx));
      STRATA_ASSIGN_OR_RETURN(int32_t offset, GetInteger<int32_t>(*offset_json, vctx + " OFFSET"));
      std::memcpy(out + 4, prefix.data(), 4);
      std::memcpy(out + 8, &index, 4);
      std::memcpy(out + 12, &offset, 4);
    }
    buffers[1] = std::move(view_buffer);
    return ArrayData::Make(type, count, std::move(buffers), null_count);
  }

  Result<ArrayDataPtr> ConvertValues(const Json& col, const TypePtr& type, const FieldNode& node, int64_t count,
                                     int depth) {
    const std::string& ctx = node.path;
    const TypeId id = type->id();
    if (id == TypeId::kNull) return ArrayData::Make(type, count, {nullptr}, count);
    std::shared_ptr<Buffer> validity;
    int64_t null_count = 0;
    STRATA_RETURN_NOT_OK(Validity(col, count, ctx, &validity, &null_count));

    auto data_array = [&]() -> Result<const Json*> {
      if (count == 0 && Member(col, "DATA") == nullptr) {
        static const Json kEmpty = Json::array();
        return &kEmpty;
      }
      return GetSizedArray(col, "DATA", count, ctx);
    };

    switch (id) {
      case TypeId::kBoolean: {
        STRATA_ASSIGN_OR_RETURN(const Json* data, data_array());
        STRATA_ASSIGN_OR_RETURN(auto bits, ZeroedBuffer(pool_, bitmap::BytesForBits(count)));
        for (int64_t i = 0; i < count; ++i) {
          const Json& e = (*data)[static_cast<size_t>(i)];
          bool value;
          if (e.is_boolean()) {
            value = e.get<bool>();
          } else {
            STRATA_ASSIGN_OR_RETURN(int v, GetInteger<int>(e, ctx + " DATA"));
            value = v != 0;
          }
          if (value) bitmap::SetBit(bits->mutable_data(), i);
        }
        return ArrayData::Make(type, count, {std::move(validity), std::move(bits)}, null_count);
      }
      case TypeId::kInt8:
      case TypeId::kInt16:
      case TypeId::kInt32:
      case TypeId::kInt64:
      case TypeId::kUInt8:
      case TypeId::kUInt16:
      case TypeId::kUInt32:
      case TypeId::kUInt64:
      case TypeId::kDate32:
      case TypeId::kDate64:
      case TypeId::kTime32:
      case TypeId::kTime64:
      case TypeId::kTimestamp:
      case TypeId::kDuration: {
        STRATA_ASSIGN_OR_RETURN(const Json* data, data_array());
        Result<std::shared_ptr<Buffer>> values = Status::Invalid("unreachable");
        switch (id) {
          case TypeId::kInt8: values = IntegerValues<int8_t>(*data, count, ctx); break;
          case TypeId::kInt16: values = IntegerValues<int16_t>(*data, count, ctx); break;
          case TypeId::kInt32:
          case TypeId::kDate32:
          case TypeId::kTime32: values = IntegerValues<int32_t>(*data, count, ctx); break;
          case TypeId::kUInt8: values = IntegerValues<uint8_t>(*data, count, ctx); break;
          case TypeId::kUInt16: values = IntegerValues<uint16_t>(*data, count, ctx); break;
          case TypeId::kUInt32: values = IntegerValues<uint32_t>(*data, count, ctx); break;
          case TypeId::kUInt64: values = IntegerValues<uint64_t>(*data, count, ctx); break;
          default: values = IntegerValues<int64_t>(*data, count, ctx); break;
        }
        STRATA_RETURN_NOT_OK(values.status());
        return ArrayData::Make(type, count, {std::move(validity), std::move(values).MoveValueUnsafe()}, null_count);
      }
      case TypeId::kFloat16:
      case TypeId::kFloat32:
      case TypeId::kFloat64: {
        STRATA_ASSIGN_OR_RETURN(const Json* data, data_array());
        const int width = type->byte_width();
        STRATA_ASSIGN_OR_RETURN(auto buffer, ZeroedBuffer(pool_, count * width));
        for (int64_t i = 0; i < count; ++i) {
          STRATA_ASSIGN_OR_RETURN(double v, GetDouble((*data)[static_cast<size_t>(i)], ctx + " DATA"));
          if (id == TypeId::kFloat64) {
            buffer->mutable_data_as<double>()[i] = v;
          } else if (id == TypeId::kFloat32) {
            buffer->mutable_data_as<float>()[i] = static_cast<float>(v);
          } else {
            buffer->mutable_data_as<uint16_t>()[i] = DoubleToHalfBits(v);
          }
        }
        return ArrayData::Make(type, count, {std::move(validity), std::move(buffer)}, null_count);
      }
      case TypeId::kDecimal128:
      case TypeId::kDecimal256: {
        STRATA_ASSIGN_OR_RETURN(const Json* data, data_array());
        const int width = type->byte_width();
        STRATA_ASSIGN_OR_RETURN(auto buffer, ZeroedBuffer(pool_, count * width));
        for (int64_t i = 0; i < count; ++i) {
          const Json& e = (*data)[static_cast<size_t>(i)];
          std::string text;
          if (e.is_number_integer()) {
            text = e.dump();
          } else {
            STRATA_ASSIGN_OR_RETURN(text, GetString(e, ctx + " DATA"));
          }
          STRATA_RETURN_NOT_OK(ParseDecimalInteger(text, width, buffer->mutable_data() + i * width, ctx + " DATA"));
        }
        return ArrayData::Make(type, count, {std::move(validity), std::move(buffer)}, null_count);
      }
      case TypeId::kFixedSizeBinary: {
        STRATA_ASSIGN_OR_RETURN(const Json* data, data_array());
        const int64_t width = type->byte_width();
        STRATA_ASSIGN_OR_RETURN(auto buffer, ZeroedBuffer(pool_, count * width));
        for (int64_t i = 0; i < count; ++i) {
          STRATA_ASSIGN_OR_RETURN(std::string text, GetString((*data)[static_cast<size_t>(i)], ctx + " DATA"));
          STRATA_ASSIGN_OR_RETURN(std::string bytes, HexDecode(text, ctx + " DATA"));
          if (static_cast<int64_t>(bytes.size()) != width) {
            return Status::Invalid("{}: value {} is {} bytes, the type says {}", ctx, i, bytes.size(), width);
          }
          if (width > 0) std::memcpy(buffer->mutable_data() + i * width, bytes.data(), bytes.size());
        }
        return ArrayData::Make(type, count, {std::move(validity), std::move(buffer)}, null_count);
      }
      case TypeId::kBinary:
      case TypeId::kString:
        return BinaryLike<int32_t>(col, type, count, ctx, std::move(validity), null_count);
      case TypeId::kLargeBinary:
      case TypeId::kLargeString:
        return BinaryLike<int64_t>(col, type, count, ctx, std::move(validity), null_count);
      case TypeId::kBinaryView:
      case TypeId::kStringView:
        return Views(col, type, count, ctx, std::move(validity), null_count);
      case TypeId::kList:
      case TypeId::kMap:
      case TypeId::kLargeList: {
        std::vector<int64_t> offsets;
        std::shared_ptr<Buffer> offset_buffer;
        if (id == TypeId::kLargeList) {
          STRATA_ASSIGN_OR_RETURN(offset_buffer, Offsets<int64_t>(col, count, ctx, &offsets));
        } else {
          STRATA_ASSIGN_OR_RETURN(offset_buffer, Offsets<int32_t>(col, count, ctx, &offsets));
        }
        STRATA_ASSIGN_OR_RETURN(auto children, Children(col, node, depth));
        if (children[0]->length < offsets.back()) {
          return Status::Invalid("{}: offsets reach {} but the child has {} values", ctx, offsets.back(),
                                 children[0]->length);
        }
        auto out = ArrayData::Make(type, count, {std::move(validity), std::move(offset_buffer)}, null_count);
        out->children = std::move(children);
        return out;
      }
      case TypeId::kFixedSizeList: {
        STRATA_ASSIGN_OR_RETURN(auto children, Children(col, node, depth));
        if (children[0]->length != count * type->list_size()) {
          return Status::Invalid("{}: {} lists of {} need {} child values, got {}", ctx, count, type->list_size(),
                                 count * type->list_size(), children[0]->length);
        }
        auto out = ArrayData::Make(type, count, {std::move(validity)}, null_count);
        out->children = std::move(children);
        return out;
      }
      case TypeId::kStruct: {
        STRATA_ASSIGN_OR_RETURN(auto children, Children(col, node, depth));
        for (const auto& c : children) {
          if (c->length != count) {
            return Status::Invalid("{}: struct of {} rows has a child of {}", ctx, count, c->length);
          }
        }
        auto out = ArrayData::Make(type, count, {std::move(validity)}, null_count);
        out->children = std::move(children);
        return out;
      }
      default:
        return Status::NotImplemented("{}: type {} in integration JSON", ctx, type->ToString());
    }
  }

  Result<std::vector<ArrayDataPtr>> Children(const Json& col, const FieldNode& node, int depth) {
    STRATA_ASSIGN_OR_RETURN(const Json* children,
                            GetSizedArray(col, "children", static_cast<int64_t>(node.children.size()), node.path));
    std::vector<ArrayDataPtr> out;
    for (size_t i = 0; i < node.children.size(); ++i) {
      STRATA_ASSIGN_OR_RETURN(ArrayDataPtr child, Convert((*children)[i], node.children[i], depth + 1));
      out.push_back(std::move(child));
    }
    return out;
  }

  MemoryPool* pool_;
  const std::map<int64_t, FieldNode>& value_nodes_;
  std::map<int64_t, const Json*> dictionary_json_;
  std::map<int64_t, ArrayDataPtr> built_;
  std::set<int64_t> in_progress_;
};

Result<IntegrationFile> ParseDocument(const Json& doc, MemoryPool* pool, const std::string& name) {
  if (!doc.is_object()) return Status::Invalid("{}: the document must be a JSON object", name);
  IntegrationFile out;
  SchemaParser parser;
  STRATA_ASSIGN_OR_RETURN(const Json* schema_json, Required(doc, "schema", name));
  STRATA_ASSIGN_OR_RETURN(const Json* fields_json, GetArray(*schema_json, "fields", name + " schema"));
  std::vector<FieldNode> nodes;
  std::vector<FieldPtr> fields;
  for (size_t i = 0; i < fields_json->size(); ++i) {
    STRATA_ASSIGN_OR_RETURN(FieldNode node, parser.ParseField((*fields_json)[i], "", {static_cast<int>(i)}, 1));
    fields.push_back(node.field);
    nodes.push_back(std::move(node));
  }
  KeyValueMetadata metadata;
  if (const Json* m = Member(*schema_json, "metadata")) {
    STRATA_ASSIGN_OR_RETURN(metadata, ParseMetadata(*m, name + " schema"));
  }
  out.schema = schema(std::move(fields), std::move(metadata));
  out.dictionary_fields = parser.dictionary_fields();

  std::map<int64_t, const Json*> dictionary_json;
  if (const Json* dicts = Member(doc, "dictionaries"); dicts != nullptr && !dicts->is_null()) {
    if (!dicts->is_array()) return Status::Invalid("{}: \"dictionaries\" must be an array", name);
    for (const Json& d : *dicts) {
      STRATA_ASSIGN_OR_RETURN(const Json* id_json, Required(d, "id", name + " dictionaries"));
      STRATA_ASSIGN_OR_RETURN(int64_t id, GetInteger<int64_t>(*id_json, name + " dictionary id"));
      if (const Json* delta = Member(d, "isDelta"); delta != nullptr && delta->is_boolean() && delta->get<bool>()) {
        return Status::NotImplemented("{}: dictionary {} is a delta (isDelta), not supported here", name, id);
      }
      if (!dictionary_json.emplace(id, &d).second) {
        return Status::Invalid("{}: dictionary id {} appears twice in \"dictionaries\"", name, id);
      }
    }
  }
  ColumnConverter converter(pool, parser.value_nodes(), dictionary_json);
  for (const auto& [id, d] : dictionary_json) {
    if (parser.value_nodes().count(id) == 0) {
      return Status::Invalid("{}: dictionary id {} is used by no field of the schema", name, id);
    }
    STRATA_ASSIGN_OR_RETURN(ArrayDataPtr values, converter.Dictionary(id, name));
    STRATA_RETURN_NOT_OK(ValidateFull(*values, {.check_utf8 = true})
                             .WithContext(fmt::format("{}: dictionary {}", name, id)));
  }
  out.dictionaries = converter.built();

  STRATA_ASSIGN_OR_RETURN(const Json* batches, GetArray(doc, "batches", name));
  for (size_t b = 0; b < batches->size(); ++b) {
    const Json& batch = (*batches)[b];
    const std::string bctx = fmt::format("{}: batch {}", name, b);
    STRATA_ASSIGN_OR_RETURN(const Json* count_json, Required(batch, "count", bctx));
    STRATA_ASSIGN_OR_RETURN(int64_t count, GetInteger<int64_t>(*count_json, bctx + " count"));
    STRATA_ASSIGN_OR_RETURN(const Json* columns,
                            GetSizedArray(batch, "columns", static_cast<int64_t>(nodes.size()), bctx));
    std::vector<Array> arrays;
    for (size_t c = 0; c < nodes.size(); ++c) {
      auto column = converter.Convert((*columns)[c], nodes[c], 1);
      if (!column.ok()) return column.status().WithContext(bctx);
      STRATA_RETURN_NOT_OK(ValidateFull(**column, {.check_utf8 = true})
                               .WithContext(fmt::format("{} column '{}'", bctx, nodes[c].path)));
      arrays.emplace_back(std::move(column).MoveValueUnsafe());
    }
    auto record_batch = RecordBatch::Make(out.schema, count, std::move(arrays));
    if (!record_batch.ok()) return record_batch.status().WithContext(bctx);
    out.batches.push_back(std::move(record_batch).MoveValueUnsafe());
  }
  return out;
}

}  // namespace

Result<IntegrationFile> ParseIntegrationJson(std::string_view json_text, MemoryPool* pool, std::string_view name) {
  const std::string label(name);
  try {
    Json doc = Json::parse(json_text.begin(), json_text.end(), nullptr, /*allow_exceptions=*/false);
    if (doc.is_discarded()) return Status::Invalid("{}: not valid JSON", label);
    return ParseDocument(doc, pool, label);
  } catch (const std::exception& e) {  // the helpers check types first; this is a backstop
    return Status::Invalid("{}: {}", label, e.what());
  }
}

Result<IntegrationFile> ReadIntegrationJson(const std::string& path_or_gz, MemoryPool* pool) {
  STRATA_ASSIGN_OR_RETURN(auto input, codec::OpenInputStream(path_or_gz, pool));
  std::string text;
  std::vector<uint8_t> chunk(1 << 16);
  while (true) {
    STRATA_ASSIGN_OR_RETURN(int64_t n, input->Read(chunk));
    if (n == 0) break;
    text.append(reinterpret_cast<const char*>(chunk.data()), static_cast<size_t>(n));
  }
  return ParseIntegrationJson(text, pool, path_or_gz);
}

}  // namespace strata::ipc
