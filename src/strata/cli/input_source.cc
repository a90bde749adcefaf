// The commands' flags onto dataset::BatchSource (input_source.h).
#include "strata/cli/input_source.h"

#include <algorithm>
#include <cstdio>

#include <fmt/format.h>

#include "strata/dataset/dataset_batch_source.h"

namespace strata::cli {
namespace {

// --input-format's words; kAuto for "auto" and "".
Result<InputFormat> ParseInputFormat(const std::string& input_format) {
  if (input_format == "csv") return InputFormat::kCsv;
  if (input_format == "tsv") return InputFormat::kTsv;
  if (input_format == "parquet") return InputFormat::kParquet;
  if (input_format == "ipc" || input_format == "arrow") return InputFormat::kIpcFile;  // "-": the stream
  if (input_format == "arrows") return InputFormat::kIpcStream;
  if (input_format != "auto" && !input_format.empty()) {
    return Status::Invalid("--input-format takes auto, csv, tsv, parquet, ipc (arrow) or arrows, not '{}'", input_format);
  }
  return InputFormat::kAuto;
}

}  // namespace

Result<InputFormat> ResolveInputFormat(const std::string& path, const std::string& input_format) {
  STRATA_ASSIGN_OR_RETURN(const InputFormat requested, ParseInputFormat(input_format));
  return dataset::ResolveInputFormat(path, requested);
}

Result<std::unique_ptr<BatchSource>> OpenBatchSource(const std::string& path, const CsvCliOptions& csv,
                                                     const SourceOptions& options, MemoryPool* pool) {
  SourceOptions open = options;
  STRATA_ASSIGN_OR_RETURN(open.format, ParseInputFormat(csv.input_format));
  const std::string given = csv.FirstGivenCsvOption();
  if (!given.empty()) {
    if ((open.format == InputFormat::kAuto || open.format == InputFormat::kParquet) && dataset::IsDatasetInput(path)) {
      return Status::Invalid("{} applies to CSV input, and '{}' is a Parquet dataset", given, path);
    }
    const InputFormat format = dataset::ResolveInputFormat(path, open.format);
    if (format != InputFormat::kCsv && format != InputFormat::kTsv) {
      return Status::Invalid("{} applies to CSV input, and '{}' is read as {} (see --input-format)", given, path,
                             format == InputFormat::kParquet ? "Parquet" : "Arrow IPC");
    }
  }
  // Without CSV flags these are the reader's defaults.
  STRATA_ASSIGN_OR_RETURN(open.csv, MakeCsvReadOptions(csv));
  if (!csv.schema.empty()) {
    STRATA_ASSIGN_OR_RETURN(open.csv_schema, ParseSchemaSpec(csv.schema, "--schema"));
    open.csv_schema_label = "--schema";
  }
  return dataset::OpenBatchSource(path, open, pool);
}

void AddFilterOptions(CLI::App* sub, std::string* filter, std::string* pruning) {
  sub->add_option("--filter", *filter,
                  "Rows to keep, e.g. \"l_shipdate >= '1998-09-01' AND l_returnflag IN ('R', 'A')\" "
                  "(=, !=, <, <=, >, >=, IN, IS [NOT] NULL, AND, OR, NOT)");
  sub->add_option("--pruning", *pruning,
                  "Skip row groups and pages by statistics, dictionaries, Bloom filters and the page index (Parquet)")
      ->check(CLI::IsMember({"on", "off"}));
}

std::string PruningStatsLine(const parquet::PruningStats& s) {
  const int64_t skipped = s.row_groups_by_statistics + s.row_groups_by_dictionary + s.row_groups_by_bloom_filter;
  return fmt::format(
      "filter: {} of {} row groups skipped (statistics {}, dictionary {}, Bloom filter {}); {} pages passed over "
      "undecoded{}; {} of {} rows selected, {} decoded by the filter columns, {} skipped by the page index; "
      "{} of {} column chunk bytes skipped with their row groups",
      skipped, s.row_groups, s.row_groups_by_statistics, s.row_groups_by_dictionary, s.row_groups_by_bloom_filter,
      s.pages_skipped, s.pages > 0 ? fmt::format(" (of {})", s.pages) : "", s.rows_selected, s.rows, s.rows_decoded,
      s.rows_skipped_by_page_index, s.bytes_skipped, s.bytes);
}

void ReportSkippedRows(const BatchSource& source) {
  const std::string report = source.SkippedRowsReport();
  for (size_t at = 0; at < report.size();) {
    const size_t end = std::min(report.find('\n', at), report.size());
    std::fprintf(stderr, "strata: %.*s\n", static_cast<int>(end - at), report.data() + at);
    at = end + 1;
  }
}

void AddInt96UnitOption(CLI::App* sub, std::string* unit) {
  sub->add_option("--int96-unit", *unit,
                  "INT96 timestamps as ns (default: years 1677-2262, a value outside fails), us or ms (Spark's range)");
}

CLI::Option* AddNoRestoreArrowSchemaFlag(CLI::App* sub, bool* no_restore) {
  return sub->add_flag("--no-restore-arrow-schema", *no_restore,
                       "Parquet types only: no time zones, durations or dictionaries from the file's ARROW:schema");
}

CLI::Option* AddRowNumberFlag(CLI::App* sub, bool* row_number) {
  return sub->add_flag("--row-number", *row_number,
                       "Add file_row_number, each row's position in its file (from 0, whatever is filtered), and "
                       "for a dataset filename");
}

void SetRowNumberColumns(bool row_number, const std::string& path, SourceOptions* options) {
  if (!row_number) return;
  options->row_number_column = "file_row_number";
  if (dataset::IsDatasetInput(path)) options->file_path_column = "filename";
}

Result<parquet::SchemaOptions> ParseInt96Unit(const std::string& unit) {
  parquet::SchemaOptions options;
  if (unit == "ns") {
    options.int96_unit = TimeUnit::kNano;
  } else if (unit == "us") {
    options.int96_unit = TimeUnit::kMicro;
  } else if (unit == "ms") {
    options.int96_unit = TimeUnit::kMilli;
  } else {
    return Status::Invalid("--int96-unit takes ns, us or ms, not '{}'", unit);
  }
  return options;
}

}  // namespace strata::cli
