#include "strata/testing/test_data.h"

#include <cstdlib>
#include <filesystem>

namespace strata::testing {

std::string ParquetTestingDir() {
  namespace fs = std::filesystem;
  if (const char* env = std::getenv("STRATA_PARQUET_TESTING"); env != nullptr && *env != '\0') {
    return fs::is_directory(env) ? fs::absolute(env).string() : std::string();
  }
  // Tests run with STRATA_SOURCE_DIR set by CTest; the default sits beside the checkout.
  const char* source = std::getenv("STRATA_SOURCE_DIR");
  fs::path base = source != nullptr ? fs::path(source) : fs::current_path();
  fs::path dir = base / ".." / "shared" / "parquet-testing";
  return fs::is_directory(dir) ? fs::canonical(dir).string() : std::string();
}

std::string ParquetTestingFile(const std::string& relative) {
  return ParquetTestingDir() + "/" + relative;
}

}  // namespace strata::testing
