// What the test-service fixtures share (nginx_test_server, s3_test_server): where the
// repository's scripts are, shell quoting, and running a script for its output. Test support,
// not part of strata_io.
#pragma once

#include <cstdint>
#include <string>

namespace strata::testing {

// The repository root: STRATA_SOURCE_DIR (CTest sets it), else the path compiled in.
std::string SourceDir();
// `text` in single quotes for sh, its own quotes escaped.
std::string ShellQuote(const std::string& text);
// Runs `command` with sh; returns its exit code (-1 when it did not exit normally) and appends
// what it printed on stdout to `output`.
int RunCommand(const std::string& command, std::string* output);
// Lines of a service's log file (0 when it does not exist yet).
int64_t CountLines(const std::string& path);

}  // namespace strata::testing
