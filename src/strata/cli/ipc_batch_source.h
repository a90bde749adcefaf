// The BatchSource of Arrow IPC input (input_source.h): the file format (.arrow, .feather,
// .ipc: record batches by index through the footer, memory-mapped) or the stream format
// (.arrows, or a pipe), with --columns as a projection of the batches as they come.
#pragma once

#include <memory>
#include <string>

#include "strata/cli/input_source.h"

namespace strata::cli {

// `stream`: the stream format; otherwise the file format, unless the file lacks the file
// magic (then it is read as a stream, as pyarrow and Polars also accept).
Result<std::unique_ptr<BatchSource>> OpenIpcBatchSource(const std::string& path, bool stream,
                                                        const SourceOptions& options, MemoryPool* pool);

}  // namespace strata::cli
