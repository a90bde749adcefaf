// The Parquet reader over HTTP, against nginx on 127.0.0.1 (scripts/nginx-test-server): every
// parquet-testing file and a synthetic multi-row-group file read the same over HTTP as from
// disk, with pre-buffering on, off and automatic; the footer costs one request after the size
// probe; and pre-buffering's coalescing cuts the requests of a scan, counted both by the HTTP
// source and in nginx's access log. Without nginx the tests skip, except under CI=true.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <thread>

#include <fmt/ranges.h>

#include "strata/io/http_source.h"
#include "strata/io/nginx_test_server.h"
#include "strata/parquet/read/file_reader.h"
#include "strata/parquet/io_tests/mixed_file.h"
#include "strata/testing/test_data.h"

namespace strata::parquet {
namespace {

namespace pt = strata::parquet::testing;
using strata::testing::NginxTestServer;

constexpr int kMixedRowGroups = 6;
constexpr int64_t kMixedRowsPerGroup = 20'000;  // about 0.8 MB of chunks per row group
constexpr int kWideColumns = 400;               // a footer of more than 64 KB
constexpr int kWideRowGroups = 4;

// One nginx for the suite, serving a temporary folder: the synthetic files, and parquet-testing's
// data folder through a symbolic link (pt/).
class RemoteReadTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    root_ = new std::string(
        (std::filesystem::temp_directory_path() / ("strata_remote_read_test_" + std::to_string(::getpid()))).string());
    std::filesystem::create_directories(*root_);
    auto mixed = pt::WriteMixedFile(*root_ + "/mixed.parquet", kMixedRowGroups, kMixedRowsPerGroup);
    if (!mixed.ok()) setup_error_ = new std::string("mixed.parquet: " + mixed.status().ToString());
    Status wide = WriteWideFile(*root_ + "/wide.parquet");
    if (!wide.ok() && setup_error_ == nullptr) setup_error_ = new std::string("wide.parquet: " + wide.ToString());
    const std::string data = strata::testing::ParquetTestingDir();
    if (!data.empty()) {
      std::error_code ignored;
      std::filesystem::create_directory_symlink(std::filesystem::path(data) / "data", *root_ + "/pt", ignored);
    }
    if (!NginxTestServer::NginxInstalled()) return;
    auto server = NginxTestServer::Start(*root_);
    if (server.ok()) {
      server_ = std::move(server).MoveValueUnsafe().release();
    } else if (setup_error_ == nullptr) {
      setup_error_ = new std::string("nginx did not start: " + server.status().ToString());
    }
  }

  static void TearDownTestSuite() {
    delete server_;  // stops nginx
    server_ = nullptr;
    std::error_code ignored;
    std::filesystem::remove_all(*root_, ignored);
    delete root_;
    delete setup_error_;
    setup_error_ = nullptr;
  }

  void SetUp() override {
    if (setup_error_ != nullptr) FAIL() << *setup_error_;
    if (server_ == nullptr) {
      // Outside CI a missing nginx skips; in CI (CI=true) the tests must run.
      if (NginxTestServer::InCI()) FAIL() << "nginx is not installed, and CI=true requires the HTTP tests";
      GTEST_SKIP() << "nginx is not installed (/usr/sbin/nginx); HTTP tests skipped";
    }
  }

  // 400 INT32 columns of 100 rows in 4 row groups: ~1,600 column chunks' metadata.
  static Status WriteWideFile(const std::string& path) {
    std::vector<pt::ColumnOptions> columns;
    for (int c = 0; c < kWideColumns; ++c) {
      columns.push_back({.name = fmt::format("c{}", c), .physical_type = PhysicalType::kInt32});
    }
    STRATA_ASSIGN_OR_RETURN(auto builder, pt::TestFileBuilder::MakeForFile(columns, path));
    for (int g = 0; g < kWideRowGroups; ++g) {
      std::vector<pt::ColumnValues> values;
      for (int c = 0; c < kWideColumns; ++c) {
        values.emplace_back(PhysicalType::kInt32);
        for (int row = 0; row < 100; ++row) values.back().Append<int32_t>(g * 1'000'000 + c * 1000 + row);
      }
      STRATA_RETURN_NOT_OK(builder->AddRowGroup(values));
    }
    return builder->Finish().status();
  }

  static std::shared_ptr<HttpSource> OpenHttp(const std::string& path) {
    auto source = OpenHttpSource(server_->Url(path));
    EXPECT_TRUE(source.ok()) << source.status().ToString();
    return source.ok() ? *source : nullptr;
  }

  // nginx logs a request once the response is sent: poll briefly for the count to settle.
  static int64_t LoggedRequestsAtLeast(int64_t expected) {
    int64_t logged = 0;
    for (int i = 0; i < 100 && (logged = server_->LoggedRequests()) < expected; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return logged;
  }

  static inline std::string* root_ = nullptr;
  static inline std::string* setup_error_ = nullptr;
  static inline NginxTestServer* server_ = nullptr;
};

// Reads `local` and `remote` batch by batch with the same options and expects equal batches.
void ExpectSameBatches(FileReader& local, FileReader& remote, const BatchReadOptions& options,
                       const std::string& what) {
  auto local_batches = local.ReadBatches(options);
  auto remote_batches = remote.ReadBatches(options);
  ASSERT_TRUE(local_batches.ok()) << what << ": " << local_batches.status().ToString();
  ASSERT_TRUE(remote_batches.ok()) << what << ": " << remote_batches.status().ToString();
  for (int index = 0;; ++index) {
    auto expected = (*local_batches)->Next();
    auto actual = (*remote_batches)->Next();
    ASSERT_TRUE(expected.ok()) << what << ": " << expected.status().ToString();
    ASSERT_TRUE(actual.ok()) << what << ", batch " << index << ": " << actual.status().ToString();
    ASSERT_EQ(*expected == nullptr, *actual == nullptr) << what << ", batch " << index;
    if (*expected == nullptr) break;
    ASSERT_TRUE((*expected)->Equals(**actual)) << what << ", batch " << index;
  }
  EXPECT_EQ((*remote_batches)->memory_size(), 0) << what;
}

std::string PreBufferName(std::optional<bool> pre_buffer) {
  return pre_buffer ? (*pre_buffer ? "pre_buffer on" : "pre_buffer off") : "pre_buffer auto";
}

TEST_F(RemoteReadTest, MultiRowGroupFileEqualsLocalRead) {
  auto pool = MakeSystemMemoryPool();
  auto local = FileReader::OpenFile(*root_ + "/mixed.parquet", pool.get());
  ASSERT_TRUE(local.ok()) << local.status().ToString();
  ASSERT_EQ((*local)->num_row_groups(), kMixedRowGroups);
  // All columns and row groups; a column subset in another order; row groups out of order and
  // repeated (the cache must serve each, whatever was evicted before).
  std::vector<BatchReadOptions> reads(3);
  reads[0].batch_rows = 7'000;
  reads[1].columns = {3, 0, 4};
  reads[2].row_groups = {4, 1, 5, 1};
  reads[2].columns = {1, 2};
  for (std::optional<bool> pre_buffer : {std::optional<bool>(), std::optional<bool>(true), std::optional<bool>(false)}) {
    FileReaderOptions options;
    options.pre_buffer = pre_buffer;
    auto source = OpenHttp("mixed.parquet");
    ASSERT_NE(source, nullptr);
    auto remote = FileReader::Open(source, pool.get(), options);
    ASSERT_TRUE(remote.ok()) << remote.status().ToString();
    for (size_t r = 0; r < reads.size(); ++r) {
      ExpectSameBatches(**local, **remote, reads[r], fmt::format("{}, read {}", PreBufferName(pre_buffer), r));
    }
  }
  // The local reader's footer and schema stay charged until it goes.
  EXPECT_EQ(pool->bytes_in_use(),
            (*local)->footer().metadata_charge.bytes() + (*local)->descriptor().heap_bytes());
  local->reset();
  EXPECT_EQ(pool->bytes_in_use(), 0);
}

// Every parquet-testing file (not the encrypted ones) reads the same over HTTP as from disk: the
// same table, or an error of the same kind.
TEST_F(RemoteReadTest, ParquetTestingFilesEqualLocalReads) {
  STRATA_REQUIRE_PARQUET_TESTING();
  std::vector<std::string> names;
  for (const std::string& path : strata::testing::ParquetFilesIn(strata::testing::ParquetTestingFile("data"))) {
    names.push_back(std::filesystem::path(path).filename());
  }
  ASSERT_GE(names.size(), 40u);
  auto pool = MakeSystemMemoryPool();
  int equal_tables = 0;
  for (const std::string& name : names) {
    auto read_local = [&]() -> Result<std::shared_ptr<Table>> {
      STRATA_ASSIGN_OR_RETURN(auto reader, FileReader::OpenFile(strata::testing::ParquetTestingFile("data/" + name),
                                                                pool.get()));
      return reader->ReadTable();
    };
    const auto expected = read_local();
    for (bool pre_buffer : {true, false}) {
      SCOPED_TRACE(fmt::format("{}, pre_buffer {}", name, pre_buffer));
      auto source = OpenHttp("pt/" + name);
      ASSERT_NE(source, nullptr);
      FileReaderOptions options;
      options.pre_buffer = pre_buffer;
      auto read_remote = [&]() -> Result<std::shared_ptr<Table>> {
        STRATA_ASSIGN_OR_RETURN(auto reader, FileReader::Open(source, pool.get(), options));
        return reader->ReadTable();
      };
      const auto actual = read_remote();
      if (!expected.ok()) {
        ASSERT_FALSE(actual.ok()) << "local: " << expected.status().ToString();
        EXPECT_EQ(actual.status().code(), expected.status().code())
            << "local: " << expected.status().ToString() << "; remote: " << actual.status().ToString();
        continue;
      }
      ASSERT_TRUE(actual.ok()) << actual.status().ToString();
      EXPECT_TRUE((*expected)->Equals(**actual));
      ++equal_tables;
    }
  }
  RecordProperty("files", std::to_string(names.size()));
  RecordProperty("equal_tables", std::to_string(equal_tables));
  // Most of the corpus reads (the rest are files strata rejects on purpose, both ways).
  EXPECT_GE(equal_tables, 2 * static_cast<int>(names.size()) * 3 / 4);
}

// Opening costs the size probe (HEAD) and one ranged GET of the file's last 64 KB, which holds a
// small footer whole: request_count() == 2 after ReadFooter, and nginx logged 2 requests.
TEST_F(RemoteReadTest, FooterCostsOneRequest) {
  auto pool = MakeSystemMemoryPool();
  const int64_t logged_before = LoggedRequestsAtLeast(0);
  auto source = OpenHttp("mixed.parquet");
  ASSERT_NE(source, nullptr);
  EXPECT_EQ(source->request_count(), 1);  // HEAD
  auto footer = ReadFooter(*source, pool.get());
  ASSERT_TRUE(footer.ok()) << footer.status().ToString();
  EXPECT_EQ(footer->reads, 1);
  EXPECT_EQ(footer->metadata.row_groups.size(), static_cast<size_t>(kMixedRowGroups));
  EXPECT_LT(footer->metadata_length, 64 * 1024 - 8);
  EXPECT_EQ(source->request_count(), 2);
  EXPECT_EQ(LoggedRequestsAtLeast(logged_before + 2) - logged_before, 2);

  // Opening a FileReader costs the same (it reads the footer and nothing else).
  auto source2 = OpenHttp("mixed.parquet");
  ASSERT_NE(source2, nullptr);
  auto reader = FileReader::Open(source2, pool.get());
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  EXPECT_EQ(source2->request_count(), 2);
}

// A footer larger than the speculative tail read costs one more request, unless the tail read
// is made large enough to hold it.
TEST_F(RemoteReadTest, LargeFooterCostsASecondRequestUnlessTheTailReadCoversIt) {
  auto pool = MakeSystemMemoryPool();
  auto source = OpenHttp("wide.parquet");
  ASSERT_NE(source, nullptr);
  auto footer = ReadFooter(*source, pool.get());
  ASSERT_TRUE(footer.ok()) << footer.status().ToString();
  ASSERT_GT(footer->metadata_length, 64 * 1024) << "the wide file's footer should not fit the default tail read";
  EXPECT_EQ(footer->reads, 2);
  EXPECT_EQ(source->request_count(), 3);

  auto source2 = OpenHttp("wide.parquet");
  ASSERT_NE(source2, nullptr);
  FooterReadOptions options;
  options.speculative_tail_bytes = footer->metadata_length + 8 + 1024;
  auto footer2 = ReadFooter(*source2, pool.get(), options);
  ASSERT_TRUE(footer2.ok()) << footer2.status().ToString();
  EXPECT_EQ(footer2->reads, 1);
  EXPECT_EQ(source2->request_count(), 2);
  EXPECT_EQ(footer2->metadata.row_groups.size(), static_cast<size_t>(kWideRowGroups));
}

struct ScanRequests {
  int64_t source_requests = 0;  // HttpSource::request_count(), including the HEAD and footer
  int64_t logged_requests = 0;  // lines nginx logged for the same scan
  int64_t rows = 0;
};

// Opens `path` over HTTP and reads every batch of `read`.
ScanRequests CountScanRequests(NginxTestServer& server, const std::string& path, std::optional<bool> pre_buffer,
                               const BatchReadOptions& read = {}) {
  ScanRequests out;
  auto pool = MakeSystemMemoryPool();
  const int64_t logged_before = server.LoggedRequests();
  auto source = OpenHttpSource(server.Url(path));
  EXPECT_TRUE(source.ok()) << source.status().ToString();
  if (!source.ok()) return out;
  FileReaderOptions options;
  options.pre_buffer = pre_buffer;
  auto reader = FileReader::Open(*source, pool.get(), options);
  EXPECT_TRUE(reader.ok()) << reader.status().ToString();
  if (!reader.ok()) return out;
  auto batches = (*reader)->ReadBatches(read);
  EXPECT_TRUE(batches.ok()) << batches.status().ToString();
  if (!batches.ok()) return out;
  while (true) {
    auto batch = (*batches)->Next();
    EXPECT_TRUE(batch.ok()) << batch.status().ToString();
    if (!batch.ok() || !*batch) break;
    out.rows += (*batch)->num_rows();
  }
  out.source_requests = (*source)->request_count();
  for (int i = 0; i < 100; ++i) {
    out.logged_requests = server.LoggedRequests() - logged_before;
    if (out.logged_requests >= out.source_requests) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return out;
}

// Without pre-buffering every column chunk is its own request (5 per row group); with it, the
// chunks of a row group are contiguous and coalesce into one range, and row groups of under
// 4 MB are fetched together in waves: 2 + 30 requests become 2 + 2.
TEST_F(RemoteReadTest, PreBufferingCoalescesRequests) {
  const ScanRequests off = CountScanRequests(*server_, "mixed.parquet", false);
  const ScanRequests on = CountScanRequests(*server_, "mixed.parquet", true);
  const ScanRequests automatic = CountScanRequests(*server_, "mixed.parquet", std::nullopt);
  for (const ScanRequests* scan : {&off, &on, &automatic}) {
    EXPECT_EQ(scan->rows, kMixedRowGroups * kMixedRowsPerGroup);
    EXPECT_EQ(scan->logged_requests, scan->source_requests);
  }
  EXPECT_GE(off.source_requests, 2 + 5 * kMixedRowGroups);
  EXPECT_LE(on.source_requests, 2 + kMixedRowGroups / 2);
  EXPECT_EQ(automatic.source_requests, on.source_requests);  // http:// turns pre-buffering on
  RecordProperty("requests_pre_buffer_off", std::to_string(off.source_requests));
  RecordProperty("requests_pre_buffer_on", std::to_string(on.source_requests));

  // Two of five columns, with the default 8 KB hole limit: only the chunks that touch merge.
  BatchReadOptions subset;
  subset.columns = {0, 3};
  const ScanRequests subset_off = CountScanRequests(*server_, "mixed.parquet", false, subset);
  const ScanRequests subset_on = CountScanRequests(*server_, "mixed.parquet", true, subset);
  EXPECT_EQ(subset_off.rows, subset_on.rows);
  EXPECT_GE(subset_off.source_requests, 2 + 2 * kMixedRowGroups);
  EXPECT_LE(subset_on.source_requests, subset_off.source_requests);
  EXPECT_EQ(subset_on.logged_requests, subset_on.source_requests);

  // A row group listed twice, back to back or apart, is fetched once (one range per distinct
  // row group, in one wave), not once through the cache and again chunk by chunk.
  const std::vector<std::pair<std::vector<int>, int>> repeats = {{{1, 1}, 1}, {{2, 0, 2}, 2}};
  for (const auto& [row_groups, distinct] : repeats) {
    BatchReadOptions repeated;
    repeated.row_groups = row_groups;
    const ScanRequests scan = CountScanRequests(*server_, "mixed.parquet", true, repeated);
    EXPECT_EQ(scan.rows, static_cast<int64_t>(row_groups.size()) * kMixedRowsPerGroup);
    EXPECT_EQ(scan.source_requests, 2 + distinct) << "row groups " << fmt::format("{}", fmt::join(row_groups, ", "));
  }
}

}  // namespace
}  // namespace strata::parquet
