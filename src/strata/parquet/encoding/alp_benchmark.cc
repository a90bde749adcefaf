// ALP against PLAIN, BYTE_STREAM_SPLIT + zstd and dictionary (PLAIN dictionary page, RLE
// indices) on DOUBLE columns: lineitem-like decimals (l_quantity 1..50, l_extendedprice with 2
// decimals, l_discount 0.00-0.10, l_tax 0.00-0.08) and random doubles. 2^20 values a column,
// in pages of 20000 (the writer's default page rows); encoders and decoders are made once and
// reused page after page, as the column writer and reader do. Counters: bytes_per_value (the
// encoded column, dictionary page included), bytes_per_second of 8-byte values, and the pool's
// allocs per iteration (the whole column).
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "strata/codec/codec.h"
#include "strata/parquet/encoding/alp.h"
#include "strata/parquet/encoding/byte_stream_split.h"
#include "strata/parquet/encoding/dictionary.h"
#include "strata/parquet/encoding/rle_bit_packed.h"
#include "strata/testing/benchmark_memory.h"

namespace strata::parquet {
namespace {

constexpr int64_t kValues = 1 << 20;
constexpr int64_t kPageValues = 20000;

enum Column { kQuantity, kExtendedPrice, kDiscount, kTax, kRandom };
enum Method { kPlain, kByteStreamSplitZstd, kDictionary, kAlp };

const std::vector<double>& Values(int column) {
  static std::vector<double> columns[5];
  std::vector<double>& v = columns[column];
  if (!v.empty()) return v;
  std::mt19937_64 rng(42);
  v.resize(kValues);
  for (auto& x : v) {
    const int64_t quantity = 1 + static_cast<int64_t>(rng() % 50);
    switch (column) {
      case kQuantity: x = static_cast<double>(quantity); break;
      // quantity * a part price of 900.00..2099.99, rounded to cents as TPC-H's decimal is.
      case kExtendedPrice: x = static_cast<double>(quantity * (90000 + static_cast<int64_t>(rng() % 120000))) / 100.0; break;
      case kDiscount: x = static_cast<double>(rng() % 11) / 100.0; break;
      case kTax: x = static_cast<double>(rng() % 9) / 100.0; break;
      default: x = std::ldexp(static_cast<double>(rng() >> 11), -53) * 2000.0 - 1000.0; break;
    }
  }
  return v;
}

// One column's encoded pages (and dictionary page), plus what each method keeps between pages.
struct Encoded {
  std::vector<std::vector<uint8_t>> pages;
  std::vector<uint8_t> dictionary_page;
  int64_t dictionary_entries = 0;
  int64_t bytes() const {
    int64_t total = static_cast<int64_t>(dictionary_page.size());
    for (const auto& p : pages) total += static_cast<int64_t>(p.size());
    return total;
  }
};

struct Encoders {
  explicit Encoders(MemoryPool* pool)
      : alp(pool), scratch(pool), out(pool), indices(pool), rle(pool, 1),
        zstd(std::move(codec::MakeCodec(codec::CompressionCodec::kZstd, pool)).ValueOrDie()) {}
  AlpEncoder<double> alp;
  ResizableBuffer scratch;
  ResizableBuffer out;
  ResizableBuffer indices;
  RleBitPackedEncoder rle;
  std::unique_ptr<codec::Codec> zstd;
};

// Encodes the column; with `keep`, stores the pages.
Status EncodeColumn(Method method, const std::vector<double>& values, MemoryPool* pool, Encoders& e, Encoded* keep) {
  std::unique_ptr<DictionaryEncoder> dictionary;
  if (method == kDictionary) {
    STRATA_ASSIGN_OR_RETURN(dictionary, DictionaryEncoder::Make(pool, 8));
  }
  for (int64_t start = 0; start < kValues; start += kPageValues) {
    const int64_t n = std::min(kPageValues, kValues - start);
    const double* page = values.data() + start;
    e.out.Clear();
    switch (method) {
      case kPlain: STRATA_RETURN_NOT_OK(e.out.Append(page, n * 8)); break;
      case kByteStreamSplitZstd:
        e.scratch.Clear();
        STRATA_RETURN_NOT_OK(ByteStreamSplitEncode(reinterpret_cast<const uint8_t*>(page), n, 8, &e.scratch));
        STRATA_RETURN_NOT_OK(e.zstd->Compress(e.scratch.span(), &e.out));
        break;
      case kDictionary: {
        STRATA_RETURN_NOT_OK(e.indices.ReserveScratch(n * 4));
        auto* indices = e.indices.mutable_data_as<int32_t>();
        STRATA_RETURN_NOT_OK(dictionary->PutFixed(page, n, indices));
        const uint8_t width = static_cast<uint8_t>(dictionary->index_bit_width());
        STRATA_RETURN_NOT_OK(e.out.Append(&width, 1));
        e.rle.set_bit_width(width);
        STRATA_RETURN_NOT_OK(e.rle.Put(indices, n));
        STRATA_RETURN_NOT_OK(e.rle.FlushTo(&e.out));
        break;
      }
      case kAlp: STRATA_RETURN_NOT_OK(e.alp.Encode(page, n, &e.out)); break;
    }
    if (keep) keep->pages.emplace_back(e.out.data(), e.out.data() + e.out.size());
  }
  if (dictionary) {
    e.out.Clear();
    STRATA_RETURN_NOT_OK(dictionary->WritePlain(&e.out));
    if (keep) {
      keep->dictionary_page.assign(e.out.data(), e.out.data() + e.out.size());
      keep->dictionary_entries = dictionary->num_entries();
    }
  }
  return Status::OK();
}

struct Decoders {
  explicit Decoders(MemoryPool* pool)
      : alp(pool), scratch(pool), indices(pool),
        zstd(std::move(codec::MakeCodec(codec::CompressionCodec::kZstd, pool)).ValueOrDie()) {}
  AlpDecoder<double> alp;
  ResizableBuffer scratch;
  ResizableBuffer indices;
  std::unique_ptr<codec::Codec> zstd;
};

Status DecodeColumn(Method method, const Encoded& encoded, MemoryPool* pool, Decoders& d, double* out) {
  std::unique_ptr<Dictionary> dictionary;
  if (method == kDictionary) {
    STRATA_ASSIGN_OR_RETURN(dictionary, Dictionary::MakeFixedWidth(pool, encoded.dictionary_page.data(),
                                                                   static_cast<int64_t>(encoded.dictionary_page.size()),
                                                                   encoded.dictionary_entries, 8));
  }
  int64_t start = 0;
  for (const auto& page : encoded.pages) {
    const int64_t n = std::min(kPageValues, kValues - start);
    const auto size = static_cast<int64_t>(page.size());
    switch (method) {
      case kPlain: std::memcpy(out + start, page.data(), static_cast<size_t>(n) * 8); break;
      case kByteStreamSplitZstd: {
        STRATA_RETURN_NOT_OK(d.scratch.ReserveScratch(n * 8));
        STRATA_RETURN_NOT_OK(d.zstd->Decompress(page, {d.scratch.mutable_data(), static_cast<size_t>(n * 8)}).status());
        ByteStreamSplitDecoder bss;
        STRATA_RETURN_NOT_OK(bss.SetData(d.scratch.data(), n * 8, 8));
        STRATA_RETURN_NOT_OK(bss.Decode(out + start, n).status());
        break;
      }
      case kDictionary: {
        STRATA_RETURN_NOT_OK(d.indices.ReserveScratch(n * 4));
        auto* indices = d.indices.mutable_data_as<int32_t>();
        RleBitPackedDecoder rle;
        STRATA_RETURN_NOT_OK(rle.ResetForDictionaryIndices(page.data(), size));
        STRATA_RETURN_NOT_OK(rle.DecodeIndices(indices, n, dictionary->size()).status());
        dictionary->GatherFixedBytes(indices, n, reinterpret_cast<uint8_t*>(out + start));
        break;
      }
      case kAlp:
        STRATA_RETURN_NOT_OK(d.alp.SetData(page.data(), size));
        STRATA_RETURN_NOT_OK(d.alp.Decode(out + start, n).status());
        break;
    }
    start += n;
  }
  return Status::OK();
}

void SetCounters(benchmark::State& state, const Encoded& encoded) {
  state.counters["bytes_per_value"] = static_cast<double>(encoded.bytes()) / kValues;
  state.SetItemsProcessed(state.iterations() * kValues);
  state.SetBytesProcessed(state.iterations() * kValues * 8);
}

void BM_Encode(benchmark::State& state) {
  const auto method = static_cast<Method>(state.range(0));
  const auto& values = Values(static_cast<int>(state.range(1)));
  auto pool = MakeSystemMemoryPool();
  Encoders encoders(pool.get());
  Encoded encoded;
  STRATA_BENCH_OK(EncodeColumn(method, values, pool.get(), encoders, &encoded));  // warms the scratch
  testing::BenchmarkMemory memory(state, pool.get());
  for (auto _ : state) STRATA_BENCH_OK(EncodeColumn(method, values, pool.get(), encoders, nullptr));
  memory.Report();
  SetCounters(state, encoded);
}

void BM_Decode(benchmark::State& state) {
  const auto method = static_cast<Method>(state.range(0));
  const auto& values = Values(static_cast<int>(state.range(1)));
  auto pool = MakeSystemMemoryPool();
  Encoders encoders(pool.get());
  Encoded encoded;
  STRATA_BENCH_OK(EncodeColumn(method, values, pool.get(), encoders, &encoded));
  Decoders decoders(pool.get());
  std::vector<double> out(kValues);
  STRATA_BENCH_OK(DecodeColumn(method, encoded, pool.get(), decoders, out.data()));
  if (std::memcmp(out.data(), values.data(), kValues * 8) != 0) {
    state.SkipWithError("decoded values differ from the column");
    return;
  }
  testing::BenchmarkMemory memory(state, pool.get());
  for (auto _ : state) {
    STRATA_BENCH_OK(DecodeColumn(method, encoded, pool.get(), decoders, out.data()));
    benchmark::DoNotOptimize(out.data());
  }
  memory.Report();
  SetCounters(state, encoded);
}

void Cases(benchmark::internal::Benchmark* b) {
  b->ArgNames({"method", "column"});
  for (int column = kQuantity; column <= kRandom; ++column) {
    for (int method = kPlain; method <= kAlp; ++method) b->Args({method, column});
  }
  b->Unit(benchmark::kMillisecond);
}
BENCHMARK(BM_Encode)->Apply(Cases);
BENCHMARK(BM_Decode)->Apply(Cases);

}  // namespace
}  // namespace strata::parquet

BENCHMARK_MAIN();
