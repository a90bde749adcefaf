// Shared checks of the IPC fuzz targets (ipc_stream, ipc_file): what every record batch a
// reader hands out must satisfy, whatever the input held.
#pragma once

#include <cstdint>

#include "strata/array/record_batch.h"
#include "strata/array/validate.h"
#include "strata/fuzz/fuzz_target.h"
#include "strata/types/schema.h"

namespace strata::ipc::fuzz_util {

// Stop after this many rows: a batch may promise many rows of null type with no body at all.
inline constexpr int64_t kMaxRows = int64_t{1} << 22;
// And after this many batches (empty batches cost no input bytes beyond their metadata).
inline constexpr int kMaxBatches = 10000;

// The batch has the reader's schema, its columns have the batch's length, and every array is
// fully valid (the reader promises ValidateFull-clean arrays; UTF-8 is checked as the default
// read options ask).
inline void CheckBatch(const RecordBatch& batch, const Schema& schema) {
  STRATA_FUZZ_CHECK(batch.num_rows() >= 0);
  STRATA_FUZZ_CHECK(batch.num_columns() == schema.num_fields(), "batch and schema disagree on the column count");
  STRATA_FUZZ_CHECK(batch.schema() != nullptr && batch.schema()->Equals(schema), "batch schema differs");
  for (int c = 0; c < batch.num_columns(); ++c) {
    const Array& column = batch.column(c);
    STRATA_FUZZ_CHECK(column.data() != nullptr);
    STRATA_FUZZ_CHECK(column.length() == batch.num_rows(), "column length differs from the batch");
    STRATA_FUZZ_CHECK(column.type()->Equals(*schema.field(c)->type()), "column type differs from the schema");
    Status valid = ValidateFull(*column.data(), {.check_utf8 = true});
    STRATA_FUZZ_CHECK(valid.ok(), valid.ToString());
  }
  // Reading every value must be safe: compare the batch with itself and print a little.
  STRATA_FUZZ_CHECK(batch.Equals(batch), "a batch differs from itself");
  if (batch.num_rows() <= 64) (void)batch.ToString();
}

}  // namespace strata::ipc::fuzz_util
