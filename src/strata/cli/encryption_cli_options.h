// The keys of Parquet modular encryption on the command line, shared by every command that
// reads Parquet: --footer-key KEY, --column-key COLUMN:KEY (repeatable), --aad-prefix TEXT,
// --master-key ID:KEY (repeatable) and --key-material FILE for keys wrapped by key tools.
// A key is its bytes as text ("0123456789012345") or hex ("hex:30313233..."). `convert` also
// writes with them: --plaintext-footer, --encryption-algorithm, --supply-aad-prefix,
// --write-plaintext.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "strata/parquet/encryption/decryption_options.h"
#include "strata/parquet/encryption/encryption_options.h"
#include "strata/util/result.h"

namespace strata::cli {

struct EncryptionCliOptions {
  std::string footer_key;
  std::vector<std::string> column_keys;  // COLUMN:KEY
  std::optional<std::string> aad_prefix;
  // Keys wrapped by parquet-mr's / Arrow's key tools: master keys by id, and the key-material
  // file of files that keep their key material outside.
  std::vector<std::string> master_keys;  // ID:KEY
  std::optional<std::string> key_material;
  // Writing (convert).
  bool plaintext_footer = false;
  std::string algorithm = "AES_GCM_V1";
  bool supply_aad_prefix = false;
  bool write_plaintext = false;
  std::vector<CLI::Option*> write_options;  // set only for writing commands
};

void AddEncryptionOptions(CLI::App* sub, EncryptionCliOptions* options);
// The writing options too (convert); their Option pointers go to options->write_options.
void AddEncryptionWriteOptions(CLI::App* sub, EncryptionCliOptions* options);

// A key as given: text, or hex after "hex:". Invalid for bad hex (never echoing the key).
Result<std::string> ParseKey(const std::string& text, const std::string& what);

// The reader's decryption options; nullptr when no key and no prefix were given.
Result<std::shared_ptr<const parquet::FileDecryptionOptions>> MakeDecryptionOptions(const EncryptionCliOptions& options);

// The writer's encryption options; nullopt when no key was given or with --write-plaintext.
// Writing options without a footer key are Invalid.
Result<std::optional<parquet::FileEncryptionOptions>> MakeEncryptionOptions(const EncryptionCliOptions& options);

}  // namespace strata::cli
