// GEOMETRY and GEOGRAPHY columns (parquet-testing data/geospatial, see its README.md and
// geospatial.yaml): read as WKB binary marked geoarrow.wkb with the crs and edges, the WKB
// headers agree with the wkt column and with the chunks' geospatial statistics, and the writer
// turns the mark back into the logical type.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <set>
#include <string>
#include <vector>

#include "strata/parquet/read/file_reader.h"
#include "strata/parquet/geo/geoarrow_metadata.h"
#include "strata/parquet/write/writer_test_util.h"
#include "strata/testing/test_data.h"

namespace strata::parquet {
namespace {

std::string GeoFile(const std::string& name) {
  return strata::testing::ParquetTestingFile("data/geospatial/" + name);
}

struct GeoColumn {
  int field = -1;   // top-level field index
  int column = -1;  // leaf column index
};

// The file's one geospatial column.
GeoColumn FindGeoColumn(const FileReader& reader) {
  const SchemaDescriptor& descriptor = reader.descriptor();
  for (int c = 0; c < descriptor.num_columns(); ++c) {
    const SchemaElement& e = *descriptor.column(c).element;
    if (e.logical_type && IsGeospatial(*e.logical_type)) {
      return {descriptor.FieldIndex(descriptor.column(c).path[0]), c};
    }
  }
  return {};
}

// The ISO WKB geometry type code of one value (1..7, plus 1000/2000/3000 for Z/M/ZM).
uint32_t WkbTypeCode(std::string_view wkb) {
  if (wkb.size() < 5) return 0;
  uint32_t code = 0;
  std::memcpy(&code, wkb.data() + 1, 4);
  if (wkb[0] == 0) code = __builtin_bswap32(code);  // big-endian WKB
  return code;
}

// The type code a WKT text names: "POINT Z (30 10 40)" -> 1001, "MULTIPOLYGON ZM EMPTY" -> 3006.
uint32_t WktTypeCode(std::string_view wkt) {
  static const std::vector<std::string> kBases = {"POINT", "LINESTRING", "POLYGON", "MULTIPOINT", "MULTILINESTRING",
                                                  "MULTIPOLYGON", "GEOMETRYCOLLECTION"};
  const size_t word_end = wkt.find_first_of(" (");
  const std::string_view word = wkt.substr(0, word_end);
  uint32_t code = 0;
  for (size_t i = 0; i < kBases.size(); ++i) {
    if (word == kBases[i]) code = static_cast<uint32_t>(i + 1);
  }
  const std::string_view rest = word_end == std::string_view::npos ? "" : wkt.substr(word_end);
  if (rest.starts_with(" ZM ")) code += 3000;
  else if (rest.starts_with(" Z ")) code += 1000;
  else if (rest.starts_with(" M ")) code += 2000;
  return code;
}

std::string_view View(const Array& array, int64_t i) { return BinaryArray<int32_t>(array).GetView(i); }

const Field& FieldOf(const FileReader& reader, int field) { return *reader.schema()->field(field); }

TEST(GeospatialReadTest, EveryCorpusFileReadsAsMarkedWkb) {
  STRATA_REQUIRE_PARQUET_TESTING();
  struct Case {
    const char* file;
    bool geography;
    const char* metadata_prefix;  // of ARROW:extension:metadata
  };
  const std::vector<Case> cases = {
      {"geospatial.parquet", false, R"({"crs":"OGC:CRS84","crs_type":"authority_code"})"},
      {"geospatial-with-nan.parquet", false, R"({"crs":"OGC:CRS84","crs_type":"authority_code"})"},
      {"crs-default.parquet", false, R"({"crs":"OGC:CRS84","crs_type":"authority_code"})"},
      {"crs-geography.parquet", true, R"({"crs":"OGC:CRS84","crs_type":"authority_code","edges":"spherical"})"},
      {"crs-srid.parquet", false, R"({"crs":"5070","crs_type":"srid"})"},
      // projjson:projjson_epsg_5070, resolved through the file's key-value metadata.
      {"crs-projjson.parquet", false, R"({"crs":{"$schema":"https://proj.org/schemas/v0.7/projjson.schema.json")"},
      // The PROJJSON object given inline as the crs: kept an object, not a string.
      {"crs-arbitrary-value.parquet", false, R"({"crs":{"$schema":"https://proj.org/schemas/v0.7/projjson.schema.json")"},
      {"geography-points.parquet", true, R"({"crs":"OGC:CRS84","crs_type":"authority_code","edges":"spherical"})"},
      {"geography-lines.parquet", true, R"({"crs":"OGC:CRS84","crs_type":"authority_code","edges":"spherical"})"},
      {"geography-polygons.parquet", true, R"({"crs":"OGC:CRS84","crs_type":"authority_code","edges":"spherical"})"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.file);
    auto reader = FileReader::OpenFile(GeoFile(c.file), SystemMemoryPool());
    ASSERT_TRUE(reader.ok()) << reader.status().ToString();
    const GeoColumn geo = FindGeoColumn(**reader);
    ASSERT_GE(geo.field, 0);
    const SchemaElement& element = *(*reader)->descriptor().column(geo.column).element;
    EXPECT_EQ(element.logical_type->kind == LogicalType::Kind::kGeography, c.geography);
    const Field& field = FieldOf(**reader, geo.field);
    EXPECT_EQ(field.type()->id(), TypeId::kBinary);
    EXPECT_EQ(field.metadata().Get("ARROW:extension:name"), "geoarrow.wkb");
    const std::string metadata(field.metadata().Get("ARROW:extension:metadata").value_or(""));
    EXPECT_TRUE(IsJsonValue(metadata)) << metadata;
    EXPECT_EQ(metadata.rfind(c.metadata_prefix, 0), 0u) << metadata;
    if (std::string_view(c.file).starts_with("crs-projjson") || std::string_view(c.file).starts_with("crs-arb")) {
      EXPECT_NE(metadata.find(R"(,"crs_type":"projjson"})"), std::string::npos) << metadata;
    }

    auto table = (*reader)->ReadTable();
    ASSERT_TRUE(table.ok()) << table.status().ToString();
    const FileMetaData& md = (*reader)->metadata();
    ASSERT_EQ((*table)->num_rows(), md.num_rows);
    const int wkt_field = (*reader)->descriptor().FieldIndex("wkt");
    int64_t row = 0;
    for (size_t rg = 0; rg < md.row_groups.size(); ++rg) {
      const ColumnMetaData& chunk = *md.row_groups[rg].columns[static_cast<size_t>(geo.column)].meta_data;
      if (chunk.statistics && chunk.statistics->null_count) {
        // The nulls and values per row group, as the writer counted them.
        int64_t nulls = 0;
        for (int64_t r = row; r < row + md.row_groups[rg].num_rows; ++r) {
          int64_t chunk_row = r;
          for (const Array& array : (*table)->column(geo.field)->chunks()) {
            if (chunk_row < array.length()) {
              nulls += array.IsNull(chunk_row) ? 1 : 0;
              break;
            }
            chunk_row -= array.length();
          }
        }
        EXPECT_EQ(nulls, *chunk.statistics->null_count) << "row group " << rg;
      }
      row += md.row_groups[rg].num_rows;
    }
    // Every WKB value names the type its WKT says, and is among its chunk's geospatial types.
    int64_t values = 0;
    std::vector<std::set<uint32_t>> seen(md.row_groups.size());
    row = 0;
    size_t rg = 0;
    int64_t rg_end = md.row_groups.empty() ? 0 : md.row_groups[0].num_rows;
    const auto& geo_chunks = (*table)->column(geo.field)->chunks();
    for (size_t k = 0; k < geo_chunks.size(); ++k) {
      const Array& wkb = geo_chunks[k];
      for (int64_t i = 0; i < wkb.length(); ++i, ++row) {
        while (row >= rg_end && rg + 1 < md.row_groups.size()) rg_end += md.row_groups[++rg].num_rows;
        if (wkb.IsNull(i)) continue;
        ++values;
        const std::string_view bytes = View(wkb, i);
        ASSERT_TRUE(bytes.size() >= 5 && (bytes[0] == 0 || bytes[0] == 1)) << "row " << row;
        seen[rg].insert(WkbTypeCode(bytes));
        if (wkt_field >= 0) {
          const Array& wkt = (*table)->column(wkt_field)->chunks()[k];
          ASSERT_FALSE(wkt.IsNull(i)) << "row " << row;
          EXPECT_EQ(WkbTypeCode(bytes), WktTypeCode(View(wkt, i))) << "row " << row << ": " << View(wkt, i);
        }
      }
    }
    EXPECT_GT(values, 0);
    for (size_t r = 0; r < md.row_groups.size(); ++r) {
      const ColumnMetaData& chunk = *md.row_groups[r].columns[static_cast<size_t>(geo.column)].meta_data;
      if (!chunk.geospatial_statistics || !chunk.geospatial_statistics->geospatial_types) continue;
      const auto& types = *chunk.geospatial_statistics->geospatial_types;
      EXPECT_EQ(seen[r], std::set<uint32_t>(types.begin(), types.end())) << "row group " << r;
    }
  }
}

// geospatial.parquet's row groups as geospatial.yaml lists them: the statistics its writer
// recorded are those of the rows (z = x + y, m = z * y in the yaml's data).
TEST(GeospatialReadTest, StatisticsMatchTheYaml) {
  STRATA_REQUIRE_PARQUET_TESTING();
  auto reader = FileReader::OpenFile(GeoFile("geospatial.parquet"), SystemMemoryPool());
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  const GeoColumn geo = FindGeoColumn(**reader);
  const FileMetaData& md = (*reader)->metadata();
  const int group_column = (*reader)->descriptor().FieldIndex("group");
  ASSERT_GE(group_column, 0);
  auto table = (*reader)->ReadTable();
  ASSERT_TRUE(table.ok()) << table.status().ToString();
  // The first row of each row group names its group.
  std::vector<std::string> groups;
  int64_t row = 0;
  for (const RowGroup& rg : md.row_groups) {
    int64_t r = row;
    for (const Array& chunk : (*table)->column(group_column)->chunks()) {
      if (r < chunk.length()) {
        groups.emplace_back(View(chunk, r));
        break;
      }
      r -= chunk.length();
    }
    row += rg.num_rows;
  }
  ASSERT_EQ(groups.size(), md.row_groups.size());
  int checked = 0;
  for (size_t r = 0; r < md.row_groups.size(); ++r) {
    SCOPED_TRACE(groups[r]);
    const auto& stats = md.row_groups[r].columns[static_cast<size_t>(geo.column)].meta_data->geospatial_statistics;
    if (groups[r] == "point") {
      ASSERT_TRUE(stats && stats->bbox);
      EXPECT_EQ(stats->bbox->xmin, 30);
      EXPECT_EQ(stats->bbox->xmax, 40);
      EXPECT_EQ(stats->bbox->ymin, 10);
      EXPECT_EQ(stats->bbox->ymax, 20);
      EXPECT_FALSE(stats->bbox->zmin.has_value());
      EXPECT_EQ(stats->geospatial_types, std::vector<int32_t>({1}));
      ++checked;
    } else if (groups[r] == "linestring") {
      ASSERT_TRUE(stats && stats->bbox);
      EXPECT_EQ(stats->bbox->xmin, 10);
      EXPECT_EQ(stats->bbox->xmax, 50);
      EXPECT_EQ(stats->bbox->ymin, 10);
      EXPECT_EQ(stats->bbox->ymax, 50);
      EXPECT_EQ(stats->geospatial_types, std::vector<int32_t>({2}));
      ++checked;
    } else if (groups[r] == "all") {
      // Every type in XY, Z, M and ZM; x 10..40, y 10..40, z = x + y 30..80, m = z * y 200..1600.
      ASSERT_TRUE(stats && stats->bbox);
      EXPECT_EQ(stats->bbox->xmin, 10);
      EXPECT_EQ(stats->bbox->xmax, 40);
      EXPECT_EQ(stats->bbox->ymin, 10);
      EXPECT_EQ(stats->bbox->ymax, 40);
      EXPECT_EQ(stats->bbox->zmin, 30);
      EXPECT_EQ(stats->bbox->zmax, 80);
      EXPECT_EQ(stats->bbox->mmin, 200);
      EXPECT_EQ(stats->bbox->mmax, 1600);
      ASSERT_TRUE(stats->geospatial_types);
      EXPECT_EQ(stats->geospatial_types->size(), 28u);
      ++checked;
    }
  }
  EXPECT_EQ(checked, 3);
}

// A NaN LINESTRING between two valid geometries: the box holds the valid ones, and no NaN.
TEST(GeospatialReadTest, NanCoordinatesStayOutOfTheBox) {
  STRATA_REQUIRE_PARQUET_TESTING();
  auto reader = FileReader::OpenFile(GeoFile("geospatial-with-nan.parquet"), SystemMemoryPool());
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  const GeoColumn geo = FindGeoColumn(**reader);
  const FileMetaData& md = (*reader)->metadata();
  ASSERT_EQ(md.row_groups.size(), 1u);
  const auto& stats = md.row_groups[0].columns[static_cast<size_t>(geo.column)].meta_data->geospatial_statistics;
  ASSERT_TRUE(stats && stats->bbox);
  for (double v : {stats->bbox->xmin, stats->bbox->xmax, stats->bbox->ymin, stats->bbox->ymax}) {
    EXPECT_FALSE(std::isnan(v));
  }
  EXPECT_LE(stats->bbox->xmin, stats->bbox->xmax);
  EXPECT_LE(stats->bbox->ymin, stats->bbox->ymax);
}

// Read, write with the library's writer, read the written footer: the logical type (crs,
// algorithm) and the WKB bytes come back.
TEST(GeospatialWriteTest, RoundTripKeepsTheLogicalType) {
  STRATA_REQUIRE_PARQUET_TESTING();
  for (const char* file : {"geospatial.parquet", "crs-geography.parquet", "crs-srid.parquet", "crs-projjson.parquet",
                           "crs-arbitrary-value.parquet", "geography-lines.parquet"}) {
    SCOPED_TRACE(file);
    auto reader = FileReader::OpenFile(GeoFile(file), SystemMemoryPool());
    ASSERT_TRUE(reader.ok()) << reader.status().ToString();
    const GeoColumn geo = FindGeoColumn(**reader);
    const LogicalType& original = *(*reader)->descriptor().column(geo.column).element->logical_type;
    auto table = (*reader)->ReadTable();
    ASSERT_TRUE(table.ok()) << table.status().ToString();
    std::vector<std::shared_ptr<RecordBatch>> batches;
    auto batch_reader = (*reader)->ReadBatches();
    ASSERT_TRUE(batch_reader.ok()) << batch_reader.status().ToString();
    while (true) {
      auto batch = (*batch_reader)->Next();
      ASSERT_TRUE(batch.ok()) << batch.status().ToString();
      if (!*batch) break;
      batches.push_back(*batch);
    }
    auto written = testing::WriteToBuffer((*reader)->schema(), batches, WriterOptions{}, SystemMemoryPool());
    ASSERT_TRUE(written.ok()) << written.status().ToString();
    auto back = testing::OpenBuffer(*written, SystemMemoryPool());
    ASSERT_TRUE(back.ok()) << back.status().ToString();
    const GeoColumn written_geo = FindGeoColumn(**back);
    ASSERT_GE(written_geo.column, 0);
    LogicalType written_type = *(*back)->descriptor().column(written_geo.column).element->logical_type;
    LogicalType expected = original;
    if (original.kind == LogicalType::Kind::kGeography && !expected.algorithm) {
      expected.algorithm = EdgeInterpolationAlgorithm::kSpherical;  // the default, written out
    }
    if (std::string_view(file) == "crs-projjson.parquet") {
      // The reference resolves to the PROJJSON object, which the writer puts inline.
      ASSERT_TRUE(written_type.crs.has_value());
      EXPECT_EQ(written_type.crs->rfind("{\"$schema\"", 0), 0u) << *written_type.crs;
      written_type.crs = expected.crs;
    }
    EXPECT_EQ(written_type, expected) << LogicalTypeToString(written_type) << " vs " << LogicalTypeToString(original);
    EXPECT_EQ(FieldOf(**back, written_geo.field).metadata().Get("ARROW:extension:metadata"),
              FieldOf(**reader, geo.field).metadata().Get("ARROW:extension:metadata"));
    auto table_back = (*back)->ReadTable();
    ASSERT_TRUE(table_back.ok()) << table_back.status().ToString();
    ASSERT_EQ((*table_back)->num_rows(), (*table)->num_rows());
    EXPECT_TRUE((*table_back)->column(written_geo.field)->Equals(*(*table)->column(geo.field)));
  }
}

TEST(GeoArrowMetadataTest, WriterReadsTheExtensionMetadata) {
  auto of = [](std::string json) {
    return GeospatialLogicalTypeOf(Field("g", binary(), true,
                                         KeyValueMetadata({{"ARROW:extension:name", "geoarrow.wkb"},
                                                           {"ARROW:extension:metadata", std::move(json)}})));
  };
  auto planar = of("{}");
  ASSERT_TRUE(planar.ok() && planar->has_value());
  EXPECT_EQ((*planar)->kind, LogicalType::Kind::kGeometry);
  EXPECT_FALSE((*planar)->crs.has_value());
  auto vincenty = of(R"({"crs": "EPSG:4326", "edges": "vincenty"})");
  ASSERT_TRUE(vincenty.ok() && vincenty->has_value());
  EXPECT_EQ((*vincenty)->kind, LogicalType::Kind::kGeography);
  EXPECT_EQ((*vincenty)->algorithm, EdgeInterpolationAlgorithm::kVincenty);
  EXPECT_EQ((*vincenty)->crs, "EPSG:4326");
  auto escaped = of(R"({"crs": "a \"quoted\" \u00e9 name"})");
  ASSERT_TRUE(escaped.ok() && escaped->has_value());
  EXPECT_EQ((*escaped)->crs, "a \"quoted\" \xc3\xa9 name");
  EXPECT_FALSE(of(R"({"edges": "wobbly"})").ok());
  EXPECT_FALSE(of(R"({"crs": )").ok());
  auto not_geo = GeospatialLogicalTypeOf(Field("b", binary()));
  ASSERT_TRUE(not_geo.ok());
  EXPECT_FALSE(not_geo->has_value());

  // And the reader's side: a crs with quotes and control characters stays valid JSON.
  LogicalType odd;
  odd.kind = LogicalType::Kind::kGeometry;
  odd.crs = "my \"crs\"\n\\";
  const std::string json = GeoArrowMetadataJson(odd, nullptr);
  EXPECT_TRUE(IsJsonValue(json)) << json;
  EXPECT_EQ(json, R"({"crs":"my \"crs\"\n\\"})");
}

}  // namespace
}  // namespace strata::parquet
