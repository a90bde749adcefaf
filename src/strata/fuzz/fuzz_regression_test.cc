// Replays every fuzz target over its committed inputs (src/strata/fuzz/regressions/<target>/:
// minimised crashers found so far, so they stay fixed) and over the parquet-testing files (and,
// for the IPC readers, arrow-testing's IPC fuzz regressions and golden files), so
// the targets' own checks run in the normal and sanitizer builds, not only under libFuzzer.
// A target that finds a problem aborts with a message naming the input.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "strata/fuzz/fuzz_target.h"
#include "strata/testing/test_data.h"

#define STRATA_DECLARE_FUZZ_TARGET(name) extern "C" int StrataFuzz_##name(const uint8_t* data, size_t size);
STRATA_DECLARE_FUZZ_TARGET(footer)
STRATA_DECLARE_FUZZ_TARGET(page_header)
STRATA_DECLARE_FUZZ_TARGET(rle_bit_packed)
STRATA_DECLARE_FUZZ_TARGET(plain)
STRATA_DECLARE_FUZZ_TARGET(dictionary)
STRATA_DECLARE_FUZZ_TARGET(delta_binary_packed)
STRATA_DECLARE_FUZZ_TARGET(delta_length_byte_array)
STRATA_DECLARE_FUZZ_TARGET(delta_byte_array)
STRATA_DECLARE_FUZZ_TARGET(byte_stream_split)
STRATA_DECLARE_FUZZ_TARGET(alp)
STRATA_DECLARE_FUZZ_TARGET(codec)
STRATA_DECLARE_FUZZ_TARGET(file_reader)
STRATA_DECLARE_FUZZ_TARGET(encrypted_file_reader)
STRATA_DECLARE_FUZZ_TARGET(filtered_reader)
STRATA_DECLARE_FUZZ_TARGET(csv_reader)
STRATA_DECLARE_FUZZ_TARGET(ipc_stream)
STRATA_DECLARE_FUZZ_TARGET(ipc_file)

namespace strata::fuzz {
namespace {

namespace fs = std::filesystem;

using TargetFunction = int (*)(const uint8_t*, size_t);

struct Target {
  const char* name;
  TargetFunction function;
  bool takes_files;  // parquet-testing files are natural inputs
  // arrow-testing folders (under data/) whose every file is an input: Arrow's own fuzz
  // regressions for its IPC readers. Not copied here; replayed when the corpus is present.
  const char* arrow_testing_dir = nullptr;
  // And the golden integration files with this extension (under data/arrow-ipc-stream/integration).
  const char* golden_extension = nullptr;
};

const Target kTargets[] = {
    {"footer", StrataFuzz_footer, true},
    {"page_header", StrataFuzz_page_header, false},
    {"rle_bit_packed", StrataFuzz_rle_bit_packed, false},
    {"plain", StrataFuzz_plain, false},
    {"dictionary", StrataFuzz_dictionary, false},
    {"delta_binary_packed", StrataFuzz_delta_binary_packed, false},
    {"delta_length_byte_array", StrataFuzz_delta_length_byte_array, false},
    {"delta_byte_array", StrataFuzz_delta_byte_array, false},
    {"byte_stream_split", StrataFuzz_byte_stream_split, false},
    {"alp", StrataFuzz_alp, false},
    {"codec", StrataFuzz_codec, false},
    {"file_reader", StrataFuzz_file_reader, true},
    {"encrypted_file_reader", StrataFuzz_encrypted_file_reader, true},
    {"filtered_reader", StrataFuzz_filtered_reader, true},
    {"csv_reader", StrataFuzz_csv_reader, false},
    {"ipc_stream", StrataFuzz_ipc_stream, false, "data/arrow-ipc-stream", ".stream"},
    {"ipc_file", StrataFuzz_ipc_file, false, "data/arrow-ipc-file", ".arrow_file"},
};

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

class FuzzRegressionTest : public ::testing::TestWithParam<Target> {};
// The targets that whole parquet-testing files feed, and those that arrow-testing folders feed:
// each test is instantiated only for the targets it applies to, so none skips.
class FuzzFileTargetTest : public FuzzRegressionTest {};
class FuzzArrowTargetTest : public FuzzRegressionTest {};

std::vector<Target> TargetsWhere(bool (*applies)(const Target&)) {
  std::vector<Target> targets;
  for (const Target& target : kTargets) {
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

INSTANTIATE_TEST_SUITE_P(Targets, FuzzRegressionTest, ::testing::ValuesIn(kTargets), TargetName);
INSTANTIATE_TEST_SUITE_P(Targets, FuzzFileTargetTest,
                         ::testing::ValuesIn(TargetsWhere([](const Target& t) { return t.takes_files; })),
                         TargetName);
INSTANTIATE_TEST_SUITE_P(Targets, FuzzArrowTargetTest,
                         ::testing::ValuesIn(TargetsWhere([](const Target& t) { return t.arrow_testing_dir != nullptr; })),
                         TargetName);

}  // namespace
}  // namespace strata::fuzz
