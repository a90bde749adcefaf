#include <cstdio>

#include "strata/cli/command.h"
#include "strata/memory/malloc_tuning.h"
#include "strata/memory/memory_pool.h"
#include "strata/util/byte_size.h"
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
  // Every command: the process pool's limit, which the reader and writer fit themselves to.
  std::string memory_limit;
  for (CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; })) {
    sub->add_option("--memory-limit", memory_limit,
                    "At most this much memory in buffers (512MiB, 2G, ...): batches, read-ahead and row groups "
                    "shrink to fit; fails, saying what needed more, when one page or row cannot")
        ->group("Memory");
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  if (!action) return 0;
  int64_t limit = 0;
  if (!memory_limit.empty()) {
    auto parsed = strata::ParseByteSize(memory_limit, "--memory-limit");
    if (!parsed.ok() || *parsed <= 0) {
      std::fprintf(stderr, "strata: %s\n",
                   parsed.ok() ? "--memory-limit must be more than 0 bytes" : parsed.status().ToString().c_str());
      return 2;
    }
    limit = *parsed;
    strata::SystemMemoryPool()->set_limit(limit);
  }
  strata::Status st = action();
  if (!st.ok() && st.IsOutOfMemory() && limit > 0) {
    st = strata::Status::OutOfMemory("{}; --memory-limit {} is too small for this input (its batches, read-ahead "
                                     "and row groups were sized to fit it): raise it, or lower --threads",
                                     st.message(), strata::FormatByteSize(limit));
  }
  if (!st.ok()) {
    std::fprintf(stderr, "strata: %s\n", st.ToString().c_str());
    return 1;
  }
  return 0;
}
