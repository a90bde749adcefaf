#include "strata/csv/reader.h"

#include <algorithm>
#include <cstring>
#include <unordered_set>

#include <fmt/format.h>

#include "strata/codec/decompressing_input_stream.h"
#include "strata/csv/column_converter.h"
#include "strata/csv/sniffer.h"
#include "strata/csv/type_inference.h"
#include "strata/exec/task_group.h"
#include "strata/exec/thread_pool.h"

namespace strata::csv {

struct CsvReader::Block {
  explicit Block(MemoryPool* pool) : rows(pool) {}
  ParsedRows rows;
  BlockParseResult result;
  int64_t start = 0;  // row start in the window
  int64_t stop = 0;   // the next block's start (the window's size for the last block)
  int64_t line = 0;
  std::vector<std::shared_ptr<RecordBatch>> batches;
};

Status CsvReadOptions::Validate() const {
  STRATA_RETURN_NOT_OK(read.Validate());
  STRATA_RETURN_NOT_OK(parse.Validate());
  return convert.Validate();
}

CsvReader::CsvReader(std::unique_ptr<InputStream> input, const CsvReadOptions& options, MemoryPool* pool)
    : input_(std::move(input)), options_(options), pool_(pool), window_(std::make_shared<ResizableBuffer>(pool)) {
  for (auto& window : windows_) window.buffer = std::make_shared<ResizableBuffer>(pool);
}

CsvReader::~CsvReader() {
  // Tasks in flight refer to this reader's windows and blocks.
  for (auto& window : windows_) {
    if (window.in_flight) (void)window.group->Wait();
  }
}

Result<std::unique_ptr<CsvReader>> CsvReader::Open(std::unique_ptr<InputStream> input, const CsvReadOptions& options,
                                                   MemoryPool* pool) {
  STRATA_RETURN_NOT_OK(options.Validate());
  if (options.read.infer_whole_file) {
    return Status::Invalid("'{}': infer_whole_file needs an input that can be read twice (open it by path)",
                           input->name());
  }
  std::unique_ptr<CsvReader> reader(new CsvReader(std::move(input), options, pool));
  STRATA_RETURN_NOT_OK(reader->Start(nullptr));
  return reader;
}

Result<std::unique_ptr<CsvReader>> CsvReader::Open(const std::string& path, const CsvReadOptions& options,
                                                   MemoryPool* pool) {
  STRATA_RETURN_NOT_OK(options.Validate());
  if (options.read.infer_whole_file && path == "-") {
    return Status::Invalid("infer_whole_file needs a file: standard input cannot be read twice");
  }
  StorageOptions storage;
  storage.s3 = options.s3;
  STRATA_ASSIGN_OR_RETURN(auto input, codec::OpenInputStream(path, pool, storage));
  std::unique_ptr<CsvReader> reader(new CsvReader(std::move(input), options, pool));
  if (!options.read.infer_whole_file) {
    STRATA_RETURN_NOT_OK(reader->Start(nullptr));
    return reader;
  }
  // First pass: the types of every row; the second reader keeps the first's dialect and
  // header decision so both passes read the same rows.
  std::vector<TypePtr> types;
  STRATA_RETURN_NOT_OK(reader->Start(&types));
  STRATA_RETURN_NOT_OK(reader->InferAllTypes(&types));
  CsvReadOptions second = options;
  second.parse.delimiter = reader->dialect_.delimiter;
  second.parse.quote = reader->dialect_.quoting ? reader->dialect_.quote : '\0';
  second.parse.escape = reader->dialect_.escaping ? reader->dialect_.escape : '\0';
  second.parse.header = reader->has_header_;
  // The preamble found is skipped as lines (the header decision given may be "no", which
  // would not look for one), and reported as found.
  const CsvReadReport& first = reader->report_;
  if (first.preamble_rows > 0) second.parse.skip_rows += first.preamble_last_line - first.preamble_first_line + 1;
  STRATA_ASSIGN_OR_RETURN(auto input2, codec::OpenInputStream(path, pool, storage));
  std::unique_ptr<CsvReader> final_reader(new CsvReader(std::move(input2), second, pool));
  STRATA_RETURN_NOT_OK(final_reader->Start(&types));
  final_reader->report_.preamble_rows = first.preamble_rows;
  final_reader->report_.preamble_first_line = first.preamble_first_line;
  final_reader->report_.preamble_last_line = first.preamble_last_line;
  final_reader->detection_.preamble = reader->detection_.preamble;
  return final_reader;
}

Status CsvReader::FillWindow(int64_t bytes) {
  while (!eof_ && window_size_ < bytes) {
    // Grow from 64 KiB by doubling up to `bytes`, so a small file does not cost a whole
    // sample's (1 MiB) buffer; large inputs reach their window size after a few reads.
    if (window_->capacity() == window_size_) {
      const int64_t grown = std::min(bytes, std::max<int64_t>(64 << 10, 2 * window_->capacity()));
      STRATA_RETURN_NOT_OK(window_->Reserve(grown));
    }
    const int64_t room = std::min(bytes, window_->capacity()) - window_size_;
    STRATA_ASSIGN_OR_RETURN(const int64_t n,
                            input_->Read({window_->mutable_data() + window_size_, static_cast<size_t>(room)}));
    if (n == 0) eof_ = true;
    window_size_ += n;
  }
  window_->set_size(window_size_);
  return Status::OK();
}

// Drops the first `bytes` of the window (they have been parsed).
static void DropFront(ResizableBuffer* window, int64_t* window_size, int64_t bytes) {
  if (bytes > 0 && bytes < *window_size) {
    std::memmove(window->mutable_data(), window->data() + bytes, static_cast<size_t>(*window_size - bytes));
  }
  *window_size -= std::min(bytes, *window_size);
  window->set_size(*window_size);
}

Status CsvReader::SkipLeadingLines() {
  for (int64_t skipped = 0; skipped < options_.parse.skip_rows;) {
    const char* data = reinterpret_cast<const char*>(window_->data());
    int64_t at = 0;
    while (at < window_size_ && data[at] != '\n' && data[at] != '\r') ++at;
    if (at == window_size_) {
      if (eof_) {
        DropFront(window_.get(), &window_size_, window_size_);
        return Status::OK();
      }
      STRATA_RETURN_NOT_OK(FillWindow(window_size_ * 2 + options_.read.block_bytes));
      continue;
    }
    if (data[at] == '\r' && at + 1 == window_size_ && !eof_) {  // a CRLF may straddle the read
      STRATA_RETURN_NOT_OK(FillWindow(window_size_ + options_.read.block_bytes));
      continue;
    }
    at += (data[at] == '\r' && at + 1 < window_size_ && data[at + 1] == '\n') ? 2 : 1;
    DropFront(window_.get(), &window_size_, at);
    ++window_line_;
    ++skipped;
  }
  return Status::OK();
}

namespace {

// Header names made usable: empty ones become f<i>, repeated ones get _2, _3, ...
std::vector<std::string> UniqueNames(std::vector<std::string> names) {
  std::unordered_set<std::string> seen;
  for (size_t i = 0; i < names.size(); ++i) {
    if (names[i].empty()) names[i] = fmt::format("f{}", i);
    std::string name = names[i];
    for (int k = 2; seen.count(name) != 0; ++k) name = names[i] + "_" + std::to_string(k);
    names[i] = name;
    seen.insert(name);
  }
  return names;
}

// The types of every column of `rows` (utf8 for columns with no value yet).
std::vector<TypePtr> TypesOf(const std::vector<ColumnTypeInferrer>& inferrers) {
  std::vector<TypePtr> out;
  for (const auto& inferrer : inferrers) out.push_back(inferrer.type());
  return out;
}

std::vector<ColumnTypeInferrer> MakeInferrers(const ConvertOptions& options, int columns) {
  std::vector<ColumnTypeInferrer> out;
  out.reserve(static_cast<size_t>(columns));
  for (int c = 0; c < columns; ++c) out.emplace_back(options);
  return out;
}

}  // namespace

Status CsvReader::ReadHeaderAndSample(const std::vector<TypePtr>* whole_file_types) {
  const int64_t sample_bytes = options_.read.sample_bytes;
  ParsedRows first_row(pool_);
  ParsedRows sample(pool_);
  BlockParseResult first_result, sample_result;
  // The first row, then the sample's other complete rows; a row longer than what has been
  // read makes the window grow, no further than a row starting at `row_start` needs for the
  // parser to enforce max_row_bytes (its bytes and a CRLF).
  auto grow_for_row = [&](int64_t row_start) {
    const int64_t enough = row_start + options_.parse.max_row_bytes + 2;
    return FillWindow(std::max(window_size_ + 1, std::min(window_size_ * 2 + options_.read.block_bytes, enough)));
  };
  // Explicit options win: without a header, a whole schema (or the names given) sets the width,
  // and the first row is data held to it like any other; else the first row sets it.
  const ConvertOptions& convert = options_.convert;
  int known_width = -1;
  if (options_.parse.header == false) {
    if (convert.schema) {
      known_width = convert.schema->num_fields();
    } else if (!options_.parse.column_names.empty()) {
      known_width = static_cast<int>(options_.parse.column_names.size());
    }
  }
  while (true) {
    first_row.Clear(known_width);
    const std::string_view data(reinterpret_cast<const char*>(window_->data()), static_cast<size_t>(window_size_));
    STRATA_RETURN_NOT_OK(parser_->Parse(data, window_size_, eof_, window_line_, 1, &first_row, &first_result));
    if (first_row.num_rows() == 1 || eof_) break;
    STRATA_RETURN_NOT_OK(grow_for_row(0));
  }
  Count(first_result);
  if (first_row.num_rows() == 0) {  // nothing but blank lines, comments or skipped rows
    DropFront(window_.get(), &window_size_, window_size_);
    // An empty table with the columns given: the schema's (named as given), else the names'.
    std::vector<FieldPtr> fields;
    const auto& names = options_.parse.column_names;
    if (convert.schema) {
      for (int c = 0; c < convert.schema->num_fields(); ++c) {
        const FieldPtr& f = convert.schema->field(c);
        const bool renamed = static_cast<int>(names.size()) == convert.schema->num_fields();
        fields.push_back(field(renamed ? names[static_cast<size_t>(c)] : f->name(), f->type()));
      }
    } else {
      for (const auto& name : names) fields.push_back(field(name, utf8()));
    }
    full_schema_ = strata::schema(fields);
    num_input_columns_ = full_schema_->num_fields();
    std::vector<FieldPtr> selected_fields;
    for (const auto& name : convert.include_columns) {
      const int c = full_schema_->GetFieldIndex(name);
      if (c < 0) return Status::Invalid("'{}' has no column '{}'", input_->name(), name);
      selected_fields.push_back(fields[static_cast<size_t>(c)]);
    }
    schema_ = convert.include_columns.empty() ? full_schema_ : strata::schema(std::move(selected_fields));
    input_exhausted_ = true;
    return Status::OK();
  }
  const int first_width = first_row.num_columns();
  int columns = first_width;
  // The sample is every row starting within sample_bytes after the first row, each whole:
  // what is inferred must not depend on how far the window happened to reach (block_bytes).
  STRATA_RETURN_NOT_OK(FillWindow(first_result.consumed + sample_bytes));
  // Outside kError the width is the one most rows below the first have: a header with a stray
  // or missing separator (or a broken first record) must not make every other row ragged.
  // kError keeps the first row's, so that such rows fail naming their line.
  SampleWidth majority;
  if (known_width < 0 && options_.parse.ragged_rows != RaggedRows::kError) {
    const std::string_view after(reinterpret_cast<const char*>(window_->data()) + first_result.consumed,
                                 static_cast<size_t>(std::min(sample_bytes, window_size_ - first_result.consumed)));
    majority = MajorityWidth(after, dialect_, pool_);
    if (majority.width > 0 && majority.width != first_width && 2 * majority.rows_with_width > majority.rows) {
      columns = majority.width;
    }
    // Salvage keeps every row it can: when the rows from some row on have a column more (a
    // column added mid-file), that wider width, the rows above padded.
    if (options_.parse.ragged_rows == RaggedRows::kSalvage && majority.tail_width > columns &&
        TailFitsTypesAbove(after, dialect_, majority, options_.convert, pool_)) {
      columns = majority.tail_width;
    }
  }
  if (known_width >= 0) {
    detection_.width = fmt::format("{} columns: {} given", columns, convert.schema ? "the schema" : "the names");
  } else if (majority.tail_width > 0 && columns == majority.tail_width) {
    detection_.width = fmt::format("{} columns: the last {} of the {} rows sampled below the first have {} fields (a "
                                   "column added), {} have {}: salvage pads them",
                                   columns, majority.rows - majority.tail_start, majority.rows, columns,
                                   majority.rows_with_width, majority.width);
  } else if (majority.rows > 0) {
    detection_.width = fmt::format("{} columns: {}; {} of the {} rows sampled below the first have {} fields", columns,
                                   columns == first_width ? "the first row's" : "most rows'", majority.rows_with_width,
                                   majority.rows, majority.width);
  } else {
    detection_.width = fmt::format("{} columns: the first row's{}", columns,
                                   options_.parse.ragged_rows == RaggedRows::kError ? " (--ragged error)" : "");
  }
  while (true) {
    const std::string_view data(reinterpret_cast<const char*>(window_->data()), static_cast<size_t>(window_size_));
    const std::string_view rest = data.substr(static_cast<size_t>(first_result.consumed));
    const int64_t stop = std::min<int64_t>(sample_bytes, static_cast<int64_t>(rest.size()));
    sample.Clear(columns);
    STRATA_RETURN_NOT_OK(
        parser_->Parse(rest, stop, eof_, window_line_ + first_result.lines, INT64_MAX, &sample, &sample_result));
    if (eof_ || sample_result.consumed >= stop) break;
    STRATA_RETURN_NOT_OK(grow_for_row(first_result.consumed + sample_result.consumed));
  }
  Count(sample_result);

  auto sample_inferrers = MakeInferrers(options_.convert, columns);
  for (int c = 0; c < columns; ++c) sample_inferrers[static_cast<size_t>(c)].Observe(sample, c);
  if (options_.parse.header) {
    has_header_ = *options_.parse.header;
    detection_.header = has_header_ ? "yes: given" : "no: given";
  } else {
    // A header is a first row that does not fit the types of the rows below it; when every
    // column is text (nothing to tell by), a first row is taken as a header. all_strings
    // changes the types read, not this decision: the types are inferred here all the same.
    ConvertOptions typed = options_.convert;
    typed.all_strings = false;
    std::vector<ColumnTypeInferrer> typed_inferrers;
    if (options_.convert.all_strings) {
      typed_inferrers = MakeInferrers(typed, columns);
      for (int c = 0; c < columns; ++c) typed_inferrers[static_cast<size_t>(c)].Observe(sample, c);
    }
    const auto& inferrers = options_.convert.all_strings ? typed_inferrers : sample_inferrers;
    has_header_ = true;
    detection_.header = "yes: no row below the first to compare it with";
    if (sample.num_rows() > 0) {
      bool all_text = true, first_row_fits = true;
      for (int c = 0; c < std::min(columns, first_width); ++c) {
        const TypePtr below = inferrers[static_cast<size_t>(c)].type();
        if (below->id() == TypeId::kString || below->id() == TypeId::kNull || below->id() == TypeId::kBinary) continue;
        all_text = false;
        ColumnTypeInferrer with_first(typed);
        with_first.Observe(first_row, c);
        with_first.Observe(sample, c);
        if (!with_first.type()->Equals(below) && first_row_fits) {
          first_row_fits = false;
          detection_.header = fmt::format("yes: '{}' in the first row does not fit column {} ({} below it)",
                                          first_row.Field(0, c), c + 1, below->ToString());
        }
      }
      has_header_ = all_text || !first_row_fits;
      if (all_text) detection_.header = "yes: every column is text, nothing to tell a header by";
      if (!has_header_) detection_.header = "no: the first row fits the types of the rows below it";
    }
  }
  if (!has_header_ && first_width != columns) {
    // The first row is data of another width than the rows below: held to it like them.
    first_row.Clear(columns);
    BlockParseResult again;
    const std::string_view data(reinterpret_cast<const char*>(window_->data()), static_cast<size_t>(window_size_));
    STRATA_RETURN_NOT_OK(parser_->Parse(data, first_result.consumed, eof_, window_line_, 1, &first_row, &again));
    Count(again);
  }
  if (!has_header_) {
    for (int c = 0; c < columns; ++c) sample_inferrers[static_cast<size_t>(c)].Observe(first_row, c);
  }

  // Names: given, else the header's, else f0, f1, ...
  std::vector<std::string> names;
  if (!options_.parse.column_names.empty()) {
    if (static_cast<int>(options_.parse.column_names.size()) != columns) {
      return Status::Invalid("'{}': {} column names given, but line {} has {} fields", input_->name(),
                             options_.parse.column_names.size(), window_line_, columns);
    }
    names = options_.parse.column_names;
  } else {
    for (int c = 0; c < (has_header_ ? first_width : columns); ++c) {
      names.push_back(has_header_ ? std::string(first_row.Field(0, c)) : "");
    }
    if (has_header_ && first_width != columns) RepairHeader(columns, majority, &names);
  }
  names = UniqueNames(std::move(names));

  // Types: given (whole schema by position, or by name), else inferred.
  if (convert.schema && convert.schema->num_fields() != columns) {
    return Status::Invalid("'{}': the schema given has {} fields, the input {} columns", input_->name(),
                           convert.schema->num_fields(), columns);
  }
  std::vector<FieldPtr> fields;
  inferred_.assign(static_cast<size_t>(columns), false);
  for (const auto& [name, type] : convert.column_types) {
    if (std::find(names.begin(), names.end(), name) == names.end()) {
      return Status::Invalid("'{}' has no column '{}' (a type was given for it)", input_->name(), name);
    }
  }
  for (int c = 0; c < columns; ++c) {
    TypePtr type;
    std::string name = names[static_cast<size_t>(c)];
    if (convert.schema) {
      type = convert.schema->field(c)->type();
      if (options_.parse.column_names.empty() && !has_header_) name = convert.schema->field(c)->name();
    }
    for (const auto& [given_name, given_type] : convert.column_types) {
      if (given_name == name) type = given_type;
    }
    if (!type) {
      type = whole_file_types != nullptr && !whole_file_types->empty() ? (*whole_file_types)[static_cast<size_t>(c)]
                                                                      : sample_inferrers[static_cast<size_t>(c)].type();
      // A column with no value in the sample is read as text: whatever comes later fits.
      if (type->id() == TypeId::kNull) type = utf8();
      inferred_[static_cast<size_t>(c)] = true;
    }
    fields.push_back(field(name, type));
  }
  full_schema_ = strata::schema(fields);
  num_input_columns_ = columns;
  // Only the included columns are converted (all are parsed: a field's end is found by
  // reading it anyway).
  selected_.clear();
  if (convert.include_columns.empty()) {
    for (int c = 0; c < columns; ++c) selected_.push_back(c);
  } else {
    for (const auto& name : convert.include_columns) {
      const auto it = std::find(names.begin(), names.end(), name);
      if (it == names.end()) return Status::Invalid("'{}' has no column '{}'", input_->name(), name);
      selected_.push_back(static_cast<int>(it - names.begin()));
    }
  }
  std::vector<FieldPtr> selected_fields;
  for (int c : selected_) selected_fields.push_back(fields[static_cast<size_t>(c)]);
  schema_ = strata::schema(std::move(selected_fields));

  if (whole_file_types != nullptr && whole_file_types->empty()) {
    // The first pass of infer_whole_file: keep observing, convert nothing.
    inferrers_ = std::move(sample_inferrers);
  } else {
    std::vector<std::shared_ptr<RecordBatch>> batches;
    if (!has_header_) STRATA_RETURN_NOT_OK(Convert(first_row, &batches));
    STRATA_RETURN_NOT_OK(Convert(sample, &batches));
    report_.rows += (has_header_ ? 0 : first_row.num_rows()) + sample.num_rows();
    for (auto& batch : batches) ready_.push_back(std::move(batch));
  }
  window_line_ += first_result.lines + sample_result.lines;
  DropFront(window_.get(), &window_size_, first_result.consumed + sample_result.consumed);
  return Status::OK();
}

Status CsvReader::Start(const std::vector<TypePtr>* whole_file_types) {
  STRATA_RETURN_NOT_OK(FillWindow(options_.read.sample_bytes));
  // A UTF-8 byte order mark is not part of the first field.
  if (window_size_ >= 3 && std::memcmp(window_->data(), "\xEF\xBB\xBF", 3) == 0) {
    DropFront(window_.get(), &window_size_, 3);
  }
  STRATA_RETURN_NOT_OK(SkipLeadingLines());
  STRATA_RETURN_NOT_OK(FillWindow(options_.read.sample_bytes));  // skipped lines took part of it
  const std::string_view sample(reinterpret_cast<const char*>(window_->data()),
                                static_cast<size_t>(std::min(window_size_, options_.read.sample_bytes)));
  detection_.sample_bytes = static_cast<int64_t>(sample.size());
  STRATA_ASSIGN_OR_RETURN(dialect_, DetectDialect(sample, options_.parse, pool_, &detection_.dialects));
  STRATA_RETURN_NOT_OK(SkipPreamble(sample));
  parser_ = std::make_unique<BlockParser>(dialect_, options_.parse.ragged_rows, options_.parse.max_row_bytes,
                                          input_->name());
  splitter_ = std::make_unique<BlockSplitter>(dialect_);
  return ReadHeaderAndSample(whole_file_types);
}

Status CsvReader::SkipPreamble(std::string_view sample) {
  if (options_.parse.skip_rows > 0) {
    detection_.preamble = "not looked for: lines skipped as asked (--skip-rows)";
    return Status::OK();
  }
  if (options_.parse.header == false) {
    detection_.preamble = "not looked for: no header (given)";
    return Status::OK();
  }
  const bool at_end = eof_ && window_size_ == static_cast<int64_t>(sample.size());
  const Preamble preamble = DetectPreamble(sample, at_end, dialect_, options_.convert, pool_);
  if (preamble.rows == 0) {
    detection_.preamble = "none: the table starts at the first row";
    return Status::OK();
  }
  report_.preamble_rows = preamble.rows;
  report_.preamble_first_line = window_line_;
  report_.preamble_last_line = window_line_ + preamble.lines - 1;
  std::string excerpts;
  for (const std::string& excerpt : preamble.excerpts) excerpts += fmt::format("{}'{}'", excerpts.empty() ? "" : ", ", excerpt);
  if (preamble.rows > static_cast<int64_t>(preamble.excerpts.size())) excerpts += ", ...";
  detection_.preamble = fmt::format("{} row{} skipped (line{} {}{}: {}): {}", preamble.rows, preamble.rows == 1 ? "" : "s",
                                    preamble.lines == 1 ? "" : "s", report_.preamble_first_line,
                                    preamble.lines == 1 ? "" : fmt::format("-{}", report_.preamble_last_line), excerpts,
                                    preamble.reason);
  DropFront(window_.get(), &window_size_, preamble.bytes);
  window_line_ += preamble.lines;
  return FillWindow(options_.read.sample_bytes);
}

Status CsvReader::Convert(const ParsedRows& rows, std::vector<std::shared_ptr<RecordBatch>>* out) const {
  const int64_t num_rows = rows.num_rows();
  if (num_rows == 0) return Status::OK();
  std::vector<Array> columns;
  columns.reserve(static_cast<size_t>(schema_->num_fields()));
  for (int i = 0; i < schema_->num_fields(); ++i) {
    const int c = selected_[static_cast<size_t>(i)];
    const FieldPtr& f = schema_->field(i);
    ColumnContext context{input_->name(), f->name(), c, inferred_[static_cast<size_t>(c)], options_.read.sample_bytes};
    STRATA_ASSIGN_OR_RETURN(Array array, ConvertColumn(rows, c, f->type(), options_.convert, context, pool_));
    columns.push_back(std::move(array));
  }
  auto batch = std::make_shared<RecordBatch>(schema_, num_rows, std::move(columns));
  const int64_t batch_rows = options_.read.batch_rows;
  if (num_rows <= batch_rows) {
    out->push_back(std::move(batch));
    return Status::OK();
  }
  for (int64_t offset = 0; offset < num_rows; offset += batch_rows) {
    out->push_back(batch->Slice(offset, std::min(batch_rows, num_rows - offset)));
  }
  return Status::OK();
}

// Two windows in flight: while the pool parses one, this thread reads and splits the next,
// so reading (and decompressing) overlaps parsing. Window k+1 starts with the tail of window k
// from its last true row start, so every block handed to the parser holds whole rows.
Result<bool> CsvReader::ParseNextWindow() {
  while (true) {
    if (!input_exhausted_ && in_flight_.size() < 2) {
      STRATA_RETURN_NOT_OK(SubmitNextWindow());
      continue;
    }
    if (in_flight_.empty()) return false;
    const int slot = in_flight_.front();
    in_flight_.pop_front();
    STRATA_RETURN_NOT_OK(CollectWindow(&windows_[slot]));
    return true;
  }
}

Status CsvReader::SubmitNextWindow() {
  const int64_t block_bytes = options_.read.block_bytes;
  // Two blocks per thread keep the threads busy when blocks differ in cost.
  const exec::Executor& executor = options_.read.executor;
  int64_t target = std::max<int64_t>(2 * executor.threads() * block_bytes, window_size_ + block_bytes);
  std::vector<BlockStart> starts;
  size_t parsed_blocks = 0;
  while (true) {
    STRATA_RETURN_NOT_OK(FillWindow(target));
    if (window_size_ == 0 && eof_) {
      input_exhausted_ = true;
      return Status::OK();
    }
    const std::string_view data(reinterpret_cast<const char*>(window_->data()), static_cast<size_t>(window_size_));
    const std::vector<int64_t> candidates = splitter_->CandidateBoundaries(data, block_bytes);
    std::vector<ChunkScan> scans(candidates.size());
    {
      exec::TaskGroup group(executor.pool(), executor.threads());
      for (size_t k = 0; k < candidates.size(); ++k) {
        group.Submit([&, k]() {
          scans[k] = splitter_->ScanChunk(data, k == 0 ? 0 : candidates[k - 1], candidates[k]);
          return Status::OK();
        });
      }
      STRATA_RETURN_NOT_OK(group.Wait());
    }
    starts = splitter_->ResolveBlockStarts(data, candidates, scans, window_line_);
    // Until the input ends, the last block (from the last row start) waits for the next window.
    parsed_blocks = eof_ ? starts.size() : starts.size() - 1;
    if (parsed_blocks > 0) break;
    // One row longer than the window: read more of it. It starts within the first block
    // (short rows before it wait with it), so past max_row_bytes + block_bytes it is too
    // long: the parser then fails naming its line. Growth stops there, so a quote never
    // closed holds about max_row_bytes of window, not twice that.
    int64_t row_start = 0;
    if (window_size_ > options_.parse.max_row_bytes + block_bytes + 2) {
      ParsedRows rows(pool_);
      rows.Clear(schema_->num_fields());
      BlockParseResult result;
      STRATA_RETURN_NOT_OK(parser_->Parse(data, window_size_, false, window_line_, INT64_MAX, &rows, &result));
      row_start = result.consumed;  // not reached for a row that long; grow past its start
    }
    const int64_t enough = row_start + options_.parse.max_row_bytes + block_bytes + 3;
    target = std::max(window_size_ + 1, std::min(window_size_ * 2, enough));
  }

  const int slot_index = windows_[0].in_flight ? 1 : 0;
  Window& slot = windows_[slot_index];
  std::swap(slot.buffer, window_);
  slot.size = window_size_;
  slot.in_flight = true;
  // The next window starts with this one's unparsed tail.
  const int64_t tail = eof_ ? slot.size : starts[parsed_blocks].offset;
  window_size_ = slot.size - tail;
  if (window_->capacity() < window_size_ + block_bytes) STRATA_RETURN_NOT_OK(window_->Reserve(window_size_ + block_bytes));
  if (window_size_ > 0) std::memcpy(window_->mutable_data(), slot.buffer->data() + tail, static_cast<size_t>(window_size_));
  window_->set_size(window_size_);
  if (!eof_) window_line_ = starts[parsed_blocks].line;
  if (eof_) input_exhausted_ = true;

  while (slot.blocks.size() < parsed_blocks) slot.blocks.push_back(std::make_unique<Block>(pool_));
  slot.num_blocks = parsed_blocks;
  slot.group = std::make_unique<exec::TaskGroup>(executor.pool(), executor.threads());
  const std::string_view data(reinterpret_cast<const char*>(slot.buffer->data()), static_cast<size_t>(slot.size));
  const int columns = num_input_columns_;
  const bool is_final = eof_;
  for (size_t b = 0; b < parsed_blocks; ++b) {
    Block* block = slot.blocks[b].get();
    block->start = starts[b].offset;
    block->stop = b + 1 < starts.size() ? starts[b + 1].offset : slot.size;
    block->line = starts[b].line;
    block->batches.clear();
    slot.group->Submit([this, block, data, columns, is_final]() {
      block->rows.Clear(columns);
      STRATA_RETURN_NOT_OK(parser_->Parse(data.substr(static_cast<size_t>(block->start)), block->stop - block->start,
                                          is_final, block->line, INT64_MAX, &block->rows, &block->result));
      if (inferrers_.empty()) return Convert(block->rows, &block->batches);
      return Status::OK();
    });
  }
  in_flight_.push_back(slot_index);
  return Status::OK();
}

Status CsvReader::CollectWindow(Window* window) {
  const Status status = window->group->Wait();
  window->in_flight = false;
  STRATA_RETURN_NOT_OK(status);
  const int columns = num_input_columns_;
  for (size_t b = 0; b < window->num_blocks; ++b) {
    Block& block = *window->blocks[b];
    if (block.result.consumed != block.stop - block.start) {
      return Status::Corrupt("'{}' line {}: a block boundary was misplaced (parsed {} of {} bytes); please report",
                             input_->name(), block.line, block.result.consumed, block.stop - block.start);
    }
    Count(block.result);
    if (inferrers_.empty()) report_.rows += block.rows.num_rows();
    if (!inferrers_.empty()) {
      for (int c = 0; c < columns; ++c) inferrers_[static_cast<size_t>(c)].Observe(block.rows, c);
    }
    for (auto& batch : block.batches) ready_.push_back(std::move(batch));
    block.batches.clear();
  }
  return Status::OK();
}

// A header of another width than most rows: the missing names are left empty (UniqueNames
// makes them f<i>); extra ones go, the empty ones first (a stray separator), then the last.
void CsvReader::RepairHeader(int columns, const SampleWidth& majority, std::vector<std::string>* names) {
  const int header_width = static_cast<int>(names->size());
  std::string change;
  if (header_width < columns) {
    names->resize(static_cast<size_t>(columns));
    change = fmt::format("{} name{} generated (f{}..)", columns - header_width, columns - header_width == 1 ? "" : "s",
                         header_width);
  } else {
    std::vector<std::string> dropped;
    for (int c = header_width - 1; c >= 0 && static_cast<int>(names->size()) > columns; --c) {
      if ((*names)[static_cast<size_t>(c)].empty()) {
        names->erase(names->begin() + c);
        dropped.push_back("''");
      }
    }
    while (static_cast<int>(names->size()) > columns) {
      dropped.push_back("'" + names->back() + "'");
      names->pop_back();
    }
    change = fmt::format("name{} dropped:", dropped.size() == 1 ? "" : "s");
    for (size_t i = 0; i < dropped.size(); ++i) change += (i == 0 ? " " : ", ") + dropped[i];
  }
  report_.header_repair = fmt::format("line {}: the header has {} fields, {} of the {} rows sampled below it {} {}: "
                                      "read as {} columns, {}",
                                      window_line_, header_width, majority.rows_with_width, majority.rows,
                                      majority.rows_with_width == 1 ? "has" : "have", columns, columns, change);
}

void CsvReader::Count(const BlockParseResult& result) {
  report_.padded_rows += result.padded_rows;
  report_.skipped_rows += result.skipped_rows;
  for (const auto& example : result.skipped_examples) {
    if (report_.skipped_examples.size() < 10) report_.skipped_examples.push_back(example);
  }
  if (result.unclosed_quote_line > 0) report_.unclosed_quote_line = result.unclosed_quote_line;
}

Status CsvReader::CheckRowsLost() const {
  const RaggedRows mode = options_.parse.ragged_rows;
  if (mode != RaggedRows::kSkip && mode != RaggedRows::kSalvage) return Status::OK();
  const int64_t skipped = report_.skipped_rows, total = report_.rows + report_.skipped_rows;
  const int64_t allowed = options_.parse.max_bad_rows;
  if (allowed >= 0 ? skipped <= allowed : 2 * skipped <= total) return Status::OK();
  std::string lines;
  for (const auto& example : report_.skipped_examples) {
    if (lines.size() > 60) {
      lines += ", ...";
      break;
    }
    lines += fmt::format("{}{} ({} fields)", lines.empty() ? "" : ", ", example.line, example.fields);
  }
  return Status::Invalid("'{}': {} of {} rows skipped as not {} fields (lines {}), more than {}: the width or the "
                         "dialect is likely wrong; --max-bad-rows N allows N",
                         input_->name(), skipped, total, num_input_columns_, lines,
                         allowed >= 0 ? fmt::format("--max-bad-rows {}", allowed) : std::string("half"));
}

Result<std::shared_ptr<RecordBatch>> CsvReader::Next() {
  while (ready_.empty()) {
    STRATA_ASSIGN_OR_RETURN(const bool more, ParseNextWindow());
    if (!more) {
      STRATA_RETURN_NOT_OK(CheckRowsLost());
      return std::shared_ptr<RecordBatch>();
    }
  }
  auto batch = std::move(ready_.front());
  ready_.pop_front();
  return batch;
}

Result<std::shared_ptr<Table>> CsvReader::ReadAll() {
  std::vector<std::shared_ptr<RecordBatch>> batches;
  while (true) {
    STRATA_ASSIGN_OR_RETURN(auto batch, Next());
    if (!batch) break;
    batches.push_back(std::move(batch));
  }
  return Table::FromRecordBatches(schema_, batches);
}

Status CsvReader::InferAllTypes(std::vector<TypePtr>* types) {
  while (true) {
    STRATA_ASSIGN_OR_RETURN(const bool more, ParseNextWindow());
    if (!more) break;
  }
  *types = TypesOf(inferrers_);
  for (auto& type : *types) {
    if (type->id() == TypeId::kNull) type = utf8();
  }
  return Status::OK();
}

int64_t CsvReader::memory_size() const {
  int64_t total = window_->capacity() + input_->memory_size();
  for (const auto& window : windows_) {
    if (window.buffer) total += window.buffer->capacity();
    for (const auto& block : window.blocks) total += block->rows.memory_size();
  }
  return total;
}

}  // namespace strata::csv
