// Support for strata's fuzz targets: how a target is declared, the memory pool it runs with, and
// the checks that turn "returned an error" into "found a bug". Each *_fuzz.cc beside the code it
// exercises defines one target with STRATA_FUZZ_TARGET(name), and that folder's CMakeLists
// registers it (strata_add_fuzz_target); the fuzz folder links it into a libFuzzer binary
// (STRATA_FUZZ=ON) and into the regression test that replays the committed inputs in
// src/strata/fuzz/regressions/<name>/ in every build.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string_view>
#include <vector>

#include "strata/memory/memory_pool.h"
#include "strata/util/status.h"

// Defines the entry point of target `name`: a C function StrataFuzz_<name>(data, size) that
// returns 0 (libFuzzer's convention) and aborts on a finding.
#define STRATA_FUZZ_TARGET(name) extern "C" int StrataFuzz_##name(const uint8_t* data, size_t size)

// Aborts with a message (and the input being replayed, if any) when `condition` is false.
#define STRATA_FUZZ_CHECK(condition, ...)                                                     \
  do {                                                                                        \
    if (!(condition)) ::strata::fuzz::Fail(__FILE__, __LINE__, #condition, ##__VA_ARGS__);    \
  } while (false)

namespace strata::fuzz {

// Any single input may hold at most this much pool memory at once. Inputs are kilobytes, so a
// target that wants more sized an allocation from a count it did not check against the bytes.
inline constexpr int64_t kPoolLimitBytes = int64_t{256} << 20;

[[noreturn]] void Fail(const char* file, int line, const char* condition, std::string_view detail = {});

// The replay harness names the input it runs, so a failure message says which file to look at.
void SetCurrentInputName(std::string_view name);

// A system pool limited to kPoolLimitBytes. On destruction it checks that every byte went back
// (a leak through the pool is a finding even where LSan would not see it).
class FuzzPool {
 public:
  FuzzPool();
  ~FuzzPool();
  FuzzPool(const FuzzPool&) = delete;
  FuzzPool& operator=(const FuzzPool&) = delete;
  MemoryPool* get() const { return pool_.get(); }

 private:
  std::unique_ptr<MemoryPool> pool_;
};

// What an error from hostile input may look like: any code but OutOfMemory (the pool limit was
// hit: something allocated without bound) and never an empty message.
void CheckError(const Status& status, const char* what);

// Reads the parameter bytes a target takes from the front of its input; past the end it yields
// zeros, so every input is valid for every target.
class FuzzInput {
 public:
  FuzzInput(const uint8_t* data, size_t size) : data_(data), size_(size) {}

  uint8_t U8() { return pos_ < size_ ? data_[pos_++] : 0; }
  uint16_t U16() { return static_cast<uint16_t>(U8() | (U8() << 8)); }
  uint32_t U32() { return static_cast<uint32_t>(U16()) | (static_cast<uint32_t>(U16()) << 16); }
  bool Bool() { return (U8() & 1) != 0; }
  // The rest of the input.
  const uint8_t* rest() const { return data_ + pos_; }
  size_t rest_size() const { return size_ - pos_; }

 private:
  const uint8_t* data_;
  size_t size_;
  size_t pos_ = 0;
};

// A batch size in [1, 4096] from one parameter byte: small and odd sizes exercise the seams
// between runs, miniblocks and groups of 8.
inline int64_t BatchSize(uint8_t parameter) {
  static constexpr int64_t kSizes[] = {1, 3, 7, 8, 9, 31, 32, 33, 100, 127, 128, 129, 1000, 4096};
  return kSizes[parameter % (sizeof(kSizes) / sizeof(kSizes[0]))];
}

// Decodes the values of `expected` again with `decoder` (set to the same data) in batches of
// `batch`, every other batch skipped when `with_skips`, and checks each decoded value against
// its expected one with `same(got, want)`: batched decodes and skips agree with a whole decode.
template <typename Got, typename Decoder, typename Want, typename Same>
void CheckBatchedDecode(Decoder& decoder, const std::vector<Want>& expected, int64_t batch, bool with_skips,
                        Same same) {
  const auto wanted = static_cast<int64_t>(expected.size());
  std::vector<Got> values(static_cast<size_t>(batch));
  int64_t position = 0;
  for (int step = 0; position < wanted; ++step) {
    const int64_t n = std::min(batch, wanted - position);
    if (with_skips && step % 2 == 1) {
      auto skipped = decoder.Skip(n);
      STRATA_FUZZ_CHECK(skipped.ok() && *skipped == n, "Skip fails where Decode succeeded");
    } else {
      auto k = decoder.Decode(values.data(), n);
      STRATA_FUZZ_CHECK(k.ok() && *k == n, "batched Decode fails where a whole Decode succeeded");
      for (int64_t i = 0; i < n; ++i) {
        STRATA_FUZZ_CHECK(same(values[static_cast<size_t>(i)], expected[static_cast<size_t>(position + i)]),
                          "batched decode differs");
      }
    }
    position += n;
  }
}

}  // namespace strata::fuzz
