#include "strata/cli/geospatial_stats_format.h"

#include <iterator>
#include <optional>
#include <string_view>

namespace strata::cli {
namespace {

using namespace strata::parquet;  // NOLINT: this file is all about its types

void AppendRange(std::string& out, std::string_view axis, double min, double max) {
  fmt::format_to(std::back_inserter(out), " {} [{}, {}]", axis, min, max);
}

void OptionalDouble(JsonWriter& json, std::string_view key, const std::optional<double>& value) {
  json.Key(key);
  if (value) json.Double(*value);
  else json.Null();
}

}  // namespace

std::string GeospatialTypeName(int32_t code) {
  static constexpr std::string_view kBaseNames[] = {"",           "Point",           "LineString",
                                                    "Polygon",    "MultiPoint",      "MultiLineString",
                                                    "MultiPolygon", "GeometryCollection"};
  static constexpr std::string_view kDimensions[] = {"", " Z", " M", " ZM"};
  const int32_t base = code % 1000;
  const int32_t dimensions = code / 1000;
  if (code < 0 || base < 1 || base > 7 || dimensions > 3) return fmt::format("Unknown({})", code);
  return fmt::format("{}{}", kBaseNames[base], kDimensions[dimensions]);
}

void AppendGeospatialStatsText(std::string& out, const ColumnMetaData& md) {
  if (!md.geospatial_statistics) return;
  const GeospatialStatistics& stats = *md.geospatial_statistics;
  out += "    geospatial statistics:";
  if (stats.bbox) {
    const BoundingBox& box = *stats.bbox;
    out += " bbox";
    AppendRange(out, "x", box.xmin, box.xmax);
    AppendRange(out, "y", box.ymin, box.ymax);
    if (box.zmin || box.zmax) AppendRange(out, "z", box.zmin.value_or(NAN), box.zmax.value_or(NAN));
    if (box.mmin || box.mmax) AppendRange(out, "m", box.mmin.value_or(NAN), box.mmax.value_or(NAN));
  } else {
    out += " no bbox";
  }
  if (stats.geospatial_types) {
    out += ";";
    if (stats.geospatial_types->empty()) out += " types none";
    else out += " types";
    for (size_t i = 0; i < stats.geospatial_types->size(); ++i) {
      const int32_t code = (*stats.geospatial_types)[i];
      fmt::format_to(std::back_inserter(out), "{} {} ({})", i ? "," : "", code, GeospatialTypeName(code));
    }
  }
  out += '\n';
}

void GeospatialStatsJson(JsonWriter& json, const ColumnMetaData& md) {
  if (!md.geospatial_statistics) return;
  const GeospatialStatistics& stats = *md.geospatial_statistics;
  json.Key("geospatial_statistics");
  json.BeginObject();
  json.Key("bbox");
  if (stats.bbox) {
    const BoundingBox& box = *stats.bbox;
    json.BeginObject();
    json.Field("xmin", box.xmin);
    json.Field("xmax", box.xmax);
    json.Field("ymin", box.ymin);
    json.Field("ymax", box.ymax);
    OptionalDouble(json, "zmin", box.zmin);
    OptionalDouble(json, "zmax", box.zmax);
    OptionalDouble(json, "mmin", box.mmin);
    OptionalDouble(json, "mmax", box.mmax);
    json.EndObject();
  } else {
    json.Null();
  }
  json.Key("geospatial_types");
  if (stats.geospatial_types) {
    json.BeginArray();
    for (int32_t code : *stats.geospatial_types) {
      json.BeginObject();
      json.Field("code", code);
      json.Field("name", GeospatialTypeName(code));
      json.EndObject();
    }
    json.EndArray();
  } else {
    json.Null();
  }
  json.EndObject();
}

}  // namespace strata::cli
