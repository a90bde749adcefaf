#!/usr/bin/env node
// Usage: node bench/compare/write_peer.mjs duckdb|polars IN.parquet|IN.csv OUT.parquet [--threads N]
//        [--polars-mode sink|read-write] [--infer-rows N]
// Rewrites IN as OUT (every row and column, snappy) with that engine, the peers' side of
// bench-compare's write and csv_to_parquet workloads (strata's is `strata convert IN OUT
// --threads N`), and prints
// {"engine": ..., "rows": N} (rows only where the engine reports them). Polars, with
// POLARS_MAX_THREADS=N (set before the module loads): by default the streaming
// pl.scanParquet(IN).sinkParquet(OUT), its memory-bounded path; --polars-mode read-write is
// pl.readParquet(IN).writeParquet(OUT), which holds the whole table (2.4 GB of RSS for the 6M-row
// lineitem). DuckDB: COPY (SELECT * FROM IN) TO OUT (FORMAT parquet, COMPRESSION snappy) with
// SET threads = N. Exit code 1 on an engine error, 2 on bad usage.
// A CSV IN (.csv, .tsv, .csv.gz, ...; testing/peers/csv_options.mjs) is read with the engine's own
// CSV reader and type inference, as testing/peers/scan_summary.mjs reads it: DuckDB
// `COPY (SELECT * FROM read_csv(IN)) TO OUT (...)`, Polars pl.scanCSV(IN) (dates parsed, types
// from --infer-rows N rows, default the whole file) -> sinkParquet, or readCSV -> writeParquet.
// An Arrow IPC OUT (.arrow, .feather, .ipc: the file format) is written by Polars only:
// pl.readParquet(IN).writeIPC(OUT, {compression}) with --ipc-compression none|lz4|zstd
// (nodejs-polars has no streaming sinkIPC, so the whole table is held); DuckDB writes Arrow IPC
// only through its community `arrow` extension, which is not installed: an error.
import { isCsvPath } from '../../testing/peers/csv_options.mjs';

export function isIpcPath(file) {
  return /\.(arrow|feather|ipc)$/i.test(file);
}

function usage(message) {
  if (message) console.error(`write_peer: ${message}`);
  console.error('usage: write_peer.mjs duckdb|polars IN.parquet|IN.csv OUT.parquet|OUT.arrow [--threads N] ' +
    '[--polars-mode sink|read-write] [--infer-rows N] [--ipc-compression none|lz4|zstd]');
  process.exit(2);
}

const sqlString = (text) => `'${String(text).replaceAll("'", "''")}'`;

async function writeWithDuckDB(input, output, threads) {
  if (isIpcPath(output)) throw new Error('DuckDB writes Arrow IPC only with its community arrow extension (not installed)');
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  try {
    if (threads) await connection.run(`SET threads = ${Number(threads)}`);
    const source = isCsvPath(input) ? `read_csv(${sqlString(input)})` : `read_parquet(${sqlString(input)})`;
    const result = await connection.runAndReadAll(
      `COPY (SELECT * FROM ${source}) TO ${sqlString(output)} (FORMAT parquet, COMPRESSION snappy)`);
    // COPY returns the number of rows written as its single value.
    const rows = result.getRows()[0]?.[0];
    return Number(rows);
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

async function writeWithPolars(input, output, threads, mode, inferRows, ipcCompression) {
  if (threads) process.env.POLARS_MAX_THREADS = String(threads);
  const { default: pl } = await import('nodejs-polars');
  if (isIpcPath(output)) {
    const frame = isCsvPath(input) ? (await import('../../testing/peers/polars_summary.mjs')).polarsCsvScan(input, { inferRows }).collectSync()
      : pl.readParquet(input);
    frame.writeIPC(output, { compression: ipcCompression === 'none' ? 'uncompressed' : ipcCompression });
    return frame.height;
  }
  const csv = isCsvPath(input);
  // The CSV scan of scan_summary.mjs (imported after POLARS_MAX_THREADS is set).
  const scan = csv ? (await import('../../testing/peers/polars_summary.mjs')).polarsCsvScan(input, { inferRows })
    : pl.scanParquet(input);
  if (mode === 'sink') {
    // sinkParquet builds the plan; collect() runs it (and returns an empty frame).
    scan.sinkParquet(output, { compression: 'snappy' }).collect();
    return undefined;
  }
  const frame = csv ? scan.collectSync() : pl.readParquet(input);
  frame.writeParquet(output, { compression: 'snappy' });
  return frame.height;
}

async function main() {
  const argv = process.argv.slice(2);
  let threads = null;
  let mode = 'sink';
  let inferRows = null;
  let ipcCompression = 'none';
  const positional = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--threads') threads = Number(argv[++i]);
    else if (argv[i] === '--polars-mode') mode = argv[++i];
    else if (argv[i] === '--infer-rows') inferRows = argv[++i] === 'all' ? 'all' : Number(argv[i]);
    else if (argv[i] === '--ipc-compression') ipcCompression = argv[++i];
    else if (argv[i].startsWith('--')) usage(`unknown option ${argv[i]}`);
    else positional.push(argv[i]);
  }
  if (threads !== null && !(threads >= 1)) usage('--threads needs a number >= 1');
  if (mode !== 'sink' && mode !== 'read-write') usage(`--polars-mode takes sink or read-write, not '${mode}'`);
  if (inferRows !== null && inferRows !== 'all' && !(inferRows >= 1)) usage('--infer-rows takes a number >= 1 or all');
  if (!['none', 'lz4', 'zstd'].includes(ipcCompression)) usage(`--ipc-compression takes none, lz4 or zstd, not '${ipcCompression}'`);
  if (positional.length !== 3) usage('need ENGINE, IN and OUT');
  const [engine, input, output] = positional;
  if (engine !== 'duckdb' && engine !== 'polars') usage(`unknown engine '${engine}'`);
  try {
    const rows = engine === 'duckdb' ? await writeWithDuckDB(input, output, threads)
      : await writeWithPolars(input, output, threads, mode, inferRows, ipcCompression);
    console.log(JSON.stringify(rows === undefined ? { engine, mode } : { engine, rows }));
  } catch (error) {
    console.error(`write_peer: ${engine} cannot rewrite ${input} as ${output}: ${error.message}`);
    process.exitCode = 1;
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
