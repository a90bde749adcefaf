#!/usr/bin/env node
// Usage: node bench/compare/make_sorted.mjs SOURCE.parquet OUT.parquet STRATA_BIN
// OUT: SOURCE's rows sorted by l_shipdate (DuckDB sorts), rewritten by `strata convert` so that
// it carries strata's page index (DuckDB writes none); row groups of 1M rows, pages of 20,000.
import { rmSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { DuckDBInstance } from '@duckdb/node-api';

const [source, out, strata] = process.argv.slice(2);
if (!source || !out || !strata) {
  console.error('usage: make_sorted.mjs SOURCE.parquet OUT.parquet STRATA_BIN');
  process.exit(2);
}
const sorted = `${out}.duckdb-sorted.parquet`;
const quote = (text) => `'${String(text).replaceAll("'", "''")}'`;
const instance = await DuckDBInstance.create(':memory:');
const connection = await instance.connect();
await connection.run(`COPY (SELECT * FROM read_parquet(${quote(source)}) ORDER BY l_shipdate, l_orderkey, l_linenumber) ` +
  `TO ${quote(sorted)} (FORMAT PARQUET, COMPRESSION SNAPPY)`);
const r = spawnSync(strata, ['convert', sorted, out], { stdio: 'inherit' });
rmSync(sorted, { force: true });
process.exit(r.status ?? 1);
