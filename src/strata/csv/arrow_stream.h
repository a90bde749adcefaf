// A CSV reader's batches as an Arrow C stream (arrow_c/stream.h), for any Arrow consumer.
#pragma once

#include <memory>

#include "strata/arrow_c/stream.h"
#include "strata/csv/reader.h"

namespace strata::csv {

// The reader's remaining batches as a RecordBatchStream that owns the reader. The reader's
// pool must outlive the stream and every batch taken from it.
std::unique_ptr<arrow_c::RecordBatchStream> MakeArrowStream(std::unique_ptr<CsvReader> reader);

// The same, exported into *out (released by the consumer).
Status ExportArrowStream(std::unique_ptr<CsvReader> reader, ArrowArrayStream* out);

}  // namespace strata::csv
