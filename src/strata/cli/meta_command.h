// `strata meta`'s logic as a function, so tests can check its output without a process: the
// footer (and each chunk's page index and Bloom filter) as text or JSON, or Bloom filter probes.
#pragma once

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "strata/io/random_access_source.h"
#include "strata/memory/memory_pool.h"
#include "strata/parquet/encryption/decryption_options.h"
#include "strata/util/result.h"

namespace strata::cli {

struct MetaOptions {
  bool json = false;
  bool pages = false;   // one line (or JSON object) per page of each page index
  bool strict = false;  // a page index or Bloom filter that does not read fails the command
  // One JSON line: rows, columns, row groups, the footer's bytes and what decoding it took
  // (seconds, heap bytes charged to the pool): the footer alone, as the footer benchmarks read it.
  bool summary = false;
  // "COLUMN=VALUE" each; when any is given, the output is the probes' answers only.
  std::vector<std::string> bloom_probes;
  // Keys of an encrypted file: its footer and its columns' metadata are decrypted with them.
  std::shared_ptr<const parquet::FileDecryptionOptions> decryption;
};

struct MetaReport {
  std::string out;  // for stdout
  // Page indexes and Bloom filters that did not read (their chunks still print): warnings,
  // errors with --strict.
  std::vector<Status> warnings;
  // Probes that could not be answered: unknown column, bad value, no Bloom filter. Exit code 1.
  std::vector<Status> errors;
};

// Reads the footer of `source` (the file at `path`, as shown), then what `options` ask for.
// Fails only when the footer does not read; everything after lands in the report.
Result<MetaReport> BuildMetaReport(RandomAccessSource& source, const std::string& path, const MetaOptions& options,
                                   MemoryPool* pool);

// Prints the report's problems to `err`, one line each ("strata: warning: ..." for warnings
// unless `strict`), and returns the command's status: OK, or the last error (which main prints
// as the last line, exit code 1) when there are errors, or warnings and `strict`.
Status ReportProblems(const MetaReport& report, bool strict, std::FILE* err);

}  // namespace strata::cli
