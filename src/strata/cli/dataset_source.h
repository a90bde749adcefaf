// A folder or a glob of Parquet files as one input (`strata scan DIR`, `strata cat
// 'data/*.parquet'`): dataset::Dataset underneath, hive partition folders as columns,
// --filter pruning whole files by their partition values and the rest of each file as usual.
#pragma once

#include <memory>
#include <string>

#include "strata/cli/input_source.h"

namespace strata::cli {

// True when `path` names a folder or holds a wildcard (* ? [).
bool IsDatasetInput(const std::string& path);

Result<std::unique_ptr<BatchSource>> OpenDatasetSource(const std::string& path, const SourceOptions& options,
                                                       MemoryPool* pool);

}  // namespace strata::cli
