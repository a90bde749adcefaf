// The IPC readers and writer against Arrow's golden integration files (arrow-testing,
// data/arrow-ipc-stream/integration/): every `<name>.stream` (IpcStreamReader) and
// `<name>.arrow_file` (IpcFileReader, read and memory-mapped) must hold exactly what
// `<name>.json.gz` describes: field names, types, nullability and key-value metadata at every
// level, the schema's metadata, the batch count, row counts and every value. Files with types
// strata lacks are listed by name and must be refused with NotImplemented. Then every
// readable golden file is written again by IpcWriter (stream and file format; uncompressed,
// LZ4 and ZSTD), read back and compared again. The list of golden files is explicit, and a
// file in those folders that the list lacks fails the test, so a new corpus file is looked at.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "strata/array/array.h"
#include "strata/array/compare.h"
#include "strata/io/input_stream.h"
#include "strata/io/output_sink.h"
#include "strata/io/random_access_source.h"
#include "strata/ipc/integration_json.h"
#include "strata/ipc/ipc_reader.h"
#include "strata/ipc/ipc_writer.h"
#include "strata/memory/memory_pool.h"
#include "strata/testing/test_data.h"

namespace strata::ipc {
namespace {

namespace fs = std::filesystem;

struct Golden {
  const char* dir;   // under data/arrow-ipc-stream/integration/
  const char* name;  // <name>.json.gz, <name>.stream, <name>.arrow_file
  // Empty: strata reads it. Otherwise the type strata lacks, which the NotImplemented
  // message must name.
  const char* not_implemented = "";
};

const Golden kGoldens[] = {
    {"1.0.0-littleendian", "generated_custom_metadata"},
    {"1.0.0-littleendian", "generated_datetime"},
    {"1.0.0-littleendian", "generated_decimal"},
    {"1.0.0-littleendian", "generated_decimal256"},
    {"1.0.0-littleendian", "generated_dictionary"},
    {"1.0.0-littleendian", "generated_dictionary_unsigned"},
    {"1.0.0-littleendian", "generated_duplicate_fieldnames"},
    {"1.0.0-littleendian", "generated_extension"},
    {"1.0.0-littleendian", "generated_interval"},
    {"1.0.0-littleendian", "generated_map"},
    {"1.0.0-littleendian", "generated_map_non_canonical"},
    {"1.0.0-littleendian", "generated_nested"},
    {"1.0.0-littleendian", "generated_nested_dictionary"},
    {"1.0.0-littleendian", "generated_nested_large_offsets"},
    {"1.0.0-littleendian", "generated_null"},
    {"1.0.0-littleendian", "generated_null_trivial"},
    {"1.0.0-littleendian", "generated_primitive"},
    {"1.0.0-littleendian", "generated_primitive_large_offsets"},
    {"1.0.0-littleendian", "generated_primitive_no_batches"},
    {"1.0.0-littleendian", "generated_primitive_zerolength"},
    {"1.0.0-littleendian", "generated_recursive_nested"},
    {"1.0.0-littleendian", "generated_union"},
    {"2.0.0-compression", "generated_lz4"},
    {"2.0.0-compression", "generated_uncompressible_lz4"},
    {"2.0.0-compression", "generated_uncompressible_zstd"},
    {"2.0.0-compression", "generated_zstd"},
    {"4.0.0-shareddict", "generated_shared_dict"},
};

void PrintTo(const Golden& g, std::ostream* os) { *os << g.dir << "/" << g.name; }

std::string GoldenPath(const Golden& g, const char* extension) {
  return testing::ArrowTestingFile(std::string("data/arrow-ipc-stream/integration/") + g.dir + "/" + g.name +
                                   extension);
}

// ---------------------------------------------------------------------------------------------
// Comparison with messages that say where the difference is.

std::string Truncate(std::string s, size_t n = 600) {
  if (s.size() > n) s = s.substr(0, n) + "...";
  return s;
}

// How strictly schemas are compared.
struct SchemaCompare {
  // Key-value pairs in the same order. Off, the same pairs in any order (Arrow's own equality):
  // the golden files list the extension keys in another order than their JSON.
  bool metadata_order = true;
  // The names of map entries, keys and values. The golden generated_map_non_canonical.stream
  // itself holds the canonical "entries" / "key" / "value" (its .arrow_file and JSON hold
  // "some_entries" / "some_key" / "some_value"), so that one stream is compared without them.
  bool map_field_names = true;
};

bool MetadataEquals(const KeyValueMetadata& a, const KeyValueMetadata& b, bool ordered) {
  if (ordered) return a.Equals(b);
  auto pa = a.pairs();
  auto pb = b.pairs();
  std::sort(pa.begin(), pa.end());
  std::sort(pb.begin(), pb.end());
  return pa == pb;
}

// Field by field, recursively through child fields (and dictionary value types): name, type,
// nullability and metadata; "" when equal.
std::string FieldDiff(const Field& expected, const Field& actual, const std::string& path, const SchemaCompare& how,
                      bool in_map = false);

std::string TypeChildrenDiff(const DataType& expected, const DataType& actual, const std::string& path,
                             const SchemaCompare& how, bool in_map) {
  const DataType* e = &expected;
  const DataType* a = &actual;
  if (e->id() == TypeId::kDictionary && a->id() == TypeId::kDictionary) {
    e = e->value_type().get();
    a = a->value_type().get();
  }
  if (e->num_fields() != a->num_fields()) {
    return path + ": " + std::to_string(e->num_fields()) + " child fields expected, got " +
           std::to_string(a->num_fields());
  }
  for (int i = 0; i < e->num_fields(); ++i) {
    // Map entries, and the key and value inside them.
    const bool map_child = e->id() == TypeId::kMap || (in_map && e->id() == TypeId::kStruct);
    std::string d = FieldDiff(*e->field(i), *a->field(i), path + "." + e->field(i)->name(), how, map_child);
    if (!d.empty()) return d;
  }
  return "";
}

std::string FieldDiff(const Field& expected, const Field& actual, const std::string& path, const SchemaCompare& how,
                      bool in_map) {
  if ((how.map_field_names || !in_map) && expected.name() != actual.name()) return path + ": name \"" + actual.name() + "\", expected \"" + expected.name() + "\"";
  // The entries struct of a map compares its member names; without map names, its children
  // are compared one by one below instead.
  const bool loose_struct = in_map && !how.map_field_names && expected.type()->id() == TypeId::kStruct &&
                            actual.type()->id() == TypeId::kStruct;
  if (!loose_struct && !expected.type()->Equals(*actual.type())) {
    return path + ": type " + actual.type()->ToString() + ", expected " + expected.type()->ToString();
  }
  if (expected.nullable() != actual.nullable()) {
    return path + ": nullable " + std::to_string(actual.nullable()) + ", expected " + std::to_string(expected.nullable());
  }
  if (!MetadataEquals(expected.metadata(), actual.metadata(), how.metadata_order)) {
    return path + ": metadata " + actual.metadata().ToString() + ", expected " + expected.metadata().ToString();
  }
  return TypeChildrenDiff(*expected.type(), *actual.type(), path, how, in_map);
}

std::string SchemaDiff(const Schema& expected, const Schema& actual, const SchemaCompare& how) {
  if (expected.num_fields() != actual.num_fields()) {
    return std::to_string(actual.num_fields()) + " fields, expected " + std::to_string(expected.num_fields()) +
           "\nexpected:\n" + expected.ToString() + "\nactual:\n" + actual.ToString();
  }
  for (int i = 0; i < expected.num_fields(); ++i) {
    std::string d = FieldDiff(*expected.field(i), *actual.field(i), expected.field(i)->name(), how);
    if (!d.empty()) return d;
  }
  if (!MetadataEquals(expected.metadata(), actual.metadata(), how.metadata_order)) {
    return "schema metadata " + actual.metadata().ToString() + ", expected " + expected.metadata().ToString();
  }
  return "";
}

// The first row where two arrays of equal type and length differ, or -1.
int64_t FirstDifferentRow(const Array& expected, const Array& actual) {
  for (int64_t i = 0; i < expected.length(); ++i) {
    if (!ArrayRangeEquals(*expected.data(), i, *actual.data(), i, 1)) return i;
  }
  return -1;
}

std::string BatchDiff(const RecordBatch& expected, const RecordBatch& actual) {
  if (expected.num_rows() != actual.num_rows()) {
    return std::to_string(actual.num_rows()) + " rows, expected " + std::to_string(expected.num_rows());
  }
  if (expected.num_columns() != actual.num_columns()) {
    return std::to_string(actual.num_columns()) + " columns, expected " + std::to_string(expected.num_columns());
  }
  for (int c = 0; c < expected.num_columns(); ++c) {
    const Array& e = expected.column(c);
    const Array& a = actual.column(c);
    const std::string name = expected.schema()->field(c)->name();
    if (!e.type()->Equals(*a.type())) {
      return "column " + name + ": type " + a.type()->ToString() + ", expected " + e.type()->ToString();
    }
    if (e.length() != a.length()) {
      return "column " + name + ": length " + std::to_string(a.length()) + ", expected " + std::to_string(e.length());
    }
    if (ArrayEquals(e, a)) continue;
    const int64_t row = FirstDifferentRow(e, a);
    std::string out = "column " + name + " (" + e.type()->ToString() + ") differs";
    if (row >= 0) {
      out += " first at row " + std::to_string(row) + ": expected " + Truncate(e.Slice(row, 1).ToString(), 300) +
             ", got " + Truncate(a.Slice(row, 1).ToString(), 300);
    }
    out += "\n  expected: " + Truncate(e.ToString()) + "\n  actual:   " + Truncate(a.ToString());
    return out;
  }
  if (!expected.Equals(actual)) return "RecordBatch::Equals is false though every column is equal";
  return "";
}

void ExpectSameBatches(const SchemaPtr& expected_schema, const std::vector<std::shared_ptr<RecordBatch>>& expected,
                       const SchemaPtr& schema, const std::vector<std::shared_ptr<RecordBatch>>& batches,
                       const std::string& what, const SchemaCompare& how) {
  SCOPED_TRACE(what);
  ASSERT_NE(schema, nullptr);
  const std::string schema_diff = SchemaDiff(*expected_schema, *schema, how);
  EXPECT_TRUE(schema_diff.empty()) << "schema: " << schema_diff;
  ASSERT_EQ(batches.size(), expected.size()) << "number of record batches";
  for (size_t b = 0; b < batches.size(); ++b) {
    ASSERT_NE(batches[b], nullptr);
    const std::string diff = BatchDiff(*expected[b], *batches[b]);
    EXPECT_TRUE(diff.empty()) << "batch " << b << ": " << diff;
    EXPECT_TRUE(batches[b]->schema()->Equals(*schema)) << "batch " << b << " schema differs from the reader's";
  }
}

// ---------------------------------------------------------------------------------------------
// Reading

struct ReadResult {
  SchemaPtr schema;
  std::vector<std::shared_ptr<RecordBatch>> batches;
};

Result<ReadResult> ReadStream(std::unique_ptr<InputStream> input, MemoryPool* pool) {
  STRATA_ASSIGN_OR_RETURN(auto reader, IpcStreamReader::Open(std::move(input), IpcReadOptions{}, pool));
  ReadResult out;
  out.schema = reader->schema();
  while (true) {
    STRATA_ASSIGN_OR_RETURN(auto batch, reader->Next());
    if (batch == nullptr) break;
    out.batches.push_back(std::move(batch));
  }
  // The end stays the end.
  STRATA_ASSIGN_OR_RETURN(auto again, reader->Next());
  if (again != nullptr) return Status::Invalid("Next() after the end returned a batch");
  if (reader->stats().record_batches != static_cast<int64_t>(out.batches.size())) {
    return Status::Invalid("stats().record_batches is {}, read {}", reader->stats().record_batches, out.batches.size());
  }
  return out;
}

Result<ReadResult> ReadFile(std::unique_ptr<IpcFileReader> reader) {
  ReadResult out;
  out.schema = reader->schema();
  for (int i = 0; i < reader->num_record_batches(); ++i) {
    STRATA_ASSIGN_OR_RETURN(auto batch, reader->ReadRecordBatch(i));
    if (batch == nullptr) return Status::Invalid("ReadRecordBatch({}) returned nullptr", i);
    out.batches.push_back(std::move(batch));
  }
  // Out of range is an error, not a crash.
  auto past = reader->ReadRecordBatch(reader->num_record_batches());
  if (past.ok()) return Status::Invalid("ReadRecordBatch(num_record_batches()) succeeded");
  auto negative = reader->ReadRecordBatch(-1);
  if (negative.ok()) return Status::Invalid("ReadRecordBatch(-1) succeeded");
  return out;
}

Result<ReadResult> ReadFilePath(const std::string& path, bool memory_map, MemoryPool* pool) {
  IpcReadOptions options;
  options.memory_map = memory_map;
  STRATA_ASSIGN_OR_RETURN(auto reader, IpcFileReader::Open(path, options, pool));
  return ReadFile(std::move(reader));
}

// ---------------------------------------------------------------------------------------------

// Readers against the JSON: metadata pairs in any order (see SchemaCompare).
constexpr SchemaCompare kAgainstJson{.metadata_order = false, .map_field_names = true};

class IpcIntegrationTest : public ::testing::TestWithParam<Golden> {
 protected:
  void SetUp() override {
    STRATA_REQUIRE_ARROW_TESTING();
    auto json = ReadIntegrationJson(GoldenPath(GetParam(), ".json.gz"), SystemMemoryPool());
    if (not_implemented()) {
      ASSERT_FALSE(json.ok()) << "the JSON reader reads a file listed as unsupported";
      ASSERT_TRUE(json.status().IsNotImplemented()) << json.status().ToString();
      return;
    }
    ASSERT_TRUE(json.ok()) << json.status().ToString();
    expected_ = std::move(json).MoveValueUnsafe();
  }

  bool not_implemented() const { return *GetParam().not_implemented != '\0'; }

  void ExpectNotImplemented(const Status& status, const std::string& what) {
    EXPECT_TRUE(status.IsNotImplemented()) << what << ": expected NotImplemented, got " << status.ToString();
    EXPECT_NE(status.message().find(GetParam().not_implemented), std::string::npos)
        << what << ": the message should name the type: " << status.ToString();
  }

  IntegrationFile expected_;
};

TEST_P(IpcIntegrationTest, StreamMatchesJson) {
  const std::string path = GoldenPath(GetParam(), ".stream");
  auto input = OpenFileInputStream(path);
  ASSERT_TRUE(input.ok()) << input.status().ToString();
  auto read = ReadStream(std::move(input).MoveValueUnsafe(), SystemMemoryPool());
  if (not_implemented()) {
    ASSERT_FALSE(read.ok()) << "read a stream with a type strata lacks";
    ExpectNotImplemented(read.status(), path);
    return;
  }
  ASSERT_TRUE(read.ok()) << path << ": " << read.status().ToString();
  SchemaCompare how = kAgainstJson;
  how.map_field_names = std::string(GetParam().name) != "generated_map_non_canonical";
  ExpectSameBatches(expected_.schema, expected_.batches, read->schema, read->batches, path, how);
}

TEST_P(IpcIntegrationTest, FileMatchesJson) {
  const std::string path = GoldenPath(GetParam(), ".arrow_file");
  for (bool memory_map : {false, true}) {
    SCOPED_TRACE(memory_map ? "memory-mapped" : "read");
    auto read = ReadFilePath(path, memory_map, SystemMemoryPool());
    if (not_implemented()) {
      ASSERT_FALSE(read.ok()) << "read a file with a type strata lacks";
      ExpectNotImplemented(read.status(), path);
      continue;
    }
    ASSERT_TRUE(read.ok()) << path << ": " << read.status().ToString();
    ExpectSameBatches(expected_.schema, expected_.batches, read->schema, read->batches, path, kAgainstJson);
  }
}

TEST_P(IpcIntegrationTest, FileFromSourceMatchesJson) {
  if (not_implemented()) GTEST_SKIP() << "covered by FileMatchesJson";
  const std::string path = GoldenPath(GetParam(), ".arrow_file");
  auto source = OpenLocalFile(path);
  ASSERT_TRUE(source.ok()) << source.status().ToString();
  auto reader = IpcFileReader::Open(*source, IpcReadOptions{}, SystemMemoryPool());
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  // Batches in reverse order: the file format is random access.
  std::vector<std::shared_ptr<RecordBatch>> batches((*reader)->num_record_batches());
  for (int i = (*reader)->num_record_batches() - 1; i >= 0; --i) {
    auto batch = (*reader)->ReadRecordBatch(i);
    ASSERT_TRUE(batch.ok()) << "batch " << i << ": " << batch.status().ToString();
    batches[static_cast<size_t>(i)] = *batch;
  }
  ExpectSameBatches(expected_.schema, expected_.batches, (*reader)->schema(), batches,
                    path + " (batches read last to first)", kAgainstJson);
}

struct WriteCase {
  IpcFormat format;
  IpcCompression compression;
};

std::string WriteCaseName(const WriteCase& c) {
  return std::string(c.format == IpcFormat::kFile ? "file" : "stream") + "/" +
         std::string(IpcCompressionName(c.compression));
}

Result<std::shared_ptr<Buffer>> Write(const ReadResult& data, const WriteCase& c, MemoryPool* pool,
                                      IpcWriteStats* stats) {
  auto sink = std::make_unique<BufferSink>(pool);
  BufferSink* raw = sink.get();
  IpcWriteOptions options;
  options.compression = c.compression;
  STRATA_ASSIGN_OR_RETURN(auto writer, IpcWriter::Open(std::move(sink), c.format, data.schema, options, pool));
  for (const auto& batch : data.batches) STRATA_RETURN_NOT_OK(writer->Write(*batch));
  STRATA_RETURN_NOT_OK(writer->Close());
  if (writer->stats().record_batches != static_cast<int64_t>(data.batches.size())) {
    return Status::Invalid("stats().record_batches is {}, wrote {}", writer->stats().record_batches,
                           data.batches.size());
  }
  *stats = writer->stats();
  return raw->Finish();
}

TEST_P(IpcIntegrationTest, WriteReadRoundTrip) {
  if (not_implemented()) GTEST_SKIP() << "strata cannot read it";
  // The golden file as strata reads it (FileMatchesJson checks it against the JSON); the file
  // rather than the stream, since one stream lost its non-canonical map field names.
  auto golden = ReadFilePath(GoldenPath(GetParam(), ".arrow_file"), false, SystemMemoryPool());
  ASSERT_TRUE(golden.ok()) << golden.status().ToString();
  for (IpcFormat format : {IpcFormat::kStream, IpcFormat::kFile}) {
    for (IpcCompression compression : {IpcCompression::kNone, IpcCompression::kLz4Frame, IpcCompression::kZstd}) {
      const WriteCase c{format, compression};
      SCOPED_TRACE(WriteCaseName(c));
      IpcWriteStats stats;
      auto bytes = Write(*golden, c, SystemMemoryPool(), &stats);
      ASSERT_TRUE(bytes.ok()) << "write: " << bytes.status().ToString();
      EXPECT_EQ(stats.bytes_written, (*bytes)->size());
      Result<ReadResult> back = Status::Invalid("unset");
      if (format == IpcFormat::kStream) {
        EXPECT_FALSE(HasIpcFileMagic((*bytes)->view().substr(0, 6)));
        back = ReadStream(MakeMemoryInputStream((*bytes)->span(), "roundtrip.arrows"), SystemMemoryPool());
      } else {
        ASSERT_GE((*bytes)->size(), 6);
        EXPECT_TRUE(HasIpcFileMagic((*bytes)->view().substr(0, 6)));
        auto reader = IpcFileReader::Open(MakeBufferSource(*bytes, "roundtrip.arrow"), IpcReadOptions{}, SystemMemoryPool());
        ASSERT_TRUE(reader.ok()) << "read back: " << reader.status().ToString();
        back = ReadFile(std::move(reader).MoveValueUnsafe());
      }
      ASSERT_TRUE(back.ok()) << "read back: " << back.status().ToString();
      // Exactly what was written (metadata order and every name included), and the JSON's values.
      ExpectSameBatches(golden->schema, golden->batches, back->schema, back->batches, "written by strata, read back",
                        SchemaCompare{});
      ExpectSameBatches(expected_.schema, expected_.batches, back->schema, back->batches,
                        "written by strata, read back, against the JSON", kAgainstJson);
    }
  }
}

// IpcWriteStats as ipc_writer.h describes them: body bytes before and after compression,
// "equal when uncompressed". With a codec every non-empty buffer carries an 8-byte length
// prefix, so the two differ even where compressing did not pay (a check that the codec ran).
TEST(IpcWriterStatsTest, BodyBytesMatchTheirContract) {
  STRATA_REQUIRE_ARROW_TESTING();
  const Golden g{"1.0.0-littleendian", "generated_primitive"};
  auto golden = ReadFilePath(GoldenPath(g, ".arrow_file"), false, SystemMemoryPool());
  ASSERT_TRUE(golden.ok()) << golden.status().ToString();
  for (IpcCompression compression : {IpcCompression::kNone, IpcCompression::kLz4Frame, IpcCompression::kZstd}) {
    const WriteCase c{IpcFormat::kStream, compression};
    SCOPED_TRACE(WriteCaseName(c));
    IpcWriteStats stats;
    auto bytes = Write(*golden, c, SystemMemoryPool(), &stats);
    ASSERT_TRUE(bytes.ok()) << bytes.status().ToString();
    ASSERT_GT(stats.body_bytes_uncompressed, 0);
    if (compression == IpcCompression::kNone) {
      EXPECT_EQ(stats.body_bytes_written, stats.body_bytes_uncompressed) << "ipc_writer.h: equal when uncompressed";
    } else {
      EXPECT_NE(stats.body_bytes_written, stats.body_bytes_uncompressed) << "was the body compressed at all?";
    }
  }
}

std::string GoldenName(const ::testing::TestParamInfo<Golden>& info) {
  std::string name = std::string(info.param.dir) + "_" + info.param.name;
  std::replace_if(name.begin(), name.end(), [](char ch) { return !std::isalnum(static_cast<unsigned char>(ch)); }, '_');
  return name;
}

INSTANTIATE_TEST_SUITE_P(Golden, IpcIntegrationTest, ::testing::ValuesIn(kGoldens), GoldenName);

// The list above is the corpus: a new golden file must be added to it (and looked at).
TEST(IpcIntegrationCorpusTest, ListCoversEveryGoldenFile) {
  STRATA_REQUIRE_ARROW_TESTING();
  std::set<std::string> listed;
  std::set<std::string> dirs;
  for (const Golden& g : kGoldens) {
    listed.insert(std::string(g.dir) + "/" + g.name);
    dirs.insert(g.dir);
  }
  for (const std::string& dir : dirs) {
    const std::string path = testing::ArrowTestingFile("data/arrow-ipc-stream/integration/" + dir);
    ASSERT_TRUE(fs::is_directory(path)) << path;
    for (const auto& entry : fs::directory_iterator(path)) {
      std::string file = entry.path().filename().string();
      for (const char* ext : {".json.gz", ".stream", ".arrow_file"}) {
        if (file.ends_with(ext)) {
          const std::string stem = file.substr(0, file.size() - std::string(ext).size());
          EXPECT_TRUE(listed.count(dir + "/" + stem)) << entry.path() << " is not in kGoldens";
        }
      }
    }
  }
  for (const Golden& g : kGoldens) {
    for (const char* ext : {".json.gz", ".stream", ".arrow_file"}) {
      EXPECT_TRUE(fs::is_regular_file(GoldenPath(g, ext))) << GoldenPath(g, ext) << " is missing";
    }
  }
}

}  // namespace
}  // namespace strata::ipc
