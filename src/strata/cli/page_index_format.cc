// Reading and printing a column chunk's page index and Bloom filter for `strata meta`.
#include "strata/cli/page_index_format.h"

#include <algorithm>

#include "strata/parquet/stats/bloom_filter.h"
#include "strata/parquet/stats/page_index.h"

namespace strata::cli {

using namespace strata::parquet;  // NOLINT: this file is all about its types

namespace {

// "'FILE': row group R, column C 'PATH': WHAT at offset O": the message of the library's error
// names the offset and file too, but not the row group; say all of it once, up front.
std::string Where(RandomAccessSource& source, size_t row_group, size_t column, const ColumnChunk& chunk,
                  std::string_view what, std::optional<int64_t> offset, std::optional<int32_t> length) {
  const std::string path = chunk.meta_data ? JoinPath(chunk.meta_data->path_in_schema) : std::string("?");
  return fmt::format("'{}': row group {}, column {} '{}': {} at offset {}{}", source.name(), row_group, column,
                     Printable(path), what, offset ? fmt::format("{}", *offset) : std::string("-"),
                     length ? fmt::format(" ({} bytes)", *length) : std::string());
}

std::string BoundaryName(BoundaryOrder order) {
  const std::string_view name = BoundaryOrderName(order);
  return name == "UNKNOWN" ? fmt::format("UNKNOWN({})", static_cast<int32_t>(order)) : std::string(name);
}

int64_t NullPages(const ColumnIndex& ci) { return std::count(ci.null_pages.begin(), ci.null_pages.end(), true); }

std::optional<int64_t> TotalNulls(const ColumnIndex& ci) {
  if (!ci.null_counts) return std::nullopt;
  int64_t total = 0;
  for (int64_t n : *ci.null_counts) total += n;
  return total;
}

size_t PageCount(const ChunkExtras& extras) {
  size_t pages = 0;
  if (extras.column_index) pages = extras.column_index->null_pages.size();
  if (extras.offset_index) pages = std::max(pages, extras.offset_index->page_locations.size());
  return pages;
}

std::string ErrorText(const Status& status) { return "error: " + status.ToString(); }

// One --pages line: what the offset index and the column index know of page `p`.
std::string PageLine(const ChunkExtras& extras, size_t p, PhysicalType type, const SchemaElement* leaf) {
  std::string line = fmt::format("      page {}:", p);
  const OffsetIndex* oi = extras.offset_index ? &*extras.offset_index : nullptr;
  if (oi && p < oi->page_locations.size()) {
    const PageLocation& loc = oi->page_locations[p];
    fmt::format_to(std::back_inserter(line), " offset {}, {} bytes, first row {}", loc.offset, loc.compressed_page_size,
                   loc.first_row_index);
    if (oi->unencoded_byte_array_data_bytes && p < oi->unencoded_byte_array_data_bytes->size()) {
      fmt::format_to(std::back_inserter(line), ", unencoded {} bytes", (*oi->unencoded_byte_array_data_bytes)[p]);
    }
  }
  const ColumnIndex* ci = extras.column_index ? &*extras.column_index : nullptr;
  if (ci && p < ci->null_pages.size()) {
    if (line.back() != ':') line += ',';
    if (ci->null_counts) fmt::format_to(std::back_inserter(line), " nulls {},", (*ci->null_counts)[p]);
    if (ci->nan_counts) fmt::format_to(std::back_inserter(line), " NaNs {},", (*ci->nan_counts)[p]);
    if (ci->null_pages[p]) {
      line += " null page";
    } else {
      fmt::format_to(std::back_inserter(line), " min {}, max {}", StatToText(DecodeStat(ci->min_values[p], type, leaf)),
                     StatToText(DecodeStat(ci->max_values[p], type, leaf)));
    }
  }
  return line + "\n";
}

}  // namespace

ChunkExtras ReadChunkExtras(RandomAccessSource& source, const ColumnChunk& chunk, size_t row_group, size_t column,
                            MemoryPool* pool, const ColumnDecryption* decryption) {
  ChunkExtras extras;
  if (chunk.column_index_offset) {
    auto read = ReadColumnIndex(source, chunk, pool, decryption);
    if (read.ok()) extras.column_index = std::move(*read);
    else extras.column_index_error = read.status().WithContext(
             Where(source, row_group, column, chunk, "column index", chunk.column_index_offset, chunk.column_index_length));
  }
  if (chunk.offset_index_offset) {
    auto read = ReadOffsetIndex(source, chunk, pool, decryption);
    if (read.ok()) extras.offset_index = std::move(*read);
    else extras.offset_index_error = read.status().WithContext(
             Where(source, row_group, column, chunk, "offset index", chunk.offset_index_offset, chunk.offset_index_length));
  }
  if (chunk.meta_data && chunk.meta_data->bloom_filter_offset) {
    const ColumnMetaData& md = *chunk.meta_data;
    auto read = BloomFilter::Read(source, *md.bloom_filter_offset, md.bloom_filter_length, pool, decryption);
    if (read.ok()) extras.bloom_filter_bytes = (*read)->num_bytes();
    else extras.bloom_filter_error = read.status().WithContext(
             Where(source, row_group, column, chunk, "Bloom filter", md.bloom_filter_offset, md.bloom_filter_length));
  }
  return extras;
}

void AppendPageIndexText(std::string& out, const ColumnChunk& chunk, const ChunkExtras& extras,
                         const SchemaElement* leaf, bool pages) {
  auto line = [&out]<typename... Args>(fmt::format_string<Args...> format, Args&&... args) {
    fmt::format_to(std::back_inserter(out), format, std::forward<Args>(args)...);
  };
  if (!chunk.column_index_offset && !chunk.offset_index_offset) {
    line("    page index: none\n");
    return;
  }
  auto where = [](const std::optional<int64_t>& off, const std::optional<int32_t>& len) {
    if (!off) return std::string("none");
    return len ? fmt::format("at {} ({} bytes)", *off, *len) : fmt::format("at {}", *off);
  };
  line("    page index: column index {}, offset index {}\n", where(chunk.column_index_offset, chunk.column_index_length),
       where(chunk.offset_index_offset, chunk.offset_index_length));
  if (!extras.column_index_error.ok()) {
    line("      column index: {}\n", ErrorText(extras.column_index_error));
  } else if (extras.column_index) {
    const ColumnIndex& ci = *extras.column_index;
    const auto nulls = TotalNulls(ci);
    line("      column index: {} pages, boundary order {}, {} null pages{}\n", ci.null_pages.size(),
         BoundaryName(ci.boundary_order), NullPages(ci), nulls ? fmt::format(", {} nulls", *nulls) : std::string());
  }
  if (!extras.offset_index_error.ok()) {
    line("      offset index: {}\n", ErrorText(extras.offset_index_error));
  } else if (extras.offset_index) {
    const auto& locations = extras.offset_index->page_locations;
    if (locations.empty()) line("      offset index: 0 pages\n");
    else line("      offset index: {} pages, first rows {} .. {}\n", locations.size(), locations.front().first_row_index,
              locations.back().first_row_index);
  }
  if (!pages || !chunk.meta_data) return;
  const size_t count = PageCount(extras);
  for (size_t p = 0; p < count; ++p) out += PageLine(extras, p, chunk.meta_data->type, leaf);
}

void AppendBloomFilterText(std::string& out, const ColumnChunk& chunk, const ChunkExtras& extras) {
  const ColumnMetaData& md = *chunk.meta_data;
  if (!md.bloom_filter_offset) {
    out += "    bloom filter: none\n";
    return;
  }
  fmt::format_to(std::back_inserter(out), "    bloom filter: at {}{}", *md.bloom_filter_offset,
                 md.bloom_filter_length ? fmt::format(" ({} bytes)", *md.bloom_filter_length) : std::string());
  if (!extras.bloom_filter_error.ok()) out += ", " + ErrorText(extras.bloom_filter_error) + "\n";
  else if (extras.bloom_filter_bytes) fmt::format_to(std::back_inserter(out), ", bitset {} bytes\n", *extras.bloom_filter_bytes);
  else out += "\n";
}

void PageIndexJson(JsonWriter& json, const ChunkExtras& extras, PhysicalType type, const SchemaElement* leaf,
                   bool pages) {
  json.Key("column_index");
  if (!extras.column_index_error.ok()) {
    json.BeginObject();
    json.Field("error", extras.column_index_error.ToString());
    json.EndObject();
  } else if (extras.column_index) {
    const ColumnIndex& ci = *extras.column_index;
    json.BeginObject();
    json.Field("num_pages", static_cast<int64_t>(ci.null_pages.size()));
    json.Field("boundary_order", BoundaryName(ci.boundary_order));
    json.Field("null_pages", NullPages(ci));
    json.OptionalField("null_count", TotalNulls(ci));
    if (pages) {
      json.Key("pages");
      json.BeginArray();
      for (size_t p = 0; p < ci.null_pages.size(); ++p) {
        json.BeginObject();
        json.Field("null_page", static_cast<bool>(ci.null_pages[p]));
        json.OptionalField("null_count", ci.null_counts ? std::optional<int64_t>((*ci.null_counts)[p]) : std::nullopt);
        if (ci.nan_counts) json.Field("nan_count", (*ci.nan_counts)[p]);
        json.Key("min");
        if (ci.null_pages[p]) json.Null();
        else StatToJson(json, DecodeStat(ci.min_values[p], type, leaf));
        json.Key("max");
        if (ci.null_pages[p]) json.Null();
        else StatToJson(json, DecodeStat(ci.max_values[p], type, leaf));
        json.EndObject();
      }
      json.EndArray();
    }
    json.EndObject();
  } else {
    json.Null();
  }

  json.Key("offset_index");
  if (!extras.offset_index_error.ok()) {
    json.BeginObject();
    json.Field("error", extras.offset_index_error.ToString());
    json.EndObject();
  } else if (extras.offset_index) {
    const OffsetIndex& oi = *extras.offset_index;
    const auto& locations = oi.page_locations;
    json.BeginObject();
    json.Field("num_pages", static_cast<int64_t>(locations.size()));
    json.OptionalField("first_row_index_first",
                       locations.empty() ? std::nullopt : std::optional<int64_t>(locations.front().first_row_index));
    json.OptionalField("first_row_index_last",
                       locations.empty() ? std::nullopt : std::optional<int64_t>(locations.back().first_row_index));
    if (pages) {
      json.Key("pages");
      json.BeginArray();
      for (size_t p = 0; p < locations.size(); ++p) {
        json.BeginObject();
        json.Field("offset", locations[p].offset);
        json.Field("compressed_page_size", locations[p].compressed_page_size);
        json.Field("first_row_index", locations[p].first_row_index);
        if (oi.unencoded_byte_array_data_bytes && p < oi.unencoded_byte_array_data_bytes->size()) {
          json.Field("unencoded_byte_array_data_bytes", (*oi.unencoded_byte_array_data_bytes)[p]);
        }
        json.EndObject();
      }
      json.EndArray();
    }
    json.EndObject();
  } else {
    json.Null();
  }
}

void BloomFilterJson(JsonWriter& json, const ColumnChunk& chunk, const ChunkExtras& extras) {
  json.Key("bloom_filter");
  const ColumnMetaData& md = *chunk.meta_data;
  if (!md.bloom_filter_offset) {
    json.Null();
    return;
  }
  json.BeginObject();
  json.Field("offset", *md.bloom_filter_offset);
  json.OptionalField("length", md.bloom_filter_length);
  if (!extras.bloom_filter_error.ok()) json.Field("error", extras.bloom_filter_error.ToString());
  else json.OptionalField("num_bytes", extras.bloom_filter_bytes);
  json.EndObject();
}

}  // namespace strata::cli
