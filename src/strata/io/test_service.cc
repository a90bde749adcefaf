#include "strata/io/test_service.h"

#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>

namespace strata::testing {

std::string SourceDir() {
  const char* env = std::getenv("STRATA_SOURCE_DIR");
  return env != nullptr && *env != 0 ? env : STRATA_IO_SOURCE_DIR;
}

std::string ShellQuote(const std::string& text) {
  std::string quoted = "'";
  for (char c : text) {
    if (c == '\'') {
      quoted += "'\\''";
    } else {
      quoted += c;
    }
  }
  quoted += '\'';
  return quoted;
}

int RunCommand(const std::string& command, std::string* output) {
  FILE* pipe = ::popen(command.c_str(), "r");
  if (pipe == nullptr) return -1;
  char chunk[4096];
  size_t n;
  while ((n = std::fread(chunk, 1, sizeof(chunk), pipe)) > 0) output->append(chunk, n);
  const int rc = ::pclose(pipe);
  return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

int64_t CountLines(const std::string& path) {
  std::ifstream log(path);
  int64_t lines = 0;
  std::string line;
  while (std::getline(log, line)) ++lines;
  return lines;
}

}  // namespace strata::testing
