// parquet.thrift page family: PageHeader and its per-type headers, the page index (ColumnIndex,
// OffsetIndex, PageLocation) and BloomFilterHeader, with their top-level (de)serializers.
#include "strata/parquet/thrift/parquet_types.h"
#include "strata/parquet/thrift/struct_codec.h"

namespace strata::parquet {

using namespace thrift_internal;  // NOLINT: the codec vocabulary of this folder

// ---- page headers -------------------------------------------------------------------------------

Status Decode(CompactReader& reader, DataPageHeader* out) {
  return DecodeStruct(
      reader, "DataPageHeader",
      {{1, "num_values"}, {2, "encoding"}, {3, "definition_level_encoding"}, {4, "repetition_level_encoding"}},
      [&](const FieldHeader& f) -> Status {
        switch (f.id) {
          case 1: return ReadField(reader, f, "num_values", &out->num_values);
          case 2: return ReadField(reader, f, "encoding", &out->encoding);
          case 3: return ReadField(reader, f, "definition_level_encoding", &out->definition_level_encoding);
          case 4: return ReadField(reader, f, "repetition_level_encoding", &out->repetition_level_encoding);
          case 5: return ReadField(reader, f, "statistics", &out->statistics);
          default: return reader.Skip(f.type);
        }
      });
}

void Encode(CompactWriter& writer, const DataPageHeader& value) {
  writer.WriteStructBegin();
  WriteField(writer, 1, value.num_values);
  WriteField(writer, 2, value.encoding);
  WriteField(writer, 3, value.definition_level_encoding);
  WriteField(writer, 4, value.repetition_level_encoding);
  WriteField(writer, 5, value.statistics);
  writer.WriteStructEnd();
}

Status Decode(CompactReader& reader, IndexPageHeader* out) {
  return DecodeStruct(reader, "IndexPageHeader", {}, [&](const FieldHeader& f) { return reader.Skip(f.type); });
}

void Encode(CompactWriter& writer, const IndexPageHeader&) {
  writer.WriteStructBegin();
  writer.WriteStructEnd();
}

Status Decode(CompactReader& reader, DictionaryPageHeader* out) {
  return DecodeStruct(reader, "DictionaryPageHeader", {{1, "num_values"}, {2, "encoding"}},
                      [&](const FieldHeader& f) -> Status {
                        switch (f.id) {
                          case 1: return ReadField(reader, f, "num_values", &out->num_values);
                          case 2: return ReadField(reader, f, "encoding", &out->encoding);
                          case 3: return ReadField(reader, f, "is_sorted", &out->is_sorted);
                          default: return reader.Skip(f.type);
                        }
                      });
}

void Encode(CompactWriter& writer, const DictionaryPageHeader& value) {
  writer.WriteStructBegin();
  WriteField(writer, 1, value.num_values);
  WriteField(writer, 2, value.encoding);
  WriteField(writer, 3, value.is_sorted);
  writer.WriteStructEnd();
}

Status Decode(CompactReader& reader, DataPageHeaderV2* out) {
  return DecodeStruct(reader, "DataPageHeaderV2",
                      {{1, "num_values"}, {2, "num_nulls"}, {3, "num_rows"}, {4, "encoding"},
                       {5, "definition_levels_byte_length"}, {6, "repetition_levels_byte_length"}},
                      [&](const FieldHeader& f) -> Status {
                        switch (f.id) {
                          case 1: return ReadField(reader, f, "num_values", &out->num_values);
                          case 2: return ReadField(reader, f, "num_nulls", &out->num_nulls);
                          case 3: return ReadField(reader, f, "num_rows", &out->num_rows);
                          case 4: return ReadField(reader, f, "encoding", &out->encoding);
                          case 5:
                            return ReadField(reader, f, "definition_levels_byte_length",
                                             &out->definition_levels_byte_length);
                          case 6:
                            return ReadField(reader, f, "repetition_levels_byte_length",
                                             &out->repetition_levels_byte_length);
                          case 7: return ReadField(reader, f, "is_compressed", &out->is_compressed);
                          case 8: return ReadField(reader, f, "statistics", &out->statistics);
                          default: return reader.Skip(f.type);
                        }
                      });
}

void Encode(CompactWriter& writer, const DataPageHeaderV2& value) {
  writer.WriteStructBegin();
  WriteField(writer, 1, value.num_values);
  WriteField(writer, 2, value.num_nulls);
  WriteField(writer, 3, value.num_rows);
  WriteField(writer, 4, value.encoding);
  WriteField(writer, 5, value.definition_levels_byte_length);
  WriteField(writer, 6, value.repetition_levels_byte_length);
  WriteField(writer, 7, value.is_compressed);  // written even when true: explicit beats default
  WriteField(writer, 8, value.statistics);
  writer.WriteStructEnd();
}

Status Decode(CompactReader& reader, PageHeader* out) {
  return DecodeStruct(reader, "PageHeader",
                      {{1, "type"}, {2, "uncompressed_page_size"}, {3, "compressed_page_size"}},
                      [&](const FieldHeader& f) -> Status {
                        switch (f.id) {
                          case 1: return ReadField(reader, f, "type", &out->type);
                          case 2: return ReadField(reader, f, "uncompressed_page_size", &out->uncompressed_page_size);
                          case 3: return ReadField(reader, f, "compressed_page_size", &out->compressed_page_size);
                          case 4: return ReadField(reader, f, "crc", &out->crc);
                          case 5: return ReadField(reader, f, "data_page_header", &out->data_page_header);
                          case 6: return ReadField(reader, f, "index_page_header", &out->index_page_header);
                          case 7: return ReadField(reader, f, "dictionary_page_header", &out->dictionary_page_header);
                          case 8: return ReadField(reader, f, "data_page_header_v2", &out->data_page_header_v2);
                          default: return reader.Skip(f.type);
                        }
                      });
}

void Encode(CompactWriter& writer, const PageHeader& value) {
  writer.WriteStructBegin();
  WriteField(writer, 1, value.type);
  WriteField(writer, 2, value.uncompressed_page_size);
  WriteField(writer, 3, value.compressed_page_size);
  WriteField(writer, 4, value.crc);
  WriteField(writer, 5, value.data_page_header);
  WriteField(writer, 6, value.index_page_header);
  WriteField(writer, 7, value.dictionary_page_header);
  WriteField(writer, 8, value.data_page_header_v2);
  writer.WriteStructEnd();
}

// ---- page index ---------------------------------------------------------------------------------

Status Decode(CompactReader& reader, PageLocation* out) {
  return DecodeStruct(reader, "PageLocation", {{1, "offset"}, {2, "compressed_page_size"}, {3, "first_row_index"}},
                      [&](const FieldHeader& f) -> Status {
                        switch (f.id) {
                          case 1: return ReadField(reader, f, "offset", &out->offset);
                          case 2: return ReadField(reader, f, "compressed_page_size", &out->compressed_page_size);
                          case 3: return ReadField(reader, f, "first_row_index", &out->first_row_index);
                          default: return reader.Skip(f.type);
                        }
                      });
}

void Encode(CompactWriter& writer, const PageLocation& value) {
  writer.WriteStructBegin();
  WriteField(writer, 1, value.offset);
  WriteField(writer, 2, value.compressed_page_size);
  WriteField(writer, 3, value.first_row_index);
  writer.WriteStructEnd();
}

Status Decode(CompactReader& reader, OffsetIndex* out) {
  return DecodeStruct(reader, "OffsetIndex", {{1, "page_locations"}}, [&](const FieldHeader& f) -> Status {
    switch (f.id) {
      case 1: return ReadField(reader, f, "page_locations", &out->page_locations);
      case 2:
        return ReadField(reader, f, "unencoded_byte_array_data_bytes", &out->unencoded_byte_array_data_bytes);
      default: return reader.Skip(f.type);
    }
  });
}

void Encode(CompactWriter& writer, const OffsetIndex& value) {
  writer.WriteStructBegin();
  WriteField(writer, 1, value.page_locations);
  WriteField(writer, 2, value.unencoded_byte_array_data_bytes);
  writer.WriteStructEnd();
}

Status Decode(CompactReader& reader, ColumnIndex* out) {
  return DecodeStruct(
      reader, "ColumnIndex", {{1, "null_pages"}, {2, "min_values"}, {3, "max_values"}, {4, "boundary_order"}},
      [&](const FieldHeader& f) -> Status {
        switch (f.id) {
          case 1: return ReadField(reader, f, "null_pages", &out->null_pages);
          case 2: return ReadField(reader, f, "min_values", &out->min_values);
          case 3: return ReadField(reader, f, "max_values", &out->max_values);
          case 4: return ReadField(reader, f, "boundary_order", &out->boundary_order);
          case 5: return ReadField(reader, f, "null_counts", &out->null_counts);
          case 6: return ReadField(reader, f, "repetition_level_histograms", &out->repetition_level_histograms);
          case 7: return ReadField(reader, f, "definition_level_histograms", &out->definition_level_histograms);
          case 8: return ReadField(reader, f, "nan_counts", &out->nan_counts);
          default: return reader.Skip(f.type);
        }
      });
}

void Encode(CompactWriter& writer, const ColumnIndex& value) {
  writer.WriteStructBegin();
  WriteField(writer, 1, value.null_pages);
  WriteField(writer, 2, value.min_values);
  WriteField(writer, 3, value.max_values);
  WriteField(writer, 4, value.boundary_order);
  WriteField(writer, 5, value.null_counts);
  WriteField(writer, 6, value.repetition_level_histograms);
  WriteField(writer, 7, value.definition_level_histograms);
  WriteField(writer, 8, value.nan_counts);
  writer.WriteStructEnd();
}

// ---- Bloom filter header -------------------------------------------------------------------------

namespace {

// The three single-member unions of BloomFilterHeader: keep the member id, skip its empty struct.
Status DecodeUnionMemberId(CompactReader& reader, const FieldHeader& field, const char* name, int16_t* out) {
  reader.SetField(name);
  if (field.type != WireType::kStruct) return TypeMismatch(reader, field.type, "struct");
  *out = 0;
  return DecodeStruct(reader, name, {}, [&](const FieldHeader& member) -> Status {
    *out = member.id;
    return reader.Skip(member.type);
  });
}

void EncodeUnionMemberId(CompactWriter& writer, int16_t field_id, int16_t member_id) {
  writer.WriteFieldBegin(WireType::kStruct, field_id);
  writer.WriteStructBegin();
  if (member_id > 0) writer.WriteEmptyStructField(member_id);
  writer.WriteStructEnd();
}

}  // namespace

Status Decode(CompactReader& reader, BloomFilterHeader* out) {
  return DecodeStruct(reader, "BloomFilterHeader", {{1, "numBytes"}, {2, "algorithm"}, {3, "hash"}, {4, "compression"}},
                      [&](const FieldHeader& f) -> Status {
                        switch (f.id) {
                          case 1: return ReadField(reader, f, "numBytes", &out->num_bytes);
                          case 2: return DecodeUnionMemberId(reader, f, "algorithm", &out->algorithm);
                          case 3: return DecodeUnionMemberId(reader, f, "hash", &out->hash);
                          case 4: return DecodeUnionMemberId(reader, f, "compression", &out->compression);
                          default: return reader.Skip(f.type);
                        }
                      });
}

void Encode(CompactWriter& writer, const BloomFilterHeader& value) {
  writer.WriteStructBegin();
  WriteField(writer, 1, value.num_bytes);
  EncodeUnionMemberId(writer, 2, value.algorithm);
  EncodeUnionMemberId(writer, 3, value.hash);
  EncodeUnionMemberId(writer, 4, value.compression);
  writer.WriteStructEnd();
}

// ---- top level ----------------------------------------------------------------------------------

namespace {

template <typename T>
Result<size_t> DeserializeOne(const uint8_t* data, size_t size, T* out, int64_t base_offset) {
  *out = T{};
  CompactReader reader(data, size, {.base_offset = base_offset});
  STRATA_RETURN_NOT_OK(Decode(reader, out));
  return reader.position();
}

template <typename T>
void SerializeOne(const T& value, std::string* out) {
  CompactWriter writer(out);
  Encode(writer, value);
}

}  // namespace

Result<size_t> DeserializePageHeader(const uint8_t* data, size_t size, PageHeader* out, int64_t base_offset) {
  return DeserializeOne(data, size, out, base_offset);
}
Result<size_t> DeserializeColumnIndex(const uint8_t* data, size_t size, ColumnIndex* out, int64_t base_offset) {
  return DeserializeOne(data, size, out, base_offset);
}
Result<size_t> DeserializeOffsetIndex(const uint8_t* data, size_t size, OffsetIndex* out, int64_t base_offset) {
  return DeserializeOne(data, size, out, base_offset);
}
Result<size_t> DeserializeBloomFilterHeader(const uint8_t* data, size_t size, BloomFilterHeader* out,
                                            int64_t base_offset) {
  return DeserializeOne(data, size, out, base_offset);
}

void SerializePageHeader(const PageHeader& value, std::string* out) { SerializeOne(value, out); }
void SerializeColumnIndex(const ColumnIndex& value, std::string* out) { SerializeOne(value, out); }
void SerializeOffsetIndex(const OffsetIndex& value, std::string* out) { SerializeOne(value, out); }
void SerializeBloomFilterHeader(const BloomFilterHeader& value, std::string* out) { SerializeOne(value, out); }

}  // namespace strata::parquet
