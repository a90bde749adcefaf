// strata.read_csv and write_csv's C++ side: the CSV reader into a strata table, and a table
// through the CSV writer. The GIL is released while strata parses or writes.
#include "options.h"
#include "strata/csv/reader.h"
#include "strata/csv/writer.h"
#include "strata/types/type_names.h"

namespace strata::python {
namespace {

PyTable ReadCsv(const std::string& path, const py::dict& kwargs) {
  std::string schema_text;
  csv::CsvReadOptions options = CsvReadOptionsFromKwargs(kwargs, &schema_text);
  if (!schema_text.empty()) {
    // "name:type,...": types by column name (types/type_names.h).
    for (ColumnTypeSpec& spec : ValueOrThrow(ParseSchemaSpec(schema_text, "schema"))) {
      options.convert.column_types.emplace_back(spec.name, spec.type);
    }
  }
  Result<std::shared_ptr<Table>> table = WithoutGil([&]() -> Result<std::shared_ptr<Table>> {
      STRATA_ASSIGN_OR_RETURN(auto reader, csv::CsvReader::Open(path, options, Pool()));
      return reader->ReadAll();
  });
  return PyTable(ValueOrThrow(std::move(table)));
}

void WriteCsv(const PyTable& table, const std::string& path, const py::dict& kwargs) {
  const csv::WriteOptions options = CsvWriteOptionsFromKwargs(kwargs);
  const Status status = WithoutGil([&]() -> Status {
    STRATA_ASSIGN_OR_RETURN(auto writer, csv::CsvWriter::Open(path, table.table()->schema(), Pool(), options));
    STRATA_RETURN_NOT_OK(writer->WriteTable(*table.table()));
    return writer->Close();
  });
  CheckStatus(status);
}

}  // namespace

void RegisterCsv(py::module_& m) {
  m.def("_read_csv", &ReadCsv, py::arg("path"), py::arg("options"));
  m.def("_write_csv", &WriteCsv, py::arg("table"), py::arg("path"), py::arg("options"));
}

}  // namespace strata::python
