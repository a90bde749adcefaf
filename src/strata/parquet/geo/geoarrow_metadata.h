// GEOMETRY and GEOGRAPHY columns in Arrow terms. The reader reads them as WKB binary and marks
// the field with the GeoArrow extension `geoarrow.wkb` (the convention Arrow C++ uses); the
// writer turns a binary field so marked back into the Parquet logical type.
//
//   ARROW:extension:name     = geoarrow.wkb
//   ARROW:extension:metadata = {"crs": ..., "crs_type": ..., "edges": ...}
//
// crs, from the logical type's crs string (Geospatial.md):
//   omitted         -> "crs": "OGC:CRS84", "crs_type": "authority_code" (the Parquet default;
//                      GeoArrow reads an omitted crs as unknown, so the default is spelled out)
//   "srid:<n>"      -> "crs": "<n>", "crs_type": "srid"
//   "projjson:<k>"  -> "crs": <the PROJJSON object under file key-value metadata key k>,
//                      "crs_type": "projjson"; when k is missing or not JSON, the string as is
//   a JSON object   -> "crs": <the object>, "crs_type": "projjson" (inline PROJJSON)
//   anything else   -> "crs": "<the string>"
// edges: GEOGRAPHY only, the edge interpolation algorithm lower-cased ("spherical" when the file
// omits it); GEOMETRY has planar edges and writes no "edges" key.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "strata/parquet/thrift/parquet_types.h"
#include "strata/types/field.h"
#include "strata/util/result.h"

namespace strata::parquet {

inline constexpr std::string_view kGeoArrowWkbExtensionName = "geoarrow.wkb";

// Whether `logical` is GEOMETRY or GEOGRAPHY.
bool IsGeospatial(const LogicalType& logical);

// The ARROW:extension:metadata JSON object for a GEOMETRY or GEOGRAPHY logical type.
// `file_key_values` (may be null) resolves "projjson:<key>" references.
std::string GeoArrowMetadataJson(const LogicalType& logical, const std::vector<KeyValue>* file_key_values);

// `metadata` with the two geoarrow.wkb extension keys set for `logical`.
KeyValueMetadata WithGeoArrowExtension(KeyValueMetadata metadata, const LogicalType& logical,
                                       const std::vector<KeyValue>* file_key_values);

// The GEOMETRY or GEOGRAPHY logical type a field marked geoarrow.wkb is written as; nullopt for a
// field without that mark. Invalid when the extension metadata is not a JSON object or names an
// unknown edge interpolation.
Result<std::optional<LogicalType>> GeospatialLogicalTypeOf(const Field& field);

// Whether `text` is one complete JSON value (objects, arrays, strings, numbers, literals),
// surrounding whitespace allowed. Nesting deeper than 64 counts as invalid.
bool IsJsonValue(std::string_view text);

}  // namespace strata::parquet
