// `strata schema`: the Parquet schema as a tree (repetition, physical and logical types, levels)
// and the strata schema it maps to.
#include <cstdio>

#include "strata/cli/command.h"
#include "strata/io/random_access_source.h"
#include "strata/memory/memory_pool.h"
#include "strata/parquet/schema.h"
#include "strata/parquet/thrift/footer.h"

namespace strata::cli {

void RegisterSchemaCommand(CLI::App& app, CommandAction& action) {
  auto* sub = app.add_subcommand("schema", "Print a Parquet file's schema as a tree");
  auto file = std::make_shared<std::string>();
  sub->add_option("file", *file, "Parquet file")->required();
  sub->callback([&action, file] {
    action = [file]() -> Status {
      STRATA_ASSIGN_OR_RETURN(auto source, OpenLocalFile(*file));
      STRATA_ASSIGN_OR_RETURN(auto footer, parquet::ReadFooter(*source, SystemMemoryPool()));
      STRATA_ASSIGN_OR_RETURN(auto descriptor, parquet::SchemaDescriptor::Make(footer.metadata.schema));
      std::fputs(descriptor->ToTreeString().c_str(), stdout);
      std::printf("\nstrata schema:\n%s\n", descriptor->schema()->ToString().c_str());
      return Status::OK();
    };
  });
}

}  // namespace strata::cli
