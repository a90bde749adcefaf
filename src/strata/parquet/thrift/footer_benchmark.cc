// Decoding the footer of a wide file: a synthetic FileMetaData of 1,000 columns x 100 row groups,
// every chunk with statistics (about 100,000 ColumnChunk structs). Measures the full decode, the
// selective decode of 3 columns, and ReadFooter end to end. Reports the pool's counters
// (BenchmarkMemory) and, because std containers allocate through the global heap rather than the
// pool, the heap allocations counted by the operator new/delete replacements below.
#include <benchmark/benchmark.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <new>

#include "strata/io/random_access_source.h"
#include "strata/parquet/thrift/footer.h"
#include "strata/testing/benchmark_memory.h"

namespace {
std::atomic<int64_t> g_heap_allocs{0};
std::atomic<int64_t> g_heap_bytes{0};
}  // namespace

// GCC cannot see that these replacements pair malloc with free.
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
void* operator new(size_t size) {
  g_heap_allocs.fetch_add(1, std::memory_order_relaxed);
  g_heap_bytes.fetch_add(static_cast<int64_t>(size), std::memory_order_relaxed);
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, size_t) noexcept { std::free(p); }

namespace strata::parquet {
namespace {

constexpr int kColumns = 1000;
constexpr int kRowGroups = 100;

FileMetaData MakeWideMetadata() {
  FileMetaData md;
  md.version = 1;
  md.created_by = "strata footer_benchmark";
  SchemaElement root;
  root.name = "schema";
  root.num_children = kColumns;
  md.schema.push_back(root);
  for (int c = 0; c < kColumns; ++c) {
    SchemaElement leaf;
    leaf.name = "column_" + std::to_string(c);
    leaf.type = c % 2 == 0 ? PhysicalType::kInt64 : PhysicalType::kByteArray;
    leaf.repetition_type = FieldRepetitionType::kOptional;
    if (c % 2 == 1) {
      leaf.converted_type = ConvertedType::kUtf8;
      leaf.logical_type.emplace().kind = LogicalType::Kind::kString;
    }
    md.schema.push_back(std::move(leaf));
  }
  int64_t offset = 4;
  for (int r = 0; r < kRowGroups; ++r) {
    RowGroup rg;
    rg.num_rows = 100000;
    rg.columns.reserve(kColumns);
    for (int c = 0; c < kColumns; ++c) {
      ColumnChunk chunk;
      chunk.file_offset = offset;
      ColumnMetaData& cmd = chunk.meta_data.emplace();
      cmd.type = md.schema[c + 1].type.value();
      cmd.encodings = {Encoding::kPlain, Encoding::kRleDictionary, Encoding::kRle};
      cmd.path_in_schema = {md.schema[c + 1].name};
      cmd.codec = CompressionCodec::kZstd;
      cmd.num_values = rg.num_rows;
      cmd.total_compressed_size = 40000 + c;
      cmd.total_uncompressed_size = 80000 + c;
      cmd.dictionary_page_offset = offset;
      cmd.data_page_offset = offset + 1000;
      Statistics& stats = cmd.statistics.emplace();
      if (cmd.type == PhysicalType::kInt64) {
        const int64_t lo = -r * 1000LL, hi = c * 1000003LL;
        stats.min_value = std::string(reinterpret_cast<const char*>(&lo), 8);
        stats.max_value = std::string(reinterpret_cast<const char*>(&hi), 8);
      } else {
        stats.min_value = "aardvark_" + std::to_string(c);
        stats.max_value = "zebra_" + std::to_string(r);
      }
      stats.null_count = c % 7;
      chunk.offset_index_offset = offset + 30000;
      chunk.offset_index_length = 40;
      offset += cmd.total_compressed_size;
      rg.total_byte_size += cmd.total_uncompressed_size;
      rg.columns.push_back(std::move(chunk));
    }
    md.num_rows += rg.num_rows;
    md.row_groups.push_back(std::move(rg));
  }
  return md;
}

const std::string& SerializedWideFooter() {
  static const std::string bytes = [] {
    std::string out;
    SerializeFileMetaData(MakeWideMetadata(), &out);
    return out;
  }();
  return bytes;
}

class HeapCounters {
 public:
  explicit HeapCounters(benchmark::State& state)
      : state_(state), allocs_(g_heap_allocs.load()), bytes_(g_heap_bytes.load()) {}
  void Report() {
    const double iterations = static_cast<double>(std::max<int64_t>(1, state_.iterations()));
    state_.counters["heap_allocs"] = static_cast<double>(g_heap_allocs.load() - allocs_) / iterations;
    state_.counters["heap_bytes"] = static_cast<double>(g_heap_bytes.load() - bytes_) / iterations;
  }

 private:
  benchmark::State& state_;
  int64_t allocs_, bytes_;
};

void Decode(benchmark::State& state, const FileMetaDataDecodeOptions& options) {
  const std::string& bytes = SerializedWideFooter();
  auto pool = MakeSystemMemoryPool();
  testing::BenchmarkMemory memory(state, pool.get());
  HeapCounters heap(state);
  for (auto _ : state) {
    FileMetaData md;
    auto consumed = DeserializeFileMetaData(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size(), &md, options);
    if (!consumed.ok()) state.SkipWithError(consumed.status().ToString().c_str());
    benchmark::DoNotOptimize(md);
  }
  heap.Report();
  memory.Report();
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(bytes.size()));
  state.counters["footer_bytes"] = static_cast<double>(bytes.size());
}

void BM_DecodeFileMetaDataFull(benchmark::State& state) { Decode(state, {}); }
BENCHMARK(BM_DecodeFileMetaDataFull)->Unit(benchmark::kMillisecond);

void BM_DecodeFileMetaDataSelect3(benchmark::State& state) {
  FileMetaDataDecodeOptions options;
  options.column_indices = std::vector<int>{3, 500, 998};
  Decode(state, options);
}
BENCHMARK(BM_DecodeFileMetaDataSelect3)->Unit(benchmark::kMillisecond);

// A source that copies into pool memory (a local file would), so the pool counters show the
// footer buffers ReadFooter allocates.
class CopyingSource final : public RandomAccessSource {
 public:
  explicit CopyingSource(std::string bytes) : bytes_(std::move(bytes)) {}
  Result<int64_t> Size() override { return static_cast<int64_t>(bytes_.size()); }
  Status ReadAt(int64_t offset, int64_t length, uint8_t* out) override {
    ++reads_;
    std::memcpy(out, bytes_.data() + offset, static_cast<size_t>(length));
    return Status::OK();
  }
  const std::string& name() const override { return name_; }
  int64_t read_count() const override { return reads_; }

 private:
  std::string bytes_;
  std::string name_ = "wide.parquet";
  int64_t reads_ = 0;
};

void BM_ReadFooterSelect3(benchmark::State& state) {
  const std::string& footer = SerializedWideFooter();
  std::string file = "PAR1";
  file.append(4096, '\0');  // stands in for column data
  file += footer;
  const uint32_t length = static_cast<uint32_t>(footer.size());
  for (int i = 0; i < 4; ++i) file.push_back(static_cast<char>(length >> (8 * i)));
  file += "PAR1";
  CopyingSource source(std::move(file));
  auto pool = MakeSystemMemoryPool();
  FooterReadOptions options;
  options.decode.column_indices = std::vector<int>{3, 500, 998};
  testing::BenchmarkMemory memory(state, pool.get());
  HeapCounters heap(state);
  for (auto _ : state) {
    auto result = ReadFooter(source, pool.get(), options);
    if (!result.ok()) state.SkipWithError(result.status().ToString().c_str());
    benchmark::DoNotOptimize(result);
  }
  heap.Report();
  memory.Report();
}
BENCHMARK(BM_ReadFooterSelect3)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace strata::parquet

BENCHMARK_MAIN();
