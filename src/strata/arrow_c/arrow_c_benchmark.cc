// The Arrow C Data / Stream Interface is zero-copy: a benchmark that proves it on a
// lineitem-sized table.
//
// The batches are produced once, before timing (a synthetic 6M-row x 16-column table shaped
// like TPC-H lineitem: int64, int32, decimal128(15,2), 1-char and longer strings, date32, with
// nulls in two columns; or, in the File benchmarks, the batches strata's Parquet reader gives
// for $STRATA_ARROW_C_BENCH_FILE, default bench/data/lineitem_snappy.parquet from the working
// directory: see scripts/bench-data). Each iteration then moves every batch across the C
// interface and back:
//   Stream:  ExportBatchStream over the batches -> ImportBatchStream -> Next() until the end;
//   Batch:   ExportRecordBatch -> ImportRecordBatch (the array-level functions), per batch.
// BatchRoundTripSliced/N cuts the synthetic batches into zero-copy slices of N rows: the wrapper
// allocations per batch stay the same, whatever the rows (they depend on the columns only).
// Each imported batch is compared buffer by buffer (children and dictionaries included) with
// the batch it came from, then dropped, which runs the producer's release.
//
// Counters (per batch unless named otherwise):
//   pool_bytes, pool_allocs  bytes / allocations of the memory pools during export + import:
//                            the pool the batches live in and the process-wide
//                            SystemMemoryPool(). The C interface takes no pool, so zero here
//                            means no buffer was copied or allocated.
//   new_calls, new_bytes     global operator new during export + import: the wrapper structs
//                            (ArrowArray private data, the imported ArrayData / Buffer views
//                            and RecordBatch), plain new, not pool memory.
//   net_new                  operator new minus operator delete over the whole pass (0: every
//                            wrapper was released).
//   export_new_calls/_bytes  (Batch benchmarks) the part of new_calls / new_bytes that export
//                            makes; import makes the rest.
//   buffers                  buffers compared per batch.
//   copies                   buffers (per pass) whose imported data pointer differs from the
//                            exported one: must be 0.
//   dropped                  buffers present on one side only (per pass): must be 0.
// bytes_alloc / allocs / reallocs / peak_bytes are testing::BenchmarkMemory's, per iteration
// (one pass over every batch), on the batches' pool.
#include <benchmark/benchmark.h>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <new>
#include <random>
#include <string>
#include <vector>

#include "strata/array/binary_builder.h"
#include "strata/array/primitive_builder.h"
#include "strata/array/record_batch.h"
#include "strata/arrow_c/export.h"
#include "strata/arrow_c/import.h"
#include "strata/arrow_c/stream.h"
#include "strata/memory/memory_pool.h"
#include "strata/parquet/read/file_reader.h"
#include "strata/testing/benchmark_memory.h"

// ---- counting global operator new (this binary only) -----------------------------------

// These replacements of operator new/delete are malloc and free underneath; GCC 12 sees
// free() reached from operator delete and warns of a mismatch that is not one.
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
namespace {
std::atomic<int64_t> g_new_calls{0};
std::atomic<int64_t> g_new_bytes{0};
std::atomic<int64_t> g_delete_calls{0};

void* CountedAlloc(std::size_t n, std::size_t align) {
  g_new_calls.fetch_add(1, std::memory_order_relaxed);
  g_new_bytes.fetch_add(static_cast<int64_t>(n), std::memory_order_relaxed);
  if (n == 0) n = 1;
  void* p = nullptr;
  if (align <= alignof(std::max_align_t)) {
    p = std::malloc(n);
  } else if (posix_memalign(&p, align, n) != 0) {
    p = nullptr;
  }
  return p;
}

void CountedFree(void* p) {
  if (p == nullptr) return;
  g_delete_calls.fetch_add(1, std::memory_order_relaxed);
  std::free(p);
}
}  // namespace

void* operator new(std::size_t n) {
  if (void* p = CountedAlloc(n, 0)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t n) {
  if (void* p = CountedAlloc(n, 0)) return p;
  throw std::bad_alloc();
}
void* operator new(std::size_t n, const std::nothrow_t&) noexcept { return CountedAlloc(n, 0); }
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept { return CountedAlloc(n, 0); }
void* operator new(std::size_t n, std::align_val_t a) {
  if (void* p = CountedAlloc(n, static_cast<std::size_t>(a))) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t n, std::align_val_t a) {
  if (void* p = CountedAlloc(n, static_cast<std::size_t>(a))) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { CountedFree(p); }
void operator delete[](void* p) noexcept { CountedFree(p); }
void operator delete(void* p, std::size_t) noexcept { CountedFree(p); }
void operator delete[](void* p, std::size_t) noexcept { CountedFree(p); }
void operator delete(void* p, std::align_val_t) noexcept { CountedFree(p); }
void operator delete[](void* p, std::align_val_t) noexcept { CountedFree(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { CountedFree(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { CountedFree(p); }

namespace strata::arrow_c {
namespace {

constexpr int64_t kRows = 6'000'000;
constexpr int64_t kBatchRows = 64 * 1024;

struct Batches {
  SchemaPtr schema;
  std::vector<std::shared_ptr<RecordBatch>> batches;
  std::unique_ptr<MemoryPool> owned_pool;
  MemoryPool* pool = nullptr;  // the batches' buffers
  std::string error;
  int64_t rows = 0;
  int64_t bytes = 0;  // sum of the batches' buffer sizes
};

int64_t BufferBytes(const ArrayData& d) {
  int64_t n = 0;
  for (const auto& b : d.buffers) n += b ? b->size() : 0;
  for (const auto& c : d.children) n += BufferBytes(*c);
  if (d.dictionary) n += BufferBytes(*d.dictionary);
  return n;
}

void Account(Batches* out) {
  for (const auto& b : out->batches) {
    out->rows += b->num_rows();
    for (const Array& c : b->columns()) out->bytes += BufferBytes(*c.data());
  }
}

// ---- the synthetic lineitem ------------------------------------------------------------

template <typename Builder>
ArrayDataPtr FinishOrDie(Builder& builder) {
  Result<ArrayDataPtr> done = builder.Finish();
  if (!done.ok()) {
    std::fprintf(stderr, "arrow_c_benchmark: %s\n", done.status().ToString().c_str());
    std::abort();
  }
  return *done;
}

#define BENCH_CHECK_OK(expr)                                                          \
  do {                                                                                \
    ::strata::Status _st = (expr);                                                    \
    if (!_st.ok()) {                                                                  \
      std::fprintf(stderr, "arrow_c_benchmark: %s\n", _st.ToString().c_str());        \
      std::abort();                                                                   \
    }                                                                                 \
  } while (0)

std::shared_ptr<RecordBatch> MakeLineitemBatch(const SchemaPtr& schema, int64_t first_row, int64_t rows,
                                               std::mt19937_64& rng, MemoryPool* pool) {
  static const char* kInstruct[] = {"DELIVER IN PERSON", "COLLECT COD", "NONE", "TAKE BACK RETURN"};
  static const char* kMode[] = {"REG AIR", "AIR", "RAIL", "SHIP", "TRUCK", "MAIL", "FOB"};
  static const char* kWords[] = {"furiously", "quickly", "regular", "ideas", "sleep", "blithely", "final",
                                 "deposits", "packages", "across", "the", "slyly", "pending", "accounts"};
  Int64Builder orderkey(int64(), pool), partkey(int64(), pool), suppkey(int64(), pool);
  Int32Builder linenumber(int32(), pool);
  std::vector<std::unique_ptr<FixedWidthBuilder>> decimals;
  for (int i = 0; i < 4; ++i) decimals.push_back(std::make_unique<FixedWidthBuilder>(decimal128(15, 2), 16, pool));
  StringBuilder returnflag(utf8(), pool), linestatus(utf8(), pool);
  Int32Builder shipdate(date32(), pool), commitdate(date32(), pool), receiptdate(date32(), pool);
  StringBuilder shipinstruct(utf8(), pool), shipmode(utf8(), pool), comment(utf8(), pool);
  std::string text;
  for (int64_t r = first_row; r < first_row + rows; ++r) {
    BENCH_CHECK_OK(orderkey.Append(r / 4 + 1));
    BENCH_CHECK_OK(partkey.Append(static_cast<int64_t>(rng() % 200000) + 1));
    BENCH_CHECK_OK(suppkey.Append(static_cast<int64_t>(rng() % 10000) + 1));
    BENCH_CHECK_OK(linenumber.Append(static_cast<int32_t>(r % 7) + 1));
    for (int i = 0; i < 4; ++i) {
      if (i == 2 && r % 17 == 0) {  // l_discount: some nulls, so a validity bitmap travels too
        BENCH_CHECK_OK(decimals[i]->AppendNull());
        continue;
      }
      const int64_t unscaled[2] = {static_cast<int64_t>(rng() % 10000000), 0};
      BENCH_CHECK_OK(decimals[i]->AppendBytes(reinterpret_cast<const uint8_t*>(unscaled), 1));
    }
    BENCH_CHECK_OK(returnflag.Append(std::string_view("ANR" + rng() % 3, 1)));
    BENCH_CHECK_OK(linestatus.Append(std::string_view("OF" + rng() % 2, 1)));
    const int32_t ship = 8036 + static_cast<int32_t>(rng() % 2500);
    BENCH_CHECK_OK(shipdate.Append(ship));
    BENCH_CHECK_OK(commitdate.Append(ship + static_cast<int32_t>(rng() % 60) - 30));
    BENCH_CHECK_OK(receiptdate.Append(ship + static_cast<int32_t>(rng() % 30) + 1));
    BENCH_CHECK_OK(shipinstruct.Append(kInstruct[rng() % 4]));
    BENCH_CHECK_OK(shipmode.Append(kMode[rng() % 7]));
    if (r % 23 == 0) {  // l_comment: some nulls
      BENCH_CHECK_OK(comment.AppendNull());
      continue;
    }
    text.clear();
    const int words = 2 + static_cast<int>(rng() % 5);
    for (int w = 0; w < words; ++w) {
      if (w) text += ' ';
      text += kWords[rng() % 14];
    }
    BENCH_CHECK_OK(comment.Append(text));
  }
  std::vector<Array> columns;
  columns.emplace_back(FinishOrDie(orderkey));
  columns.emplace_back(FinishOrDie(partkey));
  columns.emplace_back(FinishOrDie(suppkey));
  columns.emplace_back(FinishOrDie(linenumber));
  for (auto& d : decimals) columns.emplace_back(FinishOrDie(*d));
  columns.emplace_back(FinishOrDie(returnflag));
  columns.emplace_back(FinishOrDie(linestatus));
  columns.emplace_back(FinishOrDie(shipdate));
  columns.emplace_back(FinishOrDie(commitdate));
  columns.emplace_back(FinishOrDie(receiptdate));
  columns.emplace_back(FinishOrDie(shipinstruct));
  columns.emplace_back(FinishOrDie(shipmode));
  columns.emplace_back(FinishOrDie(comment));
  Result<std::shared_ptr<RecordBatch>> batch = RecordBatch::Make(schema, rows, std::move(columns));
  BENCH_CHECK_OK(batch.status());
  return *batch;
}

const Batches& SyntheticLineitem() {
  static const Batches* made = [] {
    auto* out = new Batches;
    out->owned_pool = MakeSystemMemoryPool();
    out->pool = out->owned_pool.get();
    const TypePtr money = decimal128(15, 2);
    out->schema = schema({
        field("l_orderkey", int64()), field("l_partkey", int64()), field("l_suppkey", int64()),
        field("l_linenumber", int32()), field("l_quantity", money), field("l_extendedprice", money),
        field("l_discount", money), field("l_tax", money), field("l_returnflag", utf8()),
        field("l_linestatus", utf8()), field("l_shipdate", date32()), field("l_commitdate", date32()),
        field("l_receiptdate", date32()), field("l_shipinstruct", utf8()), field("l_shipmode", utf8()),
        field("l_comment", utf8()),
    });
    std::mt19937_64 rng(42);
    for (int64_t first = 0; first < kRows; first += kBatchRows) {
      out->batches.push_back(
          MakeLineitemBatch(out->schema, first, std::min(kBatchRows, kRows - first), rng, out->pool));
    }
    Account(out);
    return out;
  }();
  return *made;
}

// ---- the batches of a Parquet file -----------------------------------------------------

const Batches& FileBatches() {
  static const Batches* made = [] {
    auto* out = new Batches;
    out->owned_pool = MakeSystemMemoryPool();
    out->pool = out->owned_pool.get();
    const char* env = std::getenv("STRATA_ARROW_C_BENCH_FILE");
    const std::string path = env != nullptr ? env : "bench/data/lineitem_snappy.parquet";
    auto file = parquet::FileReader::OpenFile(path, out->pool);
    if (!file.ok()) {
      out->error = "cannot open " + path + " (set STRATA_ARROW_C_BENCH_FILE, or run scripts/bench-data from the " +
                   "checkout): " + file.status().ToString();
      return out;
    }
    parquet::BatchReadOptions options;
    options.batch_rows = kBatchRows;
    auto reader = (*file)->ReadBatches(options);
    if (!reader.ok()) {
      out->error = reader.status().ToString();
      return out;
    }
    out->schema = (*reader)->schema();
    while (true) {
      auto batch = (*reader)->Next();
      if (!batch.ok()) {
        out->error = batch.status().ToString();
        return out;
      }
      if (*batch == nullptr) break;
      out->batches.push_back(std::move(*batch));
    }
    Account(out);
    return out;
  }();
  return *made;
}

// The synthetic batches cut into zero-copy slices of `rows` rows (offsets other than 0 travel
// through the interface as they are), to show that the wrapper allocations do not grow with rows.
const Batches& SlicedSynthetic(int64_t rows) {
  static std::map<int64_t, std::unique_ptr<Batches>> made;
  auto& slot = made[rows];
  if (slot == nullptr) {
    const Batches& whole = SyntheticLineitem();
    slot = std::make_unique<Batches>();
    slot->schema = whole.schema;
    slot->pool = whole.pool;
    for (const auto& b : whole.batches) {
      for (int64_t at = 0; at < b->num_rows(); at += rows) slot->batches.push_back(b->Slice(at, std::min(rows, b->num_rows() - at)));
    }
    slot->rows = whole.rows;
    slot->bytes = whole.bytes;  // the slices share the whole table's buffers
  }
  return *slot;
}

// ---- the checks --------------------------------------------------------------------------

struct Compared {
  int64_t buffers = 0;
  int64_t copies = 0;
  int64_t dropped = 0;
};

void CompareBuffers(const ArrayData& exported, const ArrayData& imported, Compared* c) {
  const size_t n = std::max(exported.buffers.size(), imported.buffers.size());
  for (size_t i = 0; i < n; ++i) {
    const Buffer* a = i < exported.buffers.size() ? exported.buffers[i].get() : nullptr;
    const Buffer* b = i < imported.buffers.size() ? imported.buffers[i].get() : nullptr;
    if (a == nullptr && b == nullptr) continue;
    ++c->buffers;
    if ((a == nullptr) != (b == nullptr)) {
      ++c->dropped;
    } else if (a->data() != b->data()) {
      ++c->copies;
    }
  }
  if (exported.children.size() != imported.children.size()) {
    ++c->dropped;
    return;
  }
  for (size_t i = 0; i < exported.children.size(); ++i) CompareBuffers(*exported.children[i], *imported.children[i], c);
  if ((exported.dictionary == nullptr) != (imported.dictionary == nullptr)) {
    ++c->dropped;
  } else if (exported.dictionary) {
    CompareBuffers(*exported.dictionary, *imported.dictionary, c);
  }
}

void CompareBatches(const RecordBatch& exported, const RecordBatch& imported, Compared* c) {
  if (exported.num_columns() != imported.num_columns() || exported.num_rows() != imported.num_rows()) {
    ++c->dropped;
    return;
  }
  for (int i = 0; i < exported.num_columns(); ++i) CompareBuffers(*exported.column(i).data(), *imported.column(i).data(), c);
}

// Hands out the pre-made batches: no allocation, no copy (a shared_ptr copy per batch).
class VectorStream final : public RecordBatchStream {
 public:
  explicit VectorStream(const Batches& b) : b_(b) {}
  SchemaPtr schema() const override { return b_.schema; }
  Result<std::shared_ptr<RecordBatch>> Next() override {
    if (next_ == b_.batches.size()) return std::shared_ptr<RecordBatch>();
    return b_.batches[next_++];
  }

 private:
  const Batches& b_;
  size_t next_ = 0;
};

struct Counts {
  MemoryStats batch_pool;
  MemoryStats system_pool;
  int64_t new_calls, new_bytes, delete_calls;
};

Counts Snapshot(const Batches& b) {
  return {b.pool->stats(), SystemMemoryPool()->stats(), g_new_calls.load(), g_new_bytes.load(), g_delete_calls.load()};
}

// operator new calls of export alone (the rest of new_calls is import).
int64_t g_export_new_calls = 0;
int64_t g_export_new_bytes = 0;
void ReportExportShare(benchmark::State& state, const Batches& b) {
  const double batches = static_cast<double>(state.iterations()) * static_cast<double>(b.batches.size());
  state.counters["export_new_calls"] = static_cast<double>(g_export_new_calls) / batches;
  state.counters["export_new_bytes"] = static_cast<double>(g_export_new_bytes) / batches;
}

void Report(benchmark::State& state, const Batches& b, const Counts& start, const Compared& compared) {
  const Counts end = Snapshot(b);
  const double batches = static_cast<double>(state.iterations()) * static_cast<double>(b.batches.size());
  auto per_batch = [&](int64_t v) { return benchmark::Counter(static_cast<double>(v) / batches); };
  state.counters["pool_bytes"] = per_batch(end.batch_pool.total_bytes_allocated - start.batch_pool.total_bytes_allocated +
                                           end.system_pool.total_bytes_allocated - start.system_pool.total_bytes_allocated);
  state.counters["pool_allocs"] = per_batch(end.batch_pool.num_allocations - start.batch_pool.num_allocations +
                                            end.system_pool.num_allocations - start.system_pool.num_allocations);
  state.counters["new_calls"] = per_batch(end.new_calls - start.new_calls);
  state.counters["new_bytes"] = per_batch(end.new_bytes - start.new_bytes);
  state.counters["net_new"] = benchmark::Counter(
      static_cast<double>((end.new_calls - start.new_calls) - (end.delete_calls - start.delete_calls)),
      benchmark::Counter::kAvgIterations);
  state.counters["buffers"] = per_batch(compared.buffers);
  state.counters["copies"] = benchmark::Counter(static_cast<double>(compared.copies), benchmark::Counter::kAvgIterations);
  state.counters["dropped"] = benchmark::Counter(static_cast<double>(compared.dropped), benchmark::Counter::kAvgIterations);
  state.counters["batches"] = static_cast<double>(b.batches.size());
  state.counters["table_MiB"] = static_cast<double>(b.bytes) / (1 << 20);
  // CPU time per batch (Google Benchmark rates are over CPU time).
  state.counters["ns_per_batch"] = benchmark::Counter(batches / 1e9, benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) * b.rows);
}

// One iteration: the whole table through ExportBatchStream -> ImportBatchStream.
void StreamRoundTrip(benchmark::State& state, const Batches& b) {
  if (!b.error.empty()) {
    state.SkipWithError(b.error.c_str());
    return;
  }
  Compared compared;
  testing::BenchmarkMemory memory(state, b.pool);
  const Counts start = Snapshot(b);
  for (auto _ : state) {
    ArrowArrayStream c_stream{};
    Status exported = ExportBatchStream(std::make_shared<VectorStream>(b), &c_stream);
    if (!exported.ok()) {
      state.SkipWithError(exported.ToString().c_str());
      return;
    }
    auto imported = ImportBatchStream(&c_stream);
    if (!imported.ok()) {
      state.SkipWithError(imported.status().ToString().c_str());
      return;
    }
    size_t i = 0;
    while (true) {
      auto batch = (*imported)->Next();
      if (!batch.ok()) {
        state.SkipWithError(batch.status().ToString().c_str());
        return;
      }
      if (*batch == nullptr) break;
      if (i >= b.batches.size()) {
        state.SkipWithError("the imported stream has more batches than the exported one");
        return;
      }
      CompareBatches(*b.batches[i++], **batch, &compared);
    }
    if (i != b.batches.size()) {
      state.SkipWithError("the imported stream has fewer batches than the exported one");
      return;
    }
  }
  Report(state, b, start, compared);
  memory.Report();
}

// One iteration: every batch through ExportRecordBatch -> ImportRecordBatch.
void BatchRoundTrip(benchmark::State& state, const Batches& b) {
  if (!b.error.empty()) {
    state.SkipWithError(b.error.c_str());
    return;
  }
  Compared compared;
  testing::BenchmarkMemory memory(state, b.pool);
  const Counts start = Snapshot(b);
  g_export_new_calls = g_export_new_bytes = 0;
  for (auto _ : state) {
    for (const auto& batch : b.batches) {
      ArrowArray c_array{};
      const int64_t calls = g_new_calls.load(), bytes = g_new_bytes.load();
      Status exported = ExportRecordBatch(*batch, &c_array);
      g_export_new_calls += g_new_calls.load() - calls;
      g_export_new_bytes += g_new_bytes.load() - bytes;
      if (!exported.ok()) {
        state.SkipWithError(exported.ToString().c_str());
        return;
      }
      auto imported = ImportRecordBatch(&c_array, b.schema);
      if (!imported.ok()) {
        state.SkipWithError(imported.status().ToString().c_str());
        return;
      }
      CompareBatches(*batch, **imported, &compared);
    }
  }
  Report(state, b, start, compared);
  ReportExportShare(state, b);
  memory.Report();
}

void BM_StreamRoundTripSynthetic(benchmark::State& state) { StreamRoundTrip(state, SyntheticLineitem()); }
void BM_BatchRoundTripSynthetic(benchmark::State& state) { BatchRoundTrip(state, SyntheticLineitem()); }
void BM_BatchRoundTripSliced(benchmark::State& state) { BatchRoundTrip(state, SlicedSynthetic(state.range(0))); }
void BM_StreamRoundTripFile(benchmark::State& state) { StreamRoundTrip(state, FileBatches()); }
void BM_BatchRoundTripFile(benchmark::State& state) { BatchRoundTrip(state, FileBatches()); }

BENCHMARK(BM_StreamRoundTripSynthetic)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_BatchRoundTripSynthetic)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_BatchRoundTripSliced)->Arg(4096)->Arg(16384)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_StreamRoundTripFile)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_BatchRoundTripFile)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace strata::arrow_c

BENCHMARK_MAIN();
