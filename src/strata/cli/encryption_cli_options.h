// The keys of Parquet modular encryption on the command line, shared by every command that
// reads Parquet: --footer-key KEY, --column-key COLUMN:KEY (repeatable), --aad-prefix TEXT.
// A key is its bytes as text ("0123456789012345") or hex ("hex:30313233...").
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "strata/parquet/encryption/decryption_options.h"
#include "strata/util/result.h"

namespace strata::cli {

struct EncryptionCliOptions {
  std::string footer_key;
  std::vector<std::string> column_keys;  // COLUMN:KEY
  std::optional<std::string> aad_prefix;
};

void AddEncryptionOptions(CLI::App* sub, EncryptionCliOptions* options);

// A key as given: text, or hex after "hex:". Invalid for bad hex (never echoing the key).
Result<std::string> ParseKey(const std::string& text, const std::string& what);

// The reader's decryption options; nullptr when no key and no prefix were given.
Result<std::shared_ptr<const parquet::FileDecryptionOptions>> MakeDecryptionOptions(const EncryptionCliOptions& options);

}  // namespace strata::cli
