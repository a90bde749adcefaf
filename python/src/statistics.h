// A column chunk's footer statistics as the Python values of the column's type (see
// statistics.cc), for ParquetFile.metadata and the filters' row group pruning.
#pragma once

#include "strata/parquet/schema.h"
#include "strata/parquet/thrift/parquet_types.h"
#include "strata_py.h"

namespace strata::python {

// None when the chunk has no statistics; else {"null_count", "min", "max", "min_exact",
// "max_exact"} with min/max None where they are absent, not trustworthy or not decodable.
// `type` is the column's strata type as converted to pandas (time zones restored).
py::object StatisticsToPython(const parquet::ColumnMetaData& chunk, const parquet::ColumnDescriptor& column,
                              const TypePtr& type);

}  // namespace strata::python
