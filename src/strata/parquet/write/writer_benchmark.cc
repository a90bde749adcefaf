// The Parquet write path through FileWriter (level builder, column writers, encoders, pages,
// footer) into an in-memory BufferSink, one thread, on batches built once per process so only
// writing is timed. Per case: MB/s of the values' in-memory bytes, rows per second, and the
// pool's bytes allocated, allocations, reallocations and peak per file written.
//
// The cases mirror arrow-go's nullable-write regression (nullable columns 16x slower to write):
// one int32, int64, float32 or float64 column, required, nullable without nulls and nullable
// with 10% nulls, written PLAIN uncompressed without a dictionary (the writer's own cost) and
// with the defaults (dictionary, snappy); and 10..30-byte random ASCII strings. Compare the
// items_per_second of /required against /nullable10 of the same case for the per-value cost
// of nulls. BM_WriteToDiscardingSink repeats some PLAIN cases into a sink that only counts the
// bytes: the difference is what BufferSink's growth (doubling reallocations, fresh pages)
// costs, which is not the writer's.
#include <benchmark/benchmark.h>

#include <cstring>
#include <map>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "strata/array/bitmap.h"
#include "strata/io/output_sink.h"
#include "strata/memory/malloc_tuning.h"
#include "strata/parquet/write/file_writer.h"
#include "strata/parquet/testing/random_arrays.h"
#include "strata/testing/benchmark_memory.h"

namespace strata::parquet {
namespace {

namespace pt = strata::parquet::testing;

// 1M rows in 16 batches of 64K: one row group (the default max_row_group_rows), 8 MB of int64
// values, a few milliseconds per file at the 2 GB/s.
constexpr int64_t kBatchRows = 64 * 1024;
constexpr int kBatches = 16;
constexpr int64_t kRows = kBatchRows * kBatches;
constexpr int kMinStringBytes = 10;
constexpr int kMaxStringBytes = 30;
constexpr int64_t kVocabulary = 1000;  // distinct strings of the dictionary string case

enum class Nulls { kRequired = 0, kNullableNoNulls = 1, kNullableTenPercent = 2 };
enum class Config { kPlainUncompressed = 0, kDefaults = 1 };
// PLAIN uncompressed; dictionary uncompressed over kVocabulary strings; the defaults
// (dictionary, snappy) on unique strings, where the dictionary overflows and falls back.
enum class StringCase { kPlain = 0, kDictionary = 1, kDefaultsUnique = 2 };

struct Input {
  std::shared_ptr<Schema> schema;
  std::vector<std::shared_ptr<RecordBatch>> batches;
  int64_t value_bytes = 0;  // the values' in-memory bytes: fixed-width slots, or offsets + chars
};

int64_t ValueBytes(const Array& column) {
  // buffers[0] is the validity bitmap: not counted.
  int64_t total = 0;
  for (size_t i = 1; i < column.data()->buffers.size(); ++i) {
    const auto& buffer = column.data()->buffers[i];
    total += buffer ? buffer->size() : 0;
  }
  return total;
}

Input MakeInput(std::shared_ptr<Schema> schema, std::vector<std::shared_ptr<RecordBatch>> batches) {
  Input input{std::move(schema), std::move(batches), 0};
  for (const auto& batch : input.batches) input.value_bytes += ValueBytes(batch->column(0));
  return input;
}

[[noreturn]] void Die(const Status& status) {
  std::fprintf(stderr, "building the benchmark input failed: %s\n", status.ToString().c_str());
  std::abort();
}

const Input& NumericInput(const TypePtr& type, Nulls nulls) {
  // Never destroyed: its buffers belong to SystemMemoryPool(), a static that may be made after
  // this map (in RandomBatch) and so destroyed before it at exit (a crash at exit otherwise).
  static auto& inputs = *new std::map<std::pair<std::string, Nulls>, Input>;
  const auto key = std::make_pair(type->ToString(), nulls);
  auto it = inputs.find(key);
  if (it != inputs.end()) return it->second;
  auto schema = std::make_shared<Schema>(
      std::vector<FieldPtr>{std::make_shared<Field>("c", type, nulls != Nulls::kRequired)});
  pt::RandomArrayOptions options;
  options.null_fraction = nulls == Nulls::kNullableTenPercent ? 0.1 : 0.0;  // 0: no validity bitmap
  std::vector<std::shared_ptr<RecordBatch>> batches;
  for (int i = 0; i < kBatches; ++i) {
    auto batch = pt::RandomBatch(schema, kBatchRows, static_cast<uint64_t>(i + 1), SystemMemoryPool(), options);
    if (!batch.ok()) Die(batch.status());
    batches.push_back(*batch);
  }
  return inputs[key] = MakeInput(schema, std::move(batches));
}

// 10..30 random ASCII letters per value; with `vocabulary` > 0 drawn from that many distinct
// strings. Nulls (10% with kNullableTenPercent) hold no bytes.
Result<Array> RandomStrings(int64_t rows, Nulls nulls, int64_t vocabulary, std::mt19937_64& random) {
  std::vector<std::string> words;
  std::uniform_int_distribution<int> length(kMinStringBytes, kMaxStringBytes);
  std::uniform_int_distribution<int> letter(' ' + 1, '~');  // printable, no space
  auto random_text = [&] {
    std::string s(static_cast<size_t>(length(random)), ' ');
    for (char& c : s) c = static_cast<char>(letter(random));
    return s;
  };
  for (int64_t i = 0; i < vocabulary; ++i) words.push_back(random_text());

  auto data = std::make_shared<ArrayData>();
  data->type = utf8();
  data->length = rows;
  data->null_count = 0;
  std::shared_ptr<Buffer> validity;
  if (nulls == Nulls::kNullableTenPercent) {
    STRATA_ASSIGN_OR_RETURN(auto bits, AllocateBuffer(SystemMemoryPool(), bitmap::BytesForBits(rows)));
    std::memset(bits->mutable_data(), 0, static_cast<size_t>(bits->size()));
    validity = bits;
  }
  STRATA_ASSIGN_OR_RETURN(auto offsets, AllocateBuffer(SystemMemoryPool(), (rows + 1) * 4));
  auto chars = std::make_shared<ResizableBuffer>(SystemMemoryPool());
  STRATA_RETURN_NOT_OK(chars->Reserve(rows * (kMinStringBytes + kMaxStringBytes) / 2 + kMaxStringBytes));
  auto* o = offsets->mutable_data_as<int32_t>();
  o[0] = 0;
  std::bernoulli_distribution is_null(0.1);
  for (int64_t i = 0; i < rows; ++i) {
    if (validity != nullptr && is_null(random)) {
      ++data->null_count;
    } else {
      if (validity != nullptr) bitmap::SetBit(validity->mutable_data(), i);
      const std::string text = vocabulary > 0 ? words[random() % static_cast<uint64_t>(vocabulary)] : random_text();
      STRATA_RETURN_NOT_OK(chars->Append(text.data(), static_cast<int64_t>(text.size())));
    }
    o[i + 1] = static_cast<int32_t>(chars->size());
  }
  data->buffers = {validity, offsets, chars};
  return Array(data);
}

const Input& StringInput(Nulls nulls, int64_t vocabulary) {
  static auto& inputs = *new std::map<std::pair<Nulls, int64_t>, Input>;  // never destroyed: see NumericInput
  const auto key = std::make_pair(nulls, vocabulary);
  auto it = inputs.find(key);
  if (it != inputs.end()) return it->second;
  auto schema = std::make_shared<Schema>(
      std::vector<FieldPtr>{std::make_shared<Field>("s", utf8(), nulls != Nulls::kRequired)});
  std::mt19937_64 random(42);
  std::vector<std::shared_ptr<RecordBatch>> batches;
  for (int i = 0; i < kBatches; ++i) {
    auto column = RandomStrings(kBatchRows, nulls, vocabulary, random);
    if (!column.ok()) Die(column.status());
    auto batch = RecordBatch::Make(schema, kBatchRows, {*column});
    if (!batch.ok()) Die(batch.status());
    batches.push_back(*batch);
  }
  return inputs[key] = MakeInput(schema, std::move(batches));
}

WriterOptions OptionsFor(bool plain_uncompressed) {
  WriterOptions options;
  if (plain_uncompressed) {
    options.columns.dictionary = false;
    options.columns.encoding = Encoding::kPlain;
    options.columns.codec = codec::CompressionCodec::kUncompressed;
  }
  // Everything else at the defaults: statistics, page index and page CRCs on, V1 pages.
  return options;
}

// Counts the bytes and drops them.
class DiscardingSink final : public OutputSink {
 public:
  Status Write(const void*, int64_t size) override {
    position_ += size;
    return Status::OK();
  }
  Status Close() override { return Status::OK(); }
  void Abort() override {}
  const std::string& name() const override { return name_; }

 private:
  std::string name_ = "<discard>";
};

enum class SinkKind { kBuffer, kDiscard };

// Writes every batch of `input` as one file per iteration (open, write, close; the sink's bytes
// are dropped with it).
void WriteFile(benchmark::State& state, const Input& input, const WriterOptions& options,
               SinkKind sink_kind = SinkKind::kBuffer) {
  auto pool = MakeSystemMemoryPool();
  int64_t file_bytes = 0;
  strata::testing::BenchmarkMemory memory(state, pool.get());
  for (auto _ : state) {
    std::unique_ptr<OutputSink> sink;
    if (sink_kind == SinkKind::kBuffer) {
      sink = std::make_unique<BufferSink>(pool.get());
    } else {
      sink = std::make_unique<DiscardingSink>();
    }
    auto writer = FileWriter::Open(std::move(sink), input.schema, pool.get(), options);
    if (!writer.ok()) {
      state.SkipWithError(writer.status().ToString().c_str());
      return;
    }
    for (const auto& batch : input.batches) {
      const Status status = (*writer)->WriteBatch(*batch);
      if (!status.ok()) {
        state.SkipWithError(status.ToString().c_str());
        return;
      }
    }
    const Status closed = (*writer)->Close();
    if (!closed.ok()) {
      state.SkipWithError(closed.ToString().c_str());
      return;
    }
    file_bytes = (*writer)->bytes_written();
    benchmark::DoNotOptimize(file_bytes);
  }
  memory.Report();
  state.SetItemsProcessed(state.iterations() * kRows);
  state.SetBytesProcessed(state.iterations() * input.value_bytes);
  state.counters["file_bytes"] = benchmark::Counter(static_cast<double>(file_bytes));
}

TypePtr NumericType(int64_t index) {
  switch (index) {
    case 0: return int32();
    case 1: return int64();
    case 2: return float32();
    default: return float64();
  }
}

const char* NullsName(Nulls nulls) {
  switch (nulls) {
    case Nulls::kRequired: return "required";
    case Nulls::kNullableNoNulls: return "nullable0";
    case Nulls::kNullableTenPercent: return "nullable10";
  }
  return "?";
}

// Args: type (0 int32, 1 int64, 2 float32, 3 float64), Nulls, Config.
void BM_WriteNumeric(benchmark::State& state) {
  const auto nulls = static_cast<Nulls>(state.range(1));
  const auto config = static_cast<Config>(state.range(2));
  const TypePtr type = NumericType(state.range(0));
  state.SetLabel(fmt::format("{}/{}/{}", type->ToString(), NullsName(nulls),
                             config == Config::kDefaults ? "dict+snappy" : "plain"));
  WriteFile(state, NumericInput(type, nulls), OptionsFor(config == Config::kPlainUncompressed));
}
BENCHMARK(BM_WriteNumeric)
    ->ArgNames({"type", "nulls", "config"})
    ->ArgsProduct({{0, 1, 2, 3}, {0, 1, 2}, {0, 1}})
    ->Unit(benchmark::kMillisecond);

// Args: StringCase, Nulls.
void BM_WriteStrings(benchmark::State& state) {
  const auto string_case = static_cast<StringCase>(state.range(0));
  const auto nulls = static_cast<Nulls>(state.range(1));
  WriterOptions options = OptionsFor(string_case != StringCase::kDefaultsUnique);
  if (string_case == StringCase::kDictionary) options.columns.dictionary = true;
  const char* names[] = {"plain", "dict1000", "dict+snappy,unique"};
  state.SetLabel(fmt::format("utf8/{}/{}", NullsName(nulls), names[state.range(0)]));
  WriteFile(state, StringInput(nulls, string_case == StringCase::kDictionary ? kVocabulary : 0), options);
}
BENCHMARK(BM_WriteStrings)
    ->ArgNames({"case", "nulls"})
    ->ArgsProduct({{0, 1, 2}, {0, 1, 2}})
    ->Unit(benchmark::kMillisecond);

// Args: 0..3 the numeric types of BM_WriteNumeric / 4 strings, Nulls; PLAIN uncompressed into
// DiscardingSink. Without the sink's page faults and growth these runs are the steadiest
// measure of what nulls cost the writer (compare /required with /nullable10).
void BM_WriteToDiscardingSink(benchmark::State& state) {
  const auto nulls = static_cast<Nulls>(state.range(1));
  const bool strings = state.range(0) == 4;
  const TypePtr type = strings ? utf8() : NumericType(state.range(0));
  state.SetLabel(fmt::format("{}/{}/plain,discard", type->ToString(), NullsName(nulls)));
  WriteFile(state, strings ? StringInput(nulls, 0) : NumericInput(type, nulls), OptionsFor(true), SinkKind::kDiscard);
}
BENCHMARK(BM_WriteToDiscardingSink)
    ->ArgNames({"type", "nulls"})
    ->ArgsProduct({{0, 1, 2, 3, 4}, {0, 2}})
    ->Unit(benchmark::kMillisecond);

// What content-defined chunking costs the writer (docs/parquet.md): the defaults (dictionary,
// snappy) with and without it. Args: 0 int64 required, 1 int64 with 10% nulls (the general
// walk over levels), 2 unique strings, 3 strings from 1,000; chunking off / on (Arrow's sizes).
void BM_WriteContentDefined(benchmark::State& state) {
  const bool cdc = state.range(1) != 0;
  WriterOptions options = OptionsFor(false);
  options.columns.content_defined_chunking.enabled = cdc;
  const char* names[] = {"int64/required", "int64/nullable10", "utf8/unique", "utf8/dict1000"};
  state.SetLabel(fmt::format("{}/{}", names[state.range(0)], cdc ? "cdc" : "pages by count"));
  switch (state.range(0)) {
    case 0: return WriteFile(state, NumericInput(int64(), Nulls::kRequired), options);
    case 1: return WriteFile(state, NumericInput(int64(), Nulls::kNullableTenPercent), options);
    case 2: return WriteFile(state, StringInput(Nulls::kRequired, 0), options);
    default: return WriteFile(state, StringInput(Nulls::kRequired, kVocabulary), options);
  }
}
BENCHMARK(BM_WriteContentDefined)
    ->ArgNames({"case", "cdc"})
    ->ArgsProduct({{0, 1, 2, 3}, {0, 1}})
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace strata::parquet

// malloc as the CLI sets it: without it, whether a file's fresh buffers fault in again depends
// on whether glibc trimmed the heap after the previous file, which made the same case run 3.5
// or 34 ms per file from one repetition to the next.
int main(int argc, char** argv) {
  strata::KeepFreedMemoryForReuse();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
