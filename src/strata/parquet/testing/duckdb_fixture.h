// Test and benchmark support: writes small Parquet files with DuckDB (through node and
// @duckdb/node-api in the source tree's node_modules), so reads are checked against files
// another writer produced, and queries files strata wrote. Header-only; used by
// nested_reader_test, nested_benchmark and interval_duckdb_test.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <unistd.h>

namespace strata::parquet::testing {

// The repository root (where node_modules lives): STRATA_SOURCE_DIR, which CTest sets, else
// this header's path. __FILE__ alone is not enough: with CCACHE_BASEDIR (scripts/build) ccache
// passes sources relative to the build folder, so __FILE__ is "../../src/...", which names the
// root only from that folder, and the DuckDB tests skipped themselves as if node were missing.
inline std::filesystem::path SourceRoot() {
  if (const char* source = std::getenv("STRATA_SOURCE_DIR"); source != nullptr && *source != '\0') return source;
  return std::filesystem::path(__FILE__).parent_path().parent_path().parent_path().parent_path();
}

// A fresh folder under the system's temp directory for one test's files, removed with all
// it holds when the test ends.
class ScopedTempDir {
 public:
  explicit ScopedTempDir(const std::string& prefix)
      : path_(std::filesystem::temp_directory_path() / (prefix + std::to_string(::getpid()))) {
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~ScopedTempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  ScopedTempDir(const ScopedTempDir&) = delete;
  ScopedTempDir& operator=(const ScopedTempDir&) = delete;

  std::filesystem::path operator/(const std::string& name) const { return path_ / name; }

 private:
  std::filesystem::path path_;
};

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

// Runs `select` in DuckDB and appends its rows to `rows`, one string per row: the values as
// JavaScript's String() gives them, joined by '|', NULL as "NULL" (cast to VARCHAR in `select`
// for DuckDB's own text). Returns an empty string on success, else what went wrong. `select`
// must not contain a backtick.
inline std::string QueryWithDuckDB(const std::string& select, std::vector<std::string>* rows) {
  const std::string stem =
      (std::filesystem::temp_directory_path() / ("strata_duckdb_query_" + std::to_string(::getpid()))).string();
  const std::string script = stem + ".cjs";
  const std::string output = stem + ".txt";
  {
    std::ofstream out(script);
    out << "const { DuckDBInstance } = require('" << (SourceRoot() / "node_modules/@duckdb/node-api").string()
        << "');\n"
        << "const fs = require('fs');\n"
        << "(async () => {\n"
        << "  const db = await DuckDBInstance.create(':memory:');\n"
        << "  const con = await db.connect();\n"
        << "  const result = await con.runAndReadAll(`" << select << "`);\n"
        << "  const lines = result.getRows().map((row) => row.map((v) => (v === null ? 'NULL' : String(v))).join('|'));\n"
        << "  fs.writeFileSync('" << output << "', lines.map((line) => line + '\\n').join(''));\n"
        << "})().catch((e) => { console.error(e.message); process.exit(1); });\n";
  }
  const std::string command = "cd '" + SourceRoot().string() + "' && node '" + script + "' 2>&1";
  const int rc = std::system(command.c_str());
  std::filesystem::remove(script);
  if (rc != 0) return "node exited with " + std::to_string(rc) + " running: " + command;
  std::ifstream in(output);
  for (std::string line; std::getline(in, line);) rows->push_back(line);
  std::filesystem::remove(output);
  return "";
}

}  // namespace strata::parquet::testing
