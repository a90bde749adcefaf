// parquet.thrift statistics family: Statistics, SizeStatistics, GeospatialStatistics (+BoundingBox)
// and PageEncodingStats.
#include "strata/parquet/thrift/parquet_types.h"
#include "strata/parquet/thrift/struct_codec.h"

namespace strata::parquet {

using namespace thrift_internal;  // NOLINT: the codec vocabulary of this folder

Status Decode(CompactReader& reader, Statistics* out) {
  return DecodeStruct(reader, "Statistics", {}, [&](const FieldHeader& f) -> Status {
    switch (f.id) {
      case 1: return ReadField(reader, f, "max", &out->max);
      case 2: return ReadField(reader, f, "min", &out->min);
      case 3: return ReadField(reader, f, "null_count", &out->null_count);
      case 4: return ReadField(reader, f, "distinct_count", &out->distinct_count);
      case 5: return ReadField(reader, f, "max_value", &out->max_value);
      case 6: return ReadField(reader, f, "min_value", &out->min_value);
      case 7: return ReadField(reader, f, "is_max_value_exact", &out->is_max_value_exact);
      case 8: return ReadField(reader, f, "is_min_value_exact", &out->is_min_value_exact);
      case 9: return ReadField(reader, f, "nan_count", &out->nan_count);
      default: return reader.Skip(f.type);
    }
  });
}

void Encode(CompactWriter& writer, const Statistics& value) {
  writer.WriteStructBegin();
  WriteField(writer, 1, value.max);
  WriteField(writer, 2, value.min);
  WriteField(writer, 3, value.null_count);
  WriteField(writer, 4, value.distinct_count);
  WriteField(writer, 5, value.max_value);
  WriteField(writer, 6, value.min_value);
  WriteField(writer, 7, value.is_max_value_exact);
  WriteField(writer, 8, value.is_min_value_exact);
  WriteField(writer, 9, value.nan_count);
  writer.WriteStructEnd();
}

Status Decode(CompactReader& reader, SizeStatistics* out) {
  return DecodeStruct(reader, "SizeStatistics", {}, [&](const FieldHeader& f) -> Status {
    switch (f.id) {
      case 1: return ReadField(reader, f, "unencoded_byte_array_data_bytes", &out->unencoded_byte_array_data_bytes);
      case 2: return ReadField(reader, f, "repetition_level_histogram", &out->repetition_level_histogram);
      case 3: return ReadField(reader, f, "definition_level_histogram", &out->definition_level_histogram);
      default: return reader.Skip(f.type);
    }
  });
}

void Encode(CompactWriter& writer, const SizeStatistics& value) {
  writer.WriteStructBegin();
  WriteField(writer, 1, value.unencoded_byte_array_data_bytes);
  WriteField(writer, 2, value.repetition_level_histogram);
  WriteField(writer, 3, value.definition_level_histogram);
  writer.WriteStructEnd();
}

Status Decode(CompactReader& reader, BoundingBox* out) {
  return DecodeStruct(reader, "BoundingBox", {{1, "xmin"}, {2, "xmax"}, {3, "ymin"}, {4, "ymax"}},
                      [&](const FieldHeader& f) -> Status {
                        switch (f.id) {
                          case 1: return ReadField(reader, f, "xmin", &out->xmin);
                          case 2: return ReadField(reader, f, "xmax", &out->xmax);
                          case 3: return ReadField(reader, f, "ymin", &out->ymin);
                          case 4: return ReadField(reader, f, "ymax", &out->ymax);
                          case 5: return ReadField(reader, f, "zmin", &out->zmin);
                          case 6: return ReadField(reader, f, "zmax", &out->zmax);
                          case 7: return ReadField(reader, f, "mmin", &out->mmin);
                          case 8: return ReadField(reader, f, "mmax", &out->mmax);
                          default: return reader.Skip(f.type);
                        }
                      });
}

void Encode(CompactWriter& writer, const BoundingBox& value) {
  writer.WriteStructBegin();
  WriteField(writer, 1, value.xmin);
  WriteField(writer, 2, value.xmax);
  WriteField(writer, 3, value.ymin);
  WriteField(writer, 4, value.ymax);
  WriteField(writer, 5, value.zmin);
  WriteField(writer, 6, value.zmax);
  WriteField(writer, 7, value.mmin);
  WriteField(writer, 8, value.mmax);
  writer.WriteStructEnd();
}

Status Decode(CompactReader& reader, GeospatialStatistics* out) {
  return DecodeStruct(reader, "GeospatialStatistics", {}, [&](const FieldHeader& f) -> Status {
    switch (f.id) {
      case 1: return ReadField(reader, f, "bbox", &out->bbox);
      case 2: return ReadField(reader, f, "geospatial_types", &out->geospatial_types);
      default: return reader.Skip(f.type);
    }
  });
}

void Encode(CompactWriter& writer, const GeospatialStatistics& value) {
  writer.WriteStructBegin();
  WriteField(writer, 1, value.bbox);
  WriteField(writer, 2, value.geospatial_types);
  writer.WriteStructEnd();
}

Status Decode(CompactReader& reader, PageEncodingStats* out) {
  return DecodeStruct(reader, "PageEncodingStats", {{1, "page_type"}, {2, "encoding"}, {3, "count"}},
                      [&](const FieldHeader& f) -> Status {
                        switch (f.id) {
                          case 1: return ReadField(reader, f, "page_type", &out->page_type);
                          case 2: return ReadField(reader, f, "encoding", &out->encoding);
                          case 3: return ReadField(reader, f, "count", &out->count);
                          default: return reader.Skip(f.type);
                        }
                      });
}

void Encode(CompactWriter& writer, const PageEncodingStats& value) {
  writer.WriteStructBegin();
  WriteField(writer, 1, value.page_type);
  WriteField(writer, 2, value.encoding);
  WriteField(writer, 3, value.count);
  writer.WriteStructEnd();
}

}  // namespace strata::parquet
