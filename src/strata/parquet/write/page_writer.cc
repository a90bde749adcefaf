#include "strata/parquet/write/page_writer.h"

#include <limits>

#include "strata/codec/crc32.h"

namespace strata::parquet {

PageWriter::PageWriter(MemoryPool* pool, std::string column_path, bool checksums)
    : column_path_(std::move(column_path)),
      checksums_(checksums),
      pool_(pool),
      body_(pool),
      compressed_(pool),
      page_module_(pool),
      header_module_(pool) {}

Status PageWriter::Init(codec::CompressionCodec codec, int level) {
  if (codec == codec::CompressionCodec::kUncompressed) return Status::OK();
  STRATA_ASSIGN_OR_RETURN(codec_, codec::MakeCodec(codec, pool_, level));
  return Status::OK();
}

void PageWriter::StartChunk(int64_t row_group) {
  if (sealer_) sealer_->StartChunk(row_group);
}

void PageWriter::ReleaseScratch() {
  body_.Release();
  compressed_.Release();
  page_module_.Release();
}

int64_t PageWriter::memory_size() const {
  return body_.capacity() + compressed_.capacity() + page_module_.capacity() + header_module_.capacity() +
         (codec_ != nullptr ? codec_->memory_size() : 0);
}

Status PageWriter::StoreHeader(const PageHeader& header, PageSealer::PageKind kind) {
  header_bytes_.clear();
  SerializePageHeader(header, &header_bytes_);
  if (!sealer_) return Status::OK();
  return sealer_->SealHeader(kind, {reinterpret_cast<const uint8_t*>(header_bytes_.data()), header_bytes_.size()},
                             &header_module_);
}

std::span<const uint8_t> PageWriter::stored_header() const {
  if (sealer_) return header_module_.span();
  return {reinterpret_cast<const uint8_t*>(header_bytes_.data()), header_bytes_.size()};
}

Status PageWriter::CompleteHeader(PageHeader* header, int64_t uncompressed, std::span<const uint8_t> first,
                                  std::span<const uint8_t> second) const {
  const auto stored = static_cast<int64_t>(first.size() + second.size());
  constexpr int64_t kMaxPage = std::numeric_limits<int32_t>::max();
  if (stored > kMaxPage || uncompressed > kMaxPage) {
    return Status::LimitExceeded("column '{}': a page of {} bytes passes Parquet's 2 GiB page limit", column_path_,
                                 std::max(stored, uncompressed));
  }
  header->uncompressed_page_size = static_cast<int32_t>(uncompressed);
  header->compressed_page_size = static_cast<int32_t>(stored);
  // The checksum covers the bytes as stored (compressed), after the header.
  if (checksums_) header->crc = static_cast<int32_t>(codec::Crc32(second, codec::Crc32(first)));
  return Status::OK();
}

Result<int64_t> PageWriter::AppendDataPage(PageHeader header, std::span<const uint8_t> levels,
                                           std::span<const uint8_t> values, bool compress_levels, BlockBuffer* out) {
  std::span<const uint8_t> stored_levels = levels;
  std::span<const uint8_t> stored_values = values;
  const auto uncompressed = static_cast<int64_t>(levels.size() + values.size());
  if (codec_ != nullptr) {
    std::span<const uint8_t> input = values;
    if (compress_levels && !levels.empty()) {
      body_.Clear();
      STRATA_RETURN_NOT_OK(body_.Reserve(uncompressed));
      body_.UnsafeAppend(levels.data(), static_cast<int64_t>(levels.size()));
      body_.UnsafeAppend(values.data(), static_cast<int64_t>(values.size()));
      input = body_.span();
      stored_levels = {};
    }
    STRATA_RETURN_NOT_OK(codec_->Compress(input, &compressed_));
    stored_values = compressed_.span();
  }
  if (sealer_) {
    // One module of the page as it would be stored; the header's sizes and checksum are then
    // those of the module (as Arrow and parquet-mr write them).
    STRATA_RETURN_NOT_OK(sealer_->SealPage(PageSealer::PageKind::kData, stored_levels, stored_values, &page_module_));
    stored_levels = {};
    stored_values = page_module_.span();
  }
  STRATA_RETURN_NOT_OK(CompleteHeader(&header, uncompressed, stored_levels, stored_values));
  STRATA_RETURN_NOT_OK(StoreHeader(header, PageSealer::PageKind::kData));
  const std::span<const uint8_t> stored = stored_header();
  const auto header_size = static_cast<int64_t>(stored.size());
  STRATA_RETURN_NOT_OK(out->Append(stored.data(), header_size));
  STRATA_RETURN_NOT_OK(out->Append(stored_levels.data(), static_cast<int64_t>(stored_levels.size())));
  STRATA_RETURN_NOT_OK(out->Append(stored_values.data(), static_cast<int64_t>(stored_values.size())));
  return header_size + uncompressed;
}

Result<int64_t> PageWriter::MakeDictionaryPage(std::span<const uint8_t> plain, int64_t entries, std::string* header,
                                               std::span<const uint8_t>* body) {
  *body = plain;
  if (codec_ != nullptr) {
    STRATA_RETURN_NOT_OK(codec_->Compress(plain, &compressed_));
    *body = compressed_.span();
  }
  if (sealer_) {
    STRATA_RETURN_NOT_OK(sealer_->SealPage(PageSealer::PageKind::kDictionary, *body, {}, &page_module_));
    *body = page_module_.span();
  }
  PageHeader page;
  page.type = PageType::kDictionaryPage;
  STRATA_RETURN_NOT_OK(CompleteHeader(&page, static_cast<int64_t>(plain.size()), {}, *body));
  DictionaryPageHeader dictionary;
  dictionary.num_values = static_cast<int32_t>(entries);
  dictionary.encoding = Encoding::kPlain;
  page.dictionary_page_header = dictionary;
  STRATA_RETURN_NOT_OK(StoreHeader(page, PageSealer::PageKind::kDictionary));
  const std::span<const uint8_t> stored = stored_header();
  header->assign(reinterpret_cast<const char*>(stored.data()), stored.size());
  return static_cast<int64_t>(header->size() + plain.size());
}

}  // namespace strata::parquet
