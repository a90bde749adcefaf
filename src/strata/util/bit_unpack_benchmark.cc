// Unpack throughput per bit width (values per second; bytes are the packed input).
#include <benchmark/benchmark.h>

#include <random>
#include <vector>

#include "strata/util/bit_unpack.h"
#include "strata/util/bit_util.h"

namespace strata::bit_util {
namespace {

constexpr int64_t kValues = 4096;

std::vector<uint8_t> RandomPacked(int width) {
  std::mt19937 rng(42);
  std::vector<uint8_t> packed(static_cast<size_t>(BytesForBits(kValues * width)));
  for (auto& b : packed) b = static_cast<uint8_t>(rng());
  return packed;
}

void BM_Unpack32(benchmark::State& state) {
  const int width = static_cast<int>(state.range(0));
  auto packed = RandomPacked(width);
  std::vector<uint32_t> out(kValues);
  for (auto _ : state) {
    Unpack32(packed.data(), out.data(), kValues, width);
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(state.iterations() * kValues);
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(packed.size()));
}
BENCHMARK(BM_Unpack32)->Arg(1)->Arg(3)->Arg(8)->Arg(17)->Arg(32);

void BM_Unpack64(benchmark::State& state) {
  const int width = static_cast<int>(state.range(0));
  auto packed = RandomPacked(width);
  std::vector<uint64_t> out(kValues);
  for (auto _ : state) {
    Unpack64(packed.data(), out.data(), kValues, width);
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(state.iterations() * kValues);
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(packed.size()));
}
BENCHMARK(BM_Unpack64)->Arg(1)->Arg(3)->Arg(8)->Arg(17)->Arg(32)->Arg(64);

}  // namespace
}  // namespace strata::bit_util
BENCHMARK_MAIN();
