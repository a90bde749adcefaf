// Decompression throughput (bytes of output per second) per codec on ~1 MiB of typical
// column data, compression throughput, streaming through a 64 KiB window, and CRC-32.
// Memory counters come from the codec's pool (BenchmarkMemory).
#include <benchmark/benchmark.h>

#include "strata/codec/codec.h"
#include "strata/codec/codec_test_util.h"
#include "strata/codec/crc32.h"
#include "strata/codec/streaming_decompressor.h"
#include "strata/testing/benchmark_memory.h"

namespace strata::codec {
namespace {

constexpr size_t kPageBytes = 1 << 20;

enum DataKind : int64_t { kInt64 = 0, kStrings = 1 };

std::vector<uint8_t> MakeData(int64_t kind) {
  return kind == kInt64 ? testing::Int64Sequence(kPageBytes, 1) : testing::ShortStrings(kPageBytes, 2);
}

void SetLabel(benchmark::State& state, CompressionCodec type, int64_t kind, size_t compressed) {
  state.SetLabel(fmt::format("{} {} ratio {:.2f}", CodecName(type), kind == kInt64 ? "int64" : "strings",
                             static_cast<double>(kPageBytes) / static_cast<double>(compressed)));
}

void BM_Decompress(benchmark::State& state) {
  const auto type = static_cast<CompressionCodec>(state.range(0));
  auto pool = MakeSystemMemoryPool();
  const auto data = MakeData(state.range(1));
  auto codec = *MakeCodec(type, pool.get());
  ResizableBuffer compressed(pool.get());
  if (!codec->Compress(data, &compressed).ok()) return state.SkipWithError("compression failed");
  std::vector<uint8_t> out(data.size());
  if (!codec->Decompress(compressed.span(), out).ok() || out != data) return state.SkipWithError("round trip failed");
  strata::testing::BenchmarkMemory memory(state, pool.get());
  for (auto _ : state) {
    auto n = codec->Decompress(compressed.span(), out);
    benchmark::DoNotOptimize(n);
    benchmark::ClobberMemory();
  }
  memory.Report();
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * data.size()));
  SetLabel(state, type, state.range(1), static_cast<size_t>(compressed.size()));
}

void BM_Compress(benchmark::State& state) {
  const auto type = static_cast<CompressionCodec>(state.range(0));
  auto pool = MakeSystemMemoryPool();
  const auto data = MakeData(state.range(1));
  auto codec = *MakeCodec(type, pool.get());
  ResizableBuffer compressed(pool.get());
  if (!codec->Compress(data, &compressed).ok()) return state.SkipWithError("compression failed");
  strata::testing::BenchmarkMemory memory(state, pool.get());
  for (auto _ : state) {
    Status st = codec->Compress(data, &compressed);
    benchmark::DoNotOptimize(st);
  }
  memory.Report();
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * data.size()));
  SetLabel(state, type, state.range(1), static_cast<size_t>(compressed.size()));
}

// The page decoded through a 64 KiB window, as a reader bounding its memory would.
void BM_StreamingDecompress(benchmark::State& state) {
  const auto type = static_cast<CompressionCodec>(state.range(0));
  auto pool = MakeSystemMemoryPool();
  const auto data = MakeData(state.range(1));
  auto codec = *MakeCodec(type, pool.get());
  ResizableBuffer compressed(pool.get());
  if (!codec->Compress(data, &compressed).ok()) return state.SkipWithError("compression failed");
  auto stream = *MakeStreamingDecompressor(type, pool.get());
  std::vector<uint8_t> window(64 << 10);
  strata::testing::BenchmarkMemory memory(state, pool.get());
  for (auto _ : state) {
    if (!stream->Reset(compressed.span()).ok()) return state.SkipWithError("reset failed");
    while (!stream->finished()) {
      auto n = stream->Read(window);
      if (!n.ok()) return state.SkipWithError("read failed");
      benchmark::DoNotOptimize(window.data());
    }
  }
  memory.Report();
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * data.size()));
  SetLabel(state, type, state.range(1), static_cast<size_t>(compressed.size()));
}

void BM_Crc32(benchmark::State& state) {
  const auto data = testing::RandomBytes(static_cast<size_t>(state.range(0)), 3);
  for (auto _ : state) benchmark::DoNotOptimize(Crc32(data));
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * data.size()));
}

void AllCodecs(benchmark::internal::Benchmark* b) {
  for (CompressionCodec type : testing::kAllCodecs) {
    for (int64_t kind : {kInt64, kStrings}) b->Args({static_cast<int64_t>(type), kind});
  }
}

void StreamingCodecs(benchmark::internal::Benchmark* b) {
  for (CompressionCodec type : {CompressionCodec::kGzip, CompressionCodec::kZstd, CompressionCodec::kBrotli}) {
    for (int64_t kind : {kInt64, kStrings}) b->Args({static_cast<int64_t>(type), kind});
  }
}

BENCHMARK(BM_Decompress)->Apply(AllCodecs)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Compress)->Apply(AllCodecs)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_StreamingDecompress)->Apply(StreamingCodecs)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Crc32)->Arg(4 << 10)->Arg(1 << 20);

}  // namespace
}  // namespace strata::codec

BENCHMARK_MAIN();
