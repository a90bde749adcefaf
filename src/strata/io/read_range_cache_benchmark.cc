// Many small ranges (a Parquet reader's column chunks and page headers) read directly from a
// source, one request each, versus registered with ReadRangeCache, coalesced and prefetched.
// Local file (pread and mmap) and HTTP over loopback (nginx via scripts/nginx-test-server).
// Counters: requests = reads that reached the source per iteration; the memory counters come
// from BenchmarkMemory (bytes allocated, allocations, peak bytes in use).
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <random>

#include "strata/io/nginx_test_server.h"
#include "strata/io/random_access_source.h"
#include "strata/io/read_range_cache.h"
#include "strata/testing/benchmark_memory.h"
#ifdef STRATA_WITH_HTTP
#include "strata/io/http_source.h"
#endif

namespace strata {
namespace {

constexpr int64_t kFileSize = 8 << 20;

// An 8 MiB file of random bytes in a temporary folder, removed at exit.
struct BenchFile {
  BenchFile() {
    dir = (std::filesystem::temp_directory_path() / ("strata_cache_bench_" + std::to_string(::getpid()))).string();
    std::filesystem::create_directories(dir);
    path = dir + "/data.bin";
    std::mt19937_64 rng(99);
    std::string bytes(kFileSize, '\0');
    for (auto& c : bytes) c = static_cast<char>(rng());
    std::ofstream(path, std::ios::binary) << bytes;
  }
  ~BenchFile() {
    server.reset();
    std::error_code ignored;
    std::filesystem::remove_all(dir, ignored);
  }
  std::string dir;
  std::string path;
  std::unique_ptr<testing::NginxTestServer> server;  // started on first use
};

BenchFile& File() {
  static BenchFile file;
  return file;
}

// `count` ranges of 1 KiB every 4 KiB (3 KiB holes, under the 8 KiB hole limit), like the
// pages of a few columns of one row group.
std::vector<ReadRange> SmallRanges(int64_t count) {
  std::vector<ReadRange> ranges;
  for (int64_t i = 0; i < count; ++i) ranges.push_back({(i * 4096) % (kFileSize - 1024), 1024});
  return ranges;
}

void ReadDirect(benchmark::State& state, RandomAccessSource& source) {
  auto pool = MakeSystemMemoryPool();
  const auto ranges = SmallRanges(state.range(0));
  const int64_t reads_before = source.read_count();
  testing::BenchmarkMemory memory(state, pool.get());
  for (auto _ : state) {
    for (const ReadRange& range : ranges) {
      auto buffer = source.ReadBufferAt(range.offset, range.length, pool.get());
      if (!buffer.ok()) {
        state.SkipWithError(buffer.status().ToString().c_str());
        return;
      }
      benchmark::DoNotOptimize((*buffer)->data());
    }
  }
  memory.Report();
  state.counters["requests"] = benchmark::Counter(static_cast<double>(source.read_count() - reads_before),
                                                  benchmark::Counter::kAvgIterations);
  state.SetBytesProcessed(state.iterations() * state.range(0) * 1024);
}

void ReadCached(benchmark::State& state, std::shared_ptr<RandomAccessSource> source) {
  auto pool = MakeSystemMemoryPool();
  const auto ranges = SmallRanges(state.range(0));
  const int64_t reads_before = source->read_count();
  auto cache = ReadRangeCache::Make(source, pool.get());
  if (!cache.ok()) {
    state.SkipWithError(cache.status().ToString().c_str());
    return;
  }
  testing::BenchmarkMemory memory(state, pool.get());
  for (auto _ : state) {
    if (!(*cache)->Cache(ranges, 0).ok()) {
      state.SkipWithError("Cache failed");
      return;
    }
    for (const ReadRange& range : ranges) {
      auto buffer = (*cache)->ReadBufferAt(range.offset, range.length, pool.get());
      if (!buffer.ok()) {
        state.SkipWithError(buffer.status().ToString().c_str());
        return;
      }
      benchmark::DoNotOptimize((*buffer)->data());
    }
    (*cache)->Evict(0);
  }
  memory.Report();
  state.counters["requests"] = benchmark::Counter(static_cast<double>(source->read_count() - reads_before),
                                                  benchmark::Counter::kAvgIterations);
  state.SetBytesProcessed(state.iterations() * state.range(0) * 1024);
}

std::shared_ptr<RandomAccessSource> OpenLocal(bool memory_map) {
  return *OpenLocalFile(File().path, LocalFileOptions{memory_map});
}

void BM_LocalDirect(benchmark::State& state) { ReadDirect(state, *OpenLocal(false)); }
void BM_LocalCached(benchmark::State& state) { ReadCached(state, OpenLocal(false)); }
void BM_MmapDirect(benchmark::State& state) { ReadDirect(state, *OpenLocal(true)); }
void BM_MmapCached(benchmark::State& state) { ReadCached(state, OpenLocal(true)); }
BENCHMARK(BM_LocalDirect)->Arg(256)->Arg(2048)->UseRealTime();
BENCHMARK(BM_LocalCached)->Arg(256)->Arg(2048)->UseRealTime();
BENCHMARK(BM_MmapDirect)->Arg(256)->Arg(2048)->UseRealTime();
BENCHMARK(BM_MmapCached)->Arg(256)->Arg(2048)->UseRealTime();

#ifdef STRATA_WITH_HTTP
std::shared_ptr<RandomAccessSource> OpenHttp(benchmark::State& state) {
  BenchFile& file = File();
  if (file.server == nullptr) {
    auto server = testing::NginxTestServer::Start(file.dir);
    if (!server.ok()) {
      state.SkipWithError(("nginx: " + server.status().ToString()).c_str());
      return nullptr;
    }
    file.server = std::move(server).MoveValueUnsafe();
  }
  auto source = OpenHttpSource(file.server->Url("data.bin"));
  if (!source.ok()) {
    state.SkipWithError(source.status().ToString().c_str());
    return nullptr;
  }
  return *source;
}

void BM_HttpDirect(benchmark::State& state) {
  if (auto source = OpenHttp(state)) ReadDirect(state, *source);
}
void BM_HttpCached(benchmark::State& state) {
  if (auto source = OpenHttp(state)) ReadCached(state, source);
}
BENCHMARK(BM_HttpDirect)->Arg(256)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_HttpCached)->Arg(256)->Arg(2048)->UseRealTime()->Unit(benchmark::kMillisecond);
#endif

}  // namespace
}  // namespace strata

BENCHMARK_MAIN();
