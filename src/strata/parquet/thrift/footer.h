// Reading a Parquet file's footer: the tail "<FileMetaData> <4-byte little-endian length> PAR1".
// First step of the read path (byte source -> footer -> row groups -> pages). One speculative read
// of the tail usually covers the whole footer; a second read fetches the rest only when it is
// larger than the guess.
#pragma once

#include <cstdint>
#include <memory>

#include "strata/io/random_access_source.h"
#include "strata/parquet/encryption/file_decryptor.h"
#include "strata/memory/memory_charge.h"
#include "strata/memory/memory_pool.h"
#include "strata/parquet/thrift/parquet_types.h"
#include "strata/util/result.h"

namespace strata::parquet {

// "PAR1": the magic at both ends of a file with a plaintext footer.
inline constexpr char kParquetMagic[4] = {'P', 'A', 'R', '1'};
// "PARE": the magic of a file whose footer is encrypted.
inline constexpr char kParquetEncryptedMagic[4] = {'P', 'A', 'R', 'E'};
// Leading magic + footer length + trailing magic.
inline constexpr int64_t kMinParquetFileSize = 12;

struct FooterReadOptions {
  // Bytes read from the end of the file in the first request. Footers smaller than this minus 8
  // need no second request. A larger guess costs bytes; a smaller one a round trip on remote
  // sources.
  int64_t speculative_tail_bytes = 64 * 1024;
  // A footer longer than this is refused with LimitExceeded before anything is allocated for it.
  int64_t max_footer_bytes = int64_t{1} << 30;
  // The leading "PAR1" is checked for free when the tail read covers it (small files). Set this
  // to also check it on larger files, at the cost of one more 4-byte read.
  bool verify_leading_magic = false;
  FileMetaDataDecodeOptions decode;
  // Keys for files written with modular encryption (an encrypted "PARE" footer, a signed
  // plaintext footer, encrypted columns). Unset: an encrypted footer is refused, saying a key
  // is needed; plaintext columns of a plaintext-footer file still read.
  std::shared_ptr<const FileDecryptionOptions> decryption;

  Status Validate() const;
};

struct FileFooter {
  FileMetaData metadata;
  // The heap bytes of `metadata` (HeapBytes, heap_bytes.h), charged to the pool ReadFooter was
  // given for as long as this footer lives; FileFooter is therefore move-only. Code that grows
  // `metadata` afterwards should Resize it.
  MemoryCharge metadata_charge;
  int64_t file_size = 0;
  // Where the serialized FileMetaData starts, and its length in bytes (the value stored just
  // before the trailing magic).
  int64_t metadata_offset = 0;
  int64_t metadata_length = 0;
  // Bytes of the FileMetaData the decoder consumed; less than metadata_length when a signature
  // follows it (encrypted files with a plaintext footer) or a writer padded it.
  int64_t metadata_bytes_decoded = 0;
  // Source reads this call made (1 when the speculative read covered the footer).
  int reads = 0;

  // Encrypted file with a plaintext footer: the footer is readable, the columns may not be.
  bool has_encryption_info() const { return metadata.encryption_algorithm.has_value(); }
  // The footer was encrypted ("PARE") and has been decrypted.
  bool encrypted_footer = false;
  // Set for encrypted files read with FooterReadOptions::decryption: page readers decrypt
  // their column's modules with it. Column metadata encrypted with a column key the options
  // give (or the retriever finds) is decrypted into ColumnChunk::meta_data; other encrypted
  // columns keep what the footer holds and fail when read, naming the key they need.
  std::shared_ptr<const encryption::FileDecryptor> decryptor;
};

// Reads and decodes the footer of `source`. Temporary buffers come from `pool` and are released
// before returning; the FileMetaData owns its strings, and its heap bytes stay charged to `pool`
// (metadata_charge): charged while decoding, before each list or string is allocated, so a
// pool limit refuses a footer too large for it with OutOfMemory naming the file. Errors name the source, the offsets and
// what was wrong: Corrupt for malformed files (and for modules or signatures that do not
// authenticate), Invalid for an encrypted footer without its key, IOError from the source,
// LimitExceeded past max_footer_bytes.
Result<FileFooter> ReadFooter(RandomAccessSource& source, MemoryPool* pool, const FooterReadOptions& options = {});

}  // namespace strata::parquet
