// Fuzz target "csv_reader": the whole CSV read path on the input (after one byte of options)
// as a stream in memory: CsvReader::Open, then every batch, once on the caller's thread and
// once on two threads with tiny blocks (so rows straddle block boundaries and the splitter
// decides every one). Both reads must agree: on success or failure, and when they succeed on
// every value and on the rows skipped. Batches must be valid arrays; every byte goes back to
// the pool.
#include <string>
#include <vector>

#include "strata/array/validate.h"
#include "strata/csv/reader.h"
#include "strata/exec/process_pool.h"
#include "strata/fuzz/fuzz_target.h"

namespace strata::csv {
namespace {

struct ReadOutcome {
  Status status;
  std::shared_ptr<Table> table;
  int64_t skipped_rows = 0;
  std::vector<int64_t> skipped_lines;  // of the first few skipped rows
};

ReadOutcome ReadAllBatches(std::string_view text, const CsvReadOptions& options, MemoryPool* pool) {
  ReadOutcome outcome;
  auto input = MakeMemoryInputStream({reinterpret_cast<const uint8_t*>(text.data()), text.size()}, "fuzz.csv");
  auto reader = CsvReader::Open(std::move(input), options, pool);
  if (!reader.ok()) {
    outcome.status = reader.status();
    return outcome;
  }
  std::vector<std::shared_ptr<RecordBatch>> batches;
  const SchemaPtr& schema = (*reader)->schema();
  while (true) {
    auto batch = (*reader)->Next();
    if (!batch.ok()) {
      outcome.status = batch.status();
      return outcome;
    }
    if (*batch == nullptr) break;
    STRATA_FUZZ_CHECK((*batch)->schema()->Equals(*schema), "a batch's schema differs from the reader's");
    STRATA_FUZZ_CHECK((*batch)->num_rows() >= 1 && (*batch)->num_rows() <= options.read.batch_rows);
    for (int c = 0; c < (*batch)->num_columns(); ++c) {
      ValidateOptions validate;
      validate.check_utf8 = options.convert.validate_utf8;
      const Status valid = ValidateFull(*(*batch)->column(c).data(), validate);
      STRATA_FUZZ_CHECK(valid.ok(), valid.ToString());
    }
    batches.push_back(std::move(*batch));
  }
  auto table = Table::FromRecordBatches(schema, batches);
  STRATA_FUZZ_CHECK(table.ok(), table.status().ToString());
  outcome.table = std::move(*table);
  outcome.skipped_rows = (*reader)->skipped_rows();
  for (const SkippedRow& row : (*reader)->skipped_examples()) outcome.skipped_lines.push_back(row.line);
  return outcome;
}

void CheckReadError(const Status& status, const char* what) {
  fuzz::CheckError(status, what);
  // Plain text in memory is never corrupt: Corrupt is the reader's own consistency check
  // failing (a misplaced block boundary), a bug rather than bad input.
  STRATA_FUZZ_CHECK(!status.IsCorrupt(), status.ToString());
}

// The options byte: bits 0-1 ragged rows (error, fill, skip, salvage with '#' comments),
// bit 2 backslash escapes, bit 3 all_strings, bit 4 validate_utf8 off, bits 5-6 the sample
// size, bit 7 the parallel read's block size.
CsvReadOptions SerialOptions(uint8_t bits) {
  static constexpr RaggedRows kRagged[] = {RaggedRows::kError, RaggedRows::kFill, RaggedRows::kSkip,
                                           RaggedRows::kSalvage};
  static constexpr int64_t kSampleBytes[] = {16, 64, 256, 4096};
  CsvReadOptions options;
  options.parse.ragged_rows = kRagged[bits & 3];
  if ((bits & 3) == 3) options.parse.comment = '#';
  if (bits & 4) options.parse.escape = '\\';
  options.convert.all_strings = (bits & 8) != 0;
  options.convert.validate_utf8 = (bits & 16) == 0;
  options.read.sample_bytes = kSampleBytes[(bits >> 5) & 3];
  options.read.executor = exec::Executor();
  options.parse.max_row_bytes = 1 << 20;
  return options;
}

void FuzzCsv(const uint8_t* data, size_t size) {
  fuzz::FuzzInput input(data, size);
  const uint8_t bits = input.U8();
  const std::string_view text(reinterpret_cast<const char*>(input.rest()), input.rest_size());
  fuzz::FuzzPool pool;
  {
    const CsvReadOptions serial_options = SerialOptions(bits);
    CsvReadOptions parallel_options = serial_options;
    parallel_options.read.executor = exec::ProcessExecutor(2);
    parallel_options.read.block_bytes = (bits & 128) ? 5 : 64;
    parallel_options.read.batch_rows = 3;

    const ReadOutcome serial = ReadAllBatches(text, serial_options, pool.get());
    const ReadOutcome parallel = ReadAllBatches(text, parallel_options, pool.get());
    CheckReadError(serial.status, "serial read");
    CheckReadError(parallel.status, "parallel read");
    STRATA_FUZZ_CHECK(serial.status.ok() == parallel.status.ok(),
                      "serial: " + serial.status.ToString() + "; parallel: " + parallel.status.ToString());
    if (serial.status.ok() && parallel.status.ok()) {
      STRATA_FUZZ_CHECK(serial.table->Equals(*parallel.table), "the parallel read differs from the serial read");
      STRATA_FUZZ_CHECK(serial.skipped_rows == parallel.skipped_rows);
      STRATA_FUZZ_CHECK(serial.skipped_lines == parallel.skipped_lines, "skipped rows reported on other lines");
    }
  }
}

}  // namespace
}  // namespace strata::csv

STRATA_FUZZ_TARGET(csv_reader) {
  strata::csv::FuzzCsv(data, size);
  return 0;
}
