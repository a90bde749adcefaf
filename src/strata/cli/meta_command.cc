// `strata meta FILE [--json] [--pages] [--strict] [--bloom-probe COLUMN=VALUE]...`: print a Parquet
// file's footer metadata: file-level facts, then each row group and column chunk (types, encodings,
// codec, sizes, statistics, page offsets), with each chunk's page index and Bloom filter as read
// from the file. Text for people; one JSON object with --json. With --bloom-probe, the answers of
// the chunks' Bloom filters instead (bloom_probe.h).
#include <chrono>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "strata/cli/bloom_probe.h"
#include "strata/cli/command.h"
#include "strata/cli/encryption_cli_options.h"
#include "strata/cli/geospatial_stats_format.h"
#include "strata/cli/meta_command.h"
#include "strata/cli/meta_format.h"
#include "strata/cli/page_index_format.h"
#include "strata/io/random_access_source.h"
#include "strata/parquet/read/chunk_decryption.h"
#include "strata/parquet/thrift/footer.h"
#include "strata/io/location.h"

namespace strata::cli {
namespace {

using namespace strata::parquet;  // NOLINT: this file is all about its types

std::string EnumName(std::string_view name, int32_t value) {
  return name == "UNKNOWN" ? fmt::format("UNKNOWN({})", value) : std::string(name);
}
std::string CodecName(CompressionCodec c) { return EnumName(CompressionCodecName(c), static_cast<int32_t>(c)); }
std::string EncodingText(Encoding e) { return EnumName(EncodingName(e), static_cast<int32_t>(e)); }
std::string ConvertedName(ConvertedType c) { return EnumName(ConvertedTypeName(c), static_cast<int32_t>(c)); }

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

void PrintColumnText(std::string& out, const ColumnChunk& chunk, size_t index, const SchemaElement* leaf,
                     const ChunkExtras& extras, bool pages) {
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
  AppendGeospatialStatsText(out, md);
  AppendPageIndexText(out, chunk, extras, leaf, pages);
  AppendBloomFilterText(out, chunk, extras);
  if (chunk.crypto_metadata) Line(out, "    encrypted column\n");
  if (md.key_value_metadata) {
    Line(out, "    key-value metadata:\n");
    PrintKeyValues(out, *md.key_value_metadata, "      ");
  }
}

// extras[r][c]: what was read beyond the footer for column c of row group r.
using FileExtras = std::vector<std::vector<ChunkExtras>>;

std::string RenderText(const std::string& path, const FileFooter& footer, const FileExtras& extras, bool pages) {
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
    for (size_t c = 0; c < rg.columns.size(); ++c) {
      PrintColumnText(out, rg.columns[c], c, LeafFor(leaves, md, c), extras[r][c], pages);
    }
  }
  return out;
}

// ---- JSON ---------------------------------------------------------------------------------------

void KeyValuesJson(JsonWriter& json, const std::vector<KeyValue>& kvs) {
  json.BeginObject();
  for (const KeyValue& kv : kvs) json.OptionalField(kv.key, kv.value);
  json.EndObject();
}

void ColumnJson(JsonWriter& json, const ColumnChunk& chunk, const SchemaElement* leaf, const ChunkExtras& extras,
                bool pages) {
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
  GeospatialStatsJson(json, md);
  json.Field("has_column_index", chunk.column_index_offset.has_value());
  json.OptionalField("column_index_offset", chunk.column_index_offset);
  json.OptionalField("column_index_length", chunk.column_index_length);
  json.Field("has_offset_index", chunk.offset_index_offset.has_value());
  json.OptionalField("offset_index_offset", chunk.offset_index_offset);
  json.OptionalField("offset_index_length", chunk.offset_index_length);
  json.Field("has_bloom_filter", md.bloom_filter_offset.has_value());
  json.OptionalField("bloom_filter_offset", md.bloom_filter_offset);
  json.OptionalField("bloom_filter_length", md.bloom_filter_length);
  PageIndexJson(json, extras, md.type, leaf, pages);
  BloomFilterJson(json, chunk, extras);
  json.Field("encrypted", chunk.crypto_metadata.has_value());
  if (md.key_value_metadata) {
    json.Key("key_value_metadata");
    KeyValuesJson(json, *md.key_value_metadata);
  }
  json.EndObject();
}

std::string RenderJson(const std::string& path, const FileFooter& footer, const FileExtras& extras, bool pages,
                       const std::vector<Status>& warnings) {
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
  for (size_t r = 0; r < md.row_groups.size(); ++r) {
    const RowGroup& rg = md.row_groups[r];
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
    for (size_t c = 0; c < rg.columns.size(); ++c) {
      ColumnJson(json, rg.columns[c], LeafFor(leaves, md, c), extras[r][c], pages);
    }
    json.EndArray();
    json.EndObject();
  }
  json.EndArray();
  json.Key("warnings");
  json.BeginArray();
  for (const Status& warning : warnings) json.String(warning.ToString());
  json.EndArray();
  json.EndObject();
  json.out() += '\n';
  return std::move(json.out());
}

Status RunMeta(const std::string& path, const MetaOptions& options) {
  STRATA_ASSIGN_OR_RETURN(auto source, OpenInputLocation(path));
  STRATA_ASSIGN_OR_RETURN(MetaReport report, BuildMetaReport(*source, path, options, SystemMemoryPool()));
  if (std::fwrite(report.out.data(), 1, report.out.size(), stdout) != report.out.size() || std::fflush(stdout) != 0) {
    return Status::IOError("writing the metadata of '{}' to stdout failed", path);
  }
  return ReportProblems(report, options.strict, stderr);
}

}  // namespace

Result<MetaReport> BuildMetaReport(RandomAccessSource& source, const std::string& path, const MetaOptions& options,
                                   MemoryPool* pool) {
  FooterReadOptions footer_options;
  footer_options.decryption = options.decryption;
  const auto start = std::chrono::steady_clock::now();
  const int64_t pool_before = pool->bytes_in_use();
  STRATA_ASSIGN_OR_RETURN(FileFooter footer, ReadFooter(source, pool, footer_options));
  MetaReport report;
  if (options.summary) {
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    // Top-level columns, as the peers count them.
    const int64_t columns = footer.metadata.schema.empty() ? 0 : footer.metadata.schema[0].num_children.value_or(0);
    report.out = fmt::format(
        "{{\"rows\":{},\"columns\":{},\"row_groups\":{},\"footer_bytes\":{},\"seconds\":{:.6f},"
        "\"footer_pool_bytes\":{},\"pool_peak_bytes\":{}}}\n",
        footer.metadata.num_rows, columns, footer.metadata.row_groups.size(), footer.metadata_length, seconds,
        pool->bytes_in_use() - pool_before, pool->peak_bytes());
    return report;
  }
  if (!options.bloom_probes.empty()) {
    RunBloomProbes(source, footer, options.bloom_probes, options.json, pool, &report.out, &report.errors);
    return report;
  }
  FileExtras extras(footer.metadata.row_groups.size());
  for (size_t r = 0; r < extras.size(); ++r) {
    const auto& columns = footer.metadata.row_groups[r].columns;
    extras[r].resize(columns.size());
    for (size_t c = 0; c < columns.size(); ++c) {
      if (!columns[c].meta_data) continue;
      // An encrypted chunk's index and filter are encrypted too: nothing to read without keys
      // (a chunk whose key is not known stays unread, as without any keys).
      auto decryption = FindChunkDecryption(footer, source.name(), static_cast<int>(r), static_cast<int>(c),
                                            JoinPath(columns[c].meta_data->path_in_schema));
      if (!decryption.ok()) continue;
      extras[r][c] = ReadChunkExtras(source, columns[c], r, c, pool, decryption->get());
      for (const Status* st : {&extras[r][c].column_index_error, &extras[r][c].offset_index_error,
                               &extras[r][c].bloom_filter_error}) {
        if (!st->ok()) report.warnings.push_back(*st);
      }
    }
  }
  report.out = options.json ? RenderJson(path, footer, extras, options.pages, report.warnings)
                            : RenderText(path, footer, extras, options.pages);
  return report;
}

Status ReportProblems(const MetaReport& report, bool strict, std::FILE* err) {
  std::vector<Status> problems = report.errors;
  for (const Status& warning : report.warnings) {
    if (strict) problems.push_back(warning);
    else std::fprintf(err, "strata: warning: %s\n", warning.ToString().c_str());
  }
  if (problems.empty()) return Status::OK();
  for (size_t i = 0; i + 1 < problems.size(); ++i) std::fprintf(err, "strata: %s\n", problems[i].ToString().c_str());
  return problems.back();
}

void RegisterMetaCommand(CLI::App& app, CommandAction& action) {
  auto* sub = app.add_subcommand("meta", "Print a Parquet file's metadata");
  auto file = std::make_shared<std::string>();
  auto options = std::make_shared<MetaOptions>();
  sub->add_option("file", *file, "Parquet file")->required();
  sub->add_flag("--json", options->json, "Print one JSON object instead of text");
  sub->add_flag("--pages", options->pages, "Print each page of the page index (offset, size, first row, nulls, min, max)");
  sub->add_flag("--summary", options->summary,
                "Print one JSON line: rows, columns, row groups, footer bytes, and the time and pool bytes "
                "decoding the footer took");
  sub->add_flag("--strict", options->strict, "Fail (exit code 1) when a page index or Bloom filter does not read");
  sub->add_option("--bloom-probe", options->bloom_probes,
                  "COLUMN=VALUE: whether each row group's Bloom filter of COLUMN may hold VALUE (repeatable; "
                  "prints only the answers)")
      ->allow_extra_args(false);
  auto encryption = std::make_shared<EncryptionCliOptions>();
  AddEncryptionOptions(sub, encryption.get());
  sub->callback([&action, file, options, encryption] {
    action = [file, options, encryption]() -> Status {
      STRATA_ASSIGN_OR_RETURN(options->decryption, MakeDecryptionOptions(*encryption));
      return RunMeta(*file, *options);
    };
  });
}

}  // namespace strata::cli
