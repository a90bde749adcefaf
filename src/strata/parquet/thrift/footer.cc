#include "strata/parquet/thrift/footer.h"

#include <algorithm>
#include <cstring>

#include "strata/parquet/thrift/compact_protocol.h"
#include "strata/parquet/thrift/heap_bytes.h"

namespace strata::parquet {

Status FooterReadOptions::Validate() const {
  if (speculative_tail_bytes < 8) {
    return Status::Invalid("speculative_tail_bytes must be at least 8 (got {})", speculative_tail_bytes);
  }
  if (max_footer_bytes <= 0) return Status::Invalid("max_footer_bytes must be positive (got {})", max_footer_bytes);
  return decode.Validate();
}

namespace {

uint32_t LoadLittleEndian32(const uint8_t* p) {
  return static_cast<uint32_t>(p[0]) | (static_cast<uint32_t>(p[1]) << 8) | (static_cast<uint32_t>(p[2]) << 16) |
         (static_cast<uint32_t>(p[3]) << 24);
}

// Magic bytes as text when printable, else hex: "PAR1", "0x00 0x12 0x34 0x56".
std::string DescribeMagic(const uint8_t* p) {
  bool printable = true;
  for (int i = 0; i < 4; ++i) printable = printable && p[i] >= 0x20 && p[i] < 0x7f;
  if (printable) return fmt::format("'{}'", std::string_view(reinterpret_cast<const char*>(p), 4));
  return fmt::format("0x{:02x} 0x{:02x} 0x{:02x} 0x{:02x}", p[0], p[1], p[2], p[3]);
}

bool IsMagic(const uint8_t* p, const char (&magic)[4]) { return std::memcmp(p, magic, 4) == 0; }

encryption::EncryptionParameters ParametersOf(const EncryptionAlgorithm& algorithm,
                                              const std::optional<std::string>& footer_key_metadata) {
  encryption::EncryptionParameters parameters;
  parameters.algorithm_name = std::string(EncryptionAlgorithmName(algorithm));
  parameters.ctr_pages = algorithm.kind == EncryptionAlgorithm::Kind::kAesGcmCtrV1;
  parameters.aad_prefix = algorithm.aad_prefix;
  parameters.aad_file_unique = algorithm.aad_file_unique;
  parameters.supply_aad_prefix = algorithm.supply_aad_prefix.value_or(false);
  parameters.footer_key_metadata = footer_key_metadata;
  return parameters;
}

Result<std::shared_ptr<const encryption::FileDecryptor>> MakeDecryptor(
    const std::string& name, const EncryptionAlgorithm& algorithm, const std::optional<std::string>& key_metadata,
    const FileDecryptionOptions& options) {
  if (algorithm.kind == EncryptionAlgorithm::Kind::kUnknown) {
    return Status::NotImplemented("file '{}' is encrypted with an unknown algorithm (union field {})", name,
                                  algorithm.unknown_field_id);
  }
  return encryption::FileDecryptor::Make(ParametersOf(algorithm, key_metadata), options, name);
}

// An encrypted footer (Encryption.md 5.4): FileCryptoMetaData in plaintext, then the
// FileMetaData as a GCM module under the footer key.
Status DecryptFooter(const std::string& name, const uint8_t* footer, int64_t length, int64_t offset,
                     const FooterReadOptions& options, MemoryPool* pool, FileFooter* out) {
  FileCryptoMetaData crypto;
  auto consumed = DeserializeFileCryptoMetaData(footer, static_cast<size_t>(length), &crypto, offset);
  if (!consumed.ok()) {
    return Status::Corrupt("file '{}' has an encrypted footer (PARE) whose FileCryptoMetaData at offset {} is "
                           "malformed: {}",
                           name, offset, consumed.status().message());
  }
  if (!options.decryption) {
    return Status::Invalid("file '{}' has an encrypted footer (PARE, {}{}): give the footer key (--footer-key)", name,
                           EncryptionAlgorithmName(crypto.encryption_algorithm),
                           crypto.key_metadata ? fmt::format(", key metadata of {} bytes", crypto.key_metadata->size())
                                               : "");
  }
  STRATA_ASSIGN_OR_RETURN(out->decryptor,
                          MakeDecryptor(name, crypto.encryption_algorithm, crypto.key_metadata, *options.decryption));
  STRATA_ASSIGN_OR_RETURN(const std::string key, out->decryptor->FooterKey());
  const auto header_bytes = static_cast<int64_t>(*consumed);
  const int64_t module_offset = offset + header_bytes;
  ResizableBuffer plaintext(pool);
  const std::span<const uint8_t> module(footer + header_bytes, static_cast<size_t>(length - header_bytes));
  auto decrypted = out->decryptor->Decrypt(encryption::ModuleType::kFooter, key, 0, 0, 0, module, module_offset,
                                           &plaintext);
  if (!decrypted.ok() && decrypted.status().IsCorrupt() && out->decryptor->may_lack_aad()) {
    // A file with no AAD of its own may come from DuckDB, which authenticates nothing beyond
    // the ciphertext; if its footer opens that way, every module of it does.
    auto without_aad = out->decryptor->WithoutAad();
    auto retried = without_aad->Decrypt(encryption::ModuleType::kFooter, key, 0, 0, 0, module, module_offset,
                                        &plaintext);
    if (retried.ok()) {
      out->decryptor = std::move(without_aad);
      decrypted = std::move(retried);
    }
  }
  STRATA_ASSIGN_OR_RETURN(const int64_t module_bytes, std::move(decrypted));
  if (module_bytes != length - header_bytes) {
    return Status::Corrupt("file '{}': the encrypted footer module at offset {} takes {} of the {} bytes left", name,
                           module_offset, module_bytes, length - header_bytes);
  }
  auto decoded = DeserializeFileMetaData(plaintext.data(), static_cast<size_t>(plaintext.size()), &out->metadata,
                                         options.decode, 0, &out->metadata_charge);
  if (!decoded.ok()) {
    return decoded.status().WithContext(
        fmt::format("file '{}': decrypted footer FileMetaData ({} bytes)", name, plaintext.size()));
  }
  out->metadata_bytes_decoded = static_cast<int64_t>(*decoded);
  out->encrypted_footer = true;
  return Status::OK();
}

// Column metadata stored as a module (Encryption.md 5.3: under a column key, or under the
// footer key in a plaintext footer) replaces the footer's copy (absent, or stripped of
// statistics) when that key is available.
Status DecryptColumnMetadata(const std::string& name, FileFooter* footer, MemoryPool* pool) {
  const auto& decryptor = *footer->decryptor;
  ResizableBuffer plaintext(pool);
  auto& row_groups = footer->metadata.row_groups;
  for (size_t r = 0; r < row_groups.size(); ++r) {
    const int64_t row_group_ordinal = row_groups[r].ordinal.value_or(static_cast<int16_t>(r));
    auto& chunks = row_groups[r].columns;
    for (size_t c = 0; c < chunks.size(); ++c) {
      ColumnChunk& chunk = chunks[c];
      if (!chunk.encrypted_column_metadata || !chunk.crypto_metadata ||
          chunk.crypto_metadata->kind == ColumnCryptoMetaData::Kind::kUnknown) {
        continue;
      }
      const bool with_footer_key = chunk.crypto_metadata->kind == ColumnCryptoMetaData::Kind::kFooterKey;
      const std::vector<std::string>* parts = &chunk.crypto_metadata->path_in_schema;
      if (with_footer_key) {
        if (!chunk.meta_data) continue;  // (an encrypted footer holds such columns' metadata itself)
        parts = &chunk.meta_data->path_in_schema;
      }
      std::string path;
      for (const std::string& part : *parts) path += (path.empty() ? "" : ".") + part;
      auto key = decryptor.ColumnKey(with_footer_key, chunk.crypto_metadata->key_metadata, path);
      if (!key.ok()) continue;  // not needed unless the column is read; reading it says so
      const int64_t column_ordinal =
          footer->metadata.selected_columns ? (*footer->metadata.selected_columns)[c] : static_cast<int64_t>(c);
      const std::string& module = *chunk.encrypted_column_metadata;
      auto decrypted = decryptor.Decrypt(encryption::ModuleType::kColumnMetaData, *key, row_group_ordinal,
                                         column_ordinal, 0,
                                         {reinterpret_cast<const uint8_t*>(module.data()), module.size()}, -1,
                                         &plaintext);
      if (!decrypted.ok()) return decrypted.status().WithContext(fmt::format("column '{}'", path));
      CompactReader reader(plaintext.data(), static_cast<size_t>(plaintext.size()),
                           {.charge = &footer->metadata_charge});
      ColumnMetaData decoded;
      Status st = Decode(reader, &decoded);
      if (!st.ok()) {
        return st.WithContext(fmt::format("file '{}': decrypted metadata of column '{}' (row group {})", name, path, r));
      }
      chunk.meta_data = std::move(decoded);
    }
  }
  return Status::OK();
}

}  // namespace

Result<FileFooter> ReadFooter(RandomAccessSource& source, MemoryPool* pool, const FooterReadOptions& options) {
  STRATA_RETURN_NOT_OK(options.Validate());
  const std::string& name = source.name();
  FileFooter footer;
  footer.metadata_charge = MemoryCharge(pool);
  STRATA_ASSIGN_OR_RETURN(footer.file_size, source.Size());
  const int64_t file_size = footer.file_size;
  if (file_size < kMinParquetFileSize) {
    return Status::Corrupt("file '{}' ({} bytes) is too small to be Parquet (at least {} bytes: magic, footer "
                           "length, magic)",
                           name, file_size, kMinParquetFileSize);
  }

  // One read of the tail; it is the whole file when the file is small.
  const int64_t tail_length = std::min(options.speculative_tail_bytes, file_size);
  const int64_t tail_offset = file_size - tail_length;
  STRATA_ASSIGN_OR_RETURN(auto tail, source.ReadBufferAt(tail_offset, tail_length, pool));
  footer.reads = 1;
  const uint8_t* tail_end = tail->data() + tail_length;

  const uint8_t* trailing_magic = tail_end - 4;
  const bool encrypted = IsMagic(trailing_magic, kParquetEncryptedMagic);
  if (!encrypted && !IsMagic(trailing_magic, kParquetMagic)) {
    return Status::Corrupt("file '{}' ({} bytes) does not end with the Parquet magic 'PAR1' (found {} at offset {})",
                           name, file_size, DescribeMagic(trailing_magic), file_size - 4);
  }
  const int64_t length_offset = file_size - 8;
  const int64_t metadata_length = LoadLittleEndian32(tail_end - 8);
  if (metadata_length > file_size - kMinParquetFileSize) {
    return Status::Corrupt("file '{}' ({} bytes): footer length {} at offset {} exceeds the file size (at most {} "
                           "bytes fit between the magics)",
                           name, file_size, metadata_length, length_offset, file_size - kMinParquetFileSize);
  }
  if (metadata_length == 0) {
    return Status::Corrupt("file '{}' ({} bytes): footer length at offset {} is 0", name, file_size, length_offset);
  }
  if (metadata_length > options.max_footer_bytes) {
    return Status::LimitExceeded("file '{}': footer of {} bytes is larger than max_footer_bytes ({})", name,
                                 metadata_length, options.max_footer_bytes);
  }
  footer.metadata_offset = length_offset - metadata_length;
  footer.metadata_length = metadata_length;

  // The leading magic: free to check when the tail covers it, one small read otherwise (opt-in).
  if (tail_offset == 0 || options.verify_leading_magic) {
    uint8_t head[4];
    if (tail_offset == 0) {
      std::memcpy(head, tail->data(), 4);
    } else {
      STRATA_RETURN_NOT_OK(source.ReadAt(0, 4, head));
      ++footer.reads;
    }
    const char(&expected)[4] = encrypted ? kParquetEncryptedMagic : kParquetMagic;
    if (!IsMagic(head, expected)) {
      return Status::Corrupt("file '{}' ({} bytes) does not start with the Parquet magic '{}' (found {})", name,
                             file_size, std::string_view(expected, 4), DescribeMagic(head));
    }
  }

  // The serialized footer: inside the tail, or the tail's part plus one read of the rest.
  const uint8_t* metadata = nullptr;
  std::shared_ptr<ResizableBuffer> whole;
  if (footer.metadata_offset >= tail_offset) {
    metadata = tail->data() + (footer.metadata_offset - tail_offset);
  } else {
    STRATA_ASSIGN_OR_RETURN(whole, AllocateBuffer(pool, metadata_length));
    const int64_t missing = tail_offset - footer.metadata_offset;
    STRATA_RETURN_NOT_OK(source.ReadAt(footer.metadata_offset, missing, whole->mutable_data()));
    ++footer.reads;
    std::memcpy(whole->mutable_data() + missing, tail->data(), static_cast<size_t>(metadata_length - missing));
    tail.reset();  // free before decoding: only the footer is needed now
    metadata = whole->data();
  }

  if (encrypted) {
    STRATA_RETURN_NOT_OK(DecryptFooter(name, metadata, metadata_length, footer.metadata_offset, options, pool, &footer));
  } else {
    auto decoded = DeserializeFileMetaData(metadata, static_cast<size_t>(metadata_length), &footer.metadata,
                                           options.decode, footer.metadata_offset, &footer.metadata_charge);
    if (!decoded.ok()) {
      return decoded.status().WithContext(fmt::format("file '{}': footer FileMetaData ({} bytes at offset {})", name,
                                                      metadata_length, footer.metadata_offset));
    }
    footer.metadata_bytes_decoded = static_cast<int64_t>(*decoded);
    // A signed plaintext footer (Encryption.md 5.5): verified when the footer key is known.
    if (footer.metadata.encryption_algorithm && options.decryption) {
      STRATA_ASSIGN_OR_RETURN(footer.decryptor,
                              MakeDecryptor(name, *footer.metadata.encryption_algorithm,
                                            footer.metadata.footer_signing_key_metadata, *options.decryption));
      if (options.decryption->verify_plaintext_footer && footer.decryptor->has_footer_key()) {
        const auto decoded_bytes = static_cast<size_t>(*decoded);
        STRATA_RETURN_NOT_OK(footer.decryptor->VerifyFooterSignature(
            {metadata, decoded_bytes},
            {metadata + decoded_bytes, static_cast<size_t>(metadata_length) - decoded_bytes}, footer.metadata_offset,
            pool));
      }
    }
  }
  if (footer.decryptor) STRATA_RETURN_NOT_OK(DecryptColumnMetadata(name, &footer, pool));
  // The decode charged estimates (a list's final count, a string's length); now the exact bytes.
  Status trued_up = footer.metadata_charge.Resize(HeapBytes(footer.metadata));
  if (!trued_up.ok()) return trued_up.WithContext(fmt::format("file '{}': footer metadata", name));
  return footer;

}

}  // namespace strata::parquet
