// How much of an edited file deduplicating storage already holds, with and without
// content-defined chunking (docs/parquet.md quotes the figures):
//   1. the input (lineitem from scripts/bench-data) is edited with DuckDB: 1% of its rows
//      inserted, 1% deleted and 1% updated, each as --blocks contiguous runs of random lengths
//      at random places (seeded: the same edit every run);
//   2. `strata convert` rewrites the original and the edited table, with the writer's defaults
//      and with each --variant's extra options (content-defined chunking);
//   3. every page of each file (dictionary pages and data pages, header and body, located through
//      `strata meta --json --pages`) is hashed (SHA-256): the share of the edited file's pages, and
//      of its page bytes, whose hash also occurs among the original's pages is what a
//      content-addressed store keyed by page would not store again;
//   4. the write cost: `strata convert --threads 1` of the original, median of --runs runs per
//      variant (the load average is printed beside it).
//
//   node bench/cdc/cdc_dedup.mjs --strata build/release/src/strata/cli/strata \
//        --input bench/data/lineitem_snappy.parquet [--blocks 3] [--runs 5] [--tmp DIR]
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { parseArgs } from 'node:util';
import { openDuckDB, sqlString } from '../datagen/duckdb_session.mjs';

const { values: args } = parseArgs({
  options: {
    strata: { type: 'string' }, input: { type: 'string' }, blocks: { type: 'string', default: '3' },
    runs: { type: 'string', default: '5' }, tmp: { type: 'string' }, seed: { type: 'string', default: '42' },
  },
});
if (!args.strata || !args.input) {
  console.error('usage: cdc_dedup.mjs --strata BIN --input FILE [--blocks N] [--runs N] [--tmp DIR]');
  process.exit(2);
}
const VARIANTS = [
  { name: 'pages by count (defaults)', args: [] },
  { name: 'CDC, defaults (256 KiB-1 MiB)', args: ['--content-defined-chunking'] },
  { name: 'CDC, 64-256 KiB', args: ['--cdc-min-size', '65536', '--cdc-max-size', '262144'] },
  { name: 'pages by count, no dictionary', args: ['--dictionary', 'off'] },
  { name: 'CDC defaults, no dictionary', args: ['--content-defined-chunking', '--dictionary', 'off'] },
];

function strata(argv) {
  const r = spawnSync(args.strata, argv, { encoding: 'utf8', maxBuffer: 1 << 30 });
  if (r.status !== 0) throw new Error(`strata ${argv.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

// Each page of the file: [offset, length) of dictionary pages and of every data page.
function pageHashes(file) {
  const meta = JSON.parse(strata(['meta', '--json', '--pages', file]));
  const bytes = readFileSync(file);
  const pages = [];
  for (const group of meta.row_groups) {
    for (const column of group.columns) {
      if (column.dictionary_page_offset !== null && column.dictionary_page_offset !== undefined) {
        pages.push([column.dictionary_page_offset, column.data_page_offset - column.dictionary_page_offset]);
      }
      for (const page of column.offset_index.pages) pages.push([page.offset, page.compressed_page_size]);
    }
  }
  return pages.map(([offset, length]) => ({
    length, hash: createHash('sha256').update(bytes.subarray(offset, offset + length)).digest('hex'),
  }));
}

// A seeded PRNG (mulberry32): the same edit every run.
function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6D2B79F5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const tmp = args.tmp ?? mkdtempSync(path.join(tmpdir(), 'strata-cdc-'));
const db = await openDuckDB({ threads: 2 });
await db.run(`CREATE TABLE t AS SELECT * FROM read_parquet(${sqlString(args.input)}, file_row_number = true)`);
const [{ n }] = await db.rows('SELECT count(*)::BIGINT AS n FROM t');
const rows = Number(n);
const blocks = Number(args.blocks);
const total = Math.floor(rows / 100);  // rows per kind of edit: 1%
const next = random(Number(args.seed));
// `blocks` runs of random lengths summing to `total`, at random places: the inserted and
// deleted rows then do not cancel out at a round number of rows (1% of 2M rows is one page's
// 20,000 rows: equal runs would realign pages by count by chance).
const lengths = () => {
  const cuts = Array.from({ length: blocks - 1 }, () => Math.floor(next() * total)).sort((a, b) => a - b);
  return [...cuts, total].map((c, i, all) => c - (i ? all[i - 1] : 0)).map((l) => Math.max(1, l));
};
const runs = () => lengths().map((length) => ({ start: Math.floor(next() * (rows - length)), length }));
const deletes = runs();
const inserts = runs();
const updates = runs();
// Inserted rows: copies of rows elsewhere with a new key and comment, placed before row `at`
// (the order key of the original rows is their row number).
const inBlocks = (column, list) => list.map((r) => `(${column} BETWEEN ${r.start} AND ${r.start + r.length - 1})`).join(' OR ');
const columns = (await db.rows('SELECT column_name FROM (DESCRIBE t)')).map((c) => c.column_name)
  .filter((c) => c !== 'file_row_number');
const updated = columns.map((c) => (c === 'l_quantity' ? `CASE WHEN ${inBlocks('file_row_number', updates)} THEN l_quantity + 1 ELSE l_quantity END AS l_quantity`
  : c === 'l_comment' ? `CASE WHEN ${inBlocks('file_row_number', updates)} THEN 'updated ' || l_comment ELSE l_comment END AS l_comment` : c));
const insertSelects = inserts.map(({ start: at, length }) => {
  const from = Math.floor(next() * (rows - length));
  return `SELECT ${columns.map((c) => (c === 'l_orderkey' ? `l_orderkey + 100000000 AS l_orderkey`
    : c === 'l_comment' ? `'inserted ' || l_comment AS l_comment` : c)).join(', ')},
    ${at} - 0.5 + (file_row_number - ${from}) / ${2 * length}.0 AS k
    FROM t WHERE file_row_number BETWEEN ${from} AND ${from + length - 1}`;
});
const edited = path.join(tmp, 'edited_source.parquet');
await db.run(`COPY (SELECT ${columns.join(', ')} FROM (
    SELECT ${updated.join(', ')}, file_row_number::DOUBLE AS k FROM t WHERE NOT (${inBlocks('file_row_number', deletes)})
    UNION ALL ${insertSelects.join(' UNION ALL ')}) ORDER BY k) TO ${sqlString(edited)} (FORMAT parquet)`);
db.close();

const describe = (list) => list.map((r) => `${r.length}@${r.start}`).join(' ');
console.log(`${args.input}: ${rows} rows; 1% inserted (${describe(inserts)}), deleted (${describe(deletes)}), ` +
  `updated (${describe(updates)}) as length@row`);
console.log('| pages | edited file pages | shared with the original | shared bytes | file bytes | convert s (median of ' +
  `${args.runs}) |`);
console.log('|---|---:|---:|---:|---:|---:|');
const baseTimes = [];
for (const variant of VARIANTS) {
  const a = path.join(tmp, 'original.parquet');
  const b = path.join(tmp, 'edited.parquet');
  const times = [];
  for (let r = 0; r < Number(args.runs); ++r) {
    const start = process.hrtime.bigint();
    strata(['convert', '--threads', '1', ...variant.args, args.input, a]);
    times.push(Number(process.hrtime.bigint() - start) / 1e9);
  }
  strata(['convert', '--threads', '1', ...variant.args, edited, b]);
  const original = new Set(pageHashes(a).map((p) => p.hash));
  const pages = pageHashes(b);
  const shared = pages.filter((p) => original.has(p.hash));
  const bytes = (list) => list.reduce((s, p) => s + p.length, 0);
  const seconds = median(times);
  if (!baseTimes.length) baseTimes.push(seconds);
  console.log(`| ${variant.name} | ${pages.length} | ${(100 * shared.length / pages.length).toFixed(1)}% | ` +
    `${(100 * bytes(shared) / bytes(pages)).toFixed(1)}% | ${readFileSync(b).length} | ${seconds.toFixed(2)} ` +
    `(${((seconds / baseTimes[0] - 1) * 100).toFixed(1)}%) |`);
}
console.log(`load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
if (!args.tmp) rmSync(tmp, { recursive: true, force: true });
