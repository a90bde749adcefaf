// NginxTestServer: test and benchmark support (not part of strata_io). Runs
// scripts/nginx-test-server to serve a folder over HTTP on 127.0.0.1 with byte ranges, for
// the HTTP source's tests and benchmarks; stops it on destruction.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "strata/util/result.h"

namespace strata::testing {

class NginxTestServer {
 public:
  // Serves `root_dir`. NotImplemented when nginx is not installed; IOError when it fails.
  static Result<std::unique_ptr<NginxTestServer>> Start(const std::string& root_dir);
  ~NginxTestServer();
  NginxTestServer(const NginxTestServer&) = delete;
  NginxTestServer& operator=(const NginxTestServer&) = delete;

  // True when an nginx binary is installed (NGINX, PATH or /usr/sbin/nginx).
  static bool NginxInstalled();
  // True when the environment says this is CI (CI=true): there, missing nginx is a failure.
  static bool InCI();

  int port() const { return port_; }
  // "http://127.0.0.1:<port>/<path>"; see the script for the special locations
  // (/noranges/, /error503/, /slow/).
  std::string Url(std::string_view path) const;
  // Requests nginx has logged so far.
  int64_t LoggedRequests() const;

 private:
  NginxTestServer(std::string state_dir, int port) : state_dir_(std::move(state_dir)), port_(port) {}
  std::string state_dir_;
  int port_;
};

}  // namespace strata::testing
