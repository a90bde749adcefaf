// What the whole-file fuzz targets (file_reader, encrypted_file_reader) check of a file that
// opened: every batch of every row group has the schema's shape, valid arrays, and the row
// counts the footer promised (read out up to a bound).
#pragma once

#include <cstddef>

#include "strata/parquet/read/file_reader.h"

namespace strata::parquet::fuzz_checks {

void ReadEveryBatch(FileReader& reader, size_t input_size);

}  // namespace strata::parquet::fuzz_checks
