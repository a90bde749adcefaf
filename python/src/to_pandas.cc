// strata columns as the pieces of pandas columns. Each column becomes a spec tuple that
// strata/_pandas.py assembles (pandas' own constructors, once per column):
//   ("numpy", array)                  a numpy array used as is
//   ("masked", values, mask)          IntegerArray / FloatingArray / BooleanArray (mask: True = null)
//   ("datetime", m8[ns] array, tz)    datetime64[ns] (tz None) or datetime64[ns, tz]
//   ("object", array)                 numpy object array (None for nulls)
//   ("string", array)                 pandas "string" dtype from an object array
//   ("categorical", [(codes, categories spec), ...], ordered)   one pair per chunk
// Fixed-width values of a single-chunk column are zero-copy views of strata's buffers (see
// WrapBuffer); several chunks are copied into one array with the GIL released. The dtype is
// chosen from the field's nullability, never from whether this part of the data has nulls.
#include <cmath>
#include <cstring>
#include <limits>

#include "strata/array/bitmap.h"
#include "decimal_float.h"
#include "strata/array/value_text.h"
#include "strata_py.h"

namespace strata::python {
namespace {

py::dtype NumpyDtype(TypeId id) {
  switch (id) {
    case TypeId::kInt8: return py::dtype("int8");
    case TypeId::kInt16: return py::dtype("int16");
    case TypeId::kInt32: return py::dtype("int32");
    case TypeId::kInt64: return py::dtype("int64");
    case TypeId::kUInt8: return py::dtype("uint8");
    case TypeId::kUInt16: return py::dtype("uint16");
    case TypeId::kUInt32: return py::dtype("uint32");
    case TypeId::kUInt64: return py::dtype("uint64");
    case TypeId::kFloat16: return py::dtype("float16");
    case TypeId::kFloat32: return py::dtype("float32");
    case TypeId::kFloat64: return py::dtype("float64");
    default: return py::dtype("int64");
  }
}

// The fixed-width values of every chunk as one array: a view of the buffer when there is one
// chunk, else a copy.
py::array FixedWidthValues(const ChunkedArray& column, const py::dtype& dtype, bool writable) {
  const int64_t width = dtype.itemsize();
  if (column.num_chunks() == 1) {
    const Array& a = column.chunk(0);
    const std::shared_ptr<Buffer>& buffer = a.data()->buffers[1];
    const uint8_t* data = buffer ? buffer->data() + a.offset() * width : nullptr;
    return WrapBuffer(buffer, data, a.length(), dtype, writable);
  }
  py::array out = NewArray(dtype, column.length());
  uint8_t* dst = static_cast<uint8_t*>(out.mutable_data());
  py::gil_scoped_release release;
  for (const Array& a : column.chunks()) {
    if (a.length() == 0) continue;
    std::memcpy(dst, a.data()->buffers[1]->data() + a.offset() * width, static_cast<size_t>(a.length() * width));
    dst += a.length() * width;
  }
  return out;
}

// True where the value is null.
py::array_t<bool> NullMask(const ChunkedArray& column) {
  py::array_t<bool> mask(static_cast<py::ssize_t>(column.length()));
  bool* dst = mask.mutable_data();
  py::gil_scoped_release release;
  for (const Array& a : column.chunks()) {
    const uint8_t* validity = a.null_bitmap_data();
    const int64_t n = a.length();
    if (a.type_id() == TypeId::kNull) {
      std::memset(dst, 1, static_cast<size_t>(n));
    } else if (validity == nullptr) {
      std::memset(dst, 0, static_cast<size_t>(n));
    } else {
      for (int64_t i = 0; i < n; ++i) dst[i] = !bitmap::GetBit(validity, a.offset() + i);
    }
    dst += n;
  }
  return mask;
}

py::array_t<bool> BooleanValues(const ChunkedArray& column) {
  py::array_t<bool> out(static_cast<py::ssize_t>(column.length()));
  bool* dst = out.mutable_data();
  py::gil_scoped_release release;
  for (const Array& a : column.chunks()) {
    BooleanArray b(a.data());
    for (int64_t i = 0; i < a.length(); ++i) dst[i] = b.Value(i);
    dst += a.length();
  }
  return out;
}

// Floats with NaN in the null slots (a copy when there are nulls).
template <typename T>
py::array FloatsWithNaN(const ChunkedArray& column, const py::dtype& dtype, bool writable) {
  if (column.null_count() == 0) return FixedWidthValues(column, dtype, writable);
  py::array out = NewArray(dtype, column.length());
  T* dst = static_cast<T*>(out.mutable_data());
  py::gil_scoped_release release;
  for (const Array& a : column.chunks()) {
    PrimitiveArray<T> values(a.data());
    for (int64_t i = 0; i < a.length(); ++i) dst[i] = a.IsNull(i) ? std::numeric_limits<T>::quiet_NaN() : values.Value(i);
    dst += a.length();
  }
  return out;
}

int64_t NanosPerUnit(TimeUnit unit) { return 1000000000 / value_text::UnitsPerSecond(unit); }

// Timestamps or durations as int64 nanoseconds with NaT (INT64_MIN) for nulls, in `dtype`
// (M8[ns] or m8[ns]): a view when already nanoseconds without nulls, else converted. A value
// outside the nanosecond range (about 1677-09-21 .. 2262-04-11) is a ValueError naming the
// column and the value: pandas has no other datetime64 unit to put it in.
py::array Nanoseconds(const ChunkedArray& column, const py::dtype& dtype, const std::string& name, bool writable) {
  const TimeUnit unit = column.type()->unit();
  if (unit == TimeUnit::kNano && column.null_count() == 0) return FixedWidthValues(column, dtype, writable);
  const int64_t factor = NanosPerUnit(unit);
  py::array out = NewArray(dtype, column.length());
  int64_t* dst = static_cast<int64_t*>(out.mutable_data());
  int64_t bad_value = 0;
  bool overflow = false;
  {
    py::gil_scoped_release release;
    for (const Array& a : column.chunks()) {
      Int64Array values(a.data());
      for (int64_t i = 0; i < a.length(); ++i) {
        if (a.IsNull(i)) {
          dst[i] = std::numeric_limits<int64_t>::min();
          continue;
        }
        int64_t ns;
        if (__builtin_mul_overflow(values.Value(i), factor, &ns) || ns == std::numeric_limits<int64_t>::min()) {
          overflow = true;
          bad_value = values.Value(i);
          break;
        }
        dst[i] = ns;
      }
      if (overflow) break;
      dst += a.length();
    }
  }
  if (overflow) {
    ThrowInvalid(fmt::format("column '{}': {} {} since the epoch is outside pandas' nanosecond range", name, bad_value,
                             TimeUnitName(unit)));
  }
  return out;
}

// Decimals as float64 (decimals="float"), NaN for nulls: one loop over the unscaled values,
// no Python objects, the GIL released.
py::array DecimalsAsFloat(const ChunkedArray& column) {
  py::array_t<double> out(static_cast<py::ssize_t>(column.length()));
  double* dst = out.mutable_data();
  const int32_t scale = column.type()->scale();
  const int width = column.type()->byte_width();
  py::gil_scoped_release release;
  for (const Array& a : column.chunks()) {
    FixedSizeBinaryArray values(a.data());
    const bool has_nulls = a.null_count() > 0;
    for (int64_t i = 0; i < a.length(); ++i) {
      dst[i] = has_nulls && a.IsNull(i) ? std::numeric_limits<double>::quiet_NaN()
                                        : DecimalToDouble(values.GetValue(i), width, scale);
    }
    dst += a.length();
  }
  return out;
}

py::array DatesAsObjects(const ChunkedArray& column, const std::string& name) {
  try {
    return ChunksToObjects(column, ToPandasOptions{});
  } catch (py::error_already_set& e) {
    if (!e.matches(PyExc_ValueError)) throw;
    ThrowInvalid(fmt::format("column '{}': {}", name, py::str(e.value()).cast<std::string>()));
  }
}

// Dictionary codes of one chunk as the int array pandas takes, -1 for nulls: a view of the
// indices when there are no nulls.
py::array Codes(const Array& chunk, bool writable) {
  DictionaryArray dict(chunk.data());
  const Array& indices = dict.indices();
  const py::dtype dtype = NumpyDtype(indices.type_id());
  if (chunk.null_count() == 0) return FixedWidthValues(ChunkedArray(indices.type(), {indices}), dtype, writable);
  py::array_t<int64_t> out(static_cast<py::ssize_t>(chunk.length()));
  int64_t* dst = out.mutable_data();
  for (int64_t i = 0; i < chunk.length(); ++i) dst[i] = chunk.IsNull(i) ? -1 : dict.GetValueIndex(i);
  return out;
}

}  // namespace

py::tuple ColumnToPandas(const ChunkedArray& column, bool nullable, const std::string& name,
                         const ToPandasOptions& options) {
  const TypeId id = column.type()->id();
  const bool writable = options.exclusive;
  if (is_integer(id)) {
    py::array values = FixedWidthValues(column, NumpyDtype(id), writable);
    if (!nullable) return py::make_tuple("numpy", values);
    return py::make_tuple("masked", values, NullMask(column));
  }
  if (is_floating(id)) {
    const py::dtype dtype = NumpyDtype(id);
    if (nullable && options.nullable_floats && id != TypeId::kFloat16) {
      return py::make_tuple("masked", FixedWidthValues(column, dtype, writable), NullMask(column));
    }
    if (id == TypeId::kFloat32) return py::make_tuple("numpy", FloatsWithNaN<float>(column, dtype, writable));
    if (id == TypeId::kFloat64) return py::make_tuple("numpy", FloatsWithNaN<double>(column, dtype, writable));
    // float16 with nulls: widened to float32 to carry NaN.
    if (column.null_count() == 0) return py::make_tuple("numpy", FixedWidthValues(column, dtype, writable));
    py::array_t<float> out(static_cast<py::ssize_t>(column.length()));
    float* dst = out.mutable_data();
    for (const Array& a : column.chunks()) {
      HalfFloatArray h(a.data());
      for (int64_t i = 0; i < a.length(); ++i) dst[i] = a.IsNull(i) ? std::nanf("") : value_text::HalfToFloat(h.Value(i));
      dst += a.length();
    }
    return py::make_tuple("numpy", out);
  }
  switch (id) {
    case TypeId::kBoolean:
      if (!nullable) return py::make_tuple("numpy", BooleanValues(column));
      return py::make_tuple("masked", BooleanValues(column), NullMask(column));
    case TypeId::kTimestamp: {
      py::object tz = column.type()->timezone().empty() ? py::none() : py::object(py::str(column.type()->timezone()));
      return py::make_tuple("datetime", Nanoseconds(column, py::dtype("datetime64[ns]"), name, writable), tz);
    }
    case TypeId::kDuration:
      return py::make_tuple("numpy", Nanoseconds(column, py::dtype("timedelta64[ns]"), name, writable));
    case TypeId::kString:
    case TypeId::kLargeString:
    case TypeId::kStringView:
      return py::make_tuple(options.pandas_strings ? "string" : "object", ChunksToObjects(column, options));
    case TypeId::kDecimal32:
    case TypeId::kDecimal64:
    case TypeId::kDecimal128:
    case TypeId::kDecimal256:
      if (options.decimals_as_float) return py::make_tuple("numpy", DecimalsAsFloat(column));
      return py::make_tuple("object", ChunksToObjects(column, options));
    case TypeId::kDate32:
    case TypeId::kDate64:
      return py::make_tuple("object", DatesAsObjects(column, name));
    case TypeId::kDictionary: {
      py::list chunks;
      const TypePtr& value_type = column.type()->value_type();
      for (const Array& chunk : column.chunks()) {
        DictionaryArray dict(chunk.data());
        ChunkedArray categories(value_type, {dict.dictionary()});
        chunks.append(py::make_tuple(Codes(chunk, writable), ColumnToPandas(categories, false, name, options)));
      }
      if (column.num_chunks() == 0) {
        ChunkedArray categories(value_type, {});
        chunks.append(py::make_tuple(py::array_t<int32_t>(0), ColumnToPandas(categories, false, name, options)));
      }
      return py::make_tuple("categorical", chunks, py::bool_(column.type()->ordered()));
    }
    default:
      return py::make_tuple("object", ChunksToObjects(column, options));
  }
}

}  // namespace strata::python
