// Builder throughput and memory: int64 single vs bulk appends, strings with and without
// up-front ReserveData, views, and UTF-8 validation. Memory columns come from the pool.
#include <benchmark/benchmark.h>

#include <random>
#include <string>
#include <vector>

#include "strata/array/array.h"
#include "strata/array/binary_builder.h"
#include "strata/array/binary_view_builder.h"
#include "strata/array/primitive_builder.h"
#include "strata/util/utf8.h"
#include "strata/array/validate.h"
#include "strata/testing/benchmark_memory.h"

namespace strata {
namespace {

constexpr int64_t kRows = 1 << 20;

std::vector<std::string> MakeStrings(int64_t n, int max_length) {
  std::mt19937 rng(1);
  std::vector<std::string> out(static_cast<size_t>(n));
  for (auto& s : out) {
    s.resize(rng() % (max_length + 1));
    for (auto& c : s) c = static_cast<char>('a' + rng() % 26);
  }
  return out;
}

// One Append per value; arg 1 = Reserve(rows) first, 0 = grow by doubling.
void BM_Int64AppendSingle(benchmark::State& state) {
  auto pool = MakeSystemMemoryPool();
  const bool reserve = state.range(0) != 0;
  Int64Builder builder(int64(), pool.get());
  testing::BenchmarkMemory memory(state, pool.get());
  for (auto _ : state) {
    if (reserve && !builder.Reserve(kRows).ok()) state.SkipWithError("reserve failed");
    for (int64_t i = 0; i < kRows; ++i) {
      if (!builder.Append(i).ok()) state.SkipWithError("append failed");
    }
    auto data = builder.Finish();
    benchmark::DoNotOptimize(data);
  }
  memory.Report();
  state.SetItemsProcessed(state.iterations() * kRows);
}
BENCHMARK(BM_Int64AppendSingle)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);

// Bulk AppendValues in batches of 4096 with (arg 1) or without (arg 0) a validity bitmap
// holding ~1% nulls; the builder is Reset (capacity kept) between iterations.
void BM_Int64AppendBulk(benchmark::State& state) {
  auto pool = MakeSystemMemoryPool();
  const bool with_nulls = state.range(0) != 0;
  constexpr int64_t kBatch = 4096;
  std::vector<int64_t> values(kBatch);
  for (int64_t i = 0; i < kBatch; ++i) values[static_cast<size_t>(i)] = i * 3;
  std::vector<uint8_t> validity(kBatch / 8, 0xff);
  validity[7] = 0xfe;
  validity[300] = 0xbf;
  Int64Builder builder(int64(), pool.get());
  testing::BenchmarkMemory memory(state, pool.get());
  for (auto _ : state) {
    builder.Reset();
    for (int64_t done = 0; done < kRows; done += kBatch) {
      if (!builder.AppendValues(values.data(), kBatch, with_nulls ? validity.data() : nullptr).ok()) {
        state.SkipWithError("append failed");
      }
    }
    benchmark::DoNotOptimize(builder.mutable_values());
  }
  memory.Report();
  state.SetItemsProcessed(state.iterations() * kRows);
  state.SetBytesProcessed(state.iterations() * kRows * 8);
}
BENCHMARK(BM_Int64AppendBulk)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);

// Strings of 0..32 bytes; arg 1 = Reserve(rows) + ReserveData(bytes) first.
void BM_StringAppend(benchmark::State& state) {
  auto pool = MakeSystemMemoryPool();
  const bool reserve = state.range(0) != 0;
  const int64_t rows = kRows / 4;
  auto strings = MakeStrings(rows, 32);
  int64_t bytes = 0;
  for (const auto& s : strings) bytes += static_cast<int64_t>(s.size());
  StringBuilder builder(utf8(), pool.get());
  testing::BenchmarkMemory memory(state, pool.get());
  for (auto _ : state) {
    if (reserve && !(builder.Reserve(rows).ok() && builder.ReserveData(bytes).ok())) state.SkipWithError("reserve");
    for (const auto& s : strings) {
      if (!builder.Append(s).ok()) state.SkipWithError("append failed");
    }
    auto data = builder.Finish();
    benchmark::DoNotOptimize(data);
  }
  memory.Report();
  state.SetItemsProcessed(state.iterations() * rows);
  state.SetBytesProcessed(state.iterations() * bytes);
}
BENCHMARK(BM_StringAppend)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);

void BM_StringViewAppend(benchmark::State& state) {
  auto pool = MakeSystemMemoryPool();
  const int64_t rows = kRows / 4;
  auto strings = MakeStrings(rows, 32);
  BinaryViewBuilder builder(utf8_view(), pool.get());
  testing::BenchmarkMemory memory(state, pool.get());
  for (auto _ : state) {
    for (const auto& s : strings) {
      if (!builder.Append(s).ok()) state.SkipWithError("append failed");
    }
    auto data = builder.Finish();
    benchmark::DoNotOptimize(data);
  }
  memory.Report();
  state.SetItemsProcessed(state.iterations() * rows);
}
BENCHMARK(BM_StringViewAppend)->Unit(benchmark::kMicrosecond);

// ValidateFull with UTF-8 checks over a string array: arg 0 = ASCII, 1 = ~1/4 two-byte.
void BM_ValidateUtf8Strings(benchmark::State& state) {
  auto pool = MakeSystemMemoryPool();
  auto strings = MakeStrings(kRows / 4, 32);
  if (state.range(0) != 0) {
    for (auto& s : strings) {
      if (s.size() >= 2 && s[0] < 'h') s.replace(0, 2, "\xc3\xa9");
    }
  }
  StringBuilder builder(utf8(), pool.get());
  for (const auto& s : strings) {
    if (!builder.Append(s).ok()) state.SkipWithError("append failed");
  }
  auto data = *builder.Finish();
  const int64_t bytes = StringArray(data).total_values_length();
  for (auto _ : state) {
    Status st = ValidateFull(*data, {.check_utf8 = true});
    if (!st.ok()) state.SkipWithError(st.message().c_str());
  }
  state.SetBytesProcessed(state.iterations() * bytes);
}
BENCHMARK(BM_ValidateUtf8Strings)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace strata
BENCHMARK_MAIN();
