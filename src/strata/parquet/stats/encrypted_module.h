// Reading one encrypted module that lies beyond a column chunk's pages (a ColumnIndex, an
// OffsetIndex, a Bloom filter's header or bitset): its length field is checked against the bytes
// the footer allows it and the file's size before anything is allocated, then it is read and
// decrypted with the column's key (GCM, Encryption.md 5.1). Used by page_index and bloom_filter.
#pragma once

#include <cstdint>

#include "strata/io/random_access_source.h"
#include "strata/memory/buffer.h"
#include "strata/parquet/encryption/column_decryption.h"
#include "strata/parquet/encryption/module_aad.h"
#include "strata/util/result.h"

namespace strata::parquet {

// Decrypts the module of `type` at `offset` of `source` into `plaintext` (resized to it).
// The module, length field included, must take at most `max_bytes` (exactly, with
// `fills_max_bytes`: a column_index_length counts the whole module), which the caller has
// checked to lie inside the file. Returns the module's bytes. Errors: Corrupt for a length
// field that does not fit or a module that does not authenticate (naming the source, the
// module, its offset, the row group and the column), or the source's IOError. The ciphertext
// is read into a scratch buffer from `pool`, released on return.
Result<int64_t> ReadEncryptedModule(RandomAccessSource& source, int64_t offset, int64_t max_bytes,
                                    bool fills_max_bytes, const ColumnDecryption& decryption,
                                    encryption::ModuleType type, MemoryPool* pool, ResizableBuffer* plaintext);

}  // namespace strata::parquet
