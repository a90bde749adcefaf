// What a reader needs to open files written with Parquet modular encryption: the keys (given,
// or found from the key metadata the writer stored by a callback), and the AAD prefix when the
// writer did not store it.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "strata/util/result.h"

namespace strata::parquet {

struct FileDecryptionOptions {
  // Keys are raw bytes: 16, 24 or 32 of them (AES-128, -192, -256).
  // The footer key: decrypts an encrypted footer, verifies a plaintext footer's signature,
  // and decrypts the columns encrypted with the footer key.
  std::string footer_key;
  // Keys of columns encrypted with their own key, by dotted column path ("a.b.c").
  std::map<std::string, std::string> column_keys;
  // The AAD prefix, needed when the writer used one without storing it; when the file stores
  // one, a prefix given here must equal it (a check of the file's identity).
  std::optional<std::string> aad_prefix;
  // Asked for a key that is not given above, with the key metadata the writer stored for it
  // (a key id, a wrapped key...). Its errors are returned as they are.
  std::function<Result<std::string>(std::string_view key_metadata)> key_retriever;
  // Check a plaintext footer's signature when the footer key is known.
  bool verify_plaintext_footer = true;

  bool empty() const { return footer_key.empty() && column_keys.empty() && !aad_prefix && !key_retriever; }
  Status Validate() const;
};

}  // namespace strata::parquet
