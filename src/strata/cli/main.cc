#include <cstdio>

#include "strata/cli/command.h"
#include "strata/memory/malloc_tuning.h"
#include "strata/version.h"

int main(int argc, char** argv) {
  strata::KeepFreedMemoryForReuse();  // no page faults for buffers allocated per batch
  CLI::App app{"strata: read, write and inspect Parquet and CSV with bounded memory", "strata"};
  app.set_version_flag("--version", std::string("strata ") + STRATA_VERSION_STRING);
  app.require_subcommand(1);
  strata::cli::CommandAction action;
  strata::cli::RegisterSchemaCommand(app, action);
  strata::cli::RegisterMetaCommand(app, action);
  strata::cli::RegisterCatCommand(app, action);
  strata::cli::RegisterScanCommand(app, action);
  strata::cli::RegisterPagesCommand(app, action);
  strata::cli::RegisterConvertCommand(app, action);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  if (!action) return 0;
  strata::Status st = action();
  if (!st.ok()) {
    std::fprintf(stderr, "strata: %s\n", st.ToString().c_str());
    return 1;
  }
  return 0;
}
