// Fuzz target "encrypted_file_reader": the input as a Parquet file written with modular
// encryption, opened with the keys of parquet-testing's encrypted files (footer key, the
// double_field and float_field column keys), so altered inputs get past the keys and reach the
// decrypting code: footer and column metadata modules, page headers and pages (GCM and CTR),
// and every chunk's ColumnIndex, OffsetIndex and Bloom filter modules. Every column is read
// fully; every result is OK or an error with a message, and every byte goes back to the pool.
#include "strata/fuzz/fuzz_target.h"
#include "strata/io/random_access_source.h"
#include "strata/parquet/read/file_reader_fuzz.h"

namespace strata::parquet {
namespace {

std::shared_ptr<const FileDecryptionOptions> CorpusKeys() {
  auto keys = std::make_shared<FileDecryptionOptions>();
  keys->footer_key = "0123456789012345";
  keys->column_keys["double_field"] = "1234567890123450";
  keys->column_keys["float_field"] = "1234567890123451";
  return keys;
}

void ReadIndexesAndFilters(const FileReader& reader) {
  for (int r = 0; r < reader.num_row_groups(); ++r) {
    for (int c = 0; c < reader.descriptor().num_columns(); ++c) {
      auto column_index = reader.ReadColumnIndex(r, c);
      if (!column_index.ok()) fuzz::CheckError(column_index.status(), "FileReader::ReadColumnIndex");
      auto offset_index = reader.ReadOffsetIndex(r, c);
      if (!offset_index.ok()) {
        fuzz::CheckError(offset_index.status(), "FileReader::ReadOffsetIndex");
      } else if (*offset_index) {
        // The reader checked the pages lie in the file and start at increasing rows.
        const auto& pages = (*offset_index)->page_locations;
        for (size_t p = 1; p < pages.size(); ++p) STRATA_FUZZ_CHECK(pages[p].first_row_index > pages[p - 1].first_row_index);
      }
      auto filter = reader.ReadBloomFilter(r, c);
      if (!filter.ok()) {
        fuzz::CheckError(filter.status(), "FileReader::ReadBloomFilter");
      } else if (*filter) {
        STRATA_FUZZ_CHECK((*filter)->num_bytes() >= BloomFilter::kMinBytes && (*filter)->num_bytes() <= BloomFilter::kMaxBytes);
        (void)(*filter)->FindHash(BloomFilter::HashDouble(0.5));
      }
    }
  }
}

void FuzzEncryptedFile(const uint8_t* data, size_t size) {
  fuzz::FuzzPool pool;
  {
    auto source = MakeBufferSource(std::make_shared<Buffer>(data, static_cast<int64_t>(size)), "fuzz.parquet.encrypted");
    FileReaderOptions options;
    options.footer.speculative_tail_bytes = 256;
    options.footer.decryption = CorpusKeys();
    options.pages.whole_chunk_read_limit = (size & 1) ? 0 : (8 << 20);  // both page paths
    auto reader = FileReader::Open(source, pool.get(), options);
    if (!reader.ok()) {
      fuzz::CheckError(reader.status(), "FileReader::Open");
      return;
    }
    ReadIndexesAndFilters(**reader);
    fuzz_checks::ReadEveryBatch(**reader, size);
  }
}

}  // namespace
}  // namespace strata::parquet

STRATA_FUZZ_TARGET(encrypted_file_reader) {
  strata::parquet::FuzzEncryptedFile(data, size);
  return 0;
}
