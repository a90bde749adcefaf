// What a writer needs to write a file with Parquet modular encryption (Encryption.md): the
// footer key, the columns' own keys, the footer mode, the algorithm and the AAD prefix.
#pragma once

#include <map>
#include <optional>
#include <string>

#include "strata/util/result.h"

namespace strata::parquet {

struct ColumnEncryptionKey {
  std::string key;  // 16, 24 or 32 raw bytes
  // Stored in the file for readers to find the key by (a key id, a wrapped key...).
  std::optional<std::string> key_metadata;
};

struct FileEncryptionOptions {
  // Encrypts the footer (or signs a plaintext one) and every column without a key of its own.
  std::string footer_key;
  std::optional<std::string> footer_key_metadata;
  // Columns with keys of their own, by dotted column path ("a.b.c") or a prefix of it at a
  // field boundary ("a" covers every leaf under a). With none, every column is encrypted with
  // the footer key ("uniform encryption"); with some, only the columns named are encrypted,
  // unless `encrypt_other_columns` (then with the footer key).
  std::map<std::string, ColumnEncryptionKey> column_keys;
  bool encrypt_other_columns = false;
  // A plaintext footer ("PAR1", readable without keys, signed with the footer key): readers
  // without the keys see the schema and the plaintext columns. Else the footer is encrypted
  // ("PARE").
  bool plaintext_footer = false;
  // AES_GCM_CTR_V1: pages in AES-CTR (faster, not authenticated), metadata in GCM. Else
  // AES_GCM_V1: every module in GCM.
  bool ctr_pages = false;
  // Bound into every module's AAD: a file renamed or swapped for another with the same keys
  // fails to authenticate. Stored in the file unless `store_aad_prefix` is false, in which
  // case readers must supply it.
  std::optional<std::string> aad_prefix;
  bool store_aad_prefix = true;

  Status Validate() const;
};

}  // namespace strata::parquet
