// `strata meta`: print a Parquet file's metadata.
#include "strata/cli/command.h"

namespace strata::cli {

void RegisterMetaCommand(CLI::App& app, CommandAction& action) {
  auto* sub = app.add_subcommand("meta", "Print a Parquet file's metadata");
  auto file = std::make_shared<std::string>();
  sub->add_option("file", *file, "Parquet file")->required();
  sub->callback([&action, file] {
    action = [file] { return Status::NotImplemented("'meta' is not available yet ({})", *file); };
  });
}

}  // namespace strata::cli
