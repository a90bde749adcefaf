// Any input as a stream of record batches (batch_source.h): the Parquet and CSV sources, the
// format by extension, and the dispatch to them, to datasets and to Arrow IPC.
#include "strata/dataset/batch_source.h"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cstdio>

#include <fmt/format.h>

#include "strata/csv/option_text.h"
#include "strata/dataset/dataset_batch_source.h"
#include "strata/dataset/filtering_batch_source.h"
#include "strata/dataset/ipc_batch_source.h"
#include "strata/expr/bind.h"
#include "strata/expr/parser.h"
#include "strata/io/location.h"
#include "strata/parquet/read/file_reader.h"

namespace strata::dataset {
namespace {

bool EndsWith(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

class ParquetBatchSource final : public BatchSource {
 public:
  static Result<std::unique_ptr<BatchSource>> Open(const std::string& path, const BatchSourceOptions& options,
                                                   MemoryPool* pool) {
    auto out = std::make_unique<ParquetBatchSource>();
    STRATA_ASSIGN_OR_RETURN(out->source_, OpenInputLocation(path));
    parquet::FileReaderOptions reader_options = ParquetReaderOptions(options);
    // A projection decodes only its columns' metadata from the footer (and the filter's).
    if (!options.columns.empty() && options.filter.empty()) {
      reader_options.columns = options.columns;
    } else if (!options.columns.empty()) {
      STRATA_ASSIGN_OR_RETURN(auto plan, RowFilterPlan::Make(options.filter, options.columns));
      reader_options.columns = plan->input_columns();
    }
    STRATA_ASSIGN_OR_RETURN(out->reader_, parquet::FileReader::Open(out->source_, pool, reader_options));
    parquet::BatchReadOptions read;
    read.batch_rows = options.batch_rows;
    read.max_batch_bytes = options.max_batch_bytes;
    read.executor = options.executor;
    if (options.read_ahead_bytes) read.read_ahead_bytes = *options.read_ahead_bytes;
    for (const auto& name : options.columns) {
      const int index = out->reader_->descriptor().FieldIndex(name);
      if (index < 0) return Status::Invalid("'{}' has no top-level column '{}'", path, name);
      read.columns.push_back(index);
    }
    if (!options.filter.empty()) {
      STRATA_ASSIGN_OR_RETURN(auto expression, expr::ParseFilter(options.filter));
      parquet::FilterOptions filter = PruningOptions(options);
      auto bound = expr::Bind(*expression, *out->reader_->schema());
      if (!bound.ok()) return bound.status().WithContext(fmt::format("'{}'", path));
      filter.predicate = *bound;
      STRATA_ASSIGN_OR_RETURN(out->filtered_, parquet::FilteredBatchReader::Make(out->reader_.get(), read, filter));
      out->schema_ = out->filtered_->schema();
    } else {
      STRATA_ASSIGN_OR_RETURN(out->batches_, out->reader_->ReadBatches(read));
      out->schema_ = out->batches_->schema();
    }
    auto size = out->source_->Size();
    out->size_ = size.ok() ? *size : -1;
    return std::unique_ptr<BatchSource>(std::move(out));
  }

  const SchemaPtr& schema() const override { return schema_; }
  parquet::FileReader* parquet_file() const override {
    const bool every_field = schema_->num_fields() == reader_->schema()->num_fields();
    return filtered_ || !every_field || !reader_->options().row_number_column.empty() ? nullptr : reader_.get();
  }
  Result<std::shared_ptr<RecordBatch>> Next() override {
    STRATA_ASSIGN_OR_RETURN(auto batch, filtered_ ? filtered_->Next() : batches_->Next());
    if (batch) rows_read_ += batch->num_rows();
    return batch;
  }
  Status ForEachBatch(const BatchConsumer& consume) override {
    if (filtered_) return BatchSource::ForEachBatch(consume);
    return batches_->ForEachBatch([this, &consume](size_t, std::shared_ptr<RecordBatch> batch) {
      rows_read_ += batch->num_rows();
      return consume(std::move(batch));
    });
  }
  std::optional<parquet::PruningStats> pruning_stats() const override {
    if (!filtered_) return std::nullopt;
    return filtered_->stats();
  }
  // Local sources do not count their bytes: estimated from the rows read, which is what a
  // progress fraction needs.
  int64_t raw_bytes_read() const override {
    if (source_->bytes_read() > 0) return source_->bytes_read();
    const int64_t total = reader_->num_rows();
    if (size_ < 0 || total <= 0) return 0;
    return static_cast<int64_t>(static_cast<double>(size_) * static_cast<double>(rows_read_.load()) / static_cast<double>(total));
  }
  int64_t raw_size() const override { return size_; }
  int64_t num_rows() const override { return reader_->num_rows(); }
  int64_t read_count() const override { return source_->read_count(); }
  std::string format_name() const override { return "parquet"; }

 private:
  std::shared_ptr<RandomAccessSource> source_;
  std::unique_ptr<parquet::FileReader> reader_;
  std::unique_ptr<parquet::BatchReader> batches_;  // after reader_: destroyed first
  std::unique_ptr<parquet::FilteredBatchReader> filtered_;  // with a filter, instead of batches_
  SchemaPtr schema_;
  int64_t size_ = -1;
  std::atomic<int64_t> rows_read_{0};  // ForEachBatch adds from several threads
};

class CsvBatchSource final : public BatchSource {
 public:
  static Result<std::unique_ptr<BatchSource>> Open(const std::string& path, bool tsv,
                                                   const BatchSourceOptions& options, MemoryPool* pool) {
    csv::CsvReadOptions read = options.csv;
    if (tsv && !read.parse.delimiter) read.parse.delimiter = "\t";
    read.read.batch_rows = options.batch_rows;
    read.read.executor = options.executor;
    STRATA_RETURN_NOT_OK(read.Validate());
    if (!options.csv_schema.empty()) STRATA_RETURN_NOT_OK(ApplySchema(path, options, &read, pool));
    // The reader converts only the selected columns (the others are parsed, not converted).
    read.convert.include_columns = options.columns;
    auto out = std::make_unique<CsvBatchSource>();
    out->path_ = path;
    STRATA_ASSIGN_OR_RETURN(out->reader_, csv::CsvReader::Open(path, read, pool));
    out->schema_ = out->reader_->schema();
    return std::unique_ptr<BatchSource>(std::move(out));
  }

  const SchemaPtr& schema() const override { return schema_; }
  Result<std::shared_ptr<RecordBatch>> Next() override {
    return reader_->Next();
  }
  int64_t raw_bytes_read() const override { return reader_->raw_bytes_read(); }
  int64_t raw_size() const override { return reader_->raw_size(); }
  std::string format_name() const override { return "csv"; }

  std::string DialectLine() const override {
    const csv::Dialect& d = reader_->dialect();
    std::string line = "CSV: " + d.ToString();
    if (d.comment != '\0') line += fmt::format(", comment '{}'", d.comment);
    line += reader_->has_header() ? "; header: yes" : "; header: no";
    return line;
  }

  std::string DetectionLines() const override {
    const csv::CsvDetection& d = reader_->detection();
    std::string out = fmt::format("detection (sample of {} bytes; dialects scored on its rows, the first {} at most):",
                                  d.sample_bytes, csv::kSniffRows);
    for (const csv::DialectCandidate& c : d.dialects) {
      const bool chosen = c.dialect.delimiter == reader_->dialect().delimiter &&
                          c.dialect.quoting == reader_->dialect().quoting && c.dialect.quote == reader_->dialect().quote &&
                          c.dialect.escaping == reader_->dialect().escaping && c.dialect.escape == reader_->dialect().escape;
      out += fmt::format("\n  dialect  {}: ", c.dialect.ToString());
      if (!c.parsed) {
        out += "does not parse";
      } else {
        out += fmt::format("{} of {} rows have {} field{}", c.rows_with_width, c.rows, c.width, c.width == 1 ? "" : "s");
        if (c.clean_quoted > 0) out += fmt::format(", {} quoted field{}", c.clean_quoted, c.clean_quoted == 1 ? "" : "s");
        if (c.text_after_quote > 0) out += fmt::format(", {} with text after a closing quote", c.text_after_quote);
      }
      if (chosen) out += " (chosen)";
    }
    out += fmt::format("\n  header   {}\n  width    {}", d.header, d.width);
    out += fmt::format("\n  preamble {}", d.preamble);
    return out;
  }

  std::string SkippedRowsReport() const override {
    const csv::CsvReadReport& report = reader_->report();
    std::vector<std::string> lines;
    if (report.preamble_rows > 0) {
      lines.push_back(fmt::format("'{}': skipped {} preamble row{} above the table (lines {}-{})", path_,
                                  report.preamble_rows, report.preamble_rows == 1 ? "" : "s", report.preamble_first_line,
                                  report.preamble_last_line));
    }
    if (!report.header_repair.empty()) lines.push_back(fmt::format("'{}' {}", path_, report.header_repair));
    if (report.padded_rows > 0) {
      lines.push_back(fmt::format("'{}': padded {} short row{} with nulls", path_, report.padded_rows,
                                  report.padded_rows == 1 ? "" : "s"));
    }
    if (report.skipped_rows > 0) {
      std::string where;
      const auto& examples = report.skipped_examples;
      for (size_t i = 0; i < examples.size() && i < 5; ++i) {
        where += fmt::format("{}line {} ({} fields)", i == 0 ? "" : ", ", examples[i].line, examples[i].fields);
      }
      if (static_cast<int64_t>(std::min<size_t>(examples.size(), 5)) < report.skipped_rows) where += ", ...";
      lines.push_back(fmt::format("'{}': skipped {} ragged row{} (not {} fields): {}", path_, report.skipped_rows,
                                  report.skipped_rows == 1 ? "" : "s", reader_->input_schema()->num_fields(), where));
    }
    if (report.unclosed_quote_line > 0) {
      lines.push_back(fmt::format("'{}' line {}: a quote never closed; its field ends at the end of the file",
                                  path_, report.unclosed_quote_line));
    }
    std::string out;
    for (const auto& line : lines) out += (out.empty() ? "" : "\n") + line;
    return out;
  }

 private:
  // The column types depend on the input's columns: a first look at the sample tells whether
  // the types name every column in order (a whole schema) or some by name. The header decision
  // is then kept, so that both looks read the same rows.
  static Status ApplySchema(const std::string& path, const BatchSourceOptions& options, csv::CsvReadOptions* read,
                            MemoryPool* pool) {
    const std::vector<ColumnTypeSpec>& spec = options.csv_schema;
    std::vector<std::string> names;
    bool has_header = read->parse.header.value_or(true);
    // No header and names other than the generated f0, f1, ...: the spec is the whole schema,
    // whatever the first rows hold (a ragged first row must not fail the look).
    const bool generated_names = std::all_of(spec.begin(), spec.end(), [](const ColumnTypeSpec& column) {
      return column.name.size() > 1 && column.name[0] == 'f' &&
             column.name.find_first_not_of("0123456789", 1) == std::string::npos;
    });
    if (read->parse.header == false && !generated_names) {
      return csv::ApplySchemaSpec(spec, {}, false, path, read, options.csv_schema_label);
    }
    if (path == "-") {
      // Standard input cannot be looked at twice: without a header, every column in order, else
      // the columns named. The names given stand for the input's.
      for (const auto& column : spec) names.push_back(column.name);
      if (has_header) names.push_back("");  // not "every column in order"
    } else {
      csv::CsvReadOptions probe = *read;
      probe.read.infer_whole_file = false;
      probe.read.executor = exec::Executor();  // only the header is read
      STRATA_ASSIGN_OR_RETURN(auto reader, csv::CsvReader::Open(path, probe, pool));
      for (const auto& f : reader->schema()->fields()) names.push_back(f->name());
      has_header = reader->has_header();
      read->parse.header = has_header;
    }
    return csv::ApplySchemaSpec(spec, names, has_header, path, read, options.csv_schema_label);
  }

  std::string path_;
  std::unique_ptr<csv::CsvReader> reader_;
  SchemaPtr schema_;
};

}  // namespace

Status BatchSource::ForEachBatch(const BatchConsumer& consume) {
  while (true) {
    STRATA_ASSIGN_OR_RETURN(auto batch, Next());
    if (batch == nullptr) return Status::OK();
    STRATA_RETURN_NOT_OK(consume(std::move(batch)));
  }
}

InputFormat ResolveInputFormat(const std::string& path, InputFormat requested) {
  if (requested == InputFormat::kIpcFile && path == "-") return InputFormat::kIpcStream;
  if (requested != InputFormat::kAuto) return requested;
  if (path == "-") return InputFormat::kCsv;  // a pipe: Parquet needs random access
  std::string name = path;
  std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
  for (const std::string_view compressed : {".gz", ".gzip", ".zst", ".zstd"}) {
    if (EndsWith(name, compressed)) {
      name.resize(name.size() - compressed.size());
      break;
    }
  }
  if (EndsWith(name, ".csv")) return InputFormat::kCsv;
  if (EndsWith(name, ".tsv") || EndsWith(name, ".tab")) return InputFormat::kTsv;
  if (EndsWith(name, ".arrow") || EndsWith(name, ".feather") || EndsWith(name, ".ipc")) return InputFormat::kIpcFile;
  if (EndsWith(name, ".arrows")) return InputFormat::kIpcStream;
  // Any other local file that starts with the IPC file magic ("ARROW1") is one.
  if (std::FILE* file = std::fopen(path.c_str(), "rb")) {
    char magic[6] = {};
    const size_t got = std::fread(magic, 1, sizeof(magic), file);
    std::fclose(file);
    if (got == sizeof(magic) && std::string_view(magic, sizeof(magic)) == "ARROW1") return InputFormat::kIpcFile;
  }
  return InputFormat::kParquet;
}

Result<std::unique_ptr<BatchSource>> OpenBatchSource(const std::string& path, const BatchSourceOptions& options,
                                                     MemoryPool* pool) {
  if ((options.format == InputFormat::kAuto || options.format == InputFormat::kParquet) && IsDatasetInput(path)) {
    return OpenDatasetSource(path, options, pool);
  }
  const InputFormat format = ResolveInputFormat(path, options.format);
  if (format == InputFormat::kParquet) {
    if (!options.file_path_column.empty()) {
      return Status::Invalid("a file path column applies to datasets (a folder or a glob), and '{}' is one file", path);
    }
    return ParquetBatchSource::Open(path, options, pool);
  }
  if (!options.row_number_column.empty() || !options.file_path_column.empty()) {
    return Status::Invalid("row numbers apply to Parquet input, and '{}' is not Parquet", path);
  }
  // Other formats filter decoded rows: the filter's columns are read too, then dropped.
  BatchSourceOptions inner = options;
  std::unique_ptr<RowFilterPlan> plan;
  if (!options.filter.empty()) {
    STRATA_ASSIGN_OR_RETURN(plan, RowFilterPlan::Make(options.filter, options.columns));
    inner.columns = plan->input_columns();
  }
  std::unique_ptr<BatchSource> source;
  if (format == InputFormat::kIpcFile || format == InputFormat::kIpcStream) {
    STRATA_ASSIGN_OR_RETURN(source, OpenIpcBatchSource(path, format == InputFormat::kIpcStream, inner, pool));
  } else {
    STRATA_ASSIGN_OR_RETURN(source, CsvBatchSource::Open(path, format == InputFormat::kTsv, inner, pool));
  }
  if (plan == nullptr) return source;
  return MakeFilteringSource(std::move(source), std::move(plan), path, pool);
}

parquet::FileReaderOptions ParquetReaderOptions(const BatchSourceOptions& options) {
  parquet::FileReaderOptions reader;
  reader.pages.verify_checksums = options.verify_checksums;
  reader.pre_buffer = options.pre_buffer;
  reader.footer.decryption = options.decryption;
  reader.schema = options.schema;
  reader.restore_arrow_schema = options.restore_arrow_schema;
  reader.row_number_column = options.row_number_column;
  return reader;
}

parquet::FilterOptions PruningOptions(const BatchSourceOptions& options) {
  parquet::FilterOptions filter;
  filter.use_statistics = filter.use_dictionaries = filter.use_bloom_filters = filter.use_page_index =
      options.pruning;
  return filter;
}

namespace {

class SourceStream final : public arrow_c::RecordBatchStream {
 public:
  explicit SourceStream(std::unique_ptr<BatchSource> source) : source_(std::move(source)) {}
  SchemaPtr schema() const override { return source_->schema(); }
  Result<std::shared_ptr<RecordBatch>> Next() override { return source_->Next(); }

 private:
  std::unique_ptr<BatchSource> source_;
};

}  // namespace

std::unique_ptr<arrow_c::RecordBatchStream> MakeArrowStream(std::unique_ptr<BatchSource> source) {
  return std::make_unique<SourceStream>(std::move(source));
}

}  // namespace strata::dataset
