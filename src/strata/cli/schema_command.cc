// `strata schema`: the Parquet schema as a tree (repetition, physical and logical types, levels)
// and the strata schema it maps to (with the types restored from an Arrow writer's ARROW:schema,
// as the reading commands' batches carry them); for a CSV file, the detected dialect and header on one line
// and the schema inferred from the sample (or given with --schema).
#include <cstdio>

#include "strata/cli/command.h"
#include "strata/cli/encryption_cli_options.h"
#include "strata/cli/input_source.h"
#include "strata/io/random_access_source.h"
#include "strata/memory/memory_pool.h"
#include "strata/parquet/read/arrow_schema_restore.h"
#include "strata/parquet/schema.h"
#include "strata/parquet/thrift/footer.h"
#include "strata/io/location.h"

namespace strata::cli {
namespace {

struct SchemaArgs {
  std::string file;
  bool no_restore_arrow_schema = false;
  CsvCliOptions csv;
  EncryptionCliOptions encryption;
};

Status PrintCsvSchema(const SchemaArgs& args) {
  SourceOptions options;
  STRATA_ASSIGN_OR_RETURN(options.decryption, MakeDecryptionOptions(args.encryption));
  options.executor = exec::Executor();  // only the sample is read: on this thread
  STRATA_ASSIGN_OR_RETURN(auto source, OpenBatchSource(args.file, args.csv, options, SystemMemoryPool()));
  std::printf("%s\n", source->DialectLine().c_str());
  if (const std::string detection = source->DetectionLines(); !detection.empty()) std::printf("%s\n", detection.c_str());
  std::printf("\nstrata schema:\n%s\n", source->schema()->ToString().c_str());
  ReportSkippedRows(*source);
  return Status::OK();
}

Status RunSchema(const SchemaArgs& args) {
  STRATA_ASSIGN_OR_RETURN(const InputFormat format, ResolveInputFormat(args.file, args.csv.input_format));
  if (format != InputFormat::kParquet) return PrintCsvSchema(args);
  const std::string given = args.csv.FirstGivenCsvOption();
  if (!given.empty()) {
    return Status::Invalid("{} applies to CSV input, and '{}' is read as Parquet (see --input-format)", given,
                           args.file);
  }
  STRATA_ASSIGN_OR_RETURN(auto source, OpenInputLocation(args.file));
  STRATA_ASSIGN_OR_RETURN(auto footer, parquet::ReadFooter(*source, SystemMemoryPool()));
  const auto& key_values = footer.metadata.key_value_metadata;
  STRATA_ASSIGN_OR_RETURN(auto descriptor, parquet::SchemaDescriptor::Make(footer.metadata.schema, {},
                                                                           key_values ? &*key_values : nullptr));
  std::fputs(descriptor->ToTreeString().c_str(), stdout);
  const Schema& schema = *descriptor->schema();
  const auto plan = args.no_restore_arrow_schema ? std::vector<parquet::FieldRestore>()
                                                 : parquet::PlanArrowSchemaRestore(footer.metadata, schema);
  std::printf("\nstrata schema:\n%s\n", parquet::RestoredSchema(schema, plan)->ToString().c_str());
  return Status::OK();
}

}  // namespace

void RegisterSchemaCommand(CLI::App& app, CommandAction& action) {
  auto* sub = app.add_subcommand("schema", "Print a Parquet file's schema as a tree, or a CSV file's inferred schema");
  auto args = std::make_shared<SchemaArgs>();
  sub->add_option("file", args->file, "Parquet or CSV file (.csv, .tsv, .csv.gz, ...)")->required();
  AddNoRestoreArrowSchemaFlag(sub, &args->no_restore_arrow_schema);
  AddCsvOptions(sub, &args->csv);
  AddEncryptionOptions(sub, &args->encryption);
  sub->callback([&action, args] { action = [args] { return RunSchema(*args); }; });
}

}  // namespace strata::cli
