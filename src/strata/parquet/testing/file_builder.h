// TestFileBuilder: writes complete, valid Parquet files of flat columns for tests and
// benchmarks of the read path, with every knob a reader must cope with chosen per column:
// physical and logical type, required or optional, value encoding (PLAIN, RLE, RLE_DICTIONARY
// with a dictionary page, the DELTA family, BYTE_STREAM_SPLIT, ALP), codec, data page v1 or v2,
// page size in rows or bytes, page CRCs, SizeStatistics. Row groups are encoded and written
// as they are added, so a file of hundreds of MB can be streamed to disk while only one row
// group's values are held. Test support, not the library's writer.
#pragma once

#include <cstdio>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "strata/codec/codec.h"
#include "strata/memory/buffer.h"
#include "strata/parquet/testing/column_values.h"
#include "strata/parquet/thrift/parquet_types.h"

namespace strata::parquet::testing {

enum class DataPageVersion { kV1 = 1, kV2 = 2 };

// One column: its schema and how its pages are written.
struct ColumnOptions {
  std::string name = {};
  PhysicalType physical_type = PhysicalType::kInt64;
  int32_t type_length = 0;  // FIXED_LEN_BYTE_ARRAY width
  // The matching converted type is written beside it where one exists (STRING -> UTF8,
  // DATE -> DATE, DECIMAL, INT(n), TIMESTAMP millis/micros), as writers do.
  std::optional<LogicalType> logical_type = std::nullopt;
  // Written as given, in place of the one logical_type implies: for converted types without a
  // logical form (INTERVAL), or beside a logical type writers pair them with (parquet-mr's
  // UNKNOWN beside INTERVAL).
  std::optional<ConvertedType> converted_type = std::nullopt;
  bool optional = true;
  // The leaf is the element of a list column `name`: `optional group name (LIST) { repeated
  // group list { optional element } }` (set `optional`; no size_statistics). Its values
  // carry their levels (ColumnValues::ListOf), and rows_per_page counts level entries, so a
  // page may end inside a row as older writers' v1 pages do (data page v1 only: v2 pages
  // begin at row boundaries). Row-group bounds given to AddRowGroup are entries then, at row
  // starts.
  bool list = false;

  // The data pages' value encoding. RLE_DICTIONARY writes a PLAIN dictionary page of the
  // chunk's distinct values first; RLE is for BOOLEAN only.
  Encoding encoding = Encoding::kPlain;
  codec::CompressionCodec codec = codec::CompressionCodec::kUncompressed;
  int compression_level = codec::kDefaultCompressionLevel;
  DataPageVersion page_version = DataPageVersion::kV1;
  // v2 pages compressed but flagged is_compressed = false, as PyArrow before 3.0 wrote them.
  bool v2_flagged_uncompressed = false;
  // A data page ends after rows_per_page rows (0: no row limit), or before the value that would
  // take its values' PLAIN size (BYTE_ARRAY: 4 + length each) past bytes_per_page, whichever
  // comes first; every page holds at least one value.
  int64_t rows_per_page = 0;
  int64_t bytes_per_page = 1 << 20;
  bool page_crc = false;
  // Writes ColumnMetaData.size_statistics: unencoded_byte_array_data_bytes (BYTE_ARRAY) and
  // the definition level histogram (optional columns).
  bool size_statistics = false;

  // Invalid for combinations the format does not allow (DELTA_BINARY_PACKED of a DOUBLE, ...).
  Status Validate() const;
};

// Logical types, as short calls.
LogicalType StringLogicalType();
LogicalType DateLogicalType();
LogicalType IntLogicalType(int bit_width, bool is_signed);
LogicalType TimestampLogicalType(TimeUnit unit, bool adjusted_to_utc);
LogicalType DecimalLogicalType(int32_t precision, int32_t scale);

// Where the file's bytes go. Writes are sequential.
class OutputSink {
 public:
  virtual ~OutputSink() = default;
  virtual Status Write(const void* data, int64_t size) = 0;
  virtual Status Close() = 0;
  int64_t position() const { return position_; }

 protected:
  int64_t position_ = 0;
};

// Bytes collected in memory; Finish() hands them over as a Buffer.
class StringSink final : public OutputSink {
 public:
  Status Write(const void* data, int64_t size) override;
  Status Close() override { return Status::OK(); }
  std::string& bytes() { return bytes_; }

 private:
  std::string bytes_;
};

// A local file, written through stdio's buffer.
class FileSink final : public OutputSink {
 public:
  static Result<std::unique_ptr<FileSink>> Open(const std::string& path);
  ~FileSink() override;
  Status Write(const void* data, int64_t size) override;
  Status Close() override;

 private:
  FileSink(std::string path, std::FILE* file) : path_(std::move(path)), file_(file) {}
  std::string path_;
  std::FILE* file_;
};

// A Buffer that owns a std::string (the in-memory file), for MakeBufferSource. Its bytes do
// not come from a MemoryPool: they stand for the disk, not for the reader's memory.
std::shared_ptr<Buffer> StringToBuffer(std::string bytes);

// `data` (the magic and the column chunks) followed by `metadata` serialized, its length and the
// closing magic: a whole file.
std::shared_ptr<Buffer> AppendFooter(std::string data, const FileMetaData& metadata);
// `file` with its footer decoded, passed to `edit`, and written again (the pages stay in place).
Result<std::shared_ptr<Buffer>> EditFooter(const Buffer& file, const std::function<Status(FileMetaData*)>& edit);

class TestFileBuilder {
 public:
  // A builder writing to memory (FinishToBuffer) or to `path` (Finish). Encoding scratch comes
  // from `pool` (keep it apart from the pool a reader under test measures).
  static Result<std::unique_ptr<TestFileBuilder>> Make(std::vector<ColumnOptions> columns,
                                                       MemoryPool* pool = SystemMemoryPool());
  static Result<std::unique_ptr<TestFileBuilder>> MakeForFile(std::vector<ColumnOptions> columns,
                                                              const std::string& path,
                                                              MemoryPool* pool = SystemMemoryPool());
  ~TestFileBuilder();

  // Encodes rows [begin, end) of every column (one ColumnValues per column, in order) as one
  // row group and writes it out. `end` < 0 means each column's last row.
  Status AddRowGroup(const std::vector<ColumnValues>& values, int64_t begin = 0, int64_t end = -1);
  // AddRowGroup for each run of `rows_per_row_group` rows (the last may be shorter).
  Status AddRowGroups(const std::vector<ColumnValues>& values, int64_t rows_per_row_group);

  // Writes the footer. In-memory builders return the file; file builders return nullptr
  // after closing the file.
  Result<std::shared_ptr<Buffer>> Finish();

  // Valid once row groups are added; complete after Finish().
  const FileMetaData& metadata() const { return metadata_; }
  int64_t bytes_written() const { return sink_->position(); }

 private:
  TestFileBuilder(std::vector<ColumnOptions> columns, std::unique_ptr<OutputSink> sink, MemoryPool* pool);
  Status Init();
  // The rows of entries [begin, end), the same in every column (list columns count row starts).
  Result<int64_t> RowsOfRowGroup(const std::vector<ColumnValues>& values, int64_t begin, int64_t end) const;
  class ChunkWriter;

  std::vector<ColumnOptions> columns_;
  std::unique_ptr<OutputSink> sink_;
  bool in_memory_ = false;
  bool finished_ = false;
  MemoryPool* pool_;
  std::vector<std::unique_ptr<ChunkWriter>> writers_;
  FileMetaData metadata_;
};

// The whole file in memory in one call: `values` (one per column) split into row groups of
// `rows_per_row_group` rows.
Result<std::shared_ptr<Buffer>> BuildFile(std::vector<ColumnOptions> columns, const std::vector<ColumnValues>& values,
                                          int64_t rows_per_row_group, MemoryPool* pool = SystemMemoryPool());

}  // namespace strata::parquet::testing
