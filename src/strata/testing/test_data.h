// Where tests find data no one here wrote: the public parquet-testing and arrow-testing files.
#pragma once

#include <string>
#include <vector>

namespace strata::testing {

// $STRATA_PARQUET_TESTING, else ../shared/parquet-testing beside the source tree. Returns ""
// when the folder is missing; see ParquetTestingDirOrSkip().
std::string ParquetTestingDir();

// The absolute path of `relative` inside parquet-testing.
std::string ParquetTestingFile(const std::string& relative);

// $STRATA_ARROW_TESTING, else ../shared/arrow-testing beside the source tree; "" when
// missing (see STRATA_REQUIRE_ARROW_TESTING).
std::string ArrowTestingDir();
std::string ArrowTestingFile(const std::string& relative);

// The paths of the .parquet files in `dir` (and below it when `recursive`), sorted; none when
// `dir` is "" or missing.
std::vector<std::string> ParquetFilesIn(const std::string& dir, bool recursive = false);

// The whole file at `path` as bytes; "" when it cannot be read.
std::string ReadFileBytes(const std::string& path);

// The environment variable CI is set (to anything but "", "0" or "false").
bool RunningUnderCi();

}  // namespace strata::testing

// Use at the top of a test that needs parquet-testing: a missing folder fails under CI
// (CI=true) and is a clear skip elsewhere.
#define STRATA_REQUIRE_PARQUET_TESTING()                                                   \
  do {                                                                                     \
    if (::strata::testing::ParquetTestingDir().empty()) {                                  \
      const char* ci = std::getenv("CI");                                                  \
      if (ci != nullptr && std::string(ci) == "true") {                                    \
        FAIL() << "parquet-testing folder not found (set STRATA_PARQUET_TESTING)";         \
      }                                                                                    \
      GTEST_SKIP() << "parquet-testing folder not found (set STRATA_PARQUET_TESTING)";     \
    }                                                                                      \
  } while (false)

// The same for arrow-testing: a missing folder fails when CI is set, and is a clear skip
// elsewhere.
#define STRATA_REQUIRE_ARROW_TESTING()                                                             \
  do {                                                                                             \
    if (::strata::testing::ArrowTestingDir().empty()) {                                            \
      if (::strata::testing::RunningUnderCi()) {                                                   \
        FAIL() << "arrow-testing folder not found (set STRATA_ARROW_TESTING or check out "         \
                  "apache/arrow-testing beside the source tree as ../shared/arrow-testing)";       \
      }                                                                                            \
      GTEST_SKIP() << "arrow-testing folder not found (set STRATA_ARROW_TESTING or check out "     \
                      "apache/arrow-testing beside the source tree as ../shared/arrow-testing)";   \
    }                                                                                              \
  } while (false)

// For any other prerequisite a test cannot run without (node and the npm peers, nginx): when
// `available` is false the test fails under CI and is a clear skip elsewhere, with `why`.
#define STRATA_REQUIRE_OR_SKIP(available, why)                                        \
  do {                                                                               \
    if (!(available)) {                                                              \
      if (::strata::testing::RunningUnderCi()) FAIL() << "needed under CI: " << why; \
      GTEST_SKIP() << why;                                                           \
    }                                                                                \
  } while (false)
