// Footer and schema memory is charged to the reader's pool: a wide footer shows in the pool's
// bytes in use and peak, a pool limit refuses it (and a hostile list count) before the heap
// allocates it, and everything is given back with the reader.
#include <gtest/gtest.h>

#include <chrono>
#include <iostream>

#include <fmt/format.h>

#include "strata/io/random_access_source.h"
#include "strata/parquet/read/file_reader.h"
#include "strata/parquet/testing/file_builder.h"
#include "strata/parquet/thrift/heap_bytes.h"

namespace strata::parquet {
namespace {

constexpr int kColumns = 1000;
constexpr int kRowGroups = 100;

std::string WithFooter(std::string_view serialized) {
  std::string file = "PAR1";
  file.append(serialized);
  const auto length = static_cast<uint32_t>(serialized.size());
  for (int i = 0; i < 4; ++i) file.push_back(static_cast<char>(length >> (8 * i)));
  file.append("PAR1");
  return file;
}

// A file whose footer is what a writer gives `columns` nullable INT64 columns in `row_groups`
// row groups (encodings, path, codec, sizes, min/max/null count per chunk). Only the footer is
// measured, so the chunks' pages are left out: every chunk points at byte 4. One row group is
// encoded and its bytes repeated (encoding 100,000 chunks one by one takes seconds under ASan).
std::string WideFooterFile(int columns, int row_groups) {
  std::vector<SchemaElement> schema(1);
  schema[0].name = "schema";
  schema[0].num_children = columns;
  RowGroup rg;
  rg.num_rows = 10;
  rg.total_byte_size = 100 * columns;
  for (int c = 0; c < columns; ++c) {
    SchemaElement leaf;
    leaf.name = fmt::format("sensor_reading_{:04}", c);  // 19 bytes: a heap string
    leaf.type = PhysicalType::kInt64;
    leaf.repetition_type = FieldRepetitionType::kOptional;
    ColumnMetaData m;
    m.type = PhysicalType::kInt64;
    m.encodings = {Encoding::kPlain, Encoding::kRle};
    m.path_in_schema = {leaf.name};
    m.codec = CompressionCodec::kSnappy;
    m.num_values = 10;
    m.total_uncompressed_size = 100;
    m.total_compressed_size = 100;
    m.data_page_offset = 4;
    Statistics s;
    s.min_value = std::string(8, '\x01');
    s.max_value = std::string(8, '\x7f');
    s.null_count = 0;
    m.statistics = std::move(s);
    ColumnChunk chunk;
    chunk.file_offset = 4;
    chunk.meta_data = std::move(m);
    rg.columns.push_back(std::move(chunk));
    schema.push_back(std::move(leaf));
  }
  std::string row_group_bytes;
  CompactWriter row_group_writer(&row_group_bytes);
  Encode(row_group_writer, rg);

  // FileMetaData, field by field as Encode writes it, with the row group repeated.
  std::string serialized;
  CompactWriter writer(&serialized);
  writer.WriteStructBegin();
  writer.WriteI32Field(1, 2);
  writer.WriteFieldBegin(thrift::WireType::kList, 2);
  writer.WriteListBegin(thrift::WireType::kStruct, static_cast<int32_t>(schema.size()));
  for (const SchemaElement& element : schema) Encode(writer, element);
  writer.WriteI64Field(3, int64_t{10} * row_groups);
  writer.WriteFieldBegin(thrift::WireType::kList, 4);
  writer.WriteListBegin(thrift::WireType::kStruct, row_groups);
  for (int r = 0; r < row_groups; ++r) serialized += row_group_bytes;
  writer.WriteBinaryField(6, "strata footer_memory_test");
  writer.WriteFieldStop();
  writer.WriteStructEnd();
  return WithFooter(serialized);
}

const std::string& WideFile() {
  static const std::string file = WideFooterFile(kColumns, kRowGroups);
  return file;
}

std::shared_ptr<RandomAccessSource> SourceOf(const std::string& bytes, const std::string& name) {
  return MakeBufferSource(testing::StringToBuffer(bytes), name);  // not pool memory: it stands for the disk
}

TEST(FooterMemoryTest, WideFooterIsChargedToThePoolWhileTheReaderLives) {
  auto pool = MakeSystemMemoryPool();
  auto source = SourceOf(WideFile(), "wide_footer.parquet");
  const auto start = std::chrono::steady_clock::now();
  auto reader = FileReader::Open(std::move(source), pool.get());
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  ASSERT_EQ((*reader)->num_row_groups(), kRowGroups);
  ASSERT_EQ((*reader)->descriptor().num_columns(), kColumns);

  const int64_t metadata_bytes = HeapBytes((*reader)->metadata());
  const int64_t schema_bytes = (*reader)->descriptor().heap_bytes();
  std::cout << "footer of " << kColumns << " columns x " << kRowGroups << " row groups: "
            << (*reader)->footer().metadata_length << " bytes serialized, " << metadata_bytes
            << " heap bytes decoded, schema descriptor " << schema_bytes << " heap bytes; opened in " << seconds
            << " s, pool peak " << pool->peak_bytes() << "\n";
  EXPECT_GT(metadata_bytes, 20 << 20);  // 100,000 column chunks of several hundred bytes each
  EXPECT_GT(schema_bytes, 100 << 10);
  EXPECT_EQ((*reader)->footer().metadata_charge.bytes(), metadata_bytes);  // trued up exactly

  // Nothing but the charges is left on the pool: the footer's read buffer is released.
  const MemoryStats open = pool->stats();
  EXPECT_EQ(open.charged_bytes_in_use, metadata_bytes + schema_bytes);
  EXPECT_EQ(open.bytes_in_use, metadata_bytes + schema_bytes);
  EXPECT_GE(open.peak_bytes, open.bytes_in_use);
  EXPECT_GE(open.total_bytes_allocated, open.bytes_in_use);

  reader->reset();
  const MemoryStats closed = pool->stats();
  EXPECT_EQ(closed.bytes_in_use, 0);
  EXPECT_EQ(closed.charged_bytes_in_use, 0);
}

// A narrower footer (200 columns x 50 row groups, ~10 MB decoded) keeps this quick under ASan.
TEST(FooterMemoryTest, PoolLimitBelowTheFooterRefusesTheOpenAndAboveItSucceeds) {
  const std::string file = WideFooterFile(200, 50);
  int64_t needed = 0;
  int64_t metadata_bytes = 0;
  {
    auto pool = MakeSystemMemoryPool();
    auto reader = FileReader::Open(SourceOf(file, "wide_footer.parquet"), pool.get());
    ASSERT_TRUE(reader.ok()) << reader.status().ToString();
    needed = pool->peak_bytes();
    metadata_bytes = HeapBytes((*reader)->metadata());
    EXPECT_GT(metadata_bytes, 5 << 20);
  }

  for (const int64_t limit : {metadata_bytes / 2, metadata_bytes - 1}) {
    auto pool = MakeSystemMemoryPool();
    pool->set_limit(limit);
    auto refused = FileReader::Open(SourceOf(file, "wide_footer.parquet"), pool.get());
    ASSERT_FALSE(refused.ok()) << limit;
    const Status& st = refused.status();
    EXPECT_TRUE(st.IsOutOfMemory()) << st.ToString();
    EXPECT_NE(st.message().find("wide_footer.parquet"), std::string::npos) << st.ToString();
    EXPECT_NE(st.message().find("exceeds the memory limit"), std::string::npos) << st.ToString();
    EXPECT_LE(pool->peak_bytes(), limit);
    EXPECT_EQ(pool->bytes_in_use(), 0);  // every partial charge given back
  }

  auto pool = MakeSystemMemoryPool();
  pool->set_limit(needed);  // the unlimited open's own peak: enough, exactly
  auto reader = FileReader::Open(SourceOf(file, "wide_footer.parquet"), pool.get());
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  EXPECT_EQ(pool->peak_bytes(), needed);
}

TEST(FooterMemoryTest, SelectiveDecodeChargesOnlyTheChunksKept) {
  auto pool = MakeSystemMemoryPool();
  FileReaderOptions options;
  options.footer.decode.column_indices = std::vector<int>{3, 500};
  auto reader = FileReader::Open(SourceOf(WideFile(), "wide_footer.parquet"), pool.get(), options);
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  const int64_t metadata_bytes = HeapBytes((*reader)->metadata());
  EXPECT_EQ((*reader)->footer().metadata_charge.bytes(), metadata_bytes);
  EXPECT_EQ(pool->charged_bytes(), metadata_bytes + (*reader)->descriptor().heap_bytes());
  EXPECT_LT(metadata_bytes, 2 << 20);  // the schema and 2 of 1,000 chunks per row group
}

// FileMetaData { 1: version = 2, 4: row_groups = list<struct> of `count` } followed by
// `padding` bytes: a list header a few bytes long that declares `count` RowGroups.
std::string HostileRowGroupList(uint64_t count, size_t padding) {
  std::string footer = {'\x15', '\x04', '\x39', '\xfc'};
  for (uint64_t v = count; ; v >>= 7) {  // the count as a ULEB128 varint
    if (v < 0x80) {
      footer.push_back(static_cast<char>(v));
      break;
    }
    footer.push_back(static_cast<char>((v & 0x7f) | 0x80));
  }
  footer.append(padding, '\0');
  return WithFooter(footer);
}

TEST(FooterMemoryTest, HostileListCountIsRefusedBeforeItIsAllocated) {
  // 2^31 - 1 RowGroups declared by a 30-byte footer: refused by the byte count left, before
  // anything is charged or allocated.
  {
    auto pool = MakeSystemMemoryPool();
    auto tiny = FileReader::Open(SourceOf(HostileRowGroupList((uint64_t{1} << 31) - 1, 16), "tiny.parquet"),
                                 pool.get());
    ASSERT_TRUE(tiny.status().IsCorrupt()) << tiny.status().ToString();
    EXPECT_NE(tiny.status().message().find("tiny.parquet"), std::string::npos);
    EXPECT_LT(pool->peak_bytes(), 1024);
  }
  // 1,000,000 RowGroups declared with the bytes to match (one each): the decoder would reserve
  // them as they decode, ~sizeof(RowGroup) bytes each. A 16 MiB limit refuses the list's charge
  // up front; the pool never holds more than the footer's own bytes.
  constexpr uint64_t kCount = 1'000'000;
  const std::string file = HostileRowGroupList(kCount, kCount);
  auto pool = MakeSystemMemoryPool();
  pool->set_limit(16 << 20);
  auto refused = FileReader::Open(SourceOf(file, "hostile.parquet"), pool.get());
  ASSERT_TRUE(refused.status().IsOutOfMemory()) << refused.status().ToString();
  const std::string& message = refused.status().message();
  EXPECT_NE(message.find("hostile.parquet"), std::string::npos) << message;
  EXPECT_NE(message.find(fmt::format("allocation of {} bytes", kCount * sizeof(RowGroup))), std::string::npos)
      << message;
  EXPECT_NE(message.find("FileMetaData.row_groups"), std::string::npos) << message;
  EXPECT_LE(pool->peak_bytes(), static_cast<int64_t>(file.size()) + MemoryPool::kAlignment);
  EXPECT_EQ(pool->bytes_in_use(), 0);
}

}  // namespace
}  // namespace strata::parquet
