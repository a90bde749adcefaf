// Issue 39: explicit options win over what the first rows suggest (--no-header with a whole
// schema takes the schema's width; empty and header-only inputs give empty tables with the
// given or header columns; all_strings keeps header detection). Each case is read on one
// thread and in small blocks on two, which must agree.
#include <gtest/gtest.h>

#include "strata/csv/reader_test_util.h"
#include "strata/testing/test_executor.h"

namespace strata::csv {
namespace {

using testing::Names;
using testing::Rows;

Result<std::shared_ptr<Table>> ReadBothWays(const std::string& text, const CsvReadOptions& options) {
  STRATA_ASSIGN_OR_RETURN(auto read, testing::ReadSeriallyAndInBlocks(text, options, strata::testing::TestExecutor(2)));
  return read.table;
}

SchemaPtr IntSchema() { return strata::schema({field("x", int64()), field("y", int64()), field("z", int64())}); }

TEST(ExplicitOptions, NoHeaderWithASchemaTakesItsWidth) {
  CsvReadOptions options;
  options.parse.header = false;
  options.convert.schema = IntSchema();
  options.parse.ragged_rows = RaggedRows::kFill;
  // The first row is short: padded like any other, not taken as the width.
  CSV_ASSIGN_OR_FAIL(table, ReadBothWays("1,2\n3,4,5\n6,7,8\n", options));
  EXPECT_EQ(Names(*table), (std::vector<std::string>{"x", "y", "z"}));
  EXPECT_EQ(Rows(*table), (std::vector<std::string>{"1|2|<null>", "3|4|5", "6|7|8"}));

  // In the default mode the short first row is an error naming its line, as a later one is.
  options.parse.ragged_rows = RaggedRows::kError;
  auto failed = testing::ReadText("1,2\n3,4,5\n", options);
  ASSERT_FALSE(failed.ok());
  EXPECT_NE(failed.status().message().find("line 1: expected 3 fields, found 2"), std::string::npos)
      << failed.status().ToString();

  // Names given (no schema) set the width the same way; a long first row is skipped.
  CsvReadOptions named;
  named.parse.header = false;
  named.parse.column_names = {"a", "b"};
  named.parse.ragged_rows = RaggedRows::kSkip;
  auto reader = CsvReader::Open(testing::Memory("1,2,3\n4,5\n6,7\n"), named, SystemMemoryPool());
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  CSV_ASSIGN_OR_FAIL(skipped_table, (*reader)->ReadAll());
  EXPECT_EQ(Rows(*skipped_table), (std::vector<std::string>{"4|5", "6|7"}));
  EXPECT_EQ((*reader)->skipped_rows(), 1);
  ASSERT_EQ((*reader)->skipped_examples().size(), 1u);
  EXPECT_EQ((*reader)->skipped_examples()[0].line, 1);
  EXPECT_EQ((*reader)->skipped_examples()[0].fields, 3);
}

TEST(ExplicitOptions, EmptyInputsGiveEmptyTablesWithTheirColumns) {
  CsvReadOptions options;
  options.convert.schema = IntSchema();
  for (const std::string text : {"", "\n\n", "\r\n"}) {
    CSV_ASSIGN_OR_FAIL(table, ReadBothWays(text, options));
    EXPECT_EQ(table->num_rows(), 0);
    EXPECT_TRUE(table->schema()->Equals(*IntSchema())) << table->schema()->ToString();
  }
  options.parse.header = false;
  options.parse.column_names = {"a", "b", "c"};
  CSV_ASSIGN_OR_FAIL(renamed, ReadBothWays("", options));
  EXPECT_EQ(Names(*renamed), (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_EQ(renamed->schema()->field(2)->type()->id(), TypeId::kInt64);
  // Only the included columns.
  options.convert.include_columns = {"c"};
  CSV_ASSIGN_OR_FAIL(one, ReadBothWays("", options));
  EXPECT_EQ(Names(*one), (std::vector<std::string>{"c"}));

  // A header and nothing else: its columns, as text.
  CSV_ASSIGN_OR_FAIL(header_only, ReadBothWays("id,name\n", CsvReadOptions{}));
  EXPECT_EQ(header_only->num_rows(), 0);
  EXPECT_EQ(Names(*header_only), (std::vector<std::string>{"id", "name"}));
  EXPECT_EQ(header_only->schema()->field(0)->type()->id(), TypeId::kString);
  // ... or with a schema's types.
  CsvReadOptions typed;
  typed.convert.schema = strata::schema({field("id", int64()), field("name", utf8())});
  CSV_ASSIGN_OR_FAIL(header_typed, ReadBothWays("id,name", typed));
  EXPECT_EQ(header_typed->num_rows(), 0);
  EXPECT_TRUE(header_typed->schema()->Equals(*typed.convert.schema));
}

TEST(ExplicitOptions, AllStringsKeepsHeaderDetection) {
  CsvReadOptions options;
  options.convert.all_strings = true;
  // The first row fits the types below it (int, text): data, read as text.
  CSV_ASSIGN_OR_FAIL(reader, CsvReader::Open(testing::Memory("1,x\n2,y\n"), options, SystemMemoryPool()));
  EXPECT_FALSE(reader->has_header());
  CSV_ASSIGN_OR_FAIL(table, reader->ReadAll());
  EXPECT_EQ(Names(*table), (std::vector<std::string>{"f0", "f1"}));
  EXPECT_EQ(Rows(*table), (std::vector<std::string>{"1|x", "2|y"}));
  EXPECT_EQ(table->schema()->field(0)->type()->id(), TypeId::kString);
  // A first row that does not fit is a header, as without all_strings.
  CSV_ASSIGN_OR_FAIL(with_header, ReadBothWays("id,name\n1,x\n2,y\n", options));
  EXPECT_EQ(Names(*with_header), (std::vector<std::string>{"id", "name"}));
  EXPECT_EQ(Rows(*with_header), (std::vector<std::string>{"1|x", "2|y"}));
  // Given, the header decision is kept.
  options.parse.header = true;
  CSV_ASSIGN_OR_FAIL(forced, ReadBothWays("1,x\n2,y\n", options));
  EXPECT_EQ(Names(*forced), (std::vector<std::string>{"1", "x"}));
  EXPECT_EQ(Rows(*forced), (std::vector<std::string>{"2|y"}));
}

}  // namespace
}  // namespace strata::csv
