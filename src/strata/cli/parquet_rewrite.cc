#include "strata/cli/parquet_rewrite.h"

#include <fmt/format.h>

#include <algorithm>

namespace strata::cli {
namespace {

// Above this many leaf columns the batch path shrinks its pages and batches (the readers' 64
// MiB of windows and the writer's half row group shared by the columns).
constexpr int64_t kWideColumns = 64;
// What one column chunk may decode to, without a memory limit.
constexpr int64_t kMaxChunkBytes = 64 << 20;
// Rows a field hands the writer at a time.
constexpr int64_t kFieldBatchRows = 64 * 1024;

}  // namespace

std::string WhyNotByColumn(const parquet::FileReader& file, const parquet::WriterOptions& options,
                           int64_t memory_limit) {
  const int columns = file.descriptor().num_columns();
  if (columns <= kWideColumns) return fmt::format("{} columns: the batch path fits them", columns);
  const int64_t max_chunk = memory_limit > 0 ? memory_limit / 16 : kMaxChunkBytes;
  const parquet::FileMetaData& metadata = file.metadata();
  for (int r = 0; r < file.num_row_groups(); ++r) {
    const parquet::RowGroup& row_group = metadata.row_groups[static_cast<size_t>(r)];
    if (row_group.num_rows > options.file.max_row_group_rows) {
      return fmt::format("row group {} has {} rows, more than {}", r, row_group.num_rows,
                         options.file.max_row_group_rows);
    }
    for (int c = 0; c < columns; ++c) {
      const parquet::ColumnChunk* chunk = metadata.chunk(r, c);
      if (chunk == nullptr || !chunk->meta_data) return fmt::format("row group {} column {} has no metadata", r, c);
      if (chunk->meta_data->total_uncompressed_size > max_chunk) {
        return fmt::format("column '{}' of row group {} decodes to {} bytes, more than {}",
                           file.descriptor().column(c).dotted_path, r, chunk->meta_data->total_uncompressed_size,
                           max_chunk);
      }
    }
  }
  return "";
}

Status RewriteByColumn(parquet::FileReader& file, parquet::FileWriter& writer, const std::function<void()>& progress) {
  for (int r = 0; r < file.num_row_groups(); ++r) {
    const int64_t rows = file.metadata().row_groups[static_cast<size_t>(r)].num_rows;
    STRATA_RETURN_NOT_OK(writer.WriteRowGroupByColumn(
        rows, [&file, r](int field, const parquet::FileWriter::EmitColumn& emit) -> Status {
          // One field of one row group, on this thread: its chunk is read whole and its pages
          // decompressed whole (one column has the reader's every window).
          parquet::BatchReadOptions read;
          read.columns = {field};
          read.row_groups = {r};
          read.batch_rows = kFieldBatchRows;
          read.read_ahead_bytes = 0;
          STRATA_ASSIGN_OR_RETURN(auto batches, file.ReadBatches(read));
          while (true) {
            STRATA_ASSIGN_OR_RETURN(auto batch, batches->Next());
            if (batch == nullptr) return Status::OK();
            STRATA_RETURN_NOT_OK(emit(batch->column(0)));
          }
        }));
    progress();
  }
  return Status::OK();
}

}  // namespace strata::cli
