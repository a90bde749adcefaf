// What bench-compare measures: workloads (a file and what to do with it) and, per engine, the
// command line that does it. Every command is a whole process, so node's start-up and module
// load are part of the peers' times (and measured on their own as "startup").
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const STRATA_BIN = 'build/release/src/strata/cli/strata';
const NODE = process.execPath;
const SCAN = 'bench/peers/scan_summary.mjs';
const META = 'bench/peers/read_metadata.mjs';

export const PROJECTED_COLUMNS = ['l_extendedprice', 'l_shipdate']; // 2 of lineitem's 16

// kind: scan (summary of every column) | project (summary of PROJECTED_COLUMNS) | footer
// (metadata only) | csv_read | csv_to_parquet | write. The last three are hooks: they have no
// commands yet and are skipped until an engine gets one (see commandFor).
export function workloads(dataDir) {
  const f = (name) => path.join(dataDir, name);
  return [
    { name: 'scan_lineitem_snappy', kind: 'scan', file: f('lineitem_snappy.parquet') },
    { name: 'scan_lineitem_zstd', kind: 'scan', file: f('lineitem_zstd.parquet') },
    { name: 'scan_lineitem_uncompressed', kind: 'scan', file: f('lineitem_uncompressed.parquet') },
    { name: 'project_lineitem_snappy', kind: 'project', file: f('lineitem_snappy.parquet') },
    { name: 'scan_nullable_numeric', kind: 'scan', file: f('nullable_numeric.parquet') },
    { name: 'scan_small_strings', kind: 'scan', file: f('small_strings.parquet') },
    { name: 'scan_large_binary', kind: 'scan', file: f('large_binary.parquet') },
    { name: 'footer_wide', kind: 'footer', file: f('wide.parquet') },
    { name: 'csv_read_lineitem', kind: 'csv_read', file: f('lineitem.csv') },
    { name: 'csv_to_parquet_lineitem', kind: 'csv_to_parquet', file: f('lineitem.csv') },
    { name: 'write_lineitem', kind: 'write', file: f('lineitem_snappy.parquet') },
  ];
}

export function engines() {
  const cores = os.availableParallelism?.() ?? os.cpus().length;
  return [
    { name: 'strata', peer: null, threads: 1 },
    { name: 'duckdb', peer: 'duckdb', threads: 1 },
    { name: 'duckdb', peer: 'duckdb', threads: cores },
    { name: 'polars', peer: 'polars', threads: 1 },
    { name: 'polars', peer: 'polars', threads: cores },
  ].map((e) => ({ ...e, id: `${e.name}-${e.threads}t` }));
}

// The argv for `engine` on `workload`, or null when that engine has no such command (yet).
export function commandFor(engine, workload) {
  if (engine.name === 'strata') {
    switch (workload.kind) {
      case 'scan': return [STRATA_BIN, 'scan', '--json', '--stats', workload.file];
      case 'project':
        return [STRATA_BIN, 'scan', '--json', '--stats', '--columns', PROJECTED_COLUMNS.join(','),
          workload.file];
      case 'footer': return [STRATA_BIN, 'meta', '--json', workload.file];
      default: return null; // csv_read / csv_to_parquet / write: hooks
    }
  }
  const threads = ['--threads', String(engine.threads)];
  switch (workload.kind) {
    case 'scan': return [NODE, SCAN, engine.peer, workload.file, ...threads];
    case 'project':
      return [NODE, SCAN, engine.peer, workload.file, ...threads, '--columns', PROJECTED_COLUMNS.join(',')];
    case 'footer': return [NODE, META, engine.peer, workload.file];
    default: return null;
  }
}

// Node start-up plus loading the engine's module, measured as its own "workload".
export function startupCommand(peer) {
  const module = peer === 'duckdb' ? '@duckdb/node-api' : 'nodejs-polars';
  return [NODE, '--input-type=module', '-e', `await import('${module}')`];
}

export function strataAvailable() {
  return existsSync(STRATA_BIN);
}
