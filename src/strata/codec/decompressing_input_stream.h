// Decompressing input streams: wrap an InputStream of gzip or zstd bytes (a `.csv.gz`, a
// `.csv.zst`) and yield the decompressed bytes, in bounded memory: one input buffer of
// kDecompressionChunkBytes plus the library's window, all from the caller's pool. The CSV
// reader opens its files through OpenInputStream.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "strata/io/input_stream.h"
#include "strata/io/location.h"
#include "strata/memory/memory_pool.h"
#include "strata/util/result.h"

namespace strata::codec {

enum class StreamCompression { kNone, kGzip, kZstd };

// "none", "gzip", "zstd".
std::string_view StreamCompressionName(StreamCompression compression);

// Compressed bytes read from the wrapped stream at a time (one buffer, allocated once).
inline constexpr int64_t kDecompressionChunkBytes = 256 * 1024;

// Frames whose window is larger are refused with LimitExceeded (zstd's own default limit).
inline constexpr int kMaxZstdWindowLog = 27;  // 128 MiB

// Wraps `input` and returns a stream of its decompressed bytes; kNone returns `input` itself.
// `pool` must outlive the stream; it supplies the input buffer and the library's state.
//  - gzip: RFC 1952 members, or a zlib (RFC 1950) stream, detected per member. Concatenated
//    members (`cat a.gz b.gz`) are all read: the output is their concatenation. Memory: 256 KiB
//    plus about 40 KiB of inflate state and window.
//  - zstd: any number of concatenated frames; skippable frames are skipped. Memory: 256 KiB
//    plus the frame's window (at most 128 MiB; zstd -1 to -19 write 0.5-8 MiB) plus about
//    0.5 MiB of context and block buffers (1.2 MiB in all measured for a 512 KiB window).
// Strict about the input: bytes after a member or frame must start another one, and input that
// ends inside one (truncation) or is malformed fails Read() with Corrupt naming the stream and
// the compressed offset. An empty input (0 compressed bytes) is Corrupt too: it holds no member
// or frame, so it is a truncated file rather than an empty one (gzip(1) and zstd(1) refuse it
// as well); compressing nothing still gives a valid member or frame, which reads as empty.
// name() is the wrapped stream's; raw_bytes_read() and raw_size() count compressed bytes;
// memory_size() is the input buffer plus the library's allocations.
Result<std::unique_ptr<InputStream>> MakeDecompressingInputStream(std::unique_ptr<InputStream> input,
                                                                  StreamCompression compression,
                                                                  MemoryPool* pool);

// From the path's extension, case-insensitively: ".gz" -> kGzip, ".zst" or ".zstd" -> kZstd,
// anything else kNone.
StreamCompression CompressionFromPath(std::string_view path);

// Opens `path` with OpenFileInputStream ("-" is standard input) and decompresses it when its
// extension says so. When the extension says nothing, the first bytes are sniffed for the gzip
// (1f 8b) or zstd (28 b5 2f fd) magic, and such a file is decompressed too; the sniffed bytes
// are kept and read first, so pipes work as well as files.
// An http(s):// or s3:// path is read in large ranges, one fetched ahead (source_input_stream.h),
// with `storage`'s S3 settings.
Result<std::unique_ptr<InputStream>> OpenInputStream(const std::string& path, MemoryPool* pool,
                                                     const StorageOptions& storage = {});

}  // namespace strata::codec
