// Dictionary-encoded strings: decode RLE/bit-packed indices (width 10, 1000 entries) and gather
// into offsets + data, as the column reader will.
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
  (void)PlainEncodeByteArrays(views.data(), kEntries, &dict_page);
  auto dict = std::move(Dictionary::MakeByteArray(pool.get(), dict_page.data(), dict_page.size(), kEntries)).ValueOrDie();

  std::vector<int32_t> indices(kValues);
  for (auto& i : indices) i = static_cast<int32_t>(rng() % kEntries);
  ResizableBuffer data_page(pool.get());
  (void)data_page.Append("\x0a", 1);
  RleBitPackedEncoder encoder(pool.get(), 10);
  (void)encoder.Put(indices.data(), kValues);
  (void)encoder.FlushTo(&data_page);

  std::vector<int32_t> batch(kBatch);
  std::vector<int32_t> offsets(kValues + 1);
  ResizableBuffer data(pool.get());
  testing::BenchmarkMemory memory(state, pool.get());
  for (auto _ : state) {
    data.Clear();
    RleBitPackedDecoder decoder;
    (void)decoder.ResetForDictionaryIndices(data_page.data(), data_page.size());
    for (int64_t done = 0; done < kValues; done += kBatch) {
      auto n = decoder.DecodeIndices(batch.data(), kBatch, dict->size());
      (void)dict->GatherInto(batch.data(), *n, offsets.data() + 1 + done, &data);
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
  (void)encoder.Put(indices.data(), kValues);
  (void)encoder.FlushTo(&data_page);
  std::vector<int32_t> out(kValues);
  testing::BenchmarkMemory memory(state, pool.get());
  for (auto _ : state) {
    RleBitPackedDecoder decoder;
    (void)decoder.Reset(data_page.data(), data_page.size(), 10);
    benchmark::DoNotOptimize(decoder.DecodeIndices(out.data(), kValues, kEntries).ok());
  }
  memory.Report();
  state.SetItemsProcessed(state.iterations() * kValues);
  state.SetBytesProcessed(state.iterations() * data_page.size());
}
BENCHMARK(BM_DictionaryDecodeIndicesOnly);

}  // namespace
}  // namespace strata::parquet

BENCHMARK_MAIN();
