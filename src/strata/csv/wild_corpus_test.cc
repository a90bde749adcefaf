// Issue 39's corpus of tricky-but-valid CSV (backslashes, single quotes, doubled quotes, quotes
// inside unquoted fields, mixed line ends, a BOM, NULs, invalid UTF-8, trailing separators, no
// final newline), generated here. Each file is read with default detection, on one thread and
// through small blocks on one and two threads, and every field is compared byte for byte with
// an independent RFC 4180 reading: Python's csv module (csv_reference.py) in the dialect the
// file was written in. No value may change.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "strata/csv/reader_test_util.h"
#include "strata/testing/test_executor.h"

namespace strata::csv {
namespace {

using testing::Cell;
using namespace std::string_literals;

constexpr const char* kPython = "/usr/bin/python3";

struct WildCase {
  std::string name;
  std::string header;             // after the tag column, without its line break
  std::vector<std::string> rows;  // each after the tag column, without its line break
  char delimiter = ',';
  char quote = '"';
  char escape = '\0';
  std::string prefix;                        // before the header (a BOM)
  std::vector<std::string> line_ends = {"\n"};  // cycled over the lines
  bool final_newline = true;
  bool valid_utf8 = true;
};

// The header and the rows repeated to about 3 KB, each line led by a tag field "r<k>" (text,
// so that every file has a string column and distinct rows).
std::string Generate(const WildCase& c) {
  const std::string d(1, c.delimiter);
  int64_t line = 0;
  auto end = [&]() { return c.line_ends[static_cast<size_t>(line++) % c.line_ends.size()]; };
  std::string text = c.prefix + "tag" + d + c.header + end();
  for (int k = 0; text.size() < 3000; ++k) {
    text += fmt::format("r{}{}{}", k, d, c.rows[static_cast<size_t>(k) % c.rows.size()]) + end();
  }
  if (!c.final_newline) {
    while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
  }
  return text;
}

std::string FromHex(const std::string& hex) {
  if (hex == "-") return "";
  std::string out;
  for (size_t i = 0; i + 1 < hex.size(); i += 2) out += static_cast<char>(std::stoi(hex.substr(i, 2), nullptr, 16));
  return out;
}

// Python's rows of `path` in the case's dialect, each field's bytes.
std::vector<std::vector<std::string>> PythonRows(const std::string& path, const WildCase& c) {
  const char* source_dir = std::getenv("STRATA_SOURCE_DIR");  // set by CTest (strata_add_test)
  if (source_dir == nullptr) {
    ADD_FAILURE() << "STRATA_SOURCE_DIR is not set: run through ctest";
    return {};
  }
  const std::string script = std::string(source_dir) + "/src/strata/csv/csv_reference.py";
  const std::string command = fmt::format("{} '{}' '{}' {} {} {}", kPython, script, path, int{c.delimiter},
                                          int{c.quote}, int{c.escape});
  std::vector<std::vector<std::string>> rows;
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return rows;
  std::string out;
  char buffer[4096];
  for (size_t n; (n = fread(buffer, 1, sizeof buffer, pipe)) > 0;) out.append(buffer, n);
  EXPECT_EQ(pclose(pipe), 0) << command;
  size_t at = 0;
  while (at < out.size()) {
    const size_t eol = out.find('\n', at);
    const std::string line = out.substr(at, eol - at);
    at = eol == std::string::npos ? out.size() : eol + 1;
    std::vector<std::string> row;
    for (size_t f = 0; f <= line.size();) {
      const size_t space = std::min(line.find(' ', f), line.size());
      row.push_back(FromHex(line.substr(f, space - f)));
      f = space + 1;
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

// The case's name in test output, not its bytes.
void PrintTo(const WildCase& c, std::ostream* os) { *os << c.name; }

WildCase Case(std::string name, std::string header, std::vector<std::string> rows, char delimiter = ',',
              char quote = '"', char escape = '\0') {
  WildCase c;
  c.name = std::move(name);
  c.header = std::move(header);
  c.rows = std::move(rows);
  c.delimiter = delimiter;
  c.quote = quote;
  c.escape = escape;
  return c;
}

std::vector<WildCase> Corpus() {
  std::vector<WildCase> corpus;
  // The issue's file: a literal backslash before a single quote inside "-quoted fields; the
  // escaping reading ties with the literal one and drops bytes, so it must not win.
  corpus.push_back(Case("backslash_quote", "size,note",
                        {"\"8\\'9\"\"\",x", "\"C:\\dir\\f\",\\path", "\"end\\\\\",o'neil", "it\\'s,\"5\\'\""}));
  // Backslash escapes for real: the literal reading leaves text after a closing quote.
  corpus.push_back(Case("backslash_escapes", "said,path", {"\"say \\\"hi\\\"\",\"a\\\\b\"", "plain,\"q\\\"\""}, ',', '"', '\\'));
  // No double quote anywhere: apostrophes stay text (no field reads as '-quoted).
  corpus.push_back(Case("apostrophes", "name,note", {"O'Brien,can't", "'tis,rock 'n' roll", "x',y'"}));
  corpus.push_back(Case("single_quoted", "a,b", {"'x,y',1z", "'p',q"}, ',', '\''));
  corpus.push_back(Case("doubled_quotes", "a,b", {"\"say \"\"hi\"\"\",x", "\"\"\"\",\"\"", "\"\"\"q\"\"\",\"a,b\""}));
  corpus.push_back(Case("quotes_inside_unquoted", "height,pipe", {"5'11\",12\" x", "a\"b\"c,d\"", "x,\"a\"\"b\""}));
  WildCase mixed = Case("mixed_line_ends", "a,b", {"x,\"two\r\nlines\"", "y,\"lf\nonly\"", "z,\"cr\ronly\"", "w,v"});
  mixed.line_ends = {"\n", "\r\n", "\r", "\r\n", "\n"};
  corpus.push_back(mixed);
  WildCase bom = Case("bom_utf8", "caf\xc3\xa9,\xe6\x97\xa5", {"na\xc3\xafve,\"\xe2\x82\xac,1\"", "x,y"});
  bom.prefix = "\xEF\xBB\xBF";
  corpus.push_back(bom);
  corpus.push_back(Case("nul_bytes", "a,b", {"x\0y,\"q\0\""s, "\0,z"s}));
  WildCase invalid = Case("invalid_utf8", "a,b", {"\xff\xfe,caf\xe9", "x,\"\xc3(\""});
  invalid.valid_utf8 = false;
  corpus.push_back(invalid);
  corpus.push_back(Case("trailing_separator", "a,b,", {"x,y,", "p,,", "\"q\",\",\","}));
  WildCase unterminated = Case("no_final_newline", "a,b", {"x,\"end\"", "y,\"multi\nline\""});
  unterminated.line_ends = {"\r\n"};
  unterminated.final_newline = false;
  corpus.push_back(unterminated);
  corpus.push_back(Case("tab_with_commas", "a\tb", {"\"1,5\"\tx,y", "p\"q\t\"t\"\"ab\""}, '\t'));
  corpus.push_back(Case("semicolon_decimal_commas", "a;b", {"1,5;x", "2,25;\"y;z\""}, ';'));
  corpus.push_back(Case("spaces_kept", "a,b", {" x , y ", "\" q \",  "}));
  return corpus;
}

struct Config {
  std::string name;
  int64_t sample_bytes;
  int64_t block_bytes;
  int threads;
};

const Config kConfigs[] = {{"serial", 1 << 20, 1 << 20, 1},
                           {"blocks_1_thread", 700, 97, 1},
                           {"blocks_2_threads", 700, 97, 2}};

class WildCorpusTest : public ::testing::TestWithParam<WildCase> {};

TEST_P(WildCorpusTest, EveryFieldAsPythonReadsIt) {
  const WildCase& c = GetParam();
  const auto dir = std::filesystem::temp_directory_path() / fmt::format("strata_wild_{}", getpid());
  std::filesystem::create_directories(dir);
  const std::string path = (dir / (c.name + ".csv")).string();
  {
    std::ofstream(path, std::ios::binary) << Generate(c);
  }
  const auto expected = PythonRows(path, c);
  ASSERT_GT(expected.size(), 20u) << "the reference read nothing";

  for (const Config& config : kConfigs) {
    SCOPED_TRACE(config.name);
    CsvReadOptions options;
    options.read.sample_bytes = config.sample_bytes;
    options.read.block_bytes = config.block_bytes;
    options.read.executor = config.threads == 1 ? exec::Executor() : strata::testing::TestExecutor(config.threads);
    if (!c.valid_utf8) {
      // By default text that is not UTF-8 fails, naming where (never replaced); as binary it
      // is kept byte for byte.
      auto failed = CsvReader::Open(path, options, SystemMemoryPool());
      Status status = failed.ok() ? (*failed)->ReadAll().status() : failed.status();
      EXPECT_FALSE(status.ok());
      EXPECT_NE(status.message().find("line "), std::string::npos) << status.ToString();
      options.convert.validate_utf8 = false;
    }
    CSV_ASSIGN_OR_FAIL(reader, CsvReader::Open(path, options, SystemMemoryPool()));
    const Dialect& d = reader->dialect();
    EXPECT_EQ(d.delimiter, std::string(1, c.delimiter));
    EXPECT_EQ(d.quoting ? d.quote : '\0', c.quote);
    EXPECT_EQ(d.escaping ? d.escape : '\0', c.escape) << d.ToString();
    EXPECT_TRUE(reader->has_header());
    CSV_ASSIGN_OR_FAIL(table, reader->ReadAll());

    const std::vector<std::string>& header = expected[0];
    ASSERT_EQ(table->num_columns(), static_cast<int>(header.size()));
    for (int col = 0; col < table->num_columns(); ++col) {
      const std::string name = header[static_cast<size_t>(col)].empty() ? fmt::format("f{}", col) : header[static_cast<size_t>(col)];
      EXPECT_EQ(table->schema()->field(col)->name(), name);
    }
    ASSERT_EQ(table->num_rows(), static_cast<int64_t>(expected.size()) - 1);
    for (int64_t r = 0; r < table->num_rows(); ++r) {
      const auto& row = expected[static_cast<size_t>(r) + 1];
      ASSERT_EQ(row.size(), header.size()) << "row " << r;
      for (int col = 0; col < table->num_columns(); ++col) {
        const TypeId type = table->schema()->field(col)->type()->id();
        ASSERT_TRUE(type == TypeId::kString || type == TypeId::kBinary)
            << "column " << col << " was inferred as " << table->schema()->field(col)->type()->ToString();
        const std::string cell = Cell(*table, col, r);
        // An empty unquoted field is null; Python reads it as "".
        const std::string& want = row[static_cast<size_t>(col)];
        if (cell == "<null>") {
          EXPECT_EQ(want, "") << "row " << r << " column " << col;
        } else {
          EXPECT_EQ(cell, want) << "row " << r << " column " << col;
        }
      }
    }
  }
  std::filesystem::remove(path);
}

INSTANTIATE_TEST_SUITE_P(Corpus, WildCorpusTest, ::testing::ValuesIn(Corpus()),
                         [](const ::testing::TestParamInfo<WildCase>& info) { return info.param.name; });

}  // namespace
}  // namespace strata::csv
