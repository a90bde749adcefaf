// `strata meta FILE [--json]`: print a Parquet file's footer metadata: file-level facts, then each
// row group and column chunk (types, encodings, codec, sizes, statistics, page offsets, page index
// and Bloom filter presence). Text for people; one JSON object with --json.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "strata/cli/command.h"
#include "strata/io/random_access_source.h"
#include "strata/parquet/thrift/footer.h"

namespace strata::cli {
namespace {

using namespace strata::parquet;  // NOLINT: this file is all about its types

// ---- small JSON writer ------------------------------------------------------------------------

class JsonWriter {
 public:
  std::string& out() { return out_; }
  void BeginObject() { Open('{'); }
  void EndObject() { Close('}'); }
  void BeginArray() { Open('['); }
  void EndArray() { Close(']'); }
  void Key(std::string_view key) {
    Separate();
    AppendString(key);
    out_ += ':';
    after_key_ = true;
  }
  void String(std::string_view value) { Separate(), AppendString(value); }
  void Int(int64_t value) { Separate(), fmt::format_to(std::back_inserter(out_), "{}", value); }
  void Uint(uint64_t value) { Separate(), fmt::format_to(std::back_inserter(out_), "{}", value); }
  void Bool(bool value) { Separate(), out_ += value ? "true" : "false"; }
  void Null() { Separate(), out_ += "null"; }
  void Double(double value) {
    // JSON has no NaN or infinities: write those as strings.
    if (std::isfinite(value)) Separate(), fmt::format_to(std::back_inserter(out_), "{}", value);
    else String(std::isnan(value) ? "NaN" : (value > 0 ? "Infinity" : "-Infinity"));
  }
  template <typename T>
  void Field(std::string_view key, const T& value) {
    Key(key);
    Value(value);
  }
  template <typename T>
  void OptionalField(std::string_view key, const std::optional<T>& value) {
    Key(key);
    if (value) Value(*value);
    else Null();
  }

 private:
  void Value(std::string_view v) { String(v); }
  void Value(const std::string& v) { String(v); }
  void Value(const char* v) { String(v); }
  void Value(bool v) { Bool(v); }
  void Value(double v) { Double(v); }
  template <typename T>
    requires std::is_integral_v<T>
  void Value(T v) { Int(static_cast<int64_t>(v)); }

  void Open(char c) {
    Separate();
    out_ += c;
    first_.push_back(true);
  }
  void Close(char c) {
    out_ += c;
    first_.pop_back();
  }
  void Separate() {
    if (after_key_) {
      after_key_ = false;
      return;
    }
    if (!first_.empty()) {
      if (!first_.back()) out_ += ',';
      first_.back() = false;
    }
  }
  void AppendString(std::string_view s) {
    out_ += '"';
    for (unsigned char c : s) {
      switch (c) {
        case '"': out_ += "\\\""; break;
        case '\\': out_ += "\\\\"; break;
        case '\n': out_ += "\\n"; break;
        case '\r': out_ += "\\r"; break;
        case '\t': out_ += "\\t"; break;
        default:
          if (c < 0x20 || c == 0x7f) fmt::format_to(std::back_inserter(out_), "\\u{:04x}", c);
          else out_ += static_cast<char>(c);  // UTF-8 passes through; invalid bytes are the file's
      }
    }
    out_ += '"';
  }

  std::string out_;
  std::vector<bool> first_;
  bool after_key_ = false;
};

// ---- describing values --------------------------------------------------------------------------

std::string Hex(std::string_view bytes, size_t limit = SIZE_MAX) {
  std::string s = "0x";
  const size_t n = std::min(bytes.size(), limit);
  for (size_t i = 0; i < n; ++i) fmt::format_to(std::back_inserter(s), "{:02x}", static_cast<uint8_t>(bytes[i]));
  if (n < bytes.size()) fmt::format_to(std::back_inserter(s), "... ({} bytes)", bytes.size());
  return s;
}

// Printable text as is, else with escapes; long text is cut for people, never for JSON.
std::string Printable(std::string_view text, size_t limit = SIZE_MAX) {
  std::string s;
  const size_t n = std::min(text.size(), limit);
  for (size_t i = 0; i < n; ++i) {
    const unsigned char c = text[i];
    if (c == '\\') s += "\\\\";
    else if (c < 0x20 || c == 0x7f) fmt::format_to(std::back_inserter(s), "\\x{:02x}", c);
    else s += static_cast<char>(c);
  }
  if (n < text.size()) fmt::format_to(std::back_inserter(s), "... ({} bytes)", text.size());
  return s;
}

bool IsTextColumn(const SchemaElement* leaf) {
  if (leaf == nullptr) return false;
  if (leaf->logical_type) {
    const auto kind = leaf->logical_type->kind;
    return kind == LogicalType::Kind::kString || kind == LogicalType::Kind::kEnum || kind == LogicalType::Kind::kJson;
  }
  if (leaf->converted_type) {
    const auto ct = *leaf->converted_type;
    return ct == ConvertedType::kUtf8 || ct == ConvertedType::kEnum || ct == ConvertedType::kJson;
  }
  return false;
}

bool IsUnsigned(const SchemaElement* leaf) {
  if (leaf == nullptr) return false;
  if (leaf->logical_type && leaf->logical_type->kind == LogicalType::Kind::kInteger) return !leaf->logical_type->is_signed;
  if (leaf->converted_type) {
    const auto ct = static_cast<int32_t>(*leaf->converted_type);
    return ct >= static_cast<int32_t>(ConvertedType::kUint8) && ct <= static_cast<int32_t>(ConvertedType::kUint64);
  }
  return false;
}

template <typename T>
T Load(std::string_view bytes) {
  T value;
  std::memcpy(&value, bytes.data(), sizeof(T));  // PLAIN is little-endian, as is this host
  return value;
}

// A statistics value decoded for its physical type: a number, a bool, text, or hex.
struct StatValue {
  enum class Kind { kInt, kUint, kDouble, kBool, kText, kHex } kind = Kind::kHex;
  int64_t i = 0;
  uint64_t u = 0;
  double d = 0;
  std::string text;  // kText or kHex

  static StatValue Int(int64_t v) { StatValue s; s.kind = Kind::kInt; s.i = v; return s; }
  static StatValue Uint(uint64_t v) { StatValue s; s.kind = Kind::kUint; s.u = v; return s; }
  static StatValue Double(double v) { StatValue s; s.kind = Kind::kDouble; s.d = v; return s; }
  static StatValue Float(float v) { StatValue s = Double(v); s.is_float = true; return s; }
  bool is_float = false;  // print with float precision: 9.9, not 9.899999618530273
  static StatValue Bool(bool v) { StatValue s; s.kind = Kind::kBool; s.i = v; return s; }
};

StatValue DecodeStat(std::string_view bytes, PhysicalType type, const SchemaElement* leaf) {
  StatValue v;
  switch (type) {
    case PhysicalType::kBoolean:
      if (bytes.size() == 1) return StatValue::Bool(bytes[0] != 0);
      break;
    case PhysicalType::kInt32:
      if (bytes.size() == 4) {
        if (IsUnsigned(leaf)) return StatValue::Uint(Load<uint32_t>(bytes));
        return StatValue::Int(Load<int32_t>(bytes));
      }
      break;
    case PhysicalType::kInt64:
      if (bytes.size() == 8) {
        if (IsUnsigned(leaf)) return StatValue::Uint(Load<uint64_t>(bytes));
        return StatValue::Int(Load<int64_t>(bytes));
      }
      break;
    case PhysicalType::kFloat:
      if (bytes.size() == 4) return StatValue::Float(Load<float>(bytes));
      break;
    case PhysicalType::kDouble:
      if (bytes.size() == 8) return StatValue::Double(Load<double>(bytes));
      break;
    case PhysicalType::kByteArray:
      if (IsTextColumn(leaf)) {
        v.kind = StatValue::Kind::kText;
        v.text = std::string(bytes);
        return v;
      }
      break;
    default:
      break;
  }
  v.text = Hex(bytes);
  return v;
}

std::string StatToText(const StatValue& v) {
  switch (v.kind) {
    case StatValue::Kind::kInt: return fmt::format("{}", v.i);
    case StatValue::Kind::kUint: return fmt::format("{}", v.u);
    case StatValue::Kind::kDouble:
      return v.is_float ? fmt::format("{}", static_cast<float>(v.d)) : fmt::format("{}", v.d);
    case StatValue::Kind::kBool: return v.i ? "true" : "false";
    case StatValue::Kind::kText: return "\"" + Printable(v.text, 64) + "\"";
    case StatValue::Kind::kHex: return v.text.size() > 66 ? v.text.substr(0, 66) + "..." : v.text;
  }
  return "";
}

void StatToJson(JsonWriter& json, const StatValue& v) {
  switch (v.kind) {
    case StatValue::Kind::kInt: json.Int(v.i); break;
    case StatValue::Kind::kUint: json.Uint(v.u); break;
    case StatValue::Kind::kDouble: json.Double(v.d); break;
    case StatValue::Kind::kBool: json.Bool(v.i != 0); break;
    case StatValue::Kind::kText:
    case StatValue::Kind::kHex: json.String(v.text); break;
  }
}

std::string EnumName(std::string_view name, int32_t value) {
  return name == "UNKNOWN" ? fmt::format("UNKNOWN({})", value) : std::string(name);
}
std::string PhysicalName(PhysicalType t) { return EnumName(PhysicalTypeName(t), static_cast<int32_t>(t)); }
std::string CodecName(CompressionCodec c) { return EnumName(CompressionCodecName(c), static_cast<int32_t>(c)); }
std::string EncodingText(Encoding e) { return EnumName(EncodingName(e), static_cast<int32_t>(e)); }
std::string ConvertedName(ConvertedType c) { return EnumName(ConvertedTypeName(c), static_cast<int32_t>(c)); }

std::string JoinPath(const std::vector<std::string>& path) {
  std::string s;
  for (const auto& part : path) s += (s.empty() ? "" : ".") + part;
  return s;
}

// Leaf schema elements in column order. The schema is a depth-first list where groups carry
// num_children and leaves carry a physical type; when the leaves do not line up with the column
// chunks (a malformed schema), no per-column schema facts are shown.
std::vector<const SchemaElement*> Leaves(const FileMetaData& md) {
  std::vector<const SchemaElement*> leaves;
  for (size_t i = 1; i < md.schema.size(); ++i) {
    const SchemaElement& e = md.schema[i];
    if (e.num_children.value_or(0) == 0 && e.type.has_value()) leaves.push_back(&e);
  }
  return leaves;
}

const SchemaElement* LeafFor(const std::vector<const SchemaElement*>& leaves, const FileMetaData& md, size_t column) {
  const size_t columns = md.row_groups.empty() ? 0 : md.row_groups[0].columns.size();
  return leaves.size() == columns && column < leaves.size() ? leaves[column] : nullptr;
}

struct Stats {
  std::optional<StatValue> min, max;
  bool legacy = false;  // from the deprecated min/max (signed order)
};

Stats StatsOf(const Statistics& s, PhysicalType type, const SchemaElement* leaf) {
  Stats out;
  const std::optional<std::string>* min = &s.min_value;
  const std::optional<std::string>* max = &s.max_value;
  if (!min->has_value() && !max->has_value()) {
    min = &s.min;
    max = &s.max;
    out.legacy = min->has_value() || max->has_value();
  }
  if (*min) out.min = DecodeStat(**min, type, leaf);
  if (*max) out.max = DecodeStat(**max, type, leaf);
  return out;
}

// ---- text ---------------------------------------------------------------------------------------

template <typename... Args>
void Line(std::string& out, fmt::format_string<Args...> format, Args&&... args) {
  fmt::format_to(std::back_inserter(out), format, std::forward<Args>(args)...);
}

void PrintKeyValues(std::string& out, const std::vector<KeyValue>& kvs, const char* indent) {
  for (const KeyValue& kv : kvs) {
    fmt::format_to(std::back_inserter(out), "{}{} = {}\n", indent, Printable(kv.key, 80),
                   kv.value ? Printable(*kv.value, 120) : "(null)");
  }
}

void PrintColumnText(std::string& out, const ColumnChunk& chunk, size_t index, const SchemaElement* leaf) {
  if (!chunk.meta_data) {
    fmt::format_to(std::back_inserter(out), "  column {}: no metadata{}\n", index,
                   chunk.encrypted_column_metadata
                       ? fmt::format(" (encrypted column metadata, {} bytes)", chunk.encrypted_column_metadata->size())
                       : "");
    return;
  }
  const ColumnMetaData& md = *chunk.meta_data;
  Line(out, "  column {}: {}\n", index, Printable(JoinPath(md.path_in_schema)));
  std::string types = PhysicalName(md.type);
  if (leaf && md.type == PhysicalType::kFixedLenByteArray && leaf->type_length) types += fmt::format("({})", *leaf->type_length);
  if (leaf && leaf->logical_type) types += ", logical " + LogicalTypeToString(*leaf->logical_type);
  if (leaf && leaf->converted_type) types += ", converted " + ConvertedName(*leaf->converted_type);
  if (leaf && leaf->repetition_type) types += ", " + std::string(FieldRepetitionTypeName(*leaf->repetition_type));
  Line(out, "    type: {}\n", types);
  std::string encodings;
  for (Encoding e : md.encodings) encodings += (encodings.empty() ? "" : ", ") + EncodingText(e);
  Line(out, "    encodings: {}   codec: {}\n", encodings, CodecName(md.codec));
  Line(out, "    values: {}   compressed: {} bytes   uncompressed: {} bytes\n", md.num_values, md.total_compressed_size,
       md.total_uncompressed_size);
  auto opt = [](const std::optional<int64_t>& v) { return v ? fmt::format("{}", *v) : std::string("-"); };
  Line(out, "    pages: data at {}, dictionary at {}, index at {}\n", md.data_page_offset, opt(md.dictionary_page_offset),
       opt(md.index_page_offset));
  if (md.statistics) {
    const Statistics& s = *md.statistics;
    const Stats stats = StatsOf(s, md.type, leaf);
    Line(out, "    statistics:{}{}{}{}{}{}\n", stats.min ? " min " + StatToText(*stats.min) : "",
         stats.max ? " max " + StatToText(*stats.max) : "", stats.legacy ? " (legacy min/max)" : "",
         s.null_count ? fmt::format(" nulls {}", *s.null_count) : "",
         s.distinct_count ? fmt::format(" distinct {}", *s.distinct_count) : "",
         s.nan_count ? fmt::format(" NaNs {}", *s.nan_count) : "");
  } else {
    Line(out, "    statistics: none\n");
  }
  if (chunk.column_index_offset || chunk.offset_index_offset) {
    auto where = [](const std::optional<int64_t>& off, const std::optional<int32_t>& len) {
      if (!off) return std::string("none");
      return len ? fmt::format("at {} ({} bytes)", *off, *len) : fmt::format("at {}", *off);
    };
    Line(out, "    page index: column index {}, offset index {}\n", where(chunk.column_index_offset, chunk.column_index_length),
         where(chunk.offset_index_offset, chunk.offset_index_length));
  } else {
    Line(out, "    page index: none\n");
  }
  if (md.bloom_filter_offset) {
    Line(out, "    bloom filter: at {}{}\n", *md.bloom_filter_offset,
         md.bloom_filter_length ? fmt::format(" ({} bytes)", *md.bloom_filter_length) : "");
  } else {
    Line(out, "    bloom filter: none\n");
  }
  if (chunk.crypto_metadata) Line(out, "    encrypted column\n");
  if (md.key_value_metadata) {
    Line(out, "    key-value metadata:\n");
    PrintKeyValues(out, *md.key_value_metadata, "      ");
  }
}

std::string RenderText(const std::string& path, const FileFooter& footer) {
  const FileMetaData& md = footer.metadata;
  std::string out;
  const auto leaves = Leaves(md);
  Line(out, "file: {}\n", path);
  Line(out, "size: {} bytes; footer: {} bytes at offset {}\n", footer.file_size, footer.metadata_length,
       footer.metadata_offset);
  Line(out, "version: {}\n", md.version);
  Line(out, "created_by: {}\n", md.created_by ? Printable(*md.created_by) : "-");
  Line(out, "rows: {}\n", md.num_rows);
  Line(out, "row groups: {}\n", md.row_groups.size());
  Line(out, "columns: {}\n", leaves.size());
  if (md.encryption_algorithm) {
    Line(out, "encryption: {} (plaintext footer)\n", EncryptionAlgorithmName(*md.encryption_algorithm));
  }
  if (md.key_value_metadata && !md.key_value_metadata->empty()) {
    Line(out, "key-value metadata:\n");
    PrintKeyValues(out, *md.key_value_metadata, "  ");
  }
  for (size_t r = 0; r < md.row_groups.size(); ++r) {
    const RowGroup& rg = md.row_groups[r];
    Line(out, "row group {}: {} rows, {} bytes uncompressed{}{}\n", r, rg.num_rows, rg.total_byte_size,
         rg.total_compressed_size ? fmt::format(", {} bytes compressed", *rg.total_compressed_size) : "",
         rg.file_offset ? fmt::format(", at offset {}", *rg.file_offset) : "");
    if (rg.sorting_columns) {
      for (const SortingColumn& sc : *rg.sorting_columns) {
        Line(out, "  sorted by column {} {}, nulls {}\n", sc.column_idx, sc.descending ? "descending" : "ascending",
             sc.nulls_first ? "first" : "last");
      }
    }
    for (size_t c = 0; c < rg.columns.size(); ++c) PrintColumnText(out, rg.columns[c], c, LeafFor(leaves, md, c));
  }
  return out;
}

// ---- JSON ---------------------------------------------------------------------------------------

void KeyValuesJson(JsonWriter& json, const std::vector<KeyValue>& kvs) {
  json.BeginObject();
  for (const KeyValue& kv : kvs) json.OptionalField(kv.key, kv.value);
  json.EndObject();
}

void ColumnJson(JsonWriter& json, const ColumnChunk& chunk, const SchemaElement* leaf) {
  json.BeginObject();
  if (!chunk.meta_data) {
    json.Field("encrypted_column_metadata_bytes",
               chunk.encrypted_column_metadata ? static_cast<int64_t>(chunk.encrypted_column_metadata->size()) : 0);
    json.EndObject();
    return;
  }
  const ColumnMetaData& md = *chunk.meta_data;
  json.Field("path", JoinPath(md.path_in_schema));
  json.Field("physical_type", PhysicalName(md.type));
  if (leaf && leaf->type_length) json.Field("type_length", *leaf->type_length);
  json.Key("logical_type");
  if (leaf && leaf->logical_type) json.String(LogicalTypeToString(*leaf->logical_type));
  else json.Null();
  json.Key("converted_type");
  if (leaf && leaf->converted_type) json.String(ConvertedName(*leaf->converted_type));
  else json.Null();
  json.Key("encodings");
  json.BeginArray();
  for (Encoding e : md.encodings) json.String(EncodingText(e));
  json.EndArray();
  json.Field("codec", CodecName(md.codec));
  json.Field("num_values", md.num_values);
  json.Field("total_compressed_size", md.total_compressed_size);
  json.Field("total_uncompressed_size", md.total_uncompressed_size);
  json.Field("data_page_offset", md.data_page_offset);
  json.OptionalField("dictionary_page_offset", md.dictionary_page_offset);
  json.OptionalField("index_page_offset", md.index_page_offset);
  json.Key("statistics");
  if (md.statistics) {
    const Statistics& s = *md.statistics;
    const Stats stats = StatsOf(s, md.type, leaf);
    json.BeginObject();
    json.Key("min");
    if (stats.min) StatToJson(json, *stats.min);
    else json.Null();
    json.Key("max");
    if (stats.max) StatToJson(json, *stats.max);
    else json.Null();
    json.Field("legacy_min_max", stats.legacy);
    json.OptionalField("null_count", s.null_count);
    json.OptionalField("distinct_count", s.distinct_count);
    json.OptionalField("nan_count", s.nan_count);
    json.OptionalField("is_min_value_exact", s.is_min_value_exact);
    json.OptionalField("is_max_value_exact", s.is_max_value_exact);
    json.EndObject();
  } else {
    json.Null();
  }
  json.Field("has_column_index", chunk.column_index_offset.has_value());
  json.OptionalField("column_index_offset", chunk.column_index_offset);
  json.OptionalField("column_index_length", chunk.column_index_length);
  json.Field("has_offset_index", chunk.offset_index_offset.has_value());
  json.OptionalField("offset_index_offset", chunk.offset_index_offset);
  json.OptionalField("offset_index_length", chunk.offset_index_length);
  json.Field("has_bloom_filter", md.bloom_filter_offset.has_value());
  json.OptionalField("bloom_filter_offset", md.bloom_filter_offset);
  json.OptionalField("bloom_filter_length", md.bloom_filter_length);
  json.Field("encrypted", chunk.crypto_metadata.has_value());
  if (md.key_value_metadata) {
    json.Key("key_value_metadata");
    KeyValuesJson(json, *md.key_value_metadata);
  }
  json.EndObject();
}

std::string RenderJson(const std::string& path, const FileFooter& footer) {
  const FileMetaData& md = footer.metadata;
  const auto leaves = Leaves(md);
  JsonWriter json;
  json.BeginObject();
  json.Field("file", path);
  json.Field("file_size", footer.file_size);
  json.Field("footer_offset", footer.metadata_offset);
  json.Field("footer_length", footer.metadata_length);
  json.Field("version", md.version);
  json.OptionalField("created_by", md.created_by);
  json.Field("num_rows", md.num_rows);
  json.Field("num_row_groups", static_cast<int64_t>(md.row_groups.size()));
  json.Field("num_columns", static_cast<int64_t>(leaves.size()));
  json.Key("encryption_algorithm");
  if (md.encryption_algorithm) json.String(EncryptionAlgorithmName(*md.encryption_algorithm));
  else json.Null();
  json.Key("key_value_metadata");
  if (md.key_value_metadata) KeyValuesJson(json, *md.key_value_metadata);
  else json.Null();
  json.Key("row_groups");
  json.BeginArray();
  for (const RowGroup& rg : md.row_groups) {
    json.BeginObject();
    json.Field("num_rows", rg.num_rows);
    json.Field("total_byte_size", rg.total_byte_size);
    json.OptionalField("total_compressed_size", rg.total_compressed_size);
    json.OptionalField("file_offset", rg.file_offset);
    json.OptionalField("ordinal", rg.ordinal);
    if (rg.sorting_columns) {
      json.Key("sorting_columns");
      json.BeginArray();
      for (const SortingColumn& sc : *rg.sorting_columns) {
        json.BeginObject();
        json.Field("column_idx", sc.column_idx);
        json.Field("descending", sc.descending);
        json.Field("nulls_first", sc.nulls_first);
        json.EndObject();
      }
      json.EndArray();
    }
    json.Key("columns");
    json.BeginArray();
    for (size_t c = 0; c < rg.columns.size(); ++c) ColumnJson(json, rg.columns[c], LeafFor(leaves, md, c));
    json.EndArray();
    json.EndObject();
  }
  json.EndArray();
  json.EndObject();
  json.out() += '\n';
  return std::move(json.out());
}

Status RunMeta(const std::string& path, bool as_json) {
  STRATA_ASSIGN_OR_RETURN(auto source, OpenLocalFile(path));
  STRATA_ASSIGN_OR_RETURN(FileFooter footer, ReadFooter(*source, SystemMemoryPool()));
  const std::string text = as_json ? RenderJson(path, footer) : RenderText(path, footer);
  if (std::fwrite(text.data(), 1, text.size(), stdout) != text.size()) {
    return Status::IOError("writing the metadata of '{}' to stdout failed", path);
  }
  return Status::OK();
}

}  // namespace

void RegisterMetaCommand(CLI::App& app, CommandAction& action) {
  auto* sub = app.add_subcommand("meta", "Print a Parquet file's metadata");
  auto file = std::make_shared<std::string>();
  auto json = std::make_shared<bool>(false);
  sub->add_option("file", *file, "Parquet file")->required();
  sub->add_flag("--json", *json, "Print one JSON object instead of text");
  sub->callback([&action, file, json] { action = [file, json] { return RunMeta(*file, *json); }; });
}

}  // namespace strata::cli
