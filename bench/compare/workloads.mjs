// What bench-compare measures: workloads (a file and what to do with it) and, per engine, the
// command line that does it. Every command is a whole process, so node's start-up and module
// load are part of the peers' times (and measured on their own as "startup").
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// The strata binary: scripts/build release's, or $STRATA_BIN (e.g. a build of a clean checkout
// while the working tree holds someone's unfinished changes).
export const STRATA_BIN = process.env.STRATA_BIN || 'build/release/src/strata/cli/strata';
// Another strata binary to run beside it, as rows "strata before" at 1 and nproc threads
// (--before BIN): a change's before and after measured in one run, under the same load.
export const STRATA_BEFORE_BIN = process.env.STRATA_BEFORE_BIN || null;
const NODE = process.execPath;
const SCAN = 'testing/peers/scan_summary.mjs';
const META = 'testing/peers/read_metadata.mjs';
const WRITE = 'bench/compare/write_peer.mjs';

export const PROJECTED_COLUMNS = ['l_extendedprice', 'l_shipdate']; // 2 of lineitem's 16
// 10 of the wide tables' columns (both kinds of the 2,000-column table, all four of the
// 10,000-column footer's), spread over the schema.
export const WIDE_PROJECTED_COLUMNS = ['c0000', 'c0003', 'c0101', 'c0402', 'c0707', 'c1000', 'c1203', 'c1500',
  'c1806', 'c1999'];
// The filter workloads' output columns (the predicate reads l_shipdate or l_comment as well).
export const FILTER_COLUMNS = ['l_orderkey', 'l_quantity', 'l_extendedprice'];
// l_shipdate runs from 1992-01-02 to 1998-12-01 (2,526 days, spread evenly).
const SHIPDATE_FILTERS = [
  ['1pct', "l_shipdate >= '1995-06-01' AND l_shipdate < '1995-06-26'"],
  ['10pct', "l_shipdate >= '1995-01-01' AND l_shipdate < '1995-09-12'"],
  ['50pct', "l_shipdate < '1995-06-18'"],
];

// Rows Polars infers a CSV's types from in the CSV workloads: about strata's 1 MiB sample
// (8,000 lineitem rows; DuckDB keeps its own 20,480-row sniffer sample). scan_summary.mjs's
// default, the whole file (the correctness check's choice), is one extra single-threaded
// pass: 481 s instead of 7 s on the 6M-row lineitem.csv.
export const POLARS_CSV_INFER_ROWS = 10000;
const csvPeerArgs = (engine) => (engine.peer === 'polars' ? ['--infer-rows', String(POLARS_CSV_INFER_ROWS)] : []);

// kind: scan (summary of every column) | project (summary of the workload's `columns`, else
// PROJECTED_COLUMNS) | footer (metadata only: strata meta --summary, the peers a row and a
// column count) | write (rewrite `file` as a snappy Parquet file in `outputDir`: strata
// convert, Polars read + write, DuckDB COPY; see outputFor) | csv_read (the scan summary of a
// CSV file, types inferred: strata scan, DuckDB read_csv, Polars scanCSV) | csv_to_parquet
// (the CSV file as a snappy Parquet file in `outputDir`: strata convert, DuckDB COPY from
// read_csv, Polars scanCSV -> sinkParquet) | ipc_write (the Parquet file as an Arrow IPC file in
// `outputDir`, `compression` none or lz4: strata convert --ipc-compression, Polars readParquet ->
// writeIPC; DuckDB cannot write IPC without its community arrow extension) | ipc_read (the scan
// summary of the Arrow IPC file `file`: strata scan, Polars scanIPC; made from `source` by
// `strata convert --ipc-compression C` when missing, see inputCommand; DuckDB has no IPC reader
// here) | filter (the scan summary of FILTER_COLUMNS over the rows `filter` keeps: strata scan
// --filter, DuckDB WHERE, Polars' SQL context; the same text on all three).
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
    // Issue 41's wide table (2,000 columns, 2 row groups of 100,000 rows, 1.5 GB) and a footer
    // of 10,000 columns x 100 row groups.
    { name: 'scan_wide_table', kind: 'scan', file: f('wide_table.parquet') },
    { name: 'project_wide_table', kind: 'project', file: f('wide_table.parquet'), columns: WIDE_PROJECTED_COLUMNS },
    { name: 'write_wide_table', kind: 'write', file: f('wide_table.parquet'), outputDir: f('write-out') },
    { name: 'footer_wide_10k', kind: 'footer', file: f('wide_footer.parquet') },
    { name: 'project_wide_10k', kind: 'project', file: f('wide_footer.parquet'), columns: WIDE_PROJECTED_COLUMNS },
    { name: 'csv_read_lineitem', kind: 'csv_read', file: f('lineitem.csv') },
    { name: 'csv_to_parquet_lineitem', kind: 'csv_to_parquet', file: f('lineitem.csv'), outputDir: f('csv-out') },
    { name: 'write_lineitem_snappy', kind: 'write', file: f('lineitem_snappy.parquet'), outputDir: f('write-out') },
    { name: 'ipc_write_lineitem', kind: 'ipc_write', file: f('lineitem_snappy.parquet'), outputDir: f('ipc-out'), compression: 'none' },
    { name: 'ipc_write_lineitem_lz4', kind: 'ipc_write', file: f('lineitem_snappy.parquet'), outputDir: f('ipc-out'), compression: 'lz4' },
    { name: 'ipc_read_lineitem', kind: 'ipc_read', file: f('lineitem.arrow'), source: f('lineitem_snappy.parquet'), compression: 'none' },
    { name: 'ipc_read_lineitem_lz4', kind: 'ipc_read', file: f('lineitem_lz4.arrow'), source: f('lineitem_snappy.parquet'), compression: 'lz4' },
    ...SHIPDATE_FILTERS.map(([selectivity, filter]) => (
      { name: `filter_${selectivity}_lineitem`, kind: 'filter', file: f('lineitem_snappy.parquet'), filter })),
    // The same predicates on a copy sorted by l_shipdate (DuckDB sorts, strata rewrites it with
    // its page index), where statistics and the page index can skip most of the file.
    ...SHIPDATE_FILTERS.map(([selectivity, filter]) => (
      { name: `filter_${selectivity}_lineitem_sorted`, kind: 'filter', file: f('lineitem_by_shipdate.parquet'),
        source: f('lineitem_snappy.parquet'), make: 'sorted', filter })),
    // Equality on a value in no row, in a strata-written copy with a Bloom filter on l_comment
    // (its min/max span the alphabet and its dictionary falls back to PLAIN).
    { name: 'filter_eq_bloom_lineitem', kind: 'filter', file: f('lineitem_bloom.parquet'), source: f('lineitem_snappy.parquet'),
      make: 'bloom', filter: "l_comment = 'furiously special packages'" },
  ];
}

// Every engine run by bench-compare. `label` is what the table shows; `baseline` marks the row
// ratios are taken against; `appliesTo(workload)` limits a row to some workloads:
//   limit:         `strata pages`, reading and decompressing every selected page without
//                  decoding: the floor a full scan can approach (issue 7: "full scan within 1.5x
//                  of the read+decompress limit"). Scan and project workloads only.
//   strata prebuf: `strata scan --pre-buffer on` on the lineitem scans; the baseline row runs
//                  with the default (auto), which is off for local files.
//   strata Nt:     strata at nproc threads on the scan, write and CSV workloads (`convert
//                  --threads N`, `scan --threads N`; their baseline row is --threads 1); kept
//                  with --quick, as it is not a peer.
// With `quick`, the peers run at 1 thread only (the like-for-like rows against strata's
// baseline at --threads 1), which keeps --quick under 3 minutes on 2 busy cores.
export function engines({ quick = false, before = STRATA_BEFORE_BIN } = {}) {
  const cores = os.availableParallelism?.() ?? os.cpus().length;
  const scanLike = (w) => w.kind === 'scan' || w.kind === 'project';
  const all = [
    { name: 'strata', label: 'strata', peer: null, threads: 1, baseline: true },
    { name: 'limit', label: 'limit (strata pages)', peer: null, threads: 1, appliesTo: scanLike },
    { name: 'strata', variant: 'prebuf', label: 'strata, pre-buffer on', peer: null, threads: 1,
      appliesTo: (w) => w.kind === 'scan' && w.name.startsWith('scan_lineitem') },
    { name: 'strata', label: 'strata', peer: null, threads: cores, appliesTo: threadedKind },
    { name: 'strata', variant: 'nopruning', label: 'strata, --pruning off', peer: null, threads: 1,
      appliesTo: (w) => w.kind === 'filter' },
    ...(before ? [
      { name: 'strata', variant: 'before-1t', label: 'strata before', bin: before, peer: null, threads: 1 },
      { name: 'strata', variant: `before-${cores}t`, label: 'strata before', bin: before, peer: null, threads: cores,
        appliesTo: threadedKind },
    ] : []),
    { name: 'duckdb', label: 'duckdb', peer: 'duckdb', threads: 1, appliesTo: (w) => !isIpcKind(w) },
    { name: 'duckdb', label: 'duckdb', peer: 'duckdb', threads: cores, appliesTo: (w) => !isIpcKind(w) },
    { name: 'polars', label: 'polars', peer: 'polars', threads: 1 },
    { name: 'polars', label: 'polars', peer: 'polars', threads: cores },
  ].map((e) => ({ ...e, id: e.variant ? `${e.name}-${e.variant}` : `${e.name}-${e.threads}t` }));
  // Deduplicate the peers' thread counts on a 1-core machine, drop multi-threaded peers with quick.
  const seen = new Set();
  return all.filter((e) => {
    if (seen.has(e.id)) return false;
    seen.add(e.id);
    return !(quick && e.peer && e.threads > 1);
  });
}

// Workloads that write a file into workload.outputDir (one per engine, see outputFor).
export function writesOutput(workload) {
  return workload.kind === 'write' || workload.kind === 'csv_to_parquet' || workload.kind === 'ipc_write';
}

// The Arrow IPC workloads (DuckDB has no command for them).
export function isIpcKind(workload) {
  return workload.kind === 'ipc_write' || workload.kind === 'ipc_read';
}

// Workloads strata runs at 1 and at nproc threads, each peer row compared with the strata row
// of its thread count.
export function threadedKind(workload) {
  return writesOutput(workload) || workload.kind === 'csv_read' || workload.kind === 'ipc_read' ||
    workload.kind === 'filter' || workload.kind === 'scan' || workload.kind === 'project';
}

// The argv that makes a missing input of `workload` (ipc_read: strata converts the Parquet
// source to the IPC file, once; the file is kept with the other datasets), or null.
export function inputCommand(workload) {
  if (workload.make === 'sorted') return [NODE, 'bench/compare/make_sorted.mjs', workload.source, workload.file, STRATA_BIN];
  if (workload.make === 'bloom') {
    return [STRATA_BIN, 'convert', '--bloom-filter', 'l_comment', workload.source, workload.file];
  }
  if (workload.kind !== 'ipc_read' || !workload.source) return null;
  return [STRATA_BIN, 'convert', '--ipc-compression', workload.compression ?? 'none', workload.source, workload.file];
}

export function engineApplies(engine, workload) {
  return !engine.appliesTo || engine.appliesTo(workload);
}

// Where `engine` writes its output of a write workload: one file per engine, overwritten by
// every run (bench_compare removes it before each run and the folder at the end).
export function outputFor(engine, workload) {
  const ext = workload.kind === 'ipc_write' ? 'arrow' : 'parquet';
  return path.join(workload.outputDir, `${workload.name}.${engine.id}.${ext}`);
}

// The argv that prints `file`'s scan summary with strata: write workloads check every engine's
// output (and the input) with it.
export function strataScanCommand(file) {
  return [STRATA_BIN, 'scan', '--json', file];
}

// The argv for `engine` on `workload`, or null when that engine has no such command (yet).
export function commandFor(engine, workload) {
  if (!engineApplies(engine, workload)) return null;
  const columns = ['--columns', (workload.columns ?? PROJECTED_COLUMNS).join(',')];
  if (engine.name === 'limit') {
    return [STRATA_BIN, 'pages', '--json', ...(workload.kind === 'project' ? columns : []), workload.file];
  }
  if (engine.name === 'strata') {
    const bin = engine.bin ?? STRATA_BIN;
    const prebuf = engine.variant === 'prebuf' ? ['--pre-buffer', 'on'] : [];
    switch (workload.kind) {
      case 'scan': return [bin, 'scan', '--json', '--stats', '--threads', String(engine.threads), ...prebuf,
        workload.file];
      case 'project': return [bin, 'scan', '--json', '--stats', '--threads', String(engine.threads), ...prebuf,
        ...columns, workload.file];
      case 'footer': return [bin, 'meta', '--summary', workload.file];
      case 'write': case 'csv_to_parquet':
        return [bin, 'convert', '--threads', String(engine.threads), workload.file, outputFor(engine, workload)];
      case 'csv_read':
        return [bin, 'scan', '--json', '--stats', '--threads', String(engine.threads), workload.file];
      case 'ipc_write':
        return [bin, 'convert', '--threads', String(engine.threads), '--ipc-compression', workload.compression,
          workload.file, outputFor(engine, workload)];
      case 'ipc_read':
        return [bin, 'scan', '--json', '--threads', String(engine.threads), workload.file];
      case 'filter':
        return [bin, 'scan', '--json', '--stats', '--threads', String(engine.threads), '--filter', workload.filter,
          '--columns', FILTER_COLUMNS.join(','), ...(engine.variant === 'nopruning' ? ['--pruning', 'off'] : []),
          workload.file];
      default: return null;
    }
  }
  if (isIpcKind(workload) && engine.peer !== 'polars') return null;
  const threads = ['--threads', String(engine.threads)];
  switch (workload.kind) {
    case 'scan': return [NODE, SCAN, engine.peer, workload.file, ...threads];
    case 'project': return [NODE, SCAN, engine.peer, workload.file, ...threads, ...columns];
    case 'footer': return [NODE, META, engine.peer, workload.file];
    case 'write': return [NODE, WRITE, engine.peer, workload.file, outputFor(engine, workload), ...threads];
    case 'csv_to_parquet':
      return [NODE, WRITE, engine.peer, workload.file, outputFor(engine, workload), ...threads, ...csvPeerArgs(engine)];
    case 'csv_read': return [NODE, SCAN, engine.peer, workload.file, ...threads, ...csvPeerArgs(engine)];
    case 'ipc_write':
      return [NODE, WRITE, engine.peer, workload.file, outputFor(engine, workload), ...threads,
        '--ipc-compression', workload.compression];
    case 'ipc_read': return [NODE, SCAN, engine.peer, workload.file, ...threads];
    case 'filter':
      return [NODE, SCAN, engine.peer, workload.file, ...threads, '--columns', FILTER_COLUMNS.join(','),
        '--where', workload.filter];
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
