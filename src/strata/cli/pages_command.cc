// `strata pages FILE`: reads, checksums and decompresses every page of every selected column
// chunk, and decodes nothing. Its time is the floor a full `strata scan` can approach (the
// "read + decompress limit" of the benchmark table): bench-compare sets the two side by side.
// Pages are read the way scan reads them (PageReader over the same source and options), except
// that large pages are always decompressed whole, never streamed through a window.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "strata/cli/command.h"
#include "strata/cli/encryption_cli_options.h"
#include "strata/memory/memory_pool.h"
#include "strata/parquet/read/file_reader.h"
#include "strata/parquet/read/page_decryption.h"
#include "strata/parquet/read/page_reader.h"

namespace strata::cli {
namespace {

struct PagesArgs {
  std::string file;
  bool json = false;
  bool no_checksums = false;
  std::vector<std::string> columns;  // top-level fields; each reads all its leaf columns
  EncryptionCliOptions encryption;
};

// Page totals of one leaf column over every row group, or of the whole file.
struct PageTotals {
  int64_t chunks = 0;
  int64_t data_pages = 0;
  int64_t dictionary_pages = 0;
  int64_t values = 0;  // data pages' num_values: levels, so rows plus repeated entries
  int64_t compressed_bytes = 0;    // page bodies as stored, headers excluded
  int64_t decompressed_bytes = 0;  // page bodies after decompression (v2: levels included)

  void Add(const PageTotals& other) {
    chunks += other.chunks;
    data_pages += other.data_pages;
    dictionary_pages += other.dictionary_pages;
    values += other.values;
    compressed_bytes += other.compressed_bytes;
    decompressed_bytes += other.decompressed_bytes;
  }
};

// Walks one chunk's pages; the page spans are only measured, never decoded.
Status ReadChunk(RandomAccessSource* source, parquet::ColumnChunkLocation location, MemoryPool* pool,
                 const parquet::PageReadOptions& options, PageTotals* totals) {
  // PageReader's messages name the page; the file, column and row group are added here.
  const std::string where =
      fmt::format("'{}', column '{}' (row group {})", source->name(), location.column_path, location.row_group);
  auto pages = parquet::OpenPageReader(source, std::move(location), pool, options);
  if (!pages.ok()) return pages.status().WithContext(where);
  parquet::Page page;
  while (true) {
    auto more = (*pages)->Next(&page);
    if (!more.ok()) return more.status().WithContext(where);
    if (!*more) break;
    // Streaming is never allowed here (AllowStreaming is not called), so every page is whole.
    if (page.type == parquet::PageType::kDictionaryPage) {
      ++totals->dictionary_pages;
    } else {
      ++totals->data_pages;
      totals->values += page.num_values;
    }
    totals->compressed_bytes += page.header->compressed_page_size;
    totals->decompressed_bytes += static_cast<int64_t>(page.repetition_levels.size() + page.definition_levels.size() +
                                                       page.values.size());
  }
  ++totals->chunks;
  return Status::OK();
}

Status RunPages(const PagesArgs& args) {
  MemoryPool* pool = SystemMemoryPool();
  const auto start = std::chrono::steady_clock::now();
  parquet::FileReaderOptions reader_options;
  reader_options.pages.verify_checksums = !args.no_checksums;
  reader_options.pages.stream_large_pages = false;
  STRATA_ASSIGN_OR_RETURN(reader_options.footer.decryption, MakeDecryptionOptions(args.encryption));
  STRATA_ASSIGN_OR_RETURN(auto reader, parquet::FileReader::OpenFile(args.file, pool, reader_options));
  const parquet::SchemaDescriptor& descriptor = reader->descriptor();

  std::vector<int> leaf_columns;
  if (args.columns.empty()) {
    for (int c = 0; c < descriptor.num_columns(); ++c) leaf_columns.push_back(c);
  } else {
    for (const auto& name : args.columns) {
      const int field = descriptor.FieldIndex(name);
      if (field < 0) return Status::Invalid("'{}' has no top-level column '{}'", args.file, name);
      const int first = descriptor.field_first_column(field);
      for (int c = first; c < first + descriptor.field_num_columns(field); ++c) leaf_columns.push_back(c);
    }
  }

  // Row group by row group, columns in file order within each, as scan reads them.
  std::vector<PageTotals> per_column(leaf_columns.size());
  for (int row_group = 0; row_group < reader->num_row_groups(); ++row_group) {
    // scan reads no page of a row group without rows (their chunks may even point nowhere).
    if (reader->metadata().row_groups[static_cast<size_t>(row_group)].num_rows == 0) continue;
    for (size_t i = 0; i < leaf_columns.size(); ++i) {
      STRATA_ASSIGN_OR_RETURN(auto location, reader->ChunkLocation(row_group, leaf_columns[i]));
      STRATA_RETURN_NOT_OK(ReadChunk(&reader->source(), std::move(location), pool, reader_options.pages,
                                     &per_column[i]));
    }
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  PageTotals total;
  for (const auto& column : per_column) total.Add(column);
  const MemoryStats memory = pool->stats();
  if (args.json) {
    // `rows` first: bench-compare recognises summary lines by it.
    std::printf(
        "{\"rows\":%lld,\"columns\":%zu,\"column_chunks\":%lld,\"data_pages\":%lld,\"dictionary_pages\":%lld,"
        "\"values\":%lld,\"compressed_bytes\":%lld,\"decompressed_bytes\":%lld,\"seconds\":%.6f,"
        "\"pool_peak_bytes\":%lld}\n",
        static_cast<long long>(reader->num_rows()), leaf_columns.size(), static_cast<long long>(total.chunks),
        static_cast<long long>(total.data_pages), static_cast<long long>(total.dictionary_pages),
        static_cast<long long>(total.values), static_cast<long long>(total.compressed_bytes),
        static_cast<long long>(total.decompressed_bytes), seconds, static_cast<long long>(memory.peak_bytes));
    return Status::OK();
  }
  size_t name_width = 8;
  for (int c : leaf_columns) name_width = std::max(name_width, descriptor.column(c).dotted_path.size());
  std::string out = fmt::format("{:<{}} {:>8} {:>6} {:>14} {:>16} {:>16}\n", "column", name_width, "data", "dict",
                                "values", "compressed", "decompressed");
  auto row = [&out, name_width](const std::string& name, const PageTotals& t) {
    fmt::format_to(std::back_inserter(out), "{:<{}} {:>8} {:>6} {:>14} {:>16} {:>16}\n", name, name_width,
                   t.data_pages, t.dictionary_pages, t.values, t.compressed_bytes, t.decompressed_bytes);
  };
  for (size_t i = 0; i < leaf_columns.size(); ++i) {
    row(descriptor.column(leaf_columns[i]).dotted_path, per_column[i]);
  }
  row("(total)", total);
  fmt::format_to(std::back_inserter(out),
                 "{} rows, {} column chunks in {} row groups; {:.3f} s, {:.1f} MB/s decompressed, pool peak {} bytes\n",
                 reader->num_rows(), total.chunks, reader->num_row_groups(), seconds,
                 static_cast<double>(total.decompressed_bytes) / 1e6 / seconds, memory.peak_bytes);
  std::fputs(out.c_str(), stdout);
  return Status::OK();
}

}  // namespace

void RegisterPagesCommand(CLI::App& app, CommandAction& action) {
  auto* sub = app.add_subcommand(
      "pages", "Read and decompress every page of a Parquet file without decoding (scan's lower bound)");
  auto args = std::make_shared<PagesArgs>();
  sub->add_option("file", args->file, "Parquet file")->required();
  sub->add_flag("--json", args->json, "One JSON line of totals");
  sub->add_option("--columns", args->columns, "Top-level columns to read (default: all)")->delimiter(',');
  sub->add_flag("--no-checksums", args->no_checksums, "Skip page CRC verification");
  AddEncryptionOptions(sub, &args->encryption);
  sub->callback([&action, args] { action = [args] { return RunPages(*args); }; });
}

}  // namespace strata::cli
