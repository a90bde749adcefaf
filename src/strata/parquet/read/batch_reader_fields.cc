// BatchReader's field-wise reading (declared in batch_reader.h): row groups opened one at a
// time, fields skipped or decoded on their own, and the rows a field decoded past a batch's
// end carried ahead of its next ones. Readers layered on the batch reader build on it
// (filter/late_materialization.h).
#include <algorithm>

#include "strata/array/concatenate.h"
#include "strata/parquet/read/batch_reader.h"
#include "strata/parquet/read/file_reader.h"

namespace strata::parquet {

Result<bool> BatchReader::OpenNextRowGroup() {
  if (next_row_group_ >= row_groups_.size()) {
    ReleaseRowGroup(current_row_group_);
    current_row_group_ = -1;
    return false;
  }
  STRATA_RETURN_NOT_OK(OpenRowGroup(next_row_group_++));
  current_.carry.assign(current_.readers.size(), std::nullopt);
  current_.carry_rows = 0;
  return true;
}

int64_t BatchReader::row_group_position() const {
  return file_->metadata().row_groups[static_cast<size_t>(current_row_group_)].num_rows - current_.rows_left;
}

void BatchReader::RecountCarriedRows() {
  current_.carry_rows = 0;
  for (const auto& carried : current_.carry) {
    if (carried) {
      current_.carry_rows =
          current_.carry_rows == 0 ? carried->length() : std::min(current_.carry_rows, carried->length());
    }
  }
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
  RecountCarriedRows();
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

Status BatchReader::GiveBackRows(const std::vector<size_t>& positions, int64_t rows, std::vector<Array>* columns) {
  for (const size_t i : positions) {
    Array& column = (*columns)[i];
    const int64_t extra = column.length() - rows;
    if (extra <= 0) continue;
    Array rest = column.Slice(rows, extra);
    if (current_.carry[i]) {
      STRATA_ASSIGN_OR_RETURN(auto joined, Concatenate(*rest.data(), *current_.carry[i]->data(), file_->pool()));
      rest = Array(std::move(joined));
    }
    current_.carry[i] = std::move(rest);
    column = column.Slice(0, rows);
  }
  return Status::OK();
}

void BatchReader::FinishRows(int64_t rows) {
  current_.rows_left -= rows;
  RecountCarriedRows();
}

void BatchReader::DropRowGroupRest() {
  current_.rows_left = 0;
  current_.carry.assign(current_.readers.size(), std::nullopt);
  current_.carry_rows = 0;
}

}  // namespace strata::parquet
