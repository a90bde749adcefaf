// S3 output: an OutputSink that writes one S3 object. Output up to the part size goes up in
// one PUT at Close(); larger output becomes a multipart upload whose parts are sent while
// writing continues, at most max_parts_in_flight at once, from buffers that are reused (a
// writer holds at most (max_parts_in_flight + 1) x part_size of pool memory). The object
// appears only when Close() succeeds (S3 makes a PUT or a completed upload visible at
// once); a failed or abandoned write aborts the upload, so no partial object and no open
// upload is left behind, and an existing object is untouched.
#pragma once

#include <memory>
#include <string>

#include "strata/io/output_sink.h"
#include "strata/io/s3/s3_client.h"

namespace strata::s3 {

Result<std::unique_ptr<OutputSink>> OpenS3Sink(std::shared_ptr<S3Client> client, const std::string& url,
                                               MemoryPool* pool);

}  // namespace strata::s3
