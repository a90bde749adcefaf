// S3TestServer: test support (not part of strata_io). Runs scripts/s3-test-server: s3rver behind
// a proxy on 127.0.0.1 that verifies every request's AWS Signature V4, injects faults and
// latency on request, logs requests, and tracks multipart uploads. Stops it on destruction.
// Needs node and the npm packages (npm ci at the repository root); see Available().
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "strata/util/result.h"

namespace strata::testing {

struct S3TestServerOptions {
  std::vector<std::string> buckets;  // created at start
  std::string access_key = "STRATATESTACCESSKEY";
  std::string secret_key = "strata-test-secret-key";
  std::string region = "us-east-1";
  std::string session_token;  // when set, every request must carry and sign it
  bool allow_anonymous = false;
  int64_t min_part_size = 5 * 1024 * 1024;  // CompleteMultipartUpload's EntityTooSmall limit
};

class S3TestServer {
 public:
  // NotImplemented when node or the npm packages are missing; IOError when the server fails.
  static Result<std::unique_ptr<S3TestServer>> Start(const S3TestServerOptions& options = {});
  ~S3TestServer();
  S3TestServer(const S3TestServer&) = delete;
  S3TestServer& operator=(const S3TestServer&) = delete;

  // True when node and node_modules/s3rver are there.
  static bool Available();

  int port() const { return port_; }
  std::string endpoint() const;  // "http://127.0.0.1:<port>"
  const std::string& access_key() const { return options_.access_key; }
  const std::string& secret_key() const { return options_.secret_key; }
  const std::string& region() const { return options_.region; }
  const std::string& session_token() const { return options_.session_token; }
  const std::string& state_dir() const { return state_dir_; }

  // Replaces the fault rules: {"rules":[{"method":"GET","path_regex":"...","query":"uploadId",
  // "action":"status"|"drop"|"truncate"|"delay","status":503,"code":"SlowDown","times":2,
  // "skip":0,"after_bytes":N,"delay_ms":N}, ...]}. See testing/s3/s3-test-server.mjs.
  Status SetFaults(const std::string& json);
  // A delay before each answer and a cap on the answer body's rate (0: none).
  Status SetNetwork(int latency_ms, int64_t bandwidth_bytes_per_s);
  // Clears faults and network settings (the statistics too when `stats`).
  Status Reset(bool stats = false);
  // JSON: {"requests","by_method","by_status","failed_verifications","anonymous","faults_fired",
  // "bytes_in","bytes_out"}.
  Result<std::string> Stats();
  // JSON list of the multipart uploads neither completed nor aborted: [{"bucket","key",
  // "uploadId","parts"}]; "[]" when none is left open.
  Result<std::string> OpenUploads();

  // Through testing/s3/s3-client.mjs (AWS's SDK), independent of strata's S3 client.
  Status PutFile(const std::string& bucket, const std::string& key, const std::string& local_path);
  Status GetFile(const std::string& bucket, const std::string& key, const std::string& local_path);
  // Every regular file of `local_dir` (not its folders) as <key_prefix><file name>.
  Status PutDirectory(const std::string& bucket, const std::string& key_prefix, const std::string& local_dir);
  Result<std::vector<std::string>> List(const std::string& bucket, const std::string& prefix = "");

  // S3 requests logged so far (STATE/requests.log; control requests are not logged).
  int64_t LoggedRequests() const;

 private:
  S3TestServer(S3TestServerOptions options, std::string state_dir, int port)
      : options_(std::move(options)), state_dir_(std::move(state_dir)), port_(port) {}
  Result<std::string> Control(const std::string& method, const std::string& what, const std::string& body);
  Result<std::string> RunClient(const std::vector<std::string>& args);

  S3TestServerOptions options_;
  std::string state_dir_;
  int port_;
};

// One server for a test suite (SetUpTestSuite starts it, TearDownTestSuite stops it), and why
// a test cannot run when it is not there: a start that failed, or node and the npm packages
// missing, which is a failure under CI=true and a skip elsewhere.
class SuiteS3TestServer {
 public:
  void Start(const S3TestServerOptions& options);
  void Stop() { server_.reset(); }
  S3TestServer* get() const { return server_.get(); }
  // "" when the server runs; otherwise the reason, with *failure set when it must fail the test.
  std::string Unavailable(bool* failure) const;

 private:
  std::unique_ptr<S3TestServer> server_;
  std::string start_error_;
};

}  // namespace strata::testing

// Skips (or fails, see SuiteS3TestServer) a test when the server cannot run.
#define STRATA_REQUIRE_S3_SERVER(suite)             \
  do {                                              \
    bool failure = false;                           \
    const std::string why = (suite).Unavailable(&failure); \
    if (!why.empty()) {                             \
      if (failure) FAIL() << why;                   \
      GTEST_SKIP() << why;                          \
    }                                               \
  } while (false)

