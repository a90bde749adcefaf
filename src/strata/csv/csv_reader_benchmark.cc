// CSV reader benchmarks. The grid (rows x columns) reports time, bytes and allocations per
// read; allocations must not grow with the row count (in steady state a batch allocates
// only its output arrays). ReadFile reads a file given by STRATA_CSV_BENCH_FILE (e.g. the
// lineitem CSV) at 1 and 2 threads.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <random>
#include <string>

#include "strata/csv/reader.h"
#include "strata/exec/process_pool.h"
#include "strata/memory/memory_pool.h"
#include "strata/testing/benchmark_memory.h"

namespace strata::csv {
namespace {

// `rows` rows of `columns` columns cycling int, float, short string, date.
std::string MakeCsv(int64_t rows, int columns) {
  std::mt19937_64 rng(42);
  std::string out;
  for (int c = 0; c < columns; ++c) out += (c ? ",c" : "c") + std::to_string(c);
  out += '\n';
  for (int64_t r = 0; r < rows; ++r) {
    for (int c = 0; c < columns; ++c) {
      if (c) out += ',';
      switch (c % 4) {
        case 0: out += std::to_string(rng() % 1000000); break;
        case 1: out += std::to_string(rng() % 10000) + "." + std::to_string(rng() % 100); break;
        case 2: out += "name" + std::to_string(rng() % 5000); break;
        default: out += "2024-0" + std::to_string(1 + rng() % 9) + "-1" + std::to_string(rng() % 10); break;
      }
    }
    out += '\n';
  }
  return out;
}

void BM_ReadGrid(benchmark::State& state) {
  const int64_t rows = state.range(0);
  const int columns = static_cast<int>(state.range(1));
  const std::string text = MakeCsv(rows, columns);
  auto pool = MakeSystemMemoryPool();
  CsvReadOptions options;
  options.read.executor = exec::Executor();
  testing::BenchmarkMemory memory(state, pool.get());
  for (auto _ : state) {
    auto reader = CsvReader::Open(MakeMemoryInputStream({reinterpret_cast<const uint8_t*>(text.data()), text.size()}),
                                  options, pool.get());
    if (!reader.ok()) {
      state.SkipWithError(reader.status().ToString().c_str());
      return;
    }
    int64_t read = 0;
    while (true) {
      auto batch = (*reader)->Next();
      if (!batch.ok() || !*batch) break;
      read += (*batch)->num_rows();
    }
    benchmark::DoNotOptimize(read);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * static_cast<int64_t>(text.size()));
  memory.Report();
}
BENCHMARK(BM_ReadGrid)->ArgsProduct({{10, 100, 1000, 10000, 100000}, {1, 10, 100, 1000}})->Unit(benchmark::kMillisecond);

void BM_ReadFile(benchmark::State& state) {
  const char* path = std::getenv("STRATA_CSV_BENCH_FILE");
  if (path == nullptr) {
    state.SkipWithError("set STRATA_CSV_BENCH_FILE to a CSV file");
    return;
  }
  auto pool = MakeSystemMemoryPool();
  CsvReadOptions options;
  options.read.executor = exec::ProcessExecutor(static_cast<int>(state.range(0)));
  testing::BenchmarkMemory memory(state, pool.get());
  int64_t bytes = 0;
  for (auto _ : state) {
    auto reader = CsvReader::Open(std::string(path), options, pool.get());
    if (!reader.ok()) {
      state.SkipWithError(reader.status().ToString().c_str());
      return;
    }
    while (true) {
      auto batch = (*reader)->Next();
      if (!batch.ok()) {
        state.SkipWithError(batch.status().ToString().c_str());
        return;
      }
      if (!*batch) break;
    }
    bytes += (*reader)->raw_bytes_read();
  }
  state.SetBytesProcessed(bytes);
  memory.Report();
}
BENCHMARK(BM_ReadFile)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(1);

}  // namespace
}  // namespace strata::csv
BENCHMARK_MAIN();
