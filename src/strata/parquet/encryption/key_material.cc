#include "strata/parquet/encryption/key_material.h"

#include <filesystem>
#include <memory>

// nlohmann-json (Debian nlohmann-json3-dev): header-only, private to this file.
#include <nlohmann/json.hpp>

#include "strata/memory/buffer.h"
#include "strata/parquet/encryption/aes_cipher.h"
#include "strata/util/base64.h"

namespace strata::parquet::encryption {
namespace {

using Json = nlohmann::json;

Result<Json> ParseJson(std::string_view text, std::string_view what) {
  Json json = Json::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/false);
  if (json.is_discarded() || !json.is_object()) return Status::Invalid("{} is not a JSON object", what);
  return json;
}

Result<std::string> StringField(const Json& object, const char* field, std::string_view what) {
  auto it = object.find(field);
  if (it == object.end() || !it->is_string()) return Status::Invalid("{} has no string field '{}'", what, field);
  return it->get<std::string>();
}

// A key wrapped with AES-GCM under `wrapping_key`, with `aad`: base64 of nonce || ciphertext ||
// tag (no length field, unlike a file's modules).
Result<std::string> Unwrap(std::string_view base64, std::string_view wrapping_key, std::string_view aad,
                           std::string_view what, MemoryPool* pool) {
  STRATA_ASSIGN_OR_RETURN(const std::string wrapped, Base64Decode(base64));
  if (wrapped.size() < static_cast<size_t>(kNonceBytes + kTagBytes)) {
    return Status::Invalid("{}: {} bytes cannot hold a wrapped key", what, wrapped.size());
  }
  // As a module: the 4-byte length first, then the stored bytes.
  std::string module(4, '\0');
  const auto length = static_cast<uint32_t>(wrapped.size());
  for (int i = 0; i < 4; ++i) module[static_cast<size_t>(i)] = static_cast<char>(length >> (8 * i));
  module += wrapped;
  ResizableBuffer key(pool);
  auto unwrapped = DecryptModule(CipherMode::kGcm, wrapping_key, aad,
                                 {reinterpret_cast<const uint8_t*>(module.data()), module.size()}, &key);
  if (!unwrapped.ok()) return unwrapped.status().WithContext(fmt::format("unwrapping {}", what));
  return std::string(reinterpret_cast<const char*>(key.data()), static_cast<size_t>(key.size()));
}

}  // namespace

std::string KeyMaterialPathFor(const std::string& parquet_path) {
  const std::filesystem::path path(parquet_path);
  return (path.parent_path() / ("_KEY_MATERIAL_FOR_" + path.filename().string() + ".json")).string();
}

Result<std::string> UnwrapKeyMaterial(std::string_view material, const std::map<std::string, std::string>& master_keys,
                                      MemoryPool* pool) {
  STRATA_ASSIGN_OR_RETURN(const Json json, ParseJson(material, "key material"));
  STRATA_ASSIGN_OR_RETURN(const std::string type, StringField(json, "keyMaterialType", "key material"));
  if (type != "PKMT1") return Status::NotImplemented("key material of type '{}' (only PKMT1 is known)", type);
  STRATA_ASSIGN_OR_RETURN(const std::string master_id, StringField(json, "masterKeyID", "key material"));
  auto master = master_keys.find(master_id);
  if (master == master_keys.end()) {
    return Status::Invalid("key material wrapped by master key '{}': give that master key", master_id);
  }
  STRATA_RETURN_NOT_OK(CheckKey(master->second, fmt::format("master key '{}'", master_id)));
  STRATA_ASSIGN_OR_RETURN(const std::string wrapped_dek, StringField(json, "wrappedDEK", "key material"));
  auto double_wrapping = json.find("doubleWrapping");
  if (double_wrapping == json.end() || !double_wrapping->is_boolean() || !double_wrapping->get<bool>()) {
    return Unwrap(wrapped_dek, master->second, master_id, "the data key", pool);
  }
  // Twice: the master key wraps the key-encryption key, which wraps the data key; each AAD is
  // the wrapping key's id (the KEK's id is stored in base64).
  STRATA_ASSIGN_OR_RETURN(const std::string wrapped_kek, StringField(json, "wrappedKEK", "key material"));
  STRATA_ASSIGN_OR_RETURN(const std::string kek_id_text, StringField(json, "keyEncryptionKeyID", "key material"));
  STRATA_ASSIGN_OR_RETURN(const std::string kek_id, Base64Decode(kek_id_text));
  STRATA_ASSIGN_OR_RETURN(const std::string kek, Unwrap(wrapped_kek, master->second, master_id, "the key-encryption key", pool));
  return Unwrap(wrapped_dek, kek, kek_id, "the data key", pool);
}

Result<KeyRetriever> MakeKeyMaterialRetriever(std::map<std::string, std::string> master_keys,
                                              std::optional<std::string> external_material, MemoryPool* pool) {
  std::shared_ptr<const Json> external;
  if (external_material) {
    STRATA_ASSIGN_OR_RETURN(Json json, ParseJson(*external_material, "the key-material file"));
    external = std::make_shared<const Json>(std::move(json));
  }
  auto keys = std::make_shared<const std::map<std::string, std::string>>(std::move(master_keys));
  return KeyRetriever([keys, external, pool](std::string_view key_metadata) -> Result<std::string> {
    STRATA_ASSIGN_OR_RETURN(const Json json, ParseJson(key_metadata, "the key metadata"));
    auto internal = json.find("internalStorage");
    if (internal == json.end() || !internal->is_boolean()) {
      return Status::Invalid("the key metadata has no boolean 'internalStorage'");
    }
    if (internal->get<bool>()) return UnwrapKeyMaterial(key_metadata, *keys, pool);
    STRATA_ASSIGN_OR_RETURN(const std::string reference, StringField(json, "keyReference", "the key metadata"));
    if (external == nullptr) {
      return Status::Invalid(
          "the key material of '{}' is stored outside the file: give its key-material file (--key-material; "
          "parquet-mr writes it beside the file as _KEY_MATERIAL_FOR_<file name>.json)",
          reference);
    }
    auto material = external->find(reference);
    if (material == external->end() || !material->is_string()) {
      return Status::Invalid("the key-material file has no entry '{}'", reference);
    }
    return UnwrapKeyMaterial(material->get<std::string>(), *keys, pool);
  });
}

}  // namespace strata::parquet::encryption
