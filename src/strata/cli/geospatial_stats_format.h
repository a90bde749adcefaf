// `strata meta` output for a column chunk's GeospatialStatistics (Geospatial.md): the bounding
// box and the geospatial type codes with their names ("Point", "LineString Z", ...).
#pragma once

#include <cstdint>
#include <string>

#include "strata/cli/meta_format.h"
#include "strata/parquet/thrift/parquet_types.h"

namespace strata::cli {

// The name of a geospatial type code: the WKB geometry type (1 Point, 2 LineString, 3 Polygon,
// 4 MultiPoint, 5 MultiLineString, 6 MultiPolygon, 7 GeometryCollection) plus 1000 for Z, 2000
// for M, 3000 for ZM: 1003 is "Polygon Z". Codes outside that scheme read "Unknown(<code>)".
std::string GeospatialTypeName(int32_t code);

// "    geospatial statistics: bbox x [30, 40] y [10, 20]; types 1 (Point)\n"; z and m ranges
// follow y when the box has them. Nothing when the chunk has no geospatial statistics.
void AppendGeospatialStatsText(std::string& out, const parquet::ColumnMetaData& md);

// "geospatial_statistics": {"bbox": {"xmin": .., "xmax": .., "ymin": .., "ymax": .., "zmin": ..,
// ...} or null, "geospatial_types": [{"code": 1, "name": "Point"}, ...] or null}; the key is left
// out when the chunk has no geospatial statistics.
void GeospatialStatsJson(JsonWriter& json, const parquet::ColumnMetaData& md);

}  // namespace strata::cli
