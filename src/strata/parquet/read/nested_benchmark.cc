// Nested reads end to end (pages -> levels -> leaf values -> record assembly): list<int64>,
// list<string> and a struct of 20 leaves, from files DuckDB writes once at start-up into a
// temporary folder (skipped with a message when node and @duckdb/node-api are missing).
// Reported: rows per second, and the pool's bytes and allocations per iteration (one
// iteration reads the whole file in batches of 64 Ki rows).
#include <benchmark/benchmark.h>

#include <filesystem>
#include <map>
#include <string>

#include "strata/parquet/testing/duckdb_fixture.h"
#include "strata/parquet/read/file_reader.h"
#include "strata/testing/benchmark_memory.h"

namespace strata::parquet {
namespace {

constexpr int64_t kRows = 1'000'000;

enum Dataset : int64_t { kListInt64 = 0, kListString = 1, kStruct20 = 2 };

std::string SelectFor(int64_t dataset) {
  const std::string rows = std::to_string(kRows);
  switch (dataset) {
    case kListInt64:
      return "SELECT CASE WHEN i % 17 = 0 THEN NULL ELSE list_transform(range(i % 8), x -> CASE WHEN x = 5 THEN NULL "
             "ELSE i * 8 + x END) END AS l FROM range(" + rows + ") t(i)";
    case kListString:
      return "SELECT CASE WHEN i % 17 = 0 THEN NULL ELSE list_transform(range(i % 6), x -> 'value-' || (i + x)) END "
             "AS l FROM range(" + rows + ") t(i)";
    default: {
      std::string members;
      for (int k = 0; k < 20; ++k) {
        if (k) members += ", ";
        members += "'f" + std::to_string(k) + "': CASE WHEN (i + " + std::to_string(k) + ") % 10 = 0 THEN NULL ELSE i * " +
                   std::to_string(k + 1) + " END";
      }
      return "SELECT CASE WHEN i % 29 = 0 THEN NULL ELSE {" + members + "} END AS s FROM range(" + rows + ") t(i)";
    }
  }
}

// The file of `dataset`, written on first use; "" when DuckDB is not available.
const std::string& FileFor(int64_t dataset, std::string* error) {
  static std::map<int64_t, std::string> files;
  auto it = files.find(dataset);
  if (it != files.end()) return it->second;
  std::string& path = files[dataset];
  if (!testing::DuckDBAvailable()) {
    *error = "node with @duckdb/node-api not found";
    return path;
  }
  const auto dir = std::filesystem::temp_directory_path() / "strata_nested_benchmark";
  std::filesystem::create_directories(dir);
  const std::string candidate = (dir / ("dataset" + std::to_string(dataset) + ".parquet")).string();
  *error = testing::WriteParquetWithDuckDB(SelectFor(dataset), candidate);
  if (error->empty()) path = candidate;
  return path;
}

void BM_ReadNested(benchmark::State& state) {
  std::string error;
  const std::string& path = FileFor(state.range(0), &error);
  if (path.empty()) return state.SkipWithError(error.c_str());
  auto pool = MakeSystemMemoryPool();
  auto file = FileReader::OpenFile(path, pool.get());
  if (!file.ok()) return state.SkipWithError(file.status().ToString().c_str());
  strata::testing::BenchmarkMemory memory(state, pool.get());
  int64_t rows = 0;
  for (auto _ : state) {
    auto reader = (*file)->ReadBatches();
    if (!reader.ok()) return state.SkipWithError(reader.status().ToString().c_str());
    while (true) {
      auto batch = (*reader)->Next();
      if (!batch.ok()) return state.SkipWithError(batch.status().ToString().c_str());
      if (!*batch) break;
      rows += (*batch)->num_rows();
      benchmark::DoNotOptimize(*batch);
    }
  }
  memory.Report();
  state.SetItemsProcessed(rows);
  static const char* kNames[] = {"list<int64>", "list<string>", "struct of 20 int64"};
  state.SetLabel(kNames[state.range(0)]);
}

BENCHMARK(BM_ReadNested)->Arg(kListInt64)->Arg(kListString)->Arg(kStruct20)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace strata::parquet
BENCHMARK_MAIN();
