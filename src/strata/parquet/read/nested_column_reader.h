// NestedColumnReader: reads one nested top-level field (lists, maps, structs at any depth)
// of one row group, batch by batch. It drives a NestedLeafReader per leaf column of the field
// and assembles their levels and values into the field's array (record_assembly.h). The file
// reader makes one per nested field per row group, beside the flat ColumnReaders.
#pragma once

#include <memory>
#include <vector>

#include "strata/parquet/read/nested_leaf_reader.h"
#include "strata/parquet/read/record_assembly.h"

namespace strata::parquet {

class NestedColumnReader {
 public:
  // `plan` is the field's assembly plan (built once per file, must outlive the reader);
  // `leaves` are the readers of the field's leaf columns in column order, made with the
  // plan's slot levels (see MakeLeafReaders); `rows_in_chunk` is the row group's row count.
  // `where` names the file and row group in messages.
  NestedColumnReader(const AssemblyPlan& plan, std::vector<std::unique_ptr<NestedLeafReader>> leaves,
                     int64_t rows_in_chunk, std::string where, MemoryPool* pool);

  // Decodes the next min(rows, rows_left()) rows (rows, not levels: a batch never splits a
  // row) into one array of the field's type; buffers come from the pool. Fewer rows (at least
  // one) when a string or binary leaf with 32-bit offsets would pass 2 GiB: the batch ends
  // before that row, and the next ones continue from it. Corrupt when the leaf columns
  // disagree on the number of rows or on the structure, naming them.
  Result<ArrayDataPtr> ReadBatch(int64_t rows);

  int64_t rows_left() const { return rows_in_chunk_ - rows_read_; }
  // Advances past the next min(rows, rows_left()) rows without returning them (a filter ruled
  // them out): decoded and dropped, a batch at a time.
  Status SkipRows(int64_t rows);
  // Scratch held across batches by the leaf readers.
  int64_t memory_size() const;

 private:
  const AssemblyPlan& plan_;
  std::vector<std::unique_ptr<NestedLeafReader>> leaves_;
  int64_t rows_in_chunk_;
  int64_t rows_read_ = 0;
  std::string where_;
  MemoryPool* pool_;
  std::vector<LeafLevels> levels_;  // reused per batch
  std::vector<bool> first_pass_;     // per leaf: may end a batch early, so reads first
};

}  // namespace strata::parquet
