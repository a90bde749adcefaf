// Full scans of a multi-row-group Parquet file, local (pread) and over loopback HTTP (nginx via
// scripts/nginx-test-server), with pre-buffering on and off. Two files of the same columns
// (io_tests/mixed_file.h): 8 row groups of ~8 MB ("large"), and 64 row groups of ~0.4 MB
// ("small", where pre-buffering fetches several row groups per request).
// Counters: requests = reads that reached the source per scan (HTTP: requests sent, with the
// HEAD and the footer); peak_bytes etc. from BenchmarkMemory (the reader's pool).
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <filesystem>

#include "strata/io/nginx_test_server.h"
#include "strata/parquet/read/file_reader.h"
#include "strata/parquet/io_tests/mixed_file.h"
#include "strata/testing/benchmark_memory.h"
#ifdef STRATA_WITH_HTTP
#include "strata/io/http_source.h"
#endif

namespace strata::parquet {
namespace {

namespace pt = strata::parquet::testing;

struct FileShape {
  const char* name;
  int row_groups;
  int64_t rows_per_group;
};
constexpr FileShape kShapes[] = {{"large.parquet", 8, 200'000}, {"small.parquet", 64, 10'000}};

// The files in a temporary folder, written on first use and removed at exit.
struct BenchFiles {
  BenchFiles() {
    dir = (std::filesystem::temp_directory_path() / ("strata_scan_bench_" + std::to_string(::getpid()))).string();
    std::filesystem::create_directories(dir);
    for (const FileShape& shape : kShapes) {
      auto size = pt::WriteMixedFile(dir + "/" + shape.name, shape.row_groups, shape.rows_per_group);
      if (!size.ok()) {
        error = size.status().ToString();
        return;
      }
      sizes.push_back(*size);
    }
  }
  ~BenchFiles() {
    server.reset();
    std::error_code ignored;
    std::filesystem::remove_all(dir, ignored);
  }
  std::string dir;
  std::string error;
  std::vector<int64_t> sizes;
  std::unique_ptr<strata::testing::NginxTestServer> server;  // started on first use
};

BenchFiles& Files() {
  static BenchFiles files;
  return files;
}

// One full scan per iteration: open (footer), read every batch of every column, close.
// `open` returns a fresh source; `requests` counts what reached the server or disk.
template <typename OpenSource, typename CountRequests>
void Scan(benchmark::State& state, OpenSource open, CountRequests requests) {
  BenchFiles& files = Files();
  if (!files.error.empty()) {
    state.SkipWithError(files.error.c_str());
    return;
  }
  const bool pre_buffer = state.range(1) != 0;
  auto pool = MakeSystemMemoryPool();
  FileReaderOptions options;
  options.pre_buffer = pre_buffer;
  int64_t total_requests = 0;
  int64_t rows = 0;
  strata::testing::BenchmarkMemory memory(state, pool.get());
  for (auto _ : state) {
    auto source = open();
    if (source == nullptr) return;
    auto reader = FileReader::Open(source, pool.get(), options);
    if (!reader.ok()) {
      state.SkipWithError(reader.status().ToString().c_str());
      return;
    }
    auto batches = (*reader)->ReadBatches();
    if (!batches.ok()) {
      state.SkipWithError(batches.status().ToString().c_str());
      return;
    }
    while (true) {
      auto batch = (*batches)->Next();
      if (!batch.ok()) {
        state.SkipWithError(batch.status().ToString().c_str());
        return;
      }
      if (!*batch) break;
      rows += (*batch)->num_rows();
    }
    batches->reset();
    total_requests += requests(*source);
  }
  memory.Report();
  state.counters["requests"] =
      benchmark::Counter(static_cast<double>(total_requests), benchmark::Counter::kAvgIterations);
  state.counters["rows"] = benchmark::Counter(static_cast<double>(rows), benchmark::Counter::kAvgIterations);
  state.SetBytesProcessed(state.iterations() * files.sizes[static_cast<size_t>(state.range(0))]);
  state.SetLabel(kShapes[state.range(0)].name);
}

// Args: file (0 large, 1 small), pre-buffer (0 off, 1 on).
void ScanArgs(benchmark::internal::Benchmark* b) {
  b->ArgNames({"file", "pre_buffer"});
  for (int file : {0, 1}) {
    for (int pre_buffer : {0, 1}) b->Args({file, pre_buffer});
  }
  b->UseRealTime()->Unit(benchmark::kMillisecond);
}

void BM_LocalScan(benchmark::State& state) {
  const std::string path = Files().dir + "/" + kShapes[state.range(0)].name;
  Scan(
      state,
      [&]() -> std::shared_ptr<RandomAccessSource> {
        auto source = OpenLocalFile(path);
        if (!source.ok()) state.SkipWithError(source.status().ToString().c_str());
        return source.ok() ? *source : nullptr;
      },
      [](const RandomAccessSource& source) { return source.read_count(); });
}
BENCHMARK(BM_LocalScan)->Apply(ScanArgs);

#ifdef STRATA_WITH_HTTP
void BM_HttpScan(benchmark::State& state) {
  BenchFiles& files = Files();
  if (files.server == nullptr && files.error.empty()) {
    auto server = strata::testing::NginxTestServer::Start(files.dir);
    if (!server.ok()) {
      state.SkipWithError(("nginx: " + server.status().ToString()).c_str());
      return;
    }
    files.server = std::move(server).MoveValueUnsafe();
  }
  const std::string url = files.server ? files.server->Url(kShapes[state.range(0)].name) : "";
  Scan(
      state,
      [&]() -> std::shared_ptr<HttpSource> {
        auto source = OpenHttpSource(url);
        if (!source.ok()) state.SkipWithError(source.status().ToString().c_str());
        return source.ok() ? *source : nullptr;
      },
      [](const HttpSource& source) { return source.request_count(); });
}
BENCHMARK(BM_HttpScan)->Apply(ScanArgs);
#endif

}  // namespace
}  // namespace strata::parquet

BENCHMARK_MAIN();
