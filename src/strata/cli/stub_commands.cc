// Subcommands whose layers have not landed yet answer NotImplemented clearly. Each moves to
// its own file when its layer lands.
#include "strata/cli/command.h"

namespace strata::cli {
namespace {

void RegisterPending(CLI::App& app, CommandAction& action, const char* name, const char* what) {
  auto* sub = app.add_subcommand(name, what);
  auto file = std::make_shared<std::string>();
  sub->add_option("file", *file, "Parquet file")->required();
  sub->callback([&action, file, name = std::string(name)] {
    action = [file, name] { return Status::NotImplemented("'{}' is not available yet ({})", name, *file); };
  });
}

}  // namespace

void RegisterSchemaCommand(CLI::App& app, CommandAction& action) {
  RegisterPending(app, action, "schema", "Print a Parquet file's schema as a tree");
}
void RegisterMetaCommand(CLI::App& app, CommandAction& action) {
  RegisterPending(app, action, "meta", "Print a Parquet file's metadata");
}
void RegisterCatCommand(CLI::App& app, CommandAction& action) {
  RegisterPending(app, action, "cat", "Print a Parquet file's rows");
}
void RegisterScanCommand(CLI::App& app, CommandAction& action) {
  RegisterPending(app, action, "scan", "Decode every column and summarise it");
}

}  // namespace strata::cli
