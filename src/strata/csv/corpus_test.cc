// The CSV reader on real files (arrow-testing's data/csv) and on an edge-case corpus written
// here: every case with its exact expected schema and values. Each is read at one thread and
// again at two threads with tiny blocks, which must give the same table.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "strata/csv/reader_test_util.h"
#include "strata/exec/process_pool.h"
#include "strata/testing/test_data.h"

namespace strata::csv {
namespace {

using testing::Cell;
using testing::Memory;
using testing::Names;
using testing::Rows;
using Strings = std::vector<std::string>;

// Reads `text` serially and in parallel (blocks of 7 bytes); both must agree.
Result<std::shared_ptr<Table>> Read(const std::string& text, CsvReadOptions options = {}) {
  options.read.executor = exec::Executor();
  STRATA_ASSIGN_OR_RETURN(auto serial, testing::ReadText(text, options));
  options.read.executor = exec::ProcessExecutor(2);
  options.read.block_bytes = 7;
  options.read.batch_rows = 2;
  STRATA_ASSIGN_OR_RETURN(auto parallel, testing::ReadText(text, options));
  if (!serial->Equals(*parallel)) return Status::Invalid("parallel read differs:\n{}\n{}", serial->ToString(), parallel->ToString());
  return serial;
}

std::string Error(const std::string& text, const CsvReadOptions& options = {}) {
  auto result = testing::ReadText(text, options);
  return result.ok() ? "(no error)" : result.status().message();
}

// ---- arrow-testing/data/csv ---------------------------------------------------------------

TEST(CsvCorpus, ArrowTestingAggregate100) {
  STRATA_REQUIRE_ARROW_TESTING();
  const std::string path = strata::testing::ArrowTestingFile("data/csv/aggregate_test_100.csv");
  CSV_ASSIGN_OR_FAIL(reader, CsvReader::Open(path, {}, SystemMemoryPool()));
  EXPECT_TRUE(reader->has_header());
  EXPECT_EQ(reader->dialect().delimiter, ",");
  CSV_ASSIGN_OR_FAIL(table, reader->ReadAll());
  ASSERT_EQ(table->num_rows(), 100);
  EXPECT_EQ(Names(*table), (Strings{"c1", "c2", "c3", "c4", "c5", "c6", "c7", "c8", "c9", "c10", "c11", "c12", "c13"}));
  const TypeId expected_types[] = {TypeId::kString, TypeId::kInt64, TypeId::kInt64, TypeId::kInt64, TypeId::kInt64,
                                   TypeId::kInt64,  TypeId::kInt64, TypeId::kInt64, TypeId::kInt64,
                                   TypeId::kString,  // c10 holds unsigned 64-bit values beyond int64 and 2^53
                                   TypeId::kFloat64, TypeId::kFloat64, TypeId::kString};
  for (int c = 0; c < 13; ++c) EXPECT_EQ(table->schema()->field(c)->type()->id(), expected_types[c]) << "c" << c + 1;
  EXPECT_EQ(Rows(*table)[0],
            "c|2|1|18109|2033001162|-6513304855495910254|25|43062|1491205016|5863949479783605708|0.110830784|"
            "0.9294097332465232|6WfVFBVGJSQb7FhA7E0lBwdvjfZnSW");
  // The last line has no line break.
  EXPECT_EQ(Cell(*table, 9, 99), "13526465947516666293");
  EXPECT_EQ(Cell(*table, 12, 99), "cq4WSAIFwx3wwTUS5bp1wCe71R6U5I");
  EXPECT_EQ(table->column(0)->null_count(), 0);
}

TEST(CsvCorpus, ArrowTestingGzipEqualsPlain) {
  STRATA_REQUIRE_ARROW_TESTING();
  CSV_ASSIGN_OR_FAIL(plain_reader, CsvReader::Open(strata::testing::ArrowTestingFile("data/csv/aggregate_test_100.csv"),
                                                   {}, SystemMemoryPool()));
  CSV_ASSIGN_OR_FAIL(plain, plain_reader->ReadAll());
  CSV_ASSIGN_OR_FAIL(gz_reader, CsvReader::Open(strata::testing::ArrowTestingFile("data/csv/aggregate_test_100.csv.gz"),
                                                {}, SystemMemoryPool()));
  CSV_ASSIGN_OR_FAIL(gz, gz_reader->ReadAll());
  EXPECT_EQ(gz->num_rows(), 100);
  EXPECT_TRUE(gz->Equals(*plain));
}

TEST(CsvCorpus, ArrowTestingAggregate100WithDates) {
  STRATA_REQUIRE_ARROW_TESTING();
  const std::string path = strata::testing::ArrowTestingFile("data/csv/aggregate_test_100_with_dates.csv");
  CSV_ASSIGN_OR_FAIL(reader, CsvReader::Open(path, {}, SystemMemoryPool()));
  CSV_ASSIGN_OR_FAIL(table, reader->ReadAll());
  ASSERT_EQ(table->num_rows(), 100);  // CRLF line endings, one after the last row too
  ASSERT_EQ(table->num_columns(), 15);
  EXPECT_EQ(table->schema()->field(13)->name(), "c14");
  EXPECT_EQ(table->schema()->field(13)->type()->id(), TypeId::kDate32);
  EXPECT_EQ(table->schema()->field(14)->type()->ToString(), "timestamp[us]");
  EXPECT_EQ(Cell(*table, 13, 0), "2023-01-01");
  EXPECT_EQ(Cell(*table, 12, 0), "6WfVFBVGJSQb7FhA7E0lBwdvjfZnSW");  // no CR left on any field
  EXPECT_EQ(Cell(*table, 13, 99), "2023-04-16");
  EXPECT_EQ(Cell(*table, 14, 99).substr(0, 23), "2023-01-05 09:40:40.920");
}

// Every file of the folder (and the fuzzing inputs) reads or fails with a message; the
// readable ones have the row and column counts `wc` and `awk` give.
TEST(CsvCorpus, ArrowTestingEveryFile) {
  STRATA_REQUIRE_ARROW_TESTING();
  namespace fs = std::filesystem;
  int files = 0;
  for (const char* folder : {"data/csv", "data/csv/fuzzing"}) {
    for (const auto& entry : fs::directory_iterator(strata::testing::ArrowTestingFile(folder))) {
      const std::string name = entry.path().filename().string();
      if (!entry.is_regular_file() || name.starts_with(".") || name == "README.md") continue;
      ++files;
      auto reader = CsvReader::Open(entry.path().string(), {}, SystemMemoryPool());
      Result<std::shared_ptr<Table>> table = reader.ok() ? (*reader)->ReadAll() : reader.status();
      if (std::string(folder) == "data/csv") {
        ASSERT_TRUE(table.ok()) << name << ": " << table.status().ToString();
        EXPECT_EQ((*table)->num_rows(), 100) << name;
        EXPECT_EQ((*table)->num_columns(), name.find("with_dates") != std::string::npos ? 15 : 13) << name;
      } else if (!table.ok()) {
        EXPECT_FALSE(table.status().message().empty()) << name;
        EXPECT_EQ(table.status().message().find("please report"), std::string::npos) << table.status().message();
      }
    }
  }
  EXPECT_GE(files, 10);
}

// ---- edge cases ---------------------------------------------------------------------------

TEST(CsvCorpus, QuotesAndDoubledQuotes) {
  CSV_ASSIGN_OR_FAIL(table, Read("a,b\n\"x,y\",\"say \"\"hi\"\"\"\n\"\"\"\",plain\"quote\n"));
  EXPECT_EQ(Rows(*table), (Strings{"x,y|say \"hi\"", "\"|plain\"quote"}));
}

// A quote only opens a field at its first byte; text after a closing quote is kept.
TEST(CsvCorpus, LenientQuoteRules) {
  CSV_ASSIGN_OR_FAIL(table, Read("a,b\n1,x\"y\"z\n2,\"x\"y\n"));
  EXPECT_EQ(Rows(*table), (Strings{"1|x\"y\"z", "2|xy"}));
}

TEST(CsvCorpus, HeaderOnly) {
  for (const char* text : {"a,b\n", "a,b", "a,b\r\n\r\n"}) {
    CSV_ASSIGN_OR_FAIL(table, Read(text));
    EXPECT_EQ(Names(*table), (Strings{"a", "b"}));
    EXPECT_EQ(table->num_rows(), 0);
    EXPECT_EQ(table->schema()->field(0)->type()->id(), TypeId::kString);
  }
}

TEST(CsvCorpus, MultiLineFields) {
  CSV_ASSIGN_OR_FAIL(table, Read("a,b\n\"line1\nline2\",1\n\"crlf\r\ninside\",2\n\"cr\ronly\",3\n"));
  EXPECT_EQ(Rows(*table), (Strings{"line1\nline2|1", "crlf\r\ninside|2", "cr\ronly|3"}));
  // Lines inside quotes count: the bad row is on line 6.
  EXPECT_NE(Error("a,b\n\"1\n2\",x\n\"3\n\",y\n4\n").find("line 6:"), std::string::npos);
}

TEST(CsvCorpus, QuotedAndUnquotedEmptyFields) {
  CSV_ASSIGN_OR_FAIL(table, Read("s,n,t\n\"\",1,\n,2,\"\"\n"));
  EXPECT_EQ(table->schema()->field(2)->type()->id(), TypeId::kString);
  EXPECT_EQ(Rows(*table), (Strings{"|1|<null>", "<null>|2|"}));
  // In an int64 column (given), quoted and unquoted empty are both null.
  CsvReadOptions typed;
  typed.convert.column_types = {{"n", int64()}};
  CSV_ASSIGN_OR_FAIL(ints, Read("s,n\nx,\"\"\ny,\n", typed));
  EXPECT_EQ(Rows(*ints), (Strings{"x|<null>", "y|<null>"}));
}

TEST(CsvCorpus, VeryLongFields) {
  std::string quoted, unescaped, unquoted;
  for (int i = 0; quoted.size() < (1 << 20); ++i) {
    quoted += "text, \"\"more\"\"\nline " + std::to_string(i) + " ";
    unescaped += "text, \"more\"\nline " + std::to_string(i) + " ";
  }
  for (int i = 0; unquoted.size() < (1 << 20); ++i) unquoted += "word" + std::to_string(i) + " ";
  const std::string text = "a,b\n1,\"" + quoted + "\"\n2," + unquoted + "\n";
  CsvReadOptions options;
  options.read.sample_bytes = 4096;
  CSV_ASSIGN_OR_FAIL(table, testing::ReadText(text, options));
  ASSERT_EQ(table->num_rows(), 2);
  EXPECT_EQ(Cell(*table, 1, 0), unescaped);
  EXPECT_EQ(Cell(*table, 1, 1), unquoted);
  options.read.executor = exec::ProcessExecutor(2);
  options.read.block_bytes = 1000;
  CSV_ASSIGN_OR_FAIL(parallel, testing::ReadText(text, options));
  EXPECT_TRUE(parallel->Equals(*table));
}

TEST(CsvCorpus, UnicodeInFieldsAndHeaders) {
  CSV_ASSIGN_OR_FAIL(table, Read("naïve,名前,emoji 😀\nZürich,東京,\"👍🏽, ok\"\nÅ,한국어,🇩🇪\n"));
  EXPECT_EQ(Names(*table), (Strings{"naïve", "名前", "emoji 😀"}));
  EXPECT_EQ(Rows(*table), (Strings{"Zürich|東京|👍🏽, ok", "Å|한국어|🇩🇪"}));
}

TEST(CsvCorpus, LineEndings) {
  for (const char* text : {"a,b\r\n1,x\r\n2,y\r\n", "a,b\r1,x\r2,y\r", "a,b\n1,x\r\n2,y", "a,b\r\n1,x\r2,y\n"}) {
    CSV_ASSIGN_OR_FAIL(table, Read(text));
    EXPECT_EQ(table->schema()->field(0)->type()->id(), TypeId::kInt64);
    EXPECT_EQ(Rows(*table), (Strings{"1|x", "2|y"}));
  }
}

TEST(CsvCorpus, ByteOrderMark) {
  CSV_ASSIGN_OR_FAIL(table, Read("\xEF\xBB\xBFid,name\n1,x\n"));
  EXPECT_EQ(Names(*table), (Strings{"id", "name"}));
  EXPECT_EQ(table->schema()->field(0)->type()->id(), TypeId::kInt64);
  // Only at the very start: a BOM later is data.
  CsvReadOptions no_header;
  no_header.parse.header = false;
  CSV_ASSIGN_OR_FAIL(later, Read("a\n\xEF\xBB\xBF" "b\n", no_header));
  EXPECT_EQ(Rows(*later), (Strings{"a", "\xEF\xBB\xBF" "b"}));
}

TEST(CsvCorpus, RaggedRowsInEachMode) {
  const std::string text = "a,b,c\n1,2,3\n4,5\n6,7,8,9\n10,11,12\n";
  EXPECT_NE(Error(text).find("line 3: expected 3 fields, found 2"), std::string::npos) << Error(text);

  CsvReadOptions fill;
  fill.parse.ragged_rows = RaggedRows::kFill;
  EXPECT_NE(Error(text, fill).find("line 4: expected 3 fields, found 4"), std::string::npos) << Error(text, fill);
  CSV_ASSIGN_OR_FAIL(filled, Read("a,b,c\n1,2,3\n4,5\n6\n", fill));
  EXPECT_EQ(Rows(*filled), (Strings{"1|2|3", "4|5|<null>", "6|<null>|<null>"}));

  CsvReadOptions skip;
  skip.parse.ragged_rows = RaggedRows::kSkip;
  skip.read.executor = exec::Executor();
  CSV_ASSIGN_OR_FAIL(reader, CsvReader::Open(Memory(text), skip, SystemMemoryPool()));
  CSV_ASSIGN_OR_FAIL(skipped, reader->ReadAll());
  EXPECT_EQ(Rows(*skipped), (Strings{"1|2|3", "10|11|12"}));
  EXPECT_EQ(reader->skipped_rows(), 2);
  ASSERT_EQ(reader->skipped_examples().size(), 2u);
  EXPECT_EQ(reader->skipped_examples()[0].line, 3);
  EXPECT_EQ(reader->skipped_examples()[0].fields, 2);
  EXPECT_EQ(reader->skipped_examples()[1].line, 4);
  EXPECT_EQ(reader->skipped_examples()[1].fields, 4);
}

TEST(CsvCorpus, TrailingDelimiter) {
  CSV_ASSIGN_OR_FAIL(table, Read("a,b,\n1,2,\n3,4,\n"));
  EXPECT_EQ(Names(*table), (Strings{"a", "b", "f2"}));
  EXPECT_EQ(table->schema()->field(2)->type()->id(), TypeId::kString);
  EXPECT_EQ(Rows(*table), (Strings{"1|2|<null>", "3|4|<null>"}));
}

TEST(CsvCorpus, NoTrailingNewline) {
  CSV_ASSIGN_OR_FAIL(table, Read("a,b\n1,2\n3,\"4\""));
  EXPECT_EQ(Rows(*table), (Strings{"1|2", "3|4"}));
  CSV_ASSIGN_OR_FAIL(empty_last, Read("a,b\n1,2\n3,"));
  EXPECT_EQ(Rows(*empty_last), (Strings{"1|2", "3|<null>"}));
}

TEST(CsvCorpus, CommentLines) {
  CsvReadOptions options;
  options.parse.comment = '#';
  CSV_ASSIGN_OR_FAIL(table, Read("# generated\na,b\n# between\n1,#not a comment\n#x,y\r\n2,z\n# last", options));
  EXPECT_EQ(Names(*table), (Strings{"a", "b"}));
  EXPECT_EQ(Rows(*table), (Strings{"1|#not a comment", "2|z"}));
}

TEST(CsvCorpus, BlankLines) {
  CSV_ASSIGN_OR_FAIL(table, Read("\n\na,b\n\n1,2\n\r\n\n3,4\n\n"));
  EXPECT_EQ(Rows(*table), (Strings{"1|2", "3|4"}));
  CsvReadOptions keep;
  keep.parse.ignore_empty_lines = false;
  CSV_ASSIGN_OR_FAIL(kept, Read("a\n1\n\n2\n", keep));
  EXPECT_EQ(Rows(*kept), (Strings{"1", "<null>", "2"}));
  EXPECT_NE(Error("a,b\n1,2\n\n3,4\n", keep).find("line 3: expected 2 fields, found 1"), std::string::npos);
}

TEST(CsvCorpus, DelimitersDetected) {
  const std::pair<char, std::string> cases[] = {
      {'\t', "a\tb,c\tn\n1\tx,y\t2\n3\tz\t4\n"},
      {'|', "a|b|n\n1|x;y|2\n3|z|4\n"},
      {';', "a;b;n\n1;x,y;2\n3;z;4\n"},
      {',', "a,b,n\n1,x|y,2\n3,z,4\n"},
  };
  for (const auto& [delimiter, text] : cases) {
    CSV_ASSIGN_OR_FAIL(reader, CsvReader::Open(Memory(text), {}, SystemMemoryPool()));
    EXPECT_EQ(reader->dialect().delimiter, std::string(1, delimiter)) << text;
    CSV_ASSIGN_OR_FAIL(table, reader->ReadAll());
    EXPECT_EQ(table->num_columns(), 3) << text;
    EXPECT_EQ(Cell(*table, 2, 1), "4") << text;
  }
}

TEST(CsvCorpus, SingleQuoteQuotingDetected) {
  CSV_ASSIGN_OR_FAIL(reader, CsvReader::Open(Memory("a,b\n'x,y',1\n'p,q',2\nr,3\n"), {}, SystemMemoryPool()));
  EXPECT_EQ(reader->dialect().quote, '\'');
  EXPECT_TRUE(reader->dialect().quoting);
  CSV_ASSIGN_OR_FAIL(table, reader->ReadAll());
  EXPECT_EQ(Rows(*table), (Strings{"x,y|1", "p,q|2", "r|3"}));
}

TEST(CsvCorpus, BackslashEscapesDetected) {
  const std::string text = "a,b\n\"x \\\"q, r\\\"\",1\n\"y\",2\nplain\\,comma,3\n";
  CSV_ASSIGN_OR_FAIL(reader, CsvReader::Open(Memory(text), {}, SystemMemoryPool()));
  EXPECT_TRUE(reader->dialect().escaping);
  EXPECT_EQ(reader->dialect().escape, '\\');
  CSV_ASSIGN_OR_FAIL(table, reader->ReadAll());
  EXPECT_EQ(Rows(*table), (Strings{"x \"q, r\"|1", "y|2", "plain,comma|3"}));
  // Without a backslash before a quote, backslashes are data.
  CSV_ASSIGN_OR_FAIL(literal, Read("a,b\nC:\\dir\\file,1\n"));
  EXPECT_EQ(Rows(*literal), (Strings{"C:\\dir\\file|1"}));
}

TEST(CsvCorpus, HeaderDetectedBothWays) {
  CSV_ASSIGN_OR_FAIL(with_header, CsvReader::Open(Memory("name,age\nann,30\nbob,41\n"), {}, SystemMemoryPool()));
  EXPECT_TRUE(with_header->has_header());
  CSV_ASSIGN_OR_FAIL(named, with_header->ReadAll());
  EXPECT_EQ(Names(*named), (Strings{"name", "age"}));
  EXPECT_EQ(named->schema()->field(1)->type()->id(), TypeId::kInt64);

  CSV_ASSIGN_OR_FAIL(without, CsvReader::Open(Memory("1,2.5\n3,4.5\n"), {}, SystemMemoryPool()));
  EXPECT_FALSE(without->has_header());
  CSV_ASSIGN_OR_FAIL(numbered, without->ReadAll());
  EXPECT_EQ(Names(*numbered), (Strings{"f0", "f1"}));
  EXPECT_EQ(Rows(*numbered), (Strings{"1|2.5", "3|4.5"}));

  // All text: nothing to tell by, so the first row is taken as the header.
  CSV_ASSIGN_OR_FAIL(text_only, CsvReader::Open(Memory("x,y\nc,d\n"), {}, SystemMemoryPool()));
  EXPECT_TRUE(text_only->has_header());
}

TEST(CsvCorpus, DuplicateAndEmptyHeaderNames) {
  CSV_ASSIGN_OR_FAIL(table, Read("a,a,,a,a_2,f2\n1,2,3,4,5,6\n"));
  EXPECT_EQ(Names(*table), (Strings{"a", "a_2", "f2", "a_3", "a_2_2", "f2_2"}));
  EXPECT_EQ(Rows(*table), (Strings{"1|2|3|4|5|6"}));
}

}  // namespace
}  // namespace strata::csv
