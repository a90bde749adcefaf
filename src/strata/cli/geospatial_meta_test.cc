// `strata meta` on parquet-testing's geospatial files: each chunk's bounding box and geospatial
// types, in text and JSON, against the values geospatial.yaml describes.
#include <gtest/gtest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "strata/cli/geospatial_stats_format.h"
#include "strata/cli/meta_command.h"
#include "strata/testing/test_data.h"

namespace strata::cli {
namespace {

std::string Meta(const std::string& name, bool json) {
  const std::string path = testing::ParquetTestingFile("data/geospatial/" + name);
  auto source = OpenLocalFile(path);
  EXPECT_TRUE(source.ok()) << source.status().ToString();
  if (!source.ok()) return "";
  MetaOptions options;
  options.json = json;
  auto report = BuildMetaReport(**source, path, options, SystemMemoryPool());
  EXPECT_TRUE(report.ok()) << report.status().ToString();
  return report.ok() ? report->out : "";
}

TEST(GeospatialMetaTest, TypeNamesFollowTheDimensionOffsets) {
  EXPECT_EQ(GeospatialTypeName(1), "Point");
  EXPECT_EQ(GeospatialTypeName(7), "GeometryCollection");
  EXPECT_EQ(GeospatialTypeName(1003), "Polygon Z");
  EXPECT_EQ(GeospatialTypeName(2005), "MultiLineString M");
  EXPECT_EQ(GeospatialTypeName(3006), "MultiPolygon ZM");
  EXPECT_EQ(GeospatialTypeName(8), "Unknown(8)");
  EXPECT_EQ(GeospatialTypeName(4001), "Unknown(4001)");
  EXPECT_EQ(GeospatialTypeName(-1), "Unknown(-1)");
}

// geospatial.yaml: the "point" row group holds POINT (30 10), POINT (40 20), a null and POINT
// EMPTY; "linestring" LINESTRING (30 10, 10 30, 40 40), LINESTRING (40 20, 20 40, 50 50), ...;
// "all" every type in XY, Z (z = x + y) , M (m = z * y) and ZM.
TEST(GeospatialMetaTest, TextShowsEachChunksBoxAndTypes) {
  STRATA_REQUIRE_PARQUET_TESTING();
  const std::string text = Meta("geospatial.parquet", false);
  EXPECT_NE(text.find("logical GEOMETRY"), std::string::npos) << text;
  EXPECT_NE(text.find("    geospatial statistics: bbox x [30, 40] y [10, 20]; types 1 (Point)\n"), std::string::npos)
      << text;
  EXPECT_NE(text.find("    geospatial statistics: bbox x [10, 50] y [10, 50]; types 2 (LineString)\n"),
            std::string::npos);
  EXPECT_NE(text.find("    geospatial statistics: bbox x [10, 40] y [10, 40] z [30, 80] m [200, 1600]; types 1 (Point), "
                      "2 (LineString), 3 (Polygon), 4 (MultiPoint), 5 (MultiLineString), 6 (MultiPolygon), "
                      "7 (GeometryCollection), 1001 (Point Z)"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("3007 (GeometryCollection ZM)\n"), std::string::npos);
}

TEST(GeospatialMetaTest, JsonShowsEachChunksBoxAndTypes) {
  STRATA_REQUIRE_PARQUET_TESTING();
  const auto json = nlohmann::json::parse(Meta("geospatial.parquet", true));
  bool found_point = false;
  for (const auto& row_group : json["row_groups"]) {
    for (const auto& column : row_group["columns"]) {
      if (!column.contains("geospatial_statistics")) continue;
      const auto& stats = column["geospatial_statistics"];
      if (stats["geospatial_types"].is_array() && stats["geospatial_types"].size() == 1 &&
          stats["geospatial_types"][0]["code"] == 1) {
        found_point = true;
        EXPECT_EQ(stats["geospatial_types"][0]["name"], "Point");
        EXPECT_EQ(stats["bbox"]["xmin"], 30);
        EXPECT_EQ(stats["bbox"]["xmax"], 40);
        EXPECT_EQ(stats["bbox"]["ymin"], 10);
        EXPECT_EQ(stats["bbox"]["ymax"], 20);
        EXPECT_TRUE(stats["bbox"]["zmin"].is_null());
      }
    }
  }
  EXPECT_TRUE(found_point);
}

// The NaN LINESTRING leaves no NaN in the box meta prints.
TEST(GeospatialMetaTest, NanGeometryPrintsAFiniteBox) {
  STRATA_REQUIRE_PARQUET_TESTING();
  const std::string text = Meta("geospatial-with-nan.parquet", false);
  const size_t at = text.find("    geospatial statistics: bbox x [");
  ASSERT_NE(at, std::string::npos) << text;
  const std::string line = text.substr(at, text.find('\n', at) - at);
  EXPECT_EQ(line.find("nan"), std::string::npos) << line;
  EXPECT_EQ(line.find("NaN"), std::string::npos) << line;
}

}  // namespace
}  // namespace strata::cli
