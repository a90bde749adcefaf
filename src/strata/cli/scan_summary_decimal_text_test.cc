// Decimals wider than decimal256 (precision above 76) read as exact text; the scan summary
// names them decimal(P,S) and takes their min and max in numeric order, not text order
// (SCAN-SUMMARY.md). DuckDB reads such columns as DOUBLE (testing/peers/README.md's known
// gaps) and cannot write them, so the file test computes its expected extremes itself: from
// the stored two's complement bytes, compared as signed integers, and printed by the CLI's
// big-endian decimal formatter (value_format.h), not by the reader's decimal text.
#include <gtest/gtest.h>

#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "strata/cli/input_source.h"
#include "strata/cli/scan_summary.h"
#include "strata/cli/value_format.h"
#include "strata/exec/process_pool.h"
#include "strata/parquet/decimal_text.h"
#include "strata/parquet/testing/duckdb_fixture.h"
#include "strata/parquet/testing/file_builder.h"

namespace strata::cli {
namespace {

ArrayDataPtr Texts(const std::vector<std::optional<std::string>>& values) {
  std::vector<int32_t> offsets{0};
  std::string data;
  std::vector<uint8_t> bits((values.size() + 7) / 8, 0);
  int64_t nulls = 0;
  for (size_t i = 0; i < values.size(); ++i) {
    if (values[i]) {
      data += *values[i];
      bits[i / 8] = static_cast<uint8_t>(bits[i / 8] | (1u << (i % 8)));
    } else {
      ++nulls;
    }
    offsets.push_back(static_cast<int32_t>(data.size()));
  }
  auto copy = [](const void* p, size_t n) {
    auto buffer = *AllocateBuffer(SystemMemoryPool(), static_cast<int64_t>(n));
    if (n) std::memcpy(buffer->mutable_data(), p, n);
    return std::shared_ptr<Buffer>(std::move(buffer));
  };
  return ArrayData::Make(utf8(), static_cast<int64_t>(values.size()),
                         {copy(bits.data(), bits.size()), copy(offsets.data(), offsets.size() * 4), copy(data.data(), data.size())},
                         nulls);
}

std::string MinMax(const std::string& json) {
  const size_t min = json.find("\"type\":");
  return min == std::string::npos ? json : json.substr(min);
}

// Text order would give min "-0.50" (it sorts below "-12.00") and max "9.99".
TEST(ScanSummaryDecimalTextTest, DecimalTextIsSummarisedInNumericOrder) {
  const KeyValueMetadata decimal({{std::string(parquet::kDecimalTextMetadataKey), "decimal(80, 2)"}});
  auto s = schema({field("d", utf8(), true, decimal), field("plain", utf8())});
  const std::vector<std::optional<std::string>> first = {"-0.50", "9.99", std::nullopt, "-12.00", "100.00"};
  const std::vector<std::optional<std::string>> second = {"0.00", "-100.01", "99.99", "-0.01"};
  ScanSummary summary(*s);
  for (const auto* values : {&first, &second}) {
    auto texts = Texts(*values);
    summary.Add(RecordBatch(s, texts->length, {Array(texts), Array(texts)}));
  }
  EXPECT_EQ(summary.ToJson(),
            "{\"rows\":9,\"columns\":["
            "{\"name\":\"d\",\"type\":\"decimal(80,2)\",\"count\":8,\"nulls\":1,\"min\":\"-100.01\",\"max\":\"100.00\"},"
            "{\"name\":\"plain\",\"type\":\"string\",\"count\":8,\"nulls\":1,\"min\":\"-0.01\",\"max\":\"99.99\"}]}");

  // Merged partials (a parallel scan) keep the numeric order: each half alone, then folded.
  ScanSummary a(*s), b(*s);
  auto t1 = Texts(first), t2 = Texts(second);
  a.Add(RecordBatch(s, t1->length, {Array(t1), Array(t1)}));
  b.Add(RecordBatch(s, t2->length, {Array(t2), Array(t2)}));
  EXPECT_NE(MinMax(a.ToJson()).find("\"min\":\"-12.00\",\"max\":\"100.00\""), std::string::npos) << a.ToJson();
  b.Merge(a);
  EXPECT_EQ(b.ToJson(), summary.ToJson());

  // Zero, and equal values written at other lengths, compare as numbers.
  ScanSummary zeros(*s);
  auto z = Texts({"0.00", "-0.00", "0.10", "0.1", "-0.001"});
  zeros.Add(RecordBatch(s, z->length, {Array(z), Array(z)}));
  EXPECT_NE(zeros.ToJson().find("\"min\":\"-0.001\",\"max\":\"0.10\""), std::string::npos) << zeros.ToJson();
}

// Big-endian two's complement of `length` bytes (1..32), sign-extended to 32.
std::string SignExtend(const std::string& bytes) {
  const char fill = (static_cast<unsigned char>(bytes[0]) & 0x80) ? '\xff' : '\0';
  return std::string(32 - bytes.size(), fill) + bytes;
}

// A DECIMAL(77,38) BYTE_ARRAY column of random values 1 to 32 bytes long (any 32-byte value has
// fewer than 77 digits), read by `strata scan`'s path (OpenBatchSource, ScanSummary).
TEST(ScanSummaryDecimalTextTest, WideByteArrayDecimalFileIsSummarisedInNumericOrder) {
  std::mt19937_64 random(77);
  std::vector<std::string> values;
  std::vector<bool> validity;
  std::string lo_key, hi_key;  // sign-extended, sign bit flipped: bytewise order is numeric order
  for (int i = 0; i < 5000; ++i) {
    const bool valid = i % 13 != 4;
    validity.push_back(valid);
    if (!valid) {
      values.emplace_back();
      continue;
    }
    std::string bytes(1 + random() % 32, '\0');
    for (char& c : bytes) c = static_cast<char>(random());
    values.push_back(bytes);
    std::string key = SignExtend(bytes);
    key[0] = static_cast<char>(key[0] ^ 0x80);
    if (lo_key.empty() || key < lo_key) lo_key = key;
    if (hi_key.empty() || key > hi_key) hi_key = key;
  }
  auto unflip = [](std::string key) {
    key[0] = static_cast<char>(key[0] ^ 0x80);
    return FormatDecimalBigEndian(reinterpret_cast<const uint8_t*>(key.data()), 32, 38);
  };
  const std::string expected_min = unflip(lo_key), expected_max = unflip(hi_key);
  ASSERT_EQ(expected_min[0], '-');  // 5000 random values: both signs, many lengths

  parquet::testing::ColumnOptions column;
  column.name = "d";
  column.physical_type = parquet::PhysicalType::kByteArray;
  column.logical_type = parquet::testing::DecimalLogicalType(77, 38);
  column.rows_per_page = 700;
  parquet::testing::ScopedTempDir dir("strata_decimal_text_");
  const std::string path = (dir / "wide_decimal.parquet").string();
  auto builder = parquet::testing::TestFileBuilder::MakeForFile({column}, path);
  ASSERT_TRUE(builder.ok()) << builder.status().ToString();
  ASSERT_TRUE((*builder)->AddRowGroups({parquet::testing::ColumnValues::ByteArrays(values, validity)}, 2000).ok());
  ASSERT_TRUE((*builder)->Finish().ok());

  for (const int threads : {1, 2}) {
    SourceOptions options;
    options.executor = exec::ProcessExecutor(threads);
    auto source = OpenBatchSource(path, CsvCliOptions{}, options, SystemMemoryPool());
    ASSERT_TRUE(source.ok()) << source.status().ToString();
    ScanSummary summary(*(*source)->schema());
    while (true) {
      auto batch = (*source)->Next();
      ASSERT_TRUE(batch.ok()) << batch.status().ToString();
      if (*batch == nullptr) break;
      summary.Add(**batch);
    }
    const int64_t nulls = 5000 / 13 + 1;
    EXPECT_EQ(summary.ToJson(), "{\"rows\":5000,\"columns\":[{\"name\":\"d\",\"type\":\"decimal(77,38)\",\"count\":" +
                                    std::to_string(5000 - nulls) + ",\"nulls\":" + std::to_string(nulls) +
                                    ",\"min\":\"" + expected_min + "\",\"max\":\"" + expected_max + "\"}]}");
  }
}

}  // namespace
}  // namespace strata::cli
