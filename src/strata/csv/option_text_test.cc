#include "strata/csv/option_text.h"

#include <gtest/gtest.h>

namespace strata::csv {
namespace {

TEST(CsvOptionTextTest, WholeSchemaOrColumnTypes) {
  auto spec = *ParseSchemaSpec("a:int32,b:string");
  CsvReadOptions options;
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
  // No header and another number of names: still the whole schema, whose width wins (rows of
  // another width are then ragged rows).
  options = {};
  ASSERT_TRUE(ApplySchemaSpec(spec, {"f0", "f1", "f2"}, false, "x.csv", &options).ok());
  ASSERT_NE(options.convert.schema, nullptr);
  EXPECT_EQ(options.convert.schema->num_fields(), 2);
  // ... unless it types generated names: those columns only.
  options = {};
  ASSERT_TRUE(ApplySchemaSpec(*ParseSchemaSpec("f2:int64"), {"f0", "f1", "f2"}, false, "x.csv", &options).ok());
  EXPECT_EQ(options.convert.schema, nullptr);
  ASSERT_EQ(options.convert.column_types.size(), 1u);
  // No row at all (an empty input): the whole schema, header or not.
  options = {};
  ASSERT_TRUE(ApplySchemaSpec(spec, {}, true, "x.csv", &options).ok());
  ASSERT_NE(options.convert.schema, nullptr);
  EXPECT_EQ(options.convert.schema->num_fields(), 2);
  Status st = ApplySchemaSpec(spec, {"a", "c"}, true, "x.csv", &options, "--schema");
  EXPECT_EQ(st.message(), "--schema: 'x.csv' has no column 'b' (its columns: a, c)");
}

TEST(CsvOptionTextTest, CharOptions) {
  EXPECT_EQ(*ParseCharOption("--delimiter", "\\t", false), '\t');
  EXPECT_EQ(*ParseCharOption("--delimiter", "tab", false), '\t');
  EXPECT_EQ(*ParseCharOption("--delimiter", ";", false), ';');
  EXPECT_EQ(*ParseCharOption("--quote", "none", true), '\0');
  EXPECT_EQ(*ParseCharOption("--escape", "\\", true), '\\');
  EXPECT_EQ(*ParseCharOption("--escape", "\\\\", true), '\\');
  EXPECT_FALSE(ParseCharOption("--delimiter", "none", false).ok());
  EXPECT_EQ(ParseCharOption("--delimiter", ";;", false).status().message(),
            "--delimiter takes one character (or \\t, tab), not ';;'");
  // Delimiters take up to four bytes.
  EXPECT_EQ(*ParseDelimiterOption("--delimiter", ";;"), ";;");
  EXPECT_EQ(*ParseDelimiterOption("--delimiter", ", "), ", ");
  EXPECT_EQ(*ParseDelimiterOption("--delimiter", "tab"), "\t");
  EXPECT_EQ(ParseDelimiterOption("--delimiter", "abcde").status().message(),
            "--delimiter takes 1 to 4 characters (\", \" and \"||\" are two; \\t or tab for a tab), not 'abcde'");
  EXPECT_FALSE(ParseDelimiterOption("--delimiter", "").ok());
  EXPECT_FALSE(ParseDelimiterOption("--delimiter", ",\n").ok());
}

}  // namespace
}  // namespace strata::csv
