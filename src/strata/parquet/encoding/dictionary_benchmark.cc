// Dictionary-encoded strings: decode RLE/bit-packed indices (width 10, 1000 entries) and gather
// into offsets + data, as the column reader will. And the write side: DictionaryEncoder::Put of
// a column chunk's values (int64 and short strings), one Clear() per chunk as a writer reuses it.
#include <benchmark/benchmark.h>

#include <random>
#include <string>
#include <vector>

#include "strata/parquet/encoding/dictionary.h"
#include "strata/parquet/encoding/plain.h"
#include "strata/parquet/encoding/rle_bit_packed.h"
#include "strata/testing/benchmark_memory.h"

namespace strata::parquet {
namespace {

constexpr int64_t kValues = 64 * 1024;
constexpr int64_t kEntries = 1000;
constexpr int64_t kBatch = 1024;

void BM_DictionaryDecodeGatherStrings(benchmark::State& state) {
  auto pool = MakeSystemMemoryPool();
  std::mt19937 rng(3);
  std::vector<std::string> entries(kEntries);
  for (auto& s : entries) s.assign(4 + rng() % 20, static_cast<char>('a' + rng() % 26));
  std::vector<ByteArrayView> views;
  for (auto& s : entries) views.push_back({reinterpret_cast<const uint8_t*>(s.data()), static_cast<uint32_t>(s.size())});
  ResizableBuffer dict_page(pool.get());
  STRATA_BENCH_OK(PlainEncodeByteArrays(views.data(), kEntries, &dict_page));
  auto dict = std::move(Dictionary::MakeByteArray(pool.get(), dict_page.data(), dict_page.size(), kEntries)).ValueOrDie();

  std::vector<int32_t> indices(kValues);
  for (auto& i : indices) i = static_cast<int32_t>(rng() % kEntries);
  ResizableBuffer data_page(pool.get());
  STRATA_BENCH_OK(data_page.Append("\x0a", 1));
  RleBitPackedEncoder encoder(pool.get(), 10);
  STRATA_BENCH_OK(encoder.Put(indices.data(), kValues));
  STRATA_BENCH_OK(encoder.FlushTo(&data_page));

  std::vector<int32_t> batch(kBatch);
  std::vector<int32_t> offsets(kValues + 1);
  ResizableBuffer data(pool.get());
  testing::BenchmarkMemory memory(state, pool.get());
  for (auto _ : state) {
    data.Clear();
    RleBitPackedDecoder decoder;
    STRATA_BENCH_OK(decoder.ResetForDictionaryIndices(data_page.data(), data_page.size()));
    for (int64_t done = 0; done < kValues; done += kBatch) {
      auto n = decoder.DecodeIndices(batch.data(), kBatch, dict->size());
      STRATA_BENCH_OK(n);
      STRATA_BENCH_OK(dict->GatherInto(batch.data(), *n, offsets.data() + 1 + done, &data));
    }
    benchmark::DoNotOptimize(data.data());
  }
  memory.Report();
  state.SetItemsProcessed(state.iterations() * kValues);
  state.SetBytesProcessed(state.iterations() * data_page.size());
}
BENCHMARK(BM_DictionaryDecodeGatherStrings);

void BM_DictionaryDecodeIndicesOnly(benchmark::State& state) {
  auto pool = MakeSystemMemoryPool();
  std::mt19937 rng(4);
  std::vector<int32_t> indices(kValues);
  for (auto& i : indices) i = static_cast<int32_t>(rng() % kEntries);
  ResizableBuffer data_page(pool.get());
  RleBitPackedEncoder encoder(pool.get(), 10);
  STRATA_BENCH_OK(encoder.Put(indices.data(), kValues));
  STRATA_BENCH_OK(encoder.FlushTo(&data_page));
  std::vector<int32_t> out(kValues);
  testing::BenchmarkMemory memory(state, pool.get());
  for (auto _ : state) {
    RleBitPackedDecoder decoder;
    STRATA_BENCH_OK(decoder.Reset(data_page.data(), data_page.size(), 10));
    STRATA_BENCH_OK(decoder.DecodeIndices(out.data(), kValues, kEntries));
  }
  memory.Report();
  state.SetItemsProcessed(state.iterations() * kValues);
  state.SetBytesProcessed(state.iterations() * data_page.size());
}
BENCHMARK(BM_DictionaryDecodeIndicesOnly);

// 1M int64 drawn from 1k distinct (random 64-bit) values: the table stays in L1.
void BM_DictionaryEncodeInt64(benchmark::State& state) {
  constexpr int64_t kChunk = 1 << 20;
  const int64_t distinct = state.range(0);
  auto pool = MakeSystemMemoryPool();
  std::mt19937_64 rng(5);
  std::vector<int64_t> choices(distinct);
  for (auto& c : choices) c = static_cast<int64_t>(rng());
  std::vector<int64_t> values(kChunk);
  for (auto& v : values) v = choices[rng() % distinct];
  std::vector<int32_t> indices(kChunk);
  auto encoder = std::move(DictionaryEncoder::Make(pool.get(), 8)).ValueOrDie();
  testing::BenchmarkMemory memory(state, pool.get());
  for (auto _ : state) {
    encoder->Clear();
    STRATA_BENCH_OK(encoder->PutFixed(values.data(), kChunk, indices.data()));
    benchmark::DoNotOptimize(indices.data());
  }
  memory.Report();
  state.counters["entries"] = static_cast<double>(encoder->num_entries());
  state.counters["encoder_bytes"] = static_cast<double>(encoder->memory_size());
  state.SetItemsProcessed(state.iterations() * kChunk);
  state.SetBytesProcessed(state.iterations() * kChunk * 8);
}
BENCHMARK(BM_DictionaryEncodeInt64)->Arg(1000)->Arg(100000);

// 1M strings of 4..20 bytes drawn from 10k distinct.
void BM_DictionaryEncodeStrings(benchmark::State& state) {
  constexpr int64_t kChunk = 1 << 20;
  const int64_t distinct = state.range(0);
  auto pool = MakeSystemMemoryPool();
  std::mt19937 rng(6);
  std::vector<std::string> choices(distinct);
  for (auto& c : choices) {
    c.resize(4 + rng() % 17);
    for (auto& ch : c) ch = static_cast<char>('a' + rng() % 26);
  }
  std::vector<ByteArrayView> values(kChunk);
  int64_t bytes = 0;
  for (auto& v : values) {
    const std::string& s = choices[rng() % distinct];
    v = {reinterpret_cast<const uint8_t*>(s.data()), static_cast<uint32_t>(s.size())};
    bytes += v.length;
  }
  std::vector<int32_t> indices(kChunk);
  auto encoder = std::move(DictionaryEncoder::Make(pool.get(), 0)).ValueOrDie();
  testing::BenchmarkMemory memory(state, pool.get());
  for (auto _ : state) {
    encoder->Clear();
    STRATA_BENCH_OK(encoder->PutByteArrays(values.data(), kChunk, indices.data()));
    benchmark::DoNotOptimize(indices.data());
  }
  memory.Report();
  state.counters["entries"] = static_cast<double>(encoder->num_entries());
  state.counters["encoder_bytes"] = static_cast<double>(encoder->memory_size());
  state.SetItemsProcessed(state.iterations() * kChunk);
  state.SetBytesProcessed(state.iterations() * bytes);
}
BENCHMARK(BM_DictionaryEncodeStrings)->Arg(10000);

}  // namespace
}  // namespace strata::parquet

BENCHMARK_MAIN();
