// A Parquet file's batches as an Arrow C stream (arrow_c/stream.h), for any Arrow consumer.
#pragma once

#include <memory>

#include "strata/arrow_c/stream.h"
#include "strata/parquet/file_reader.h"

namespace strata::parquet {

// The batches of file->ReadBatches(options) as a RecordBatchStream; it owns the file reader.
// The file's pool must outlive the stream and every batch taken from it.
Result<std::unique_ptr<arrow_c::RecordBatchStream>> MakeArrowStream(std::unique_ptr<FileReader> file,
                                                                     const BatchReadOptions& options = {});

// The same, exported into *out (released by the consumer).
Status ExportArrowStream(std::unique_ptr<FileReader> file, const BatchReadOptions& options, ArrowArrayStream* out);

}  // namespace strata::parquet
