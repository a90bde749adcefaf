#include "strata/testing/test_data.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace strata::testing {

namespace {

// $`variable`, else ../shared/`folder` beside the source tree; "" when missing.
std::string SharedDataDir(const char* variable, const char* folder) {
  namespace fs = std::filesystem;
  if (const char* env = std::getenv(variable); env != nullptr && *env != '\0') {
    return fs::is_directory(env) ? fs::absolute(env).string() : std::string();
  }
  // Tests run with STRATA_SOURCE_DIR set by CTest; the default sits beside the checkout.
  const char* source = std::getenv("STRATA_SOURCE_DIR");
  fs::path base = source != nullptr ? fs::path(source) : fs::current_path();
  fs::path dir = base / ".." / "shared" / folder;
  return fs::is_directory(dir) ? fs::canonical(dir).string() : std::string();
}

}  // namespace

std::string ParquetTestingDir() { return SharedDataDir("STRATA_PARQUET_TESTING", "parquet-testing"); }

std::string ArrowTestingDir() { return SharedDataDir("STRATA_ARROW_TESTING", "arrow-testing"); }

std::string ArrowTestingFile(const std::string& relative) { return ArrowTestingDir() + "/" + relative; }

bool RunningUnderCi() {
  const char* ci = std::getenv("CI");
  return ci != nullptr && *ci != '\0' && std::string(ci) != "false" && std::string(ci) != "0";
}

std::string ParquetTestingFile(const std::string& relative) {
  return ParquetTestingDir() + "/" + relative;
}

std::vector<std::string> ParquetFilesIn(const std::string& dir, bool recursive) {
  std::vector<std::string> files;
  std::error_code error;
  if (dir.empty() || !std::filesystem::is_directory(dir, error)) return files;
  auto add = [&](const std::filesystem::directory_entry& entry) {
    if (entry.is_regular_file() && entry.path().extension() == ".parquet") files.push_back(entry.path().string());
  };
  if (recursive) {
    for (const auto& entry : std::filesystem::recursive_directory_iterator(dir)) add(entry);
  } else {
    for (const auto& entry : std::filesystem::directory_iterator(dir)) add(entry);
  }
  std::sort(files.begin(), files.end());
  return files;
}

std::string ReadFileBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

}  // namespace strata::testing
