#!/usr/bin/env node
// Usage: node bench/peers/scan_summary.mjs ENGINE FILE [--threads N] [--columns a,b]
// ENGINE is duckdb or polars. Reads FILE with that engine, decodes every column (or the chosen
// ones) and prints the scan-summary line of /work/shared/SCAN-SUMMARY.md. Exit code 1 and a
// message on stderr when the engine refuses the file; 2 on bad usage.

function usage(message) {
  if (message) console.error(`scan_summary: ${message}`);
  console.error('usage: scan_summary.mjs duckdb|polars FILE [--threads N] [--columns a,b]');
  process.exit(2);
}

export function parseArgs(argv) {
  const options = { threads: null, columns: null, positional: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--threads') options.threads = Number(argv[++i]);
    else if (arg === '--columns') options.columns = argv[++i].split(',').filter((c) => c !== '');
    else if (arg.startsWith('--')) usage(`unknown option ${arg}`);
    else options.positional.push(arg);
  }
  if (options.threads !== null && !(options.threads >= 1)) usage('--threads needs a number >= 1');
  return options;
}

// Computes the line with `engine` ('duckdb' | 'polars'). The Polars thread count must be set
// before its module loads, which is why the engine modules are imported lazily.
export async function scanSummary(engine, file, { threads, columns } = {}) {
  if (engine === 'duckdb') {
    const { DuckDBSummary } = await import('./duckdb_summary.mjs');
    const duck = await DuckDBSummary.create({ threads });
    try {
      return await duck.summarize(file, { columns });
    } finally {
      duck.close();
    }
  }
  if (engine === 'polars') {
    if (threads) process.env.POLARS_MAX_THREADS = String(threads);
    const { polarsSummary } = await import('./polars_summary.mjs');
    return polarsSummary(file, { columns });
  }
  throw new Error(`unknown engine '${engine}' (duckdb or polars)`);
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  if (options.positional.length !== 2) usage('need ENGINE and FILE');
  const [engine, file] = options.positional;
  if (engine !== 'duckdb' && engine !== 'polars') usage(`unknown engine '${engine}'`);
  try {
    console.log(await scanSummary(engine, file, options));
  } catch (error) {
    console.error(`scan_summary: ${engine} cannot summarise ${file}: ${error.message}`);
    process.exitCode = 1;
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
