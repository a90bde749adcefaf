// The C API (strata.h): each function's round trip and options, strict option errors, the
// input stream released exactly once on every path, safe output, errno codes and the
// per-thread last error.
#include "strata/c/strata.h"

#include <unistd.h>

#include <cerrno>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "strata/array/array.h"
#include "strata/arrow_c/stream.h"
#include "strata/memory/memory_pool.h"
#include "strata/parquet/read/file_reader.h"

namespace strata {
namespace {

namespace fs = std::filesystem;

class CApiTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("strata_c_api_test_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string Path(const std::string& name) const { return (dir_ / name).string(); }
  std::string WriteText(const std::string& name, const std::string& text) const {
    std::ofstream(Path(name), std::ios::binary) << text;
    return Path(name);
  }
  static std::string ReadText(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }
  // "id,name,score\n0,n0,0.5\n..." (rows rows).
  std::string SampleCsv(int rows) const {
    std::string text = "id,name,score\n";
    for (int i = 0; i < rows; ++i) text += std::to_string(i) + ",n" + std::to_string(i % 5) + "," + std::to_string(i) + ".5\n";
    return WriteText("sample.csv", text);
  }

  fs::path dir_;
};

// The batches of a stream (consumed), through strata's importer.
struct Collected {
  SchemaPtr schema;
  std::vector<std::shared_ptr<RecordBatch>> batches;
  int64_t rows = 0;
};

Collected Collect(ArrowArrayStream* stream) {
  Collected out;
  auto imported = arrow_c::ImportBatchStream(stream);
  EXPECT_TRUE(imported.ok()) << imported.status().ToString();
  if (!imported.ok()) return out;
  out.schema = (*imported)->schema();
  while (true) {
    auto batch = (*imported)->Next();
    EXPECT_TRUE(batch.ok()) << batch.status().ToString();
    if (!batch.ok() || *batch == nullptr) break;
    out.rows += (*batch)->num_rows();
    out.batches.push_back(*batch);
  }
  return out;
}

// Wraps a stream, counting release calls, and can fail or throw on demand.
struct CountingStream {
  ArrowArrayStream inner{};
  int releases = 0;
  bool fail_schema = false;
  int fail_next_after = -1;  // batches handed out before get_next fails (-1: never)
  bool throw_on_next = false;
  int batches = 0;

  static CountingStream* Of(ArrowArrayStream* s) { return static_cast<CountingStream*>(s->private_data); }
  static int GetSchema(ArrowArrayStream* s, ArrowSchema* out) {
    if (Of(s)->fail_schema) return EIO;
    return Of(s)->inner.get_schema(&Of(s)->inner, out);
  }
  static int GetNext(ArrowArrayStream* s, ArrowArray* out) {
    CountingStream* c = Of(s);
    if (c->throw_on_next) throw std::runtime_error("thrown by the test stream");
    if (c->fail_next_after >= 0 && c->batches >= c->fail_next_after) return ENOMEM;
    ++c->batches;
    return c->inner.get_next(&c->inner, out);
  }
  static const char* GetLastError(ArrowArrayStream* s) {
    if (Of(s)->fail_schema) return "schema refused by the test stream";
    if (Of(s)->fail_next_after >= 0) return "get_next refused by the test stream";
    return Of(s)->inner.get_last_error(&Of(s)->inner);
  }
  static void Release(ArrowArrayStream* s) {
    CountingStream* c = Of(s);
    ++c->releases;
    if (c->inner.release != nullptr) c->inner.release(&c->inner);
    s->release = nullptr;
  }
  // The wrapper over `inner` (taken over).
  ArrowArrayStream Wrap(ArrowArrayStream* from) {
    inner = *from;
    from->release = nullptr;
    return ArrowArrayStream{&GetSchema, &GetNext, &GetLastError, &Release, this};
  }
};

TEST_F(CApiTest, VersionAndNoError) {
  EXPECT_STREQ(strata_version(), "0.1.0");
  EXPECT_STREQ(strata_last_error(), "");
}

TEST_F(CApiTest, MemoryLimitIsProcessWideAndNamedWhenTooSmall) {
  ArrowArrayStream stream;
  ASSERT_EQ(strata_csv_read(SampleCsv(5000).c_str(), nullptr, &stream), 0) << strata_last_error();
  ASSERT_EQ(strata_parquet_write(&stream, Path("m.parquet").c_str(), nullptr), 0) << strata_last_error();
  EXPECT_EQ(strata_set_memory_limit(-1), EINVAL);
  EXPECT_EQ(strata_memory_limit(), 0);
  ASSERT_EQ(strata_set_memory_limit(4096), 0);
  EXPECT_EQ(strata_memory_limit(), 4096);
  // Opening reads the footer; the first batch needs pages: one or the other passes 4 KiB.
  int rc = strata_parquet_read(Path("m.parquet").c_str(), nullptr, &stream);
  std::string message = strata_last_error();
  if (rc == 0) {
    ArrowArray batch;
    rc = stream.get_next(&stream, &batch);
    message = stream.get_last_error(&stream);
    if (rc == 0 && batch.release) batch.release(&batch);
    stream.release(&stream);
  }
  EXPECT_EQ(rc, ENOMEM) << message;
  EXPECT_NE(message.find("exceeds the memory limit of 4096 bytes"), std::string::npos) << message;
  ASSERT_EQ(strata_set_memory_limit(0), 0);
  ASSERT_EQ(strata_parquet_read(Path("m.parquet").c_str(), nullptr, &stream), 0) << strata_last_error();
  EXPECT_EQ(Collect(&stream).rows, 5000);
}

TEST_F(CApiTest, CsvToParquetAndBack) {
  const std::string csv = SampleCsv(1000);
  ArrowArrayStream stream;
  ASSERT_EQ(strata_csv_read(csv.c_str(), "batch_rows=100;threads=2", &stream), 0) << strata_last_error();
  ASSERT_EQ(strata_parquet_write(&stream, Path("a.parquet").c_str(), "codec=zstd;level=5;row_group_rows=300;threads=2"),
            0)
      << strata_last_error();
  EXPECT_EQ(stream.release, nullptr);

  auto file = parquet::FileReader::OpenFile(Path("a.parquet"), SystemMemoryPool());
  ASSERT_TRUE(file.ok()) << file.status().ToString();
  EXPECT_EQ((*file)->num_rows(), 1000);
  EXPECT_EQ((*file)->num_row_groups(), 4);
  EXPECT_EQ((*file)->metadata().row_groups[0].columns[0].meta_data->codec, parquet::CompressionCodec::kZstd);

  ASSERT_EQ(strata_parquet_read(Path("a.parquet").c_str(), "columns=score,id;batch_rows=64;threads=0", &stream), 0);
  Collected read = Collect(&stream);
  ASSERT_EQ(read.schema->num_fields(), 2);
  EXPECT_EQ(read.schema->field(0)->name(), "score");
  EXPECT_EQ(read.schema->field(1)->name(), "id");
  EXPECT_EQ(read.rows, 1000);
  for (const auto& batch : read.batches) EXPECT_LE(batch->num_rows(), 64);
  EXPECT_EQ(Int64Array(read.batches[1]->column(1)).Value(0), 64);
  EXPECT_EQ(DoubleArray(read.batches[0]->column(0)).Value(3), 3.5);

  ASSERT_EQ(strata_parquet_read(Path("a.parquet").c_str(), nullptr, &stream), 0);
  ASSERT_EQ(strata_csv_write(&stream, Path("b.csv").c_str(), ""), 0) << strata_last_error();
  EXPECT_EQ(ReadText(Path("b.csv")), ReadText(csv));
}

TEST_F(CApiTest, FilterOptionKeepsOnlyMatchingRowsAndSkipsRowGroups) {
  ArrowArrayStream stream;
  ASSERT_EQ(strata_csv_read(SampleCsv(1000).c_str(), nullptr, &stream), 0);
  ASSERT_EQ(strata_parquet_write(&stream, Path("a.parquet").c_str(), "row_group_rows=100"), 0) << strata_last_error();
  ASSERT_EQ(strata_parquet_read(Path("a.parquet").c_str(), "filter=id >= 250 AND id < 260 OR id = 999;columns=id",
                                &stream),
            0)
      << strata_last_error();
  Collected read = Collect(&stream);
  ASSERT_EQ(read.schema->num_fields(), 1);
  ASSERT_EQ(read.rows, 11);
  std::vector<int64_t> ids;
  for (const auto& batch : read.batches) {
    for (int64_t i = 0; i < batch->num_rows(); ++i) ids.push_back(Int64Array(batch->column(0)).Value(i));
  }
  EXPECT_EQ(ids.front(), 250);
  EXPECT_EQ(ids.back(), 999);
  // A filter that does not parse or names no column fails naming the problem.
  EXPECT_EQ(strata_parquet_read(Path("a.parquet").c_str(), "filter=id >=", &stream), EINVAL);
  EXPECT_NE(std::string(strata_last_error()).find("expected a literal"), std::string::npos) << strata_last_error();
  EXPECT_EQ(strata_parquet_read(Path("a.parquet").c_str(), "filter=nope = 1", &stream), EINVAL);
  EXPECT_NE(std::string(strata_last_error()).find("nope"), std::string::npos) << strata_last_error();
}

TEST_F(CApiTest, ParquetWriteOptionsReachTheFile) {
  ArrowArrayStream stream;
  ASSERT_EQ(strata_csv_read(SampleCsv(100).c_str(), nullptr, &stream), 0);
  ASSERT_EQ(strata_parquet_write(&stream, Path("a.parquet").c_str(),
                                 "codec=uncompressed;page_version=2;dictionary=off;statistics=off"),
            0)
      << strata_last_error();
  auto file = parquet::FileReader::OpenFile(Path("a.parquet"), SystemMemoryPool());
  ASSERT_TRUE(file.ok());
  const parquet::ColumnMetaData& md = *(*file)->metadata().row_groups[0].columns[1].meta_data;
  EXPECT_EQ(md.codec, parquet::CompressionCodec::kUncompressed);
  EXPECT_FALSE(md.statistics.has_value() && md.statistics->min_value.has_value());
  for (parquet::Encoding e : md.encodings) EXPECT_NE(e, parquet::Encoding::kRleDictionary);
}

TEST_F(CApiTest, CsvReadOptions) {
  const std::string path = WriteText("semi.csv", "1;x;-\n2;y;3\n");
  ArrowArrayStream stream;
  ASSERT_EQ(strata_csv_read(path.c_str(), "delimiter=semicolon;header=no;null=-", &stream), 0) << strata_last_error();
  Collected read = Collect(&stream);
  ASSERT_EQ(read.schema->num_fields(), 3);
  EXPECT_EQ(read.rows, 2);
  EXPECT_EQ(read.batches[0]->column(2).null_count(), 1);

  // Ragged rows: salvage pads the short one and skips the long one.
  const std::string ragged = WriteText("ragged.csv", "a,b\n1,2\n3\n4,5,6\n7,8\n");
  ASSERT_EQ(strata_csv_read(ragged.c_str(), "ragged=salvage;max_bad_rows=1", &stream), 0) << strata_last_error();
  read = Collect(&stream);
  EXPECT_EQ(read.rows, 3);
  EXPECT_EQ(read.batches[0]->column(1).null_count(), 1);
  ASSERT_EQ(strata_csv_read(ragged.c_str(), "ragged=pad", &stream), EINVAL);

  ASSERT_EQ(strata_csv_read(path.c_str(), "delimiter=;;header=no;all_strings=yes", &stream), EINVAL);
  ASSERT_EQ(strata_csv_read(path.c_str(), "delimiter=semicolon;header=no;all_strings=yes;columns=f2,f0", &stream), 0);
  read = Collect(&stream);
  ASSERT_EQ(read.schema->num_fields(), 2);
  EXPECT_EQ(read.schema->field(0)->name(), "f2");
  EXPECT_EQ(read.schema->field(0)->type()->id(), TypeId::kString);
  EXPECT_EQ(read.schema->field(1)->type()->id(), TypeId::kString);

  // A value after the sample that the sampled type cannot hold fails; the whole file fixes it.
  std::string text = "v\n";
  for (int i = 0; i < 2000; ++i) text += std::to_string(i) + "\n";
  text += "1.5\n";
  const std::string late = WriteText("late.csv", text);
  ASSERT_EQ(strata_csv_read(late.c_str(), "sample_bytes=64;batch_rows=100000", &stream), 0) << strata_last_error();
  auto imported = arrow_c::ImportBatchStream(&stream);
  ASSERT_TRUE(imported.ok());
  Status failed = Status::OK();
  while (failed.ok()) {
    auto batch = (*imported)->Next();
    if (!batch.ok()) failed = batch.status();
    if (batch.ok() && *batch == nullptr) break;
  }
  EXPECT_FALSE(failed.ok());
  ASSERT_EQ(strata_csv_read(late.c_str(), "sample_bytes=64;infer_whole_file=yes", &stream), 0) << strata_last_error();
  read = Collect(&stream);
  EXPECT_EQ(read.rows, 2001);
  EXPECT_EQ(read.schema->field(0)->type()->id(), TypeId::kFloat64);
}

TEST_F(CApiTest, CsvWriteOptions) {
  const std::string path = WriteText("in.csv", "a,b\n1,\n2,z\n");
  ArrowArrayStream stream;
  ASSERT_EQ(strata_csv_read(path.c_str(), "header=yes", &stream), 0);
  ASSERT_EQ(strata_csv_write(&stream, Path("out.tsv").c_str(), "delimiter=tab;header=no;null=NA"), 0)
      << strata_last_error();
  EXPECT_EQ(ReadText(Path("out.tsv")), "1\tNA\n2\tz\n");
  ASSERT_EQ(strata_csv_read(path.c_str(), nullptr, &stream), 0);
  ASSERT_EQ(strata_csv_write(&stream, Path("out.csv").c_str(), "delimiter=|"), 0) << strata_last_error();
  EXPECT_EQ(ReadText(Path("out.csv")), "a|b\n1|\n2|z\n");
}

TEST_F(CApiTest, OptionErrorsAreStrict) {
  const std::string csv = SampleCsv(10);
  struct Case {
    const char* options;
    const char* named;  // the message names this
  };
  const Case read_cases[] = {
      {"bogus=1", "bogus"},         {"threads=x", "threads"},     {"threads=-1", "threads"},
      {"batch_rows=0", "batch_rows"}, {"threads=1;threads=2", "threads"}, {"columns=", "columns"},
      {"columns=a,,b", "columns"},  {"threads", "threads"},       {"=3", "=3"},
      {"batch_rows=10 ", "batch_rows"},
  };
  ArrowArrayStream stream;
  for (const Case& c : read_cases) {
    // parquet_read's options are a subset of csv_read's keys: each case is an error for both.
    EXPECT_EQ(strata_parquet_read(csv.c_str(), c.options, &stream), EINVAL) << c.options;
    EXPECT_NE(std::string(strata_last_error()).find(c.named), std::string::npos) << strata_last_error();
    EXPECT_EQ(stream.release, nullptr);
    EXPECT_EQ(strata_csv_read(csv.c_str(), c.options, &stream), EINVAL) << c.options;
    EXPECT_NE(std::string(strata_last_error()).find(c.named), std::string::npos) << strata_last_error();
  }
  const Case write_cases[] = {
      {"codec=zip", "zip"},       {"codec=ZSTD ", "codec"},    {"level=x", "level"},
      {"page_version=3", "page_version"}, {"dictionary=maybe", "dictionary"}, {"statistics=2", "statistics"},
      {"row_group_rows=0", "row_group_rows"}, {"threads=1;threads=1", "threads"}, {"delimiter=,", "delimiter"},
  };
  for (const Case& c : write_cases) {
    ASSERT_EQ(strata_csv_read(csv.c_str(), nullptr, &stream), 0);
    EXPECT_EQ(strata_parquet_write(&stream, Path("x.parquet").c_str(), c.options), EINVAL) << c.options;
    EXPECT_NE(std::string(strata_last_error()).find(c.named), std::string::npos) << strata_last_error();
    EXPECT_EQ(stream.release, nullptr);
  }
  for (const char* options : {"delimiter=ab", "header=auto", "null=a,b", "codec=zstd", "header=yes;header=no"}) {
    ASSERT_EQ(strata_csv_read(csv.c_str(), nullptr, &stream), 0);
    EXPECT_EQ(strata_csv_write(&stream, Path("x.csv").c_str(), options), EINVAL) << options;
    EXPECT_STRNE(strata_last_error(), "");
  }
  EXPECT_EQ(strata_csv_read(csv.c_str(), "header=maybe", &stream), EINVAL);
  EXPECT_EQ(strata_parquet_read(csv.c_str(), "columns=a", &stream), EINVAL);  // not a Parquet file
  EXPECT_FALSE(fs::exists(Path("x.parquet")));
  EXPECT_FALSE(fs::exists(Path("x.csv")));
}

TEST_F(CApiTest, InputReleasedOnEveryPath) {
  const std::string csv = SampleCsv(500);
  using WriteFn = int (*)(ArrowArrayStream*, const char*, const char*);
  for (WriteFn write : {&strata_parquet_write, &strata_csv_write}) {
    struct Case {
      const char* name;
      const char* path;
      const char* options;
      void (*arm)(CountingStream*);
      int expected;
    };
    const std::string target = Path("out.file");
    const std::string no_dir = Path("missing/dir/out.file");
    const Case cases[] = {
        {"success", target.c_str(), nullptr, [](CountingStream*) {}, 0},
        {"bad options", target.c_str(), "nonsense=1", [](CountingStream*) {}, EINVAL},
        {"null path", nullptr, nullptr, [](CountingStream*) {}, EINVAL},
        {"bad directory", no_dir.c_str(), nullptr, [](CountingStream*) {}, EIO},
        {"schema fails", target.c_str(), nullptr, [](CountingStream* c) { c->fail_schema = true; }, EIO},
        {"next fails", target.c_str(), nullptr, [](CountingStream* c) { c->fail_next_after = 2; }, ENOMEM},
        {"next throws", target.c_str(), nullptr, [](CountingStream* c) { c->throw_on_next = true; }, EIO},
    };
    for (const Case& c : cases) {
      fs::remove(target);
      ArrowArrayStream source;
      ASSERT_EQ(strata_csv_read(csv.c_str(), "batch_rows=100", &source), 0);
      CountingStream counting;
      ArrowArrayStream in = counting.Wrap(&source);
      c.arm(&counting);
      EXPECT_EQ(write(&in, c.path, c.options), c.expected) << c.name << ": " << strata_last_error();
      EXPECT_EQ(counting.releases, 1) << c.name;
      EXPECT_EQ(in.release, nullptr) << c.name;
      EXPECT_EQ(fs::exists(target), c.expected == 0) << c.name;
      if (c.expected != 0) {
        EXPECT_STRNE(strata_last_error(), "") << c.name;
      }
      if (std::string(c.name) == "next throws") {
        EXPECT_NE(std::string(strata_last_error()).find("thrown"), std::string::npos);
      }
    }
    // NULL and released inputs: EINVAL, nothing to release.
    EXPECT_EQ(write(nullptr, target.c_str(), nullptr), EINVAL);
    ArrowArrayStream released{};
    EXPECT_EQ(write(&released, target.c_str(), nullptr), EINVAL);
    EXPECT_NE(std::string(strata_last_error()).find("released"), std::string::npos);
  }
}

TEST_F(CApiTest, FailedWriteLeavesAnExistingFileUntouched) {
  const std::string target = WriteText("keep.csv", "old contents\n");
  ArrowArrayStream source;
  ASSERT_EQ(strata_csv_read(SampleCsv(500).c_str(), "batch_rows=100", &source), 0);
  CountingStream counting;
  ArrowArrayStream in = counting.Wrap(&source);
  counting.fail_next_after = 3;
  EXPECT_EQ(strata_csv_write(&in, target.c_str(), nullptr), ENOMEM);
  EXPECT_EQ(ReadText(target), "old contents\n");
  EXPECT_EQ(std::distance(fs::directory_iterator(dir_), fs::directory_iterator()), 2);  // keep.csv, sample.csv
}

TEST_F(CApiTest, ReadErrors) {
  ArrowArrayStream stream;
  stream.release = reinterpret_cast<void (*)(ArrowArrayStream*)>(1);  // garbage: must be overwritten
  EXPECT_EQ(strata_parquet_read(Path("absent.parquet").c_str(), nullptr, &stream), EIO);
  EXPECT_EQ(stream.release, nullptr);
  EXPECT_NE(std::string(strata_last_error()).find("absent.parquet"), std::string::npos) << strata_last_error();
  EXPECT_EQ(strata_csv_read(Path("absent.csv").c_str(), nullptr, &stream), EIO);
  EXPECT_EQ(strata_csv_read(nullptr, nullptr, &stream), EINVAL);
  EXPECT_EQ(strata_parquet_read(nullptr, nullptr, &stream), EINVAL);
  EXPECT_EQ(strata_parquet_read(Path("absent.parquet").c_str(), nullptr, nullptr), EINVAL);
  EXPECT_EQ(strata_csv_read(Path("absent.csv").c_str(), nullptr, nullptr), EINVAL);
  // A success clears the message.
  ASSERT_EQ(strata_csv_read(SampleCsv(3).c_str(), nullptr, &stream), 0);
  EXPECT_STREQ(strata_last_error(), "");
  stream.release(&stream);
}

TEST_F(CApiTest, LastErrorIsPerThread) {
  const std::string csv = SampleCsv(3);
  std::string message_a, message_b, after_b_in_a;
  std::atomic<int> step{0};
  std::thread a([&] {
    ArrowArrayStream stream;
    EXPECT_EQ(strata_csv_read(csv.c_str(), "alpha=1", &stream), EINVAL);
    message_a = strata_last_error();
    step = 1;
    while (step.load() != 2) std::this_thread::yield();
    after_b_in_a = strata_last_error();  // b's calls do not touch a's message
  });
  std::thread b([&] {
    while (step.load() != 1) std::this_thread::yield();
    ArrowArrayStream stream;
    EXPECT_EQ(strata_csv_read(csv.c_str(), "beta=1", &stream), EINVAL);
    message_b = strata_last_error();
    ASSERT_EQ(strata_csv_read(csv.c_str(), nullptr, &stream), 0);
    EXPECT_STREQ(strata_last_error(), "");
    stream.release(&stream);
    step = 2;
  });
  a.join();
  b.join();
  EXPECT_NE(message_a.find("alpha"), std::string::npos) << message_a;
  EXPECT_NE(message_b.find("beta"), std::string::npos) << message_b;
  EXPECT_EQ(after_b_in_a, message_a);
  EXPECT_STREQ(strata_last_error(), "");  // this thread made no failing call
}

}  // namespace
}  // namespace strata
