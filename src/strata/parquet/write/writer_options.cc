#include "strata/parquet/write/writer_options.h"

#include <fmt/format.h>

#ifndef STRATA_VERSION
#define STRATA_VERSION "0.0.0"
#endif

namespace strata::parquet {

Status ContentDefinedChunking::Validate() const {
  if (min_chunk_bytes <= 0 || max_chunk_bytes <= min_chunk_bytes || max_chunk_bytes > (int64_t{1} << 30)) {
    return Status::Invalid("content-defined chunking needs 0 < min chunk size < max chunk size <= 1 GiB, got {} and {}",
                           min_chunk_bytes, max_chunk_bytes);
  }
  if (norm_level < -8 || norm_level > 8) {
    return Status::Invalid("content-defined chunking's normalisation level must be in [-8, 8], got {}", norm_level);
  }
  return Status::OK();
}

Status ColumnWriteOptions::Validate() const {
  STRATA_RETURN_NOT_OK(content_defined_chunking.Validate());
  if (!(dictionary_min_saving >= 0 && dictionary_min_saving < 1)) {
    return Status::Invalid("dictionary_min_saving must be in [0, 1), got {}", dictionary_min_saving);
  }
  if (dictionary_page_bytes <= 0 || dictionary_page_bytes > (int64_t{1} << 30)) {
    return Status::Invalid("dictionary_page_bytes must be in (0, 1 GiB], got {}", dictionary_page_bytes);
  }
  if (max_statistics_bytes < 0) {
    return Status::Invalid("max_statistics_bytes must be >= 0, got {}", max_statistics_bytes);
  }
  if (!(bloom_filter_fpp > 0.0 && bloom_filter_fpp < 1.0)) {
    return Status::Invalid("bloom_filter_fpp must be in (0, 1), got {}", bloom_filter_fpp);
  }
  if (bloom_filter_ndv < 0) return Status::Invalid("bloom_filter_ndv must be >= 0, got {}", bloom_filter_ndv);
  if (bloom_filter_max_bytes < 32 || bloom_filter_max_bytes > (int64_t{128} << 20)) {
    return Status::Invalid("bloom_filter_max_bytes must be in [32, 128 MiB], got {}", bloom_filter_max_bytes);
  }
  switch (encoding) {
    case Encoding::kPlain:
    case Encoding::kRle:
    case Encoding::kRleDictionary:
    case Encoding::kDeltaBinaryPacked:
    case Encoding::kDeltaLengthByteArray:
    case Encoding::kDeltaByteArray:
    case Encoding::kByteStreamSplit:
    case Encoding::kAlp:
      break;
    default:
      return Status::Invalid("{} is not a value encoding a writer can choose", EncodingName(encoding));
  }
  // Levels are checked by MakeCodec when the writer opens; check them here for a clear error.
  if (codec != codec::CompressionCodec::kUncompressed) {
    auto made = codec::MakeCodec(codec, SystemMemoryPool(), compression_level);
    if (!made.ok()) return made.status();
  }
  return Status::OK();
}

Status ColumnWriteOptions::Validate(PhysicalType type, const std::string& path) const {
  STRATA_RETURN_NOT_OK(Validate());
  if (!EncodingAppliesTo(encoding, type)) {
    return Status::Invalid("column '{}': {} encoding does not apply to {}", path, EncodingName(encoding),
                           PhysicalTypeName(type));
  }
  return Status::OK();
}

Status FileWriteOptions::Validate() const {
  if (max_row_group_rows <= 0) return Status::Invalid("max_row_group_rows must be > 0, got {}", max_row_group_rows);
  if (max_row_group_bytes < 4096) {
    return Status::Invalid("max_row_group_bytes must be at least 4096, got {}", max_row_group_bytes);
  }
  if (data_page_bytes < 64 || data_page_bytes > (int64_t{1} << 30)) {
    return Status::Invalid("data_page_bytes must be in [64, 1 GiB], got {}", data_page_bytes);
  }
  if (data_page_rows <= 0) return Status::Invalid("data_page_rows must be > 0, got {}", data_page_rows);
  if (page_version != DataPageVersion::kV1 && page_version != DataPageVersion::kV2) {
    return Status::Invalid("page_version must be 1 or 2");
  }
  if (encryption) STRATA_RETURN_NOT_OK(encryption->Validate());
  return sink.Validate();
}

Status WriterOptions::Validate() const {
  STRATA_RETURN_NOT_OK(file.Validate());
  STRATA_RETURN_NOT_OK(columns.Validate());
  for (const auto& [path, options] : column_overrides) {
    if (path.empty()) return Status::Invalid("a column override needs a column path");
    Status status = options.Validate();
    if (!status.ok()) return Status::Invalid("column '{}': {}", path, status.message());
  }
  return Status::OK();
}

const ColumnWriteOptions& WriterOptions::ForColumn(const std::string& dotted_path) const {
  const ColumnWriteOptions* best = &columns;
  size_t best_length = 0;
  for (const auto& [path, options] : column_overrides) {
    if (PathCovers(path, dotted_path) && path.size() >= best_length) {
      best = &options;
      best_length = path.size();
    }
  }
  return *best;
}

bool PathCovers(const std::string& prefix, const std::string& dotted_path) {
  return dotted_path == prefix || (dotted_path.size() > prefix.size() &&
                                   dotted_path.compare(0, prefix.size(), prefix) == 0 && dotted_path[prefix.size()] == '.');
}

std::string DefaultCreatedBy() { return fmt::format("strata version {}", STRATA_VERSION); }

}  // namespace strata::parquet
