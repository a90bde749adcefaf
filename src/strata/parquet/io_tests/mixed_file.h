// A synthetic "mixed" Parquet file for the reader's I/O tests and benchmarks (pre-buffering,
// HTTP): numeric and string columns in several encodings and codecs, the values a pure
// function of (row group, row), so a reader's output can be checked against regenerated
// values without keeping the file's contents in memory. Header-only test support.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "strata/parquet/testing/file_builder.h"

namespace strata::parquet::testing {

// The columns, in file order:
//   id       INT64  required  PLAIN            uncompressed   row group * 2^32 + row
//   amount   DOUBLE optional  PLAIN            SNAPPY         1 null in 16
//   quantity INT32  optional  RLE_DICTIONARY   uncompressed   0..999, 1 null in 32
//   comment  STRING optional  PLAIN            ZSTD           8..71 letters of a 16-letter alphabet
//   tag      STRING required  RLE_DICTIONARY   LZ4_RAW        50 distinct values
inline std::vector<ColumnOptions> MixedColumns() {
  using codec::CompressionCodec;
  std::vector<ColumnOptions> columns(5);
  columns[0] = {.name = "id", .physical_type = PhysicalType::kInt64, .optional = false};
  columns[1] = {.name = "amount", .physical_type = PhysicalType::kDouble, .codec = CompressionCodec::kSnappy};
  columns[2] = {.name = "quantity", .physical_type = PhysicalType::kInt32, .encoding = Encoding::kRleDictionary};
  columns[3] = {.name = "comment",
                .physical_type = PhysicalType::kByteArray,
                .logical_type = StringLogicalType(),
                .codec = CompressionCodec::kZstd,
                .compression_level = 1};
  columns[4] = {.name = "tag",
                .physical_type = PhysicalType::kByteArray,
                .logical_type = StringLogicalType(),
                .optional = false,
                .encoding = Encoding::kRleDictionary,
                .codec = CompressionCodec::kLz4Raw};
  return columns;
}

// splitmix64: a well-mixed 64-bit hash of (row group, row).
inline uint64_t MixedRowHash(int group, int64_t row) {
  uint64_t h = (static_cast<uint64_t>(group) << 40) + static_cast<uint64_t>(row) + 0x9E3779B97F4A7C15ULL;
  h = (h ^ (h >> 30)) * 0xBF58476D1CE4E5B9ULL;
  h = (h ^ (h >> 27)) * 0x94D049BB133111EBULL;
  return h ^ (h >> 31);
}

// Rows [0, rows) of row group `group`, one ColumnValues per column of MixedColumns().
inline std::vector<ColumnValues> MixedRowGroupValues(int group, int64_t rows) {
  std::vector<ColumnValues> values;
  values.emplace_back(PhysicalType::kInt64);
  values.emplace_back(PhysicalType::kDouble);
  values.emplace_back(PhysicalType::kInt32);
  values.emplace_back(PhysicalType::kByteArray);
  values.emplace_back(PhysicalType::kByteArray);
  values[0].Reserve(rows);
  values[1].Reserve(rows);
  values[2].Reserve(rows);
  values[3].Reserve(rows, rows * 40);
  values[4].Reserve(rows, rows * 8);
  std::string comment;
  for (int64_t row = 0; row < rows; ++row) {
    const uint64_t h = MixedRowHash(group, row);
    values[0].Append<int64_t>((static_cast<int64_t>(group) << 32) + row);
    if (h % 16 == 0) {
      values[1].AppendNull();
    } else {
      values[1].Append<double>(static_cast<double>(h >> 20) / 1024.0);
    }
    if ((h >> 8) % 32 == 0) {
      values[2].AppendNull();
    } else {
      values[2].Append<int32_t>(static_cast<int32_t>((h >> 16) % 1000));
    }
    if ((h >> 4) % 64 == 0) {
      values[3].AppendNull();
    } else {
      const size_t length = 8 + (h >> 24) % 64;
      comment.resize(length);
      uint64_t bits = h;
      for (size_t i = 0; i < length; ++i) {
        if (i % 16 == 0) bits = MixedRowHash(group, row ^ (static_cast<int64_t>(i) << 48));
        comment[i] = static_cast<char>('a' + (bits & 15));
        bits >>= 4;
      }
      values[3].AppendBytes(comment);
    }
    values[4].AppendBytes("tag-" + std::to_string((h >> 32) % 50));
  }
  return values;
}

// Writes `row_groups` row groups of `rows_per_group` rows to `path`, one row group in memory at
// a time. Returns the file's size.
inline Result<int64_t> WriteMixedFile(const std::string& path, int row_groups, int64_t rows_per_group,
                                      std::vector<ColumnOptions> columns = MixedColumns()) {
  STRATA_ASSIGN_OR_RETURN(auto builder, TestFileBuilder::MakeForFile(std::move(columns), path));
  for (int group = 0; group < row_groups; ++group) {
    STRATA_RETURN_NOT_OK(builder->AddRowGroup(MixedRowGroupValues(group, rows_per_group)));
  }
  STRATA_RETURN_NOT_OK(builder->Finish().status());
  std::error_code error;
  const auto size = std::filesystem::file_size(path, error);
  if (error) return Status::IOError("cannot stat '{}': {}", path, error.message());
  return static_cast<int64_t>(size);
}

}  // namespace strata::parquet::testing
