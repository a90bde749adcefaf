#include "strata/cli/csv_cli_options.h"

#include <gtest/gtest.h>

#include "strata/cli/input_source.h"

namespace strata::cli {
namespace {

TEST(CsvCliOptionsTest, ReadOptions) {
  CsvCliOptions cli;
  auto options = MakeCsvReadOptions(cli);
  ASSERT_TRUE(options.ok());
  EXPECT_FALSE(options->parse.delimiter.has_value());  // detected (TSV: the batch source's tab)
  EXPECT_FALSE(options->parse.header.has_value());
  cli.delimiter = "|";
  cli.no_header = true;
  cli.nulls = {"-"};
  cli.ragged = "skip";
  cli.quote = "none";
  cli.comment = "#";
  cli.sample_bytes = 4096;
  options = MakeCsvReadOptions(cli);
  ASSERT_TRUE(options.ok()) << options.status().ToString();
  EXPECT_EQ(options->parse.delimiter, "|");
  EXPECT_EQ(options->parse.header, false);
  EXPECT_EQ(options->convert.null_values, std::vector<std::string>{"-"});
  EXPECT_EQ(options->parse.ragged_rows, csv::RaggedRows::kSkip);
  EXPECT_EQ(options->parse.quote, '\0');
  EXPECT_EQ(options->parse.comment, '#');
  EXPECT_EQ(options->read.sample_bytes, 4096);
  cli.delimiter = ";;";  // up to four bytes
  options = MakeCsvReadOptions(cli);
  ASSERT_TRUE(options.ok()) << options.status().ToString();
  EXPECT_EQ(options->parse.delimiter, ";;");
  cli.delimiter = ";;;;;";
  EXPECT_FALSE(MakeCsvReadOptions(cli).ok());
}

// --input-format's words over the extension (dataset::ResolveInputFormat, tested there).
TEST(CsvCliOptionsTest, InputFormats) {
  EXPECT_EQ(*ResolveInputFormat("a.csv", "auto"), InputFormat::kCsv);
  EXPECT_EQ(*ResolveInputFormat("a.data", "csv"), InputFormat::kCsv);
  EXPECT_EQ(*ResolveInputFormat("a.csv", "parquet"), InputFormat::kParquet);
  EXPECT_EQ(*ResolveInputFormat("-", "ipc"), InputFormat::kIpcStream);
  EXPECT_EQ(*ResolveInputFormat("a.x", "arrow"), InputFormat::kIpcFile);
  EXPECT_EQ(ResolveInputFormat("a.csv", "xls").status().message(),
            "--input-format takes auto, csv, tsv, parquet, ipc (arrow) or arrows, not 'xls'");
}

}  // namespace
}  // namespace strata::cli
