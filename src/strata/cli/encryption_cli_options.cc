#include "strata/cli/encryption_cli_options.h"

#include <fstream>
#include <iterator>

#include "strata/parquet/encryption/key_material.h"

namespace strata::cli {

void AddEncryptionOptions(CLI::App* sub, EncryptionCliOptions* options) {
  sub->add_option("--footer-key", options->footer_key,
                  "Parquet encryption: the footer key (text, or hex:...; 16, 24 or 32 bytes)")
      ->group("Encrypted Parquet");
  sub->add_option("--column-key", options->column_keys, "Parquet encryption: COLUMN:KEY for a column's own key (repeatable)")
      ->allow_extra_args(false)  // one value per --column-key: never the file after it
      ->group("Encrypted Parquet");
  sub->add_option("--aad-prefix", options->aad_prefix,
                  "Parquet encryption: the AAD prefix, when the writer did not store it (convert: bound into the "
                  "output)")
      ->group("Encrypted Parquet");
  sub->add_option("--master-key", options->master_keys,
                  "Parquet encryption: ID:KEY, a master key of parquet-mr's or Arrow's key tools (repeatable)")
      ->allow_extra_args(false)
      ->group("Encrypted Parquet");
  sub->add_option("--key-material", options->key_material,
                  "Parquet encryption: the key-material file of a file that keeps it outside "
                  "(parquet-mr: _KEY_MATERIAL_FOR_<file name>.json)")
      ->group("Encrypted Parquet");
}

void AddEncryptionWriteOptions(CLI::App* sub, EncryptionCliOptions* options) {
  auto& added = options->write_options;
  added.push_back(sub->add_flag("--plaintext-footer", options->plaintext_footer,
                                "Encrypted output: keep the footer readable without keys (signed with the footer key)")
                      ->group("Encrypted Parquet"));
  added.push_back(sub->add_option("--encryption-algorithm", options->algorithm,
                                  "Encrypted output: AES_GCM_V1 (default) or AES_GCM_CTR_V1 (pages in AES-CTR)")
                      ->group("Encrypted Parquet"));
  added.push_back(sub->add_flag("--supply-aad-prefix", options->supply_aad_prefix,
                                "Encrypted output: do not store the --aad-prefix; readers must give it")
                      ->group("Encrypted Parquet"));
  added.push_back(sub->add_flag("--write-plaintext", options->write_plaintext,
                                "Write the output unencrypted: the keys only open the input")
                      ->group("Encrypted Parquet"));
}

namespace {

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

Result<std::string> ParseKey(const std::string& text, const std::string& what) {
  if (text.rfind("hex:", 0) != 0) return text;
  const std::string_view hex = std::string_view(text).substr(4);
  if (hex.size() % 2 != 0) return Status::Invalid("{}: hex key with an odd number of digits ({})", what, hex.size());
  std::string key;
  for (size_t i = 0; i < hex.size(); i += 2) {
    const int high = HexDigit(hex[i]);
    const int low = HexDigit(hex[i + 1]);
    if (high < 0 || low < 0) return Status::Invalid("{}: not a hex digit at position {}", what, i + (high < 0 ? 0 : 1));
    key.push_back(static_cast<char>(high * 16 + low));
  }
  return key;
}

namespace {

// NAME:KEY entries of a repeatable option, each name once.
Result<std::map<std::string, std::string>> ParseNamedKeys(const std::vector<std::string>& entries,
                                                          const std::string& option, const char* form) {
  std::map<std::string, std::string> keys;
  for (const std::string& entry : entries) {
    const size_t colon = entry.find(':');
    if (colon == std::string::npos || colon == 0 || colon + 1 == entry.size()) {
      return Status::Invalid("{} takes {}", option, form);
    }
    const std::string name = entry.substr(0, colon);
    STRATA_ASSIGN_OR_RETURN(std::string key, ParseKey(entry.substr(colon + 1), option + " " + name));
    if (!keys.emplace(name, std::move(key)).second) return Status::Invalid("{} names '{}' twice", option, name);
  }
  return keys;
}

}  // namespace

Result<std::shared_ptr<const parquet::FileDecryptionOptions>> MakeDecryptionOptions(const EncryptionCliOptions& options) {
  if (options.footer_key.empty() && options.column_keys.empty() && !options.aad_prefix && options.master_keys.empty()) {
    if (options.key_material) return Status::Invalid("--key-material needs the master keys that wrap it (--master-key)");
    return std::shared_ptr<const parquet::FileDecryptionOptions>();
  }
  auto decryption = std::make_shared<parquet::FileDecryptionOptions>();
  if (!options.footer_key.empty()) {
    STRATA_ASSIGN_OR_RETURN(decryption->footer_key, ParseKey(options.footer_key, "--footer-key"));
  }
  STRATA_ASSIGN_OR_RETURN(decryption->column_keys,
                          ParseNamedKeys(options.column_keys, "--column-key", "COLUMN:KEY (a column path, a colon, its key)"));
  decryption->aad_prefix = options.aad_prefix;
  if (!options.master_keys.empty()) {
    STRATA_ASSIGN_OR_RETURN(auto master_keys, ParseNamedKeys(options.master_keys, "--master-key",
                                                             "ID:KEY (a master key id, a colon, its key)"));
    std::optional<std::string> material;
    if (options.key_material) {
      std::ifstream in(*options.key_material, std::ios::binary);
      if (!in) return Status::IOError("cannot open the key-material file '{}'", *options.key_material);
      material = std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    }
    STRATA_ASSIGN_OR_RETURN(decryption->key_retriever,
                            parquet::encryption::MakeKeyMaterialRetriever(std::move(master_keys), std::move(material),
                                                                          SystemMemoryPool()));
  } else if (options.key_material) {
    return Status::Invalid("--key-material needs the master keys that wrap it (--master-key)");
  }
  STRATA_RETURN_NOT_OK(decryption->Validate());
  return std::shared_ptr<const parquet::FileDecryptionOptions>(std::move(decryption));
}

Result<std::optional<parquet::FileEncryptionOptions>> MakeEncryptionOptions(const EncryptionCliOptions& options) {
  const bool writing_option_given = options.plaintext_footer || options.supply_aad_prefix || options.algorithm != "AES_GCM_V1";
  if (options.write_plaintext) {
    if (writing_option_given) return Status::Invalid("--write-plaintext writes no encryption: drop the other encryption options");
    return std::optional<parquet::FileEncryptionOptions>();
  }
  if (options.footer_key.empty()) {
    if (!options.column_keys.empty() || writing_option_given) {
      return Status::Invalid("encrypting the output needs --footer-key (or --write-plaintext to write it unencrypted)");
    }
    return std::optional<parquet::FileEncryptionOptions>();
  }
  // The keys parse as for reading: one parser, one set of messages.
  STRATA_ASSIGN_OR_RETURN(auto keys, MakeDecryptionOptions(options));
  parquet::FileEncryptionOptions encryption;
  encryption.footer_key = keys->footer_key;
  for (const auto& [path, key] : keys->column_keys) encryption.column_keys.emplace(path, parquet::ColumnEncryptionKey{key, {}});
  encryption.plaintext_footer = options.plaintext_footer;
  if (options.algorithm == "AES_GCM_CTR_V1") {
    encryption.ctr_pages = true;
  } else if (options.algorithm != "AES_GCM_V1") {
    return Status::Invalid("--encryption-algorithm takes AES_GCM_V1 or AES_GCM_CTR_V1, not '{}'", options.algorithm);
  }
  encryption.aad_prefix = options.aad_prefix;
  if (options.supply_aad_prefix) {
    if (!options.aad_prefix) return Status::Invalid("--supply-aad-prefix needs --aad-prefix");
    encryption.store_aad_prefix = false;
  }
  STRATA_RETURN_NOT_OK(encryption.Validate());
  return std::optional<parquet::FileEncryptionOptions>(std::move(encryption));
}

}  // namespace strata::cli
