// LateMaterialization: filtered batches from a BatchReader, decoding as little as the filter
// allows. A batch's filter fields are decoded first and `select` says which rows to keep; the
// other fields then decode only batches that keep a row, and skip the others. Rows outside a
// row group's candidate rows (the page index's answer) are skipped by every field. It drives
// the batch reader field by field (BatchReader::ReadFields and friends); FilteredBatchReader
// (filtered_reader.h) puts it together with row group pruning.
#pragma once

#include <functional>
#include <memory>
#include <vector>

#include "strata/expr/evaluate.h"
#include "strata/parquet/filter/row_ranges.h"
#include "strata/parquet/read/file_reader.h"

namespace strata::parquet::filter {

class LateMaterialization {
 public:
  // The rows of `row_group` that may match (null: every row).
  using CandidateRows = std::function<Result<RowRanges>(int row_group)>;
  // Which of `rows` rows to keep, given the filter fields' columns (in filter position order).
  using Select = std::function<Result<expr::Selection>(const std::vector<Array>& filter_columns, int64_t rows)>;

  struct FilteredBatch {
    std::shared_ptr<RecordBatch> batch;  // every field read; null after the last batch
    expr::Selection selection;           // the rows of `batch` to keep (selected > 0)
  };

  // `reader` (not owned) must not have been read from; `filter_positions` index its fields.
  LateMaterialization(BatchReader* reader, std::vector<size_t> filter_positions, CandidateRows candidate_rows,
                      Select select);

  Result<FilteredBatch> Next();

  // Rows the filter fields decoded, and rows skipped unread by every field.
  int64_t rows_decoded() const { return rows_decoded_; }
  int64_t rows_skipped() const { return rows_skipped_; }

 private:
  // Opens row groups until one has rows left among its candidates; false at the end.
  Result<bool> AdvanceRowGroup();

  BatchReader* reader_;
  std::vector<size_t> filter_positions_;
  std::vector<size_t> other_positions_;
  std::vector<size_t> all_positions_;
  CandidateRows candidate_rows_;
  Select select_;
  // The current row group's candidate rows, and the next one among them.
  RowRanges candidates_;
  size_t next_candidate_ = 0;
  bool opened_ = false;
  int64_t rows_decoded_ = 0;
  int64_t rows_skipped_ = 0;
};

}  // namespace strata::parquet::filter
