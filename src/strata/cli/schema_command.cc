// `strata schema`: print a Parquet file's schema as a tree.
#include "strata/cli/command.h"

namespace strata::cli {

void RegisterSchemaCommand(CLI::App& app, CommandAction& action) {
  auto* sub = app.add_subcommand("schema", "Print a Parquet file's schema as a tree");
  auto file = std::make_shared<std::string>();
  sub->add_option("file", *file, "Parquet file")->required();
  sub->callback([&action, file] {
    action = [file] { return Status::NotImplemented("'schema' is not available yet ({})", *file); };
  });
}

}  // namespace strata::cli
