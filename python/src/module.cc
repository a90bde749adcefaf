// The _strata extension module: registers each piece (errors, tables, Parquet, CSV, debug
// helpers). The Python package strata (python/strata/__init__.py) is the public face.
#include "strata_py.h"

PYBIND11_MODULE(_strata, m) {
  m.doc() = "strata's C++ core: Parquet and CSV readers and writers, tables, Arrow C interfaces";
  strata::python::InitDatetime();
  strata::python::RegisterErrors(m);
  strata::python::RegisterBufferDebug(m);
  strata::python::RegisterTable(m);
  strata::python::RegisterParquet(m);
  strata::python::RegisterCsv(m);
  strata::python::RegisterStorage(m);
}
