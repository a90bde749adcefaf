#include "strata/cli/row_format.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <optional>

#include "strata/array/binary_builder.h"
#include "strata/array/primitive_builder.h"
#include "strata/util/utf8.h"
#include "strata/parquet/read/file_reader.h"
#include "strata/testing/test_data.h"
#include "strata/variant/variant_extension.h"

namespace strata::cli {
namespace {

// The example file that ships in examples/ (2,000 taxi trips written by DuckDB).
std::shared_ptr<RecordBatch> FirstTrips(int64_t rows) {
  const char* source = std::getenv("STRATA_SOURCE_DIR");
  const std::string path = std::string(source ? source : ".") + "/examples/trips.parquet";
  auto reader = parquet::FileReader::OpenFile(path, SystemMemoryPool());
  EXPECT_TRUE(reader.ok()) << reader.status().ToString();
  if (!reader.ok()) return nullptr;
  parquet::BatchReadOptions options;
  options.batch_rows = rows;
  auto batches = (*reader)->ReadBatches(options);
  EXPECT_TRUE(batches.ok());
  auto batch = (*batches)->Next();
  EXPECT_TRUE(batch.ok());
  return batch.ok() ? *batch : nullptr;
}

std::string Write(const RecordBatch& batch, RowFormat format, int max_width = kDefaultMaxCellWidth) {
  RowWriter writer(*batch.schema(), format, max_width);
  std::string out;
  writer.Append(batch, &out);
  writer.Finish(&out);
  return out;
}

// A batch of an int64 column "id" and a string column "name" (strings taken as raw bytes).
std::shared_ptr<RecordBatch> IdsAndNames(const std::vector<std::optional<int64_t>>& ids,
                                         const std::vector<std::optional<std::string>>& names) {
  Int64Builder id_builder(int64(), SystemMemoryPool());
  for (auto v : ids) EXPECT_TRUE((v ? id_builder.Append(*v) : id_builder.AppendNull()).ok());
  StringBuilder name_builder(utf8(), SystemMemoryPool());
  for (const auto& v : names) EXPECT_TRUE((v ? name_builder.Append(*v) : name_builder.AppendNull()).ok());
  auto batch = RecordBatch::Make(schema({field("id", int64()), field("name", utf8())}),
                                 static_cast<int64_t>(ids.size()),
                                 {Array(*id_builder.Finish()), Array(*name_builder.Finish())});
  EXPECT_TRUE(batch.ok()) << batch.status().ToString();
  return *batch;
}

TEST(RowFormatTest, CsvWritesHeaderAndValues) {
  auto batch = FirstTrips(3);
  ASSERT_NE(batch, nullptr);
  EXPECT_EQ(Write(*batch, RowFormat::kCsv),
            "trip_id,pickup_at,pickup_date,fare,distance_km,passengers,vendor,notes,store_and_forward\n"
            "1,2024-03-01T00:22:41,2024-03-01,30.24,4.55,4,Northline,waited 5 min,false\n"
            "2,2024-03-01T00:52:01,2024-03-01,34.94,7.83,4,Northline,waited 5 min,false\n"
            "3,2024-03-01T01:09:32,2024-03-01,62.66,8.01,1,Verde Taxi,wheelchair access,false\n");
}

TEST(RowFormatTest, CsvHeaderComesOnceEvenWithoutRows) {
  auto batch = IdsAndNames({1, 2}, {"a,b", std::nullopt});
  RowWriter writer(*batch->schema(), RowFormat::kCsv);
  std::string out;
  writer.Append(*batch->Slice(0, 1), &out);
  writer.Append(*batch->Slice(1, 1), &out);
  writer.Finish(&out);
  EXPECT_EQ(out, "id,name\n1,\"a,b\"\n2,\n");
  RowWriter empty(*batch->schema(), RowFormat::kCsv);
  std::string header;
  empty.Finish(&header);
  EXPECT_EQ(header, "id,name\n");
}

TEST(RowFormatTest, JsonLinesTypesNumbersAndStrings) {
  auto batch = FirstTrips(1);
  ASSERT_NE(batch, nullptr);
  EXPECT_EQ(Write(*batch, RowFormat::kJsonLines),
            "{\"trip_id\":1,\"pickup_at\":\"2024-03-01T00:22:41\",\"pickup_date\":\"2024-03-01\",\"fare\":\"30.24\","
            "\"distance_km\":4.55,\"passengers\":4,\"vendor\":\"Northline\",\"notes\":\"waited 5 min\","
            "\"store_and_forward\":false}\n");
}

TEST(RowFormatTest, JsonIsOneArrayAcrossBatches) {
  auto batch = IdsAndNames({1, std::nullopt}, {"a", std::nullopt});
  RowWriter writer(*batch->schema(), RowFormat::kJson);
  std::string out;
  writer.Append(*batch, &out);
  writer.Append(*batch->Slice(0, 0), &out);
  writer.Append(*batch->Slice(0, 1), &out);
  writer.Finish(&out);
  EXPECT_EQ(out, "[\n{\"id\":1,\"name\":\"a\"},\n{\"id\":null,\"name\":null},\n{\"id\":1,\"name\":\"a\"}\n]\n");
  RowWriter empty(*batch->schema(), RowFormat::kJson);
  std::string nothing;
  empty.Finish(&nothing);
  EXPECT_EQ(nothing, "[]\n");
}

TEST(RowFormatTest, TableAlignsNumbersRightAndStringsLeft) {
  auto batch = FirstTrips(3);
  ASSERT_NE(batch, nullptr);
  auto shown = RecordBatch::Make(schema({batch->schema()->field(0), batch->schema()->field(3),
                                         batch->schema()->field(6), batch->schema()->field(7)}),
                                 3, {batch->column(0), batch->column(3), batch->column(6), batch->column(7)});
  ASSERT_TRUE(shown.ok());
  EXPECT_EQ(Write(**shown, RowFormat::kTable),
            "┌─────────┬───────┬────────────┬───────────────────┐\n"
            "│ trip_id │ fare  │   vendor   │       notes       │\n"
            "├─────────┼───────┼────────────┼───────────────────┤\n"
            "│       1 │ 30.24 │ Northline  │ waited 5 min      │\n"
            "│       2 │ 34.94 │ Northline  │ waited 5 min      │\n"
            "│       3 │ 62.66 │ Verde Taxi │ wheelchair access │\n"
            "└─────────┴───────┴────────────┴───────────────────┘\n");
}

TEST(RowFormatTest, TableShowsNullsAndCutsWideCells) {
  auto batch = IdsAndNames({7, std::nullopt, 123456}, {"a rather long name", std::nullopt, "日本語の名前"});
  EXPECT_EQ(Write(*batch, RowFormat::kTable, 10),
            "┌────────┬────────────┐\n"
            "│   id   │    name    │\n"
            "├────────┼────────────┤\n"
            "│      7 │ a rather … │\n"
            "│   NULL │ NULL       │\n"
            "│ 123456 │ 日本語の…  │\n"
            "└────────┴────────────┘\n");
}

TEST(RowFormatTest, TableWithoutRowsIsItsHeader) {
  auto batch = IdsAndNames({}, {});
  EXPECT_EQ(Write(*batch, RowFormat::kTable),
            "┌────┬──────┐\n"
            "│ id │ name │\n"
            "├────┼──────┤\n"
            "└────┴──────┘\n");
}

TEST(RowFormatTest, TableOpensAWiderBoxOnlyWhenABatchNeedsIt) {
  auto narrow = IdsAndNames({1}, {"ab"});
  auto wide = IdsAndNames({22}, {"abcdef"});
  RowWriter writer(*narrow->schema(), RowFormat::kTable);
  std::string out;
  writer.Append(*wide, &out);
  writer.Append(*narrow, &out);  // fits: same box
  EXPECT_EQ(out,
            "┌────┬────────┐\n"
            "│ id │  name  │\n"
            "├────┼────────┤\n"
            "│ 22 │ abcdef │\n"
            "│  1 │ ab     │\n");
  out.clear();
  writer.Append(*IdsAndNames({333}, {"x"}), &out);  // id needs a third column
  writer.Finish(&out);
  EXPECT_EQ(out,
            "└────┴────────┘\n"
            "┌─────┬────────┐\n"
            "│ id  │  name  │\n"
            "├─────┼────────┤\n"
            "│ 333 │ x      │\n"
            "└─────┴────────┘\n");
}

TEST(RowFormatTest, DisplayTextEscapesControlsAndInvalidBytes) {
  std::string out;
  EXPECT_EQ(AppendDisplayText("a\tb\nc\x1b", 32, &out), 11);
  EXPECT_EQ(out, "a\\tb\\nc\\x1b");
  out.clear();
  EXPECT_EQ(AppendDisplayText("ok\xff\xc3(", 32, &out), 5);
  EXPECT_EQ(out, "ok\xef\xbf\xbd\xef\xbf\xbd(");
  out.clear();
  EXPECT_EQ(AppendDisplayText("abcdef", 6, &out), 6);  // exactly the limit: not cut
  EXPECT_EQ(out, "abcdef");
  out.clear();
  EXPECT_EQ(AppendDisplayText("abcdefg", 6, &out), 6);
  EXPECT_EQ(out, "abcde…");
  out.clear();
  EXPECT_EQ(AppendDisplayText("a\nb", 2, &out), 2);  // an escape is never split
  EXPECT_EQ(out, "a…");
}

TEST(RowFormatTest, JsonStaysValidUtf8WhateverTheBytes) {
  // Invalid bytes: a lone continuation, a truncated 3-byte sequence, an overlong '/', a
  // surrogate, then a control character and valid multi-byte text.
  const std::string raw = std::string("x\x80y\xe2\x82z\xc0\xaf\xed\xa0\x80") + "\x01\u00e9\U0001F600";
  ASSERT_FALSE(ValidateUtf8(raw));
  auto batch = IdsAndNames({1}, {raw});
  for (RowFormat format : {RowFormat::kJsonLines, RowFormat::kJson}) {
    const std::string out = Write(*batch, format);
    EXPECT_TRUE(ValidateUtf8(out)) << out;
    EXPECT_NE(out.find("\"name\":\"x\xef\xbf\xbdy\xef\xbf\xbd\xef\xbf\xbdz\xef\xbf\xbd\xef\xbf\xbd"
                       "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\\u0001\u00e9\U0001F600\""),
              std::string::npos)
        << out;
  }
  const std::string table = Write(*batch, RowFormat::kTable);
  EXPECT_TRUE(ValidateUtf8(table)) << table;
}

// A variant column prints as JSON itself (parquet-testing's shredded_variant case 83: a null
// row, then objects rebuilt from shredded fields and the residual value).
TEST(RowFormatTest, VariantColumnsPrintAsJson) {
  const std::string dir = strata::testing::ParquetTestingDir();
  STRATA_REQUIRE_OR_SKIP(!dir.empty(), "parquet-testing folder not found (set STRATA_PARQUET_TESTING)");
  auto reader = parquet::FileReader::OpenFile(dir + "/shredded_variant/case-083.parquet", SystemMemoryPool());
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  auto batches = (*reader)->ReadBatches();
  ASSERT_TRUE(batches.ok());
  auto batch = (*batches)->Next();
  ASSERT_TRUE(batch.ok() && *batch);
  EXPECT_EQ(Write(**batch, RowFormat::kJsonLines),
            "{\"id\":0,\"var\":null}\n"
            "{\"id\":1,\"var\":{\"c\":{\"b\":\"iceberg\"}}}\n"
            "{\"id\":2,\"var\":{\"c\":8,\"d\":-0}}\n"
            "{\"id\":3,\"var\":{\"c\":{\"a\":34,\"b\":\"\"},\"d\":0}}\n");
  EXPECT_EQ(Write(**batch, RowFormat::kCsv),
            "id,var\n0,\n1,\"{\"\"c\"\":{\"\"b\"\":\"\"iceberg\"\"}}\"\n2,\"{\"\"c\"\":8,\"\"d\"\":-0}\"\n"
            "3,\"{\"\"c\"\":{\"\"a\"\":34,\"\"b\"\":\"\"\"\"},\"\"d\"\":0}\"\n");
}

}  // namespace
}  // namespace strata::cli

namespace strata::cli {
namespace {

// A variant inside a struct (and inside a list in it) prints as JSON in json and jsonl, as a
// top-level variant does, instead of the nested notation of the struct's other members.
TEST(RowFormatTest, VariantInsideAStructPrintsAsJson) {
  // Variant bytes (VariantEncoding.md): metadata version 1 with no keys; values int8 42 and
  // the short string "hi".
  const std::string metadata("\x01\x00\x00", 3);
  const std::vector<std::string> values = {std::string("\x0c\x2a", 2), std::string("\x09hi", 3)};
  BinaryBuilder<int32_t> metadata_builder(binary(), SystemMemoryPool());
  BinaryBuilder<int32_t> value_builder(binary(), SystemMemoryPool());
  for (const std::string& v : values) {
    ASSERT_TRUE(metadata_builder.Append(metadata).ok());
    ASSERT_TRUE(value_builder.Append(v).ok());
  }
  Int64Builder id_builder(int64(), SystemMemoryPool());
  for (int64_t id : {7, 8}) ASSERT_TRUE(id_builder.Append(id).ok());
  const FieldPtr variant_field =
      field("v", variant::VariantStorageType(), true, variant::WithVariantExtension({}));
  auto variants = ArrayData::Make(variant::VariantStorageType(), 2, {nullptr}, 0);
  variants->children = {*metadata_builder.Finish(), *value_builder.Finish()};
  auto structs = ArrayData::Make(struct_({field("id", int64()), variant_field}), 2, {nullptr}, 0);
  structs->children = {*id_builder.Finish(), variants};
  auto batch = RecordBatch::Make(schema({field("s", structs->type)}), 2, {Array(structs)});
  ASSERT_TRUE(batch.ok()) << batch.status().ToString();
  EXPECT_EQ(Write(**batch, RowFormat::kJsonLines), "{\"s\":{\"id\":7,\"v\":42}}\n{\"s\":{\"id\":8,\"v\":\"hi\"}}\n");
  EXPECT_EQ(Write(**batch, RowFormat::kJson), "[\n{\"s\":{\"id\":7,\"v\":42}},\n{\"s\":{\"id\":8,\"v\":\"hi\"}}\n]\n");
}

}  // namespace
}  // namespace strata::cli
