#include "strata/cli/encryption_cli_options.h"

namespace strata::cli {

void AddEncryptionOptions(CLI::App* sub, EncryptionCliOptions* options) {
  sub->add_option("--footer-key", options->footer_key,
                  "Parquet encryption: the footer key (text, or hex:...; 16, 24 or 32 bytes)")
      ->group("Encrypted Parquet");
  sub->add_option("--column-key", options->column_keys, "Parquet encryption: COLUMN:KEY for a column's own key (repeatable)")
      ->allow_extra_args(false)  // one value per --column-key: never the file after it
      ->group("Encrypted Parquet");
  sub->add_option("--aad-prefix", options->aad_prefix,
                  "Parquet encryption: the AAD prefix, when the writer did not store it")
      ->group("Encrypted Parquet");
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

Result<std::shared_ptr<const parquet::FileDecryptionOptions>> MakeDecryptionOptions(const EncryptionCliOptions& options) {
  if (options.footer_key.empty() && options.column_keys.empty() && !options.aad_prefix) {
    return std::shared_ptr<const parquet::FileDecryptionOptions>();
  }
  auto decryption = std::make_shared<parquet::FileDecryptionOptions>();
  if (!options.footer_key.empty()) {
    STRATA_ASSIGN_OR_RETURN(decryption->footer_key, ParseKey(options.footer_key, "--footer-key"));
  }
  for (const std::string& entry : options.column_keys) {
    const size_t colon = entry.find(':');
    if (colon == std::string::npos || colon == 0 || colon + 1 == entry.size()) {
      return Status::Invalid("--column-key takes COLUMN:KEY (a column path, a colon, its key)");
    }
    const std::string column = entry.substr(0, colon);
    STRATA_ASSIGN_OR_RETURN(std::string key, ParseKey(entry.substr(colon + 1), "--column-key " + column));
    if (!decryption->column_keys.emplace(column, std::move(key)).second) {
      return Status::Invalid("--column-key names column '{}' twice", column);
    }
  }
  decryption->aad_prefix = options.aad_prefix;
  STRATA_RETURN_NOT_OK(decryption->Validate());
  return std::shared_ptr<const parquet::FileDecryptionOptions>(std::move(decryption));
}

}  // namespace strata::cli
