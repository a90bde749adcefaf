#include "strata/io/s3_test_server.h"

#include "strata/io/test_service.h"

#include <curl/curl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <mutex>

#include <fmt/format.h>

namespace strata::testing {

namespace {

size_t AppendBody(char* data, size_t size, size_t count, void* out) {
  static_cast<std::string*>(out)->append(data, size * count);
  return size * count;
}

}  // namespace

bool S3TestServer::Available() {
  const std::string root = SourceDir();
  return std::filesystem::exists(root + "/node_modules/s3rver/package.json") &&
         std::system("command -v node >/dev/null 2>&1") == 0;
}

Result<std::unique_ptr<S3TestServer>> S3TestServer::Start(const S3TestServerOptions& options) {
  if (!Available()) return Status::NotImplemented("node or the npm packages (npm ci) are missing");
  std::string pattern = (std::filesystem::temp_directory_path() / "strata_s3_XXXXXX").string();
  if (::mkdtemp(pattern.data()) == nullptr) return Status::IOError("cannot create a temporary folder for the S3 server");
  // --parent-pid: the server exits by itself if this process dies without stopping it.
  // (fmt rather than "literal" + temporary: GCC 12 warns falsely on that, -Wrestrict.)
  std::string command = fmt::format("{} start {} --parent-pid {} --access-key {} --secret {} --region {} --min-part-size {}",
                                    ShellQuote(SourceDir() + "/scripts/s3-test-server"), ShellQuote(pattern),
                                    ::getpid(), ShellQuote(options.access_key), ShellQuote(options.secret_key),
                                    ShellQuote(options.region), options.min_part_size);
  for (const std::string& bucket : options.buckets) command += fmt::format(" --bucket {}", ShellQuote(bucket));
  if (!options.session_token.empty()) command += fmt::format(" --session-token {}", ShellQuote(options.session_token));
  if (options.allow_anonymous) command += " --allow-anonymous";
  command += " 2>&1";
  std::string output;
  const int rc = RunCommand(command, &output);
  int port = 0;
  if (rc != 0 || std::sscanf(output.c_str(), "%d", &port) != 1 || port <= 0) {
    std::error_code ignored;
    std::filesystem::remove_all(pattern, ignored);
    if (rc == 77) return Status::NotImplemented("{}", output);
    return Status::IOError("'{}' failed (exit {}): {}", command, rc, output);
  }
  return std::unique_ptr<S3TestServer>(new S3TestServer(options, pattern, port));
}

S3TestServer::~S3TestServer() {
  const std::string command = fmt::format("{} stop {} >/dev/null 2>&1", ShellQuote(SourceDir() + "/scripts/s3-test-server"),
                                          ShellQuote(state_dir_));
  if (std::system(command.c_str()) != 0) std::fprintf(stderr, "warning: '%s' failed\n", command.c_str());
  std::error_code ignored;
  std::filesystem::remove_all(state_dir_, ignored);
}

std::string S3TestServer::endpoint() const { return fmt::format("http://127.0.0.1:{}", port_); }

Result<std::string> S3TestServer::Control(const std::string& method, const std::string& what,
                                          const std::string& body) {
  static std::once_flag once;  // curl_global_init is not thread-safe: once, before any handle
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
  CURL* curl = curl_easy_init();
  if (curl == nullptr) return Status::IOError("curl_easy_init failed");
  const std::string url = endpoint() + "/__control/" + what;
  std::string answer;
  curl_slist* headers = curl_slist_append(nullptr, "Content-Type: application/json");
  curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
  curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, 10000L);
  curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, method.c_str());
  curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
  if (method == "POST") {
    curl_easy_setopt(curl, CURLOPT_POSTFIELDS, body.c_str());
    curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE, static_cast<long>(body.size()));
  }
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, AppendBody);
  curl_easy_setopt(curl, CURLOPT_WRITEDATA, &answer);
  const CURLcode code = curl_easy_perform(curl);
  long status = 0;
  curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
  curl_slist_free_all(headers);
  curl_easy_cleanup(curl);
  if (code != CURLE_OK) return Status::IOError("{} {}: {}", method, url, curl_easy_strerror(code));
  if (status != 200) return Status::IOError("{} {}: HTTP {}: {}", method, url, status, answer);
  return answer;
}

Status S3TestServer::SetFaults(const std::string& json) { return Control("POST", "faults", json).status(); }

Status S3TestServer::SetNetwork(int latency_ms, int64_t bandwidth_bytes_per_s) {
  const std::string json =
      fmt::format(R"({{"latency_ms":{},"bandwidth_bytes_per_s":{}}})", latency_ms, bandwidth_bytes_per_s);
  return Control("POST", "network", json).status();
}

Status S3TestServer::Reset(bool stats) {
  return Control("POST", "reset", stats ? "{\"stats\":true}" : "{}").status();
}

Result<std::string> S3TestServer::Stats() { return Control("GET", "stats", ""); }

Result<std::string> S3TestServer::OpenUploads() { return Control("GET", "uploads", ""); }

Result<std::string> S3TestServer::RunClient(const std::vector<std::string>& args) {
  std::string command = fmt::format("node {} --endpoint {} --access-key {} --secret {} --region {}",
                                    ShellQuote(SourceDir() + "/testing/s3/s3-client.mjs"), ShellQuote(endpoint()),
                                    ShellQuote(options_.access_key), ShellQuote(options_.secret_key),
                                    ShellQuote(options_.region));
  if (!options_.session_token.empty()) command += fmt::format(" --session-token {}", ShellQuote(options_.session_token));
  command += " --";  // a key may start with '-'
  for (const std::string& arg : args) command += fmt::format(" {}", ShellQuote(arg));
  // stderr (the S3 error) goes to a file of its own, so stdout stays the command's output alone.
  static std::atomic<int> calls{0};
  const std::string error_file = fmt::format("{}/client-error-{}.txt", state_dir_, ++calls);
  command += fmt::format(" 2>{}", ShellQuote(error_file));
  std::string output;
  const int rc = RunCommand(command, &output);
  std::string error;
  {
    std::ifstream error_stream(error_file);
    error.assign(std::istreambuf_iterator<char>(error_stream), std::istreambuf_iterator<char>());
  }
  std::error_code ignored;
  std::filesystem::remove(error_file, ignored);
  if (rc == 0) return output;
  while (!error.empty() && (error.back() == '\n' || error.back() == '\r')) error.pop_back();
  return Status::IOError("s3-client {} failed (exit {}): {}", args.empty() ? "" : args[0], rc, error);
}

Status S3TestServer::PutFile(const std::string& bucket, const std::string& key, const std::string& local_path) {
  return RunClient({"put", bucket, key, local_path}).status();
}

Status S3TestServer::PutDirectory(const std::string& bucket, const std::string& key_prefix,
                                  const std::string& local_dir) {
  return RunClient({"put-dir", bucket, key_prefix, local_dir}).status();
}

Status S3TestServer::GetFile(const std::string& bucket, const std::string& key, const std::string& local_path) {
  return RunClient({"get", bucket, key, local_path}).status();
}

Result<std::vector<std::string>> S3TestServer::List(const std::string& bucket, const std::string& prefix) {
  STRATA_ASSIGN_OR_RETURN(const std::string output, RunClient({"list", bucket, prefix}));
  // One "KEY<TAB>SIZE" line per object: the key is everything before the last tab.
  std::vector<std::string> keys;
  size_t start = 0;
  while (start < output.size()) {
    size_t end = output.find('\n', start);
    if (end == std::string::npos) end = output.size();
    const std::string line = output.substr(start, end - start);
    const size_t tab = line.rfind('\t');
    if (tab != std::string::npos) keys.push_back(line.substr(0, tab));
    start = end + 1;
  }
  return keys;
}

int64_t S3TestServer::LoggedRequests() const {
  return CountLines(state_dir_ + "/requests.log");
}

void SuiteS3TestServer::Start(const S3TestServerOptions& options) {
  if (!S3TestServer::Available()) return;
  auto server = S3TestServer::Start(options);
  if (server.ok()) {
    server_ = std::move(server).MoveValueUnsafe();
  } else {
    start_error_ = server.status().ToString();
  }
}

std::string SuiteS3TestServer::Unavailable(bool* failure) const {
  *failure = true;
  if (server_ != nullptr) return "";
  if (!start_error_.empty()) return "the S3 test server did not start: " + start_error_;
  const char* ci = std::getenv("CI");
  *failure = ci != nullptr && std::string_view(ci) == "true";
  return "node or node_modules/s3rver missing (npm ci): the S3 tests cannot run";
}

}  // namespace strata::testing
