// CsvReader: CSV (or TSV, .csv.gz, .csv.zst) as a stream of record batches. Open() reads a
// sample, detects what the options leave open (dialect, header, column types) and keeps the
// sample's rows as the first batches; Next() then reads the input a window at a time, splits
// each window into blocks at true row starts (block_splitter.h), parses and converts the
// blocks on ReadOptions::executor's pool and hands the batches back in input order.
//
// Memory is bounded by the window (executor threads x 2 blocks of ReadOptions::block_bytes, or one
// row when a row is longer) plus one block's parsed fields and converted arrays per block,
// whatever the input's size. The window buffer and every block's parse buffers are kept and
// reused: in steady state a batch allocates only its output arrays.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "strata/array/record_batch.h"
#include "strata/array/table.h"
#include "strata/csv/block_splitter.h"
#include "strata/csv/parser.h"
#include "strata/csv/preamble.h"
#include "strata/csv/read_options.h"
#include "strata/csv/sniffer.h"
#include "strata/csv/type_inference.h"
#include "strata/io/input_stream.h"
#include "strata/io/s3/s3_options.h"

namespace strata::exec {
class TaskGroup;
}

namespace strata::csv {

struct CsvReadOptions {
  ReadOptions read;
  ParseOptions parse;
  ConvertOptions convert;
  // Open(path) of an s3:// URL: endpoint, region, credentials (empty: the environment's).
  s3::S3Options s3;
  Status Validate() const;
};

// What a read padded, skipped or repaired: complete once Next() has returned nullptr.
struct CsvReadReport {
  int64_t rows = 0;          // rows read into batches so far
  int64_t padded_rows = 0;   // short rows padded with nulls (RaggedRows::kFill, kSalvage)
  int64_t skipped_rows = 0;  // rows skipped (kSkip; long rows in kSalvage)
  std::vector<SkippedRow> skipped_examples;  // the first 10 skipped
  int64_t unclosed_quote_line = 0;  // kSalvage: the row whose quote the end of input closed (0: none)
  // How a header whose width differs from most rows' was repaired ("" when it was not).
  std::string header_repair;
  // Rows above the table that were skipped as a preamble (a title, "PREAMBLE,,,,", the upper
  // row of a two-row header: preamble.h), and the input lines they take (0: none).
  int64_t preamble_rows = 0;
  int64_t preamble_first_line = 0;
  int64_t preamble_last_line = 0;
};

// What the reader detected from the sample, and what it considered (strata schema prints it).
struct CsvDetection {
  int64_t sample_bytes = 0;                // bytes the dialect was detected from
  std::vector<DialectCandidate> dialects;  // every dialect tried, in order (dialect() is the choice)
  std::string header;                      // the header decision and why
  std::string width;                       // where the number of columns comes from
  std::string preamble;                    // rows skipped above the table and why, or why none
};

class CsvReader {
 public:
  ~CsvReader();
  CsvReader(const CsvReader&) = delete;
  CsvReader& operator=(const CsvReader&) = delete;

  // Reads from `input` (not reopened, so infer_whole_file is refused). Buffers come from
  // `pool`, which must outlive the reader.
  static Result<std::unique_ptr<CsvReader>> Open(std::unique_ptr<InputStream> input, const CsvReadOptions& options,
                                                 MemoryPool* pool);
  // Opens `path` ("-" = standard input), decompressing .gz / .zst (by extension or magic
  // bytes). With infer_whole_file the file is read once to infer the types, then again.
  static Result<std::unique_ptr<CsvReader>> Open(const std::string& path, const CsvReadOptions& options,
                                                 MemoryPool* pool);

  // The next batch (at most batch_rows rows), or nullptr after the last. Errors name the
  // input, the line and, for values, the column.
  Result<std::shared_ptr<RecordBatch>> Next();
  // Every remaining batch as one table.
  Result<std::shared_ptr<Table>> ReadAll();

  // The columns read (all, or ConvertOptions::include_columns in that order).
  const SchemaPtr& schema() const { return schema_; }
  // Every column of the input with its type, included or not.
  const SchemaPtr& input_schema() const { return full_schema_; }
  const Dialect& dialect() const { return dialect_; }
  bool has_header() const { return has_header_; }
  // Rows skipped as ragged (RaggedRows::kSkip, kSalvage) so far, and the first few of them.
  int64_t skipped_rows() const { return report_.skipped_rows; }
  const std::vector<SkippedRow>& skipped_examples() const { return report_.skipped_examples; }
  // Rows read, padded and skipped so far, a quote closed by the end of input, a repaired header.
  // With kSkip or kSalvage, Next() fails at the end of the input when more rows were skipped
  // than ParseOptions::max_bad_rows allows (by default, when more than half were).
  const CsvReadReport& report() const { return report_; }
  const CsvDetection& detection() const { return detection_; }
  // Bytes of the underlying input consumed so far, and its size (-1 when unknown).
  int64_t raw_bytes_read() const { return input_->raw_bytes_read(); }
  int64_t raw_size() const { return input_->raw_size(); }
  // Pool bytes held by the reader (window, parse buffers, decompressor), not counting
  // batches already returned.
  int64_t memory_size() const;

 private:
  struct Block;
  CsvReader(std::unique_ptr<InputStream> input, const CsvReadOptions& options, MemoryPool* pool);

  Status Start(const std::vector<TypePtr>* whole_file_types);
  // Reads until the window holds `bytes` bytes or the input ends.
  Status FillWindow(int64_t bytes);
  Status SkipLeadingLines();
  // Drops the rows above the table (preamble.h) from the window, and reports them.
  Status SkipPreamble(std::string_view sample);
  Status ReadHeaderAndSample(const std::vector<TypePtr>* whole_file_types);
  struct Window {
    std::shared_ptr<ResizableBuffer> buffer;
    int64_t size = 0;
    std::vector<std::unique_ptr<Block>> blocks;  // reused window after window
    size_t num_blocks = 0;
    std::unique_ptr<exec::TaskGroup> group;
    bool in_flight = false;
  };
  // Delivers the oldest window's batches to ready_ (reading and submitting the next ones
  // first); false when the input is exhausted.
  Result<bool> ParseNextWindow();
  // Reads and splits the next window and submits its blocks to the pool.
  Status SubmitNextWindow();
  Status CollectWindow(Window* window);
  // Converts a parsed block to batches of at most batch_rows rows.
  Status ConvertBlock(Block* block);
  Status Convert(const ParsedRows& rows, std::vector<std::shared_ptr<RecordBatch>>* out) const;
  // Types from every row of the input (infer_whole_file).
  Status InferAllTypes(std::vector<TypePtr>* types);

  std::unique_ptr<InputStream> input_;
  CsvReadOptions options_;
  MemoryPool* pool_;

  Dialect dialect_;
  std::unique_ptr<BlockParser> parser_;
  std::unique_ptr<BlockSplitter> splitter_;
  bool has_header_ = false;
  SchemaPtr schema_;       // the included columns (ConvertOptions::include_columns)
  SchemaPtr full_schema_;  // every column of the input
  std::vector<int> selected_;  // input column of each schema_ field
  int num_input_columns_ = 0;
  std::vector<bool> inferred_;  // per column: the type was inferred, not given

  // Input bytes not yet parsed: window_[0, window_size_), starting at a row start on
  // window_line_.
  std::shared_ptr<ResizableBuffer> window_;
  int64_t window_size_ = 0;
  int64_t window_line_ = 1;
  bool eof_ = false;
  bool input_exhausted_ = false;  // every byte is in a submitted window

  Window windows_[2];
  std::deque<int> in_flight_;  // slots of windows_ being parsed, oldest first
  // Set only in infer_whole_file's first pass: blocks are observed, not converted.
  std::vector<ColumnTypeInferrer> inferrers_;
  std::deque<std::shared_ptr<RecordBatch>> ready_;
  CsvReadReport report_;
  CsvDetection detection_;
  // Fits a header's names to `columns`, the width most sampled rows have, and reports it.
  void RepairHeader(int columns, const SampleWidth& majority, std::vector<std::string>* names);
  // Adds a parse's padded and skipped rows (and an unclosed quote) to report_.
  void Count(const BlockParseResult& result);
  // kSkip / kSalvage at the end of the input: fails when too many rows were skipped.
  Status CheckRowsLost() const;
};

}  // namespace strata::csv
