#include "strata/parquet/read/file_reader.h"

#include <algorithm>
#include <mutex>

#include <fmt/format.h>

#include "strata/io/location.h"
#include "strata/parquet/read/chunk_decryption.h"

namespace strata::parquet {
namespace {

// The leaf columns (counted depth-first, as the row groups' chunks are) whose dotted path is
// one of `names` or lies under one of them. nullopt, so that everything is decoded and the
// schema's own checks report the problem, when the schema is malformed.
std::optional<std::vector<int>> LeavesNamed(const std::vector<SchemaElement>& schema,
                                            const std::vector<std::string>& names) {
  if (schema.empty()) return std::nullopt;
  std::vector<int> leaves;
  std::vector<std::pair<std::string, int32_t>> open;  // (dotted path, children still to come)
  open.emplace_back("", schema[0].num_children.value_or(0));
  int leaf = 0;
  for (size_t i = 1; i < schema.size(); ++i) {
    while (!open.empty() && open.back().second == 0) open.pop_back();
    if (open.empty()) return std::nullopt;
    --open.back().second;
    std::string path = open.back().first.empty() ? schema[i].name : open.back().first + "." + schema[i].name;
    const int32_t children = schema[i].num_children.value_or(0);
    if (children < 0) return std::nullopt;
    if (children > 0) {
      open.emplace_back(std::move(path), children);
      continue;
    }
    for (const std::string& name : names) {
      if (path.size() >= name.size() && path.compare(0, name.size(), name) == 0 &&
          (path.size() == name.size() || path[name.size()] == '.')) {
        leaves.push_back(leaf);
        break;
      }
    }
    ++leaf;
  }
  return leaves;
}

}  // namespace

Result<std::unique_ptr<FileReader>> FileReader::Open(std::shared_ptr<RandomAccessSource> source, MemoryPool* pool,
                                                     const FileReaderOptions& options) {
  STRATA_RETURN_NOT_OK(options.pages.Validate());
  STRATA_RETURN_NOT_OK(options.cache.Validate());
  if (options.read_ahead_row_groups < 0) {
    return Status::Invalid("read_ahead_row_groups must be >= 0, got {}", options.read_ahead_row_groups);
  }
  if (options.remote_io_threads < 1 || options.remote_io_threads > 64) {
    return Status::Invalid("remote_io_threads must be 1..64, got {}", options.remote_io_threads);
  }
  auto reader = std::unique_ptr<FileReader>(new FileReader());
  reader->source_ = std::move(source);
  reader->pool_ = pool;
  reader->options_ = options;
  FooterReadOptions footer_options = options.footer;
  if (!options.columns.empty() && !footer_options.decode.column_indices && !footer_options.decode.select_columns) {
    footer_options.decode.select_columns =
        [names = options.columns](const std::vector<SchemaElement>& schema) -> Result<std::optional<std::vector<int>>> {
      return LeavesNamed(schema, names);
    };
  }
  auto footer = ReadFooter(*reader->source_, pool, footer_options);
  if (!footer.ok()) {
    // Footer errors name the file, except the pool's (a refused allocation).
    if (footer.status().message().find(reader->source_->name()) != std::string::npos) return footer.status();
    return footer.status().WithContext(fmt::format("'{}'", reader->source_->name()));
  }
  reader->footer_ = std::move(*footer);
  const auto& key_values = reader->footer_.metadata.key_value_metadata;
  auto descriptor =
      SchemaDescriptor::Make(reader->footer_.metadata.schema, options.schema, key_values ? &*key_values : nullptr);
  if (!descriptor.ok()) return descriptor.status().WithContext(fmt::format("'{}'", reader->source_->name()));
  reader->descriptor_ = std::move(*descriptor);
  auto descriptor_charge = MemoryCharge::Make(pool, reader->descriptor_->heap_bytes());
  if (!descriptor_charge.ok()) {
    return descriptor_charge.status().WithContext(
        fmt::format("'{}': schema of {} columns", reader->source_->name(), reader->descriptor_->num_columns()));
  }
  reader->descriptor_charge_ = std::move(*descriptor_charge);
  const Schema& schema = *reader->descriptor_->schema();
  reader->restore_ = options.restore_arrow_schema ? PlanArrowSchemaRestore(reader->footer_.metadata, schema)
                                                  : std::vector<FieldRestore>(static_cast<size_t>(schema.num_fields()));
  const bool relabels = std::any_of(reader->restore_.begin(), reader->restore_.end(),
                                    [](const FieldRestore& r) { return r.retype && !r.encode; });
  reader->restored_schema_ = relabels ? RestoredSchema(schema, reader->restore_) : reader->descriptor_->schema();
  STRATA_RETURN_NOT_OK(reader->CheckRowGroups());
  return reader;
}

Result<std::unique_ptr<FileReader>> FileReader::OpenFile(const std::string& path, MemoryPool* pool,
                                                         const FileReaderOptions& options) {
  StorageOptions storage;
  storage.s3 = options.s3;
  STRATA_ASSIGN_OR_RETURN(auto source, OpenInputLocation(path, storage));
  return Open(std::move(source), pool, options);
}

Status FileReader::CheckRowGroups() const {
  const auto& row_groups = footer_.metadata.row_groups;
  const auto& selected = footer_.metadata.selected_columns;
  if (selected && !selected->empty() && selected->back() >= descriptor_->num_columns()) {
    return Status::Invalid("'{}': column {} was selected; the schema has {} columns", source_->name(), selected->back(),
                           descriptor_->num_columns());
  }
  for (size_t r = 0; r < row_groups.size(); ++r) {
    const RowGroup& rg = row_groups[r];
    if (rg.num_rows < 0) {
      return Status::Corrupt("'{}': row group {} declares {} rows", source_->name(), r, rg.num_rows);
    }
    const size_t expected = selected ? selected->size() : static_cast<size_t>(descriptor_->num_columns());
    if (rg.columns.size() != expected) {
      return Status::Corrupt("'{}': row group {} has {} column chunks; the schema has {} columns", source_->name(), r,
                             rg.columns.size(), descriptor_->num_columns());
    }
  }
  return Status::OK();
}

Status FileReader::NotDecoded(int row_group, int column) const {
  const std::string& path = descriptor_->column(column).dotted_path;
  if (row_group < 0 || row_group >= num_row_groups()) {
    return Status::Invalid("'{}': no row group {} (the file has {})", source_->name(), row_group, num_row_groups());
  }
  if (footer_.metadata.selected_columns) {
    return Status::Invalid(
        "'{}': column '{}' was not among the columns the reader was opened for (FileReaderOptions::columns), "
        "so its metadata was not decoded",
        source_->name(), path);
  }
  return Status::Corrupt("'{}': row group {} has no chunk for column '{}'", source_->name(), row_group, path);
}

bool FileReader::has_field_metadata(int field) const {
  const auto& selected = footer_.metadata.selected_columns;
  if (!selected) return true;
  const int first = descriptor_->field_first_column(field);
  const int count = descriptor_->field_num_columns(field);
  auto begin = std::lower_bound(selected->begin(), selected->end(), first);
  auto end = std::lower_bound(begin, selected->end(), first + count);
  return end - begin == count;
}

int64_t FileReader::num_rows() const {
  int64_t rows = 0;
  for (const auto& rg : footer_.metadata.row_groups) rows += rg.num_rows;
  return rows;
}

Result<ColumnChunkLocation> FileReader::ChunkLocation(int row_group, int column) const {
  const ColumnDescriptor& descriptor = descriptor_->column(column);
  auto where = [&] {
    return fmt::format("'{}', column '{}' (row group {})", source_->name(), descriptor.dotted_path, row_group);
  };
  const ColumnChunk* found = footer_.metadata.chunk(row_group, column);
  if (found == nullptr) return NotDecoded(row_group, column);
  const ColumnChunk& chunk = *found;
  if (chunk.file_path && !chunk.file_path->empty()) {
    return Status::NotImplemented("{}: the chunk lives in another file ('{}')", where(), *chunk.file_path);
  }
  STRATA_ASSIGN_OR_RETURN(auto decryption,
                          FindChunkDecryption(footer_, source_->name(), row_group, column, descriptor.dotted_path));
  if (!chunk.meta_data) return Status::Corrupt("{}: the column chunk has no metadata", where());
  const ColumnMetaData& meta = *chunk.meta_data;
  if (meta.type != descriptor.physical_type) {
    return Status::Corrupt("{}: the chunk's physical type {} differs from the schema's {}", where(),
                           PhysicalTypeName(meta.type), PhysicalTypeName(descriptor.physical_type));
  }
  ColumnChunkLocation location;
  location.row_group = row_group;
  location.column = column;
  location.column_path = descriptor.dotted_path;
  location.offset = meta.data_page_offset;
  // Some writers store 0 (or garbage) for a missing dictionary page; only an offset before the
  // data pages can be where the chunk starts.
  if (meta.dictionary_page_offset && *meta.dictionary_page_offset > 0 &&
      *meta.dictionary_page_offset < meta.data_page_offset) {
    location.offset = *meta.dictionary_page_offset;
  }
  location.length = meta.total_compressed_size;
  auto codec = codec::CompressionCodecFromThrift(static_cast<int32_t>(meta.codec));
  if (!codec.ok()) return codec.status().WithContext(where());
  location.codec = *codec;
  if (location.offset < 0 || location.length < 0 ||
      location.offset > footer_.file_size || location.length > footer_.file_size - location.offset) {
    return Status::Corrupt("{}: chunk at offset {} with {} bytes lies outside the file ({} bytes)", where(),
                           location.offset, location.length, footer_.file_size);
  }
  if (decryption) {
    decryption->has_dictionary_page = meta.dictionary_page_offset && location.offset == *meta.dictionary_page_offset;
    location.decryption = std::move(decryption);
  }
  return location;
}

Result<FileReader::ChunkExtrasSource> FileReader::ChunkExtras(int row_group, int column) const {
  if (row_group < 0 || row_group >= num_row_groups()) {
    return Status::Invalid("'{}': no row group {} (the file has {})", source_->name(), row_group, num_row_groups());
  }
  if (column < 0 || column >= descriptor_->num_columns()) {
    return Status::Invalid("'{}': no column {} in row group {} (the file has {})", source_->name(), column, row_group,
                           descriptor_->num_columns());
  }
  const ColumnChunk* found = footer_.metadata.chunk(row_group, column);
  if (found == nullptr) return NotDecoded(row_group, column);
  const ColumnChunk& chunk = *found;
  const std::string& path = descriptor_->column(column).dotted_path;
  STRATA_ASSIGN_OR_RETURN(auto decryption, FindChunkDecryption(footer_, source_->name(), row_group, column, path));
  if (!chunk.meta_data) {
    return Status::Corrupt("'{}', column '{}' (row group {}): the column chunk has no metadata", source_->name(), path,
                           row_group);
  }
  return ChunkExtrasSource{&chunk, std::move(decryption)};
}

Result<std::optional<ColumnIndex>> FileReader::ReadColumnIndex(int row_group, int column) const {
  STRATA_ASSIGN_OR_RETURN(auto extras, ChunkExtras(row_group, column));
  return parquet::ReadColumnIndex(*source_, *extras.chunk, pool_, extras.decryption.get());
}

Result<std::optional<OffsetIndex>> FileReader::ReadOffsetIndex(int row_group, int column) const {
  STRATA_ASSIGN_OR_RETURN(auto extras, ChunkExtras(row_group, column));
  return parquet::ReadOffsetIndex(*source_, *extras.chunk, pool_, extras.decryption.get());
}

Result<std::unique_ptr<BloomFilter>> FileReader::ReadBloomFilter(int row_group, int column) const {
  STRATA_ASSIGN_OR_RETURN(auto extras, ChunkExtras(row_group, column));
  const ColumnMetaData& meta = *extras.chunk->meta_data;
  if (!meta.bloom_filter_offset) return std::unique_ptr<BloomFilter>();
  auto filter = BloomFilter::Read(*source_, *meta.bloom_filter_offset, meta.bloom_filter_length, pool_,
                                  extras.decryption.get());
  if (!filter.ok()) {
    return filter.status().WithContext(fmt::format("'{}', column '{}' (row group {})", source_->name(),
                                                   descriptor_->column(column).dotted_path, row_group));
  }
  return filter;
}

Result<std::unique_ptr<BatchReader>> FileReader::ReadBatches(const BatchReadOptions& options) {
  return BatchReader::Make(this, options);
}

Result<std::shared_ptr<Table>> FileReader::ReadTable(const BatchReadOptions& options) {
  STRATA_ASSIGN_OR_RETURN(auto reader, ReadBatches(options));
  // Row groups decoded at once (with threads), each one's batches kept at its position.
  std::mutex mutex;
  std::vector<std::vector<std::shared_ptr<RecordBatch>>> by_position(reader->num_row_groups_to_read());
  STRATA_RETURN_NOT_OK(reader->ForEachBatch([&](size_t position, std::shared_ptr<RecordBatch> batch) {
    std::lock_guard<std::mutex> lock(mutex);
    by_position[position].push_back(std::move(batch));
    return Status::OK();
  }));
  std::vector<std::shared_ptr<RecordBatch>> batches;
  for (auto& group : by_position) {
    for (auto& batch : group) batches.push_back(std::move(batch));
  }
  return Table::FromRecordBatches(reader->schema(), batches);
}

}  // namespace strata::parquet
