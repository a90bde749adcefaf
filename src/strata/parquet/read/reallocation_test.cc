// No read grows a buffer by reallocation: every Parquet file of the shared corpora (every
// encoding, nesting and page layout someone else wrote) and files strata writes with every
// string encoding, nesting and page version, with and without a page index, each read through
// every output option, and the nested shapes of other projects' files that grew (no page index,
// an offset index alone, rows continuing onto the next page). Buffers are sized from metadata
// where it gives the size, else from estimates, and a batch (flat, or a nested field with a
// string leaf) that has no room for a range ends before it.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "strata/memory/memory_pool.h"
#include "strata/parquet/read/file_reader.h"
#include "strata/parquet/testing/file_builder.h"
#include "strata/parquet/testing/random_arrays.h"
#include "strata/parquet/write/writer_test_util.h"
#include "strata/testing/test_data.h"

namespace strata::parquet {
namespace {

namespace fs = std::filesystem;

struct OutputOption {
  const char* name;
  BatchReadOptions options;
};

std::vector<OutputOption> OutputOptions() {
  std::vector<OutputOption> all;
  all.push_back({"default", {}});
  BatchReadOptions large;
  large.large_binary = true;
  all.push_back({"large_binary", large});
  BatchReadOptions dictionary;
  dictionary.read_dictionary = true;
  all.push_back({"read_dictionary", dictionary});
  BatchReadOptions views;
  views.string_views = true;
  all.push_back({"string_views", views});
  BatchReadOptions small_batches;
  small_batches.batch_rows = 1000;
  all.push_back({"batch_rows=1000", small_batches});
  // Batches that cross page boundaries (the written files have pages of 1000 rows).
  BatchReadOptions crossing_batches;
  crossing_batches.batch_rows = 1500;
  all.push_back({"batch_rows=1500", crossing_batches});
  return all;
}

std::vector<std::string> ParquetFilesUnder(const std::string& root) {
  return strata::testing::ParquetFilesIn(root, /*recursive=*/true);
}

struct ReadOutcome {
  bool read = false;  // every batch read (files that fail are other tests' business)
  int64_t reallocations = 0;
  int64_t batches = 0;
};

// Reads every batch on a fresh pool; `file` empty: `path` from disk.
ReadOutcome ReadAll(const std::string& path, const BatchReadOptions& options, std::shared_ptr<Buffer> file = nullptr) {
  ReadOutcome outcome;
  auto pool = MakeSystemMemoryPool();
  auto reader = file ? FileReader::Open(MakeBufferSource(file, path), pool.get()) : FileReader::OpenFile(path, pool.get());
  if (!reader.ok()) return outcome;
  auto batches = (*reader)->ReadBatches(options);
  if (!batches.ok()) return outcome;
  while (true) {
    auto batch = (*batches)->Next();
    if (!batch.ok()) return outcome;
    if (*batch == nullptr) break;
    ++outcome.batches;
  }
  outcome.read = true;
  outcome.reallocations = pool->num_reallocations();
  return outcome;
}

// Fails naming every read that grew a buffer (description -> reallocations).
void ExpectNoGrowth(const std::vector<std::pair<std::string, int64_t>>& grown) {
  std::string listed;
  for (const auto& [what, count] : grown) listed += "\n  " + what + ": " + std::to_string(count) + " reallocations";
  EXPECT_TRUE(grown.empty()) << "reads that reallocated:" << listed;
}

void ExpectNoReallocations(const std::vector<std::string>& files) {
  int files_read = 0;
  std::vector<std::pair<std::string, int64_t>> grown;
  for (const std::string& path : files) {
    bool any_read = false;
    for (const OutputOption& option : OutputOptions()) {
      const ReadOutcome outcome = ReadAll(path, option.options);
      any_read = any_read || outcome.read;
      if (outcome.read && outcome.reallocations != 0) {
        grown.emplace_back(path + " [" + option.name + "]", outcome.reallocations);
      }
    }
    files_read += any_read ? 1 : 0;
  }
  ExpectNoGrowth(grown);
  // Not an empty pass: most of the corpus reads.
  EXPECT_GT(files_read, static_cast<int>(files.size()) / 2) << files_read << " of " << files.size() << " files read";
}

TEST(ReallocationTest, ParquetTestingFilesNeverReallocate) {
  STRATA_REQUIRE_PARQUET_TESTING();
  const auto files = ParquetFilesUnder(::strata::testing::ParquetTestingDir());
  ASSERT_GT(files.size(), 40u);
  ExpectNoReallocations(files);
}

// Writer-made files: the shapes other projects' files showed growing (nested strings, maps of
// strings, DELTA_BYTE_ARRAY, UUIDs, dictionary fallback, views), in pages whose values grow
// longer along the chunk, so an estimate taken from the first page falls short.
struct WrittenShape {
  const char* name;
  TypePtr type;
};

std::vector<WrittenShape> WrittenShapes() {
  auto item = [](TypePtr type) { return std::make_shared<Field>("item", std::move(type)); };
  return {
      {"utf8", utf8()},
      {"binary", binary()},
      {"large_utf8", large_utf8()},
      {"uuid_like", fixed_size_binary(16)},
      {"list<utf8>", list(item(utf8()))},
      {"list<list<binary>>", list(item(list(item(binary()))))},
      {"map<utf8,utf8>", map(utf8(), utf8())},
      {"struct<utf8,list<utf8>>",
       struct_({std::make_shared<Field>("s", utf8()), std::make_shared<Field>("l", list(item(utf8())))})},
      {"list<fixed_size_binary>", list(item(fixed_size_binary(16)))},
  };
}

struct WriteVariant {
  const char* name;
  bool dictionary;
  Encoding encoding;
};

const WriteVariant kWriteVariants[] = {
    {"PLAIN", false, Encoding::kPlain},
    // A 4 KiB dictionary limit: a few pages in, the chunk falls back to PLAIN.
    {"dictionary+fallback", true, Encoding::kPlain},
    {"DELTA_LENGTH_BYTE_ARRAY", false, Encoding::kDeltaLengthByteArray},
    {"DELTA_BYTE_ARRAY", false, Encoding::kDeltaByteArray},
};

// The innermost value type (the last field at each level).
const DataType* Leaf(const DataType* type) {
  while (!type->fields().empty()) type = type->fields().back()->type().get();
  return type;
}

// DELTA_LENGTH_BYTE_ARRAY is for BYTE_ARRAY only.
bool EncodingFits(const WriteVariant& variant, const DataType* type) {
  return variant.encoding != Encoding::kDeltaLengthByteArray || Leaf(type)->id() != TypeId::kFixedSizeBinary;
}

// The one read that may still grow (docs/memory.md): a nested batch smaller than its row group
// that crosses pages of a file without level histograms in a page index, where every leaf is
// fixed-width. Nothing gives the levels of the pages ahead there, and such a leaf cannot end
// its batch early (only string and binary leaves with 32-bit offsets give rows back), so its
// buffers are sized from the chunk's average levels per row.
bool MayGrow(const WrittenShape& shape, bool page_index, const OutputOption& read) {
  const bool nested = !shape.type->fields().empty();
  return nested && Leaf(shape.type.get())->id() == TypeId::kFixedSizeBinary && !page_index &&
         read.options.batch_rows == 1500;
}

TEST(ReallocationTest, WrittenStringShapesEncodingsAndPageVersionsNeverReallocate) {
  auto pool = MakeSystemMemoryPool();
  std::vector<std::pair<std::string, int64_t>> grown;
  int files = 0;
  int may_grow_grew = 0;
  for (const WrittenShape& shape : WrittenShapes()) {
    auto schema = std::make_shared<Schema>(std::vector<FieldPtr>{std::make_shared<Field>("v", shape.type)});
    // Short values first, then ten times longer ones, in one row group.
    testing::RandomArrayOptions short_values;
    short_values.max_string_length = 12;
    short_values.distinct_values = 300;
    testing::RandomArrayOptions long_values;
    long_values.max_string_length = 160;
    auto first = testing::RandomBatch(schema, 6000, 11, pool.get(), short_values);
    auto second = testing::RandomBatch(schema, 6000, 12, pool.get(), long_values);
    ASSERT_TRUE(first.ok() && second.ok()) << shape.name;
    for (const WriteVariant& variant : kWriteVariants) {
      if (!EncodingFits(variant, shape.type.get())) continue;
      for (DataPageVersion version : {DataPageVersion::kV1, DataPageVersion::kV2}) {
        for (bool page_index : {true, false}) {
          WriterOptions options;
          options.columns.page_index = page_index;
          options.columns.dictionary = variant.dictionary;
          options.columns.dictionary_page_bytes = 4096;
          options.columns.encoding = variant.encoding;
          options.file.data_page_rows = 1000;
          options.file.page_version = version;
          auto file = testing::WriteToBuffer(schema, {*first, *second}, options, pool.get());
          ASSERT_TRUE(file.ok()) << shape.name << " " << variant.name << ": " << file.status().ToString();
          ++files;
          for (const OutputOption& read : OutputOptions()) {
            const ReadOutcome outcome = ReadAll("written.parquet", read.options, *file);
            const std::string what = std::string(shape.name) + " " + variant.name + " v" +
                                     std::to_string(static_cast<int>(version)) +
                                     (page_index ? "" : " without page index") + " [" + read.name + "]";
            EXPECT_TRUE(outcome.read) << what << " did not read";
            if (outcome.reallocations == 0) continue;
            if (MayGrow(shape, page_index, read)) {
              ++may_grow_grew;
            } else {
              grown.emplace_back(what, outcome.reallocations);
            }
          }
        }
      }
    }
  }
  ExpectNoGrowth(grown);
  // docs/memory.md says that case grows; when it stops, say so there and drop MayGrow.
  EXPECT_GT(may_grow_grew, 0) << "fixed-width nested batches crossing pages without level counts no longer reallocate";
  EXPECT_GT(files, 120);
}

// Reads `file` whole through `options` on a fresh pool: the table and the reallocations.
struct TableOutcome {
  std::shared_ptr<MemoryPool> pool;  // outlives the table, whose buffers it holds
  std::shared_ptr<Table> table;
  int64_t reallocations = 0;
};
TableOutcome ReadTableCounting(const std::shared_ptr<Buffer>& file, const BatchReadOptions& options) {
  TableOutcome outcome;
  outcome.pool = MakeSystemMemoryPool();
  auto reader = FileReader::Open(MakeBufferSource(file, "shape.parquet"), outcome.pool.get());
  if (!reader.ok()) return outcome;
  auto table = (*reader)->ReadTable(options);
  if (table.ok()) outcome.table = *table;
  outcome.reallocations = outcome.pool->num_reallocations();
  return outcome;
}

// The read options above, and `strata scan`'s default batches (8192 rows, smaller than these
// row groups).
std::vector<OutputOption> ShapeReadOptions() {
  std::vector<OutputOption> reads = OutputOptions();
  BatchReadOptions scan_batches;
  scan_batches.batch_rows = 8192;
  reads.push_back({"batch_rows=8192", scan_batches});
  return reads;
}

// Checks every read of `file` against the default read: the same table, no reallocation.
void ExpectSameTableWithoutGrowth(const std::string& what, const std::shared_ptr<Buffer>& file,
                                  std::vector<std::pair<std::string, int64_t>>* grown) {
  const TableOutcome reference = ReadTableCounting(file, {});
  ASSERT_NE(reference.table, nullptr) << what << " did not read";
  for (const OutputOption& read : ShapeReadOptions()) {
    const TableOutcome outcome = read.options.batch_rows == BatchReadOptions{}.batch_rows &&
                                         !read.options.large_binary && !read.options.read_dictionary &&
                                         !read.options.string_views
                                     ? reference
                                     : ReadTableCounting(file, read.options);
    ASSERT_NE(outcome.table, nullptr) << what << " [" << read.name << "] did not read";
    if (!read.options.large_binary && !read.options.read_dictionary && !read.options.string_views) {
      EXPECT_TRUE(outcome.table->Equals(*reference.table)) << what << " [" << read.name << "] reads other values";
    }
    if (outcome.reallocations != 0) grown->emplace_back(what + " [" + read.name + "]", outcome.reallocations);
  }
}

// Shapes of other projects' files that reallocated (issue 41): nested fields read in batches
// smaller than their row group where nothing gives the pages' level and byte counts ahead,
// so buffers are sized from the chunk's averages: maps and lists of strings and a struct of a
// string and an integer, in pages v1 and v2, in files without a page index, with an offset
// index but no column index (no level histograms), and with both; the values grow ten times
// longer halfway through the row group, past any average. A batch whose estimate falls short
// ends at the last row that fits (its other leaves carry their extra rows) instead of growing.
TEST(ReallocationTest, NestedBatchesSizedFromAveragesNeverReallocate) {
  auto pool = MakeSystemMemoryPool();
  auto item = [](TypePtr type) { return std::make_shared<Field>("item", std::move(type)); };
  const std::vector<WrittenShape> shapes = {
      {"map<utf8,utf8>", map(utf8(), utf8())},
      {"list<utf8>", list(item(utf8()))},
      {"struct<utf8,int64>", struct_({std::make_shared<Field>("s", utf8()), std::make_shared<Field>("i", int64())})},
  };
  std::vector<std::pair<std::string, int64_t>> grown;
  for (const WrittenShape& shape : shapes) {
    auto schema = std::make_shared<Schema>(std::vector<FieldPtr>{std::make_shared<Field>("v", shape.type)});
    testing::RandomArrayOptions short_values;
    short_values.max_string_length = 12;
    testing::RandomArrayOptions long_values;
    long_values.max_string_length = 160;
    auto first = testing::RandomBatch(schema, 20000, 11, pool.get(), short_values);
    auto second = testing::RandomBatch(schema, 20000, 12, pool.get(), long_values);
    ASSERT_TRUE(first.ok() && second.ok()) << shape.name;
    for (DataPageVersion version : {DataPageVersion::kV1, DataPageVersion::kV2}) {
      for (const char* index : {"no page index", "offset index only", "page index"}) {
        WriterOptions options;
        options.columns.page_index = std::string(index) != "no page index";
        options.file.data_page_rows = 1000;
        options.file.page_version = version;
        auto file = testing::WriteToBuffer(schema, {*first, *second}, options, pool.get());
        ASSERT_TRUE(file.ok()) << file.status().ToString();
        std::shared_ptr<Buffer> bytes = *file;
        if (std::string(index) == "offset index only") {
          auto edited = testing::EditFooter(*bytes, [](FileMetaData* metadata) {
            for (RowGroup& row_group : metadata->row_groups) {
              for (ColumnChunk& chunk : row_group.columns) {
                chunk.column_index_offset.reset();
                chunk.column_index_length.reset();
              }
            }
            return Status::OK();
          });
          ASSERT_TRUE(edited.ok()) << edited.status().ToString();
          bytes = *edited;
        }
        ExpectSameTableWithoutGrowth(std::string(shape.name) + " v" + std::to_string(static_cast<int>(version)) + ", " +
                                         index,
                                     bytes, &grown);
      }
    }
  }
  ExpectNoGrowth(grown);
}

// Lists whose rows continue onto the next page: v1 pages cut by value count, as older writers
// cut them, without a page index or SizeStatistics (the builder writes neither), values ten
// times longer in the second half. Even a batch of the whole row group has no byte count
// ahead here.
TEST(ReallocationTest, ListRowsContinuingOntoTheNextPageNeverReallocate) {
  std::vector<std::optional<std::vector<std::optional<std::string>>>> lists;
  for (int64_t i = 0; i < 30000; ++i) {
    if (i % 11 == 3) {
      lists.push_back(std::nullopt);
      continue;
    }
    std::vector<std::optional<std::string>> row;
    for (int64_t k = 0; k < i % 7; ++k) {
      if ((i + k) % 13 == 0) {
        row.push_back(std::nullopt);
      } else {
        row.push_back(std::string(static_cast<size_t>(i < 15000 ? 5 + k : 50 + k), static_cast<char>('a' + k)));
      }
    }
    lists.push_back(std::move(row));
  }
  const testing::ColumnValues values = testing::ColumnValues::ListOf<std::string>(PhysicalType::kByteArray, lists);
  std::vector<std::pair<std::string, int64_t>> grown;
  for (const int64_t entries_per_page : {int64_t{997}, int64_t{64}}) {
    testing::ColumnOptions column;
    column.name = "l";
    column.physical_type = PhysicalType::kByteArray;
    column.logical_type = testing::StringLogicalType();
    column.list = true;
    column.rows_per_page = entries_per_page;  // entries: pages end inside rows
    auto file = testing::BuildFile({column}, {values}, values.num_rows());
    ASSERT_TRUE(file.ok()) << file.status().ToString();
    ExpectSameTableWithoutGrowth("list<utf8>, " + std::to_string(entries_per_page) + " entries per page", *file,
                                 &grown);
  }
  ExpectNoGrowth(grown);
}

}  // namespace
}  // namespace strata::parquet
