#include "strata/cli/csv_cli_options.h"

#include <gtest/gtest.h>

#include "strata/cli/input_source.h"
#include "strata/types/schema.h"

namespace strata::cli {
namespace {

std::string TypeOf(std::string_view text) {
  auto type = ParseTypeName(text);
  return type.ok() ? (*type)->ToString() : "error: " + type.status().message();
}

TEST(CsvCliOptionsTest, TypeNames) {
  EXPECT_EQ(TypeOf("int8"), "int8");
  EXPECT_EQ(TypeOf("INT64"), "int64");
  EXPECT_EQ(TypeOf("uint16"), "uint16");
  EXPECT_EQ(TypeOf("uint64"), "uint64");
  EXPECT_EQ(TypeOf("float32"), "float");
  EXPECT_EQ(TypeOf("double"), "double");
  EXPECT_EQ(TypeOf("bool"), "bool");
  EXPECT_EQ(TypeOf(" string "), "string");
  EXPECT_EQ(TypeOf("binary"), "binary");
  EXPECT_EQ(TypeOf("date32"), "date32[day]");
  EXPECT_EQ(TypeOf("timestamp[us]"), "timestamp[us]");
  EXPECT_EQ(TypeOf("timestamp[ns]"), "timestamp[ns]");
  EXPECT_EQ(TypeOf("timestamp[us,UTC]"), "timestamp[us, tz=UTC]");
  EXPECT_EQ(TypeOf("timestamp[ms, tz=utc]"), "timestamp[ms, tz=UTC]");
  EXPECT_EQ(TypeOf("timestamp[us, Europe/Paris]"), "timestamp[us, tz=Europe/Paris]");
  EXPECT_EQ(TypeOf("timestamptz"), "timestamp[us, tz=UTC]");
  EXPECT_EQ(TypeOf("time64[us]"), "time64[us]");
  EXPECT_EQ(TypeOf("time32[ms]"), "time32[ms]");
  EXPECT_EQ(TypeOf("decimal(10,2)"), "decimal128(10, 2)");
  EXPECT_EQ(TypeOf("decimal( 5 , 0 )"), "decimal128(5, 0)");
  EXPECT_EQ(TypeOf("decimal(40,3)"), "decimal256(40, 3)");
  EXPECT_EQ(TypeOf("decimal256(10,2)"), "decimal256(10, 2)");
}

TEST(CsvCliOptionsTest, BadTypeNames) {
  EXPECT_NE(TypeOf("int33").find("unknown type 'int33'"), std::string::npos);
  EXPECT_NE(TypeOf("timestamp[xs]").find("the unit must be"), std::string::npos);
  EXPECT_NE(TypeOf("time64[ms]").find("time64 us or ns"), std::string::npos);
  EXPECT_NE(TypeOf("decimal(2,5)").find("scale 5 is larger"), std::string::npos);
  EXPECT_NE(TypeOf("decimal(0,0)").find("precision must be 1 to 76"), std::string::npos);
  EXPECT_NE(TypeOf("decimal(a,b)").find("decimal(precision,scale)"), std::string::npos);
  EXPECT_NE(TypeOf("decimal128(40,2)").find("at most 38"), std::string::npos);
  EXPECT_NE(TypeOf("").find("a type is missing"), std::string::npos);
}

TEST(CsvCliOptionsTest, SchemaSpec) {
  auto spec = ParseSchemaSpec("id:int64, fare : decimal(10,2),at:timestamp[us, tz=+05:30],a:b:string");
  ASSERT_TRUE(spec.ok()) << spec.status().ToString();
  ASSERT_EQ(spec->size(), 4u);
  EXPECT_EQ((*spec)[0].name, "id");
  EXPECT_EQ((*spec)[0].type->ToString(), "int64");
  EXPECT_EQ((*spec)[1].name, "fare");
  EXPECT_EQ((*spec)[1].type->ToString(), "decimal128(10, 2)");
  EXPECT_EQ((*spec)[2].type->ToString(), "timestamp[us, tz=+05:30]");
  EXPECT_EQ((*spec)[3].name, "a:b");  // the name ends at the last ':'
}

TEST(CsvCliOptionsTest, BadSchemaSpecs) {
  auto message = [](std::string_view text) {
    auto spec = ParseSchemaSpec(text);
    return spec.ok() ? std::string("ok") : spec.status().message();
  };
  EXPECT_EQ(message("id:int33"), "--schema column 'id': unknown type 'int33' (types: int8..int64, uint8..uint64, "
                                 "float32, float64, bool, string, binary, date32, timestamp[us], timestamp[us,UTC], "
                                 "time64[us], decimal(p,s))");
  EXPECT_NE(message("id").find("'id' is not name:type"), std::string::npos);
  EXPECT_NE(message(":int64").find("has no column name"), std::string::npos);
  EXPECT_NE(message("a:int64,a:string").find("'a' is given twice"), std::string::npos);
  EXPECT_NE(message("a:int64,").find("'' is not name:type"), std::string::npos);
  EXPECT_NE(message("").find("--schema is empty"), std::string::npos);
}

TEST(CsvCliOptionsTest, WholeSchemaOrColumnTypes) {
  auto spec = *ParseSchemaSpec("a:int32,b:string");
  csv::CsvReadOptions options;
  // Every column, in order: the whole schema.
  ASSERT_TRUE(ApplySchemaSpec(spec, {"a", "b"}, true, "x.csv", &options).ok());
  ASSERT_NE(options.convert.schema, nullptr);
  EXPECT_EQ(options.convert.schema->num_fields(), 2);
  EXPECT_TRUE(options.convert.column_types.empty());
  // Some columns by name.
  options = {};
  ASSERT_TRUE(ApplySchemaSpec(spec, {"b", "c", "a"}, true, "x.csv", &options).ok());
  EXPECT_EQ(options.convert.schema, nullptr);
  ASSERT_EQ(options.convert.column_types.size(), 2u);
  EXPECT_EQ(options.convert.column_types[0].first, "a");
  EXPECT_EQ(options.convert.column_types[0].second->ToString(), "int32");
  // No header: as many names as columns name them.
  options = {};
  ASSERT_TRUE(ApplySchemaSpec(spec, {"f0", "f1"}, false, "x.csv", &options).ok());
  ASSERT_NE(options.convert.schema, nullptr);
  EXPECT_EQ(options.convert.schema->field(0)->name(), "a");
  // No header and fewer names: refused with the columns' names.
  Status st = ApplySchemaSpec(spec, {"f0", "f1", "f2"}, false, "x.csv", &options);
  EXPECT_NE(st.message().find("has no header and 3 columns (f0, f1, f2)"), std::string::npos) << st.ToString();
  st = ApplySchemaSpec(spec, {"a", "c"}, true, "x.csv", &options);
  EXPECT_EQ(st.message(), "--schema: 'x.csv' has no column 'b' (its columns: a, c)");
}

TEST(CsvCliOptionsTest, CharOptions) {
  EXPECT_EQ(*ParseCharOption("--delimiter", "\\t", false), '\t');
  EXPECT_EQ(*ParseCharOption("--delimiter", "tab", false), '\t');
  EXPECT_EQ(*ParseCharOption("--delimiter", ";", false), ';');
  EXPECT_EQ(*ParseCharOption("--quote", "none", true), '\0');
  EXPECT_EQ(*ParseCharOption("--escape", "\\", true), '\\');
  EXPECT_EQ(*ParseCharOption("--escape", "\\\\", true), '\\');
  EXPECT_FALSE(ParseCharOption("--delimiter", "none", false).ok());
  EXPECT_EQ(ParseCharOption("--delimiter", ";;", false).status().message(),
            "--delimiter takes one character (or \\t, tab), not ';;'");
}

TEST(CsvCliOptionsTest, ReadOptions) {
  CsvCliOptions cli;
  auto options = MakeCsvReadOptions(cli, true);
  ASSERT_TRUE(options.ok());
  EXPECT_EQ(options->parse.delimiter, '\t');
  EXPECT_FALSE(options->parse.header.has_value());
  cli.delimiter = "|";
  cli.no_header = true;
  cli.nulls = {"-"};
  cli.ragged = "skip";
  cli.quote = "none";
  cli.comment = "#";
  cli.sample_bytes = 4096;
  options = MakeCsvReadOptions(cli, true);
  ASSERT_TRUE(options.ok()) << options.status().ToString();
  EXPECT_EQ(options->parse.delimiter, '|');
  EXPECT_EQ(options->parse.header, false);
  EXPECT_EQ(options->convert.null_values, std::vector<std::string>{"-"});
  EXPECT_EQ(options->parse.ragged_rows, csv::RaggedRows::kSkip);
  EXPECT_EQ(options->parse.quote, '\0');
  EXPECT_EQ(options->parse.comment, '#');
  EXPECT_EQ(options->read.sample_bytes, 4096);
  cli.schema = "a:nope";
  EXPECT_FALSE(MakeCsvReadOptions(cli, false).ok());
}

TEST(CsvCliOptionsTest, InputFormats) {
  auto format = [](const std::string& path, const std::string& option = "auto") {
    return *ResolveInputFormat(path, option);
  };
  EXPECT_EQ(format("a.csv"), InputFormat::kCsv);
  EXPECT_EQ(format("A.CSV.GZ"), InputFormat::kCsv);
  EXPECT_EQ(format("a.csv.zst"), InputFormat::kCsv);
  EXPECT_EQ(format("a.tsv"), InputFormat::kTsv);
  EXPECT_EQ(format("a.tsv.gz"), InputFormat::kTsv);
  EXPECT_EQ(format("-"), InputFormat::kCsv);
  EXPECT_EQ(format("a.parquet"), InputFormat::kParquet);
  EXPECT_EQ(format("a.txt"), InputFormat::kParquet);
  EXPECT_EQ(format("a.gz"), InputFormat::kParquet);
  EXPECT_EQ(format("a.data", "csv"), InputFormat::kCsv);
  EXPECT_EQ(format("a.csv", "parquet"), InputFormat::kParquet);
}

}  // namespace
}  // namespace strata::cli
