// The Parquet reader and writer on s3:// URLs, against s3rver behind the signature-verifying
// proxy (testing/s3), started here. The corpus is uploaded by AWS's SDK and read by strata; what
// strata writes is downloaded by the SDK and read back from disk. Endpoint and keys come from the
// environment (AWS_ENDPOINT_URL, AWS_ACCESS_KEY_ID, ...), as a user's job would set them.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "strata/io/s3_test_server.h"
#include "strata/parquet/read/file_reader.h"
#include "strata/parquet/write/file_writer.h"
#include "strata/parquet/io_tests/mixed_file.h"
#include "strata/testing/test_data.h"

namespace strata::parquet {
namespace {

using strata::testing::S3TestServer;

class S3ReadWriteTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new std::filesystem::path(std::filesystem::temp_directory_path() /
                                     ("strata_parquet_s3_" + std::to_string(::getpid())));
    std::filesystem::create_directories(*dir_);
    strata::testing::S3TestServerOptions options;
    options.buckets = {"lake"};
    suite_.Start(options);
    server_ = suite_.get();
    if (server_ == nullptr) return;
    ::setenv("AWS_ENDPOINT_URL", server_->endpoint().c_str(), 1);
    ::setenv("AWS_ACCESS_KEY_ID", server_->access_key().c_str(), 1);
    ::setenv("AWS_SECRET_ACCESS_KEY", server_->secret_key().c_str(), 1);
    ::setenv("AWS_REGION", server_->region().c_str(), 1);
  }
  static void TearDownTestSuite() {
    suite_.Stop();
    server_ = nullptr;
    std::error_code ignored;
    std::filesystem::remove_all(*dir_, ignored);
    delete dir_;
  }
  void SetUp() override { STRATA_REQUIRE_S3_SERVER(suite_); }

  static Result<std::shared_ptr<Table>> ReadAll(const std::string& location, MemoryPool* pool,
                                                const FileReaderOptions& options = {}) {
    STRATA_ASSIGN_OR_RETURN(auto reader, FileReader::OpenFile(location, pool, options));
    return reader->ReadTable();
  }

  static inline strata::testing::SuiteS3TestServer suite_;
  static inline S3TestServer* server_ = nullptr;
  static inline std::filesystem::path* dir_ = nullptr;
};

// Every parquet-testing file reads the same from S3 as from disk (pre-buffered, the default for
// s3://, and not): the same table, or an error of the same kind.
TEST_F(S3ReadWriteTest, ParquetTestingFilesEqualLocalReads) {
  STRATA_REQUIRE_PARQUET_TESTING();
  const std::string data = strata::testing::ParquetTestingFile("data");
  ASSERT_TRUE(server_->PutDirectory("lake", "parquet-testing/", data).ok());
  std::vector<std::string> names;
  for (const std::string& path : strata::testing::ParquetFilesIn(data)) {
    names.push_back(std::filesystem::path(path).filename());
  }
  ASSERT_GE(names.size(), 40u);
  auto pool = MakeSystemMemoryPool();
  int equal_tables = 0;
  for (const std::string& name : names) {
    const auto expected = ReadAll(data + "/" + name, pool.get());
    for (const bool pre_buffer : {true, false}) {
      SCOPED_TRACE(fmt::format("{}, pre_buffer {}", name, pre_buffer));
      FileReaderOptions options;
      options.pre_buffer = pre_buffer;
      const auto actual = ReadAll("s3://lake/parquet-testing/" + name, pool.get(), options);
      if (!expected.ok()) {
        ASSERT_FALSE(actual.ok()) << "local: " << expected.status().ToString();
        EXPECT_EQ(actual.status().code(), expected.status().code()) << actual.status().ToString();
        continue;
      }
      ASSERT_TRUE(actual.ok()) << actual.status().ToString();
      EXPECT_TRUE((*expected)->Equals(**actual));
      ++equal_tables;
    }
  }
  EXPECT_GE(equal_tables, 2 * static_cast<int>(names.size()) * 3 / 4);
  EXPECT_EQ(pool->bytes_in_use(), 0);
}

// The writer on s3:// makes the same bytes as on disk (a multipart upload: the file is larger
// than the 8 MiB part), and the SDK's copy reads back as the table written.
TEST_F(S3ReadWriteTest, WriterOnS3MakesTheBytesItMakesOnDisk) {
  const std::string local = (*dir_ / "mixed.parquet").string();
  auto size = testing::WriteMixedFile(local, 6, 60'000);
  ASSERT_TRUE(size.ok()) << size.status().ToString();
  auto pool = MakeSystemMemoryPool();
  auto table = ReadAll(local, pool.get());
  ASSERT_TRUE(table.ok());
  const std::string rewritten_local = (*dir_ / "rewritten.parquet").string();
  for (const std::string& target : {rewritten_local, std::string("s3://lake/written/r\xC3\xA9written file.parquet")}) {
    auto writer = FileWriter::Open(target, std::make_shared<Schema>(*(*table)->schema()), pool.get());
    ASSERT_TRUE(writer.ok()) << writer.status().ToString();
    ASSERT_TRUE((*writer)->WriteTable(**table).ok());
    const Status closed = (*writer)->Close();
    ASSERT_TRUE(closed.ok()) << closed.ToString();
  }
  const std::string downloaded = (*dir_ / "downloaded.parquet").string();
  ASSERT_TRUE(server_->GetFile("lake", "written/r\xC3\xA9written file.parquet", downloaded).ok());
  auto slurp = [](const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  };
  const std::string expected_bytes = slurp(rewritten_local);
  EXPECT_GT(expected_bytes.size(), size_t{8} << 20);
  EXPECT_TRUE(slurp(downloaded) == expected_bytes);
  auto back = ReadAll("s3://lake/written/r\xC3\xA9written file.parquet", pool.get());
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_TRUE((*table)->Equals(**back));
  EXPECT_EQ(*server_->OpenUploads(), "[]\n");
}

// A pre-buffered scan from S3 holds what the read-ahead budget allows, not the file: its pool
// peak is that of the same pre-buffered scan of the local file (about 14 MB for 20 MB or 39 MB
// of this file, measured), under half the file.
TEST_F(S3ReadWriteTest, ScanMemoryIsBoundedByTheReadAheadNotTheFile) {
  const std::string local = (*dir_ / "scan.parquet").string();
  auto size = testing::WriteMixedFile(local, 24, 40'000);
  ASSERT_TRUE(size.ok());
  ASSERT_TRUE(server_->PutFile("lake", "scan.parquet", local).ok());
  auto scan_peak = [](const std::string& location) -> Result<int64_t> {
    auto pool = MakeSystemMemoryPool();
    FileReaderOptions options;
    options.pre_buffer = true;
    STRATA_ASSIGN_OR_RETURN(auto reader, FileReader::OpenFile(location, pool.get(), options));
    BatchReadOptions read;
    read.read_ahead_bytes = 2 << 20;
    STRATA_ASSIGN_OR_RETURN(auto batches, reader->ReadBatches(read));
    int64_t rows = 0;
    while (true) {
      STRATA_ASSIGN_OR_RETURN(auto batch, batches->Next());
      if (batch == nullptr) break;
      rows += batch->num_rows();
    }
    if (rows != 24 * 40'000) return Status::Invalid("read {} rows", rows);
    return pool->peak_bytes();
  };
  auto local_peak = scan_peak(local);
  auto s3_peak = scan_peak("s3://lake/scan.parquet");
  ASSERT_TRUE(local_peak.ok()) << local_peak.status().ToString();
  ASSERT_TRUE(s3_peak.ok()) << s3_peak.status().ToString();
  RecordProperty("file_bytes", std::to_string(*size));
  RecordProperty("local_peak_bytes", std::to_string(*local_peak));
  RecordProperty("s3_peak_bytes", std::to_string(*s3_peak));
  EXPECT_LE(*s3_peak, *local_peak * 5 / 4) << "local " << *local_peak << ", file " << *size;
  EXPECT_LT(*s3_peak, *size / 2) << "file " << *size << " bytes";
}

}  // namespace
}  // namespace strata::parquet
