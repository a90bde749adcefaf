// The CSV writer end to end: header and rows exactly, dialect options, sliced batches and
// chunked tables, schema checks, safe output (nothing left behind on failure or without
// Close), and memory reused batch after batch.
#include "strata/csv/writer.h"

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <optional>
#include <sstream>

#include <gtest/gtest.h>

#include "strata/array/binary_builder.h"
#include "strata/array/dictionary_builder.h"
#include "strata/array/fixed_size_binary_builder.h"
#include "strata/array/list_builder.h"
#include "strata/array/primitive_builder.h"

namespace strata::csv {
namespace {

MemoryPool* Pool() { return SystemMemoryPool(); }

FieldPtr F(std::string name, TypePtr type) { return std::make_shared<Field>(std::move(name), std::move(type)); }

template <typename T>
Array Primitive(TypePtr type, const std::vector<std::optional<T>>& values, MemoryPool* pool = Pool()) {
  PrimitiveBuilder<T> builder(std::move(type), pool);
  for (const auto& v : values) EXPECT_TRUE((v ? builder.Append(*v) : builder.AppendNull()).ok());
  return Array(*builder.Finish());
}

Array Strings(const std::vector<std::optional<std::string>>& values, MemoryPool* pool = Pool()) {
  StringBuilder builder(utf8(), pool);
  for (const auto& v : values) EXPECT_TRUE((v ? builder.Append(*v) : builder.AppendNull()).ok());
  return Array(*builder.Finish());
}

std::shared_ptr<RecordBatch> Batch(std::vector<FieldPtr> fields, std::vector<Array> columns) {
  const int64_t rows = columns.empty() ? 0 : columns[0].length();
  auto batch = RecordBatch::Make(std::make_shared<Schema>(std::move(fields)), rows, std::move(columns));
  EXPECT_TRUE(batch.ok()) << batch.status().ToString();
  return *batch;
}

// id, name, price, when: three rows with nulls and characters that need quotes.
std::shared_ptr<RecordBatch> SmallBatch() {
  __int128 prices[] = {1250, -5, 0};
  FixedSizeBinaryBuilder price(decimal128(7, 2), Pool());
  for (auto& p : prices) EXPECT_TRUE(price.Append(reinterpret_cast<const uint8_t*>(&p)).ok());
  return Batch({F("id", int64()), F("name", utf8()), F("price", decimal128(7, 2)), F("when", timestamp(TimeUnit::kSecond))},
               {Primitive<int64_t>(int64(), {1, 2, std::nullopt}), Strings({"plain", "a,\"b\"", std::nullopt}),
                Array(*price.Finish()), Primitive<int64_t>(timestamp(TimeUnit::kSecond), {0, std::nullopt, 86399})});
}

Result<std::string> WriteToString(const std::vector<std::shared_ptr<RecordBatch>>& batches,
                                  const WriteOptions& options = {}) {
  auto sink = std::make_unique<BufferSink>(Pool());
  BufferSink* raw = sink.get();
  STRATA_ASSIGN_OR_RETURN(auto writer, CsvWriter::Open(std::move(sink), batches[0]->schema(), Pool(), options));
  for (const auto& batch : batches) STRATA_RETURN_NOT_OK(writer->Write(*batch));
  STRATA_RETURN_NOT_OK(writer->Close());
  STRATA_ASSIGN_OR_RETURN(auto buffer, raw->Finish());
  return std::string(buffer->view());
}

std::string MustWrite(const std::vector<std::shared_ptr<RecordBatch>>& batches, const WriteOptions& options = {}) {
  auto text = WriteToString(batches, options);
  EXPECT_TRUE(text.ok()) << text.status().ToString();
  return text.ok() ? *text : "";
}

TEST(CsvWriterTest, HeaderAndRows) {
  EXPECT_EQ(MustWrite({SmallBatch()}),
            "id,name,price,when\n"
            "1,plain,12.50,1970-01-01T00:00:00\n"
            "2,\"a,\"\"b\"\"\",-0.05,\n"
            ",,0.00,1970-01-01T23:59:59\n");
}

TEST(CsvWriterTest, TabsCrlfNoHeaderAndANullSpelling) {
  WriteOptions options;
  options.delimiter = '\t';
  options.line_ending = "\r\n";
  options.header = false;
  options.null_value = "\\N";
  EXPECT_EQ(MustWrite({SmallBatch()}, options),
            "1\tplain\t12.50\t1970-01-01T00:00:00\r\n"
            "2\t\"a,\"\"b\"\"\"\t-0.05\t\\N\r\n"  // a quote inside: quoted whatever the delimiter
            "\\N\t\\N\t0.00\t1970-01-01T23:59:59\r\n");
}

TEST(CsvWriterTest, HeaderNamesQuotedLikeStrings) {
  auto batch = Batch({F("a,b", int32()), F("plain", int32()), F("", int32()), F("say \"x\"", int32())},
                     {Primitive<int32_t>(int32(), {1}), Primitive<int32_t>(int32(), {2}),
                      Primitive<int32_t>(int32(), {3}), Primitive<int32_t>(int32(), {4})});
  EXPECT_EQ(MustWrite({batch}), "\"a,b\",plain,\"\",\"say \"\"x\"\"\"\n1,2,3,4\n");
}

TEST(CsvWriterTest, EmptyStringsAndNullsStayApartInOneColumn) {
  // One column: an unquoted empty cell would be an empty line, which readers skip.
  auto batch = Batch({F("s", utf8())}, {Strings({"", std::nullopt, "x"})});
  EXPECT_EQ(MustWrite({batch}), "s\n\"\"\n\nx\n");
}

TEST(CsvWriterTest, SlicedBatches) {
  auto batch = SmallBatch();
  EXPECT_EQ(MustWrite({batch->Slice(1, 2)}), "id,name,price,when\n2,\"a,\"\"b\"\"\",-0.05,\n,,0.00,1970-01-01T23:59:59\n");
  EXPECT_EQ(MustWrite({batch->Slice(2, 1), batch->Slice(0, 1)}),
            "id,name,price,when\n,,0.00,1970-01-01T23:59:59\n1,plain,12.50,1970-01-01T00:00:00\n");
}

TEST(CsvWriterTest, ManyRowsAcrossBlocksAndFlushes) {
  const int64_t rows = 3 * CsvWriter::kBlockRows + 17;
  std::vector<std::optional<int64_t>> ids;
  std::vector<std::optional<std::string>> names;
  std::string expected = "id,name\n";
  for (int64_t i = 0; i < rows; ++i) {
    ids.push_back(i % 7 == 3 ? std::nullopt : std::optional<int64_t>(i * 1000003));
    names.push_back(i % 5 == 0 ? "row " + std::to_string(i) + ", quoted" : "row" + std::to_string(i));
    expected += (ids.back() ? std::to_string(*ids.back()) : "") + "," +
                (i % 5 == 0 ? "\"" + *names.back() + "\"" : *names.back()) + "\n";
  }
  auto batch = Batch({F("id", int64()), F("name", utf8())}, {Primitive<int64_t>(int64(), ids), Strings(names)});
  WriteOptions options;
  options.buffer_bytes = 4096;  // a flush every few hundred rows
  EXPECT_EQ(MustWrite({batch}, options), expected);
  // The same rows as many small batches.
  std::vector<std::shared_ptr<RecordBatch>> pieces;
  for (int64_t offset = 0; offset < rows; offset += 333) pieces.push_back(batch->Slice(offset, std::min<int64_t>(333, rows - offset)));
  EXPECT_EQ(MustWrite(pieces, options), expected);
}

TEST(CsvWriterTest, TablesChunkedDifferentlyPerColumn) {
  auto a = *ChunkedArray::Make(int32(), {Primitive<int32_t>(int32(), {1, 2, 3}), Primitive<int32_t>(int32(), {}),
                                         Primitive<int32_t>(int32(), {4, 5})});
  auto b = *ChunkedArray::Make(utf8(), {Strings({"x"}), Strings({"y", "z,", std::nullopt, "w"})});
  auto schema = std::make_shared<Schema>(std::vector<FieldPtr>{F("a", int32()), F("b", utf8())});
  auto table = *Table::Make(schema, {a, b});
  auto sink = std::make_unique<BufferSink>(Pool());
  BufferSink* raw = sink.get();
  auto writer = *CsvWriter::Open(std::move(sink), schema, Pool());
  ASSERT_TRUE(writer->WriteTable(*table).ok());
  EXPECT_EQ(writer->rows_written(), 5);
  ASSERT_TRUE(writer->Close().ok());
  EXPECT_EQ((*raw->Finish())->view(), "a,b\n1,x\n2,y\n3,\"z,\"\n4,\n5,w\n");
}

TEST(CsvWriterTest, SchemaMismatchIsInvalidAndHarmless) {
  auto sink = std::make_unique<BufferSink>(Pool());
  BufferSink* raw = sink.get();
  auto writer = *CsvWriter::Open(std::move(sink), SmallBatch()->schema(), Pool());
  auto other = Batch({F("id", int32())}, {Primitive<int32_t>(int32(), {1})});
  Status st = writer->Write(*other);
  EXPECT_TRUE(st.IsInvalid()) << st.ToString();
  auto renamed = Batch({F("x", int64()), F("name", utf8()), F("price", decimal128(7, 2)), F("when", timestamp(TimeUnit::kSecond))},
                       SmallBatch()->columns());
  st = writer->Write(*renamed);
  EXPECT_TRUE(st.IsInvalid()) << st.ToString();
  EXPECT_NE(st.message().find("'x: int64'"), std::string::npos) << st.ToString();
  ASSERT_TRUE(writer->Write(*SmallBatch()->Slice(0, 1)).ok());
  ASSERT_TRUE(writer->Close().ok());
  EXPECT_EQ((*raw->Finish())->view(), "id,name,price,when\n1,plain,12.50,1970-01-01T00:00:00\n");
  EXPECT_TRUE(writer->Write(*SmallBatch()).IsInvalid());  // closed
  EXPECT_TRUE(writer->Close().IsInvalid());
}

TEST(CsvWriterTest, OptionsValidated) {
  const auto expect_invalid = [](const WriteOptions& options) {
    EXPECT_TRUE(options.Validate().IsInvalid());
    auto writer = CsvWriter::Open(std::make_unique<BufferSink>(Pool()), SmallBatch()->schema(), Pool(), options);
    EXPECT_FALSE(writer.ok());
  };
  WriteOptions options;
  EXPECT_TRUE(options.Validate().ok());
  options.delimiter = '\n';
  expect_invalid(options);
  options = {};
  options.quote = '\r';
  expect_invalid(options);
  options = {};
  options.delimiter = '"';
  expect_invalid(options);
  options = {};
  options.null_value = "a,b";
  expect_invalid(options);
  options = {};
  options.null_value = "\"";
  expect_invalid(options);
  options = {};
  options.null_value = "x\ny";
  expect_invalid(options);
  options = {};
  options.line_ending = "\n\n";
  expect_invalid(options);
  options = {};
  options.buffer_bytes = 100;
  expect_invalid(options);
}

// ---- output safety -------------------------------------------------------------------------

// Fails writes once `fail_after` bytes went through, or its Close; records Abort.
class FailingSink final : public OutputSink {
 public:
  explicit FailingSink(int64_t fail_after, bool fail_close = false) : fail_after_(fail_after), fail_close_(fail_close) {}
  Status Write(const void*, int64_t size) override {
    if (position_ + size > fail_after_) return Status::IOError("disk full (test)");
    position_ += size;
    return Status::OK();
  }
  Status Close() override { return fail_close_ ? Status::IOError("close failed (test)") : Status::OK(); }
  void Abort() override { *aborted_ = true; }
  const std::string& name() const override { return name_; }
  std::shared_ptr<bool> aborted() const { return aborted_; }

 private:
  int64_t fail_after_;
  bool fail_close_;
  std::shared_ptr<bool> aborted_ = std::make_shared<bool>(false);
  std::string name_ = "failing";
};

TEST(CsvWriterTest, FailingSinkAbortsTheWriter) {
  auto sink = std::make_unique<FailingSink>(10);
  auto aborted = sink->aborted();
  auto writer = *CsvWriter::Open(std::move(sink), SmallBatch()->schema(), Pool());
  ASSERT_TRUE(writer->Write(*SmallBatch()).ok());  // buffered
  Status st = writer->Close();                     // the flush fails
  EXPECT_TRUE(st.IsIOError()) << st.ToString();
  EXPECT_TRUE(*aborted);
  EXPECT_TRUE(writer->Write(*SmallBatch()).IsInvalid());
  EXPECT_EQ(writer->memory_size(), 0);

  // A failure in the middle of a batch (the buffer flushes as it fills).
  auto sink2 = std::make_unique<FailingSink>(5000);
  auto aborted2 = sink2->aborted();
  WriteOptions options;
  options.buffer_bytes = 4096;
  auto writer2 = *CsvWriter::Open(std::move(sink2), SmallBatch()->schema(), Pool(), options);
  Status failed;
  for (int i = 0; i < 1000 && failed.ok(); ++i) failed = writer2->Write(*SmallBatch());
  EXPECT_TRUE(failed.IsIOError()) << failed.ToString();
  EXPECT_TRUE(*aborted2);

  auto sink3 = std::make_unique<FailingSink>(1 << 20, /*fail_close=*/true);
  auto writer3 = *CsvWriter::Open(std::move(sink3), SmallBatch()->schema(), Pool());
  EXPECT_TRUE(writer3->Close().IsIOError());
}

TEST(CsvWriterTest, RefusedColumnFailsOpenAndAbortsTheSink) {
  auto sink = std::make_unique<FailingSink>(1 << 20);
  auto aborted = sink->aborted();
  WriteOptions options;
  options.nested = WriteOptions::NestedValues::kRefuse;
  auto schema = std::make_shared<Schema>(std::vector<FieldPtr>{F("ok", int32()), F("tags", list(utf8()))});
  auto writer = CsvWriter::Open(std::move(sink), schema, Pool(), options);
  ASSERT_FALSE(writer.ok());
  EXPECT_TRUE(writer.status().IsNotImplemented());
  EXPECT_NE(writer.status().message().find("'tags'"), std::string::npos) << writer.status().ToString();
  EXPECT_TRUE(*aborted);
}

class TempDir {
 public:
  TempDir() {
    const char* base = std::getenv("TMPDIR");
    std::string pattern = std::string(base && *base ? base : "/tmp") + "/strata-csv-writer-XXXXXX";
    path_ = ::mkdtemp(pattern.data()) ? pattern : "";
  }
  ~TempDir() {
    for (const std::string& name : Entries()) ::unlink((path_ + "/" + name).c_str());
    ::rmdir(path_.c_str());
  }
  const std::string& path() const { return path_; }
  std::vector<std::string> Entries() const {
    std::vector<std::string> names;
    if (DIR* dir = ::opendir(path_.c_str())) {
      while (dirent* entry = ::readdir(dir)) {
        const std::string name = entry->d_name;
        if (name != "." && name != "..") names.push_back(name);
      }
      ::closedir(dir);
    }
    return names;
  }

 private:
  std::string path_;
};

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(CsvWriterTest, FileAppearsOnlyOnClose) {
  TempDir dir;
  ASSERT_FALSE(dir.path().empty());
  const std::string path = dir.path() + "/out.csv";
  auto writer = *CsvWriter::Open(path, SmallBatch()->schema(), Pool());
  ASSERT_TRUE(writer->Write(*SmallBatch()).ok());
  struct stat info {};
  EXPECT_NE(::stat(path.c_str(), &info), 0);  // not yet
  ASSERT_TRUE(writer->Close().ok());
  EXPECT_EQ(ReadFile(path), MustWrite({SmallBatch()}));
  EXPECT_EQ(dir.Entries(), std::vector<std::string>{"out.csv"});
}

TEST(CsvWriterTest, DestroyedWithoutCloseLeavesNothing) {
  TempDir dir;
  const std::string path = dir.path() + "/out.csv";
  {
    auto writer = *CsvWriter::Open(path, SmallBatch()->schema(), Pool());
    ASSERT_TRUE(writer->Write(*SmallBatch()).ok());
    EXPECT_EQ(dir.Entries().size(), 1u);  // the temporary file
  }
  EXPECT_TRUE(dir.Entries().empty());
  // An existing file stays as it was.
  { std::ofstream(path) << "old"; }
  {
    auto writer = *CsvWriter::Open(path, SmallBatch()->schema(), Pool());
    ASSERT_TRUE(writer->Write(*SmallBatch()).ok());
    auto other = Batch({F("id", int32())}, {Primitive<int32_t>(int32(), {1})});
    EXPECT_FALSE(writer->Write(*other).ok());
  }
  EXPECT_EQ(ReadFile(path), "old");
  EXPECT_EQ(dir.Entries(), std::vector<std::string>{"out.csv"});
  // A refused column at Open: no file either.
  WriteOptions options;
  options.binary = WriteOptions::BinaryValues::kRefuse;
  auto schema = std::make_shared<Schema>(std::vector<FieldPtr>{F("blob", binary())});
  EXPECT_TRUE(CsvWriter::Open(dir.path() + "/refused.csv", schema, Pool(), options).status().IsNotImplemented());
  EXPECT_EQ(dir.Entries(), std::vector<std::string>{"out.csv"});
}

// ---- memory ----------------------------------------------------------------------------------

// Counts bytes and keeps none: the writer's allocations are the only ones in its pool.
class DiscardingSink final : public OutputSink {
 public:
  Status Write(const void*, int64_t size) override {
    position_ += size;
    return Status::OK();
  }
  Status Close() override { return Status::OK(); }
  void Abort() override {}
  const std::string& name() const override { return name_; }

 private:
  std::string name_ = "discard";
};

TEST(CsvWriterTest, AllocationsStableAfterTheFirstBatch) {
  const int64_t rows = 5000;
  std::vector<std::optional<int64_t>> ints;
  std::vector<std::optional<double>> doubles;
  std::vector<std::optional<std::string>> strings;
  for (int64_t i = 0; i < rows; ++i) {
    ints.push_back(i % 11 == 0 ? std::nullopt : std::optional<int64_t>(i * 7919));
    doubles.push_back(static_cast<double>(i) / 7.0);
    strings.push_back(i % 3 == 0 ? "needs, quotes \"" + std::to_string(i) + "\"" : std::string(i % 40, 'x'));
  }
  auto lists = *ListBuilder<int32_t>::Make(list(int32()), Pool());
  for (int64_t i = 0; i < rows; ++i) {
    ASSERT_TRUE(lists->Append().ok());
    for (int64_t k = 0; k < i % 4; ++k) ASSERT_TRUE(static_cast<Int32Builder*>(lists->value_builder())->Append(static_cast<int32_t>(k)).ok());
  }
  DictionaryBuilder colors(dictionary(int32(), utf8()), Pool());
  ASSERT_TRUE(colors.SetDictionary(Strings({"red", "green", "blue, dark"}).data()).ok());
  for (int64_t i = 0; i < rows; ++i) ASSERT_TRUE(colors.Append(i % 3).ok());
  auto batch = Batch({F("i", int64()), F("d", float64()), F("s", utf8()), F("t", timestamp(TimeUnit::kMicro, "UTC")),
                      F("l", list(int32())), F("c", dictionary(int32(), utf8()))},
                     {Primitive<int64_t>(int64(), ints), Primitive<double>(float64(), doubles), Strings(strings),
                      Primitive<int64_t>(timestamp(TimeUnit::kMicro, "UTC"), ints), Array(*lists->Finish()),
                      Array(*colors.Finish())});

  auto pool = MakeSystemMemoryPool();
  WriteOptions options;
  options.buffer_bytes = 64 << 10;  // several flushes per batch
  auto writer = *CsvWriter::Open(std::make_unique<DiscardingSink>(), batch->schema(), pool.get(), options);
  ASSERT_TRUE(writer->Write(*batch).ok());
  const MemoryStats after_first = pool->stats();
  const int64_t memory = writer->memory_size();
  EXPECT_GT(memory, 0);
  EXPECT_EQ(memory, pool->bytes_in_use());
  for (int i = 0; i < 5; ++i) ASSERT_TRUE(writer->Write(*batch).ok());
  const MemoryStats after_more = pool->stats();
  EXPECT_EQ(after_more.num_allocations, after_first.num_allocations);
  EXPECT_EQ(after_more.num_reallocations, after_first.num_reallocations);
  EXPECT_EQ(writer->memory_size(), memory);
  EXPECT_EQ(writer->rows_written(), 6 * rows);
  ASSERT_TRUE(writer->Close().ok());
  EXPECT_EQ(pool->bytes_in_use(), 0);
}

}  // namespace
}  // namespace strata::csv
