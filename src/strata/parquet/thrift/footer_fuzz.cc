// Fuzz target "footer": the FileMetaData decoder on raw bytes, the footer reader on the input as
// a whole file, and the schema built from whatever decodes. A decoded footer must re-encode to
// bytes that decode to the same encoding (nothing is invented or lost between the two).
#include <string>

#include "strata/fuzz/fuzz_target.h"
#include "strata/io/random_access_source.h"
#include "strata/parquet/schema.h"
#include "strata/parquet/thrift/footer.h"
#include "strata/parquet/thrift/parquet_types.h"

namespace strata::parquet {
namespace {

void CheckReencodes(const FileMetaData& metadata) {
  std::string first;
  SerializeFileMetaData(metadata, &first);
  FileMetaData again;
  auto consumed = DeserializeFileMetaData(reinterpret_cast<const uint8_t*>(first.data()), first.size(), &again);
  STRATA_FUZZ_CHECK(consumed.ok(), consumed.status().ToString());
  STRATA_FUZZ_CHECK(*consumed == first.size());
  std::string second;
  SerializeFileMetaData(again, &second);
  STRATA_FUZZ_CHECK(first == second, "re-encoded footer differs");
}

void FuzzMetadataBytes(const uint8_t* data, size_t size) {
  FileMetaData metadata;
  auto consumed = DeserializeFileMetaData(data, size, &metadata);
  if (!consumed.ok()) {
    fuzz::CheckError(consumed.status(), "DeserializeFileMetaData");
    return;
  }
  STRATA_FUZZ_CHECK(*consumed <= size);
  CheckReencodes(metadata);
  auto schema = SchemaDescriptor::Make(metadata.schema);
  if (!schema.ok()) fuzz::CheckError(schema.status(), "SchemaDescriptor::Make");

  // A selective decode of the first leaf keeps one chunk per row group, or fails cleanly.
  FileMetaDataDecodeOptions options;
  options.column_indices = std::vector<int>{0};
  FileMetaData selected;
  auto selective = DeserializeFileMetaData(data, size, &selected, options);
  if (!selective.ok()) {
    fuzz::CheckError(selective.status(), "selective DeserializeFileMetaData");
    return;
  }
  STRATA_FUZZ_CHECK(selected.row_groups.size() == metadata.row_groups.size());
  // A row group without chunks (a file without columns) stays empty; any other holds the one.
  for (size_t r = 0; r < selected.row_groups.size(); ++r) {
    const size_t expected = metadata.row_groups[r].columns.empty() ? 0 : 1;
    STRATA_FUZZ_CHECK(selected.row_groups[r].columns.size() == expected, "selective decode kept the wrong chunks");
  }
}

void FuzzWholeFile(const uint8_t* data, size_t size) {
  fuzz::FuzzPool pool;
  auto source = MakeBufferSource(std::make_shared<Buffer>(data, static_cast<int64_t>(size)), "fuzz.parquet");
  FooterReadOptions options;
  options.speculative_tail_bytes = 64;  // small: the second read is exercised too
  auto footer = ReadFooter(*source, pool.get(), options);
  if (!footer.ok()) {
    fuzz::CheckError(footer.status(), "ReadFooter");
    return;
  }
  STRATA_FUZZ_CHECK(footer->metadata_offset >= 4 || size < 12);
  STRATA_FUZZ_CHECK(footer->metadata_offset + footer->metadata_length + 8 == static_cast<int64_t>(size));
  STRATA_FUZZ_CHECK(footer->metadata_bytes_decoded <= footer->metadata_length);
}

}  // namespace
}  // namespace strata::parquet

STRATA_FUZZ_TARGET(footer) {
  strata::parquet::FuzzWholeFile(data, size);
  // The file's footer bytes when the input looks like a file, else the input itself.
  if (size >= 12 && std::memcmp(data + size - 4, "PAR1", 4) == 0) {
    uint32_t length;
    std::memcpy(&length, data + size - 8, 4);
    if (length <= size - 8) strata::parquet::FuzzMetadataBytes(data + size - 8 - length, length);
  }
  strata::parquet::FuzzMetadataBytes(data, size);
  return 0;
}
