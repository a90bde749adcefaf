// The S3 source, sink and listing against a real S3 server started here (s3rver behind a proxy
// that verifies every request's SigV4 signature with AWS's own signer, and injects faults). The
// objects strata reads are put there by AWS's SDK, and the ones it writes are fetched with it.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <random>

#include "strata/io/location.h"
#include "strata/io/s3/s3_listing.h"
#include "strata/io/s3/s3_sink.h"
#include "strata/io/s3/s3_source.h"
#include "strata/io/s3_test_server.h"
#include "strata/io/source_input_stream.h"
#include "strata/memory/memory_pool.h"

namespace strata::s3 {
namespace {

using strata::testing::S3TestServer;

std::string RandomBytes(size_t size, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::string bytes(size, '\0');
  for (auto& c : bytes) c = static_cast<char>(rng());
  return bytes;
}

class S3ServerTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new std::filesystem::path(std::filesystem::temp_directory_path() /
                                     ("strata_s3_test_" + std::to_string(::getpid())));
    std::filesystem::create_directories(*dir_);
    testing::S3TestServerOptions options;
    options.buckets = {"data", "other"};
    suite_.Start(options);
    server_ = suite_.get();
  }
  static void TearDownTestSuite() {
    suite_.Stop();
    server_ = nullptr;
    std::error_code ignored;
    std::filesystem::remove_all(*dir_, ignored);
    delete dir_;
  }

  void SetUp() override {
    STRATA_REQUIRE_S3_SERVER(suite_);
    ASSERT_TRUE(server_->Reset().ok());
  }

  static S3Options Options() {
    S3Options options;
    options.endpoint_url = server_->endpoint();
    options.region = server_->region();
    options.access_key_id = server_->access_key();
    options.secret_access_key = server_->secret_key();
    options.part_size = 5 << 20;
    options.http.initial_backoff_ms = 1;
    options.http.max_backoff_ms = 4;
    return options;
  }
  static std::shared_ptr<S3Client> Client(const S3Options& options = Options()) {
    auto client = S3Client::Make(options);
    EXPECT_TRUE(client.ok()) << client.status().ToString();
    return *client;
  }
  // A local file holding `bytes`, uploaded by AWS's SDK to data/<key>.
  static void Upload(const std::string& key, const std::string& bytes) {
    const auto local = *dir_ / ("upload_" + std::to_string(counter_++));
    std::ofstream(local, std::ios::binary) << bytes;
    ASSERT_TRUE(server_->PutFile("data", key, local.string()).ok()) << key;
  }
  // data/<key> fetched by AWS's SDK; nullopt when there is no such object.
  static std::optional<std::string> Download(const std::string& key) {
    const auto local = *dir_ / ("download_" + std::to_string(counter_++));
    if (!server_->GetFile("data", key, local.string()).ok()) return std::nullopt;
    std::ifstream in(local, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  }
  static Status WriteObject(const std::string& url, const std::string& bytes, size_t piece, const S3Options& options = Options()) {
    STRATA_ASSIGN_OR_RETURN(auto sink, OpenS3Sink(Client(options), url, SystemMemoryPool()));
    for (size_t at = 0; at < bytes.size(); at += piece) {
      STRATA_RETURN_NOT_OK(sink->Write(bytes.data() + at, static_cast<int64_t>(std::min(piece, bytes.size() - at))));
    }
    return sink->Close();
  }

  static bool NoOpenUploads() {
    auto uploads = server_->OpenUploads();
    return uploads.ok() && uploads->substr(0, uploads->find_last_not_of(" \n") + 1) == "[]";
  }

  static inline testing::SuiteS3TestServer suite_;
  static inline S3TestServer* server_ = nullptr;
  static inline std::filesystem::path* dir_ = nullptr;
  static inline int counter_ = 0;
};

TEST_F(S3ServerTest, RangedReadsEqualTheObjectForKeysWithSpacesAndNonAscii) {
  const std::string bytes = RandomBytes(1'000'003, 1);
  for (const std::string key : {"plain.bin", "dir with space/na\xC3\xAFve \xC3\xBC+&=.bin", "a/b/c/d.bin"}) {
    Upload(key, bytes);
    auto source = S3Source::Open(Client(), "s3://data/" + key);
    ASSERT_TRUE(source.ok()) << source.status().ToString();
    EXPECT_EQ(*(*source)->Size(), static_cast<int64_t>(bytes.size()));
    EXPECT_FALSE((*source)->etag().empty());
    for (const auto& [offset, length] : std::vector<std::pair<int64_t, int64_t>>{{0, 1}, {0, 1'000'003}, {999'999, 4}, {12345, 65536}, {500, 0}}) {
      std::string got(static_cast<size_t>(length), '\0');
      ASSERT_TRUE((*source)->ReadAt(offset, length, reinterpret_cast<uint8_t*>(got.data())).ok()) << key;
      EXPECT_EQ(got, bytes.substr(static_cast<size_t>(offset), static_cast<size_t>(length))) << key << " @" << offset;
    }
    uint8_t byte = 0;
    EXPECT_FALSE((*source)->ReadAt(1'000'003, 1, &byte).ok());  // past the end: refused locally
  }
}

TEST_F(S3ServerTest, AnObjectReplacedMidReadFailsLoudly) {
  Upload("changing.bin", RandomBytes(10'000, 2));
  auto source = S3Source::Open(Client(), "s3://data/changing.bin");
  ASSERT_TRUE(source.ok());
  uint8_t head[16];
  ASSERT_TRUE((*source)->ReadAt(0, 16, head).ok());
  Upload("changing.bin", RandomBytes(10'000, 3));
  const Status status = (*source)->ReadAt(16, 16, head);
  ASSERT_FALSE(status.ok());
  EXPECT_NE(status.message().find("changed while it was read"), std::string::npos) << status.ToString();
}

TEST_F(S3ServerTest, ErrorsNameUrlStatusAndCodeButNeverTheSecret) {
  Upload("present.bin", "x");
  auto missing_key = S3Source::Open(Client(), "s3://data/absent.bin");
  ASSERT_FALSE(missing_key.ok());
  EXPECT_NE(missing_key.status().message().find("'s3://data/absent.bin': HTTP 404 (not found) NoSuchKey"), std::string::npos)
      << missing_key.status().ToString();
  auto missing_bucket = S3Source::Open(Client(), "s3://nosuchbucket/x.bin");
  ASSERT_FALSE(missing_bucket.ok());
  EXPECT_NE(missing_bucket.status().message().find("NoSuchBucket"), std::string::npos);
  S3Options wrong = Options();
  wrong.secret_access_key = "wrong-secret-do-not-print";
  auto refused = S3Source::Open(Client(wrong), "s3://data/present.bin");
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("HTTP 403 (forbidden) SignatureDoesNotMatch"), std::string::npos)
      << refused.status().ToString();
  EXPECT_EQ(refused.status().message().find("wrong-secret"), std::string::npos);
  // 403 fails at once: one HEAD and the one-byte GET that explains it, no retries.
  auto wrong_client = Client(wrong);
  (void)S3Source::Open(wrong_client, "s3://data/present.bin");
  EXPECT_EQ(wrong_client->request_count(), 2);
  EXPECT_EQ(wrong_client->retry_count(), 0);
}

TEST_F(S3ServerTest, ThrottlingAndDroppedConnectionsAreRetried) {
  const std::string bytes = RandomBytes(50'000, 4);
  Upload("retry.bin", bytes);
  auto client = Client();
  auto source = S3Source::Open(client, "s3://data/retry.bin");
  ASSERT_TRUE(source.ok());
  ASSERT_TRUE(server_->SetFaults(R"({"rules":[{"method":"GET","action":"status","status":503,"code":"SlowDown","times":2},
                                              {"method":"GET","action":"drop","times":1}]})").ok());
  std::string got(bytes.size(), '\0');
  ASSERT_TRUE((*source)->ReadAt(0, static_cast<int64_t>(bytes.size()), reinterpret_cast<uint8_t*>(got.data())).ok());
  EXPECT_EQ(got, bytes);
  // Three faults fired; curl itself retries a request whose reused connection was reset, so
  // the client may count two retries or three.
  EXPECT_GE(client->retry_count(), 2);
  EXPECT_NE(server_->Stats()->find("\"faults_fired\":3"), std::string::npos) << *server_->Stats();
  // More failures than retries: the error says how many attempts were made.
  ASSERT_TRUE(server_->SetFaults(R"({"rules":[{"method":"GET","action":"status","status":503,"code":"SlowDown","times":100}]})").ok());
  const Status status = (*source)->ReadAt(0, 10, reinterpret_cast<uint8_t*>(got.data()));
  ASSERT_FALSE(status.ok());
  EXPECT_NE(status.message().find("SlowDown"), std::string::npos) << status.ToString();
  EXPECT_NE(status.message().find("after 4 attempts"), std::string::npos) << status.ToString();
}

TEST_F(S3ServerTest, ATimedOutRequestIsRetried) {
  const std::string bytes = RandomBytes(10'000, 12);
  Upload("slow.bin", bytes);
  S3Options options = Options();
  options.http.request_timeout_ms = 300;
  auto client = Client(options);
  auto source = S3Source::Open(client, "s3://data/slow.bin");
  ASSERT_TRUE(source.ok());
  // The first GET answers after 3 s: past the 300 ms limit, so it is abandoned and sent again.
  ASSERT_TRUE(server_->SetFaults(R"({"rules":[{"method":"GET","action":"delay","delay_ms":3000,"times":1}]})").ok());
  std::string got(bytes.size(), '\0');
  const Status status = (*source)->ReadAt(0, static_cast<int64_t>(bytes.size()), reinterpret_cast<uint8_t*>(got.data()));
  ASSERT_TRUE(status.ok()) << status.ToString();
  EXPECT_EQ(got, bytes);
  EXPECT_EQ(client->retry_count(), 1);
}

TEST_F(S3ServerTest, SmallOutputIsOnePutAndLargeOutputAMultipartUpload) {
  const std::string small = RandomBytes(1000, 5);
  ASSERT_TRUE(WriteObject("s3://data/out/small.bin", small, 100).ok());
  EXPECT_EQ(Download("out/small.bin"), small);
  const std::string large = RandomBytes((5 << 20) * 3 + 12'345, 6);  // 4 parts of 5 MiB
  const Status status = WriteObject("s3://data/out/large \xC3\xA9.bin", large, 1 << 20);
  ASSERT_TRUE(status.ok()) << status.ToString();
  EXPECT_EQ(Download("out/large \xC3\xA9.bin"), large);
  EXPECT_TRUE(NoOpenUploads()) << *server_->OpenUploads();
  const Status empty = WriteObject("s3://data/out/empty.bin", "", 1);
  ASSERT_TRUE(empty.ok()) << empty.ToString();
  EXPECT_EQ(Download("out/empty.bin"), "");
}

TEST_F(S3ServerTest, AFailedOrAbandonedWriteLeavesNoObjectAndNoOpenUpload) {
  const std::string before = RandomBytes(100, 7);
  Upload("out/kept.bin", before);
  // The third part fails past the retries: the upload is aborted, the old object stays.
  ASSERT_TRUE(server_->SetFaults(R"({"rules":[{"method":"PUT","query":"partNumber=3","action":"status","status":500,"code":"InternalError","times":100}]})").ok());
  const Status failed = WriteObject("s3://data/out/kept.bin", RandomBytes((5 << 20) * 4, 8), 1 << 20);
  ASSERT_FALSE(failed.ok());
  EXPECT_NE(failed.message().find("UploadPart 3"), std::string::npos) << failed.ToString();
  EXPECT_EQ(Download("out/kept.bin"), before);
  EXPECT_TRUE(NoOpenUploads()) << *server_->OpenUploads();
  ASSERT_TRUE(server_->Reset().ok());
  // Abandoned (destroyed without Close) after two parts went up: aborted too.
  {
    auto sink = OpenS3Sink(Client(), "s3://data/out/abandoned.bin", SystemMemoryPool());
    ASSERT_TRUE(sink.ok());
    const std::string part = RandomBytes((5 << 20) * 2 + 10, 9);
    ASSERT_TRUE((*sink)->Write(part.data(), static_cast<int64_t>(part.size())).ok());
  }
  EXPECT_EQ(Download("out/abandoned.bin"), std::nullopt);
  EXPECT_TRUE(NoOpenUploads()) << *server_->OpenUploads();
}

TEST_F(S3ServerTest, WriterMemoryIsBoundedByThePartsInFlight) {
  auto pool = MakeSystemMemoryPool();
  S3Options options = Options();
  options.max_parts_in_flight = 2;
  auto sink = OpenS3Sink(Client(options), "s3://data/out/bounded.bin", pool.get());
  ASSERT_TRUE(sink.ok());
  const std::string piece = RandomBytes(1 << 20, 10);
  for (int i = 0; i < 40; ++i) ASSERT_TRUE((*sink)->Write(piece.data(), static_cast<int64_t>(piece.size())).ok());
  ASSERT_TRUE((*sink)->Close().ok());
  EXPECT_LE(pool->peak_bytes(), 3 * (int64_t{5} << 20) + (1 << 16));  // (2 in flight + 1) parts
  EXPECT_EQ(pool->bytes_in_use(), 0);
  EXPECT_EQ(Download("out/bounded.bin")->size(), 40u << 20);
}

TEST_F(S3ServerTest, ListingFollowsContinuationTokens) {
  // 1,005 small objects: more than one ListObjectsV2 page of 1,000.
  for (int i = 0; i < 1005; ++i) {
    ASSERT_TRUE(WriteObject(fmt::format("s3://other/many/part-{:04d}.bin", i), "x", 1).ok());
  }
  ASSERT_TRUE(WriteObject("s3://other/manyelse.bin", "y", 1).ok());
  auto client = Client();
  auto objects = ListObjects(*client, "other", "many/");
  ASSERT_TRUE(objects.ok()) << objects.status().ToString();
  ASSERT_EQ(objects->size(), 1005u);
  EXPECT_EQ(objects->front().key, "many/part-0000.bin");
  EXPECT_EQ(objects->back().key, "many/part-1004.bin");
  EXPECT_EQ(objects->front().size, 1);
  StorageOptions storage;
  storage.s3 = Options();
  auto entries = ListObjectsUnder("s3://other/many", storage);
  ASSERT_TRUE(entries.ok());
  EXPECT_EQ(entries->size(), 1006u);
  EXPECT_EQ(entries->back().location, "s3://other/manyelse.bin");
}

TEST_F(S3ServerTest, SequentialStreamReadsTheObjectInChunks) {
  const std::string bytes = RandomBytes(3'000'001, 11);
  Upload("stream.bin", bytes);
  auto source = S3Source::Open(Client(), "s3://data/stream.bin");
  ASSERT_TRUE(source.ok());
  auto stream = MakeSourceInputStream(*source, SystemMemoryPool(), 1 << 20);
  ASSERT_TRUE(stream.ok());
  std::string got;
  std::string chunk(70'000, '\0');
  while (true) {
    auto n = (*stream)->Read({reinterpret_cast<uint8_t*>(chunk.data()), chunk.size()});
    ASSERT_TRUE(n.ok());
    if (*n == 0) break;
    got.append(chunk.data(), static_cast<size_t>(*n));
  }
  EXPECT_EQ(got, bytes);
  EXPECT_EQ((*source)->read_count(), 3);  // 1 MiB, 1 MiB, the rest
}

TEST(S3SessionTokenTest, TemporaryCredentialsSignTheirToken) {
  testing::S3TestServerOptions server_options;
  server_options.buckets = {"tok"};
  server_options.session_token = "FwoGZXIvYXdzEXAMPLETOKEN//+=";
  testing::SuiteS3TestServer suite;  // a server of its own, with other settings
  suite.Start(server_options);
  STRATA_REQUIRE_S3_SERVER(suite);
  S3TestServer* server = suite.get();
  S3Options options;
  options.endpoint_url = server->endpoint();
  options.access_key_id = server->access_key();
  options.secret_access_key = server->secret_key();
  options.session_token = server_options.session_token;
  auto client = S3Client::Make(options);
  ASSERT_TRUE(client.ok());
  auto sink = OpenS3Sink(*client, "s3://tok/a.bin", SystemMemoryPool());
  ASSERT_TRUE(sink.ok());
  ASSERT_TRUE((*sink)->Write("abc", 3).ok());
  ASSERT_TRUE((*sink)->Close().ok());
  EXPECT_TRUE(S3Source::Open(*client, "s3://tok/a.bin").ok());
  options.session_token.clear();
  auto without = S3Source::Open(*S3Client::Make(options), "s3://tok/a.bin");
  EXPECT_FALSE(without.ok());
}

TEST(S3AnonymousTest, PublicBucketsReadWithoutCredentials) {
  testing::S3TestServerOptions server_options;
  server_options.buckets = {"pub"};
  server_options.allow_anonymous = true;
  testing::SuiteS3TestServer suite;  // a server of its own, with other settings
  suite.Start(server_options);
  STRATA_REQUIRE_S3_SERVER(suite);
  S3TestServer* server = suite.get();
  const auto local = std::filesystem::temp_directory_path() / ("strata_s3_anon_" + std::to_string(::getpid()));
  std::ofstream(local, std::ios::binary) << "public bytes";
  ASSERT_TRUE(server->PutFile("pub", "open.txt", local.string()).ok());
  std::filesystem::remove(local);
  S3Options options;
  options.endpoint_url = server->endpoint();
  options.anonymous = true;
  auto client = S3Client::Make(options);
  ASSERT_TRUE(client.ok());
  auto source = S3Source::Open(*client, "s3://pub/open.txt");
  ASSERT_TRUE(source.ok()) << source.status().ToString();
  std::string got(12, '\0');
  ASSERT_TRUE((*source)->ReadAt(0, 12, reinterpret_cast<uint8_t*>(got.data())).ok());
  EXPECT_EQ(got, "public bytes");
  // The proxy saw unsigned requests (HEAD and GET), and let them through.
  const std::string stats = *server->Stats();
  const size_t at = stats.find("\"anonymous\":");
  ASSERT_NE(at, std::string::npos) << stats;
  EXPECT_GE(std::atoi(stats.c_str() + at + 12), 2) << stats;
}

}  // namespace
}  // namespace strata::s3
