// The C API (strata.h): option strings to strata's option structs, Arrow C streams to and from
// the readers (through dataset::BatchSource, as the CLI reads) and the writers, Status to errno codes and a per-thread message.
// Every entry point catches everything: no exception crosses the C ABI.
#include "strata/c/strata.h"

#include <cerrno>
#include <cstring>
#include <new>
#include <string>


#include "strata/arrow_c/stream.h"
#include "strata/c/options.h"
#include "strata/codec/codec_names.h"
#include "strata/csv/reader.h"
#include "strata/csv/writer.h"
#include "strata/exec/process_pool.h"
#include "strata/dataset/batch_source.h"
#include "strata/memory/memory_pool.h"
#include "strata/parquet/read/file_reader.h"
#include "strata/parquet/write/file_writer.h"

#ifndef STRATA_VERSION
#define STRATA_VERSION "0.0.0"
#endif

namespace strata::c_api {
namespace {

// The calling thread's last failure; cleared when a call starts.
thread_local std::string last_error;

constexpr int64_t kMaxThreads = 1 << 16;
constexpr int64_t kMaxCount = int64_t{1} << 50;

void SetLastError(const char* message) noexcept {
  try {
    last_error = message;
  } catch (...) {
    last_error.clear();  // no memory for the message: "" rather than nothing valid
  }
}

// Runs `body` (returning Status) as an entry point called `name`: the errno code of its
// status, the message kept for strata_last_error, every exception caught.
template <typename Body>
int Run(const char* name, Body&& body) noexcept {
  last_error.clear();
  try {
    const Status status = body();
    if (status.ok()) return 0;
    SetLastError(status.WithContext(name).ToString().c_str());
    return arrow_c::ErrnoFromStatus(status);
  } catch (const std::bad_alloc&) {
    SetLastError("out of memory");
    return ENOMEM;
  } catch (const std::exception& e) {
    SetLastError(e.what());
    return EIO;
  } catch (...) {
    SetLastError("unexpected exception");
    return EIO;
  }
}

// Takes over the caller's input stream at once, so that every way out of a write function,
// an argument or option error included, releases it exactly once.
class TakenStream {
 public:
  explicit TakenStream(ArrowArrayStream* in) {
    if (in != nullptr && in->release != nullptr) {
      stream_ = *in;
      in->release = nullptr;
    }
  }
  ~TakenStream() {
    if (stream_.release != nullptr) stream_.release(&stream_);
  }
  TakenStream(const TakenStream&) = delete;
  TakenStream& operator=(const TakenStream&) = delete;

  // Checks the arguments, then hands the stream to ImportBatchStream (which owns it from there).
  Result<std::unique_ptr<arrow_c::RecordBatchStream>> Import(const ArrowArrayStream* in) {
    if (in == nullptr) return Status::Invalid("the input stream is NULL");
    if (stream_.release == nullptr) return Status::Invalid("the input stream is already released");
    return arrow_c::ImportBatchStream(&stream_);
  }

 private:
  ArrowArrayStream stream_{};
};

// ---- Parquet ---------------------------------------------------------------------------

// Both read functions: the library's any-format batch source (dataset/batch_source.h) with
// the format fixed, exported as an Arrow C stream.
Status ReadBatchSource(const char* path, const dataset::BatchSourceOptions& options, ArrowArrayStream* out) {
  STRATA_ASSIGN_OR_RETURN(std::unique_ptr<dataset::BatchSource> source,
                          dataset::OpenBatchSource(path, options, SystemMemoryPool()));
  return arrow_c::ExportBatchStream(dataset::MakeArrowStream(std::move(source)), out);
}

Status ParquetRead(const char* path, const char* options, ArrowArrayStream* out) {
  STRATA_ASSIGN_OR_RETURN(OptionList list, OptionList::Parse(options, {"columns", "threads", "batch_rows", "filter",
                                                                              "restore_arrow_schema"}));
  dataset::BatchSourceOptions read;
  read.format = dataset::InputFormat::kParquet;  // a folder or glob: a dataset of Parquet files
  STRATA_ASSIGN_OR_RETURN(std::optional<int64_t> threads, list.GetInt("threads", 0, kMaxThreads));
  read.executor = exec::ProcessExecutor(static_cast<int>(threads.value_or(1)));
  STRATA_ASSIGN_OR_RETURN(std::optional<int64_t> batch_rows, list.GetInt("batch_rows", 1, kMaxCount));
  if (batch_rows) read.batch_rows = *batch_rows;
  STRATA_ASSIGN_OR_RETURN(auto columns, list.GetList("columns"));
  if (columns) read.columns = std::move(*columns);
  if (std::optional<std::string> text = list.GetString("filter")) read.filter = std::move(*text);
  STRATA_ASSIGN_OR_RETURN(std::optional<bool> restore, list.GetBool("restore_arrow_schema"));
  if (restore) read.restore_arrow_schema = *restore;
  return ReadBatchSource(path, read, out);
}

Result<parquet::WriterOptions> ParquetWriterOptions(const char* options) {
  STRATA_ASSIGN_OR_RETURN(OptionList list,
                          OptionList::Parse(options, {"codec", "level", "row_group_rows", "page_version", "dictionary",
                                                      "statistics", "threads"}));
  parquet::WriterOptions out;
  if (std::optional<std::string> codec = list.GetString("codec")) {
    auto parsed = codec::CodecFromName(*codec);
    if (!parsed.ok()) return parsed.status().WithContext("option 'codec'");
    out.columns.codec = *parsed;
  }
  STRATA_ASSIGN_OR_RETURN(std::optional<int64_t> level, list.GetInt("level", -(1 << 20), 1 << 20));
  if (level) out.columns.compression_level = static_cast<int>(*level);
  STRATA_ASSIGN_OR_RETURN(std::optional<int64_t> rows, list.GetInt("row_group_rows", 1, kMaxCount));
  if (rows) out.file.max_row_group_rows = *rows;
  STRATA_ASSIGN_OR_RETURN(std::optional<int64_t> version, list.GetInt("page_version", 1, 2));
  if (version) out.file.page_version = *version == 2 ? parquet::DataPageVersion::kV2 : parquet::DataPageVersion::kV1;
  STRATA_ASSIGN_OR_RETURN(std::optional<bool> dictionary, list.GetBool("dictionary"));
  if (dictionary) out.columns.dictionary = *dictionary;
  STRATA_ASSIGN_OR_RETURN(std::optional<bool> statistics, list.GetBool("statistics"));
  if (statistics) out.columns.statistics = *statistics;
  STRATA_ASSIGN_OR_RETURN(std::optional<int64_t> threads, list.GetInt("threads", 0, kMaxThreads));
  out.file.executor = exec::ProcessExecutor(static_cast<int>(threads.value_or(0)));
  STRATA_RETURN_NOT_OK(out.Validate());
  return out;
}

Status ParquetWrite(TakenStream* in_stream, const ArrowArrayStream* in, const char* path, const char* options) {
  if (path == nullptr) return Status::Invalid("path is NULL");
  STRATA_ASSIGN_OR_RETURN(parquet::WriterOptions writer_options, ParquetWriterOptions(options));
  STRATA_ASSIGN_OR_RETURN(std::unique_ptr<arrow_c::RecordBatchStream> batches, in_stream->Import(in));
  STRATA_ASSIGN_OR_RETURN(std::unique_ptr<parquet::FileWriter> writer,
                          parquet::FileWriter::Open(path, std::make_shared<Schema>(*batches->schema()),
                                                    SystemMemoryPool(), writer_options));
  while (true) {
    STRATA_ASSIGN_OR_RETURN(std::shared_ptr<RecordBatch> batch, batches->Next());
    if (batch == nullptr) break;
    STRATA_RETURN_NOT_OK(writer->WriteBatch(*batch));
  }
  return writer->Close();  // on any error above, the writer's destructor discards the output
}

// ---- CSV -------------------------------------------------------------------------------

// The batch source's options: CSV's in `csv`, the executor, batch_rows and columns in the common fields.
Result<dataset::BatchSourceOptions> CsvReaderOptions(const char* options) {
  STRATA_ASSIGN_OR_RETURN(OptionList list,
                          OptionList::Parse(options, {"delimiter", "header", "null", "all_strings", "threads", "batch_rows",
                                                      "sample_bytes", "infer_whole_file", "columns", "ragged",
                                                      "max_bad_rows"}));
  dataset::BatchSourceOptions source;
  source.format = dataset::InputFormat::kCsv;
  csv::CsvReadOptions& out = source.csv;
  source.batch_rows = out.read.batch_rows;
  STRATA_ASSIGN_OR_RETURN(out.parse.delimiter, list.GetDelimiter("delimiter"));
  if (std::optional<std::string> header = list.GetString("header")) {
    if (*header == "yes") {
      out.parse.header = true;
    } else if (*header == "no") {
      out.parse.header = false;
    } else if (*header != "auto") {
      return Status::Invalid("option 'header': '{}' is not yes|no|auto", *header);
    }
  }
  if (std::optional<std::string> null_value = list.GetString("null")) out.convert.null_values = {*null_value};
  STRATA_ASSIGN_OR_RETURN(std::optional<bool> all_strings, list.GetBool("all_strings"));
  if (all_strings) out.convert.all_strings = *all_strings;
  STRATA_ASSIGN_OR_RETURN(std::optional<int64_t> threads, list.GetInt("threads", 0, kMaxThreads));
  source.executor = exec::ProcessExecutor(static_cast<int>(threads.value_or(0)));
  STRATA_ASSIGN_OR_RETURN(std::optional<int64_t> batch_rows, list.GetInt("batch_rows", 1, kMaxCount));
  if (batch_rows) source.batch_rows = *batch_rows;
  STRATA_ASSIGN_OR_RETURN(std::optional<int64_t> sample_bytes, list.GetInt("sample_bytes", 1, kMaxCount));
  if (sample_bytes) out.read.sample_bytes = *sample_bytes;
  STRATA_ASSIGN_OR_RETURN(std::optional<bool> whole_file, list.GetBool("infer_whole_file"));
  if (whole_file) out.read.infer_whole_file = *whole_file;
  STRATA_ASSIGN_OR_RETURN(auto columns, list.GetList("columns"));
  if (columns) source.columns = std::move(*columns);
  if (std::optional<std::string> ragged = list.GetString("ragged")) {
    if (*ragged == "error") out.parse.ragged_rows = csv::RaggedRows::kError;
    else if (*ragged == "fill") out.parse.ragged_rows = csv::RaggedRows::kFill;
    else if (*ragged == "skip") out.parse.ragged_rows = csv::RaggedRows::kSkip;
    else if (*ragged == "salvage") out.parse.ragged_rows = csv::RaggedRows::kSalvage;
    else return Status::Invalid("option 'ragged': '{}' is not error|fill|skip|salvage", *ragged);
  }
  STRATA_ASSIGN_OR_RETURN(std::optional<int64_t> max_bad_rows, list.GetInt("max_bad_rows", 0, kMaxCount));
  if (max_bad_rows) out.parse.max_bad_rows = *max_bad_rows;
  STRATA_RETURN_NOT_OK(out.Validate());
  return source;
}

Status CsvRead(const char* path, const char* options, ArrowArrayStream* out) {
  STRATA_ASSIGN_OR_RETURN(dataset::BatchSourceOptions read, CsvReaderOptions(options));
  return ReadBatchSource(path, read, out);
}

Result<csv::WriteOptions> CsvWriterOptions(const char* options) {
  STRATA_ASSIGN_OR_RETURN(OptionList list, OptionList::Parse(options, {"delimiter", "header", "null"}));
  csv::WriteOptions out;
  STRATA_ASSIGN_OR_RETURN(std::optional<std::string> delimiter, list.GetDelimiter("delimiter"));
  if (delimiter) {
    if (delimiter->size() != 1) return Status::Invalid("option 'delimiter': the CSV writer takes one byte, not '{}'", *delimiter);
    out.delimiter = (*delimiter)[0];
  }
  STRATA_ASSIGN_OR_RETURN(std::optional<bool> header, list.GetBool("header"));
  if (header) out.header = *header;
  if (std::optional<std::string> null_value = list.GetString("null")) out.null_value = *null_value;
  STRATA_RETURN_NOT_OK(out.Validate());
  return out;
}

Status CsvWrite(TakenStream* in_stream, const ArrowArrayStream* in, const char* path, const char* options) {
  if (path == nullptr) return Status::Invalid("path is NULL");
  STRATA_ASSIGN_OR_RETURN(csv::WriteOptions write_options, CsvWriterOptions(options));
  STRATA_ASSIGN_OR_RETURN(std::unique_ptr<arrow_c::RecordBatchStream> batches, in_stream->Import(in));
  STRATA_ASSIGN_OR_RETURN(std::unique_ptr<csv::CsvWriter> writer,
                          csv::CsvWriter::Open(path, batches->schema(), SystemMemoryPool(), write_options));
  while (true) {
    STRATA_ASSIGN_OR_RETURN(std::shared_ptr<RecordBatch> batch, batches->Next());
    if (batch == nullptr) break;
    STRATA_RETURN_NOT_OK(writer->Write(*batch));
  }
  return writer->Close();
}

// The read functions' common checks; *out is left released whatever happens next.
Status CheckReadArguments(const char* path, ArrowArrayStream* out) {
  if (out == nullptr) return Status::Invalid("the output stream is NULL");
  std::memset(out, 0, sizeof(*out));
  if (path == nullptr) return Status::Invalid("path is NULL");
  return Status::OK();
}

}  // namespace
}  // namespace strata::c_api

using strata::Status;
using strata::c_api::Run;
using strata::c_api::TakenStream;

extern "C" {

int strata_parquet_read(const char* path, const char* options, ArrowArrayStream* out) {
  return Run("strata_parquet_read", [&]() -> Status {
    STRATA_RETURN_NOT_OK(strata::c_api::CheckReadArguments(path, out));
    return strata::c_api::ParquetRead(path, options, out);
  });
}

int strata_parquet_write(ArrowArrayStream* in, const char* path, const char* options) {
  return Run("strata_parquet_write", [&]() -> Status {
    TakenStream taken(in);
    return strata::c_api::ParquetWrite(&taken, in, path, options);
  });
}

int strata_csv_read(const char* path, const char* options, ArrowArrayStream* out) {
  return Run("strata_csv_read", [&]() -> Status {
    STRATA_RETURN_NOT_OK(strata::c_api::CheckReadArguments(path, out));
    return strata::c_api::CsvRead(path, options, out);
  });
}

int strata_csv_write(ArrowArrayStream* in, const char* path, const char* options) {
  return Run("strata_csv_write", [&]() -> Status {
    TakenStream taken(in);
    return strata::c_api::CsvWrite(&taken, in, path, options);
  });
}

const char* strata_last_error(void) { return strata::c_api::last_error.c_str(); }

const char* strata_version(void) { return STRATA_VERSION; }

int strata_set_memory_limit(int64_t bytes) {
  return strata::c_api::Run("strata_set_memory_limit", [&]() -> strata::Status {
    if (bytes < 0) return strata::Status::Invalid("a memory limit cannot be negative, got {}", bytes);
    strata::SystemMemoryPool()->set_limit(bytes);
    return strata::Status::OK();
  });
}

int64_t strata_memory_limit(void) { return strata::SystemMemoryPool()->limit(); }

}  // extern "C"
