// Footer statistics decoded for Python. Which bytes to trust follows parquet.thrift: min_value /
// max_value are in the column's sort order (ColumnSortOrder, shared with the writer); the
// deprecated min / max are signed comparisons, so they are used only where the column's order
// is signed and the values are numbers (old writers compared byte arrays as signed bytes, which
// gives wrong bounds for strings). No bounds for columns of unknown order (INT96, intervals,
// undefined logical types) and for NaN bounds. The physical decoding is `strata meta`'s
// (parquet::DecodeStat); here the values get the column's logical type.
#include "statistics.h"

#include <cmath>
#include <cstring>

#include "strata/parquet/stats/statistic_value.h"
#include "strata/parquet/stats/statistics.h"

namespace strata::python {
namespace {

using parquet::PhysicalType;


// Big-endian two's complement (a DECIMAL byte array) -> little-endian of `width` bytes.
bool BigEndianToLittle(std::string_view bytes, int width, uint8_t* out) {
  if (bytes.empty() || static_cast<int>(bytes.size()) > width) return false;
  const uint8_t fill = (static_cast<uint8_t>(bytes[0]) & 0x80) ? 0xFF : 0x00;
  std::memset(out, fill, static_cast<size_t>(width));
  for (size_t i = 0; i < bytes.size(); ++i) out[i] = static_cast<uint8_t>(bytes[bytes.size() - 1 - i]);
  return true;
}

py::object IntegerValue(const parquet::StatValue& v, const DataType& type) {
  const bool is_uint = v.kind == parquet::StatValue::Kind::kUint;
  py::int_ value = is_uint ? py::int_(v.u) : py::int_(v.i);
  switch (type.id()) {
    case TypeId::kDate32: return DateToPython(v.i);
    case TypeId::kDate64: return DateToPython(v.i / 86400000);
    case TypeId::kTimestamp: {
      py::object tz = type.timezone().empty() ? py::none() : py::object(py::str(type.timezone()));
      return py::module_::import("pandas").attr("Timestamp")(value,
                                                             py::arg("unit") = std::string(TimeUnitName(type.unit())),
                                                             py::arg("tz") = tz);
    }
    case TypeId::kDuration:
      return py::module_::import("pandas").attr("Timedelta")(value,
                                                             py::arg("unit") = std::string(TimeUnitName(type.unit())));
    case TypeId::kTime32:
    case TypeId::kTime64: return TimeToPython(v.i, type.unit());
    case TypeId::kDecimal128:
    case TypeId::kDecimal256: {
      py::object decimal = py::module_::import("decimal").attr("Decimal")(value);
      return decimal.attr("scaleb")(-type.scale());
    }
    default:
      if (is_integer(type.id())) return value;
      return py::none();
  }
}

py::object BytesValue(std::string_view bytes, const parquet::ColumnDescriptor& column, const DataType& type) {
  if (is_decimal(type.id())) {
    uint8_t little[32];
    if (!BigEndianToLittle(bytes, type.byte_width(), little)) return py::none();
    return DecimalToPython(little, type, false);
  }
  if (is_string(type.id())) {
    PyObject* text = PyUnicode_DecodeUTF8(bytes.data(), static_cast<py::ssize_t>(bytes.size()), "strict");
    if (text == nullptr) {
      PyErr_Clear();  // a truncated bound may end inside a character: no usable value
      return py::none();
    }
    return py::reinterpret_steal<py::object>(text);
  }
  if (type.id() == TypeId::kBinary || type.id() == TypeId::kLargeBinary || type.id() == TypeId::kBinaryView ||
      type.id() == TypeId::kFixedSizeBinary) {
    return py::bytes(bytes.data(), bytes.size());
  }
  return py::none();
}

py::object DecodeBound(const std::optional<std::string>& bytes, const parquet::ColumnDescriptor& column,
                       const TypePtr& type) {
  if (!bytes) return py::none();
  if (type->id() == TypeId::kDictionary) return DecodeBound(bytes, column, type->value_type());
  const PhysicalType physical = column.physical_type;
  if (physical == PhysicalType::kByteArray || physical == PhysicalType::kFixedLenByteArray) {
    return BytesValue(*bytes, column, *type);
  }
  const parquet::StatValue v = parquet::DecodeStat(*bytes, physical, column.element);
  switch (v.kind) {
    case parquet::StatValue::Kind::kInt:
    case parquet::StatValue::Kind::kUint: return IntegerValue(v, *type);
    case parquet::StatValue::Kind::kDouble:
      if (std::isnan(v.d) || !is_floating(type->id())) return py::none();
      return py::float_(v.d);
    case parquet::StatValue::Kind::kBool:
      if (type->id() != TypeId::kBoolean) return py::none();
      return py::bool_(v.i != 0);
    default: return py::none();
  }
}

}  // namespace

py::object StatisticsToPython(const parquet::ColumnMetaData& chunk, const parquet::ColumnDescriptor& column,
                              const TypePtr& type) {
  if (!chunk.statistics) return py::none();
  const parquet::Statistics& s = *chunk.statistics;
  const parquet::SchemaElement* e = column.element;
  const parquet::SortOrder order = parquet::ColumnSortOrder(column.physical_type, e->logical_type, e->converted_type);
  const std::optional<std::string>* min = &s.min_value;
  const std::optional<std::string>* max = &s.max_value;
  static const std::optional<std::string> kNone;
  if (!min->has_value() && !max->has_value()) {
    const bool numeric = column.physical_type != PhysicalType::kByteArray &&
                         column.physical_type != PhysicalType::kFixedLenByteArray;
    const bool legacy_usable = order == parquet::SortOrder::kSigned && numeric;
    min = legacy_usable ? &s.min : &kNone;
    max = legacy_usable ? &s.max : &kNone;
  }
  if (order == parquet::SortOrder::kUnknown || column.physical_type == PhysicalType::kInt96) {
    min = &kNone;
    max = &kNone;
  }
  py::dict out;
  out["null_count"] = s.null_count ? py::object(py::int_(*s.null_count)) : py::none();
  // A bound Python cannot hold (a date past year 9999, a time past midnight) is no bound.
  auto bound = [&](const std::optional<std::string>& bytes) -> py::object {
    try {
      return DecodeBound(bytes, column, type);
    } catch (py::error_already_set&) {
      return py::none();
    }
  };
  out["min"] = bound(*min);
  out["max"] = bound(*max);
  out["min_exact"] = py::bool_(s.is_min_value_exact.value_or(true));
  out["max_exact"] = py::bool_(s.is_max_value_exact.value_or(true));
  return out;
}

}  // namespace strata::python
