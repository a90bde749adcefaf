// Export to the Arrow C Data Interface: strata types, schemas, arrays and record batches as
// ArrowSchema / ArrowArray structs for any Arrow consumer (pyarrow, DuckDB, Polars, ...).
// Arrays are zero-copy: the exported buffer pointers are strata's own buffers, kept alive by
// the struct's private data until the consumer calls release (exactly once, children and
// dictionary included). Offsets and lengths are exported as they are, so slices stay slices.
#pragma once

#include "strata/array/array.h"
#include "strata/array/record_batch.h"
#include "strata/arrow_c/abi.h"
#include "strata/types/schema.h"
#include "strata/util/status.h"

namespace strata::arrow_c {

// The format string of `type` ("i", "tsu:UTC", "+s", ...); a dictionary gives its index
// format (the values go in ArrowSchema::dictionary).
Result<std::string> FormatString(const DataType& type);

// A nameless, nullable field of `type`. On error nothing is left to release.
Status ExportType(const DataType& type, ArrowSchema* out);
// Name, type, nullability and metadata.
Status ExportField(const Field& field, ArrowSchema* out);
// A struct ("+s") whose children are the schema's fields; the schema's metadata on the root.
Status ExportSchema(const Schema& schema, ArrowSchema* out);

// The array (and its type in *out_schema when given). Computes an unknown null count once.
// On error nothing is left to release.
Status ExportArray(const Array& array, ArrowArray* out, ArrowSchema* out_schema = nullptr);
// The batch as a struct array without nulls (and its schema in *out_schema when given).
Status ExportRecordBatch(const RecordBatch& batch, ArrowArray* out, ArrowSchema* out_schema = nullptr);

}  // namespace strata::arrow_c
