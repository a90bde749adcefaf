// Replays every registered fuzz target (fuzz_registry.h) over its committed inputs
// (src/strata/fuzz/regressions/<target>/: minimised crashers found so far, so they stay fixed)
// and over the parquet-testing files (and, for the IPC readers, arrow-testing's IPC fuzz
// regressions and golden files), so the targets' own checks run in the normal and sanitizer
// builds, not only under libFuzzer.
// A target that finds a problem aborts with a message naming the input.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "strata/fuzz/fuzz_registry.h"
#include "strata/fuzz/fuzz_target.h"
#include "strata/testing/test_data.h"

namespace strata::fuzz {
namespace {

namespace fs = std::filesystem;

struct Target {
  const char* name;
  int (*function)(const uint8_t*, size_t);
  bool takes_files = false;  // parquet-testing files are natural inputs
  // arrow-testing folders (under data/) whose every file is an input: Arrow's own fuzz
  // regressions for its IPC readers. Not copied here; replayed when the corpus is present.
  const char* arrow_testing_dir = nullptr;
  // And the golden integration files with this extension (under data/arrow-ipc-stream/integration).
  const char* golden_extension = nullptr;
};

// The targets that take more than their committed inputs, by name; every other registered
// target (fuzz_registry.h) replays its committed and tiny inputs only.
const Target kCorpusTargets[] = {
    {"footer", nullptr, true},
    {"file_reader", nullptr, true},
    {"encrypted_file_reader", nullptr, true},
    {"filtered_reader", nullptr, true},
    {"ipc_stream", nullptr, false, "data/arrow-ipc-stream", ".stream"},
    {"ipc_file", nullptr, false, "data/arrow-ipc-file", ".arrow_file"},
};

std::vector<Target> AllTargets() {
  std::vector<Target> targets;
  for (const RegisteredTarget& registered : RegisteredTargets()) {
    Target target{registered.name, registered.function};
    for (const Target& corpus : kCorpusTargets) {
      if (std::string_view(corpus.name) != registered.name) continue;
      target = corpus;
      target.function = registered.function;
    }
    targets.push_back(target);
  }
  return targets;
}

std::string ReadAll(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void RunInput(const Target& target, const fs::path& path) {
  const std::string bytes = ReadAll(path);
  SetCurrentInputName(path.string());
  target.function(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
  SetCurrentInputName({});
}

// CTest sets STRATA_SOURCE_DIR (cmake/StrataTargets.cmake); "" when it is not set.
fs::path RegressionDir() {
  const char* source_dir = std::getenv("STRATA_SOURCE_DIR");
  if (source_dir == nullptr || *source_dir == '\0') return {};
  return fs::path(source_dir) / "src/strata/fuzz/regressions";
}

// The corpus table's names and the folders under regressions/ are registered targets: a target
// renamed or no longer registered leaves neither behind unnoticed.
TEST(FuzzRegistryTest, CorpusTargetsAndRegressionFoldersAreRegistered) {
  std::set<std::string> registered;
  for (const RegisteredTarget& target : RegisteredTargets()) registered.insert(target.name);
  for (const Target& corpus : kCorpusTargets) EXPECT_TRUE(registered.contains(corpus.name)) << corpus.name;
  const fs::path root = RegressionDir();
  ASSERT_FALSE(root.empty()) << "STRATA_SOURCE_DIR is not set (CTest sets it; run the test through ctest)";
  for (const auto& entry : fs::directory_iterator(root)) {
    if (!entry.is_directory()) continue;
    EXPECT_TRUE(registered.contains(entry.path().filename().string())) << entry.path();
  }
}

class FuzzRegressionTest : public ::testing::TestWithParam<Target> {};
// The targets that whole parquet-testing files feed, and those that arrow-testing folders feed:
// each test is instantiated only for the targets it applies to, so none skips.
class FuzzFileTargetTest : public FuzzRegressionTest {};
class FuzzArrowTargetTest : public FuzzRegressionTest {};

std::vector<Target> TargetsWhere(bool (*applies)(const Target&)) {
  std::vector<Target> targets;
  for (const Target& target : AllTargets()) {
    if (applies(target)) targets.push_back(target);
  }
  return targets;
}

std::string TargetName(const ::testing::TestParamInfo<Target>& info) { return info.param.name; }

// Every target has committed inputs (crashers found so far, seeds, and damaged copies of the
// seeds: regressions/make_variants.py), and every one of them runs: a missing folder or an
// empty one fails rather than passing with nothing replayed.
TEST_P(FuzzRegressionTest, CommittedInputs) {
  const fs::path root = RegressionDir();
  ASSERT_FALSE(root.empty()) << "STRATA_SOURCE_DIR is not set (CTest sets it; run the test through ctest)";
  const fs::path dir = root / GetParam().name;
  ASSERT_TRUE(fs::is_directory(dir)) << dir << " is missing: commit inputs for target " << GetParam().name;
  int inputs = 0;
  for (const auto& entry : fs::directory_iterator(dir)) {
    const std::string file = entry.path().filename().string();
    if (!entry.is_regular_file() || file.starts_with(".") || file == "README.md") continue;
    RunInput(GetParam(), entry.path());
    ++inputs;
  }
  EXPECT_GT(inputs, 0) << dir << " holds no inputs";
  RecordProperty("inputs", inputs);
}

// Degenerate inputs every target must take: empty, one byte of each value, runs of 0xFF.
TEST_P(FuzzRegressionTest, TinyInputs) {
  GetParam().function(nullptr, 0);
  for (int b = 0; b < 256; ++b) {
    const uint8_t byte = static_cast<uint8_t>(b);
    GetParam().function(&byte, 1);
  }
  for (size_t n : {2, 7, 16, 64, 300}) {
    std::vector<uint8_t> ones(n, 0xFF);
    GetParam().function(ones.data(), ones.size());
    std::vector<uint8_t> zeros(n, 0);
    GetParam().function(zeros.data(), zeros.size());
  }
}

TEST_P(FuzzFileTargetTest, ParquetTestingFiles) {
  STRATA_REQUIRE_PARQUET_TESTING();
  int files = 0;
  for (const char* folder : {"data", "bad_data"}) {
    for (const auto& entry : fs::directory_iterator(strata::testing::ParquetTestingFile(folder))) {
      // *.parquet.encrypted too: without keys they stop at the footer or an encrypted column,
      // and encrypted_file_reader has the keys of most of them.
      const auto extension = entry.path().extension();
      if ((extension != ".parquet" && extension != ".encrypted") || entry.file_size() > (4 << 20)) continue;
      RunInput(GetParam(), entry.path());
      ++files;
    }
  }
  EXPECT_GE(files, 40);
}

// Arrow's fuzz regression files for its IPC readers (clusterfuzz crashers, mostly invalid
// streams and files) and the golden integration files: every one must end in OK or an error.
TEST_P(FuzzArrowTargetTest, ArrowTestingFiles) {
  STRATA_REQUIRE_ARROW_TESTING();
  int files = 0;
  const fs::path dir = strata::testing::ArrowTestingFile(GetParam().arrow_testing_dir);
  ASSERT_TRUE(fs::is_directory(dir)) << dir;
  for (const auto& entry : fs::directory_iterator(dir)) {
    const std::string file = entry.path().filename().string();
    if (!entry.is_regular_file() || file == "README.md" || file.starts_with(".")) continue;
    RunInput(GetParam(), entry.path());
    ++files;
  }
  EXPECT_GE(files, 40) << dir;
  int golden = 0;
  const fs::path integration = strata::testing::ArrowTestingFile("data/arrow-ipc-stream/integration");
  for (const auto& entry : fs::recursive_directory_iterator(integration)) {
    if (!entry.is_regular_file() || entry.path().extension() != GetParam().golden_extension) continue;
    RunInput(GetParam(), entry.path());
    ++golden;
  }
  EXPECT_GE(golden, 20) << integration;
  RecordProperty("files", files + golden);
}

INSTANTIATE_TEST_SUITE_P(Targets, FuzzRegressionTest, ::testing::ValuesIn(AllTargets()), TargetName);
INSTANTIATE_TEST_SUITE_P(Targets, FuzzFileTargetTest,
                         ::testing::ValuesIn(TargetsWhere([](const Target& t) { return t.takes_files; })),
                         TargetName);
INSTANTIATE_TEST_SUITE_P(Targets, FuzzArrowTargetTest,
                         ::testing::ValuesIn(TargetsWhere([](const Target& t) { return t.arrow_testing_dir != nullptr; })),
                         TargetName);

}  // namespace
}  // namespace strata::fuzz
