// A DuckDB session for the data generators, and the "skip what already exists with the same
// parameters" rule: every generated file gets a sidecar `FILE.params.json` holding the
// parameters (and generator version) that made it.
import { existsSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { DuckDBInstance } from '@duckdb/node-api';

export async function openDuckDB({ threads } = {}) {
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  if (threads) await connection.run(`SET threads = ${Number(threads)}`);
  return {
    run: (sql) => connection.run(sql),
    rows: async (sql) => (await connection.runAndReadAll(sql)).getRowObjectsJson(),
    close: () => { connection.closeSync(); instance.closeSync(); },
  };
}

export function sqlString(text) {
  return `'${String(text).replaceAll("'", "''")}'`;
}

function sidecar(file) {
  return `${file}.params.json`;
}

export function isUpToDate(file, params) {
  if (!existsSync(file) || !existsSync(sidecar(file))) return false;
  try {
    return readFileSync(sidecar(file), 'utf8') === `${JSON.stringify(params)}\n`;
  } catch {
    return false;
  }
}

// Runs `write(tmpPath)` unless `file` is up to date; the file appears atomically (renamed from a
// temporary name) so an interrupted run never leaves a half file that looks finished.
export async function generate(file, params, write, log = console.log) {
  if (isUpToDate(file, params)) {
    log(`  keep   ${file} (same parameters)`);
    return false;
  }
  const tmp = `${file}.tmp`;
  rmSync(tmp, { force: true });
  const started = Date.now();
  await write(tmp);
  renameSync(tmp, file);
  writeFileSync(sidecar(file), `${JSON.stringify(params)}\n`);
  const mb = (statSync(file).size / 1e6).toFixed(1);
  log(`  wrote  ${file} (${mb} MB, ${((Date.now() - started) / 1000).toFixed(1)} s)`);
  return true;
}
