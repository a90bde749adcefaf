// Arrow IPC write and read benchmarks over a lineitem-like table (16 batches of 64Ki rows:
// int64 keys, int32 quantities, doubles, a nullable string comment, dates, a boolean), with the
// pool's bytes and allocations per iteration next to time. Uncompressed reads of a mapped
// file must allocate only message metadata: the buffers are the mapping's pages.
#include <benchmark/benchmark.h>

#include <cstring>
#include <filesystem>
#include <random>
#include <string>

#include "strata/array/bitmap.h"
#include "strata/io/input_stream.h"
#include "strata/io/output_sink.h"
#include "strata/ipc/ipc_reader.h"
#include "strata/ipc/ipc_writer.h"
#include "strata/memory/memory_pool.h"
#include "strata/testing/benchmark_memory.h"

namespace strata::ipc {
namespace {

constexpr int64_t kRows = 64 * 1024;
constexpr int kBatches = 16;

template <typename T>
std::shared_ptr<Buffer> Values(int64_t n, std::mt19937_64& rng, MemoryPool* pool, T modulo) {
  auto buffer = *AllocateBuffer(pool, n * static_cast<int64_t>(sizeof(T)));
  T* out = buffer->mutable_data_as<T>();
  for (int64_t i = 0; i < n; ++i) out[i] = static_cast<T>(rng() % static_cast<uint64_t>(modulo));
  return buffer;
}

std::vector<std::shared_ptr<RecordBatch>> MakeBatches(MemoryPool* pool, SchemaPtr* schema_out) {
  auto s = schema({field("orderkey", int64(), false), field("quantity", int32(), false),
                   field("price", float64(), false), field("discount", float64(), false),
                   field("shipdate", date32(), false), field("returned", boolean(), false),
                   field("comment", utf8(), true)});
  std::mt19937_64 rng(1);
  std::vector<std::shared_ptr<RecordBatch>> batches;
  for (int b = 0; b < kBatches; ++b) {
    std::vector<Array> columns;
    columns.emplace_back(ArrayData::Make(int64(), kRows, {nullptr, Values<int64_t>(kRows, rng, pool, 6000000)}, 0));
    columns.emplace_back(ArrayData::Make(int32(), kRows, {nullptr, Values<int32_t>(kRows, rng, pool, 50)}, 0));
    for (int c = 0; c < 2; ++c) {
      auto prices = Values<int64_t>(kRows, rng, pool, 10000000);
      double* out = reinterpret_cast<double*>(prices->mutable_data());
      for (int64_t i = 0; i < kRows; ++i) out[i] = static_cast<double>(reinterpret_cast<int64_t*>(out)[i]) / 100;
      columns.emplace_back(ArrayData::Make(float64(), kRows, {nullptr, prices}, 0));
    }
    columns.emplace_back(ArrayData::Make(date32(), kRows, {nullptr, Values<int32_t>(kRows, rng, pool, 2500)}, 0));
    auto bits = *AllocateBuffer(pool, bitmap::BytesForBits(kRows));
    for (int64_t i = 0; i < bitmap::BytesForBits(kRows); ++i) bits->mutable_data()[i] = static_cast<uint8_t>(rng());
    columns.emplace_back(ArrayData::Make(boolean(), kRows, {nullptr, bits}, 0));
    // Comments of 10..43 characters, 1 in 16 null.
    auto validity = *AllocateBuffer(pool, bitmap::BytesForBits(kRows));
    std::memset(validity->mutable_data(), 0xFF, static_cast<size_t>(validity->size()));
    auto offsets = *AllocateBuffer(pool, (kRows + 1) * 4);
    std::string text;
    int64_t nulls = 0;
    int32_t* o = offsets->mutable_data_as<int32_t>();
    o[0] = 0;
    for (int64_t i = 0; i < kRows; ++i) {
      if (rng() % 16 == 0) {
        bitmap::ClearBit(validity->mutable_data(), i);
        ++nulls;
      } else {
        const int length = 10 + static_cast<int>(rng() % 34);
        for (int k = 0; k < length; ++k) text += static_cast<char>('a' + rng() % 26);
      }
      o[i + 1] = static_cast<int32_t>(text.size());
    }
    auto data = *AllocateBuffer(pool, static_cast<int64_t>(text.size()));
    std::memcpy(data->mutable_data(), text.data(), text.size());
    columns.emplace_back(ArrayData::Make(utf8(), kRows, {validity, offsets, data}, nulls));
    batches.push_back(std::make_shared<RecordBatch>(s, kRows, std::move(columns)));
  }
  *schema_out = s;
  return batches;
}

IpcCompression CompressionArg(int64_t arg) {
  return arg == 0 ? IpcCompression::kNone : arg == 1 ? IpcCompression::kLz4Frame : IpcCompression::kZstd;
}

std::shared_ptr<Buffer> WriteToMemory(IpcFormat format, IpcCompression compression, MemoryPool* pool,
                                      IpcWriteStats* stats = nullptr) {
  static MemoryPool* data_pool = SystemMemoryPool();
  static SchemaPtr schema;
  static const auto batches = MakeBatches(data_pool, &schema);
  auto sink = std::make_unique<BufferSink>(pool);
  BufferSink* raw = sink.get();
  IpcWriteOptions options;
  options.compression = compression;
  auto writer = IpcWriter::Open(std::move(sink), format, schema, options, pool);
  if (!writer.ok()) return nullptr;
  for (const auto& batch : batches) {
    if (!(*writer)->Write(*batch).ok()) return nullptr;
  }
  if (!(*writer)->Close().ok()) return nullptr;
  if (stats != nullptr) *stats = (*writer)->stats();
  return *raw->Finish();
}

void BM_IpcWrite(benchmark::State& state) {
  auto pool = MakeSystemMemoryPool();
  const IpcCompression compression = CompressionArg(state.range(0));
  IpcWriteStats stats;
  WriteToMemory(IpcFormat::kFile, compression, pool.get(), &stats);  // the table, made once
  testing::BenchmarkMemory memory(state, pool.get());
  for (auto _ : state) benchmark::DoNotOptimize(WriteToMemory(IpcFormat::kFile, compression, pool.get()));
  memory.Report();
  state.SetBytesProcessed(state.iterations() * stats.body_bytes_uncompressed);
  state.counters["file_MB"] = static_cast<double>(stats.bytes_written) / 1e6;
  state.SetLabel(std::string(IpcCompressionName(compression)));
}
BENCHMARK(BM_IpcWrite)->Arg(0)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond);

void BM_IpcReadStream(benchmark::State& state) {
  auto pool = MakeSystemMemoryPool();
  const IpcCompression compression = CompressionArg(state.range(0));
  IpcWriteStats stats;
  auto bytes = WriteToMemory(IpcFormat::kStream, compression, SystemMemoryPool(), &stats);
  testing::BenchmarkMemory memory(state, pool.get());
  for (auto _ : state) {
    auto reader = IpcStreamReader::Open(MakeMemoryInputStream(bytes->span()), {}, pool.get());
    if (!reader.ok()) return state.SkipWithError(reader.status().ToString().c_str());
    int64_t rows = 0;
    while (true) {
      auto batch = (*reader)->Next();
      if (!batch.ok()) return state.SkipWithError(batch.status().ToString().c_str());
      if (*batch == nullptr) break;
      rows += (*batch)->num_rows();
    }
    benchmark::DoNotOptimize(rows);
  }
  memory.Report();
  state.SetBytesProcessed(state.iterations() * stats.body_bytes_uncompressed);
  state.SetLabel(std::string(IpcCompressionName(compression)));
}
BENCHMARK(BM_IpcReadStream)->Arg(0)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond);

// The file format from a mapped file: uncompressed batches are the mapping's pages.
void BM_IpcReadMappedFile(benchmark::State& state) {
  auto pool = MakeSystemMemoryPool();
  const IpcCompression compression = CompressionArg(state.range(0));
  IpcWriteStats stats;
  auto bytes = WriteToMemory(IpcFormat::kFile, compression, SystemMemoryPool(), &stats);
  const std::string path = (std::filesystem::temp_directory_path() / "strata_ipc_benchmark.arrow").string();
  {
    auto sink = OpenFileSink(path, SystemMemoryPool());
    if (!sink.ok() || !(*sink)->Write(bytes->data(), bytes->size()).ok() || !(*sink)->Close().ok()) {
      return state.SkipWithError("cannot write the temporary file");
    }
  }
  IpcReadOptions options;
  options.memory_map = true;
  testing::BenchmarkMemory memory(state, pool.get());
  for (auto _ : state) {
    auto reader = IpcFileReader::Open(path, options, pool.get());
    if (!reader.ok()) return state.SkipWithError(reader.status().ToString().c_str());
    int64_t rows = 0;
    for (int i = 0; i < (*reader)->num_record_batches(); ++i) {
      auto batch = (*reader)->ReadRecordBatch(i);
      if (!batch.ok()) return state.SkipWithError(batch.status().ToString().c_str());
      rows += (*batch)->num_rows();
    }
    benchmark::DoNotOptimize(rows);
  }
  memory.Report();
  state.SetBytesProcessed(state.iterations() * stats.body_bytes_uncompressed);
  state.SetLabel(std::string(IpcCompressionName(compression)));
  std::filesystem::remove(path);
}
BENCHMARK(BM_IpcReadMappedFile)->Arg(0)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace strata::ipc

BENCHMARK_MAIN();
