// Test support for the dataset layer: a temporary directory removed at the end of a test, and
// small Parquet files written with the project's writer.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "strata/array/binary_builder.h"
#include "strata/array/primitive_builder.h"
#include "strata/array/record_batch.h"
#include "strata/parquet/write/file_writer.h"

namespace strata::dataset::testing {

class TempDir {
 public:
  TempDir() {
    static std::atomic<int> counter{0};
    path_ = std::filesystem::temp_directory_path() /
            ("strata_dataset_" + std::to_string(::getpid()) + "_" + std::to_string(counter++));
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::filesystem::path& path() const { return path_; }
  std::string operator/(const std::string& relative) const { return (path_ / relative).string(); }

  // Creates `relative` (and its directories) holding `bytes`.
  std::string Touch(const std::string& relative, const std::string& bytes = "x") const {
    const std::filesystem::path file = path_ / relative;
    std::filesystem::create_directories(file.parent_path());
    std::ofstream(file) << bytes;
    return file.string();
  }

 private:
  std::filesystem::path path_;
};

inline Array Int64s(const std::vector<std::optional<int64_t>>& values, MemoryPool* pool) {
  Int64Builder builder(int64(), pool);
  for (const auto& v : values) {
    EXPECT_TRUE((v ? builder.Append(*v) : builder.AppendNulls(1)).ok());
  }
  return Array(*builder.Finish());
}

inline Array Int32s(const std::vector<std::optional<int32_t>>& values, MemoryPool* pool) {
  Int32Builder builder(int32(), pool);
  for (const auto& v : values) {
    EXPECT_TRUE((v ? builder.Append(*v) : builder.AppendNulls(1)).ok());
  }
  return Array(*builder.Finish());
}

inline Array Strings(const std::vector<std::optional<std::string>>& values, MemoryPool* pool) {
  StringBuilder builder(utf8(), pool);
  for (const auto& v : values) {
    EXPECT_TRUE((v ? builder.Append(std::string_view(*v)) : builder.AppendNulls(1)).ok());
  }
  return Array(*builder.Finish());
}

// Writes one Parquet file of `columns` (named `names`) at `path`, creating its directories.
inline void WriteParquet(const std::string& path, const std::vector<std::string>& names,
                         const std::vector<Array>& columns, MemoryPool* pool,
                         const parquet::WriterOptions& options = {}) {
  std::filesystem::create_directories(std::filesystem::path(path).parent_path());
  std::vector<FieldPtr> fields;
  for (size_t i = 0; i < names.size(); ++i) fields.push_back(field(names[i], columns[i].type()));
  auto schema = std::make_shared<Schema>(fields);
  auto writer = parquet::FileWriter::Open(path, schema, pool, options);
  ASSERT_TRUE(writer.ok()) << writer.status().ToString();
  const int64_t rows = columns.empty() ? 0 : columns[0].length();
  RecordBatch batch(schema, rows, columns);
  ASSERT_TRUE((*writer)->WriteBatch(batch).ok());
  ASSERT_TRUE((*writer)->Close().ok());
}

}  // namespace strata::dataset::testing
