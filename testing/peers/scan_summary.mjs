#!/usr/bin/env node
// Usage: node testing/peers/scan_summary.mjs ENGINE FILE [--threads N] [--columns a,b] [CSV options]
//        node testing/peers/scan_summary.mjs ENGINE --batch [--digest] [--threads N] FILE...
// ENGINE is duckdb, polars, parquet-wasm (arrow-rs) or hyparquet. Reads FILE with that engine,
// decodes every column (or the chosen ones) and prints the scan-summary line of
// /work/shared/SCAN-SUMMARY.md. Exit code 1 and a message on stderr when the engine refuses the
// file; 2 on bad usage.
// CSV files (.csv, .tsv, .txt, .psv, also .gz / .zst; or --format csv) are read by duckdb
// (read_csv) and polars (scanCSV) with the engine's own dialect and type inference; see
// csv_options.mjs. CSV options: --sep C (Polars: default ',' or '\t' for .tsv; DuckDB sniffs),
// --null S (repeatable: the null spellings, replacing the engine's; quoted fields are never
// null in DuckDB then), --schema 'name:type,...' (strata's --schema syntax and type names),
// --infer-rows N|all (DuckDB's sniffer sample, default 20480 rows; Polars' inference, default
// the whole file).
// --batch summarises every FILE in this one process (the engine starts once) and prints one JSON
// object per file: {"file":F,"line":"<summary line>"} or {"file":F,"error":"<message>"}; exit 0.
// --digest (with --batch) adds "digest":{column:"rows:sha256"} of every value (not for duckdb).
// Arrow IPC files (.arrow, .feather, .ipc: pl.scanIPC) and streams (.arrows: pl.readIPCStream)
// are read by polars only (types named from the Arrow types, see arrow_summary.mjs).

import { isCsvPath, parseSchemaSpec } from './csv_options.mjs';

export const ENGINES = ['duckdb', 'polars', 'parquet-wasm', 'hyparquet'];

function usage(message) {
  if (message) console.error(`scan_summary: ${message}`);
  console.error(`usage: scan_summary.mjs ${ENGINES.join('|')} FILE [--threads N] [--columns a,b]\n` +
    `       scan_summary.mjs ENGINE --batch [--digest] [--threads N] FILE...\n` +
    '  CSV: [--format auto|csv|parquet] [--sep C] [--null S]... [--schema name:type,...] [--infer-rows N|all]');
  process.exit(2);
}

export function parseArgs(argv) {
  const options = { threads: null, columns: null, batch: false, digest: false, positional: [],
    format: 'auto', csv: {} };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => (i + 1 < argv.length ? argv[++i] : usage(`${arg} needs a value`));
    if (arg === '--threads') options.threads = Number(value());
    else if (arg === '--columns') options.columns = value().split(',').filter((c) => c !== '');
    else if (arg === '--where') options.where = value();
    else if (arg === '--batch') options.batch = true;
    else if (arg === '--digest') options.digest = true;
    else if (arg === '--format') options.format = value();
    else if (arg === '--sep') {
      const v = value();
      options.csv.sep = v === '\\t' || v === 'tab' ? '\t' : v;
    }
    else if (arg === '--null') (options.csv.nulls ??= []).push(value());
    else if (arg === '--schema') {
      try {
        options.csv.schema = parseSchemaSpec(value());
      } catch (error) {
        usage(error.message);
      }
    } else if (arg === '--infer-rows') {
      const v = value();
      options.csv.inferRows = v === 'all' ? 'all' : Number(v);
      if (v !== 'all' && !(Number(v) >= 1)) usage('--infer-rows takes a number >= 1 or all');
    } else if (arg.startsWith('--')) usage(`unknown option ${arg}`);
    else options.positional.push(arg);
  }
  if (options.threads !== null && !(options.threads >= 1)) usage('--threads needs a number >= 1');
  if (!['auto', 'csv', 'parquet'].includes(options.format)) usage(`--format takes auto, csv or parquet`);
  return options;
}

// The CSV options for `file` (csv_options.mjs), or null when it is read as Parquet.
export function csvOptionsFor(file, options) {
  const csv = options.format === 'csv' || (options.format === 'auto' && isCsvPath(file));
  return csv ? options.csv ?? {} : null;
}

// A summariser for `engine`: { summarize(file, {columns}) -> Promise<line>, close() }, and for
// polars, parquet-wasm and hyparquet digest(file, {columns}) -> Promise<{column: digest}> (every
// value hashed in row order; see value_summary.mjs). The engine
// starts once per summariser. The Polars thread count must be set before its module loads, which
// is why the engine modules are imported lazily.
// 'file' for an Arrow IPC file path, 'stream' for an IPC stream, else null.
export function ipcFormatOf(file) {
  if (/\.(arrow|feather|ipc)$/i.test(file)) return 'file';
  if (/\.arrows$/i.test(file)) return 'stream';
  return null;
}

export async function openEngine(engine, { threads } = {}) {
  if (engine === 'duckdb') {
    const { DuckDBSummary } = await import('./duckdb_summary.mjs');
    const duck = await DuckDBSummary.create({ threads });
    return {
      summarize: (file, opts) => {
        // DuckDB reads Arrow IPC only through its community `arrow` extension (not installed).
        if (ipcFormatOf(file)) throw new Error('duckdb reads no Arrow IPC here (the nanoarrow extension is not installed)');
        return duck.summarize(file, opts);
      },
      close: () => duck.close(),
    };
  }
  if (engine === 'polars') {
    if (threads) process.env.POLARS_MAX_THREADS = String(threads);
    const { polarsSummary, polarsDigest } = await import('./polars_summary.mjs');
    const withIpc = (file, opts) => ({ ...opts, ipc: ipcFormatOf(file) ?? undefined });
    return { summarize: async (file, opts) => polarsSummary(file, withIpc(file, opts)),
      digest: async (file, opts) => polarsDigest(file, withIpc(file, opts)), close() {} };
  }
  const parquetOnly = (fn) => async (file, opts) => {
    if (opts?.csv) throw new Error(`${engine} reads Parquet only, not CSV`);
    if (ipcFormatOf(file)) throw new Error(`${engine} reads Parquet only, not Arrow IPC`);
    return fn(file, opts);
  };
  if (engine === 'parquet-wasm') {
    const { parquetWasmSummary, parquetWasmDigest } = await import('./parquet_wasm_summary.mjs');
    return { summarize: parquetOnly(parquetWasmSummary), digest: parquetOnly(parquetWasmDigest), close() {} };
  }
  if (engine === 'hyparquet') {
    const { hyparquetSummary, hyparquetDigest } = await import('./hyparquet_summary.mjs');
    return { summarize: parquetOnly(hyparquetSummary), digest: parquetOnly(hyparquetDigest), close() {} };
  }
  throw new Error(`unknown engine '${engine}' (${ENGINES.join(', ')})`);
}

// Computes the line with `engine`; `csv` (csv_options.mjs) reads `file` as CSV.
// `where` (SQL, DuckDB and Polars only) keeps only the rows it selects.
export async function scanSummary(engine, file, { threads, columns, csv, where } = {}) {
  const summariser = await openEngine(engine, { threads });
  try {
    return await summariser.summarize(file, { columns, csv, where });
  } finally {
    summariser.close();
  }
}

function oneLine(message) {
  return String(message).split('\n').filter((l) => l.trim() !== '').slice(0, 3).join(' | ');
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  if (options.batch) {
    if (options.positional.length < 1) usage('need ENGINE and files');
    const [engine, ...files] = options.positional;
    if (!ENGINES.includes(engine)) usage(`unknown engine '${engine}'`);
    const summariser = await openEngine(engine, options);
    for (const file of files) {
      let record;
      try {
        const csv = csvOptionsFor(file, options);
        record = { file, line: await summariser.summarize(file, { columns: options.columns, csv }) };
        if (options.digest && summariser.digest) {
          try {
            record.digest = await summariser.digest(file, { columns: options.columns, csv });
          } catch (error) {
            record.digestError = oneLine(error?.message ?? error);
          }
        }
      } catch (error) {
        record = { file, error: oneLine(error?.message ?? error) };
      }
      process.stdout.write(`${JSON.stringify(record)}\n`);
    }
    summariser.close();
    return;
  }
  if (options.positional.length !== 2) usage('need ENGINE and FILE');
  const [engine, file] = options.positional;
  if (!ENGINES.includes(engine)) usage(`unknown engine '${engine}'`);
  try {
    console.log(await scanSummary(engine, file, { ...options, csv: csvOptionsFor(file, options) }));
  } catch (error) {
    console.error(`scan_summary: ${engine} cannot summarise ${file}: ${error.message}`);
    process.exitCode = 1;
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
