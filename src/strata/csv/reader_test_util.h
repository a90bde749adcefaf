// Test helpers for whole-reader tests (hostile input, corpora): read a text, look at cells
// exactly, and a stream that makes its bytes as they are read, so that a test can feed the
// reader hundreds of megabytes without holding them.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "strata/array/array.h"
#include "strata/csv/reader.h"
#include "strata/exec/executor.h"
#include "strata/memory/memory_pool.h"

namespace strata::csv::testing {

#define CSV_ASSIGN_OR_FAIL(lhs, expr)                                 \
  auto lhs##_result = (expr);                                         \
  ASSERT_TRUE(lhs##_result.ok()) << lhs##_result.status().ToString(); \
  auto lhs = std::move(lhs##_result).ValueOrDie()

// `text` as a stream; the string must outlive the stream.
inline std::unique_ptr<InputStream> Memory(const std::string& text, const std::string& name = "mem.csv") {
  return MakeMemoryInputStream({reinterpret_cast<const uint8_t*>(text.data()), text.size()}, name);
}

inline Result<std::shared_ptr<Table>> ReadText(const std::string& text, CsvReadOptions options = {},
                                               MemoryPool* pool = SystemMemoryPool()) {
  STRATA_ASSIGN_OR_RETURN(auto reader, CsvReader::Open(Memory(text), options, pool));
  return reader->ReadAll();
}

// One cell exactly: the bytes of a string or binary value, "<null>" for a null, else the
// printed value ("42", "1.5", "2024-01-02", "true").
inline std::string Cell(const Table& table, int column, int64_t row) {
  for (const Array& chunk : table.column(column)->chunks()) {
    if (row >= chunk.length()) {
      row -= chunk.length();
      continue;
    }
    if (chunk.IsNull(row)) return "<null>";
    if (chunk.type_id() == TypeId::kString || chunk.type_id() == TypeId::kBinary) {
      return BinaryArray<int32_t>(chunk).GetString(row);
    }
    const std::string printed = chunk.Slice(row, 1).ToString();  // "[v]"
    return printed.substr(1, printed.size() - 2);
  }
  ADD_FAILURE() << "row out of range";
  return "";
}

// Every row as "cell|cell|..." (cells as Cell() gives them).
inline std::vector<std::string> Rows(const Table& table) {
  std::vector<std::string> out;
  for (int64_t r = 0; r < table.num_rows(); ++r) {
    std::string row;
    for (int c = 0; c < table.num_columns(); ++c) row += (c > 0 ? "|" : "") + Cell(table, c, r);
    out.push_back(std::move(row));
  }
  return out;
}

inline std::vector<std::string> Names(const Table& table) {
  std::vector<std::string> out;
  for (const auto& f : table.schema()->fields()) out.push_back(f->name());
  return out;
}

// A table and what the read reported (CsvReader::report()).
struct ReadAndReport {
  std::shared_ptr<Table> table;
  CsvReadReport report;
};

inline Result<ReadAndReport> ReadWithReport(const std::string& text, const CsvReadOptions& options) {
  STRATA_ASSIGN_OR_RETURN(auto reader, CsvReader::Open(Memory(text), options, SystemMemoryPool()));
  ReadAndReport out;
  STRATA_ASSIGN_OR_RETURN(out.table, reader->ReadAll());
  out.report = reader->report();
  return out;
}

// Reads `text` with a sample of `sample_bytes` (small, so that most rows go past the sample)
// on the calling thread, then in blocks of 7 bytes on `executor`: both must succeed, or fail
// with the same message, and agree on the rows, the schema and the report. Returns the first.
inline Result<ReadAndReport> ReadSeriallyAndInBlocks(const std::string& text, CsvReadOptions options,
                                                     const exec::Executor& executor, int64_t sample_bytes = 12) {
  options.read.sample_bytes = sample_bytes;
  options.read.executor = exec::Executor();
  auto serial = ReadWithReport(text, options);
  options.read.executor = executor;
  options.read.block_bytes = 7;
  auto blocks = ReadWithReport(text, options);
  if (serial.ok() != blocks.ok()) {
    return Status::Invalid("serial: {}; in blocks: {}", serial.status().ToString(), blocks.status().ToString());
  }
  if (!serial.ok()) {
    if (serial.status().message() != blocks.status().message()) {
      return Status::Invalid("serial: {}; in blocks: {}", serial.status().ToString(), blocks.status().ToString());
    }
    return serial.status();
  }
  const CsvReadReport &a = serial->report, &b = blocks->report;
  if (Rows(*serial->table) != Rows(*blocks->table) || !serial->table->schema()->Equals(*blocks->table->schema()) ||
      a.rows != b.rows || a.padded_rows != b.padded_rows || a.skipped_rows != b.skipped_rows ||
      a.unclosed_quote_line != b.unclosed_quote_line || a.header_repair != b.header_repair ||
      a.preamble_rows != b.preamble_rows || a.preamble_last_line != b.preamble_last_line) {
    return Status::Invalid("the read in blocks differs from the serial one");
  }
  return serial;
}

// A stream of `prefix`, then the pieces `piece(0, &out)`, `piece(1, &out)`, ... appended one
// at a time until `total_bytes` are out (the last piece is not cut, so it may end a row). Holds one piece at a time; its size is unknown
// (-1), like a pipe's. produced() counts the bytes handed out and outlives the stream (a
// reader that fails to open destroys it).
class GeneratedStream : public InputStream {
 public:
  using PieceFunction = std::function<void(int64_t index, std::string* out)>;
  GeneratedStream(std::string prefix, PieceFunction piece, int64_t total_bytes)
      : pending_(std::move(prefix)), piece_(std::move(piece)), total_bytes_(total_bytes) {}

  Result<int64_t> Read(std::span<uint8_t> out) override {
    int64_t n = 0;
    while (n < static_cast<int64_t>(out.size())) {
      if (at_ == pending_.size()) {
        if (*produced_ >= total_bytes_) break;
        pending_.clear();
        at_ = 0;
        piece_(next_piece_++, &pending_);
        if (pending_.empty()) break;
      }
      const int64_t take = std::min(static_cast<int64_t>(pending_.size() - at_), static_cast<int64_t>(out.size()) - n);
      std::memcpy(out.data() + n, pending_.data() + at_, static_cast<size_t>(take));
      at_ += static_cast<size_t>(take);
      n += take;
      *produced_ += take;
    }
    return n;
  }
  const std::string& name() const override { return name_; }
  int64_t raw_bytes_read() const override { return *produced_; }
  int64_t raw_size() const override { return -1; }
  std::shared_ptr<const int64_t> produced() const { return produced_; }

 private:
  std::string name_ = "generated.csv";
  std::string pending_;
  size_t at_ = 0;
  PieceFunction piece_;
  int64_t total_bytes_;
  std::shared_ptr<int64_t> produced_ = std::make_shared<int64_t>(0);
  int64_t next_piece_ = 0;
};

}  // namespace strata::csv::testing
