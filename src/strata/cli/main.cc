#include <malloc.h>

#include <cstdio>

#include "strata/cli/command.h"
#include "strata/version.h"

int main(int argc, char** argv) {
  // glibc serves blocks above 128 KiB with fresh mmap()s and returns them on free(): a scan
  // that allocates each batch's buffers anew then pays page faults and zeroing for every batch
  // (~15% of a lineitem scan in the kernel). Keeping such blocks in the heap reuses them; the
  // pool's own figures are unchanged by this.
  mallopt(M_MMAP_THRESHOLD, 64 << 20);
  mallopt(M_TRIM_THRESHOLD, 128 << 20);
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
