// strata.ParquetFile's C++ side (_strata.ParquetReader): a FileReader, the file's metadata as a
// dict, whole reads into strata tables, and streaming batches. Types the Parquet schema cannot
// express come restored from the writer's ARROW:schema by the reader
// (FileReaderOptions::restore_arrow_schema); numeric dictionaries (pandas Categoricals of
// numbers), which the reader's batches leave as values, are encoded here: over the whole
// column in read(), per batch in batches().
#include <algorithm>

#include "options.h"
#include "statistics.h"
#include "strata/array/array_builder.h"
#include "strata/array/null_array.h"
#include "strata/exec/process_pool.h"
#include "strata/expr/bind.h"
#include "strata/expr/parser.h"
#include "strata/parquet/encoding/encoding.h"
#include "strata/parquet/read/arrow_schema_restore.h"
#include "strata/parquet/read/file_reader.h"
#include "strata/parquet/write/file_writer.h"
#include "strata/parquet/filter/filtered_reader.h"
#include "strata_py.h"

namespace strata::python {
namespace {

Result<Array> EmptyArray(const TypePtr& type) {
  if (type->id() == TypeId::kDictionary) {
    STRATA_ASSIGN_OR_RETURN(auto indices, MakeBuilder(type->index_type(), Pool()));
    STRATA_ASSIGN_OR_RETURN(ArrayDataPtr data, indices->Finish());
    STRATA_ASSIGN_OR_RETURN(Array values, EmptyArray(type->value_type()));
    data->type = type;
    data->dictionary = values.data();
    return Array(data);
  }
  STRATA_ASSIGN_OR_RETURN(auto builder, MakeBuilder(type, Pool()));
  STRATA_ASSIGN_OR_RETURN(ArrayDataPtr data, builder->Finish());
  return Array(data);
}

// Numbers the ARROW:schema asks to dictionary-encode (FieldRestore::encode), per selected field.
std::vector<parquet::FieldRestore> EncodedFields(const parquet::FileReader& file, const std::vector<int>& fields) {
  std::vector<parquet::FieldRestore> out;
  for (int i : fields) {
    const parquet::FieldRestore& r = file.arrow_schema_restore()[static_cast<size_t>(i)];
    out.push_back(r.encode ? r : parquet::FieldRestore{});
  }
  return out;
}

// Streams a file's batches (BatchReader): one batch in memory at a time.
class BatchIterator {
 public:
  BatchIterator(std::shared_ptr<parquet::FileReader> file, std::unique_ptr<parquet::BatchReader> batches,
                std::vector<parquet::FieldRestore> encode, SchemaPtr schema)
      : file_(std::move(file)), batches_(std::move(batches)), encode_(std::move(encode)), schema_(std::move(schema)) {}

  PyTable Next() {
    if (!batches_) throw py::stop_iteration();
    Result<std::shared_ptr<RecordBatch>> next = WithoutGil([&] { return batches_->Next(); });
    std::shared_ptr<RecordBatch> batch = ValueOrThrow(std::move(next));
    if (batch == nullptr) {
      batches_.reset();
      throw py::stop_iteration();
    }
    std::vector<std::shared_ptr<ChunkedArray>> columns;
    for (int i = 0; i < batch->num_columns(); ++i) {
      auto column = std::make_shared<ChunkedArray>(batch->column(i).type(), std::vector<Array>{batch->column(i)});
      columns.push_back(ValueOrThrow(parquet::RestoreColumn(column, encode_[static_cast<size_t>(i)], Pool())));
    }
    return PyTable(std::make_shared<Table>(schema_, std::move(columns), batch->num_rows()));
  }

 private:
  std::shared_ptr<parquet::FileReader> file_;  // the batch reader points into it
  std::unique_ptr<parquet::BatchReader> batches_;
  std::vector<parquet::FieldRestore> encode_;  // a dictionary per batch
  SchemaPtr schema_;
};

class ParquetReader {
 public:
  ParquetReader(const std::string& path, const py::dict& keys) : path_(path) {
    parquet::FileReaderOptions options;
    options.footer.decryption = DecryptionOptionsFromKwargs(keys);
    options.schema = SchemaOptionsFromKwargs(keys);
    if (keys.contains("restore_arrow_schema")) {
      options.restore_arrow_schema = keys["restore_arrow_schema"].cast<bool>();
    }
    options.s3 = S3OptionsFromStorageOptions(keys.contains("storage_options") ? py::object(keys["storage_options"])
                                                                              : py::object(py::none()));
    if (keys.contains("row_number")) options.row_number_column = keys["row_number"].cast<std::string>();
    Result<std::unique_ptr<parquet::FileReader>> opened =
        WithoutGil([&] { return parquet::FileReader::OpenFile(path, Pool(), options); });
    file_ = ValueOrThrow(std::move(opened));
    // The reader's restored types, and the numeric dictionaries encoded here.
    std::vector<FieldPtr> fields;
    const Schema& schema = *file_->restored_schema();
    for (int i = 0; i < schema.num_fields(); ++i) {
      const parquet::FieldRestore& r = file_->arrow_schema_restore()[static_cast<size_t>(i)];
      FieldPtr field = schema.field(i);
      if (r.encode) field = field->WithType(r.retype);
      fields.push_back(field);
    }
    schema_ = std::make_shared<Schema>(std::move(fields), schema.metadata());
    if (!options.row_number_column.empty()) {
      if (schema_->GetFieldIndex(options.row_number_column) >= 0) {
        ThrowInvalid(fmt::format("'{}' has a column '{}' already: choose another row_number name", path,
                                 options.row_number_column));
      }
      row_number_ = std::make_shared<Field>(options.row_number_column, int64(), false);
    }
  }

  const parquet::FileReader& file() const {
    if (!file_) ThrowInvalid(fmt::format("ParquetFile '{}' is closed", path_));
    return *file_;
  }
  void Close() { file_.reset(); }

  py::list Names() const {
    py::list out;
    for (const FieldPtr& f : schema_->fields()) out.append(f->name());
    return out;
  }
  py::list Types() const {
    py::list out;
    for (const FieldPtr& f : schema_->fields()) out.append(f->type()->ToString());
    return out;
  }
  int64_t num_rows() const { return file().num_rows(); }
  int num_row_groups() const { return file().num_row_groups(); }

  py::dict Metadata() const;

  // `expression`: a --filter text (expr/parser.h), read through parquet::FilteredBatchReader
  // (statistics, dictionaries, Bloom filters, the page index, late materialisation).
  PyTable Read(const std::optional<std::vector<std::string>>& columns, const std::optional<std::vector<int>>& row_groups,
               const std::optional<int>& threads, const std::optional<std::string>& expression) const {
    const parquet::FileReader& f = file();
    parquet::BatchReadOptions options = Options(columns, threads);
    std::vector<int> fields = options.columns;
    if (fields.empty()) {
      for (int i = 0; i < schema_->num_fields(); ++i) fields.push_back(i);
    }
    std::vector<FieldPtr> selected;
    for (int i : fields) selected.push_back(schema_->field(i));
    if (row_number_) selected.push_back(row_number_);  // the reader's last column
    auto schema = std::make_shared<Schema>(selected, schema_->metadata());
    if (row_groups && row_groups->empty()) {
      // No row group: the empty table of the same schema (Dask's meta).
      std::vector<std::shared_ptr<ChunkedArray>> empty;
      for (const FieldPtr& field : selected) {
        Array array = ValueOrThrow(EmptyArray(field->type()));
        empty.push_back(std::make_shared<ChunkedArray>(field->type(), std::vector<Array>{array}));
      }
      return PyTable(std::make_shared<Table>(schema, std::move(empty), 0));
    }
    if (row_groups) {
      for (int g : *row_groups) {
        if (g < 0 || g >= f.num_row_groups()) {
          ThrowInvalid(fmt::format("'{}' has {} row groups: there is no row group {}", path_, f.num_row_groups(), g));
        }
      }
      options.row_groups = *row_groups;
    }
    if (columns && columns->empty()) {
      // No column (len() of a Dask frame): the row count alone, from the footer.
      int64_t rows = 0;
      if (row_groups) {
        for (int g : *row_groups) rows += f.metadata().row_groups[static_cast<size_t>(g)].num_rows;
      } else {
        rows = f.num_rows();
      }
      return PyTable(std::make_shared<Table>(schema, std::vector<std::shared_ptr<ChunkedArray>>{}, rows));
    }
    // Batches as large as a row group: a whole read then has one chunk per row group, and a
    // file of one row group converts to pandas without copies.
    int64_t largest = 1;
    for (const auto& rg : f.metadata().row_groups) largest = std::max(largest, rg.num_rows);
    options.batch_rows = largest;
    // A reference of its own: close() from another thread must not free the reader mid-read.
    std::shared_ptr<parquet::FileReader> reader = file_;
    parquet::FilterOptions filter;
    if (expression) {
      const expr::ExpressionPtr parsed = ValueOrThrow(expr::ParseFilter(*expression));
      filter.predicate = ValueOrThrow(expr::Bind(*parsed, *reader->schema()));
    }
    Result<std::shared_ptr<Table>> read = WithoutGil([&]() -> Result<std::shared_ptr<Table>> {
      if (!filter.predicate) return reader->ReadTable(options);
      STRATA_ASSIGN_OR_RETURN(auto batches, parquet::FilteredBatchReader::Make(reader.get(), options, filter));
      std::vector<std::shared_ptr<RecordBatch>> kept;
      while (true) {
        STRATA_ASSIGN_OR_RETURN(auto batch, batches->Next());
        if (batch == nullptr) break;
        kept.push_back(std::move(batch));
      }
      if (kept.empty()) {
        // No row kept: one empty chunk per column, as a read of no row group gives.
        std::vector<Array> empty;
        for (const FieldPtr& field : batches->schema()->fields()) {
          STRATA_ASSIGN_OR_RETURN(Array column, MakeNullArray(field->type(), 0, reader->pool()));
          empty.push_back(std::move(column));
        }
        kept.push_back(std::make_shared<RecordBatch>(batches->schema(), 0, std::move(empty)));
      }
      return Table::FromRecordBatches(batches->schema(), kept);
    });
    std::shared_ptr<Table> table = ValueOrThrow(std::move(read));
    std::vector<std::shared_ptr<ChunkedArray>> out;
    const std::vector<parquet::FieldRestore> encode = EncodedFields(f, fields);
    for (size_t k = 0; k < fields.size(); ++k) {
      out.push_back(ValueOrThrow(parquet::RestoreColumn(table->column(static_cast<int>(k)), encode[k], Pool())));
    }
    if (row_number_) out.push_back(table->column(static_cast<int>(fields.size())));
    return PyTable(std::make_shared<Table>(schema, std::move(out), table->num_rows()));
  }

  BatchIterator Batches(int64_t batch_rows, const std::optional<std::vector<std::string>>& columns,
                        const std::optional<int>& threads) const {
    parquet::BatchReadOptions options = Options(columns, threads);
    if (batch_rows < 1) ThrowInvalid(fmt::format("batch_rows must be at least 1, not {}", batch_rows));
    options.batch_rows = batch_rows;
    std::vector<int> fields = options.columns;
    if (fields.empty()) {
      for (int i = 0; i < schema_->num_fields(); ++i) fields.push_back(i);
    }
    std::vector<FieldPtr> selected;
    for (int i : fields) selected.push_back(schema_->field(i));
    std::vector<parquet::FieldRestore> encode = EncodedFields(file(), fields);  // raises when closed
    if (row_number_) {
      selected.push_back(row_number_);
      encode.emplace_back();
    }
    std::shared_ptr<parquet::FileReader> reader = file_;  // the batches keep the reader alive
    Result<std::unique_ptr<parquet::BatchReader>> opened = WithoutGil([&] { return reader->ReadBatches(options); });
    return BatchIterator(reader, ValueOrThrow(std::move(opened)), std::move(encode),
                         std::make_shared<Schema>(selected, schema_->metadata()));
  }

 private:
  parquet::BatchReadOptions Options(const std::optional<std::vector<std::string>>& columns,
                                    const std::optional<int>& threads) const {
    parquet::BatchReadOptions options;
    // The process's pool; by default the calling thread only (1).
    if (threads && *threads < 0) ThrowInvalid(fmt::format("threads must be 0 (every core) or more, not {}", *threads));
    options.executor = exec::ProcessExecutor(threads.value_or(1));
    if (columns) {
      for (const std::string& name : *columns) {
        const int index = schema_->GetFieldIndex(name);
        if (index < 0) ThrowInvalid(fmt::format("'{}' has no column '{}'", path_, name));
        options.columns.push_back(index);
      }
    }
    return options;
  }

  std::string path_;
  std::shared_ptr<parquet::FileReader> file_;
  SchemaPtr schema_;  // the reader's restored schema, numeric dictionaries included
  FieldPtr row_number_;  // FileReaderOptions::row_number_column's field, or null
};

std::string EncodingText(parquet::Encoding e) {
  std::string_view name = parquet::EncodingName(e);
  return name.empty() ? fmt::format("UNKNOWN({})", static_cast<int>(e)) : std::string(name);
}

py::dict ParquetReader::Metadata() const {
  const parquet::FileReader& f = file();
  const parquet::FileMetaData& md = f.metadata();
  const parquet::SchemaDescriptor& descriptor = f.descriptor();
  py::dict out;
  out["num_rows"] = f.num_rows();
  out["num_row_groups"] = f.num_row_groups();
  out["created_by"] = md.created_by ? py::object(py::str(*md.created_by)) : py::none();
  py::dict kv;
  if (md.key_value_metadata) {
    for (const auto& pair : *md.key_value_metadata) kv[py::str(pair.key)] = py::str(pair.value.value_or(""));
  }
  out["key_value_metadata"] = kv;
  out["columns"] = Names();
  // The type each leaf's statistics decode to: the leaf's own, or the restored top-level type.
  std::vector<TypePtr> leaf_types;
  for (const parquet::ColumnDescriptor& column : descriptor.columns()) leaf_types.push_back(column.type);
  for (int field = 0; field < descriptor.num_fields(); ++field) {
    const TypePtr& type = schema_->field(field)->type();
    if (is_nested(type->id())) continue;
    leaf_types[static_cast<size_t>(descriptor.field_first_column(field))] = type;
  }
  py::list row_groups;
  for (const parquet::RowGroup& rg : md.row_groups) {
    py::dict group;
    group["num_rows"] = rg.num_rows;
    group["total_byte_size"] = rg.total_byte_size;
    py::dict columns;
    for (size_t c = 0; c < rg.columns.size() && c < descriptor.columns().size(); ++c) {
      const parquet::ColumnDescriptor& column = descriptor.column(static_cast<int>(c));
      const parquet::ColumnChunk& chunk = rg.columns[c];
      py::dict info;
      if (chunk.meta_data) {
        const parquet::ColumnMetaData& m = *chunk.meta_data;
        info["physical_type"] = std::string(parquet::PhysicalTypeName(m.type));
        info["codec"] = std::string(parquet::CompressionCodecName(m.codec));
        py::list encodings;
        for (parquet::Encoding e : m.encodings) encodings.append(EncodingText(e));
        info["encodings"] = encodings;
        info["compressed_size"] = m.total_compressed_size;
        info["uncompressed_size"] = m.total_uncompressed_size;
        info["statistics"] = StatisticsToPython(m, column, leaf_types[c]);
      } else {
        info["physical_type"] = std::string(parquet::PhysicalTypeName(column.physical_type));
        info["codec"] = py::none();
        info["encodings"] = py::list();
        info["compressed_size"] = py::none();
        info["uncompressed_size"] = py::none();
        info["statistics"] = py::none();
      }
      columns[py::str(column.dotted_path)] = info;
    }
    group["columns"] = columns;
    row_groups.append(group);
  }
  out["row_groups"] = row_groups;
  return out;
}

void WriteParquet(const PyTable& table, const std::string& path, const py::dict& kwargs) {
  const parquet::WriterOptions options = ParquetWriterOptionsFromKwargs(kwargs);
  const Status status = WithoutGil([&]() -> Status {
    const std::shared_ptr<Table>& t = table.table();
    STRATA_ASSIGN_OR_RETURN(auto writer,
                            parquet::FileWriter::Open(path, std::make_shared<Schema>(*t->schema()), Pool(), options));
    STRATA_RETURN_NOT_OK(writer->WriteTable(*t));
    return writer->Close();  // on an error above, the writer's destructor discards the output
  });
  CheckStatus(status);
}

}  // namespace

void RegisterParquet(py::module_& m) {
  m.def("_write_parquet", &WriteParquet, py::arg("table"), py::arg("path"), py::arg("options"));
  m.def("_check_writer_options", [](const py::dict& kwargs) { ParquetWriterOptionsFromKwargs(kwargs); },
        py::arg("options"));
  py::class_<BatchIterator>(m, "_BatchIterator")
      .def("__iter__", [](py::object self) { return self; })
      .def("__next__", &BatchIterator::Next);
  py::class_<ParquetReader>(m, "ParquetReader")
      .def(py::init<const std::string&, const py::dict&>(), py::arg("path"), py::arg("keys"))
      .def_property_readonly("names", &ParquetReader::Names)
      .def_property_readonly("types", &ParquetReader::Types)
      .def_property_readonly("num_rows", &ParquetReader::num_rows)
      .def_property_readonly("num_row_groups", &ParquetReader::num_row_groups)
      .def("metadata", &ParquetReader::Metadata)
      .def("read", &ParquetReader::Read, py::arg("columns") = py::none(), py::arg("row_groups") = py::none(),
           py::arg("threads") = py::none(), py::arg("expression") = py::none())
      .def("batches", &ParquetReader::Batches, py::arg("batch_rows"), py::arg("columns") = py::none(),
           py::arg("threads") = py::none())
      .def("close", &ParquetReader::Close);
}

}  // namespace strata::python
