// `strata meta` on parquet-testing files: page indexes (alltypes_tiny_pages, values checked
// against DuckDB's reading of the rows each page covers), Bloom filters and probes
// (data_index_bloom_encoding_*), and a copy whose index and filter offsets point past the end.
#include "strata/cli/meta_command.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "strata/parquet/thrift/footer.h"
#include "strata/testing/test_data.h"

namespace strata::cli {
namespace {

std::string DataFile(const std::string& name) { return testing::ParquetTestingFile("data/" + name); }

MetaReport Report(const std::string& path, const MetaOptions& options) {
  auto source = OpenLocalFile(path);
  EXPECT_TRUE(source.ok()) << source.status().ToString();
  if (!source.ok()) return {};
  auto report = BuildMetaReport(**source, path, options, SystemMemoryPool());
  EXPECT_TRUE(report.ok()) << report.status().ToString();
  return report.ok() ? *report : MetaReport{};
}

MetaReport Probe(const std::string& path, std::vector<std::string> probes, bool json = false) {
  MetaOptions options;
  options.json = json;
  options.bloom_probes = std::move(probes);
  return Report(path, options);
}

// The lines of `text` starting with `prefix`.
std::vector<std::string> LinesStartingWith(const std::string& text, const std::string& prefix) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind(prefix, 0) == 0) lines.push_back(line);
  }
  return lines;
}

// The text of column chunk `name` (from its "  column N: name" line to the next column's).
std::string ColumnSection(const std::string& text, const std::string& name) {
  const size_t start = text.find(": " + name + "\n    type:");
  if (start == std::string::npos) return "";
  const size_t end = text.find("\n  column ", start);
  return text.substr(start, end == std::string::npos ? std::string::npos : end - start + 1);
}

TEST(MetaCommandTest, SummaryIsOneJsonLineOfCountsAndTheFootersCost) {
  STRATA_REQUIRE_PARQUET_TESTING();
  MetaOptions options;
  options.summary = true;
  const MetaReport report = Report(DataFile("alltypes_tiny_pages.parquet"), options);
  // 13 columns, 7,300 rows in one row group; the footer's bytes as stored, and a charge.
  EXPECT_EQ(report.out.rfind("{\"rows\":7300,\"columns\":13,\"row_groups\":1,\"footer_bytes\":", 0), 0u) << report.out;
  EXPECT_NE(report.out.find("\"footer_pool_bytes\":"), std::string::npos);
  EXPECT_EQ(report.out.find('\n'), report.out.size() - 1);
  EXPECT_EQ(report.out.find("footer_pool_bytes\":0,"), std::string::npos) << "the decoded footer is charged";
}

TEST(MetaCommandTest, PageIndexSummaryPerChunk) {
  STRATA_REQUIRE_PARQUET_TESTING();
  const MetaReport report = Report(DataFile("alltypes_tiny_pages.parquet"), {});
  EXPECT_TRUE(report.warnings.empty());
  EXPECT_TRUE(report.errors.empty());
  const std::string id = ColumnSection(report.out, "id");
  EXPECT_NE(id.find("    page index: column index at 323583 (3919 bytes), offset index at 394311 (3503 bytes)\n"
                    "      column index: 325 pages, boundary order UNORDERED, 0 null pages, 0 nulls\n"
                    "      offset index: 325 pages, first rows 0 .. 7284\n"
                    "    bloom filter: none\n"),
            std::string::npos)
      << id;
  EXPECT_NE(ColumnSection(report.out, "bigint_col")
                .find("      column index: 528 pages, boundary order UNORDERED, 0 null pages, 0 nulls\n"
                      "      offset index: 528 pages, first rows 0 .. 7297\n"),
            std::string::npos);
  EXPECT_NE(ColumnSection(report.out, "string_col")
                .find("      column index: 352 pages, boundary order ASCENDING, 0 null pages, 0 nulls\n"
                      "      offset index: 352 pages, first rows 0 .. 7290\n"),
            std::string::npos);
  // INT96 has no defined order: an offset index only.
  const std::string ts = ColumnSection(report.out, "timestamp_col");
  EXPECT_EQ(ts.find("column index:"), std::string::npos) << ts;
  EXPECT_NE(ts.find("      offset index: 1055 pages, first rows 0 .. 7297\n"), std::string::npos) << ts;
  EXPECT_TRUE(LinesStartingWith(report.out, "      page ").empty());
}

TEST(MetaCommandTest, PagesListEveryPageWithTypedMinMax) {
  STRATA_REQUIRE_PARQUET_TESTING();
  MetaOptions options;
  options.pages = true;
  const MetaReport report = Report(DataFile("alltypes_tiny_pages.parquet"), options);
  // 325 pages for id, tinyint, smallint, int, float, year and month; 528 for bigint and double;
  // 974 date_string, 352 string, 1055 timestamp, 82 bool.
  EXPECT_EQ(LinesStartingWith(report.out, "      page ").size(), 7u * 325 + 2 * 528 + 974 + 352 + 1055 + 82);
  const std::string id = ColumnSection(report.out, "id");
  EXPECT_EQ(LinesStartingWith(id, "      page ").size(), 325u);
  // min/max as DuckDB computes them over the rows [first row, next page's first row).
  for (const char* line : {
           "      page 0: offset 4, 109 bytes, first row 0, nulls 0, min 122, max 142\n",
           "      page 1: offset 113, 109 bytes, first row 21, nulls 0, min 98, max 145\n",
           "      page 100: offset 11480, 133 bytes, first row 2244, nulls 0, min 1223, max 1261\n",
           "      page 101: offset 11613, 109 bytes, first row 2271, nulls 0, min 1242, max 1468\n",
           "      page 300: offset 34480, 133 bytes, first row 6744, nulls 0, min 5969, max 6019\n",
           "      page 324: offset 37240, 89 bytes, first row 7284, nulls 0, min 6174, max 6189\n",
       }) {
    EXPECT_NE(id.find(line), std::string::npos) << line;
  }
  const std::string dates = ColumnSection(report.out, "date_string_col");
  EXPECT_NE(dates.find("      page 100: offset 136814, 32 bytes, first row 748, nulls 0, min \"11/26/09\", max \"11/30/09\"\n"),
            std::string::npos);
  EXPECT_NE(dates.find("      page 500: offset 150343, 34 bytes, first row 3746, nulls 0, min \"01/04/10\", max \"01/19/10\"\n"),
            std::string::npos);
  EXPECT_NE(ColumnSection(report.out, "month")
                .find("      page 200: offset 320300, 26 bytes, first row 4494, nulls 0, min 11, max 11\n"),
            std::string::npos);
  // Impala wrote -0.0 as the minimum of pages holding 0.0; DuckDB's max is 90.89999999999999.
  EXPECT_NE(ColumnSection(report.out, "double_col")
                .find("      page 200: offset 114137, 33 bytes, first row 2770, nulls 0, min -0, max 90.89999999999999\n"),
            std::string::npos);
  EXPECT_NE(ColumnSection(report.out, "float_col").find("first row 21, nulls 0, min -0, max 9.9\n"), std::string::npos);
  EXPECT_NE(ColumnSection(report.out, "bool_col").find("      page 1: offset 37366, 37 bytes, first row 90, nulls 0, min false, max true\n"),
            std::string::npos);
  // Offset index only: no min/max to show.
  EXPECT_NE(ColumnSection(report.out, "timestamp_col").find("      page 1054: offset "), std::string::npos);
  EXPECT_NE(ColumnSection(report.out, "timestamp_col").find("      page 1: offset 267804, 29 bytes, first row 7\n"),
            std::string::npos);
}

TEST(MetaCommandTest, PageIndexJson) {
  STRATA_REQUIRE_PARQUET_TESTING();
  MetaOptions options;
  options.json = true;
  const MetaReport summary = Report(DataFile("alltypes_tiny_pages.parquet"), options);
  EXPECT_NE(summary.out.find("\"bloom_filter_length\":null,"
                             "\"column_index\":{\"num_pages\":325,\"boundary_order\":\"UNORDERED\",\"null_pages\":0,"
                             "\"null_count\":0},"
                             "\"offset_index\":{\"num_pages\":325,\"first_row_index_first\":0,\"first_row_index_last\":7284},"
                             "\"bloom_filter\":null,\"encrypted\":false}"),
            std::string::npos);
  EXPECT_NE(summary.out.find("\"column_index\":null,\"offset_index\":{\"num_pages\":1055,\"first_row_index_first\":0,"
                             "\"first_row_index_last\":7297}"),
            std::string::npos);
  EXPECT_EQ(summary.out.find("\"pages\":["), std::string::npos);
  EXPECT_NE(summary.out.find(",\"warnings\":[]}\n"), std::string::npos);

  options.pages = true;
  const MetaReport pages = Report(DataFile("alltypes_tiny_pages.parquet"), options);
  EXPECT_NE(pages.out.find("\"null_count\":0,\"pages\":[{\"null_page\":false,\"null_count\":0,\"min\":122,\"max\":142},"
                           "{\"null_page\":false,\"null_count\":0,\"min\":98,\"max\":145},"),
            std::string::npos);
  EXPECT_NE(pages.out.find("\"first_row_index_last\":7284,\"pages\":[{\"offset\":4,\"compressed_page_size\":109,"
                           "\"first_row_index\":0},{\"offset\":113,\"compressed_page_size\":109,\"first_row_index\":21},"),
            std::string::npos);
  EXPECT_NE(pages.out.find("{\"null_page\":false,\"null_count\":0,\"min\":\"11/26/09\",\"max\":\"11/30/09\"}"),
            std::string::npos);
}

TEST(MetaCommandTest, NullPagesAndNestedPaths) {
  STRATA_REQUIRE_PARQUET_TESTING();
  const std::string path = testing::ParquetTestingFile("shredded_variant/case-001.parquet");
  MetaOptions options;
  options.pages = true;
  const std::string text = Report(path, options).out;
  EXPECT_NE(text.find("  column 2: var.value\n"), std::string::npos) << text;
  EXPECT_NE(text.find("    page index: column index at 234 (20 bytes), offset index at 340 (14 bytes)\n"
                      "      column index: 1 pages, boundary order ASCENDING, 1 null pages, 1 nulls\n"
                      "      offset index: 1 pages, first rows 0 .. 0\n"
                      "      page 0: offset 67, 30 bytes, first row 0, unencoded 0 bytes, nulls 1, null page\n"),
            std::string::npos)
      << text;
  options.json = true;
  const std::string json = Report(path, options).out;
  EXPECT_NE(json.find("\"column_index\":{\"num_pages\":1,\"boundary_order\":\"ASCENDING\",\"null_pages\":1,"
                      "\"null_count\":2,\"pages\":[{\"null_page\":true,\"null_count\":2,\"min\":null,\"max\":null}]}"),
            std::string::npos)
      << json;
  EXPECT_NE(json.find("\"pages\":[{\"offset\":67,\"compressed_page_size\":30,\"first_row_index\":0,"
                      "\"unencoded_byte_array_data_bytes\":0}]"),
            std::string::npos);
  // Probes name nested columns by their dotted path.
  const MetaReport probe = Probe(path, {"var.typed_value.list.element.value=x", "value=x"});
  ASSERT_EQ(probe.errors.size(), 2u);
  EXPECT_EQ(probe.errors[0].ToString(), "Invalid: --bloom-probe 'var.typed_value.list.element.value=x': '" + path +
                                            "' row group 0, column 3 'var.typed_value.list.element.value': no Bloom filter");
  EXPECT_EQ(probe.errors[1].message().rfind("--bloom-probe 'value=x': no column 'value' in '", 0), 0u);
}

// The 14 values of the one STRING column of both files, as DuckDB reads them.
const char* const kIndexBloomValues[] = {"Hello",     "This is",   "a",     "test", "How",      "are you", "doing ",
                                         "today",     "the quick", "brown fox", "jumps", "over", "the lazy", "dog"};

TEST(MetaCommandTest, BloomFilterLines) {
  STRATA_REQUIRE_PARQUET_TESTING();
  const MetaReport stats = Report(DataFile("data_index_bloom_encoding_stats.parquet"), {});
  EXPECT_NE(stats.out.find("    page index: column index at 156 (25 bytes), offset index at 181 (11 bytes)\n"
                           "      column index: 1 pages, boundary order ASCENDING, 0 null pages, 0 nulls\n"
                           "      offset index: 1 pages, first rows 0 .. 0\n"
                           "    bloom filter: at 192, bitset 1024 bytes\n"),
            std::string::npos)
      << stats.out;
  const MetaReport with_length = Report(DataFile("data_index_bloom_encoding_with_length.parquet"), {});
  EXPECT_NE(with_length.out.find("    bloom filter: at 253 (2064 bytes), bitset 2048 bytes\n"), std::string::npos)
      << with_length.out;

  MetaOptions json;
  json.json = true;
  EXPECT_NE(Report(DataFile("data_index_bloom_encoding_with_length.parquet"), json)
                .out.find("\"bloom_filter\":{\"offset\":253,\"length\":2064,\"num_bytes\":2048}"),
            std::string::npos);
  EXPECT_NE(Report(DataFile("data_index_bloom_encoding_stats.parquet"), json)
                .out.find("\"bloom_filter\":{\"offset\":192,\"length\":null,\"num_bytes\":1024}"),
            std::string::npos);
}

class BloomProbeFileTest : public ::testing::TestWithParam<const char*> {};

TEST_P(BloomProbeFileTest, EveryValueMaybePresentOthersAbsent) {
  STRATA_REQUIRE_PARQUET_TESTING();
  const std::string path = DataFile(GetParam());
  std::vector<std::string> probes;
  std::string expected;
  for (const char* value : kIndexBloomValues) {
    probes.push_back(std::string("String=") + value);
    expected += std::string("String=") + value + ": row group 0: maybe present\n";
  }
  // Near misses of the values: absent for these hashes in both filters.
  for (const char* value : {"hello", "This", "doing", "the lazy dog", "b", "Parquet", "", "dog ", "HELLO"}) {
    probes.push_back(std::string("String=") + value);
    expected += std::string("String=") + value + ": row group 0: absent\n";
  }
  const MetaReport report = Probe(path, probes);
  EXPECT_EQ(report.out, expected);
  EXPECT_TRUE(report.errors.empty());

  // 2000 strings not in the column: with 14 values in 1024 or 2048 bytes, every one is absent.
  probes.clear();
  for (int i = 0; i < 2000; ++i) probes.push_back("String=value " + std::to_string(i));
  const MetaReport many = Probe(path, probes);
  EXPECT_EQ(LinesStartingWith(many.out, "String=value ").size(), 2000u);
  EXPECT_EQ(many.out.find("maybe present"), std::string::npos);

  const MetaReport json = Probe(path, {"String=dog", "String=cat"}, true);
  EXPECT_EQ(json.out, "{\"file\":\"" + path +
                          "\",\"bloom_probes\":[{\"column\":\"String\",\"value\":\"dog\",\"row_groups\":[{\"row_group\":0,"
                          "\"result\":\"maybe present\"}]},{\"column\":\"String\",\"value\":\"cat\",\"row_groups\":[{"
                          "\"row_group\":0,\"result\":\"absent\"}]}]}\n");
}

INSTANTIATE_TEST_SUITE_P(Files, BloomProbeFileTest,
                         ::testing::Values("data_index_bloom_encoding_stats.parquet",
                                           "data_index_bloom_encoding_with_length.parquet"));

TEST(MetaCommandTest, ProbeErrorsOneEach) {
  STRATA_REQUIRE_PARQUET_TESTING();
  const std::string bloom = DataFile("data_index_bloom_encoding_stats.parquet");
  const MetaReport report = Probe(bloom, {"Nope=1", "String", "String=a"});
  EXPECT_EQ(report.out, "String=a: row group 0: maybe present\n");
  ASSERT_EQ(report.errors.size(), 2u);
  EXPECT_EQ(report.errors[0].ToString(),
            "Invalid: --bloom-probe 'Nope=1': no column 'Nope' in '" + bloom + "' (columns: String)");
  EXPECT_EQ(report.errors[1].ToString(), "Invalid: --bloom-probe 'String': expected COLUMN=VALUE");

  const std::string tiny = DataFile("alltypes_tiny_pages.parquet");
  const MetaReport typed = Probe(tiny, {"id=abc", "id=5", "tinyint_col=300"});
  EXPECT_EQ(typed.out, "");
  ASSERT_EQ(typed.errors.size(), 3u);
  EXPECT_EQ(typed.errors[0].ToString(),
            "Invalid: --bloom-probe 'id=abc' (INT32 column 'id'): 'abc' is not a signed 32 integer "
            "(from -2147483648 to 2147483647)");
  EXPECT_EQ(typed.errors[1].ToString(),
            "Invalid: --bloom-probe 'id=5': '" + tiny + "' row group 0, column 0 'id': no Bloom filter");
  EXPECT_EQ(typed.errors[2].ToString(),
            "Invalid: --bloom-probe 'tinyint_col=300' (INT32 column 'tinyint_col'): '300' is not a signed 8 integer "
            "(from -128 to 127)");

  // The command's status: each error but the last printed, the last returned (exit code 1).
  std::FILE* err = std::tmpfile();
  ASSERT_NE(err, nullptr);
  const Status st = ReportProblems(typed, false, err);
  EXPECT_EQ(st.ToString(), typed.errors[2].ToString());
  std::rewind(err);
  char buffer[1024] = {};
  const size_t n = std::fread(buffer, 1, sizeof(buffer) - 1, err);
  std::fclose(err);
  EXPECT_EQ(std::string(buffer, n), "strata: " + typed.errors[0].ToString() + "\nstrata: " +
                                        typed.errors[1].ToString() + "\n");
}

// A copy of data_index_bloom_encoding_with_length.parquet whose footer points the column index,
// offset index and Bloom filter past the end of the file.
std::string HostileCopy(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  auto source = MakeBufferSource(std::make_shared<Buffer>(bytes));
  auto footer = parquet::ReadFooter(*source, SystemMemoryPool());
  EXPECT_TRUE(footer.ok()) << footer.status().ToString();
  if (!footer.ok()) return "";
  parquet::FileMetaData md = footer->metadata;
  parquet::ColumnChunk& chunk = md.row_groups.at(0).columns.at(0);
  chunk.column_index_offset = 1000000;
  chunk.offset_index_offset = int64_t{1} << 40;
  chunk.meta_data->bloom_filter_offset = 5000000;
  std::string serialized;
  parquet::SerializeFileMetaData(md, &serialized);
  std::string out = bytes.substr(0, static_cast<size_t>(footer->metadata_offset)) + serialized;
  const uint32_t length = static_cast<uint32_t>(serialized.size());
  out.append(reinterpret_cast<const char*>(&length), 4);
  out += "PAR1";
  return out;
}

TEST(MetaCommandTest, CorruptOffsetsWarnAndTheRestPrints) {
  STRATA_REQUIRE_PARQUET_TESTING();
  const std::string bytes = HostileCopy(DataFile("data_index_bloom_encoding_with_length.parquet"));
  ASSERT_FALSE(bytes.empty());
  auto source = MakeBufferSource(std::make_shared<Buffer>(bytes), "hostile.parquet");
  auto report = BuildMetaReport(*source, "hostile.parquet", {}, SystemMemoryPool());
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  ASSERT_EQ(report->warnings.size(), 3u);
  for (const Status& warning : report->warnings) {
    EXPECT_TRUE(warning.IsCorrupt()) << warning.ToString();
    EXPECT_NE(warning.message().find("'hostile.parquet': row group 0, column 0 'String': "), std::string::npos)
        << warning.ToString();
  }
  EXPECT_EQ(report->warnings[0].message().rfind("'hostile.parquet': row group 0, column 0 'String': column index at "
                                                "offset 1000000 (25 bytes): ", 0),
            0u)
      << report->warnings[0].ToString();
  EXPECT_EQ(report->warnings[1].message().rfind("'hostile.parquet': row group 0, column 0 'String': offset index at "
                                                "offset 1099511627776 (11 bytes): ", 0),
            0u)
      << report->warnings[1].ToString();
  EXPECT_EQ(report->warnings[2].message().rfind("'hostile.parquet': row group 0, column 0 'String': Bloom filter at "
                                                "offset 5000000 (2064 bytes): ", 0),
            0u)
      << report->warnings[2].ToString();
  // The rest of the metadata is all there, the errors in their places.
  const std::string& out = report->out;
  EXPECT_NE(out.find("    statistics: min \"Hello\" max \"today\"\n"), std::string::npos) << out;
  EXPECT_NE(out.find("      column index: error: " + report->warnings[0].ToString() + "\n"), std::string::npos) << out;
  EXPECT_NE(out.find("      offset index: error: " + report->warnings[1].ToString() + "\n"), std::string::npos) << out;
  EXPECT_NE(out.find("    bloom filter: at 5000000 (2064 bytes), error: " + report->warnings[2].ToString() + "\n"),
            std::string::npos)
      << out;

  // Warnings print and the command succeeds; --strict fails with them.
  std::FILE* err = std::tmpfile();
  ASSERT_NE(err, nullptr);
  EXPECT_TRUE(ReportProblems(*report, false, err).ok());
  EXPECT_GT(std::ftell(err), 0);
  const Status strict = ReportProblems(*report, true, err);
  std::fclose(err);
  EXPECT_EQ(strict.ToString(), report->warnings[2].ToString());

  MetaOptions json;
  json.json = true;
  auto json_report = BuildMetaReport(*source, "hostile.parquet", json, SystemMemoryPool());
  ASSERT_TRUE(json_report.ok());
  EXPECT_NE(json_report->out.find("\"column_index\":{\"error\":\"Corrupt: 'hostile.parquet': row group 0, column 0"),
            std::string::npos)
      << json_report->out;
  EXPECT_NE(json_report->out.find("\"bloom_filter\":{\"offset\":5000000,\"length\":2064,\"error\":\"Corrupt: "),
            std::string::npos);
  EXPECT_NE(json_report->out.find("\"warnings\":[\"Corrupt: 'hostile.parquet': row group 0, column 0 'String': column "
                                  "index at offset 1000000"),
            std::string::npos);

  // A probe of the broken filter is an error naming the row group, not a crash.
  MetaOptions probe;
  probe.bloom_probes = {"String=Hello"};
  auto probed = BuildMetaReport(*source, "hostile.parquet", probe, SystemMemoryPool());
  ASSERT_TRUE(probed.ok());
  EXPECT_EQ(probed->out, "");
  ASSERT_EQ(probed->errors.size(), 1u);
  EXPECT_EQ(probed->errors[0].message().rfind("--bloom-probe 'String=Hello': 'hostile.parquet' row group 0, column 0 "
                                              "'String': Bloom filter offset 5000000",
                                              0),
            0u)
      << probed->errors[0].ToString();
}

}  // namespace
}  // namespace strata::cli
