// Object-store helpers for strata.dask: listing an s3:// prefix (the files of a dataset) and
// deleting an object (to_parquet(overwrite=True) replacing its parts). Reading and writing
// go through the readers and writers themselves, which take s3:// paths.
#include "options.h"
#include "strata/io/location.h"

namespace strata::python {
namespace {

StorageOptions Storage(const py::object& storage_options) {
  StorageOptions storage;
  storage.s3 = S3OptionsFromStorageOptions(storage_options);
  return storage;
}

// [(url, size)] of every object under the prefix, in key order.
py::list ListObjects(const std::string& prefix, const py::object& storage_options) {
  const StorageOptions storage = Storage(storage_options);
  auto entries = WithoutGil([&] { return ListObjectsUnder(prefix, storage); });
  py::list out;
  for (const LocationEntry& entry : ValueOrThrow(std::move(entries))) {
    out.append(py::make_tuple(entry.location, entry.size));
  }
  return out;
}

void DeleteObject(const std::string& location, const py::object& storage_options) {
  const StorageOptions storage = Storage(storage_options);
  CheckStatus(WithoutGil([&] { return DeleteLocation(location, storage); }));
}

}  // namespace

void RegisterStorage(py::module_& m) {
  m.def("_list_objects", &ListObjects, py::arg("prefix"), py::arg("storage_options") = py::none());
  m.def("_delete_object", &DeleteObject, py::arg("location"), py::arg("storage_options") = py::none());
}

}  // namespace strata::python
