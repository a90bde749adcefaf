// Test and benchmark support: writes small Parquet files with DuckDB (through node and
// @duckdb/node-api in the source tree's node_modules), so nested reads are checked against
// files another writer produced. Header-only; used by nested_reader_test and nested_benchmark.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <unistd.h>

namespace strata::parquet::testing {

// The repository root (where node_modules lives), from this header's path.
inline std::filesystem::path SourceRoot() {
  return std::filesystem::path(__FILE__).parent_path().parent_path().parent_path().parent_path();
}

// True when node and @duckdb/node-api can be used.
inline bool DuckDBAvailable() {
  return std::filesystem::exists(SourceRoot() / "node_modules" / "@duckdb" / "node-api") &&
         std::system("node --version > /dev/null 2>&1") == 0;
}

// Runs `COPY (<select>) TO '<path>' (FORMAT parquet, <options>)` in DuckDB, after the `setup`
// statements (settings, keys). Returns an empty string on success, else what went wrong.
// `select`, `options` and `setup` must not contain a backtick.
inline std::string WriteParquetWithDuckDB(const std::string& select, const std::string& path,
                                          const std::string& options = "", const std::vector<std::string>& setup = {}) {
  const std::filesystem::path script =
      std::filesystem::temp_directory_path() / ("strata_duckdb_" + std::to_string(::getpid()) + ".cjs");
  {
    std::ofstream out(script);
    out << "const { DuckDBInstance } = require('" << (SourceRoot() / "node_modules/@duckdb/node-api").string()
        << "');\n"
        << "(async () => {\n"
        << "  const db = await DuckDBInstance.create(':memory:');\n"
        << "  const con = await db.connect();\n";
    for (const std::string& statement : setup) out << "  await con.run(`" << statement << "`);\n";
    out
        << "  await con.run(`COPY (" << select << ") TO '" << path << "' (FORMAT parquet"
        << (options.empty() ? "" : ", " + options) << ")`);\n"
        << "})().catch((e) => { console.error(e.message); process.exit(1); });\n";
  }
  const std::string command = "cd '" + SourceRoot().string() + "' && node '" + script.string() + "' 2>&1";
  const int rc = std::system(command.c_str());
  std::filesystem::remove(script);
  if (rc != 0) return "node exited with " + std::to_string(rc) + " running: " + command;
  return "";
}

}  // namespace strata::parquet::testing
