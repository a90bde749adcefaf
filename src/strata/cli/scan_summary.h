// ScanSummary: per-column non-null count, null count, min and max over every batch of a scan,
// printed as `strata scan` shows it and as the one-line JSON of SCAN-SUMMARY.md that other
// engines' summaries are compared with.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "strata/array/record_batch.h"
#include "strata/exec/executor.h"

namespace strata::cli {

class ColumnSummary;

class ScanSummary {
 public:
  explicit ScanSummary(const Schema& schema);
  ~ScanSummary();

  // Folds a batch in; its schema must be the one given at construction. With a parallel
  // executor the columns are summarised at once (each column's state is its own).
  void Add(const RecordBatch& batch, const exec::Executor& executor = {});
  // Folds in another summary of the same schema (batches summarised elsewhere, on another
  // thread). The result does not depend on the order batches were folded in: counts add up,
  // and equal extremes print alike (SCAN-SUMMARY.md writes -0 and +0 as 0).
  void Merge(const ScanSummary& other);

  int64_t rows() const { return rows_; }
  // Bytes of the decoded arrays' buffers seen so far (for MB/s).
  int64_t decoded_bytes() const { return decoded_bytes_; }

  // {"rows":N,"columns":[{"name":..,"type":..,"count":..,"nulls":..,"min":..,"max":..}, ...]}
  std::string ToJson() const;
  // One line per column for people.
  std::string ToText() const;

 private:
  int64_t rows_ = 0;
  int64_t decoded_bytes_ = 0;
  std::vector<std::unique_ptr<ColumnSummary>> columns_;
};

// The contract's type name: int8..uint64, float16/32/64, decimal(P,S), date, timestamp[unit],
// time[unit], string, binary, bool, nested.
std::string SummaryTypeName(const DataType& type);

}  // namespace strata::cli
