#include "strata/parquet/read/nested_column_reader.h"

#include <algorithm>

#include <fmt/format.h>

namespace strata::parquet {

NestedColumnReader::NestedColumnReader(const AssemblyPlan& plan, std::vector<std::unique_ptr<NestedLeafReader>> leaves,
                                       int64_t rows_in_chunk, std::string where, MemoryPool* pool)
    : plan_(plan), leaves_(std::move(leaves)), rows_in_chunk_(rows_in_chunk), where_(std::move(where)), pool_(pool) {
  levels_.resize(leaves_.size());
}

Status NestedColumnReader::SkipRows(int64_t rows) {
  rows = std::clamp<int64_t>(rows, 0, rows_left());
  while (rows > 0) {
    STRATA_ASSIGN_OR_RETURN(const ArrayDataPtr dropped, ReadBatch(std::min<int64_t>(rows, 1 << 16)));
    if (dropped->length == 0) return Status::Corrupt("{}: no rows left to skip", where_);
    rows -= dropped->length;
  }
  return Status::OK();
}

Result<ArrayDataPtr> NestedColumnReader::ReadBatch(int64_t rows) {
  rows = std::clamp<int64_t>(rows, 0, rows_left());
  // Leaves that may end early (string or binary values near 2 GiB of 32-bit offsets, or rows
  // carried from such a cut) read first: the batch takes the fewest rows any of them returns,
  // those that returned more give the rest back, and the other leaves read that many.
  const size_t n = leaves_.size();
  first_pass_.assign(n, false);
  for (size_t i = 0; i < n; ++i) first_pass_[i] = leaves_[i] != nullptr && leaves_[i]->may_end_early();
  int64_t batch = rows;
  int reference = -1;  // the first leaf read, whose row count the others must match
  for (const bool first : {true, false}) {
    for (size_t i = 0; i < n; ++i) {
      if (leaves_[i] == nullptr || first_pass_[i] != first) continue;  // nullptr: outside the type (extra map children)
      STRATA_ASSIGN_OR_RETURN(const int64_t got, leaves_[i]->ReadRows(batch));
      if (got < batch && !leaves_[i]->ended_early()) {
        const std::string others =
            reference >= 0
                ? fmt::format(" (column '{}' holds them)", leaves_[static_cast<size_t>(reference)]->column().dotted_path)
                : "";
        return Status::Corrupt("{}: column '{}' ends after {} of the row group's {} rows{}", leaves_[i]->Where(),
                               leaves_[i]->column().dotted_path, rows_read_ + got, rows_in_chunk_, others);
      }
      batch = got;
      if (reference < 0) reference = static_cast<int>(i);
    }
    if (!first) break;
    for (size_t i = 0; i < n; ++i) {
      if (first_pass_[i]) STRATA_RETURN_NOT_OK(leaves_[i]->GiveBack(batch));
    }
  }
  for (size_t i = 0; i < n; ++i) {
    if (leaves_[i] == nullptr) continue;
    if (rows_read_ + batch == rows_in_chunk_ && leaves_[i]->levels_left_in_page() > 0) {
      return Status::Corrupt("{}: column '{}' holds more than the row group's {} rows", leaves_[i]->Where(),
                             leaves_[i]->column().dotted_path, rows_in_chunk_);
    }
    levels_[i] = LeafLevels{leaves_[i]->def_levels(), leaves_[i]->rep_levels(), leaves_[i]->levels_read(),
                            leaves_[i]->values()};
  }
  auto array = AssembleRecords(plan_, levels_, pool_, rows_read_);
  // The leaf arrays belong to the batch now (or to nothing): held here they would stay alive
  // while the next batch decodes, every leaf's at once.
  for (LeafLevels& levels : levels_) levels.values.reset();
  if (!array.ok()) return array.status().WithContext(where_);
  if ((*array)->length != batch) {
    return Status::Corrupt("{}: field assembled {} rows of {}", where_, (*array)->length, batch);
  }
  rows_read_ += batch;
  return array;
}

int64_t NestedColumnReader::memory_size() const {
  int64_t total = 0;
  for (const auto& leaf : leaves_) total += leaf ? leaf->memory_size() : 0;
  return total;
}

}  // namespace strata::parquet
