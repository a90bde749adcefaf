// parquet.thrift file family: FileMetaData, RowGroup, ColumnChunk, ColumnMetaData, SortingColumn,
// and the encryption structures; with the selective (column-subset) decode for wide files.
#include <algorithm>

#include "strata/parquet/thrift/parquet_types.h"
#include "strata/parquet/thrift/struct_codec.h"

namespace strata::parquet {

using namespace thrift_internal;  // NOLINT: the codec vocabulary of this folder

// ---- encryption -----------------------------------------------------------------------------------

std::string_view EncryptionAlgorithmName(const EncryptionAlgorithm& algorithm) {
  switch (algorithm.kind) {
    case EncryptionAlgorithm::Kind::kAesGcmV1: return "AES_GCM_V1";
    case EncryptionAlgorithm::Kind::kAesGcmCtrV1: return "AES_GCM_CTR_V1";
    case EncryptionAlgorithm::Kind::kUnknown: break;
  }
  return "UNKNOWN";
}

Status Decode(CompactReader& reader, EncryptionAlgorithm* out) {
  *out = EncryptionAlgorithm{};
  out->kind = EncryptionAlgorithm::Kind::kUnknown;
  return DecodeStruct(reader, "EncryptionAlgorithm", {}, [&](const FieldHeader& f) -> Status {
    if (f.id != 1 && f.id != 2) {
      out->kind = EncryptionAlgorithm::Kind::kUnknown;
      out->unknown_field_id = f.id;
      return reader.Skip(f.type);
    }
    out->kind = static_cast<EncryptionAlgorithm::Kind>(f.id);
    reader.SetField(f.id == 1 ? "AES_GCM_V1" : "AES_GCM_CTR_V1");
    if (f.type != WireType::kStruct) return TypeMismatch(reader, f.type, "struct");
    return DecodeStruct(reader, f.id == 1 ? "AesGcmV1" : "AesGcmCtrV1", {}, [&](const FieldHeader& g) -> Status {
      switch (g.id) {
        case 1: return ReadField(reader, g, "aad_prefix", &out->aad_prefix);
        case 2: return ReadField(reader, g, "aad_file_unique", &out->aad_file_unique);
        case 3: return ReadField(reader, g, "supply_aad_prefix", &out->supply_aad_prefix);
        default: return reader.Skip(g.type);
      }
    });
  });
}

void Encode(CompactWriter& writer, const EncryptionAlgorithm& value) {
  writer.WriteStructBegin();
  if (value.kind == EncryptionAlgorithm::Kind::kUnknown) {
    if (value.unknown_field_id > 0) writer.WriteEmptyStructField(value.unknown_field_id);
  } else {
    writer.WriteFieldBegin(WireType::kStruct, static_cast<int16_t>(value.kind));
    writer.WriteStructBegin();
    WriteField(writer, 1, value.aad_prefix);
    WriteField(writer, 2, value.aad_file_unique);
    WriteField(writer, 3, value.supply_aad_prefix);
    writer.WriteStructEnd();
  }
  writer.WriteStructEnd();
}

Status Decode(CompactReader& reader, ColumnCryptoMetaData* out) {
  *out = ColumnCryptoMetaData{};
  out->kind = ColumnCryptoMetaData::Kind::kUnknown;
  return DecodeStruct(reader, "ColumnCryptoMetaData", {}, [&](const FieldHeader& f) -> Status {
    switch (f.id) {
      case 1:
        out->kind = ColumnCryptoMetaData::Kind::kFooterKey;
        return ReadEmptyStruct(reader, f, "ENCRYPTION_WITH_FOOTER_KEY");
      case 2:
        out->kind = ColumnCryptoMetaData::Kind::kColumnKey;
        reader.SetField("ENCRYPTION_WITH_COLUMN_KEY");
        if (f.type != WireType::kStruct) return TypeMismatch(reader, f.type, "struct");
        return DecodeStruct(reader, "EncryptionWithColumnKey", {{1, "path_in_schema"}},
                            [&](const FieldHeader& g) -> Status {
                              switch (g.id) {
                                case 1: return ReadField(reader, g, "path_in_schema", &out->path_in_schema);
                                case 2: return ReadField(reader, g, "key_metadata", &out->key_metadata);
                                default: return reader.Skip(g.type);
                              }
                            });
      default:
        out->kind = ColumnCryptoMetaData::Kind::kUnknown;
        out->unknown_field_id = f.id;
        return reader.Skip(f.type);
    }
  });
}

void Encode(CompactWriter& writer, const ColumnCryptoMetaData& value) {
  writer.WriteStructBegin();
  switch (value.kind) {
    case ColumnCryptoMetaData::Kind::kFooterKey:
      writer.WriteEmptyStructField(1);
      break;
    case ColumnCryptoMetaData::Kind::kColumnKey:
      writer.WriteFieldBegin(WireType::kStruct, 2);
      writer.WriteStructBegin();
      WriteField(writer, 1, value.path_in_schema);
      WriteField(writer, 2, value.key_metadata);
      writer.WriteStructEnd();
      break;
    case ColumnCryptoMetaData::Kind::kUnknown:
      if (value.unknown_field_id > 0) writer.WriteEmptyStructField(value.unknown_field_id);
      break;
  }
  writer.WriteStructEnd();
}

Status Decode(CompactReader& reader, FileCryptoMetaData* out) {
  return DecodeStruct(reader, "FileCryptoMetaData", {{1, "encryption_algorithm"}}, [&](const FieldHeader& f) -> Status {
    switch (f.id) {
      case 1: return ReadField(reader, f, "encryption_algorithm", &out->encryption_algorithm);
      case 2: return ReadField(reader, f, "key_metadata", &out->key_metadata);
      default: return reader.Skip(f.type);
    }
  });
}

void Encode(CompactWriter& writer, const FileCryptoMetaData& value) {
  writer.WriteStructBegin();
  WriteField(writer, 1, value.encryption_algorithm);
  WriteField(writer, 2, value.key_metadata);
  writer.WriteStructEnd();
}

// ---- ColumnMetaData, ColumnChunk ----------------------------------------------------------------

Status Decode(CompactReader& reader, ColumnMetaData* out) {
  return DecodeStruct(
      reader, "ColumnMetaData",
      {{1, "type"}, {2, "encodings"}, {3, "path_in_schema"}, {4, "codec"}, {5, "num_values"},
       {6, "total_uncompressed_size"}, {7, "total_compressed_size"}, {9, "data_page_offset"}},
      [&](const FieldHeader& f) -> Status {
        switch (f.id) {
          case 1: return ReadField(reader, f, "type", &out->type);
          case 2: return ReadField(reader, f, "encodings", &out->encodings);
          case 3: return ReadField(reader, f, "path_in_schema", &out->path_in_schema);
          case 4: return ReadField(reader, f, "codec", &out->codec);
          case 5: return ReadField(reader, f, "num_values", &out->num_values);
          case 6: return ReadField(reader, f, "total_uncompressed_size", &out->total_uncompressed_size);
          case 7: return ReadField(reader, f, "total_compressed_size", &out->total_compressed_size);
          case 8: return ReadField(reader, f, "key_value_metadata", &out->key_value_metadata);
          case 9: return ReadField(reader, f, "data_page_offset", &out->data_page_offset);
          case 10: return ReadField(reader, f, "index_page_offset", &out->index_page_offset);
          case 11: return ReadField(reader, f, "dictionary_page_offset", &out->dictionary_page_offset);
          case 12: return ReadField(reader, f, "statistics", &out->statistics);
          case 13: return ReadField(reader, f, "encoding_stats", &out->encoding_stats);
          case 14: return ReadField(reader, f, "bloom_filter_offset", &out->bloom_filter_offset);
          case 15: return ReadField(reader, f, "bloom_filter_length", &out->bloom_filter_length);
          case 16: return ReadField(reader, f, "size_statistics", &out->size_statistics);
          case 17: return ReadField(reader, f, "geospatial_statistics", &out->geospatial_statistics);
          default: return reader.Skip(f.type);
        }
      });
}

void Encode(CompactWriter& writer, const ColumnMetaData& value) {
  writer.WriteStructBegin();
  WriteField(writer, 1, value.type);
  WriteField(writer, 2, value.encodings);
  WriteField(writer, 3, value.path_in_schema);
  WriteField(writer, 4, value.codec);
  WriteField(writer, 5, value.num_values);
  WriteField(writer, 6, value.total_uncompressed_size);
  WriteField(writer, 7, value.total_compressed_size);
  WriteField(writer, 8, value.key_value_metadata);
  WriteField(writer, 9, value.data_page_offset);
  WriteField(writer, 10, value.index_page_offset);
  WriteField(writer, 11, value.dictionary_page_offset);
  WriteField(writer, 12, value.statistics);
  WriteField(writer, 13, value.encoding_stats);
  WriteField(writer, 14, value.bloom_filter_offset);
  WriteField(writer, 15, value.bloom_filter_length);
  WriteField(writer, 16, value.size_statistics);
  WriteField(writer, 17, value.geospatial_statistics);
  writer.WriteStructEnd();
}

Status Decode(CompactReader& reader, ColumnChunk* out) {
  return DecodeStruct(reader, "ColumnChunk", {{2, "file_offset"}}, [&](const FieldHeader& f) -> Status {
    switch (f.id) {
      case 1: return ReadField(reader, f, "file_path", &out->file_path);
      case 2: return ReadField(reader, f, "file_offset", &out->file_offset);
      case 3: return ReadField(reader, f, "meta_data", &out->meta_data);
      case 4: return ReadField(reader, f, "offset_index_offset", &out->offset_index_offset);
      case 5: return ReadField(reader, f, "offset_index_length", &out->offset_index_length);
      case 6: return ReadField(reader, f, "column_index_offset", &out->column_index_offset);
      case 7: return ReadField(reader, f, "column_index_length", &out->column_index_length);
      case 8: return ReadField(reader, f, "crypto_metadata", &out->crypto_metadata);
      case 9: return ReadField(reader, f, "encrypted_column_metadata", &out->encrypted_column_metadata);
      default: return reader.Skip(f.type);
    }
  });
}

void Encode(CompactWriter& writer, const ColumnChunk& value) {
  writer.WriteStructBegin();
  WriteField(writer, 1, value.file_path);
  WriteField(writer, 2, value.file_offset);
  WriteField(writer, 3, value.meta_data);
  WriteField(writer, 4, value.offset_index_offset);
  WriteField(writer, 5, value.offset_index_length);
  WriteField(writer, 6, value.column_index_offset);
  WriteField(writer, 7, value.column_index_length);
  WriteField(writer, 8, value.crypto_metadata);
  WriteField(writer, 9, value.encrypted_column_metadata);
  writer.WriteStructEnd();
}

// ---- RowGroup, SortingColumn ----------------------------------------------------------------------

Status Decode(CompactReader& reader, SortingColumn* out) {
  return DecodeStruct(reader, "SortingColumn", {{1, "column_idx"}, {2, "descending"}, {3, "nulls_first"}},
                      [&](const FieldHeader& f) -> Status {
                        switch (f.id) {
                          case 1: return ReadField(reader, f, "column_idx", &out->column_idx);
                          case 2: return ReadField(reader, f, "descending", &out->descending);
                          case 3: return ReadField(reader, f, "nulls_first", &out->nulls_first);
                          default: return reader.Skip(f.type);
                        }
                      });
}

void Encode(CompactWriter& writer, const SortingColumn& value) {
  writer.WriteStructBegin();
  WriteField(writer, 1, value.column_idx);
  WriteField(writer, 2, value.descending);
  WriteField(writer, 3, value.nulls_first);
  writer.WriteStructEnd();
}

namespace {

// RowGroup.columns with a selection: chunks of unselected columns are skipped on the wire, so a
// reader of 3 columns out of 10,000 neither allocates nor copies the other 9,997.
Status DecodeSelectedColumns(CompactReader& reader, const FieldHeader& field, const std::vector<int>& selected,
                             std::vector<ColumnChunk>* out) {
  reader.SetField("columns");
  ListHeader header;
  STRATA_RETURN_NOT_OK(ReadListHeader(reader, field.type, &header));
  if (header.size > 0 && header.element_type != WireType::kStruct) return SkipElements(reader, header);
  out->clear();
  const auto kept = static_cast<int32_t>(std::min<size_t>(selected.size(), header.size));
  STRATA_RETURN_NOT_OK(reader.Charge(ListChargeBytes<ColumnChunk>(kept)));
  out->reserve(static_cast<size_t>(kept));
  size_t next = 0;
  for (int32_t i = 0; i < header.size; ++i) {
    reader.SetIndex(i);
    if (next < selected.size() && selected[next] == i) {
      STRATA_RETURN_NOT_OK(Decode(reader, &out->emplace_back()));
      ++next;
    } else {
      STRATA_RETURN_NOT_OK(reader.Skip(WireType::kStruct));
    }
  }
  reader.SetIndex(-1);
  if (next < selected.size() && header.size > 0) {
    return Status::Invalid("column {} was selected but a row group has only {} columns", selected[next],
                           header.size);
  }
  return Status::OK();
}

}  // namespace

Status Decode(CompactReader& reader, RowGroup* out, const std::vector<int>* selected) {
  return DecodeStruct(reader, "RowGroup", {{1, "columns"}, {2, "total_byte_size"}, {3, "num_rows"}},
                      [&](const FieldHeader& f) -> Status {
                        switch (f.id) {
                          case 1:
                            if (selected != nullptr) return DecodeSelectedColumns(reader, f, *selected, &out->columns);
                            return ReadField(reader, f, "columns", &out->columns);
                          case 2: return ReadField(reader, f, "total_byte_size", &out->total_byte_size);
                          case 3: return ReadField(reader, f, "num_rows", &out->num_rows);
                          case 4: return ReadField(reader, f, "sorting_columns", &out->sorting_columns);
                          case 5: return ReadField(reader, f, "file_offset", &out->file_offset);
                          case 6: return ReadField(reader, f, "total_compressed_size", &out->total_compressed_size);
                          case 7: return ReadField(reader, f, "ordinal", &out->ordinal);
                          default: return reader.Skip(f.type);
                        }
                      });
}

void Encode(CompactWriter& writer, const RowGroup& value) {
  writer.WriteStructBegin();
  WriteField(writer, 1, value.columns);
  WriteField(writer, 2, value.total_byte_size);
  WriteField(writer, 3, value.num_rows);
  WriteField(writer, 4, value.sorting_columns);
  WriteField(writer, 5, value.file_offset);
  WriteField(writer, 6, value.total_compressed_size);
  WriteField(writer, 7, value.ordinal);
  writer.WriteStructEnd();
}

// ---- FileMetaData -------------------------------------------------------------------------------

Status FileMetaDataDecodeOptions::Validate() const {
  if (column_indices) {
    for (int index : *column_indices) {
      if (index < 0) return Status::Invalid("selected column index {} is negative", index);
    }
  }
  return Status::OK();
}

namespace {

Status DecodeRowGroups(CompactReader& reader, const FieldHeader& field, const std::vector<int>* selected,
                       std::vector<RowGroup>* out) {
  reader.SetField("row_groups");
  ListHeader header;
  STRATA_RETURN_NOT_OK(ReadListHeader(reader, field.type, &header));
  if (header.size > 0 && header.element_type != WireType::kStruct) return SkipElements(reader, header);
  out->clear();
  STRATA_RETURN_NOT_OK(reader.Charge(ListChargeBytes<RowGroup>(header.size)));
  out->reserve(std::min<size_t>(header.size, kReserveBudgetBytes / sizeof(RowGroup) + 1));
  for (int32_t i = 0; i < header.size; ++i) {
    reader.SetIndex(i);
    STRATA_RETURN_NOT_OK(Decode(reader, &out->emplace_back(), selected));
  }
  reader.SetIndex(-1);
  return Status::OK();
}

}  // namespace

Status Decode(CompactReader& reader, FileMetaData* out, const FileMetaDataDecodeOptions& options) {
  STRATA_RETURN_NOT_OK(options.Validate());
  std::vector<int> selection;
  if (options.column_indices) {
    selection = *options.column_indices;
    std::sort(selection.begin(), selection.end());
    selection.erase(std::unique(selection.begin(), selection.end()), selection.end());
  }
  const std::vector<int>* selected = options.column_indices ? &selection : nullptr;
  bool schema_seen = false;
  // Asks options.select_columns, once, which columns to keep, when the row groups come after
  // the schema.
  auto select_by_schema = [&]() -> Status {
    if (selected != nullptr || !options.select_columns || !schema_seen) return Status::OK();
    STRATA_ASSIGN_OR_RETURN(auto chosen, options.select_columns(out->schema));
    if (!chosen) return Status::OK();
    selection = std::move(*chosen);
    for (int index : selection) {
      if (index < 0) return Status::Invalid("selected column index {} is negative", index);
    }
    std::sort(selection.begin(), selection.end());
    selection.erase(std::unique(selection.begin(), selection.end()), selection.end());
    selected = &selection;
    return Status::OK();
  };
  STRATA_RETURN_NOT_OK(DecodeStruct(
      reader, "FileMetaData", {{1, "version"}, {2, "schema"}, {3, "num_rows"}, {4, "row_groups"}},
      [&](const FieldHeader& f) -> Status {
        switch (f.id) {
          case 1: return ReadField(reader, f, "version", &out->version);
          case 2:
            schema_seen = true;
            return ReadField(reader, f, "schema", &out->schema);
          case 3: return ReadField(reader, f, "num_rows", &out->num_rows);
          case 4: {
            STRATA_RETURN_NOT_OK(select_by_schema());
            return DecodeRowGroups(reader, f, selected, &out->row_groups);
          }
          case 5: return ReadField(reader, f, "key_value_metadata", &out->key_value_metadata);
          case 6: return ReadField(reader, f, "created_by", &out->created_by);
          case 7: return ReadField(reader, f, "column_orders", &out->column_orders);
          case 8: return ReadField(reader, f, "encryption_algorithm", &out->encryption_algorithm);
          case 9: return ReadField(reader, f, "footer_signing_key_metadata", &out->footer_signing_key_metadata);
          default: return reader.Skip(f.type);
        }
      }));
  if (selected != nullptr) out->selected_columns = std::move(selection);
  return Status::OK();
}

const ColumnChunk* FileMetaData::chunk(int row_group, int column) const {
  if (row_group < 0 || static_cast<size_t>(row_group) >= row_groups.size() || column < 0) return nullptr;
  const std::vector<ColumnChunk>& columns = row_groups[static_cast<size_t>(row_group)].columns;
  size_t position = static_cast<size_t>(column);
  if (selected_columns) {
    auto it = std::lower_bound(selected_columns->begin(), selected_columns->end(), column);
    if (it == selected_columns->end() || *it != column) return nullptr;
    position = static_cast<size_t>(it - selected_columns->begin());
  }
  return position < columns.size() ? &columns[position] : nullptr;
}

void Encode(CompactWriter& writer, const FileMetaData& value) {
  writer.WriteStructBegin();
  WriteField(writer, 1, value.version);
  WriteField(writer, 2, value.schema);
  WriteField(writer, 3, value.num_rows);
  WriteField(writer, 4, value.row_groups);
  WriteField(writer, 5, value.key_value_metadata);
  WriteField(writer, 6, value.created_by);
  WriteField(writer, 7, value.column_orders);
  WriteField(writer, 8, value.encryption_algorithm);
  WriteField(writer, 9, value.footer_signing_key_metadata);
  writer.WriteStructEnd();
}

Result<size_t> DeserializeFileMetaData(const uint8_t* data, size_t size, FileMetaData* out,
                                       const FileMetaDataDecodeOptions& options, int64_t base_offset,
                                       MemoryCharge* charge) {
  *out = FileMetaData{};
  CompactReader reader(data, size, {.base_offset = base_offset, .charge = charge});
  STRATA_RETURN_NOT_OK(Decode(reader, out, options));
  return reader.position();
}

Result<size_t> DeserializeFileCryptoMetaData(const uint8_t* data, size_t size, FileCryptoMetaData* out,
                                             int64_t base_offset) {
  *out = FileCryptoMetaData{};
  CompactReader reader(data, size, {.base_offset = base_offset});
  STRATA_RETURN_NOT_OK(Decode(reader, out));
  return reader.position();
}

void SerializeFileMetaData(const FileMetaData& value, std::string* out) {
  CompactWriter writer(out);
  Encode(writer, value);
}

void SerializeFileCryptoMetaData(const FileCryptoMetaData& value, std::string* out) {
  CompactWriter writer(out);
  Encode(writer, value);
}

void SerializeColumnMetaData(const ColumnMetaData& value, std::string* out) {
  CompactWriter writer(out);
  Encode(writer, value);
}

}  // namespace strata::parquet
