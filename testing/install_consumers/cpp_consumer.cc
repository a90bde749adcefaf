// An installed strata used from C++20 (scripts/check-install): reads a Parquet file with
// parquet::FileReader and a CSV file with csv::CsvReader, batch by batch, and checks their row
// counts. Usage:
//   cpp_consumer FILE.parquet PARQUET_ROWS FILE.csv CSV_ROWS EXPECTED_VERSION
// Prints "cpp_consumer: strata VERSION, parquet N rows, csv M rows" and exits 0, else exits 1.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include <strata/csv/reader.h>
#include <strata/memory/memory_pool.h>
#include <strata/parquet/read/file_reader.h>
#include <strata/version.h>

namespace {

[[noreturn]] void Fail(const std::string& what) {
  std::fprintf(stderr, "cpp_consumer: %s\n", what.c_str());
  std::exit(1);
}

int64_t ParquetRows(const std::string& path) {
  auto reader = strata::parquet::FileReader::OpenFile(path, strata::SystemMemoryPool());
  if (!reader.ok()) Fail(reader.status().ToString());
  auto batches = (*reader)->ReadBatches();
  if (!batches.ok()) Fail(batches.status().ToString());
  int64_t rows = 0;
  for (;;) {
    auto batch = (*batches)->Next();
    if (!batch.ok()) Fail(batch.status().ToString());
    if (*batch == nullptr) break;
    rows += (*batch)->num_rows();
  }
  if (rows != (*reader)->num_rows()) Fail("parquet: batches and footer disagree on the rows");
  return rows;
}

int64_t CsvRows(const std::string& path) {
  strata::csv::CsvReadOptions options;
  auto reader = strata::csv::CsvReader::Open(path, options, strata::SystemMemoryPool());
  if (!reader.ok()) Fail(reader.status().ToString());
  int64_t rows = 0;
  for (;;) {
    auto batch = (*reader)->Next();
    if (!batch.ok()) Fail(batch.status().ToString());
    if (*batch == nullptr) break;
    rows += (*batch)->num_rows();
  }
  return rows;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 6) {
    std::fprintf(stderr, "usage: %s FILE.parquet PARQUET_ROWS FILE.csv CSV_ROWS EXPECTED_VERSION\n", argv[0]);
    return 2;
  }
  if (std::string(STRATA_VERSION_STRING) != argv[5]) {
    Fail(std::string("strata/version.h says ") + STRATA_VERSION_STRING + ", expected " + argv[5]);
  }
  const int64_t parquet_rows = ParquetRows(argv[1]);
  const int64_t csv_rows = CsvRows(argv[3]);
  if (parquet_rows != std::stoll(argv[2])) Fail("parquet: " + std::to_string(parquet_rows) + " rows, expected " + argv[2]);
  if (csv_rows != std::stoll(argv[4])) Fail("csv: " + std::to_string(csv_rows) + " rows, expected " + argv[4]);
  std::printf("cpp_consumer: strata %s, parquet %lld rows, csv %lld rows\n", STRATA_VERSION_STRING,
              static_cast<long long>(parquet_rows), static_cast<long long>(csv_rows));
  return 0;
}
