// `strata cat`: print a Parquet file's rows.
#include "strata/cli/command.h"

namespace strata::cli {

void RegisterCatCommand(CLI::App& app, CommandAction& action) {
  auto* sub = app.add_subcommand("cat", "Print a Parquet file's rows");
  auto file = std::make_shared<std::string>();
  sub->add_option("file", *file, "Parquet file")->required();
  sub->callback([&action, file] {
    action = [file] { return Status::NotImplemented("'cat' is not available yet ({})", *file); };
  });
}

}  // namespace strata::cli
