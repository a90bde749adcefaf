#include "strata/parquet/testing/file_builder.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <limits>
#include <unordered_map>

#include "strata/codec/crc32.h"
#include "strata/parquet/encoding/alp.h"
#include "strata/parquet/encoding/byte_stream_split.h"
#include "strata/parquet/encoding/delta_binary_packed.h"
#include "strata/parquet/encoding/delta_byte_array.h"
#include "strata/parquet/encoding/delta_length_byte_array.h"
#include "strata/parquet/encoding/plain.h"
#include "strata/parquet/encoding/rle_bit_packed.h"

namespace strata::parquet::testing {
namespace {

constexpr char kMagic[] = "PAR1";

// The converted type writers put beside a logical type, for readers that only know those.
void SetConvertedType(const LogicalType& logical, SchemaElement* element) {
  using Kind = LogicalType::Kind;
  switch (logical.kind) {
    case Kind::kString: element->converted_type = ConvertedType::kUtf8; break;
    case Kind::kDate: element->converted_type = ConvertedType::kDate; break;
    case Kind::kDecimal:
      element->converted_type = ConvertedType::kDecimal;
      element->precision = logical.precision;
      element->scale = logical.scale;
      break;
    case Kind::kInteger: {
      const int index = (logical.bit_width == 8 ? 0 : logical.bit_width == 16 ? 1 : logical.bit_width == 32 ? 2 : 3);
      element->converted_type = static_cast<ConvertedType>((logical.is_signed ? 15 : 11) + index);
      break;
    }
    case Kind::kTimestamp:
      if (logical.unit == TimeUnit::kMillis) element->converted_type = ConvertedType::kTimestampMillis;
      if (logical.unit == TimeUnit::kMicros) element->converted_type = ConvertedType::kTimestampMicros;
      break;
    default:
      break;
  }
}

class StringBuffer final : public Buffer {
 public:
  explicit StringBuffer(std::string bytes) : bytes_(std::move(bytes)) {
    data_ = reinterpret_cast<const uint8_t*>(bytes_.data());
    size_ = capacity_ = static_cast<int64_t>(bytes_.size());
  }

 private:
  std::string bytes_;
};

}  // namespace

// ---- options ----------------------------------------------------------------------------------

Status ColumnOptions::Validate() const {
  const std::string_view encoding_name = EncodingName(encoding);
  if (name.empty()) return Status::Invalid("a column needs a name");
  if (physical_type == PhysicalType::kFixedLenByteArray && type_length <= 0) {
    return Status::Invalid("column '{}': FIXED_LEN_BYTE_ARRAY needs type_length > 0", name);
  }
  if (rows_per_page < 0 || bytes_per_page <= 0) {
    return Status::Invalid("column '{}': rows_per_page must be >= 0 and bytes_per_page > 0", name);
  }
  if (list && (page_version != DataPageVersion::kV1 || !optional || size_statistics)) {
    return Status::Invalid("column '{}': list columns have optional elements, data page v1 and no SizeStatistics",
                           name);
  }
  const bool allowed = encoding != Encoding::kPlainDictionary && EncodingAppliesTo(encoding, physical_type);
  if (!allowed) {
    return Status::Invalid("column '{}': {} encoding does not apply to {}", name, encoding_name,
                           PhysicalTypeName(physical_type));
  }
  return Status::OK();
}

LogicalType StringLogicalType() {
  LogicalType t;
  t.kind = LogicalType::Kind::kString;
  return t;
}

LogicalType DateLogicalType() {
  LogicalType t;
  t.kind = LogicalType::Kind::kDate;
  return t;
}

LogicalType IntLogicalType(int bit_width, bool is_signed) {
  LogicalType t;
  t.kind = LogicalType::Kind::kInteger;
  t.bit_width = static_cast<int8_t>(bit_width);
  t.is_signed = is_signed;
  return t;
}

LogicalType TimestampLogicalType(TimeUnit unit, bool adjusted_to_utc) {
  LogicalType t;
  t.kind = LogicalType::Kind::kTimestamp;
  t.unit = unit;
  t.is_adjusted_to_utc = adjusted_to_utc;
  return t;
}

LogicalType DecimalLogicalType(int32_t precision, int32_t scale) {
  LogicalType t;
  t.kind = LogicalType::Kind::kDecimal;
  t.precision = precision;
  t.scale = scale;
  return t;
}

// ---- sinks ------------------------------------------------------------------------------------

Status StringSink::Write(const void* data, int64_t size) {
  bytes_.append(static_cast<const char*>(data), static_cast<size_t>(size));
  position_ += size;
  return Status::OK();
}

Result<std::unique_ptr<FileSink>> FileSink::Open(const std::string& path) {
  std::FILE* file = std::fopen(path.c_str(), "wb");
  if (file == nullptr) return Status::IOError("cannot create '{}': {}", path, std::strerror(errno));
  return std::unique_ptr<FileSink>(new FileSink(path, file));
}

FileSink::~FileSink() {
  if (file_ != nullptr) std::fclose(file_);
}

Status FileSink::Write(const void* data, int64_t size) {
  if (file_ == nullptr) return Status::IOError("'{}' is closed", path_);
  if (size > 0 && std::fwrite(data, 1, static_cast<size_t>(size), file_) != static_cast<size_t>(size)) {
    return Status::IOError("writing {} bytes at offset {} of '{}': {}", size, position_, path_, std::strerror(errno));
  }
  position_ += size;
  return Status::OK();
}

Status FileSink::Close() {
  if (file_ == nullptr) return Status::OK();
  const int rc = std::fclose(file_);
  file_ = nullptr;
  if (rc != 0) return Status::IOError("closing '{}': {}", path_, std::strerror(errno));
  return Status::OK();
}

std::shared_ptr<Buffer> StringToBuffer(std::string bytes) { return std::make_shared<StringBuffer>(std::move(bytes)); }

std::shared_ptr<Buffer> AppendFooter(std::string data, const FileMetaData& metadata) {
  std::string footer;
  SerializeFileMetaData(metadata, &footer);
  const auto length = static_cast<uint32_t>(footer.size());
  data += footer;
  data.append(reinterpret_cast<const char*>(&length), 4);
  data += "PAR1";
  return StringToBuffer(std::move(data));
}

Result<std::shared_ptr<Buffer>> EditFooter(const Buffer& file, const std::function<Status(FileMetaData*)>& edit) {
  const uint8_t* bytes = file.data();
  const auto size = static_cast<size_t>(file.size());
  if (size < 12) return Status::Invalid("EditFooter: {} bytes are not a Parquet file", size);
  uint32_t footer_length = 0;
  std::memcpy(&footer_length, bytes + size - 8, 4);
  if (footer_length > size - 12) return Status::Invalid("EditFooter: a footer of {} bytes in {}", footer_length, size);
  const size_t footer_start = size - 8 - footer_length;
  FileMetaData metadata;
  STRATA_RETURN_NOT_OK(DeserializeFileMetaData(bytes + footer_start, footer_length, &metadata).status());
  STRATA_RETURN_NOT_OK(edit(&metadata));
  return AppendFooter(std::string(reinterpret_cast<const char*>(bytes), footer_start), metadata);
}

// ---- one column chunk -------------------------------------------------------------------------

// Encodes a column's rows of one row group into pages and writes them. Scratch buffers are
// kept from chunk to chunk.
class TestFileBuilder::ChunkWriter {
 public:
  ChunkWriter(const ColumnOptions& options, MemoryPool* pool)
      : options_(options), pool_(pool), levels_(pool), values_(pool), body_(pool), compressed_(pool), gathered_(pool) {}

  Status Init() {
    if (options_.codec != codec::CompressionCodec::kUncompressed) {
      STRATA_ASSIGN_OR_RETURN(codec_, codec::MakeCodec(options_.codec, pool_, options_.compression_level));
    }
    return Status::OK();
  }

  Result<ColumnChunk> Write(const ColumnValues& values, int64_t begin, int64_t end, OutputSink* sink);

 private:
  // The end of the data page that starts at `begin` (see ColumnOptions::bytes_per_page).
  int64_t NextPageEnd(const ColumnValues& values, int64_t begin, int64_t end) const;
  Status BuildDictionary(const ColumnValues& values, int64_t begin, int64_t end);
  // Valid values of rows [begin, end) as contiguous fixed-width bytes or as views.
  Result<const uint8_t*> GatherFixed(const ColumnValues& values, int64_t begin, int64_t end, int64_t non_null);
  void GatherViews(const ColumnValues& values, int64_t begin, int64_t end);
  Status EncodeValues(const ColumnValues& values, int64_t begin, int64_t end, int64_t non_null);
  Status WriteDataPage(const ColumnValues& values, int64_t begin, int64_t end, OutputSink* sink);
  Status WritePage(PageHeader header, std::span<const uint8_t> prefix, std::span<const uint8_t> body,
                   int64_t uncompressed_size, OutputSink* sink);
  std::span<const uint8_t> Compress(const ResizableBuffer& input, Status* status);

  const ColumnOptions& options_;
  MemoryPool* pool_;
  std::unique_ptr<codec::Codec> codec_;
  ResizableBuffer levels_, values_, body_, compressed_, gathered_;
  std::vector<uint8_t> level_bytes_;
  std::vector<ByteArrayView> views_;
  // The chunk's dictionary: distinct values (views into the ColumnValues) and each row's index.
  std::unordered_map<std::string_view, int32_t> dictionary_index_;
  std::vector<std::string_view> dictionary_;
  std::vector<int32_t> row_indices_;  // by row - chunk begin; -1 for nulls
  int64_t chunk_begin_ = 0;

  // Totals of the chunk being written.
  int64_t uncompressed_bytes_ = 0;
  int64_t compressed_bytes_ = 0;
  int32_t data_pages_ = 0;
};

int64_t TestFileBuilder::ChunkWriter::NextPageEnd(const ColumnValues& values, int64_t begin, int64_t end) const {
  const PhysicalType type = values.physical_type();
  const int width = values.value_width();
  int64_t valid = 0;
  int64_t byte_array_bytes = 0;
  auto page_bytes = [&] {
    if (type == PhysicalType::kBoolean) return (valid + 7) / 8;
    if (type == PhysicalType::kByteArray) return byte_array_bytes;
    return valid * width;
  };
  int64_t row = begin;
  while (row < end) {
    if (options_.rows_per_page > 0 && row - begin >= options_.rows_per_page) break;
    if (values.IsValid(row)) {
      ++valid;
      if (type == PhysicalType::kByteArray) byte_array_bytes += 4 + static_cast<int64_t>(values.Bytes(row).size());
      // The page ends before the value that would take it past the limit (one value at least).
      if (row > begin && page_bytes() > options_.bytes_per_page) break;
    }
    ++row;
  }
  return row;
}

Status TestFileBuilder::ChunkWriter::BuildDictionary(const ColumnValues& values, int64_t begin, int64_t end) {
  dictionary_index_.clear();
  dictionary_.clear();
  row_indices_.assign(static_cast<size_t>(end - begin), -1);
  for (int64_t row = begin; row < end; ++row) {
    if (!values.IsValid(row)) continue;
    const std::string_view key = values.Bytes(row);
    auto [it, inserted] = dictionary_index_.try_emplace(key, static_cast<int32_t>(dictionary_.size()));
    if (inserted) dictionary_.push_back(key);
    row_indices_[static_cast<size_t>(row - begin)] = it->second;
  }
  return Status::OK();
}

Result<const uint8_t*> TestFileBuilder::ChunkWriter::GatherFixed(const ColumnValues& values, int64_t begin, int64_t end,
                                                                 int64_t non_null) {
  const int width = values.value_width();
  if (non_null == end - begin) return values.FixedValue(begin);  // contiguous already
  gathered_.Clear();
  STRATA_RETURN_NOT_OK(gathered_.Reserve(std::max<int64_t>(non_null * width, 1)));
  for (int64_t row = begin; row < end; ++row) {
    if (values.IsValid(row)) gathered_.UnsafeAppend(values.FixedValue(row), width);
  }
  return gathered_.data();
}

void TestFileBuilder::ChunkWriter::GatherViews(const ColumnValues& values, int64_t begin, int64_t end) {
  views_.clear();
  for (int64_t row = begin; row < end; ++row) {
    if (!values.IsValid(row)) continue;
    const std::string_view bytes = values.Bytes(row);
    views_.push_back({reinterpret_cast<const uint8_t*>(bytes.data()), static_cast<uint32_t>(bytes.size())});
  }
}

Status TestFileBuilder::ChunkWriter::EncodeValues(const ColumnValues& values, int64_t begin, int64_t end,
                                                  int64_t non_null) {
  values_.Clear();
  const PhysicalType type = values.physical_type();
  const int width = values.value_width();
  switch (options_.encoding) {
    case Encoding::kPlain:
      if (type == PhysicalType::kByteArray) {
        GatherViews(values, begin, end);
        return PlainEncodeByteArrays(views_.data(), non_null, &values_);
      } else {
        STRATA_ASSIGN_OR_RETURN(const uint8_t* fixed, GatherFixed(values, begin, end, non_null));
        if (type == PhysicalType::kBoolean) return PlainEncodeBooleans(fixed, non_null, &values_);
        return PlainEncodeFixed(fixed, non_null, width, &values_);
      }
    case Encoding::kRle: {  // BOOLEAN: width-1 runs with a 4-byte length prefix
      STRATA_ASSIGN_OR_RETURN(const uint8_t* bits, GatherFixed(values, begin, end, non_null));
      RleBitPackedEncoder encoder(pool_, 1);
      STRATA_RETURN_NOT_OK(encoder.Put(bits, non_null));
      return encoder.FlushTo(&values_, /*length_prefix=*/true);
    }
    case Encoding::kRleDictionary: {
      std::vector<int32_t> indices;
      indices.reserve(static_cast<size_t>(non_null));
      for (int64_t row = begin; row < end; ++row) {
        const int32_t index = row_indices_[static_cast<size_t>(row - chunk_begin_)];
        if (index >= 0) indices.push_back(index);
      }
      const auto bit_width = static_cast<uint8_t>(BitWidthForMaxValue(dictionary_.empty() ? 0 : dictionary_.size() - 1));
      STRATA_RETURN_NOT_OK(values_.Append(&bit_width, 1));
      RleBitPackedEncoder encoder(pool_, bit_width);
      STRATA_RETURN_NOT_OK(encoder.Put(indices.data(), static_cast<int64_t>(indices.size())));
      return encoder.FlushTo(&values_);
    }
    case Encoding::kDeltaBinaryPacked: {
      STRATA_ASSIGN_OR_RETURN(const uint8_t* fixed, GatherFixed(values, begin, end, non_null));
      if (type == PhysicalType::kInt32) {
        DeltaBinaryPackedEncoder<int32_t> encoder(pool_);
        STRATA_RETURN_NOT_OK(encoder.Put(reinterpret_cast<const int32_t*>(fixed), non_null));
        return encoder.FlushTo(&values_);
      }
      DeltaBinaryPackedEncoder<int64_t> encoder(pool_);
      STRATA_RETURN_NOT_OK(encoder.Put(reinterpret_cast<const int64_t*>(fixed), non_null));
      return encoder.FlushTo(&values_);
    }
    case Encoding::kDeltaLengthByteArray:
      GatherViews(values, begin, end);
      return DeltaLengthByteArrayEncode(pool_, views_.data(), non_null, &values_);
    case Encoding::kDeltaByteArray:
      GatherViews(values, begin, end);
      return DeltaByteArrayEncode(pool_, views_.data(), non_null, &values_);
    case Encoding::kByteStreamSplit: {
      STRATA_ASSIGN_OR_RETURN(const uint8_t* fixed, GatherFixed(values, begin, end, non_null));
      return ByteStreamSplitEncode(fixed, non_null, width, &values_);
    }
    case Encoding::kAlp: {
      STRATA_ASSIGN_OR_RETURN(const uint8_t* fixed, GatherFixed(values, begin, end, non_null));
      if (type == PhysicalType::kFloat) {
        AlpEncoder<float> encoder(pool_);
        return encoder.Encode(reinterpret_cast<const float*>(fixed), non_null, &values_);
      }
      AlpEncoder<double> encoder(pool_);
      return encoder.Encode(reinterpret_cast<const double*>(fixed), non_null, &values_);
    }
    default:
      return Status::Invalid("column '{}': cannot encode {}", options_.name, EncodingName(options_.encoding));
  }
}

std::span<const uint8_t> TestFileBuilder::ChunkWriter::Compress(const ResizableBuffer& input, Status* status) {
  if (!codec_) return input.span();
  *status = codec_->Compress(input.span(), &compressed_);
  return compressed_.span();
}

Status TestFileBuilder::ChunkWriter::WritePage(PageHeader header, std::span<const uint8_t> prefix,
                                               std::span<const uint8_t> body, int64_t uncompressed_size,
                                               OutputSink* sink) {
  const int64_t stored = static_cast<int64_t>(prefix.size() + body.size());
  if (stored > std::numeric_limits<int32_t>::max() || uncompressed_size > std::numeric_limits<int32_t>::max()) {
    return Status::LimitExceeded("column '{}': a page of {} bytes; lower bytes_per_page", options_.name,
                                 std::max(stored, uncompressed_size));
  }
  header.uncompressed_page_size = static_cast<int32_t>(uncompressed_size);
  header.compressed_page_size = static_cast<int32_t>(stored);
  if (options_.page_crc) {
    header.crc = static_cast<int32_t>(codec::Crc32(body, codec::Crc32(prefix)));
  }
  std::string serialized;
  SerializePageHeader(header, &serialized);
  STRATA_RETURN_NOT_OK(sink->Write(serialized.data(), static_cast<int64_t>(serialized.size())));
  STRATA_RETURN_NOT_OK(sink->Write(prefix.data(), static_cast<int64_t>(prefix.size())));
  STRATA_RETURN_NOT_OK(sink->Write(body.data(), static_cast<int64_t>(body.size())));
  uncompressed_bytes_ += static_cast<int64_t>(serialized.size()) + uncompressed_size;
  compressed_bytes_ += static_cast<int64_t>(serialized.size()) + stored;
  return Status::OK();
}

Status TestFileBuilder::ChunkWriter::WriteDataPage(const ColumnValues& values, int64_t begin, int64_t end,
                                                   OutputSink* sink) {
  const int64_t rows = end - begin;
  int64_t non_null = 0;
  level_bytes_.resize(static_cast<size_t>(rows));
  for (int64_t row = begin; row < end; ++row) {
    const bool valid = values.IsValid(row);
    level_bytes_[static_cast<size_t>(row - begin)] = valid ? 1 : 0;
    non_null += valid;
  }
  const bool v1 = options_.page_version == DataPageVersion::kV1;
  levels_.Clear();
  if (options_.list) {  // v1: repetition levels (width 1), then definition levels (width 2)
    for (const auto* levels : {&values.repetition_levels(), &values.definition_levels()}) {
      const int16_t* first = levels->data() + begin;
      for (int64_t i = 0; i < rows; ++i) level_bytes_[static_cast<size_t>(i)] = static_cast<uint8_t>(first[i]);
      RleBitPackedEncoder encoder(pool_, levels == &values.repetition_levels() ? 1 : 2);
      STRATA_RETURN_NOT_OK(encoder.Put(level_bytes_.data(), rows));
      STRATA_RETURN_NOT_OK(encoder.FlushTo(&levels_, /*length_prefix=*/true));
    }
  } else if (options_.optional) {
    RleBitPackedEncoder encoder(pool_, 1);
    STRATA_RETURN_NOT_OK(encoder.Put(level_bytes_.data(), rows));
    STRATA_RETURN_NOT_OK(encoder.FlushTo(&levels_, /*length_prefix=*/v1));
  }
  STRATA_RETURN_NOT_OK(EncodeValues(values, begin, end, non_null));
  PageHeader header;
  Status status;
  ++data_pages_;
  if (v1) {
    // Levels and values are compressed together.
    header.type = PageType::kDataPage;
    DataPageHeader page;
    page.num_values = static_cast<int32_t>(rows);
    page.encoding = options_.encoding;
    header.data_page_header = page;
    body_.Clear();
    STRATA_RETURN_NOT_OK(body_.Reserve(levels_.size() + values_.size()));
    body_.UnsafeAppend(levels_.data(), levels_.size());
    body_.UnsafeAppend(values_.data(), values_.size());
    const auto stored = Compress(body_, &status);
    STRATA_RETURN_NOT_OK(status);
    return WritePage(std::move(header), {}, stored, body_.size(), sink);
  }
  // v2: levels stay uncompressed in front of the (compressed) values.
  header.type = PageType::kDataPageV2;
  DataPageHeaderV2 page;
  page.num_values = static_cast<int32_t>(rows);
  page.num_nulls = static_cast<int32_t>(rows - non_null);
  page.num_rows = static_cast<int32_t>(rows);
  page.encoding = options_.encoding;
  page.definition_levels_byte_length = static_cast<int32_t>(levels_.size());
  page.repetition_levels_byte_length = 0;
  page.is_compressed = codec_ != nullptr && !options_.v2_flagged_uncompressed;
  header.data_page_header_v2 = page;
  const auto stored = Compress(values_, &status);
  STRATA_RETURN_NOT_OK(status);
  return WritePage(std::move(header), levels_.span(), stored, levels_.size() + values_.size(), sink);
}

Result<ColumnChunk> TestFileBuilder::ChunkWriter::Write(const ColumnValues& values, int64_t begin, int64_t end,
                                                        OutputSink* sink) {
  uncompressed_bytes_ = compressed_bytes_ = 0;
  data_pages_ = 0;
  chunk_begin_ = begin;
  ColumnMetaData meta;
  meta.type = options_.physical_type;
  meta.path_in_schema = {options_.name};
  if (options_.list) meta.path_in_schema = {options_.name, "list", "element"};
  meta.codec = static_cast<CompressionCodec>(options_.codec);
  meta.num_values = end - begin;
  const int64_t chunk_start = sink->position();

  std::vector<PageEncodingStats> page_stats;
  if (options_.encoding == Encoding::kRleDictionary) {
    STRATA_RETURN_NOT_OK(BuildDictionary(values, begin, end));
    values_.Clear();
    const auto entries = static_cast<int64_t>(dictionary_.size());
    if (options_.physical_type == PhysicalType::kByteArray) {
      views_.clear();
      for (auto entry : dictionary_) {
        views_.push_back({reinterpret_cast<const uint8_t*>(entry.data()), static_cast<uint32_t>(entry.size())});
      }
      STRATA_RETURN_NOT_OK(PlainEncodeByteArrays(views_.data(), entries, &values_));
    } else {
      for (auto entry : dictionary_) STRATA_RETURN_NOT_OK(values_.Append(entry.data(), static_cast<int64_t>(entry.size())));
    }
    PageHeader header;
    header.type = PageType::kDictionaryPage;
    DictionaryPageHeader dictionary;
    dictionary.num_values = static_cast<int32_t>(entries);
    dictionary.encoding = Encoding::kPlain;
    header.dictionary_page_header = dictionary;
    Status status;
    const auto stored = Compress(values_, &status);
    STRATA_RETURN_NOT_OK(status);
    meta.dictionary_page_offset = chunk_start;
    STRATA_RETURN_NOT_OK(WritePage(std::move(header), {}, stored, values_.size(), sink));
    page_stats.push_back({PageType::kDictionaryPage, Encoding::kPlain, 1});
  }
  meta.data_page_offset = sink->position();
  for (int64_t row = begin; row < end;) {  // an empty chunk has no data pages
    const int64_t page_end = NextPageEnd(values, row, end);
    STRATA_RETURN_NOT_OK(WriteDataPage(values, row, page_end, sink));
    row = page_end;
  }
  page_stats.push_back({options_.page_version == DataPageVersion::kV1 ? PageType::kDataPage : PageType::kDataPageV2,
                        options_.encoding, data_pages_});

  // Every encoding in the chunk: the dictionary page's PLAIN, the values', RLE for levels.
  if (options_.encoding == Encoding::kRleDictionary) meta.encodings.push_back(Encoding::kPlain);
  meta.encodings.push_back(options_.encoding);
  if ((options_.optional || options_.list) && options_.encoding != Encoding::kRle) {
    meta.encodings.push_back(Encoding::kRle);
  }
  meta.encoding_stats = std::move(page_stats);
  meta.total_uncompressed_size = uncompressed_bytes_;
  meta.total_compressed_size = compressed_bytes_;
  int64_t nulls = 0;
  for (int64_t row = begin; row < end; ++row) nulls += values.IsValid(row) ? 0 : 1;
  Statistics statistics;
  statistics.null_count = nulls;
  meta.statistics = statistics;
  if (options_.size_statistics) {
    SizeStatistics size;
    if (options_.physical_type == PhysicalType::kByteArray) {
      size.unencoded_byte_array_data_bytes = values.ValueBytes(begin, end);
    }
    if (options_.optional) size.definition_level_histogram = std::vector<int64_t>{nulls, (end - begin) - nulls};
    meta.size_statistics = size;
  }
  ColumnChunk chunk;
  chunk.file_offset = chunk_start;
  chunk.meta_data = std::move(meta);
  return chunk;
}

// ---- the file ---------------------------------------------------------------------------------

TestFileBuilder::TestFileBuilder(std::vector<ColumnOptions> columns, std::unique_ptr<OutputSink> sink, MemoryPool* pool)
    : columns_(std::move(columns)), sink_(std::move(sink)), pool_(pool) {}

TestFileBuilder::~TestFileBuilder() = default;

Result<std::unique_ptr<TestFileBuilder>> TestFileBuilder::Make(std::vector<ColumnOptions> columns, MemoryPool* pool) {
  auto builder = std::unique_ptr<TestFileBuilder>(
      new TestFileBuilder(std::move(columns), std::make_unique<StringSink>(), pool));
  builder->in_memory_ = true;
  STRATA_RETURN_NOT_OK(builder->Init());
  return builder;
}

Result<std::unique_ptr<TestFileBuilder>> TestFileBuilder::MakeForFile(std::vector<ColumnOptions> columns,
                                                                      const std::string& path, MemoryPool* pool) {
  STRATA_ASSIGN_OR_RETURN(auto sink, FileSink::Open(path));
  auto builder = std::unique_ptr<TestFileBuilder>(new TestFileBuilder(std::move(columns), std::move(sink), pool));
  STRATA_RETURN_NOT_OK(builder->Init());
  return builder;
}

Status TestFileBuilder::Init() {
  if (columns_.empty()) return Status::Invalid("a file needs at least one column");
  SchemaElement root;
  root.name = "schema";
  root.num_children = static_cast<int32_t>(columns_.size());
  metadata_.version = 2;
  metadata_.schema.push_back(root);
  metadata_.created_by = "strata TestFileBuilder";
  metadata_.column_orders = std::vector<ColumnOrder>(columns_.size());
  for (const ColumnOptions& column : columns_) {
    STRATA_RETURN_NOT_OK(column.Validate());
    if (column.list) {
      SchemaElement list;
      list.name = column.name;
      list.repetition_type = FieldRepetitionType::kOptional;
      list.num_children = 1;
      list.converted_type = ConvertedType::kList;
      LogicalType list_type;
      list_type.kind = LogicalType::Kind::kList;
      list.logical_type = list_type;
      metadata_.schema.push_back(std::move(list));
      SchemaElement repeated;
      repeated.name = "list";
      repeated.repetition_type = FieldRepetitionType::kRepeated;
      repeated.num_children = 1;
      metadata_.schema.push_back(std::move(repeated));
    }
    SchemaElement leaf;
    leaf.name = column.list ? "element" : column.name;
    leaf.type = column.physical_type;
    if (column.physical_type == PhysicalType::kFixedLenByteArray) leaf.type_length = column.type_length;
    leaf.repetition_type = column.optional ? FieldRepetitionType::kOptional : FieldRepetitionType::kRequired;
    if (column.logical_type) {
      leaf.logical_type = column.logical_type;
      SetConvertedType(*column.logical_type, &leaf);
    }
    if (column.converted_type) leaf.converted_type = column.converted_type;
    metadata_.schema.push_back(std::move(leaf));
  }
  for (const ColumnOptions& column : columns_) {
    writers_.push_back(std::make_unique<ChunkWriter>(column, pool_));
    STRATA_RETURN_NOT_OK(writers_.back()->Init());
  }
  return sink_->Write(kMagic, 4);
}

Status TestFileBuilder::AddRowGroup(const std::vector<ColumnValues>& values, int64_t begin, int64_t end) {
  if (finished_) return Status::Invalid("the file is finished");
  if (values.size() != columns_.size()) {
    return Status::Invalid("{} columns of values for {} columns", values.size(), columns_.size());
  }
  if (end < 0) end = values[0].num_rows();
  for (size_t c = 0; c < columns_.size(); ++c) {
    const ColumnOptions& column = columns_[c];
    const ColumnValues& v = values[c];
    if (v.physical_type() != column.physical_type ||
        (column.physical_type == PhysicalType::kFixedLenByteArray && v.type_length() != column.type_length)) {
      return Status::Invalid("column '{}' is {} but its values are {}", column.name,
                             PhysicalTypeName(column.physical_type), PhysicalTypeName(v.physical_type()));
    }
    if (v.mismatched_width()) return Status::Invalid("column '{}' has values of another width", column.name);
    if (begin < 0 || begin > end || end > v.num_rows()) {
      return Status::Invalid("rows [{}, {}) of column '{}' with {} rows", begin, end, column.name, v.num_rows());
    }
    if (!column.optional && !column.list && v.null_count() > 0) {
      return Status::Invalid("required column '{}' has {} nulls", column.name, v.null_count());
    }
  }
  STRATA_ASSIGN_OR_RETURN(const int64_t rows, RowsOfRowGroup(values, begin, end));
  RowGroup row_group;
  row_group.num_rows = rows;
  row_group.file_offset = sink_->position();
  row_group.ordinal = static_cast<int16_t>(metadata_.row_groups.size());
  int64_t compressed = 0;
  for (size_t c = 0; c < columns_.size(); ++c) {
    STRATA_ASSIGN_OR_RETURN(ColumnChunk chunk, writers_[c]->Write(values[c], begin, end, sink_.get()));
    row_group.total_byte_size += chunk.meta_data->total_uncompressed_size;
    compressed += chunk.meta_data->total_compressed_size;
    row_group.columns.push_back(std::move(chunk));
  }
  row_group.total_compressed_size = compressed;
  metadata_.num_rows += row_group.num_rows;
  metadata_.row_groups.push_back(std::move(row_group));
  return Status::OK();
}

Result<int64_t> TestFileBuilder::RowsOfRowGroup(const std::vector<ColumnValues>& values, int64_t begin,
                                                int64_t end) const {
  std::optional<int64_t> rows;
  for (size_t c = 0; c < columns_.size(); ++c) {
    const ColumnOptions& column = columns_[c];
    const ColumnValues& v = values[c];
    int64_t column_rows = end - begin;
    if (column.list) {
      const auto& rep = v.repetition_levels();
      const auto& def = v.definition_levels();
      if (rep.size() != static_cast<size_t>(v.num_rows()) || def.size() != rep.size()) {
        return Status::Invalid("list column '{}' needs levels for each of its {} entries", column.name, v.num_rows());
      }
      if ((begin < end && rep[static_cast<size_t>(begin)] != 0) ||
          (end < v.num_rows() && rep[static_cast<size_t>(end)] != 0)) {
        return Status::Invalid("list column '{}': entries [{}, {}) do not begin and end at rows", column.name, begin,
                               end);
      }
      column_rows = 0;
      for (int64_t i = begin; i < end; ++i) {
        const auto index = static_cast<size_t>(i);
        column_rows += rep[index] == 0;
        if ((def[index] == 3) != v.IsValid(i) || def[index] > 3 || rep[index] > 1) {
          return Status::Invalid("list column '{}': entry {} has levels {}/{} and a {} value", column.name, i,
                                 rep[index], def[index], v.IsValid(i) ? "valid" : "null");
        }
      }
    }
    if (rows && *rows != column_rows) {
      return Status::Invalid("column '{}' has {} rows in the row group, another column {}", column.name, column_rows,
                             *rows);
    }
    rows = column_rows;
  }
  return rows.value_or(end - begin);
}

Status TestFileBuilder::AddRowGroups(const std::vector<ColumnValues>& values, int64_t rows_per_row_group) {
  if (rows_per_row_group <= 0) return Status::Invalid("rows_per_row_group must be positive");
  if (values.empty()) return Status::Invalid("no columns");
  const int64_t rows = values[0].num_rows();
  for (int64_t begin = 0; begin < rows; begin += rows_per_row_group) {
    STRATA_RETURN_NOT_OK(AddRowGroup(values, begin, std::min(rows, begin + rows_per_row_group)));
  }
  return Status::OK();
}

Result<std::shared_ptr<Buffer>> TestFileBuilder::Finish() {
  if (finished_) return Status::Invalid("the file is finished");
  finished_ = true;
  std::string footer;
  SerializeFileMetaData(metadata_, &footer);
  const auto length = static_cast<uint32_t>(footer.size());
  uint8_t length_le[4] = {static_cast<uint8_t>(length), static_cast<uint8_t>(length >> 8),
                          static_cast<uint8_t>(length >> 16), static_cast<uint8_t>(length >> 24)};
  STRATA_RETURN_NOT_OK(sink_->Write(footer.data(), static_cast<int64_t>(footer.size())));
  STRATA_RETURN_NOT_OK(sink_->Write(length_le, 4));
  STRATA_RETURN_NOT_OK(sink_->Write(kMagic, 4));
  STRATA_RETURN_NOT_OK(sink_->Close());
  if (!in_memory_) return std::shared_ptr<Buffer>();
  return StringToBuffer(std::move(static_cast<StringSink*>(sink_.get())->bytes()));
}

Result<std::shared_ptr<Buffer>> BuildFile(std::vector<ColumnOptions> columns, const std::vector<ColumnValues>& values,
                                          int64_t rows_per_row_group, MemoryPool* pool) {
  STRATA_ASSIGN_OR_RETURN(auto builder, TestFileBuilder::Make(std::move(columns), pool));
  STRATA_RETURN_NOT_OK(builder->AddRowGroups(values, rows_per_row_group));
  return builder->Finish();
}

}  // namespace strata::parquet::testing
