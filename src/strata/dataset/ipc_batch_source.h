// The BatchSource of Arrow IPC input (batch_source.h): the file format (.arrow, .feather,
// .ipc: record batches by index through the footer, memory-mapped) or the stream format
// (.arrows, or a pipe), with the columns asked for as a projection of the batches as they come.
#pragma once

#include <memory>
#include <string>

#include "strata/dataset/batch_source.h"

namespace strata::dataset {

// `stream`: the stream format; otherwise the file format, unless the file lacks the file
// magic (then it is read as a stream, as pyarrow and Polars also accept).
Result<std::unique_ptr<BatchSource>> OpenIpcBatchSource(const std::string& path, bool stream,
                                                        const BatchSourceOptions& options, MemoryPool* pool);

}  // namespace strata::dataset
