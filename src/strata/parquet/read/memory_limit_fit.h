// How a batch reader fits a byte bound on its batches and a memory pool's limit: batches are
// sized from the footer so that one holds about BatchReadOptions::max_batch_bytes, or an
// eighth of the pool's limit, and with a limit the bytes read ahead and decoded at once shrink. The limit itself is the pool's: an allocation that
// still does not fit fails with OutOfMemory, naming the limit.
#pragma once

#include <cstdint>
#include <vector>

#include "strata/parquet/read/reader_options.h"
#include "strata/parquet/thrift/parquet_types.h"

namespace strata::parquet {

class SchemaDescriptor;

// Shrinks each column's stream window and whole_chunk_read_limit so that `columns` read
// together hold at most column_windows_total_bytes (and, under a pool limit of `limit` bytes,
// limit / 8) in windows: 32 KiB a column at least. Under a limit, SNAPPY pages stream past one
// window.
void FitPageReadToColumns(int64_t limit, int64_t columns, PageReadOptions* options);

// Decoded bytes per row of `fields` (top-level field indices) in row group `row_group` of
// `metadata`, estimated from
// its chunks' metadata: the larger of the chunk's uncompressed size and its values at their
// decoded width (8 bytes for variable-length values: an offset and a few bytes), over its rows.
double EstimatedDecodedBytesPerRow(const SchemaDescriptor& descriptor, const FileMetaData& metadata, int row_group,
                                   const std::vector<int>& fields);

// Shrinks batch_rows so that a batch of the widest of `selected_row_groups` holds at most
// options->max_batch_bytes (when set) and, under a pool limit of `limit` bytes (> 0), limit / 8
// (one row at least); with a limit, read_ahead_bytes shrinks to limit / 16 and
// row_groups_at_once_bytes to limit / 8. Options already smaller stay.
void FitBatchRead(int64_t limit, const SchemaDescriptor& descriptor, const FileMetaData& metadata,
                  const std::vector<int>& selected_row_groups, const std::vector<int>& fields,
                  BatchReadOptions* options);

}  // namespace strata::parquet
