// DuckDB's side of the CSV robustness suite (src/strata/csv/robustness_test.cc, issue 39).
//   STRATA_CSV_ROBUSTNESS_DIR=DIR build/release/src/strata/csv/csv_robustness_test
//   node testing/peers/csv_robustness_duckdb.mjs DIR
// The test writes the polluted files, manifest.jsonl (family, file, clean cells) and its own
// scores (strata_scores.json); this reads every file with DuckDB's read_csv (auto_detect,
// ignore_errors, null_padding), scores it the same way (cells aligned row by row as a diff
// aligns lines, numbers compared as numbers) and prints the per-family table strata vs DuckDB,
// then the kDuckDbCells map the test asserts against.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';

const dir = process.argv[2];
if (!dir) {
  console.error('usage: node testing/peers/csv_robustness_duckdb.mjs DIR');
  process.exit(2);
}
const cases = readFileSync(join(dir, 'manifest.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line));
const strata = JSON.parse(readFileSync(join(dir, 'strata_scores.json'), 'utf8'));

const isNumber = (s) => s !== '' && /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(s);
const sameCell = (read, clean) => read === clean || (isNumber(read) && isNumber(clean) && Number(read) === Number(clean));

// The same scoring as robustness_test.cc's ScoreCells.
function score(read, clean) {
  const n = read.length;
  const m = clean.length;
  const equalCells = (i, j) => {
    let same = 0;
    for (let c = 0; c < Math.min(read[i].length, clean[j].length); ++c) {
      if (read[i][c] !== '' && sameCell(read[i][c], clean[j][c])) ++same;
    }
    return same;
  };
  const best = Array.from({ length: n + 1 }, () => new Array(m + 1).fill(0));
  for (let i = 1; i <= n; ++i) {
    for (let j = 1; j <= m; ++j) {
      best[i][j] = Math.max(best[i - 1][j], best[i][j - 1], best[i - 1][j - 1] + equalCells(i - 1, j - 1));
    }
  }
  let filled = 0;
  for (const row of read) for (const cell of row) if (cell !== '') ++filled;
  return { read: filled, right: best[n][m], clean: m * (clean[0]?.length ?? 0) };
}

const instance = await DuckDBInstance.create(':memory:');
const connection = await instance.connect();
const quote = (s) => `'${s.replaceAll("'", "''")}'`;
const families = new Map();
const failures = [];
for (const c of cases) {
  let read = [];
  try {
    const reader = await connection.runAndReadAll(
      `SELECT * FROM read_csv(${quote(join(dir, c.file))}, auto_detect = true, ignore_errors = true, null_padding = true)`);
    read = reader.getRows().map((row) => row.map((v) => (v === null ? '' : String(v))));
  } catch (error) {
    failures.push(`${c.file}: ${String(error.message ?? error).split('\n')[0]}`);
  }
  const s = score(read, c.clean);
  const total = families.get(c.family) ?? { read: 0, right: 0, clean: 0 };
  total.read += s.read;
  total.right += s.right;
  total.clean += s.clean;
  families.set(c.family, total);
}

const f3 = (x) => x.toFixed(3);
const pr = (s) => `${f3(s.read === 0 ? 1 : s.right / s.read)} / ${f3(s.clean === 0 ? 1 : s.right / s.clean)}`;
console.log('| family | strata 1 thread P / R | strata 2 threads P / R | strata blocks P / R | DuckDB P / R | cells strata / DuckDB / clean |');
console.log('|---|---|---|---|---|---|');
for (const [family, d] of families) {
  const s = strata[family];
  console.log(`| ${family} | ${pr(s[0])} | ${pr(s[1])} | ${pr(s[2])} | ${pr(d)} | ${s[0].right} / ${d.right} / ${d.clean} |`);
}
if (failures.length > 0) console.log(`\nDuckDB failed on ${failures.length} files:\n  ${failures.join('\n  ')}`);
console.log('\nconst std::map<std::string, int64_t> kDuckDbCells = {');
for (const [family, d] of families) console.log(`    {"${family}", ${d.right}},`);
console.log('};');
