// An InputStream over a RandomAccessSource (an S3 object or an http(s) URL): the CSV reader
// reads remote files front to back through it. It reads in large ranges, one ahead of the
// one being consumed (fetched on another thread), so a request's latency overlaps parsing;
// it holds two chunk buffers from the pool, reused to the end.
#pragma once

#include <cstdint>
#include <memory>

#include "strata/io/input_stream.h"
#include "strata/io/random_access_source.h"
#include "strata/memory/memory_pool.h"

namespace strata {

Result<std::unique_ptr<InputStream>> MakeSourceInputStream(std::shared_ptr<RandomAccessSource> source,
                                                           MemoryPool* pool, int64_t chunk_bytes = int64_t{8} << 20);

}  // namespace strata
