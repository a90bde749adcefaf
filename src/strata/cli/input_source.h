// How the commands read an input whatever its format: the library's dataset::BatchSource,
// opened with what --input-format, the CSV flags, --filter, --pruning and --int96-unit ask.
#pragma once

#include <memory>
#include <string>

#include <CLI/CLI.hpp>

#include "strata/cli/csv_cli_options.h"
#include "strata/dataset/batch_source.h"
#include "strata/memory/memory_pool.h"
#include "strata/parquet/filter/filtered_reader.h"
#include "strata/parquet/schema.h"
#include "strata/util/result.h"

namespace strata::cli {

using dataset::BatchSource;
using dataset::InputFormat;
// What a command asks of any input; the CLI fills format and the CSV fields from its flags.
using SourceOptions = dataset::BatchSourceOptions;

// --input-format, else the extension (dataset::ResolveInputFormat).
Result<InputFormat> ResolveInputFormat(const std::string& path, const std::string& input_format);

// --filter and --pruning on|off, for the reading commands.
void AddFilterOptions(CLI::App* sub, std::string* filter, std::string* pruning);
// The --stats line on what a filtered Parquet read skipped.
std::string PruningStatsLine(const parquet::PruningStats& stats);

// --int96-unit ns|us|ms (reading commands): INT96 read as timestamps of that unit. ns holds
// years 1677-2262 and fails on a value outside; us and ms hold Spark's whole range.
void AddInt96UnitOption(CLI::App* sub, std::string* unit);
Result<parquet::SchemaOptions> ParseInt96Unit(const std::string& unit);

// --no-restore-arrow-schema (reading commands): Parquet input keeps its Parquet types, without
// the zones, durations and dictionaries restored from an Arrow writer's ARROW:schema.
CLI::Option* AddNoRestoreArrowSchemaFlag(CLI::App* sub, bool* no_restore);

// --row-number (reading commands, Parquet input): a last column file_row_number, each row's
// position in its file, and for a dataset (a folder or glob) also filename.
CLI::Option* AddRowNumberFlag(CLI::App* sub, bool* row_number);
// The columns --row-number asks for, set on `options` for input `path`.
void SetRowNumberColumns(bool row_number, const std::string& path, SourceOptions* options);

// Opens `path` (dataset::OpenBatchSource) with the format and CSV options the flags in `csv`
// give. CSV-only options given for a Parquet input are an error naming the option.
Result<std::unique_ptr<BatchSource>> OpenBatchSource(const std::string& path, const CsvCliOptions& csv,
                                                     const SourceOptions& options, MemoryPool* pool);

// Prints source.SkippedRowsReport() on stderr when there is one.
void ReportSkippedRows(const BatchSource& source);

}  // namespace strata::cli
