// The CSV reader against hostile input: a quote that never closes over hundreds of
// megabytes, a row of 100,000 columns, invalid UTF-8, NUL bytes, a long stream whose memory
// must stay flat, and max_row_bytes at its exact boundary. Long inputs are generated as they
// are read (GeneratedStream), so the input itself takes no memory and the pool's peak is the
// reader's own.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "strata/csv/reader_test_util.h"
#include "strata/exec/process_pool.h"

namespace strata::csv {
namespace {

using testing::Cell;
using testing::GeneratedStream;
using testing::ReadText;
using testing::Rows;

constexpr int64_t kMiB = 1 << 20;

// A piece of 64 KiB of text lines with no quote, delimiter or escape in it.
void FillerLines(int64_t, std::string* out) {
  for (int i = 0; i < 1024; ++i) out->append(std::string(63, 'x')).push_back('\n');
}

// A quoted field opened and never closed in 300 MB: the read stops once the row passes
// max_row_bytes (not at the end of the input), names the row's line, and holds at most about
// the window and the row's text, each bounded by max_row_bytes.
TEST(CsvHostileInput, UnclosedQuoteFailsEarlyWithBoundedMemory) {
  constexpr int64_t kMaxRow = 8 * kMiB;
  struct Case {
    const char* what;
    std::string prefix;
    int64_t line;
  };
  std::string good_rows = "a,b\n";
  for (int i = 0; i < 3000; ++i) good_rows += std::to_string(i) + ",v" + std::to_string(i) + "\n";
  const Case cases[] = {
      {"in the header", "\"a", 1},
      {"in the sample", "a,b\n1,\"", 2},
      {"after the sample", good_rows + "1,\"", 3002},
  };
  for (const Case& c : cases) {
    for (int threads : {1, 2}) {
      SCOPED_TRACE(std::string(c.what) + ", threads " + std::to_string(threads));
      auto pool = MakeSystemMemoryPool();
      CsvReadOptions options;
      options.parse.max_row_bytes = kMaxRow;
      options.read.executor = exec::ProcessExecutor(threads);
      options.read.sample_bytes = 16 << 10;
      options.read.block_bytes = 256 << 10;
      auto stream = std::make_unique<GeneratedStream>(c.prefix, FillerLines, int64_t{300} * 1000 * 1000);
      const auto produced = stream->produced();
      std::unique_ptr<CsvReader> reader;
      Status status = [&]() -> Status {
        STRATA_ASSIGN_OR_RETURN(reader, CsvReader::Open(std::move(stream), options, pool.get()));
        while (true) {
          STRATA_ASSIGN_OR_RETURN(auto batch, reader->Next());
          if (!batch) return Status::OK();
        }
      }();
      ASSERT_TRUE(status.IsLimitExceeded()) << status.ToString();
      EXPECT_NE(status.message().find("'generated.csv' line " + std::to_string(c.line) + ":"), std::string::npos)
          << status.message();
      EXPECT_NE(status.message().find("max_row_bytes"), std::string::npos) << status.message();
      EXPECT_LT(*produced, 2 * kMaxRow) << "read on long after the row passed the limit";
      EXPECT_LT(pool->peak_bytes(), 2 * kMaxRow + kMiB);
    }
  }
}

// 100,000 columns in one row: read whole, or refused clearly by max_row_bytes; memory is a
// small multiple of the input (per-column arrays and inference state, nothing quadratic).
TEST(CsvHostileInput, HundredThousandColumns) {
  constexpr int kColumns = 100000;
  std::string text;
  for (int c = 0; c < kColumns; ++c) text += (c ? ",c" : "c") + std::to_string(c);
  text += "\n";
  for (int r = 0; r < 3; ++r) {
    for (int c = 0; c < kColumns; ++c) text += (c ? "," : "") + std::to_string((c + r) % 10);
    text += "\n";
  }
  auto pool = MakeSystemMemoryPool();
  CsvReadOptions options;
  options.read.executor = exec::Executor();
  CSV_ASSIGN_OR_FAIL(table, ReadText(text, options, pool.get()));
  ASSERT_EQ(table->num_columns(), kColumns);
  ASSERT_EQ(table->num_rows(), 3);
  EXPECT_EQ(table->schema()->field(kColumns - 1)->name(), "c99999");
  EXPECT_EQ(table->schema()->field(12345)->type()->id(), TypeId::kInt64);
  EXPECT_EQ(Cell(*table, 12345, 2), "7");
  EXPECT_EQ(Cell(*table, kColumns - 1, 0), "9");
  // About 120 bytes per column (its int64 array: 3 values in a 64-byte allocation; the
  // parse buffers: 5 bytes per field): 12 MB for this 1.3 MB input, nothing quadratic.
  EXPECT_LT(pool->peak_bytes(), 16 * static_cast<int64_t>(text.size())) << pool->peak_bytes();

  options.parse.max_row_bytes = 100000;
  auto refused = ReadText(text, options, pool.get());
  ASSERT_TRUE(refused.status().IsLimitExceeded()) << refused.status().ToString();
  EXPECT_NE(refused.status().message().find("line 1:"), std::string::npos) << refused.status().message();
}

// Invalid UTF-8 fails naming the line and the column while validation is on, and is read as
// binary, byte for byte, when it is off.
TEST(CsvHostileInput, InvalidUtf8) {
  const std::string text = "a,b\n1,ok\n2,bad \xFF\xFE here\n3,\"\xC3\x28\"\n";
  auto strict = ReadText(text);
  ASSERT_FALSE(strict.ok());
  EXPECT_NE(strict.status().message().find("line 3, column 'b' (#2)"), std::string::npos) << strict.status().message();
  EXPECT_NE(strict.status().message().find("UTF-8"), std::string::npos) << strict.status().message();

  CsvReadOptions options;
  options.convert.validate_utf8 = false;
  CSV_ASSIGN_OR_FAIL(table, ReadText(text, options));
  EXPECT_EQ(table->schema()->field(1)->type()->id(), TypeId::kBinary);
  EXPECT_EQ(Cell(*table, 1, 1), "bad \xFF\xFE here");
  EXPECT_EQ(Cell(*table, 1, 2), "\xC3\x28");

  // After the sample, in a column inferred utf8: still named by line and column.
  std::string late = "a,b\n";
  for (int i = 0; i < 500; ++i) late += std::to_string(i) + ",text\n";
  late += "500,\xE2\x82\n";
  CsvReadOptions small_sample;
  small_sample.read.sample_bytes = 256;
  small_sample.read.block_bytes = 1024;
  auto late_result = ReadText(late, small_sample);
  ASSERT_FALSE(late_result.ok());
  EXPECT_NE(late_result.status().message().find("line 502, column 'b'"), std::string::npos)
      << late_result.status().message();
}

// NUL is an ordinary byte: inside unquoted and quoted fields, alone, and in a header.
TEST(CsvHostileInput, NulBytesInsideFields) {
  using namespace std::string_literals;
  const std::string text = "a,b\0c\nx\0y,\"\0\"\n\0,\"q\0\nr\"\n"s;
  CSV_ASSIGN_OR_FAIL(table, ReadText(text));
  EXPECT_EQ(table->schema()->field(1)->name(), "b\0c"s);
  ASSERT_EQ(table->num_rows(), 2);
  EXPECT_EQ(Cell(*table, 0, 0), "x\0y"s);
  EXPECT_EQ(Cell(*table, 1, 0), "\0"s);
  EXPECT_EQ(Cell(*table, 0, 1), "\0"s);
  EXPECT_EQ(Cell(*table, 1, 1), "q\0\nr"s);
}

// 50 MB at two threads: once the reader is past the first 10% of the input, its own buffers
// (windows, blocks' parse buffers) do not grow at all, and the pool's peak stays within what
// scheduling alone moves it by: with two windows in flight, the output arrays of up to two
// windows besides the batches being handed out (about 12% here; batches are dropped as they
// come, so nothing else accumulates).
TEST(CsvHostileInput, LongStreamKeepsPeakFlat) {
  constexpr int64_t kTotal = 50 * 1000 * 1000;
  auto rows = [](int64_t index, std::string* out) {
    for (int64_t r = index * 100; r < (index + 1) * 100; ++r) {
      *out += std::to_string(r) + ",name " + std::to_string(r % 977) + ",\"quoted, \"\"" + std::to_string(r % 13) +
              "\"\"\n line\"," + std::to_string(r % 1000) + ".25\n";
    }
  };
  auto pool = MakeSystemMemoryPool();
  CsvReadOptions options;
  options.read.executor = exec::ProcessExecutor(2);
  options.read.block_bytes = 256 << 10;
  options.read.sample_bytes = 64 << 10;
  options.parse.header = false;
  auto stream = std::make_unique<GeneratedStream>("", rows, kTotal);
  const auto produced = stream->produced();
  CSV_ASSIGN_OR_FAIL(reader, CsvReader::Open(std::move(stream), options, pool.get()));
  int64_t peak_at_10_percent = -1, memory_at_10_percent = -1, memory_after = 0;
  int64_t num_rows = 0;
  while (true) {
    CSV_ASSIGN_OR_FAIL(batch, reader->Next());
    if (!batch) break;
    num_rows += batch->num_rows();
    if (peak_at_10_percent < 0 && *produced >= kTotal / 10) {
      peak_at_10_percent = pool->peak_bytes();
      memory_at_10_percent = reader->memory_size();
    }
    if (memory_at_10_percent >= 0) memory_after = std::max(memory_after, reader->memory_size());
  }
  EXPECT_GE(*produced, kTotal);
  EXPECT_GT(num_rows, 900000);
  ASSERT_GT(peak_at_10_percent, 0);
  EXPECT_EQ(memory_after, memory_at_10_percent);
  EXPECT_LE(pool->peak_bytes(), peak_at_10_percent + peak_at_10_percent / 4)
      << "peak at 10%: " << peak_at_10_percent << ", final: " << pool->peak_bytes();
  EXPECT_LT(pool->peak_bytes(), 16 * kMiB);
  EXPECT_EQ(reader->schema()->field(3)->type()->id(), TypeId::kFloat64);
}

// max_row_bytes counts a row's bytes without its line break: a row of exactly the limit
// reads however it ends and wherever it sits; one byte more fails, naming the line.
TEST(CsvHostileInput, MaxRowBytesBoundary) {
  constexpr int64_t kLimit = 32;
  const std::string at_limit = "a" + std::string(14, 'x') + ",\"" + std::string(14, 'y') + "\"";  // 32 bytes
  ASSERT_EQ(static_cast<int64_t>(at_limit.size()), kLimit);
  const std::string over = at_limit + "z";
  std::string padding;
  for (int i = 0; i < 200; ++i) padding += "p" + std::to_string(i) + ",q\n";
  struct Case {
    const char* what;
    std::string before, after;
    int64_t line;
  };
  const Case cases[] = {
      {"header, LF", "", "\nb,c\n", 1},
      {"row, LF", "h,i\n", "\n", 2},
      {"row, CRLF", "h,i\r\n", "\r\n", 2},
      {"row, lone CR", "h,i\r", "\r1,2\r", 2},
      {"last row, no line break", "h,i\n", "", 2},
      {"after the sample", "h,i\n" + padding, "\nlast,row\n", 202},
  };
  for (const Case& c : cases) {
    for (int threads : {1, 2}) {
      SCOPED_TRACE(std::string(c.what) + ", threads " + std::to_string(threads));
      CsvReadOptions options;
      options.parse.max_row_bytes = kLimit;
      options.read.executor = exec::ProcessExecutor(threads);
      options.read.sample_bytes = 64;
      options.read.block_bytes = 16;
      CSV_ASSIGN_OR_FAIL(table, ReadText(c.before + at_limit + c.after, options));
      const auto result = ReadText(c.before + over + c.after, options);
      ASSERT_TRUE(result.status().IsLimitExceeded()) << result.status().ToString();
      EXPECT_NE(result.status().message().find("line " + std::to_string(c.line) + ":"), std::string::npos)
          << result.status().message();
    }
  }
}

// Degenerate inputs with exact outcomes (the fuzz regressions hold the same shapes).
TEST(CsvHostileInput, DegenerateInputs) {
  using namespace std::string_literals;
  for (const std::string& empty : {""s, "\xEF\xBB\xBF"s, "\n\n\n"s, "\r\n\r\n"s, "\r\r\r"s}) {
    CSV_ASSIGN_OR_FAIL(table, ReadText(empty));
    EXPECT_EQ(table->num_rows(), 0);
    EXPECT_EQ(table->num_columns(), 0);
  }
  // 1000 empty header names get names; 1000 empty fields are nulls.
  const std::string commas(999, ',');
  CSV_ASSIGN_OR_FAIL(wide, ReadText(commas + "\n" + commas + "\n"));
  ASSERT_EQ(wide->num_columns(), 1000);
  ASSERT_EQ(wide->num_rows(), 1);
  EXPECT_EQ(wide->schema()->field(999)->name(), "f999");
  EXPECT_EQ(Cell(*wide, 500, 0), "<null>");

  CsvReadOptions escapes;
  escapes.parse.escape = '\\';
  for (const std::string& text : {"a,b\n1,x\\"s, "a,b\n1,\"x\\"s}) {
    auto result = ReadText(text, escapes);
    ASSERT_FALSE(result.ok());
    EXPECT_NE(result.status().message().find("line 2: the input ends after an escape character"), std::string::npos)
        << result.status().message();
  }
  auto unclosed = ReadText("a,b\n1,\"never closed\n2,3\n");
  ASSERT_FALSE(unclosed.ok());
  EXPECT_NE(unclosed.status().message().find("line 2: a quoted field is never closed"), std::string::npos)
      << unclosed.status().message();
}

// A sample that ends inside the first field (no line break in it) still reads: the dialect
// sniffer meets an incomplete first row in a fresh buffer.
TEST(CsvHostileInput, SampleEndsInsideTheFirstField) {
  const std::string text = std::string(100, 'h') + "\nvalue\n";
  for (int64_t sample : {1, 8, 50}) {
    CsvReadOptions options;
    options.read.sample_bytes = sample;
    CSV_ASSIGN_OR_FAIL(table, ReadText(text, options));
    EXPECT_EQ(table->schema()->field(0)->name(), std::string(100, 'h'));
    EXPECT_EQ(Rows(*table), (std::vector<std::string>{"value"}));
  }
}

}  // namespace
}  // namespace strata::csv
