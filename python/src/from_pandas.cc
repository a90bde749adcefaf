// pandas columns as strata arrays, for write_parquet and write_csv. strata/_pandas.py turns
// each DataFrame column into a spec (the numpy pieces of it); this file builds the arrays:
//   ("numeric", name, values, mask|None)   int/uint/float numpy values: zero-copy (the strata
//                                          buffer holds the numpy array); bool: bit-packed copy;
//                                          mask (True = null) from pandas' nullable dtypes
//   ("datetime", name, int64 ns, tz|None)  timestamp[ns] (NaT = null), values zero-copy
//   ("timedelta", name, int64 ns)          duration[ns] (NaT = null), values zero-copy
//   ("categorical", name, codes, categories spec, ordered)   dictionary<values, int32>
//   ("string", name, object array)         pandas' string dtype: string, whatever the values
//   ("object", name, object array)         the type inferred from the values: str -> string,
//                                          bytes -> binary, bool, int -> int64, float -> float64,
//                                          Decimal -> decimal128(38, s) (decimal256(76, s) beyond
//                                          38 digits; s the largest scale of the values),
//                                          datetime.date -> date32, datetime.time -> time64[us],
//                                          list/tuple
//                                          -> list<...>, dict -> struct<...> (keys in first-seen
//                                          order); None, NaN, pd.NA and pd.NaT are null (a column of
//                                          nulls only is a string column). Values of
//                                          different kinds are a ValueError naming the column and
//                                          the first offending row.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "strata/array/array_builder.h"
#include "strata/array/binary_builder.h"
#include "strata/array/boolean_builder.h"
#include "strata/array/fixed_size_binary_builder.h"
#include "strata/array/list_builder.h"
#include "strata/array/primitive_builder.h"
#include "strata/array/struct_builder.h"
#include "strata/array/validate.h"
#include "strata_py.h"

#include <datetime.h>  // after Python.h (strata_py.h)

namespace strata::python {
namespace {

struct Column {
  FieldPtr field;
  Array array;
};

// Validity bits from a pandas mask (True = null); nullptr when nothing is null.
std::shared_ptr<Buffer> ValidityFromMask(const py::object& mask_object, int64_t length, int64_t* null_count) {
  *null_count = 0;
  if (mask_object.is_none()) return nullptr;
  auto mask = py::array_t<bool, py::array::c_style | py::array::forcecast>::ensure(mask_object);
  if (!mask || mask.size() != length) ThrowInvalid("internal: a null mask does not match its values");
  const bool* m = mask.data();
  int64_t nulls = 0;
  for (int64_t i = 0; i < length; ++i) nulls += m[i];
  *null_count = nulls;
  if (nulls == 0) return nullptr;
  auto buffer = ValueOrThrow(AllocateBuffer(Pool(), bitmap::BytesForBits(length)));
  uint8_t* bits = buffer->mutable_data();
  std::memset(bits, 0, static_cast<size_t>(buffer->size()));
  for (int64_t i = 0; i < length; ++i) {
    if (!m[i]) bitmap::SetBit(bits, i);
  }
  return buffer;
}

TypePtr NumericType(const py::dtype& dtype, const std::string& name) {
  const char kind = dtype.kind();
  const auto size = dtype.itemsize();
  if (kind == 'i') return size == 1 ? int8() : size == 2 ? int16() : size == 4 ? int32() : int64();
  if (kind == 'u') return size == 1 ? uint8() : size == 2 ? uint16() : size == 4 ? uint32() : uint64();
  if (kind == 'f' && size == 2) return float16();
  if (kind == 'f' && size == 4) return float32();
  if (kind == 'f' && size == 8) return float64();
  if (kind == 'b') return boolean();
  ThrowInvalid(fmt::format("column '{}': numpy dtype {} cannot be written", name, py::str(py::handle(dtype)).cast<std::string>()));
}

Column NumericColumn(const std::string& name, const py::array& values, const py::object& mask) {
  const int64_t length = values.size();
  TypePtr type = NumericType(values.dtype(), name);
  int64_t null_count = 0;
  std::shared_ptr<Buffer> validity = ValidityFromMask(mask, length, &null_count);
  std::shared_ptr<Buffer> data;
  if (type->id() == TypeId::kBoolean) {
    data = ValueOrThrow(AllocateBuffer(Pool(), bitmap::BytesForBits(length)));
    bitmap::PackBools(static_cast<const uint8_t*>(values.data()), length, data->mutable_data(), 0);
  } else {
    data = BufferFromNumpy(values);  // zero-copy
  }
  auto array = ArrayData::Make(type, length, {validity, data}, null_count);
  return {field(name, type, !mask.is_none()), Array(array)};
}

// int64 nanoseconds with NaT (INT64_MIN) as null: the values shared, a bitmap for the NaTs.
Column NanosecondColumn(const std::string& name, const py::array& values, TypePtr type) {
  const int64_t length = values.size();
  const int64_t* v = static_cast<const int64_t*>(values.data());
  int64_t nulls = 0;
  for (int64_t i = 0; i < length; ++i) nulls += v[i] == INT64_MIN;
  std::shared_ptr<Buffer> validity;
  if (nulls > 0) {
    auto bits = ValueOrThrow(AllocateBuffer(Pool(), bitmap::BytesForBits(length)));
    std::memset(bits->mutable_data(), 0, static_cast<size_t>(bits->size()));
    for (int64_t i = 0; i < length; ++i) {
      if (v[i] != INT64_MIN) bitmap::SetBit(bits->mutable_data(), i);
    }
    validity = bits;
  }
  auto array = ArrayData::Make(type, length, {validity, BufferFromNumpy(values)}, nulls);
  return {field(name, type, true), Array(array)};
}

// ---- object columns --------------------------------------------------------------------------

enum class Kind { kNull, kBool, kInt, kFloat, kStr, kBytes, kDecimal, kDate, kTime, kList, kDict, kOther };

const char* KindName(Kind k) {
  switch (k) {
    case Kind::kNull: return "null";
    case Kind::kBool: return "bool";
    case Kind::kInt: return "int";
    case Kind::kFloat: return "float";
    case Kind::kStr: return "str";
    case Kind::kBytes: return "bytes";
    case Kind::kDecimal: return "Decimal";
    case Kind::kDate: return "datetime.date";
    case Kind::kTime: return "datetime.time";
    case Kind::kList: return "list";
    case Kind::kDict: return "dict";
    case Kind::kOther: return "other";
  }
  return "other";
}

struct PythonTypes {
  py::object decimal, na, nat;
};
PythonTypes& Types() {
  static PythonTypes* t = [] {
    auto* types = new PythonTypes();
    types->decimal = py::module_::import("decimal").attr("Decimal");
    py::module_ pandas = py::module_::import("pandas");
    types->na = pandas.attr("NA");
    types->nat = pandas.attr("NaT");
    return types;
  }();
  return *t;
}

bool IsNull(PyObject* v) {
  if (v == Py_None) return true;
  if (PyFloat_Check(v)) return std::isnan(PyFloat_AS_DOUBLE(v));
  PythonTypes& t = Types();
  return v == t.na.ptr() || v == t.nat.ptr();
}

Kind KindOf(PyObject* v) {
  if (IsNull(v)) return Kind::kNull;
  if (PyBool_Check(v)) return Kind::kBool;
  if (PyLong_Check(v)) return Kind::kInt;
  if (PyFloat_Check(v)) return Kind::kFloat;
  if (PyUnicode_Check(v)) return Kind::kStr;
  if (PyBytes_Check(v)) return Kind::kBytes;
  if (PyDateTime_Check(v)) return Kind::kOther;  // a datetime is a date too: not a date32
  if (PyDate_Check(v)) return Kind::kDate;
  if (PyTime_Check(v)) return Kind::kTime;
  if (PyList_Check(v) || PyTuple_Check(v)) return Kind::kList;
  if (PyDict_Check(v)) return Kind::kDict;
  if (PyObject_IsInstance(v, Types().decimal.ptr()) == 1) return Kind::kDecimal;
  return Kind::kOther;
}

std::string Repr(PyObject* v) {
  std::string text = py::repr(py::handle(v)).cast<std::string>();
  if (text.size() > 60) text = text.substr(0, 57) + "...";
  return text;
}

// Where a value sits, for messages: "column 'c' row 3" or "column 'c' row 3, element 1".
struct Place {
  std::string name;
  std::string what = "row";
};

[[noreturn]] void Mixed(const Place& place, int64_t index, PyObject* v, Kind expected) {
  ThrowInvalid(fmt::format("column '{}': {} {} holds {} ({}), not a {} like the values before it", place.name,
                           place.what, index, Repr(v), Py_TYPE(v)->tp_name, KindName(expected)));
}

// Digits and exponent of a Decimal (sign, digits tuple, exponent).
struct DecimalParts {
  int64_t digits = 0;
  int64_t exponent = 0;
};
DecimalParts PartsOf(PyObject* v, const Place& place, int64_t index) {
  py::tuple t = py::handle(v).attr("as_tuple")();
  py::object exponent = t[2];
  if (!py::isinstance<py::int_>(exponent)) {
    ThrowInvalid(fmt::format("column '{}': {} {} holds {}, which a decimal column cannot hold", place.name,
                             place.what, index, Repr(v)));
  }
  return {static_cast<int64_t>(py::len(t[1])), exponent.cast<int64_t>()};
}

TypePtr InferType(const std::vector<PyObject*>& values, const Place& place);

TypePtr InferListType(const std::vector<PyObject*>& values, const Place& place) {
  std::vector<PyObject*> elements;
  for (PyObject* v : values) {
    if (IsNull(v)) continue;
    py::sequence seq = py::reinterpret_borrow<py::sequence>(v);
    for (py::handle e : seq) elements.push_back(e.ptr());
  }
  Place inner{place.name, "list element"};
  return list(InferType(elements, inner));
}

TypePtr InferStructType(const std::vector<PyObject*>& values, const Place& place) {
  std::vector<std::string> keys;
  for (PyObject* v : values) {
    if (IsNull(v)) continue;
    for (auto item : py::reinterpret_borrow<py::dict>(v)) {
      if (!py::isinstance<py::str>(item.first)) {
        ThrowInvalid(fmt::format("column '{}': dict key {} is not a string (struct members are named by str keys)",
                                 place.name, Repr(item.first.ptr())));
      }
      std::string key = item.first.cast<std::string>();
      if (std::find(keys.begin(), keys.end(), key) == keys.end()) keys.push_back(key);
    }
  }
  std::vector<FieldPtr> fields;
  for (const std::string& key : keys) {
    std::vector<PyObject*> members;
    for (PyObject* v : values) {
      if (IsNull(v)) continue;
      PyObject* member = PyDict_GetItemString(v, key.c_str());  // borrowed; null when missing
      members.push_back(member != nullptr ? member : Py_None);
    }
    fields.push_back(field(key, InferType(members, Place{place.name + "." + key, place.what})));
  }
  return struct_(std::move(fields));
}

TypePtr InferType(const std::vector<PyObject*>& values, const Place& place) {
  Kind kind = Kind::kNull;
  int64_t max_integer_digits = 1, max_scale = 0;
  for (size_t i = 0; i < values.size(); ++i) {
    PyObject* v = values[i];
    Kind k = KindOf(v);
    if (k == Kind::kNull) continue;
    if (k == Kind::kOther) {
      ThrowInvalid(fmt::format("column '{}': {} {} holds {} ({}), which strata cannot write", place.name, place.what, i,
                               Repr(v), Py_TYPE(v)->tp_name));
    }
    if (kind == Kind::kNull) kind = k;
    // ints among floats (or floats among ints) make a float column, as pandas does.
    if ((kind == Kind::kInt && k == Kind::kFloat) || (kind == Kind::kFloat && k == Kind::kInt)) {
      kind = Kind::kFloat;
      continue;
    }
    if (k != kind) Mixed(place, static_cast<int64_t>(i), v, kind);
    if (k == Kind::kDecimal) {
      DecimalParts parts = PartsOf(v, place, static_cast<int64_t>(i));
      max_scale = std::max(max_scale, -parts.exponent);
      max_integer_digits = std::max(max_integer_digits, parts.digits + parts.exponent);
    }
  }
  switch (kind) {
    case Kind::kNull: return null();
    case Kind::kBool: return boolean();
    case Kind::kInt: return int64();
    case Kind::kFloat: return float64();
    case Kind::kStr: return utf8();
    case Kind::kBytes: return binary();
    case Kind::kDate: return date32();
    case Kind::kTime: return time64(TimeUnit::kMicro);
    case Kind::kList: return InferListType(values, place);
    case Kind::kDict: return InferStructType(values, place);
    case Kind::kDecimal: {
      // The widest precision of the narrowest decimal type that holds the values, not the
      // precision they need: parts of one dataset written separately (Dask partitions) then
      // agree on the type whatever their values. The scale is the largest the values have.
      const int64_t needed = std::max<int64_t>(1, max_integer_digits + max_scale);
      if (needed > 76) {
        ThrowInvalid(fmt::format("column '{}': decimals need {} digits, more than decimal256's 76", place.name, needed));
      }
      const int32_t precision = needed <= 38 ? 38 : 76;
      return ValueOrThrow(MakeDecimal(precision, static_cast<int32_t>(max_scale)));
    }
    case Kind::kOther: break;
  }
  ThrowInvalid(fmt::format("column '{}': no type for its values", place.name));
}

int64_t DaysFromCivil(int64_t y, unsigned m, unsigned d) {
  y -= m <= 2;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const unsigned yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<int64_t>(doe) - 719468;
}

void AppendValue(ArrayBuilder* builder, const DataType& type, PyObject* v, const Place& place, int64_t index) {
  if (IsNull(v)) {
    CheckStatus(builder->AppendNull());
    return;
  }
  switch (type.id()) {
    case TypeId::kNull: CheckStatus(builder->AppendNull()); return;
    case TypeId::kBoolean: CheckStatus(static_cast<BooleanBuilder*>(builder)->Append(v == Py_True)); return;
    case TypeId::kInt64: {
      int overflow = 0;
      const long long value = PyLong_AsLongLongAndOverflow(v, &overflow);
      if (overflow != 0) {
        ThrowInvalid(fmt::format("column '{}': {} {} holds {}, outside int64", place.name, place.what, index, Repr(v)));
      }
      CheckStatus(static_cast<Int64Builder*>(builder)->Append(value));
      return;
    }
    case TypeId::kFloat64: CheckStatus(static_cast<DoubleBuilder*>(builder)->Append(PyFloat_AsDouble(v))); return;
    case TypeId::kString: {
      if (!PyUnicode_Check(v)) Mixed(place, index, v, Kind::kStr);
      py::ssize_t size = 0;
      const char* text = PyUnicode_AsUTF8AndSize(v, &size);
      if (text == nullptr) throw py::error_already_set();  // lone surrogates
      CheckStatus(static_cast<StringBuilder*>(builder)->Append(text, size));
      return;
    }
    case TypeId::kBinary:
      if (!PyBytes_Check(v)) Mixed(place, index, v, Kind::kBytes);
      CheckStatus(static_cast<StringBuilder*>(builder)->Append(PyBytes_AS_STRING(v), PyBytes_GET_SIZE(v)));
      return;
    case TypeId::kDate32: {
      const int64_t days = DaysFromCivil(PyDateTime_GET_YEAR(v), PyDateTime_GET_MONTH(v), PyDateTime_GET_DAY(v));
      CheckStatus(static_cast<Int32Builder*>(builder)->Append(static_cast<int32_t>(days)));
      return;
    }
    case TypeId::kTime64: {
      if (!PyTime_Check(v)) Mixed(place, index, v, Kind::kTime);
      if (PyDateTime_TIME_GET_TZINFO(v) != Py_None) {
        ThrowInvalid(fmt::format("column '{}': {} {} holds {}: times with a time zone cannot be written", place.name,
                                 place.what, index, Repr(v)));
      }
      const int64_t micros = ((PyDateTime_TIME_GET_HOUR(v) * 60 + PyDateTime_TIME_GET_MINUTE(v)) * 60 +
                              int64_t{PyDateTime_TIME_GET_SECOND(v)}) * 1000000 + PyDateTime_TIME_GET_MICROSECOND(v);
      CheckStatus(static_cast<Int64Builder*>(builder)->Append(micros));
      return;
    }
    case TypeId::kDecimal128:
    case TypeId::kDecimal256: {
      // The unscaled integer: digits * 10^(exponent + scale), exact (no decimal context).
      py::tuple t = py::handle(v).attr("as_tuple")();
      std::string digits;
      for (py::handle d : py::reinterpret_borrow<py::tuple>(t[1])) digits += static_cast<char>('0' + d.cast<int>());
      const int64_t shift = t[2].cast<int64_t>() + type.scale();
      py::object unscaled = py::int_(py::str(digits.empty() ? "0" : digits)).attr("__mul__")(
          py::int_(10).attr("__pow__")(shift));
      if (t[0].cast<int>() == 1) unscaled = unscaled.attr("__neg__")();
      py::bytes bytes = unscaled.attr("to_bytes")(type.byte_width(), "little", py::arg("signed") = true);
      CheckStatus(static_cast<FixedSizeBinaryBuilder*>(builder)->Append(std::string_view(bytes)));
      return;
    }
    case TypeId::kList: {
      auto* list_builder = static_cast<ListBuilder<int32_t>*>(builder);
      CheckStatus(list_builder->Append(true));
      py::sequence seq = py::reinterpret_borrow<py::sequence>(v);
      int64_t k = 0;
      Place inner{place.name, "list element"};
      for (py::handle e : seq) {
        AppendValue(list_builder->value_builder(), *type.list_value_type(), e.ptr(), inner, k++);
      }
      return;
    }
    case TypeId::kStruct: {
      auto* struct_builder = static_cast<StructBuilder*>(builder);
      CheckStatus(struct_builder->Append());
      for (int f = 0; f < type.num_fields(); ++f) {
        PyObject* member = PyDict_GetItemString(v, type.field(f)->name().c_str());
        AppendValue(struct_builder->field_builder(f), *type.field(f)->type(), member != nullptr ? member : Py_None,
                    Place{place.name + "." + type.field(f)->name(), place.what}, index);
      }
      return;
    }
    default: break;
  }
  ThrowInvalid(fmt::format("column '{}': cannot write {} as {}", place.name, Repr(v), type.ToString()));
}

// `type`: the column's type when the dtype says it (pandas' string dtype), else inferred.
Column ObjectColumn(const std::string& name, const py::array& values, TypePtr type = nullptr) {
  if (PyDateTimeAPI == nullptr) PyDateTime_IMPORT;  // per translation unit
  const int64_t length = values.size();
  PyObject* const* slots = static_cast<PyObject* const*>(values.data());
  std::vector<PyObject*> objects(slots, slots + length);
  Place place{name, "row"};
  if (type == nullptr) type = InferType(objects, place);
  // Only nulls: a string column (what object columns mostly hold), not the null type, so that a
  // part of a dataset whose strings happen to be all null has the other parts' type.
  if (type->id() == TypeId::kNull) type = utf8();
  auto builder = ValueOrThrow(MakeBuilder(type, Pool()));
  CheckStatus(builder->Reserve(length));
  for (int64_t i = 0; i < length; ++i) AppendValue(builder.get(), *type, objects[static_cast<size_t>(i)], place, i);
  return {field(name, type, true), Array(ValueOrThrow(builder->Finish()))};
}

Column CategoricalColumn(const std::string& name, const py::array& codes_object, const Column& categories,
                         bool ordered) {
  auto codes = py::array_t<int64_t, py::array::c_style | py::array::forcecast>::ensure(codes_object);
  const int64_t length = codes.size();
  const int64_t* c = codes.data();
  auto indices = ValueOrThrow(AllocateBuffer(Pool(), length * 4));
  int32_t* out = indices->mutable_data_as<int32_t>();
  int64_t nulls = 0;
  for (int64_t i = 0; i < length; ++i) {
    nulls += c[i] < 0;
    out[i] = c[i] < 0 ? 0 : static_cast<int32_t>(c[i]);
  }
  std::shared_ptr<Buffer> validity;
  if (nulls > 0) {
    auto bits = ValueOrThrow(AllocateBuffer(Pool(), bitmap::BytesForBits(length)));
    std::memset(bits->mutable_data(), 0, static_cast<size_t>(bits->size()));
    for (int64_t i = 0; i < length; ++i) {
      if (c[i] >= 0) bitmap::SetBit(bits->mutable_data(), i);
    }
    validity = bits;
  }
  TypePtr type = dictionary(int32(), categories.array.type(), ordered);
  auto data = ArrayData::Make(type, length, {validity, indices}, nulls);
  data->dictionary = categories.array.data();
  return {field(name, type, true), Array(data)};
}

Column ColumnFromSpec(const py::tuple& spec) {
  const std::string kind = spec[0].cast<std::string>();
  const std::string name = spec[1].cast<std::string>();
  if (kind == "numeric") return NumericColumn(name, spec[2].cast<py::array>(), spec[3]);
  if (kind == "datetime") {
    py::object tz = spec[3];
    return NanosecondColumn(name, spec[2].cast<py::array>(),
                            timestamp(TimeUnit::kNano, tz.is_none() ? "" : tz.cast<std::string>()));
  }
  if (kind == "timedelta") return NanosecondColumn(name, spec[2].cast<py::array>(), duration(TimeUnit::kNano));
  if (kind == "object") return ObjectColumn(name, spec[2].cast<py::array>());
  if (kind == "string") return ObjectColumn(name, spec[2].cast<py::array>(), utf8());
  if (kind == "categorical") {
    Column categories = ColumnFromSpec(spec[3].cast<py::tuple>());
    if (categories.array.null_count() > 0) ThrowInvalid(fmt::format("column '{}': categories hold a null", name));
    return CategoricalColumn(name, spec[2].cast<py::array>(), categories, spec[4].cast<bool>());
  }
  ThrowInvalid(fmt::format("internal: unknown column spec '{}'", kind));
}

}  // namespace

std::shared_ptr<Table> TableFromColumnSpecs(const py::list& specs) {
  std::vector<FieldPtr> fields;
  std::vector<std::shared_ptr<ChunkedArray>> columns;
  int64_t rows = -1;
  for (py::handle item : specs) {
    Column column = ColumnFromSpec(item.cast<py::tuple>());
    if (rows >= 0 && column.array.length() != rows) ThrowInvalid("internal: columns of different lengths");
    rows = column.array.length();
    fields.push_back(column.field);
    columns.push_back(std::make_shared<ChunkedArray>(column.field->type(), std::vector<Array>{column.array}));
  }
  return std::make_shared<Table>(schema(std::move(fields)), std::move(columns), rows < 0 ? 0 : rows);
}

}  // namespace strata::python
