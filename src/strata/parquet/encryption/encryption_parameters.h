// A file's EncryptionAlgorithm as stored (FileCryptoMetaData for an encrypted footer,
// FileMetaData for a plaintext one), with the footer key's metadata, in this layer's own terms:
// the Thrift layer converts it from and to its structs.
#pragma once

#include <optional>
#include <string>

namespace strata::parquet::encryption {

struct EncryptionParameters {
  std::string algorithm_name;  // "AES_GCM_V1", "AES_GCM_CTR_V1"
  bool ctr_pages = false;      // AES_GCM_CTR_V1
  std::optional<std::string> aad_prefix;
  std::optional<std::string> aad_file_unique;
  bool supply_aad_prefix = false;
  std::optional<std::string> footer_key_metadata;
};

}  // namespace strata::parquet::encryption
