// Arrow IPC write -> read round trips (stream and file formats, uncompressed, LZ4 frame, ZSTD)
// of every type strata has, slices, dictionaries with deltas and replacements, metadata,
// zero-copy reads of mapped files, and hostile bytes (every truncation, bit flips).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <type_traits>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "strata/array/record_batch.h"
#include "strata/arrow_c/arrow_c_test_util.h"
#include "strata/io/input_stream.h"
#include "strata/io/output_sink.h"
#include "strata/ipc/ipc_reader.h"
#include "strata/ipc/ipc_writer.h"

namespace strata::ipc {
namespace {

using arrow_c::testing::AllTypes;
using arrow_c::testing::RandomArrays;

struct Written {
  std::shared_ptr<Buffer> bytes;
  IpcWriteStats stats;
};

Written Write(IpcFormat format, const SchemaPtr& schema, const std::vector<std::shared_ptr<RecordBatch>>& batches,
              const IpcWriteOptions& options, MemoryPool* pool) {
  auto sink = std::make_unique<BufferSink>(pool);
  BufferSink* raw = sink.get();
  auto writer = IpcWriter::Open(std::move(sink), format, schema, options, pool);
  EXPECT_TRUE(writer.ok()) << writer.status().ToString();
  if (!writer.ok()) return {};
  for (const auto& batch : batches) {
    Status st = (*writer)->Write(*batch);
    EXPECT_TRUE(st.ok()) << st.ToString();
  }
  Status st = (*writer)->Close();
  EXPECT_TRUE(st.ok()) << st.ToString();
  Written out{nullptr, (*writer)->stats()};
  auto bytes = raw->Finish();
  EXPECT_TRUE(bytes.ok());
  if (bytes.ok()) out.bytes = *bytes;
  return out;
}

// Every batch of an IPC stream or file, or the first error.
Result<std::vector<std::shared_ptr<RecordBatch>>> ReadAll(IpcFormat format, const std::shared_ptr<Buffer>& bytes,
                                                          MemoryPool* pool, SchemaPtr* schema = nullptr) {
  std::vector<std::shared_ptr<RecordBatch>> batches;
  IpcReadOptions options;
  if (format == IpcFormat::kStream) {
    STRATA_ASSIGN_OR_RETURN(auto reader, IpcStreamReader::Open(MakeMemoryInputStream(bytes->span()), options, pool));
    if (schema != nullptr) *schema = reader->schema();
    while (true) {
      STRATA_ASSIGN_OR_RETURN(auto batch, reader->Next());
      if (batch == nullptr) break;
      batches.push_back(std::move(batch));
    }
  } else {
    STRATA_ASSIGN_OR_RETURN(auto reader, IpcFileReader::Open(MakeBufferSource(bytes), options, pool));
    if (schema != nullptr) *schema = reader->schema();
    for (int i = 0; i < reader->num_record_batches(); ++i) {
      STRATA_ASSIGN_OR_RETURN(auto batch, reader->ReadRecordBatch(i));
      batches.push_back(std::move(batch));
    }
  }
  return batches;
}

std::shared_ptr<RecordBatch> OneColumn(const TypePtr& type, ArrayDataPtr data, bool nullable = true) {
  auto s = schema({field("c", type, nullable)});
  const int64_t rows = data->length;
  return std::make_shared<RecordBatch>(s, rows, std::vector<Array>{Array(std::move(data))});
}

const IpcFormat kFormats[] = {IpcFormat::kStream, IpcFormat::kFile};
const IpcCompression kCompressions[] = {IpcCompression::kNone, IpcCompression::kLz4Frame, IpcCompression::kZstd};

void ExpectRoundTrip(const std::vector<std::shared_ptr<RecordBatch>>& batches, MemoryPool* pool,
                     const std::vector<std::shared_ptr<RecordBatch>>* expected = nullptr) {
  const auto& want = expected != nullptr ? *expected : batches;
  for (IpcFormat format : kFormats) {
    for (IpcCompression compression : kCompressions) {
      SCOPED_TRACE(std::string(format == IpcFormat::kFile ? "file " : "stream ") +
                   std::string(IpcCompressionName(compression)));
      IpcWriteOptions options;
      options.compression = compression;
      Written written = Write(format, batches.front()->schema(), batches, options, pool);
      ASSERT_NE(written.bytes, nullptr);
      EXPECT_EQ(written.stats.bytes_written, written.bytes->size());
      SchemaPtr schema;
      auto back = ReadAll(format, written.bytes, pool, &schema);
      ASSERT_TRUE(back.ok()) << back.status().ToString();
      ASSERT_TRUE(schema->Equals(*batches.front()->schema(), /*check_metadata=*/true)) << schema->ToString();
      ASSERT_EQ(back->size(), want.size());
      for (size_t i = 0; i < want.size(); ++i) {
        EXPECT_TRUE((*back)[i]->Equals(*want[i])) << "batch " << i << ":\n"
                                                  << (*back)[i]->ToString() << "\nvs\n"
                                                  << want[i]->ToString();
      }
    }
  }
}

TEST(IpcRoundTripTest, EveryTypeEveryFormatAndCodec) {
  auto pool = MakeSystemMemoryPool();
  RandomArrays random(pool.get(), 17);
  for (const TypePtr& type : AllTypes()) {
    SCOPED_TRACE(type->ToString());
    auto batch = OneColumn(type, random.Make(type, 70));
    ExpectRoundTrip({batch}, pool.get());
  }
}

// Big-endian bodies (as a big-endian host writes them) read back to the same values: every
// type, both formats, every codec, slices too; the bytes differ from the little-endian ones.
TEST(IpcRoundTripTest, BigEndianBodiesAreSwappedOnLoad) {
  auto pool = MakeSystemMemoryPool();
  RandomArrays random(pool.get(), 38);
  for (const TypePtr& type : AllTypes()) {
    SCOPED_TRACE(type->ToString());
    auto batch = OneColumn(type, random.Make(type, 40));
    for (IpcFormat format : kFormats) {
      for (IpcCompression compression : kCompressions) {
        SCOPED_TRACE(std::string(format == IpcFormat::kFile ? "file " : "stream ") +
                     std::string(IpcCompressionName(compression)));
        IpcWriteOptions options;
        options.compression = compression;
        options.big_endian = true;
        for (const auto& part : {batch, batch->Slice(3, 30)}) {
          Written written = Write(format, part->schema(), {part}, options, pool.get());
          ASSERT_NE(written.bytes, nullptr);
          auto back = ReadAll(format, written.bytes, pool.get());
          ASSERT_TRUE(back.ok()) << back.status().ToString();
          ASSERT_EQ(back->size(), 1u);
          EXPECT_TRUE((*back)[0]->Equals(*part)) << (*back)[0]->ToString() << "\nvs\n" << part->ToString();
        }
      }
    }
  }
  auto ints = OneColumn(int32(), random.Make(int32(), 16, /*nullable=*/false));
  IpcWriteOptions big;
  big.big_endian = true;
  const Written little_bytes = Write(IpcFormat::kStream, ints->schema(), {ints}, IpcWriteOptions{}, pool.get());
  const Written big_bytes = Write(IpcFormat::kStream, ints->schema(), {ints}, big, pool.get());
  ASSERT_TRUE(little_bytes.bytes != nullptr && big_bytes.bytes != nullptr);
  EXPECT_NE(little_bytes.bytes->view(), big_bytes.bytes->view());
}

TEST(IpcRoundTripTest, SlicesAreRebased) {
  auto pool = MakeSystemMemoryPool();
  RandomArrays random(pool.get(), 5);
  for (const TypePtr& type : AllTypes()) {
    SCOPED_TRACE(type->ToString());
    auto batch = OneColumn(type, random.Make(type, 90));
    // Bit offsets that are not multiples of 8, offsets that do not start at 0.
    for (auto [offset, length] : {std::pair<int64_t, int64_t>{3, 50}, {13, 0}, {0, 89}, {64, 26}}) {
      auto slice = batch->Slice(offset, length);
      ExpectRoundTrip({slice}, pool.get());
    }
  }
}

TEST(IpcRoundTripTest, ManyBatchesColumnsAndMetadata) {
  auto pool = MakeSystemMemoryPool();
  RandomArrays random(pool.get(), 99);
  std::vector<FieldPtr> fields;
  // Random dictionaries differ batch to batch, which only streams can carry (see below).
  std::vector<TypePtr> types;
  for (const TypePtr& type : AllTypes()) {
    if (type->ToString().find("dictionary") == std::string::npos) types.push_back(type);
  }
  for (size_t i = 0; i < types.size(); ++i) {
    KeyValueMetadata metadata;
    if (i % 3 == 0) metadata = KeyValueMetadata({{"origin", fmt::format("column {}", i)}});
    fields.push_back(field(fmt::format("f{}", i), types[i], true, metadata));
  }
  auto s = schema(fields, KeyValueMetadata({{"producer", "strata test"}, {"empty", ""}}));
  std::vector<std::shared_ptr<RecordBatch>> batches;
  for (int64_t rows : {100, 0, 1, 257}) {
    std::vector<Array> columns;
    for (const TypePtr& type : types) columns.emplace_back(random.Make(type, rows));
    batches.push_back(std::make_shared<RecordBatch>(s, rows, std::move(columns)));
  }
  ExpectRoundTrip(batches, pool.get());
}

TEST(IpcRoundTripTest, SchemaOnlyStreamsAndFiles) {
  auto pool = MakeSystemMemoryPool();
  auto s = schema({field("a", int32()), field("b", utf8())});
  for (IpcFormat format : kFormats) {
    auto sink = std::make_unique<BufferSink>(pool.get());
    BufferSink* raw = sink.get();
    auto writer = IpcWriter::Open(std::move(sink), format, s, {}, pool.get());
    ASSERT_TRUE(writer.ok());
    ASSERT_TRUE((*writer)->Close().ok());
    SchemaPtr read_schema;
    auto back = ReadAll(format, *raw->Finish(), pool.get(), &read_schema);
    ASSERT_TRUE(back.ok()) << back.status().ToString();
    EXPECT_TRUE(back->empty());
    EXPECT_TRUE(read_schema->Equals(*s));
  }
}

// A dictionary<int32, utf8> column whose values are `values` and indices 0..n-1 cycling.
std::shared_ptr<RecordBatch> DictionaryBatch(const SchemaPtr& s, const std::vector<std::string>& values, int64_t rows,
                                             MemoryPool* pool) {
  std::string data;
  std::vector<int32_t> offsets{0};
  for (const auto& v : values) {
    data += v;
    offsets.push_back(static_cast<int32_t>(data.size()));
  }
  auto offsets_buffer = *AllocateBuffer(pool, static_cast<int64_t>(offsets.size() * 4));
  std::memcpy(offsets_buffer->mutable_data(), offsets.data(), offsets.size() * 4);
  auto data_buffer = *AllocateBuffer(pool, static_cast<int64_t>(data.size()));
  if (!data.empty()) std::memcpy(data_buffer->mutable_data(), data.data(), data.size());
  auto dictionary = ArrayData::Make(utf8(), static_cast<int64_t>(values.size()),
                                    {nullptr, std::move(offsets_buffer), std::move(data_buffer)}, 0);
  auto indices = *AllocateBuffer(pool, rows * 4);
  for (int64_t i = 0; i < rows; ++i) indices->mutable_data_as<int32_t>()[i] = static_cast<int32_t>(i % values.size());
  auto column = ArrayData::Make(s->field(0)->type(), rows, {nullptr, std::move(indices)}, 0);
  column->dictionary = std::move(dictionary);
  return std::make_shared<RecordBatch>(s, rows, std::vector<Array>{Array(std::move(column))});
}

TEST(IpcRoundTripTest, DictionaryDeltasAndReplacements) {
  auto pool = MakeSystemMemoryPool();
  auto s = schema({field("d", dictionary(int32(), utf8()))});
  auto b1 = DictionaryBatch(s, {"red", "green"}, 5, pool.get());
  auto b2 = DictionaryBatch(s, {"red", "green", "blue"}, 7, pool.get());   // extends b1's: a delta
  auto b3 = DictionaryBatch(s, {"red", "green", "blue"}, 4, pool.get());   // same values: nothing new
  auto b4 = DictionaryBatch(s, {"cyan", "magenta"}, 3, pool.get());        // different: a replacement
  for (IpcFormat format : kFormats) {
    IpcWriteOptions options;
    Written written = Write(format, s, {b1, b2, b3}, options, pool.get());
    ASSERT_NE(written.bytes, nullptr);
    EXPECT_EQ(written.stats.dictionary_batches, 2);
    EXPECT_EQ(written.stats.dictionary_deltas, 1);
    auto back = ReadAll(format, written.bytes, pool.get());
    ASSERT_TRUE(back.ok()) << back.status().ToString();
    ASSERT_EQ(back->size(), 3u);
    EXPECT_TRUE((*back)[0]->Equals(*b1));
    EXPECT_TRUE((*back)[1]->Equals(*b2));
    EXPECT_TRUE((*back)[2]->Equals(*b3));
  }
  // Streams replace dictionaries; files cannot, and the writer says so (and leaves nothing).
  Written stream = Write(IpcFormat::kStream, s, {b1, b4, b2}, {}, pool.get());
  EXPECT_EQ(stream.stats.dictionary_batches, 3);
  EXPECT_EQ(stream.stats.dictionary_deltas, 0);
  auto back = ReadAll(IpcFormat::kStream, stream.bytes, pool.get());
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_TRUE((*back)[1]->Equals(*b4));
  EXPECT_TRUE((*back)[2]->Equals(*b2));

  auto sink = std::make_unique<BufferSink>(pool.get());
  auto writer = IpcWriter::Open(std::move(sink), IpcFormat::kFile, s, {}, pool.get());
  ASSERT_TRUE(writer.ok());
  ASSERT_TRUE((*writer)->Write(*b1).ok());
  Status st = (*writer)->Write(*b4);
  EXPECT_EQ(st.code(), StatusCode::kInvalid) << st.ToString();
  EXPECT_NE(st.message().find("changes its dictionary"), std::string::npos) << st.ToString();
}

TEST(IpcRoundTripTest, MappedFilesAreReadWithoutCopies) {
  auto pool = MakeSystemMemoryPool();
  RandomArrays random(pool.get(), 1);
  auto s = schema({field("i", int64()), field("s", utf8()), field("l", list(float64()))});
  std::vector<Array> columns;
  for (const FieldPtr& f : s->fields()) columns.emplace_back(random.Make(f->type(), 20000));
  auto batch = std::make_shared<RecordBatch>(s, 20000, std::move(columns));
  const std::string path = (std::filesystem::temp_directory_path() / "strata_ipc_mapped_test.arrow").string();
  {
    auto sink = OpenFileSink(path, pool.get());
    ASSERT_TRUE(sink.ok());
    auto writer = IpcWriter::Open(std::move(*sink), IpcFormat::kFile, s, {}, pool.get());
    ASSERT_TRUE(writer.ok());
    ASSERT_TRUE((*writer)->Write(*batch).ok());
    ASSERT_TRUE((*writer)->Close().ok());
  }
  IpcReadOptions options;
  options.memory_map = true;
  auto reader = IpcFileReader::Open(path, options, pool.get());
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  const MemoryStats before = pool->stats();
  auto back = (*reader)->ReadRecordBatch(0);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  const MemoryStats after = pool->stats();
  EXPECT_TRUE((*back)->Equals(*batch));
  // Only the message metadata (a few hundred bytes) comes from the pool; the ~700 KB of
  // buffers are the mapping's pages.
  EXPECT_LT(after.total_bytes_allocated - before.total_bytes_allocated, 4096);
  std::filesystem::remove(path);
}

TEST(IpcRoundTripTest, AbandonedWriterLeavesNoFile) {
  auto pool = MakeSystemMemoryPool();
  const std::string path = (std::filesystem::temp_directory_path() / "strata_ipc_abandoned.arrow").string();
  std::filesystem::remove(path);
  {
    auto sink = OpenFileSink(path, pool.get());
    ASSERT_TRUE(sink.ok());
    auto writer = IpcWriter::Open(std::move(*sink), IpcFormat::kFile, schema({field("a", int32())}), {}, pool.get());
    ASSERT_TRUE(writer.ok());
  }
  EXPECT_FALSE(std::filesystem::exists(path));
}

TEST(IpcRoundTripTest, FormatFromPath) {
  EXPECT_EQ(*IpcFormatFromPath("a/b.arrow"), IpcFormat::kFile);
  EXPECT_EQ(*IpcFormatFromPath("b.feather"), IpcFormat::kFile);
  EXPECT_EQ(*IpcFormatFromPath("b.ipc"), IpcFormat::kFile);
  EXPECT_EQ(*IpcFormatFromPath("b.arrows"), IpcFormat::kStream);
  EXPECT_FALSE(IpcFormatFromPath("b.parquet").ok());
  EXPECT_EQ(*ParseIpcCompression("ZSTD"), IpcCompression::kZstd);
  EXPECT_EQ(*ParseIpcCompression("lz4"), IpcCompression::kLz4Frame);
  EXPECT_FALSE(ParseIpcCompression("snappy").ok());
}

// Every prefix of a valid stream and file, and random bit flips, end in OK or an error.
TEST(IpcRoundTripTest, HostileBytesNeverCrash) {
  auto pool = MakeSystemMemoryPool();
  RandomArrays random(pool.get(), 3);
  auto s = schema({field("s", utf8()), field("d", dictionary(int8(), utf8())), field("v", utf8_view()),
                   field("l", list(struct_({field("x", int16()), field("y", boolean())}))),
                   field("u", dense_union({field("a", int32()), field("b", utf8())}, {3, 8})),
                   field("r", run_end_encoded(int16(), utf8())), field("w", list_view(int16())),
                   field("i", day_time_interval()), field("m", decimal32(9, 3))});
  std::vector<Array> columns;
  for (const FieldPtr& f : s->fields()) columns.emplace_back(random.Make(f->type(), 12));
  auto batch = std::make_shared<RecordBatch>(s, 12, std::move(columns));
  std::mt19937 rng(7);
  for (IpcFormat format : kFormats) {
    for (IpcCompression compression : kCompressions) {
      IpcWriteOptions options;
      options.compression = compression;
      Written written = Write(format, s, {batch, batch}, options, pool.get());
      ASSERT_NE(written.bytes, nullptr);
      const std::string bytes(written.bytes->view());
      for (size_t cut = 0; cut < bytes.size(); cut += (format == IpcFormat::kFile ? 1 : 3)) {
        auto copy = std::make_shared<std::string>(bytes.substr(0, cut));
        auto result = ReadAll(format, std::make_shared<Buffer>(*copy), pool.get());
        if (format == IpcFormat::kFile) {
          EXPECT_FALSE(result.ok()) << "cut at " << cut;
        }
      }
      for (int flip = 0; flip < 400; ++flip) {
        std::string copy = bytes;
        const size_t at = rng() % copy.size();
        copy[at] = static_cast<char>(copy[at] ^ (1u << (rng() % 8)));
        auto result = ReadAll(format, std::make_shared<Buffer>(copy), pool.get());
        (void)result;  // OK or an error; ASan/UBSan catch the rest
      }
    }
  }
}

// A writer does not validate what it is given, so hostile arrays of the new layouts can be
// written; the readers must refuse each cleanly, naming the column. With
// STRATA_IPC_SEED_DIR set, the valid and hostile streams and files are also written there
// (how the fuzz seeds of src/strata/fuzz/regressions/ipc_* for these types were made).
TEST(IpcRoundTripTest, HostileUnionRunEndAndViewLayoutsAreRefused) {
  auto pool = MakeSystemMemoryPool();
  auto values = [&](auto... v) {
    using T = std::common_type_t<decltype(v)...>;
    const std::vector<T> list{v...};
    auto buffer = *AllocateBuffer(pool.get(), static_cast<int64_t>(list.size() * sizeof(T)));
    std::memcpy(buffer->mutable_data(), list.data(), list.size() * sizeof(T));
    return std::shared_ptr<Buffer>(std::move(buffer));
  };
  auto int32s = [&](auto... v) {
    return ArrayData::Make(int32(), sizeof...(v), {nullptr, values(static_cast<int32_t>(v)...)}, 0);
  };
  const TypePtr union_type = dense_union({field("a", int32()), field("b", int32())}, {5, 7});
  auto union_of = [&](std::shared_ptr<Buffer> ids, std::shared_ptr<Buffer> offsets) {
    auto d = ArrayData::Make(union_type, 3, {nullptr, std::move(ids), std::move(offsets)}, 0);
    d->children = {int32s(1, 2), int32s(3)};
    return d;
  };
  const TypePtr ree_type = run_end_encoded(int32(), int32());
  auto ree_of = [&](std::shared_ptr<Buffer> ends) {
    auto d = ArrayData::Make(ree_type, 3, {nullptr}, 0);
    d->children = {ArrayData::Make(int32(), 2, {nullptr, std::move(ends)}, 0), int32s(8, 9)};
    return d;
  };
  const TypePtr view_type = list_view(int32());
  auto view_of = [&](std::shared_ptr<Buffer> offsets) {
    auto d = ArrayData::Make(view_type, 3, {nullptr, std::move(offsets), values(int32_t{1}, 2, 0)}, 0);
    d->children = {int32s(1, 2, 3)};
    return d;
  };
  struct Case {
    const char* name;
    ArrayDataPtr data;
    const char* error;  // empty: valid
  };
  const Case cases[] = {
      {"union", union_of(values(int8_t{5}, int8_t{7}, int8_t{5}), values(int32_t{0}, 0, 1)), ""},
      {"union_id_out_of_range", union_of(values(int8_t{5}, int8_t{9}, int8_t{5}), values(int32_t{0}, 0, 1)), "type id 9"},
      {"union_offset_past_member", union_of(values(int8_t{5}, int8_t{7}, int8_t{5}), values(int32_t{0}, 4, 1)), "offset 4"},
      {"ree", ree_of(values(int32_t{1}, 3)), ""},
      {"ree_ends_out_of_order", ree_of(values(int32_t{3}, 1)), "strictly increase"},
      {"list_view", view_of(values(int32_t{2}, 0, 3)), ""},
      {"list_view_past_child", view_of(values(int32_t{2}, 3, 0)), "views child elements [3, 5)"},
  };
  const char* seed_dir = std::getenv("STRATA_IPC_SEED_DIR");
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    auto batch = OneColumn(c.data->type, c.data);
    for (IpcFormat format : kFormats) {
      Written written = Write(format, batch->schema(), {batch}, IpcWriteOptions{}, pool.get());
      ASSERT_NE(written.bytes, nullptr);
      if (seed_dir != nullptr) {
        const std::string path = std::string(seed_dir) + "/" + (format == IpcFormat::kFile ? "file_" : "stream_") +
                                 c.name + (format == IpcFormat::kFile ? ".arrow" : ".arrows");
        std::FILE* out = std::fopen(path.c_str(), "wb");
        ASSERT_NE(out, nullptr) << path;
        std::fwrite(written.bytes->data(), 1, static_cast<size_t>(written.bytes->size()), out);
        std::fclose(out);
      }
      auto back = ReadAll(format, written.bytes, pool.get());
      if (*c.error == '\0') {
        ASSERT_TRUE(back.ok()) << back.status().ToString();
        ASSERT_EQ(back->size(), 1u);
        EXPECT_TRUE((*back)[0]->Equals(*batch)) << (*back)[0]->ToString();
        continue;
      }
      ASSERT_FALSE(back.ok());
      EXPECT_TRUE(back.status().IsCorrupt()) << back.status().ToString();
      EXPECT_NE(back.status().message().find(c.error), std::string::npos) << back.status().ToString();
      EXPECT_NE(back.status().message().find("'c'"), std::string::npos) << back.status().ToString();
    }
  }
}

}  // namespace
}  // namespace strata::ipc
