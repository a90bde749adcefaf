// strata's Status codes as Python exceptions. Every exception the module raises for a strata
// failure derives from strata.StrataError and from the builtin a Python caller expects:
//   IOError for a missing file      -> FileNotFound(StrataError, FileNotFoundError)
//   other IOError                   -> StrataIOError(StrataError, OSError)
//   Invalid                         -> InvalidInput(StrataError, ValueError)
//   Corrupt, ChecksumError          -> InvalidFile(StrataError, ValueError)
//   LimitExceeded                   -> LimitExceeded(StrataError, ValueError)
//   OutOfMemory                     -> StrataMemoryError(StrataError, MemoryError)
//   NotImplemented                  -> StrataNotImplementedError(StrataError, NotImplementedError)
// The message is strata's (file, column, row group, values involved).
#include <cerrno>

#include "strata_py.h"

namespace strata::python {
namespace {

struct ExceptionTypes {
  py::object base, file_not_found, io, invalid, invalid_file, limit, memory, not_implemented;
};

ExceptionTypes& Types() {
  static ExceptionTypes* types = new ExceptionTypes();  // lives as long as the interpreter
  return *types;
}

py::object MakeType(py::module_& m, const char* name, py::tuple bases, const char* doc) {
  py::dict ns;
  ns["__doc__"] = doc;
  ns["__module__"] = "strata";
  py::object type = py::reinterpret_borrow<py::object>(reinterpret_cast<PyObject*>(&PyType_Type))(name, bases, ns);
  m.attr(name) = type;
  return type;
}

bool IsMissingFile(const Status& status) {
  const std::string& message = status.message();
  return message.find("No such file or directory") != std::string::npos;
}

}  // namespace

void RegisterErrors(py::module_& m) {
  ExceptionTypes& t = Types();
  py::object exception = py::reinterpret_borrow<py::object>(PyExc_Exception);
  t.base = MakeType(m, "StrataError", py::make_tuple(exception), "Base of every error strata raises.");
  t.file_not_found = MakeType(m, "FileNotFound", py::make_tuple(t.base, py::handle(PyExc_FileNotFoundError)),
                              "A file to read does not exist.");
  t.io = MakeType(m, "StrataIOError", py::make_tuple(t.base, py::handle(PyExc_OSError)),
                  "Reading or writing bytes failed.");
  t.invalid = MakeType(m, "InvalidInput", py::make_tuple(t.base, py::handle(PyExc_ValueError)),
                       "An argument, option or input value strata cannot take.");
  t.invalid_file = MakeType(m, "InvalidFile", py::make_tuple(t.base, py::handle(PyExc_ValueError)),
                            "A file (or its bytes) is malformed: corrupt, or failing its checksums.");
  t.limit = MakeType(m, "LimitExceeded", py::make_tuple(t.base, py::handle(PyExc_ValueError)),
                     "A size, depth or count passed a safety limit.");
  t.memory = MakeType(m, "StrataMemoryError", py::make_tuple(t.base, py::handle(PyExc_MemoryError)),
                      "The memory pool refused an allocation.");
  t.not_implemented = MakeType(m, "StrataNotImplementedError",
                               py::make_tuple(t.base, py::handle(PyExc_NotImplementedError)),
                               "Valid input that strata does not support yet.");
}

void ThrowStatus(const Status& status) {
  ExceptionTypes& t = Types();
  py::object type;
  switch (status.code()) {
    case StatusCode::kIOError: type = IsMissingFile(status) ? t.file_not_found : t.io; break;
    case StatusCode::kInvalid: type = t.invalid; break;
    case StatusCode::kCorrupt:
    case StatusCode::kChecksumError: type = t.invalid_file; break;
    case StatusCode::kLimitExceeded: type = t.limit; break;
    case StatusCode::kOutOfMemory: type = t.memory; break;
    case StatusCode::kNotImplemented: type = t.not_implemented; break;
    default: type = py::reinterpret_borrow<py::object>(PyExc_RuntimeError); break;
  }
  if (type.ptr() == t.file_not_found.ptr()) {
    // errno, strerror, message: OSError's constructor fills .errno and .strerror.
    PyErr_SetObject(type.ptr(), py::make_tuple(ENOENT, status.message()).ptr());
  } else {
    PyErr_SetString(type.ptr(), status.message().c_str());
  }
  throw py::error_already_set();
}

void ThrowInvalid(const std::string& message) { ThrowStatus(Status(StatusCode::kInvalid, message)); }

}  // namespace strata::python
