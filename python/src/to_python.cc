// Single strata values as Python objects, for the columns pandas keeps as objects (strings,
// binary, dates, times, decimals, nested values) and for nested values inside them: lists for
// list types, dicts for structs, lists of (key, value) tuples for maps (a map's keys need not be
// hashable or unique), None for nulls at every level.
#include <cmath>
#include <cstring>

#include "decimal_float.h"
#include "object_cache.h"
#include "strata/array/value_text.h"
#include "strata_py.h"

#include <datetime.h>  // after Python.h (strata_py.h)

namespace strata::python {
namespace {

// Days since 1970-01-01 -> proleptic Gregorian year, month, day (H. Hinnant's civil_from_days).
void CivilFromDays(int64_t days, int64_t* year, int* month, int* day) {
  days += 719468;
  const int64_t era = (days >= 0 ? days : days - 146096) / 146097;
  const int64_t doe = days - era * 146097;
  const int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const int64_t mp = (5 * doy + 2) / 153;
  *day = static_cast<int>(doy - (153 * mp + 2) / 5 + 1);
  *month = static_cast<int>(mp < 10 ? mp + 3 : mp - 9);
  *year = yoe + era * 400 + (*month <= 2);
}

py::object DateObject(int64_t days) {
  int64_t year;
  int month, day;
  CivilFromDays(days, &year, &month, &day);
  if (year < 1 || year > 9999) {
    ThrowInvalid(fmt::format("date {} days from 1970-01-01 (year {}) is outside datetime.date's years 1..9999", days,
                             year));
  }
  return py::reinterpret_steal<py::object>(PyDate_FromDate(static_cast<int>(year), month, day));
}

py::object TimeObject(int64_t value, TimeUnit unit) {
  const int64_t per_second = value_text::UnitsPerSecond(unit);
  const int64_t seconds = value_text::FloorDiv(value, per_second);
  const int64_t fraction = value - seconds * per_second;
  // datetime.time holds microseconds: nanoseconds are truncated.
  const int64_t micros = per_second >= 1000000 ? fraction / (per_second / 1000000) : fraction * (1000000 / per_second);
  if (seconds < 0 || seconds >= 86400) ThrowInvalid(fmt::format("time of day {} ({}) is outside one day", value, TimeUnitName(unit)));
  return py::reinterpret_steal<py::object>(PyTime_FromTime(static_cast<int>(seconds / 3600), static_cast<int>(seconds / 60 % 60),
                                                           static_cast<int>(seconds % 60), static_cast<int>(micros)));
}

std::string DecimalText(const uint8_t* bytes, const DataType& type) {
  value_text::DecimalDigits digits;
  value_text::ToDecimalDigits(bytes, type.byte_width(), &digits);
  std::string text(static_cast<size_t>(value_text::DecimalTextLength(digits, type.scale())), '\0');
  value_text::WriteDecimal(digits, type.scale(), text.data());
  return text;
}

py::object& DecimalClass() {
  static py::object* cls = new py::object(py::module_::import("decimal").attr("Decimal"));
  return *cls;
}

py::object& PandasAttr(const char* name) {
  static py::object* pandas = new py::object(py::module_::import("pandas"));
  return *new py::object(pandas->attr(name));  // a few per conversion; cached by callers
}


template <typename T>
T Load(const Array& array, int64_t i) {
  return PrimitiveArray<T>(array.data()).Value(i);
}

py::object Bytes(std::string_view v) { return py::reinterpret_steal<py::object>(PyBytes_FromStringAndSize(v.data(), static_cast<py::ssize_t>(v.size()))); }
py::object Text(std::string_view v) {
  PyObject* s = PyUnicode_DecodeUTF8(v.data(), static_cast<py::ssize_t>(v.size()), "replace");
  if (s == nullptr) throw py::error_already_set();
  return py::reinterpret_steal<py::object>(s);
}

}  // namespace

void InitDatetime() { PyDateTime_IMPORT; }

py::object DecimalToPython(const uint8_t* bytes, const DataType& type, bool as_float) {
  if (as_float) return py::float_(DecimalToDouble(bytes, type.byte_width(), type.scale()));
  return DecimalClass()(DecimalText(bytes, type));
}

py::object DateToPython(int64_t days) { return DateObject(days); }

py::object TimeToPython(int64_t value, TimeUnit unit) { return TimeObject(value, unit); }

py::object ValueToPython(const Array& array, int64_t i, const ToPandasOptions& options) {
  if (array.IsNull(i)) return py::none();
  const DataType& type = *array.type();
  switch (type.id()) {
    case TypeId::kNull: return py::none();
    case TypeId::kBoolean: return py::bool_(BooleanArray(array.data()).Value(i));
    case TypeId::kInt8: return py::int_(Load<int8_t>(array, i));
    case TypeId::kInt16: return py::int_(Load<int16_t>(array, i));
    case TypeId::kInt32: return py::int_(Load<int32_t>(array, i));
    case TypeId::kInt64: return py::int_(Load<int64_t>(array, i));
    case TypeId::kUInt8: return py::int_(Load<uint8_t>(array, i));
    case TypeId::kUInt16: return py::int_(Load<uint16_t>(array, i));
    case TypeId::kUInt32: return py::int_(Load<uint32_t>(array, i));
    case TypeId::kUInt64: return py::int_(Load<uint64_t>(array, i));
    case TypeId::kFloat16: return py::float_(value_text::HalfToFloat(Load<uint16_t>(array, i)));
    case TypeId::kFloat32: return py::float_(Load<float>(array, i));
    case TypeId::kFloat64: return py::float_(Load<double>(array, i));
    case TypeId::kDecimal32:
    case TypeId::kDecimal64:
    case TypeId::kDecimal128:
    case TypeId::kDecimal256:
      return DecimalToPython(FixedSizeBinaryArray(array.data()).GetValue(i), type, options.decimals_as_float);
    case TypeId::kDate32: return DateObject(Load<int32_t>(array, i));
    case TypeId::kDate64: return DateObject(value_text::FloorDiv(Load<int64_t>(array, i), 86400000));
    case TypeId::kTime32: return TimeObject(Load<int32_t>(array, i), type.unit());
    case TypeId::kTime64: return TimeObject(Load<int64_t>(array, i), type.unit());
    case TypeId::kTimestamp: {
      static py::object& timestamp = PandasAttr("Timestamp");
      py::object tz = type.timezone().empty() ? py::none() : py::object(py::str(type.timezone()));
      return timestamp(Load<int64_t>(array, i), py::arg("unit") = std::string(TimeUnitName(type.unit())),
                       py::arg("tz") = tz);
    }
    case TypeId::kDuration: {
      static py::object& timedelta = PandasAttr("Timedelta");
      return timedelta(Load<int64_t>(array, i), py::arg("unit") = std::string(TimeUnitName(type.unit())));
    }
    case TypeId::kIntervalYearMonth:
    case TypeId::kIntervalDayTime:
    case TypeId::kIntervalMonthDayNano: {
      // pandas.DateOffset keeps the three parts apart, as the type does (a timedelta would
      // have to fix the length of a month); adding one to a Timestamp applies the calendar.
      static py::object& date_offset = PandasAttr("DateOffset");
      const MonthDayNano value =
          LoadIntervalAsMonthDayNano(type.id(), array.data()->buffers[1]->data(), array.offset() + i);
      return date_offset(py::arg("months") = value.months, py::arg("days") = value.days,
                         py::arg("nanoseconds") = value.nanoseconds);
    }
    case TypeId::kString: return Text(StringArray(array.data()).GetView(i));
    case TypeId::kLargeString: return Text(LargeStringArray(array.data()).GetView(i));
    case TypeId::kStringView: return Text(BinaryViewArray(array.data()).GetView(i));
    case TypeId::kBinary: return Bytes(StringArray(array.data()).GetView(i));
    case TypeId::kLargeBinary: return Bytes(LargeBinaryArray(array.data()).GetView(i));
    case TypeId::kBinaryView: return Bytes(BinaryViewArray(array.data()).GetView(i));
    case TypeId::kFixedSizeBinary: return Bytes(FixedSizeBinaryArray(array.data()).GetView(i));
    case TypeId::kList: {
      ListArray<int32_t> list(array.data());
      const int64_t start = list.value_offset(i), n = list.value_length(i);
      py::list out(n);
      for (int64_t k = 0; k < n; ++k) out[k] = ValueToPython(list.values(), start + k, options);
      return out;
    }
    case TypeId::kLargeList: {
      ListArray<int64_t> list(array.data());
      const int64_t start = list.value_offset(i), n = list.value_length(i);
      py::list out(n);
      for (int64_t k = 0; k < n; ++k) out[k] = ValueToPython(list.values(), start + k, options);
      return out;
    }
    case TypeId::kFixedSizeList: {
      FixedSizeListArray list(array.data());
      const int64_t start = list.value_offset(i), n = list.list_size();
      py::list out(n);
      for (int64_t k = 0; k < n; ++k) out[k] = ValueToPython(list.values(), start + k, options);
      return out;
    }
    case TypeId::kStruct: {
      py::dict out;
      for (int f = 0; f < type.num_fields(); ++f) {
        const Array child(array.data()->children[static_cast<size_t>(f)]);
        out[py::str(type.field(f)->name())] = ValueToPython(child, array.offset() + i, options);
      }
      return out;
    }
    case TypeId::kMap: {
      MapArray map(array.data());
      const int64_t start = map.value_offset(i), n = map.value_length(i);
      py::list out(n);
      for (int64_t k = 0; k < n; ++k) {
        out[k] = py::make_tuple(ValueToPython(map.keys(), start + k, options),
                                ValueToPython(map.items(), start + k, options));
      }
      return out;
    }
    case TypeId::kDictionary: {
      DictionaryArray dict(array.data());
      return ValueToPython(dict.dictionary(), dict.GetValueIndex(i), options);
    }
    case TypeId::kSparseUnion:
    case TypeId::kDenseUnion: {
      // The member's value (None when it is null), as pyarrow's as_py() gives it.
      UnionArray u(array.data());
      const int c = u.child_index(i);
      if (c < 0) ThrowInvalid(fmt::format("union value {} has type id {}, which names no member", i, u.type_code(i)));
      return ValueToPython(Array(array.data()->children[static_cast<size_t>(c)]), u.value_offset(i), options);
    }
    case TypeId::kRunEndEncoded: {
      RunEndEncodedArray ree(array.data());
      return ValueToPython(Array(array.data()->children[1]), ree.PhysicalIndex(i), options);
    }
    case TypeId::kListView:
    case TypeId::kLargeListView: {
      const bool large = type.id() == TypeId::kLargeListView;
      const ArrayData& d = *array.data();
      const int64_t j = d.offset + i;
      const int64_t start = large ? d.buffers[1]->data_as<int64_t>()[j] : d.buffers[1]->data_as<int32_t>()[j];
      const int64_t n = large ? d.buffers[2]->data_as<int64_t>()[j] : d.buffers[2]->data_as<int32_t>()[j];
      const Array values(d.children[0]);
      py::list out(n);
      for (int64_t k = 0; k < n; ++k) out[k] = ValueToPython(values, start + k, options);
      return out;
    }
  }
  ThrowInvalid(fmt::format("internal: no Python value for type {}", type.ToString()));
}

namespace {

// Strings and binary in one tight loop: no per-value dispatch, objects written straight into
// the numpy object array; repeated values share one object through `memo`.
template <typename ArrayT, bool kText>
void FillBytesObjects(const Array& chunk, ObjectMemo<std::string_view>* memo, PyObject** out) {
  ArrayT a(chunk.data());
  const int64_t n = a.length();
  const bool has_nulls = a.null_count() > 0;
  for (int64_t i = 0; i < n; ++i) {
    if (has_nulls && a.IsNull(i)) {
      Py_INCREF(Py_None);
      out[i] = Py_None;
      continue;
    }
    const std::string_view v = a.GetView(i);
    const auto make = [v] {
      return kText ? PyUnicode_DecodeUTF8(v.data(), static_cast<py::ssize_t>(v.size()), "replace")
                   : PyBytes_FromStringAndSize(v.data(), static_cast<py::ssize_t>(v.size()));
    };
    PyObject* obj = v.size() <= kMaxMemoBytes ? memo->Get(v, make) : make();
    if (obj == nullptr) throw py::error_already_set();
    out[i] = obj;
  }
}

// Dates and times of day: few distinct values in most columns, and building each object is
// most of the cost, so each distinct value is made once through `memo`.
template <typename T, typename Make>
void FillTemporalObjects(const Array& chunk, ObjectMemo<int64_t>* memo, Make&& make, PyObject** out) {
  const PrimitiveArray<T> values(chunk.data());
  const bool has_nulls = chunk.null_count() > 0;
  for (int64_t i = 0; i < chunk.length(); ++i) {
    if (has_nulls && chunk.IsNull(i)) {
      Py_INCREF(Py_None);
      out[i] = Py_None;
      continue;
    }
    const int64_t value = values.Value(i);
    PyObject* obj = memo->Get(value, [&] { return make(value).release().ptr(); });
    if (obj == nullptr) throw py::error_already_set();
    out[i] = obj;
  }
}

void FillTemporalObjects(const Array& chunk, ObjectMemo<int64_t>* memo, PyObject** out) {
  const TimeUnit unit = chunk.type()->unit();
  const auto time = [unit](int64_t value) { return TimeObject(value, unit); };
  switch (chunk.type_id()) {
    case TypeId::kDate32: return FillTemporalObjects<int32_t>(chunk, memo, DateObject, out);
    case TypeId::kDate64:
      // Keyed by the milliseconds: a date64 is meant to hold whole days, so they still repeat.
      return FillTemporalObjects<int64_t>(
          chunk, memo, [](int64_t ms) { return DateObject(value_text::FloorDiv(ms, 86400000)); }, out);
    case TypeId::kTime32: return FillTemporalObjects<int32_t>(chunk, memo, time, out);
    default: return FillTemporalObjects<int64_t>(chunk, memo, time, out);
  }
}

}  // namespace

py::array ChunksToObjects(const ChunkedArray& column, const ToPandasOptions& options) {
  // np.empty(n, object) holds None in every slot: each slot below is replaced (its None
  // reference dropped) exactly once.
  py::array out = NewArray(py::dtype("O"), column.length());
  PyObject** slots = static_cast<PyObject**>(out.mutable_data());
  int64_t position = 0;
  // Per column: its chunks' buffers (the string memo's keys) outlive the loop.
  ObjectMemo<std::string_view> strings;
  ObjectMemo<int64_t> temporal;
  for (const Array& chunk : column.chunks()) {
    PyObject** dst = slots + position;
    for (int64_t i = 0; i < chunk.length(); ++i) {
      Py_XDECREF(dst[i]);
      dst[i] = nullptr;
    }
    try {
      switch (chunk.type_id()) {
        case TypeId::kString: FillBytesObjects<StringArray, true>(chunk, &strings, dst); break;
        case TypeId::kLargeString: FillBytesObjects<LargeStringArray, true>(chunk, &strings, dst); break;
        case TypeId::kStringView: FillBytesObjects<BinaryViewArray, true>(chunk, &strings, dst); break;
        case TypeId::kBinary: FillBytesObjects<StringArray, false>(chunk, &strings, dst); break;
        case TypeId::kLargeBinary: FillBytesObjects<LargeBinaryArray, false>(chunk, &strings, dst); break;
        case TypeId::kBinaryView: FillBytesObjects<BinaryViewArray, false>(chunk, &strings, dst); break;
        case TypeId::kDate32:
        case TypeId::kDate64:
        case TypeId::kTime32:
        case TypeId::kTime64: FillTemporalObjects(chunk, &temporal, dst); break;
        default:
          for (int64_t i = 0; i < chunk.length(); ++i) {
            dst[i] = ValueToPython(chunk, i, options).release().ptr();
          }
      }
    } catch (...) {
      // Leave every slot holding a reference so the array can be freed.
      for (int64_t i = 0; i < chunk.length(); ++i) {
        if (dst[i] == nullptr) {
          Py_INCREF(Py_None);
          dst[i] = Py_None;
        }
      }
      throw;
    }
    position += chunk.length();
  }
  return out;
}

}  // namespace strata::python
