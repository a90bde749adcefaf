// strata.Table's C++ side (_strata.Table): a strata table without conversion, its pandas
// column specs, and the Arrow PyCapsule protocol: __arrow_c_stream__ / __arrow_c_schema__
// export through arrow_c (zero-copy: the consumer's arrays point at strata's buffers), and
// import of any object with __arrow_c_stream__ (zero-copy too).
#include <algorithm>

#include "strata/arrow_c/export.h"
#include "strata/arrow_c/import.h"
#include "strata/arrow_c/stream.h"
#include "strata_py.h"

namespace strata::python {
namespace {

constexpr const char* kStreamCapsule = "arrow_array_stream";
constexpr const char* kSchemaCapsule = "arrow_schema";

// A table's rows as record batches: cut where any column's chunk ends, so every column of a
// batch is one slice of one chunk (zero-copy).
class TableBatchStream final : public arrow_c::RecordBatchStream {
 public:
  explicit TableBatchStream(std::shared_ptr<Table> table)
      : table_(std::move(table)),
        chunk_(static_cast<size_t>(table_->num_columns()), 0),
        offset_(static_cast<size_t>(table_->num_columns()), 0) {}

  SchemaPtr schema() const override { return table_->schema(); }

  Result<std::shared_ptr<RecordBatch>> Next() override {
    if (row_ >= table_->num_rows()) return std::shared_ptr<RecordBatch>();
    const int n = table_->num_columns();
    if (n == 0) {
      row_ = table_->num_rows();
      return std::make_shared<RecordBatch>(table_->schema(), table_->num_rows(), std::vector<Array>{});
    }
    int64_t rows = table_->num_rows() - row_;
    for (int c = 0; c < n; ++c) {
      const ChunkedArray& column = *table_->column(c);
      // Skip empty chunks.
      while (column.chunk(static_cast<int>(chunk_[c])).length() == offset_[c]) {
        ++chunk_[c];
        offset_[c] = 0;
      }
      rows = std::min(rows, column.chunk(static_cast<int>(chunk_[c])).length() - offset_[c]);
    }
    std::vector<Array> columns;
    for (int c = 0; c < n; ++c) {
      const Array& chunk = table_->column(c)->chunk(static_cast<int>(chunk_[c]));
      columns.push_back(offset_[c] == 0 && rows == chunk.length() ? chunk : chunk.Slice(offset_[c], rows));
      offset_[c] += rows;
    }
    row_ += rows;
    return std::make_shared<RecordBatch>(table_->schema(), rows, std::move(columns));
  }

 private:
  std::shared_ptr<Table> table_;
  std::vector<size_t> chunk_;
  std::vector<int64_t> offset_;
  int64_t row_ = 0;
};

py::capsule StreamCapsule(const PyTable& self, const py::object& requested_schema) {
  // requested_schema is a request the producer may decline (the PyCapsule protocol): strata
  // exports its own types.
  auto* stream = new ArrowArrayStream{};
  Status status = arrow_c::ExportBatchStream(std::make_shared<TableBatchStream>(self.table()), stream);
  if (!status.ok()) {
    delete stream;
    ThrowStatus(status);
  }
  return py::capsule(stream, kStreamCapsule, [](PyObject* capsule) {
    auto* s = static_cast<ArrowArrayStream*>(PyCapsule_GetPointer(capsule, kStreamCapsule));
    if (s == nullptr) return;
    if (s->release != nullptr) s->release(s);
    delete s;
  });
}

py::capsule SchemaCapsule(const PyTable& self) {
  auto* schema = new ArrowSchema{};
  Status status = arrow_c::ExportSchema(*self.table()->schema(), schema);
  if (!status.ok()) {
    delete schema;
    ThrowStatus(status);
  }
  return py::capsule(schema, kSchemaCapsule, [](PyObject* capsule) {
    auto* s = static_cast<ArrowSchema*>(PyCapsule_GetPointer(capsule, kSchemaCapsule));
    if (s == nullptr) return;
    if (s->release != nullptr) s->release(s);
    delete s;
  });
}

// Any object with __arrow_c_stream__ (or such a capsule itself) as a strata table.
PyTable FromArrow(const py::object& source) {
  py::object capsule = source;
  if (py::hasattr(source, "__arrow_c_stream__")) capsule = source.attr("__arrow_c_stream__")();
  if (!PyCapsule_IsValid(capsule.ptr(), kStreamCapsule)) {
    ThrowInvalid("Table.from_arrow takes an object with __arrow_c_stream__ (the Arrow PyCapsule protocol) or an "
                 "'arrow_array_stream' capsule");
  }
  auto* stream = static_cast<ArrowArrayStream*>(PyCapsule_GetPointer(capsule.ptr(), kStreamCapsule));
  if (stream->release == nullptr) ThrowInvalid("the Arrow stream was already consumed");
  Result<std::shared_ptr<Table>> table = WithoutGil([&]() -> Result<std::shared_ptr<Table>> {
      // Takes the stream over (marks the capsule's struct released).
      STRATA_ASSIGN_OR_RETURN(auto batches, arrow_c::ImportBatchStream(stream));
      std::vector<std::shared_ptr<RecordBatch>> all;
      while (true) {
        STRATA_ASSIGN_OR_RETURN(std::shared_ptr<RecordBatch> batch, batches->Next());
        if (batch == nullptr) break;
        all.push_back(std::move(batch));
      }
      return Table::FromRecordBatches(batches->schema(), all);
  });
  return PyTable(ValueOrThrow(std::move(table)));
}

py::list ToPandasSpecs(const PyTable& self, bool nullable_floats, bool pandas_strings, bool decimals_as_float,
                       bool exclusive) {
  ToPandasOptions options;
  options.nullable_floats = nullable_floats;
  options.pandas_strings = pandas_strings;
  options.decimals_as_float = decimals_as_float;
  options.exclusive = exclusive;
  const Table& table = *self.table();
  py::list out;
  for (int i = 0; i < table.num_columns(); ++i) {
    const Field& field = *table.schema()->field(i);
    out.append(py::make_tuple(field.name(), ColumnToPandas(*table.column(i), field.nullable(), field.name(), options)));
  }
  return out;
}

}  // namespace

void RegisterTable(py::module_& m) {
  py::class_<PyTable>(m, "Table")
      .def_property_readonly("num_rows", [](const PyTable& t) { return t.table()->num_rows(); })
      .def_property_readonly("num_columns", [](const PyTable& t) { return t.table()->num_columns(); })
      .def_property_readonly("names", [](const PyTable& t) {
        py::list out;
        for (const FieldPtr& f : t.table()->schema()->fields()) out.append(f->name());
        return out;
      })
      .def_property_readonly("types", [](const PyTable& t) {
        py::list out;
        for (const FieldPtr& f : t.table()->schema()->fields()) out.append(f->type()->ToString());
        return out;
      })
      .def("num_chunks", [](const PyTable& t, int column) { return t.table()->column(column)->num_chunks(); })
      .def("equals", [](const PyTable& a, const PyTable& b) { return a.table()->Equals(*b.table()); })
      .def("to_string", [](const PyTable& t) { return t.table()->ToString(); })
      .def("to_pandas_specs", &ToPandasSpecs, py::arg("nullable_floats"), py::arg("pandas_strings"),
           py::arg("decimals_as_float"), py::arg("exclusive"))
      .def("__arrow_c_stream__", &StreamCapsule, py::arg("requested_schema") = py::none())
      .def("__arrow_c_schema__", &SchemaCapsule)
      .def_static("from_arrow", &FromArrow, py::arg("source"))
      .def_static("from_column_specs", [](const py::list& specs) { return PyTable(TableFromColumnSpecs(specs)); })
      // Debug: the address of a chunk's buffer (values: index 1), to prove zero-copy in tests.
      .def("_buffer_address", [](const PyTable& t, int column, int chunk, int buffer) -> uintptr_t {
        const Array& a = t.table()->column(column)->chunk(chunk);
        const auto& b = a.data()->buffers.at(static_cast<size_t>(buffer));
        return b ? reinterpret_cast<uintptr_t>(b->data()) : 0;
      });
}

}  // namespace strata::python
