// Keys wrapped by the Parquet key management tools of parquet-mr and Arrow (key material type
// "PKMT1"): a file's key metadata is a small JSON document that holds the wrapped data key, or
// (external storage) names it in a key-material file beside the Parquet file. Here the master
// keys are given by id, as a KMS that is a table of keys (the in-memory test KMS of both
// libraries). A data key is wrapped once (by the master key) or twice (by a key-encryption key
// that the master key wraps); each wrap is AES-GCM, nonce || ciphertext || tag in base64, with
// the wrapping key's id as AAD.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "strata/memory/memory_pool.h"
#include "strata/util/result.h"

namespace strata::parquet::encryption {

using KeyRetriever = std::function<Result<std::string>(std::string_view key_metadata)>;

// The file holding external key material for `parquet_path`: `_KEY_MATERIAL_FOR_<name>.json` in
// the same directory (parquet-mr's convention).
std::string KeyMaterialPathFor(const std::string& parquet_path);

// A retriever for FileDecryptionOptions::key_retriever. `master_keys`: id -> key bytes.
// `external_material`: the key-material file's text (a JSON object: key reference -> key
// material), for files that store their material outside; nullopt when there is none. Errors
// name what is missing (a master key id, a key reference) and never print key bytes.
Result<KeyRetriever> MakeKeyMaterialRetriever(std::map<std::string, std::string> master_keys,
                                              std::optional<std::string> external_material, MemoryPool* pool);

// Unwraps one key-material document (the JSON text) with the master keys.
Result<std::string> UnwrapKeyMaterial(std::string_view material, const std::map<std::string, std::string>& master_keys,
                                      MemoryPool* pool);

}  // namespace strata::parquet::encryption
