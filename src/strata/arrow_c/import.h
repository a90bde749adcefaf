// Import from the Arrow C Data Interface. Every function consumes its input: the struct's
// release is called exactly once (now for schemas, when the last imported buffer goes for
// arrays), success or failure, and the caller's struct is left marked released.
//
// The producer is not trusted: formats, buffer and child counts, required buffers, sizes
// derived from offsets, alignment and (through ValidateFull, UTF-8 included) the values are
// checked before the array is handed out; a bad input is Status::Invalid naming the place.
// Arrays are zero-copy: their buffers are views of the producer's memory.
#pragma once

#include <memory>

#include "strata/array/array.h"
#include "strata/array/record_batch.h"
#include "strata/arrow_c/abi.h"
#include "strata/types/schema.h"
#include "strata/util/result.h"

namespace strata::arrow_c {

// The type alone (name, nullability and metadata of the root are dropped).
Result<TypePtr> ImportType(ArrowSchema* schema);
Result<FieldPtr> ImportField(ArrowSchema* schema);
// The root must be a struct ("+s"); its children become the fields, its metadata the
// schema's.
Result<SchemaPtr> ImportSchema(ArrowSchema* schema);

Result<Array> ImportArray(ArrowArray* array, const TypePtr& type);
// Consumes both structs.
Result<Array> ImportArray(ArrowArray* array, ArrowSchema* schema);

// A struct array without nulls at the top level.
Result<std::shared_ptr<RecordBatch>> ImportRecordBatch(ArrowArray* array, const SchemaPtr& schema);
Result<std::shared_ptr<RecordBatch>> ImportRecordBatch(ArrowArray* array, ArrowSchema* schema);

}  // namespace strata::arrow_c
