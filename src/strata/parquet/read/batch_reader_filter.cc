// BatchReader's filtered reads (late materialisation): the filter fields of a batch are
// decoded first, and the other fields decode only batches in which some row is kept; rows the
// page index rules out are skipped by every field. Declared in file_reader.h.
#include <fmt/format.h>

#include <algorithm>

#include "strata/array/bitmap.h"
#include "strata/array/concatenate.h"
#include "strata/parquet/read/file_reader.h"

namespace strata::parquet {

void BatchReader::SetRowFilter(RowFilter filter) {
  std::vector<bool> is_filter(fields_.size(), false);
  for (const size_t p : filter.filter_positions) is_filter[p] = true;
  other_positions_.clear();
  for (size_t i = 0; i < fields_.size(); ++i) {
    if (!is_filter[i]) other_positions_.push_back(i);
  }
  row_filter_ = std::move(filter);
}

Status BatchReader::SkipFields(const std::vector<size_t>& positions, int64_t rows) {
  if (rows == 0 || positions.empty()) return Status::OK();
  if (current_.carry.size() != current_.readers.size()) current_.carry.assign(current_.readers.size(), std::nullopt);
  STRATA_RETURN_NOT_OK(ForEachField(positions.size(), [&](size_t k) -> Status {
    const size_t i = positions[k];
    int64_t left = rows;
    if (current_.carry[i]) {
      const int64_t carried = current_.carry[i]->length();
      if (carried > left) {
        current_.carry[i] = current_.carry[i]->Slice(left);
        return Status::OK();
      }
      left -= carried;
      current_.carry[i].reset();
    }
    return current_.readers[i] ? current_.readers[i]->SkipRows(left) : current_.nested_readers[i]->SkipRows(left);
  }));
  current_.carry_rows = 0;
  for (const auto& carried : current_.carry) {
    if (carried) current_.carry_rows = current_.carry_rows == 0 ? carried->length() : std::min(current_.carry_rows, carried->length());
  }
  return Status::OK();
}

Status BatchReader::ReadFields(const std::vector<size_t>& positions, int64_t rows, std::vector<Array>* columns) {
  if (current_.carry.size() != current_.readers.size()) current_.carry.assign(current_.readers.size(), std::nullopt);
  return ForEachField(positions.size(), [&](size_t k) -> Status {
    const size_t i = positions[k];
    if (current_.carry[i]) {
      // Rows decoded before (a batch cut short at 2 GiB of string data): they come first.
      Array carried = std::move(*current_.carry[i]);
      current_.carry[i].reset();
      if (carried.length() > rows) {
        current_.carry[i] = carried.Slice(rows);
        carried = carried.Slice(0, rows);
      }
      (*columns)[i] = std::move(carried);
      return Status::OK();
    }
    auto data = current_.readers[i] ? current_.readers[i]->ReadBatch(rows) : current_.nested_readers[i]->ReadBatch(rows);
    if (!data.ok()) return data.status();
    (*columns)[i] = Array(std::move(*data));
    return Status::OK();
  });
}

namespace {

// Cuts the columns at `positions` to `cut` rows; the rows past it go back to the front of
// their field's carry.
Status Recarry(const std::vector<size_t>& positions, int64_t cut, std::vector<Array>* columns,
               std::vector<std::optional<Array>>* carry, MemoryPool* pool) {
  for (const size_t i : positions) {
    Array& column = (*columns)[i];
    const int64_t extra = column.length() - cut;
    if (extra <= 0) continue;
    Array rest = column.Slice(cut, extra);
    if ((*carry)[i]) {
      STRATA_ASSIGN_OR_RETURN(auto joined, Concatenate(*rest.data(), *(*carry)[i]->data(), pool));
      rest = Array(std::move(joined));
    }
    (*carry)[i] = std::move(rest);
    column = column.Slice(0, cut);
  }
  return Status::OK();
}

}  // namespace

Result<bool> BatchReader::AdvanceFilteredRowGroup() {
  for (;;) {
    if (current_row_group_ >= 0 && current_.rows_left > 0) {
      const int64_t num_rows = file_->metadata().row_groups[static_cast<size_t>(current_row_group_)].num_rows;
      const int64_t position = num_rows - current_.rows_left;
      const auto& ranges = candidates_.ranges();
      while (next_candidate_ < ranges.size() && ranges[next_candidate_].end <= position) ++next_candidate_;
      if (next_candidate_ == ranges.size()) {
        // Nothing left that may match: the readers are dropped with the row group.
        rows_skipped_ += current_.rows_left;
        current_.rows_left = 0;
        current_.carry.assign(current_.readers.size(), std::nullopt);
        current_.carry_rows = 0;
        continue;
      }
      const int64_t gap = ranges[next_candidate_].begin - position;
      if (gap > 0) {
        std::vector<size_t> all(fields_.size());
        for (size_t i = 0; i < all.size(); ++i) all[i] = i;
        STRATA_RETURN_NOT_OK(SkipFields(all, gap));
        rows_skipped_ += gap;
        current_.rows_left -= gap;
      }
      return true;
    }
    if (next_row_group_ >= row_groups_.size()) {
      ReleaseRowGroup(current_row_group_);
      current_row_group_ = -1;
      return false;
    }
    STRATA_RETURN_NOT_OK(OpenRowGroup(next_row_group_++));
    current_.carry.assign(current_.readers.size(), std::nullopt);
    current_.carry_rows = 0;
    next_candidate_ = 0;
    if (row_filter_->candidate_rows) {
      STRATA_ASSIGN_OR_RETURN(candidates_, row_filter_->candidate_rows(current_row_group_));
    } else {
      candidates_ = filter::RowRanges::All(current_.rows_left);
    }
  }
}

Result<BatchReader::FilteredBatch> BatchReader::NextFiltered() {
  if (!row_filter_) return Status::Invalid("BatchReader::NextFiltered without a row filter");
  const RowFilter& filter = *row_filter_;
  std::vector<size_t> all(fields_.size());
  for (size_t i = 0; i < all.size(); ++i) all[i] = i;
  for (;;) {
    STRATA_ASSIGN_OR_RETURN(const bool more, AdvanceFilteredRowGroup());
    if (!more) return FilteredBatch{};
    const int64_t num_rows = file_->metadata().row_groups[static_cast<size_t>(current_row_group_)].num_rows;
    const int64_t position = num_rows - current_.rows_left;
    const filter::RowRange& range = candidates_.ranges()[next_candidate_];
    int64_t rows = std::min({options_.batch_rows, current_.rows_left, range.end - position});
    if (current_.carry_rows > 0) rows = std::min(rows, current_.carry_rows);

    std::vector<Array> columns(fields_.size());
    STRATA_RETURN_NOT_OK(ReadFields(filter.filter_positions, rows, &columns));
    int64_t cut = rows;
    for (const size_t p : filter.filter_positions) cut = std::min(cut, columns[p].length());
    STRATA_RETURN_NOT_OK(Recarry(filter.filter_positions, cut, &columns, &current_.carry, file_->pool()));
    rows_decoded_ += cut;
    std::vector<Array> filter_columns;
    filter_columns.reserve(filter.filter_positions.size());
    for (const size_t p : filter.filter_positions) filter_columns.push_back(columns[p]);
    STRATA_ASSIGN_OR_RETURN(expr::Selection selection, filter.select(filter_columns, cut));
    if (selection.selected == 0) {
      STRATA_RETURN_NOT_OK(SkipFields(other_positions_, cut));
      current_.rows_left -= cut;
      continue;
    }
    STRATA_RETURN_NOT_OK(ReadFields(other_positions_, cut, &columns));
    int64_t batch_rows = cut;
    for (const size_t p : other_positions_) batch_rows = std::min(batch_rows, columns[p].length());
    if (batch_rows < cut) {
      // Another field stopped short at 2 GiB: the batch ends there, the rest comes next.
      STRATA_RETURN_NOT_OK(Recarry(all, batch_rows, &columns, &current_.carry, file_->pool()));
      selection.length = batch_rows;
      selection.selected = bitmap::CountSetBits(selection.bits->data(), 0, batch_rows);
    }
    current_.carry_rows = 0;
    for (const auto& carried : current_.carry) {
      if (carried) current_.carry_rows = current_.carry_rows == 0 ? carried->length() : std::min(current_.carry_rows, carried->length());
    }
    current_.rows_left -= batch_rows;
    if (selection.selected == 0) continue;
    return FilteredBatch{std::make_shared<RecordBatch>(schema_, batch_rows, std::move(columns)), std::move(selection)};
  }
}

}  // namespace strata::parquet
