// The Arrow C Stream Interface: a sequence of record batches of one schema, pulled by the
// consumer. RecordBatchStream is the small C++ side; readers of higher layers (Parquet,
// CSV) adapt to it in their own layers (parquet/arrow_stream.h, csv/arrow_stream.h).
#pragma once

#include <memory>

#include "strata/array/record_batch.h"
#include "strata/arrow_c/abi.h"
#include "strata/types/schema.h"
#include "strata/util/result.h"

namespace strata::arrow_c {

class RecordBatchStream {
 public:
  virtual ~RecordBatchStream() = default;
  virtual SchemaPtr schema() const = 0;
  // The next batch, or nullptr after the last.
  virtual Result<std::shared_ptr<RecordBatch>> Next() = 0;
};

// The errno-style code the C interface reports for a status: ENOMEM for OutOfMemory, EIO for
// I/O and checksum errors, ENOSYS for NotImplemented, EINVAL for the rest; 0 when OK.
int ErrnoFromStatus(const Status& status);

// Fills *out with a stream over `stream`'s batches. get_next keeps returning released arrays
// after the end; after an error get_last_error gives the message (valid until the next call).
// The callbacks never throw.
Status ExportBatchStream(std::shared_ptr<RecordBatchStream> stream, ArrowArrayStream* out);

// Takes over *stream (marked released); the schema is read at once. Errors from the producer
// become IOError (EIO), OutOfMemory (ENOMEM) or Invalid, with get_last_error's message.
Result<std::unique_ptr<RecordBatchStream>> ImportBatchStream(ArrowArrayStream* stream);

}  // namespace strata::arrow_c
