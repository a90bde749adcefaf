// A folder or a glob of Parquet files as one BatchSource (batch_source.h; `strata scan DIR`,
// `strata cat 'data/*.parquet'`): Dataset underneath, hive partition folders as columns, the
// filter pruning whole files by their partition values and the rest of each file as usual.
#pragma once

#include <memory>
#include <string>

#include "strata/dataset/batch_source.h"

namespace strata::dataset {

// True when `path` names a folder or holds a wildcard (* ? [).
bool IsDatasetInput(const std::string& path);

Result<std::unique_ptr<BatchSource>> OpenDatasetSource(const std::string& path, const BatchSourceOptions& options,
                                                       MemoryPool* pool);

}  // namespace strata::dataset
