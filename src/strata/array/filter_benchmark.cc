// Filter throughput: 1M int64 and 1M short strings at 1%, 50% and 99% selectivity (random
// selections, so runs are short except at 99%). Items are input rows per second.
#include <benchmark/benchmark.h>

#include <random>
#include <string>
#include <vector>

#include "strata/array/binary_builder.h"
#include "strata/array/filter.h"
#include "strata/array/primitive_builder.h"
#include "strata/testing/benchmark_memory.h"

namespace strata {
namespace {

constexpr int64_t kRows = 1 << 20;

std::vector<uint8_t> MakeSelection(double density, int64_t* selected) {
  std::mt19937 rng(7);
  std::bernoulli_distribution pick(density);
  std::vector<uint8_t> bits(static_cast<size_t>(bitmap::BytesForBits(kRows)), 0);
  *selected = 0;
  for (int64_t i = 0; i < kRows; ++i) {
    if (pick(rng)) {
      bitmap::SetBit(bits.data(), i);
      ++*selected;
    }
  }
  return bits;
}

Result<Array> MakeInput(int kind, MemoryPool* pool) {
  const bool strings = kind == 1;
  const int null_every = kind == 2 ? 0 : 20;
  std::mt19937 rng(1);
  if (strings) {
    StringBuilder builder(utf8(), pool);
    std::string value;
    for (int64_t i = 0; i < kRows; ++i) {
      if (rng() % 20 == 0) {
        STRATA_RETURN_NOT_OK(builder.AppendNull());
        continue;
      }
      value.resize(rng() % 24);
      for (auto& c : value) c = static_cast<char>('a' + rng() % 26);
      STRATA_RETURN_NOT_OK(builder.Append(value));
    }
    STRATA_ASSIGN_OR_RETURN(auto data, builder.Finish());
    return Array(std::move(data));
  }
  Int64Builder builder(int64(), pool);
  for (int64_t i = 0; i < kRows; ++i) {
    STRATA_RETURN_NOT_OK(null_every > 0 && rng() % null_every == 0 ? builder.AppendNull() : builder.Append(static_cast<int64_t>(rng())));
  }
  STRATA_ASSIGN_OR_RETURN(auto data, builder.Finish());
  return Array(std::move(data));
}

// range(0): 0 = int64 with 5% nulls, 1 = string with 5% nulls, 2 = int64 without nulls;
// range(1): selectivity in percent.
void BM_Filter(benchmark::State& state) {
  auto pool = MakeSystemMemoryPool();
  auto input = MakeInput(static_cast<int>(state.range(0)), pool.get());
  if (!input.ok()) {
    state.SkipWithError(input.status().ToString().c_str());
    return;
  }
  int64_t selected = 0;
  const auto selection = MakeSelection(static_cast<double>(state.range(1)) / 100, &selected);
  testing::BenchmarkMemory memory(state, pool.get());
  for (auto _ : state) {
    auto out = Filter(*input, selection.data(), 0, selected, pool.get());
    if (!out.ok()) {
      state.SkipWithError(out.status().ToString().c_str());
      break;
    }
    benchmark::DoNotOptimize(out);
  }
  memory.Report();
  state.SetItemsProcessed(state.iterations() * kRows);
  state.SetLabel(state.range(0) == 1 ? "string" : state.range(0) == 2 ? "int64, no nulls" : "int64");
}
BENCHMARK(BM_Filter)
    ->ArgsProduct({{0, 1, 2}, {1, 50, 99}})
    ->ArgNames({"kind", "percent"})
    ->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace strata

BENCHMARK_MAIN();
