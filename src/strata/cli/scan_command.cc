// `strata scan`: decode every column and summarise it.
#include "strata/cli/command.h"

namespace strata::cli {

void RegisterScanCommand(CLI::App& app, CommandAction& action) {
  auto* sub = app.add_subcommand("scan", "Decode every column and summarise it");
  auto file = std::make_shared<std::string>();
  sub->add_option("file", *file, "Parquet file")->required();
  sub->callback([&action, file] {
    action = [file] { return Status::NotImplemented("'scan' is not available yet ({})", *file); };
  });
}

}  // namespace strata::cli
