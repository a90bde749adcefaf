#include "strata/parquet/read/memory_limit_fit.h"

#include <algorithm>

#include "strata/parquet/schema.h"

namespace strata::parquet {
namespace {

// Bytes a value takes decoded (an Arrow slot), 8 for variable-length values.
int64_t DecodedWidth(const ColumnDescriptor& column) {
  switch (column.physical_type) {
    case PhysicalType::kBoolean: return 1;
    case PhysicalType::kInt32:
    case PhysicalType::kFloat: return 4;
    case PhysicalType::kInt96: return 12;
    case PhysicalType::kFixedLenByteArray: return std::max<int64_t>(column.type_length, 1);
    default: return 8;
  }
}

}  // namespace

void FitPageReadToColumns(int64_t limit, int64_t columns, PageReadOptions* options) {
  int64_t total = options->column_windows_total_bytes;
  if (limit > 0) {
    total = std::min(total, limit / 8);
    options->snappy_stream_windows = 1;  // memory before speed
  }
  if (columns <= 0 || columns * options->stream_window_bytes <= total) return;
  constexpr int64_t kSmallestWindow = 32 << 10;
  const int64_t share = std::max(kSmallestWindow, total / columns);
  options->stream_window_bytes = std::min(options->stream_window_bytes, share);
  options->whole_chunk_read_limit = std::min(options->whole_chunk_read_limit, share);
}

double EstimatedDecodedBytesPerRow(const SchemaDescriptor& descriptor, const FileMetaData& metadata, int row_group,
                                   const std::vector<int>& fields) {
  if (row_group < 0 || static_cast<size_t>(row_group) >= metadata.row_groups.size()) return 0;
  const int64_t rows = metadata.row_groups[static_cast<size_t>(row_group)].num_rows;
  if (rows <= 0) return 0;
  double bytes = 0;
  for (int f : fields) {
    const int first = descriptor.field_first_column(f);
    for (int c = first; c < first + descriptor.field_num_columns(f); ++c) {
      const ColumnChunk* chunk = metadata.chunk(row_group, c);
      if (chunk == nullptr || !chunk->meta_data) continue;
      const ColumnMetaData& meta = *chunk->meta_data;
      bytes += static_cast<double>(
          std::max(meta.total_uncompressed_size, meta.num_values * DecodedWidth(descriptor.column(c))));
    }
  }
  return bytes / static_cast<double>(rows);
}

void FitBatchRead(int64_t limit, const SchemaDescriptor& descriptor, const FileMetaData& metadata,
                  const std::vector<int>& selected_row_groups, const std::vector<int>& fields,
                  BatchReadOptions* options) {
  double batch_bytes = options->max_batch_bytes > 0 ? static_cast<double>(options->max_batch_bytes) : 0;
  if (limit > 0) {
    const double share = static_cast<double>(limit) / 8;
    batch_bytes = batch_bytes > 0 ? std::min(batch_bytes, share) : share;
  }
  if (batch_bytes <= 0) return;
  double widest = 0;
  for (int r : selected_row_groups) {
    widest = std::max(widest, EstimatedDecodedBytesPerRow(descriptor, metadata, r, fields));
  }
  if (widest > 0 && static_cast<double>(options->batch_rows) * widest > batch_bytes) {
    options->batch_rows = std::max<int64_t>(1, static_cast<int64_t>(batch_bytes / widest));
  }
  if (limit <= 0) return;
  options->read_ahead_bytes = std::min(options->read_ahead_bytes, limit / 16);
  options->row_groups_at_once_bytes = std::min(options->row_groups_at_once_bytes, limit / 8);
}

}  // namespace strata::parquet
