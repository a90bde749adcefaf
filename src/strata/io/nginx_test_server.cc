#include "strata/io/nginx_test_server.h"

#include "strata/io/test_service.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace strata::testing {

namespace {

std::string ScriptPath() { return SourceDir() + "/scripts/nginx-test-server"; }

}  // namespace

bool NginxTestServer::NginxInstalled() {
  const char* env = std::getenv("NGINX");
  if (env != nullptr && *env != 0) return ::access(env, X_OK) == 0;
  if (::access("/usr/sbin/nginx", X_OK) == 0) return true;
  return std::system("command -v nginx >/dev/null 2>&1") == 0;
}

bool NginxTestServer::InCI() {
  const char* ci = std::getenv("CI");
  return ci != nullptr && std::string_view(ci) == "true";
}

Result<std::unique_ptr<NginxTestServer>> NginxTestServer::Start(const std::string& root_dir) {
  if (!NginxInstalled()) return Status::NotImplemented("nginx is not installed");
  std::string pattern = (std::filesystem::temp_directory_path() / "strata_nginx_XXXXXX").string();
  if (::mkdtemp(pattern.data()) == nullptr) return Status::IOError("cannot create a temporary folder for nginx");
  const std::string command =
      ShellQuote(ScriptPath()) + " start " + ShellQuote(root_dir) + " " + ShellQuote(pattern) + " 2>&1";
  std::string output;
  const int rc = RunCommand(command, &output);
  int port = 0;
  if (rc != 0 || std::sscanf(output.c_str(), "%d", &port) != 1 || port <= 0) {
    std::error_code ignored;
    std::filesystem::remove_all(pattern, ignored);
    return Status::IOError("'{}' failed (exit {}): {}", command, rc, output);
  }
  return std::unique_ptr<NginxTestServer>(new NginxTestServer(pattern, port));
}

NginxTestServer::~NginxTestServer() {
  const std::string command = ShellQuote(ScriptPath()) + " stop " + ShellQuote(state_dir_) + " >/dev/null 2>&1";
  if (std::system(command.c_str()) != 0) std::fprintf(stderr, "warning: '%s' failed\n", command.c_str());
  std::error_code ignored;
  std::filesystem::remove_all(state_dir_, ignored);
}

std::string NginxTestServer::Url(std::string_view path) const {
  return "http://127.0.0.1:" + std::to_string(port_) + "/" + std::string(path);
}

int64_t NginxTestServer::LoggedRequests() const {
  return CountLines(state_dir_ + "/access.log");
}

}  // namespace strata::testing
