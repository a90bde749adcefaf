// The writer's Bloom filters end to end: built large and folded to the values each chunk holds
// (no false negatives, the false-positive rate within the target, a size near the smallest that
// meets it), or sized for an explicit distinct count; capped by bloom_filter_max_bytes.
#include <gtest/gtest.h>

#include <vector>

#include "strata/array/primitive_builder.h"
#include "strata/parquet/stats/bloom_filter.h"
#include "strata/parquet/testing/random_arrays.h"
#include "strata/parquet/write/writer_test_util.h"

namespace strata::parquet {
namespace {

using testing::OpenBuffer;
using testing::WriteToBuffer;

MemoryPool* Pool() { return SystemMemoryPool(); }

// A bijection: value k of a column is Scramble(k), so Scramble(k) past the column's values is absent.
int64_t Scramble(int64_t k) { return static_cast<int64_t>(static_cast<uint64_t>(k) * 0x9E3779B97F4A7C15ULL + 99); }

std::shared_ptr<Schema> OneInt64() {
  return std::make_shared<Schema>(std::vector<FieldPtr>{std::make_shared<Field>("v", int64(), false)});
}

// `rows` rows cycling through `ndv` distinct values.
std::shared_ptr<RecordBatch> Cycling(int64_t rows, int64_t ndv) {
  Int64Builder builder(int64(), Pool());
  for (int64_t r = 0; r < rows; ++r) EXPECT_TRUE(builder.Append(Scramble(r % ndv)).ok());
  auto batch = RecordBatch::Make(OneInt64(), rows, {Array(*builder.Finish())});
  EXPECT_TRUE(batch.ok());
  return *batch;
}

// The filters of column 0, one per row group.
std::vector<std::unique_ptr<BloomFilter>> Filters(const std::shared_ptr<Schema>& schema,
                                                  const std::vector<std::shared_ptr<RecordBatch>>& batches,
                                                  const WriterOptions& options) {
  std::vector<std::unique_ptr<BloomFilter>> out;
  auto file = WriteToBuffer(schema, batches, options, Pool());
  EXPECT_TRUE(file.ok()) << file.status().ToString();
  if (!file.ok()) return out;
  auto reader = OpenBuffer(*file, Pool());
  EXPECT_TRUE(reader.ok());
  for (int g = 0; g < (*reader)->num_row_groups(); ++g) {
    auto filter = (*reader)->ReadBloomFilter(g, 0);
    EXPECT_TRUE(filter.ok() && *filter != nullptr) << g;
    if (filter.ok()) out.push_back(std::move(*filter));
  }
  return out;
}

double ObservedRate(const BloomFilter& filter, int64_t first_absent, int64_t probes) {
  int64_t hits = 0;
  for (int64_t k = 0; k < probes; ++k) hits += filter.FindHash(BloomFilter::HashInt64(Scramble(first_absent + k)));
  return static_cast<double>(hits) / static_cast<double>(probes);
}

// Without a dictionary the writer cannot count distinct values, and the old default sized the
// filter for every value (128 KiB for these 100,000 rows); folding finds the 10 values' size.
TEST(ChunkBloomFilterTest, FoldsToTheDistinctValuesWithoutADictionary) {
  constexpr int64_t kRows = 100'000;
  for (const int64_t ndv : {int64_t{10}, int64_t{10'000}, kRows}) {
    for (const bool dictionary : {false, true}) {
      WriterOptions options;
      options.columns.bloom_filter = true;
      options.columns.dictionary = dictionary;
      auto filters = Filters(OneInt64(), {Cycling(kRows, ndv)}, options);
      ASSERT_EQ(filters.size(), 1u);
      const BloomFilter& filter = *filters[0];
      for (int64_t k = 0; k < ndv; ++k) ASSERT_TRUE(filter.FindHash(BloomFilter::HashInt64(Scramble(k)))) << k;
      const double fpp = options.columns.bloom_filter_fpp;
      EXPECT_LE(filter.FalsePositiveRate(), fpp) << ndv;
      EXPECT_LE(ObservedRate(filter, kRows, 100'000), fpp * 1.15) << ndv;
      EXPECT_LE(filter.num_bytes(), 2 * BloomFilter::OptimalNumBytes(ndv, fpp)) << ndv << " dictionary " << dictionary;
    }
  }
}

// Every row group's filter folds on its own, and a nested column's too (bounded by
// bloom_filter_max_bytes alone before folding).
TEST(ChunkBloomFilterTest, EachRowGroupAndNestedColumnsFold) {
  WriterOptions options;
  options.columns.bloom_filter = true;
  options.columns.dictionary = false;
  options.file.max_row_group_rows = 30'000;
  auto filters = Filters(OneInt64(), {Cycling(90'000, 3'000)}, options);
  ASSERT_EQ(filters.size(), 3u);
  for (const auto& filter : filters) {
    EXPECT_EQ(filter->num_bytes(), filters[0]->num_bytes());
    EXPECT_LE(filter->num_bytes(), 2 * BloomFilter::OptimalNumBytes(3'000, 0.05));
    EXPECT_LE(filter->FalsePositiveRate(), 0.05);
  }

  auto schema = std::make_shared<Schema>(std::vector<FieldPtr>{std::make_shared<Field>("l", list(int64()))});
  auto batch = testing::RandomBatch(schema, 2'000, 5, Pool());
  ASSERT_TRUE(batch.ok());
  auto nested = Filters(schema, {*batch}, options);
  ASSERT_EQ(nested.size(), 1u);
  EXPECT_LT(nested[0]->num_bytes(), options.columns.bloom_filter_max_bytes);
  EXPECT_LE(nested[0]->FalsePositiveRate(), 0.05);
}

// An explicit distinct count sizes the filter by the spec's formula, unfolded; the cap holds.
TEST(ChunkBloomFilterTest, ExplicitDistinctCountAndTheCap) {
  WriterOptions options;
  options.columns.bloom_filter = true;
  options.columns.bloom_filter_ndv = 50'000;
  auto sized = Filters(OneInt64(), {Cycling(10'000, 10)}, options);
  ASSERT_EQ(sized.size(), 1u);
  EXPECT_EQ(sized[0]->num_bytes(), BloomFilter::OptimalNumBytes(50'000, 0.05));

  options.columns.bloom_filter_ndv = 0;
  options.columns.bloom_filter_max_bytes = 5000;  // rounded down to 4 KiB
  options.columns.dictionary = false;
  auto capped = Filters(OneInt64(), {Cycling(100'000, 100'000)}, options);
  ASSERT_EQ(capped.size(), 1u);
  EXPECT_EQ(capped[0]->num_bytes(), 4096);
  for (int64_t k = 0; k < 100'000; k += 7) ASSERT_TRUE(capped[0]->FindHash(BloomFilter::HashInt64(Scramble(k))));

  options.columns.bloom_filter_max_bytes = 16;
  EXPECT_FALSE(options.Validate().ok());
}

}  // namespace
}  // namespace strata::parquet
