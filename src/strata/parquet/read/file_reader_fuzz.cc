// Fuzz target "file_reader": the whole read path on the input as a Parquet file in memory:
// FileReader::Open, then every batch of every row group. Batches must have the schema's shape
// and the row counts the footer promised; every byte goes back to the pool.
#include "strata/fuzz/fuzz_target.h"
#include "strata/array/validate.h"
#include "strata/io/random_access_source.h"
#include "strata/parquet/read/file_reader_fuzz.h"

namespace strata::parquet {

namespace fuzz_checks {

// Stop after this many rows: a footer may promise 2^62 rows of a column whose every page
// is one RLE run, which is valid, cheap per byte of input and slow to read out.
constexpr int64_t kMaxRows = 1 << 20;

void ReadEveryBatch(FileReader& reader, size_t input_size) {
  BatchReadOptions read;
  read.batch_rows = 1 + static_cast<int64_t>(input_size % 1000);
  auto batches = reader.ReadBatches(read);
  if (!batches.ok()) {
    fuzz::CheckError(batches.status(), "ReadBatches");
    return;
  }
  const int num_fields = (*batches)->schema()->num_fields();
  int64_t rows = 0;
  while (rows < kMaxRows) {
    auto batch = (*batches)->Next();
    if (!batch.ok()) {
      fuzz::CheckError(batch.status(), "BatchReader::Next");
      return;
    }
    if (*batch == nullptr) {
      STRATA_FUZZ_CHECK(rows == reader.num_rows(), "batches hold fewer rows than the row groups");
      return;
    }
    STRATA_FUZZ_CHECK((*batch)->num_columns() == num_fields);
    STRATA_FUZZ_CHECK((*batch)->num_rows() >= 1 && (*batch)->num_rows() <= read.batch_rows);
    for (int c = 0; c < num_fields; ++c) {
      const Array& column = (*batch)->column(c);
      STRATA_FUZZ_CHECK(column.length() == (*batch)->num_rows(), "column length differs from the batch");
      // Offsets, validity and data sizes are consistent whatever the file held.
      Status valid = ValidateFull(*column.data());
      STRATA_FUZZ_CHECK(valid.ok(), valid.ToString());
    }
    rows += (*batch)->num_rows();
  }
}

}  // namespace fuzz_checks

namespace {

void FuzzFile(const uint8_t* data, size_t size) {
  fuzz::FuzzPool pool;
  {
    auto source = MakeBufferSource(std::make_shared<Buffer>(data, static_cast<int64_t>(size)), "fuzz.parquet");
    FileReaderOptions options;
    options.footer.speculative_tail_bytes = 256;
    options.pages.whole_chunk_read_limit = (size & 1) ? 0 : (8 << 20);  // both page paths
    auto reader = FileReader::Open(source, pool.get(), options);
    if (!reader.ok()) {
      fuzz::CheckError(reader.status(), "FileReader::Open");
      return;
    }
    fuzz_checks::ReadEveryBatch(**reader, size);
  }
}

}  // namespace
}  // namespace strata::parquet

STRATA_FUZZ_TARGET(file_reader) {
  strata::parquet::FuzzFile(data, size);
  return 0;
}
