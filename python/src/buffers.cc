// Memory shared between numpy and strata without copies, both ways: numpy arrays viewing
// strata buffers (the array's base is a capsule holding the buffer), and strata buffers viewing
// numpy memory (the buffer holds a reference to the array). Plus the debug helpers the tests
// use to prove it: the pool's counters and a column buffer's address.
#include "strata_py.h"

#include "strata/util/byte_size.h"

namespace strata::python {
namespace {

// A strata buffer over a numpy array's memory. The destructor may run on any thread (a writer
// thread drops the last reference), so it takes the GIL before releasing the array.
class NumpyBuffer final : public Buffer {
 public:
  NumpyBuffer(const py::array& array)
      : Buffer(static_cast<const uint8_t*>(array.data()), static_cast<int64_t>(array.nbytes())) {
    array_ = array.ptr();
    Py_INCREF(array_);
  }
  ~NumpyBuffer() override {
    if (Py_IsInitialized()) {
      py::gil_scoped_acquire gil;
      Py_DECREF(array_);
    }
  }

 private:
  PyObject* array_;
};

}  // namespace

MemoryPool* Pool() { return SystemMemoryPool(); }

int& CallsWithoutGil() {
  static int calls = 0;
  return calls;
}

py::array WrapBuffer(std::shared_ptr<Buffer> owner, const void* data, int64_t length, const py::dtype& dtype,
                     bool writable) {
  const bool can_write = writable && owner != nullptr && owner->mutable_data() != nullptr;
  auto* holder = new std::shared_ptr<Buffer>(std::move(owner));
  py::capsule base(holder, [](void* p) { delete static_cast<std::shared_ptr<Buffer>*>(p); });
  // numpy needs a non-null pointer even for 0 items.
  static const uint64_t kEmpty = 0;
  const void* ptr = data != nullptr ? data : &kEmpty;
  py::array array(dtype, {static_cast<py::ssize_t>(length)}, {static_cast<py::ssize_t>(dtype.itemsize())}, ptr, base);
  if (!can_write) array.attr("setflags")(py::arg("write") = false);
  return array;
}

std::shared_ptr<Buffer> BufferFromNumpy(const py::array& array) {
  if (!(array.flags() & py::array::c_style)) ThrowInvalid("internal: a numpy array to share is not C-contiguous");
  return std::make_shared<NumpyBuffer>(array);
}

void RegisterBufferDebug(py::module_& m) {
  m.def("_pool_stats", [] {
    const MemoryStats s = Pool()->stats();
    py::dict d;
    d["bytes_allocated"] = s.bytes_in_use;
    d["bytes_in_use"] = s.bytes_in_use;
    d["peak_bytes"] = s.peak_bytes;
    d["total_bytes_allocated"] = s.total_bytes_allocated;
    d["allocations"] = s.num_allocations;
    d["reallocations"] = s.num_reallocations;
    d["frees"] = s.num_frees;
    return d;
  }, "Counters of strata's memory pool (the process-wide system pool); for tests.");
  m.def("_set_pool_limit", [](int64_t bytes) { Pool()->set_limit(bytes); }, py::arg("bytes"),
        "At most `bytes` in use in strata's pool (0: no limit); for tests of out-of-memory errors.");
  m.def("set_memory_limit", [](const py::object& limit) {
    int64_t bytes = 0;
    if (py::isinstance<py::str>(limit)) {
      bytes = ValueOrThrow(ParseByteSize(limit.cast<std::string>(), "memory limit"));
    } else if (!limit.is_none()) {
      if (py::isinstance<py::bool_>(limit) || !py::isinstance<py::int_>(limit)) {
        ThrowInvalid("set_memory_limit takes bytes (an int), text such as '512MiB', or None");
      }
      bytes = limit.cast<int64_t>();
      if (bytes < 0) ThrowInvalid("set_memory_limit: a limit cannot be negative");
    }
    Pool()->set_limit(bytes);
  }, py::arg("limit"),
        "At most `limit` bytes in strata's buffers: an int, text such as '512MiB' or '2G', or None (or 0) "
        "for no limit. Process-wide (strata's one memory pool). Readers and writers fit their batches, "
        "column windows and row groups to it; what still does not fit raises StrataMemoryError naming it.");
  m.def("memory_limit", [] { return Pool()->limit(); }, "The limit set_memory_limit set, in bytes (0: none).");
  m.def("_calls_without_gil", [] { return __atomic_load_n(&CallsWithoutGil(), __ATOMIC_SEQ_CST); },
        "strata calls running with the GIL released right now; for tests.");
}

}  // namespace strata::python
