#include "strata/parquet/filter/late_materialization.h"

#include <algorithm>

#include "strata/array/bitmap.h"

namespace strata::parquet::filter {

LateMaterialization::LateMaterialization(BatchReader* reader, std::vector<size_t> filter_positions,
                                         CandidateRows candidate_rows, Select select)
    : reader_(reader),
      filter_positions_(std::move(filter_positions)),
      candidate_rows_(std::move(candidate_rows)),
      select_(std::move(select)) {
  const size_t fields = static_cast<size_t>(reader_->schema()->num_fields());
  std::vector<bool> is_filter(fields, false);
  for (const size_t p : filter_positions_) is_filter[p] = true;
  for (size_t i = 0; i < fields; ++i) {
    all_positions_.push_back(i);
    if (!is_filter[i]) other_positions_.push_back(i);
  }
}

Result<bool> LateMaterialization::AdvanceRowGroup() {
  for (;;) {
    if (opened_ && reader_->rows_left() > 0) {
      const int64_t position = reader_->row_group_position();
      const auto& ranges = candidates_.ranges();
      while (next_candidate_ < ranges.size() && ranges[next_candidate_].end <= position) ++next_candidate_;
      if (next_candidate_ == ranges.size()) {
        // Nothing left that may match: the readers are dropped with the row group.
        rows_skipped_ += reader_->rows_left();
        reader_->DropRowGroupRest();
        continue;
      }
      const int64_t gap = ranges[next_candidate_].begin - position;
      if (gap > 0) {
        STRATA_RETURN_NOT_OK(reader_->SkipFields(all_positions_, gap));
        rows_skipped_ += gap;
        reader_->FinishRows(gap);
      }
      return true;
    }
    STRATA_ASSIGN_OR_RETURN(opened_, reader_->OpenNextRowGroup());
    if (!opened_) return false;
    next_candidate_ = 0;
    if (candidate_rows_) {
      STRATA_ASSIGN_OR_RETURN(candidates_, candidate_rows_(reader_->current_row_group()));
    } else {
      candidates_ = RowRanges::All(reader_->rows_left());
    }
  }
}

Result<LateMaterialization::FilteredBatch> LateMaterialization::Next() {
  for (;;) {
    STRATA_ASSIGN_OR_RETURN(const bool more, AdvanceRowGroup());
    if (!more) return FilteredBatch{};
    const int64_t position = reader_->row_group_position();
    const RowRange& range = candidates_.ranges()[next_candidate_];
    int64_t rows = std::min({reader_->options().batch_rows, reader_->rows_left(), range.end - position});
    if (reader_->carried_rows() > 0) rows = std::min(rows, reader_->carried_rows());

    std::vector<Array> columns(all_positions_.size());
    STRATA_RETURN_NOT_OK(reader_->ReadFields(filter_positions_, rows, &columns));
    int64_t cut = rows;
    for (const size_t p : filter_positions_) cut = std::min(cut, columns[p].length());
    STRATA_RETURN_NOT_OK(reader_->GiveBackRows(filter_positions_, cut, &columns));
    rows_decoded_ += cut;
    std::vector<Array> filter_columns;
    filter_columns.reserve(filter_positions_.size());
    for (const size_t p : filter_positions_) filter_columns.push_back(columns[p]);
    STRATA_ASSIGN_OR_RETURN(expr::Selection selection, select_(filter_columns, cut));
    if (selection.selected == 0) {
      STRATA_RETURN_NOT_OK(reader_->SkipFields(other_positions_, cut));
      reader_->FinishRows(cut);
      continue;
    }
    STRATA_RETURN_NOT_OK(reader_->ReadFields(other_positions_, cut, &columns));
    int64_t batch_rows = cut;
    for (const size_t p : other_positions_) batch_rows = std::min(batch_rows, columns[p].length());
    if (batch_rows < cut) {
      // Another field stopped short at 2 GiB: the batch ends there, the rest comes next.
      STRATA_RETURN_NOT_OK(reader_->GiveBackRows(all_positions_, batch_rows, &columns));
      selection.length = batch_rows;
      selection.selected = bitmap::CountSetBits(selection.bits->data(), 0, batch_rows);
    }
    reader_->FinishRows(batch_rows);
    if (selection.selected == 0) continue;
    return FilteredBatch{std::make_shared<RecordBatch>(reader_->schema(), batch_rows, std::move(columns)),
                         std::move(selection)};
  }
}

}  // namespace strata::parquet::filter
