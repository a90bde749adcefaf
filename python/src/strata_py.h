// Shared declarations of the Python module's C++ side (_strata): status to exception
// translation, numpy views of strata buffers and strata buffers over numpy memory, and the
// conversions between strata tables and the per-column specs the Python package turns into
// pandas objects. Each concept lives in its own .cc file; module.cc registers them.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>
#include <string>

#include "strata/array/array.h"
#include "strata/array/chunked_array.h"
#include "strata/array/table.h"
#include "strata/memory/buffer.h"
#include "strata/memory/memory_pool.h"
#include "strata/util/result.h"

namespace strata::python {

namespace py = pybind11;

// The pool every allocation of the module goes through (the process-wide system pool):
// _strata._pool_stats() reports its counters.
MemoryPool* Pool();

// A new uninitialised 1-d array of `length` items.
inline py::array NewArray(const py::dtype& dtype, int64_t length) {
  return py::array(dtype, std::vector<py::ssize_t>{static_cast<py::ssize_t>(length)});
}

// ---- errors.cc -------------------------------------------------------------------------------
// Registers StrataError and its subclasses on the module.
void RegisterErrors(py::module_& m);
// Raises the Python exception for `status` (see errors.cc for the mapping). Precondition: not OK.
[[noreturn]] void ThrowStatus(const Status& status);
inline void CheckStatus(const Status& status) {
  if (!status.ok()) ThrowStatus(status);
}
template <typename T>
T ValueOrThrow(Result<T> result) {
  if (!result.ok()) ThrowStatus(result.status());
  return std::move(result).ValueOrDie();
}
// fn() with the GIL released (strata reading, decoding or writing); its result is returned
// once the GIL is held again.
// Calls running inside WithoutGil now (_strata._calls_without_gil(), for the tests: another
// thread that sees it above 0 ran Python code while strata worked without the GIL).
int& CallsWithoutGil();
template <typename Fn>
auto WithoutGil(Fn&& fn) -> decltype(fn()) {
  py::gil_scoped_release release;
  // Counted inside the release: only code running while the GIL is free can see it non-zero.
  struct Count {
    Count() { __atomic_add_fetch(&CallsWithoutGil(), 1, __ATOMIC_SEQ_CST); }
    ~Count() { __atomic_sub_fetch(&CallsWithoutGil(), 1, __ATOMIC_SEQ_CST); }
  } count;
  return fn();
}
// Raises ValueError (strata.InvalidInput) with `message`.
[[noreturn]] void ThrowInvalid(const std::string& message);

// ---- buffers.cc ------------------------------------------------------------------------------
// A 1-d numpy array of `length` items of `dtype` at `data`, zero-copy: its base object holds
// `owner` (the strata buffer `data` lies in), so the memory lives as long as the array. The
// array is writable only when `writable` and the buffer has writable memory.
py::array WrapBuffer(std::shared_ptr<Buffer> owner, const void* data, int64_t length, const py::dtype& dtype,
                     bool writable);
// A strata buffer over the memory of a C-contiguous numpy array, keeping the array alive (its
// destructor takes the GIL to drop the reference). Zero-copy.
std::shared_ptr<Buffer> BufferFromNumpy(const py::array& array);
void RegisterBufferDebug(py::module_& m);

// ---- to_pandas.cc ----------------------------------------------------------------------------
struct ToPandasOptions {
  bool nullable_floats = false;   // float columns with nulls as Float32/Float64 (else NaN)
  bool pandas_strings = false;    // strings as pandas "string" dtype (else object of str)
  bool decimals_as_float = false; // decimals as float64 (else decimal.Decimal objects)
  // The table's buffers belong to this conversion alone (read_parquet): numpy views of them
  // may be writable. Otherwise (a strata.Table the caller keeps) they are read-only.
  bool exclusive = false;
};
// One column as a spec tuple the Python package assembles into a pandas object; see
// to_pandas.cc for the spec kinds. `nullable` is the field's nullability: it, not the data,
// picks the dtype, so every part of a file converts to the same dtypes.
py::tuple ColumnToPandas(const ChunkedArray& column, bool nullable, const std::string& name,
                         const ToPandasOptions& options);

// ---- to_python.cc ----------------------------------------------------------------------------
// Element i of `array` as a Python object (None for null): nested values as lists, dicts and
// (key, value) tuples, recursively.
py::object ValueToPython(const Array& array, int64_t i, const ToPandasOptions& options);
// Every element of the chunks as one numpy object array.
py::array ChunksToObjects(const ChunkedArray& column, const ToPandasOptions& options);
// A decimal128/256 value (little-endian bytes) as decimal.Decimal, or float when `as_float`.
py::object DecimalToPython(const uint8_t* bytes, const DataType& type, bool as_float);
// Days since 1970-01-01 as datetime.date (ValueError outside years 1..9999).
py::object DateToPython(int64_t days);
// A time of day in `unit` as datetime.time (nanoseconds truncated to microseconds).
py::object TimeToPython(int64_t value, TimeUnit unit);
// Initialises the datetime C API (module.cc calls it once).
void InitDatetime();

// ---- from_pandas.cc --------------------------------------------------------------------------
// A strata table from the column specs the Python package prepares out of a DataFrame.
std::shared_ptr<Table> TableFromColumnSpecs(const py::list& specs);

// ---- statistics.cc ---------------------------------------------------------------------------
// (declared in parquet_file.cc's use; see statistics.h)

// ---- registration ----------------------------------------------------------------------------
void RegisterTable(py::module_& m);
void RegisterParquet(py::module_& m);
void RegisterCsv(py::module_& m);
void RegisterStorage(py::module_& m);

// The strata Table a Python strata.Table wraps.
class PyTable {
 public:
  explicit PyTable(std::shared_ptr<Table> table) : table_(std::move(table)) {}
  const std::shared_ptr<Table>& table() const { return table_; }

 private:
  std::shared_ptr<Table> table_;
};

}  // namespace strata::python
