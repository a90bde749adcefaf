// How a batch reader fits a memory pool's limit: with a limit set on the pool, batches are
// sized from the footer so that one holds about an eighth of the limit, and the bytes read
// ahead and decoded at once shrink with it. The limit itself is the pool's: an allocation that
// still does not fit fails with OutOfMemory, naming the limit.
#pragma once

#include <cstdint>
#include <vector>

#include "strata/parquet/read/reader_options.h"
#include "strata/parquet/thrift/parquet_types.h"

namespace strata::parquet {

class SchemaDescriptor;

// Decoded bytes per row of `fields` (top-level field indices) in `row_group`, estimated from
// its chunks' metadata: the larger of the chunk's uncompressed size and its values at their
// decoded width (8 bytes for variable-length values: an offset and a few bytes), over its rows.
double EstimatedDecodedBytesPerRow(const SchemaDescriptor& descriptor, const RowGroup& row_group,
                                   const std::vector<int>& fields);

// Shrinks `options` to a pool limit of `limit` bytes (> 0): batch_rows so that a batch of the
// widest of `row_groups` holds at most limit / 8 (one row at least), read_ahead_bytes to
// limit / 16 and row_groups_at_once_bytes to limit / 8. Options already smaller stay.
void FitBatchReadToLimit(int64_t limit, const SchemaDescriptor& descriptor, const std::vector<RowGroup>& row_groups,
                         const std::vector<int>& selected_row_groups, const std::vector<int>& fields,
                         BatchReadOptions* options);

}  // namespace strata::parquet
