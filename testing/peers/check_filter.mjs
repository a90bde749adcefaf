#!/usr/bin/env node
// Usage: node testing/peers/check_filter.mjs --strata BIN --tmp DIR [--parquet-testing DIR]
// `strata scan --json --filter F` against DuckDB's summary of `SELECT * ... WHERE F`, the same
// predicate text on both sides (the --filter grammar is a subset of SQL's). Files:
//   - a table DuckDB generates and writes (row groups of 20,000 rows), and a copy sorted by k;
//   - both rewritten by `strata convert` with small pages, a page index and Bloom filters;
//   - parquet-testing files (a page index on alltypes_tiny_pages, Bloom filters on
//     data_index_bloom_encoding_stats).
// Each case also runs with --pruning off, which must give the same summary, and the pruned run
// must have skipped something where the case says so. Exit 1 on any failure.
import { mkdtempSync, rmSync } from 'node:fs';
import path from 'node:path';
import { Report, closeDuckdb, duckdb, parseArgsOrExit, runStrata, strataSummary, sqlString } from './check_support.mjs';
import { diffSummaries } from './compare_scan.mjs';

const USAGE = 'usage: check_filter.mjs --strata BIN --tmp DIR [--parquet-testing DIR]';
const args = parseArgsOrExit(process.argv.slice(2), 'check_filter', USAGE, {
  defaults: { strata: null, corpus: null, tmp: null },
  values: { '--strata': 'strata', '--parquet-testing': 'corpus', '--tmp': 'tmp' },
});

const GENERATED = [
  // [filter, what must be skipped in the files ordered by id, in those sorted by k (or null)]
  ["id >= 150000 AND id < 150100", 'statistics', null],
  ["k IN (5, 7) AND f IS NULL", null, 'statistics'],
  ["s = 'v17' OR id < 10", null, null],
  ["d >= '2019-08-01' AND d < '2019-08-03'", 'statistics', null],
  ["NOT (k > 10) AND id > 100000", 'statistics', 'statistics'],
  ["f > 20.5 OR f IS NULL AND k = 3", null, null],
  ["s NOT IN ('v1', 'v2', 'v3') AND k <= 2", null, 'statistics'],
  ["name = 'name-123456'", 'any', null],
  ["name IN ('name-05', 'name-7x')", 'any', null],
  ["price >= 12.5", null, null],
  ["price = 1.3 OR price < 0.05", null, null],
  ["ts >= '2020-01-02 00:00:00' AND ts < '2020-01-02 00:01:00'", 'statistics', null],
  ["flag = true AND k = 4", null, 'statistics'],
  ["k != 3 AND id <= 20", 'statistics', null],
  ["k <> 3 AND id <= 20", 'statistics', null],
  ["id = 1 OR id = 299999", 'statistics', null],
  ["k = 999 OR k = 0", null, 'statistics'],
  ["id < 0", 'statistics', 'statistics'],
  ['"k" BETWEEN_IS_NOT_SUPPORTED', 'refused', 'refused'],
];

const CORPUS = [
  ['alltypes_plain.parquet', ["id >= 4", "tinyint_col IN (0, 1) AND int_col < 1", "double_col > 5.0 OR bool_col = false"]],
  ['alltypes_tiny_pages.parquet', ["id >= 3000 AND id < 3100", "int_col = 5 AND month = 7", "string_col IN ('1', '9')",
    "float_col < 2.5 AND NOT (year = 2009)"]],
  ['data_index_bloom_encoding_stats.parquet', ["String = 'Hello'", "String IN ('a', 'b')", "String > 'M'"]],
  ['int32_decimal.parquet', ["value >= 5", "value IN (1.00, 2.00, 24)"]],
  ['nulls.snappy.parquet', ["b_struct IS NULL"]],
];

function mechanismSkipped(stats, mechanism) {
  if (!mechanism || mechanism === 'refused') return true;
  const m = /filter: (\d+) of (\d+) row groups skipped \(statistics (\d+), dictionary (\d+), Bloom filter (\d+)\); (\d+) pages passed over.*?(\d+) skipped by the page index/.exec(stats);
  if (!m) return false;
  const [, skipped, , bystats, , , pages, rows] = m.map(Number);
  if (mechanism === 'statistics') return bystats > 0 || pages > 0 || rows > 0;
  return skipped > 0 || pages > 0 || rows > 0;
}

async function checkCase(report, db, file, label, filter, mechanism) {
  const name = `${label}: ${filter}`;
  if (mechanism === 'refused') {
    const r = runStrata(args.strata, ['scan', '--json', '--filter', filter, file]);
    report.add(r.error && /filter: at \d+/.test(r.error) ? 'PASS' : 'FAIL', 'strata', `${name} (refused)`,
      r.error ? [] : ['accepted a filter outside the grammar']);
    return;
  }
  let peer;
  try {
    peer = JSON.parse(await db.summarize(file, { where: filter }));
  } catch (e) {
    report.add('FAIL', 'duckdb', name, [`DuckDB: ${e.message}`]);
    return;
  }
  const pruned = runStrata(args.strata, ['scan', '--json', '--stats', '--filter', filter, file]);
  const unpruned = strataSummary(args.strata, ['--filter', filter, '--pruning', 'off', file]);
  if (pruned.error || unpruned.error) {
    report.add('FAIL', 'duckdb', name, [pruned.error || unpruned.error]);
    return;
  }
  const summary = JSON.parse(pruned.stdout.trim().split('\n').pop());
  const diffs = [...diffSummaries(summary, peer, 'strata', 'duckdb'),
    ...diffSummaries(summary, unpruned.summary, 'pruned', 'unpruned')];
  if (!mechanismSkipped(pruned.stderr, mechanism)) diffs.push(`nothing skipped (${mechanism}): ${pruned.stderr.trim()}`);
  report.judge('duckdb', name, diffs, () => null);
}

async function main() {
  const start = Date.now();
  const tmp = mkdtempSync(path.join(args.tmp, 'strata-filter-'));
  const report = new Report({ engineWidth: 6 });
  const db = await duckdb();
  try {
    const table = `SELECT range AS id, (range * 7919) % 1000 AS k, 'v' || ((range * 31) % 5000) AS s,
        CASE WHEN range % 7 = 0 THEN NULL ELSE (range % 100) / 4.0 END::DOUBLE AS f,
        (DATE '2019-04-14' + (range // 1000)::INTEGER) AS d, 'name-' || range AS name,
        CAST((range % 1300) / 100.0 AS DECIMAL(9,2)) AS price,
        TIMESTAMP '2020-01-01' + to_seconds(range) AS ts, range % 2 = 0 AS flag
      FROM range(300000)`;
    const files = [];
    for (const [label, sql] of [['duckdb', table], ['duckdb sorted by k', `SELECT * FROM (${table}) ORDER BY k, id`]]) {
      const file = path.join(tmp, `${label.replaceAll(' ', '_')}.parquet`);
      await db.rows(`COPY (${sql}) TO ${sqlString(file)} (FORMAT PARQUET, ROW_GROUP_SIZE 20000)`);
      files.push([label, file]);
      const rewritten = path.join(tmp, `${label.replaceAll(' ', '_')}_strata.parquet`);
      const r = runStrata(args.strata, ['convert', file, rewritten, '--row-group-rows', '30000', '--page-rows', '2000',
        '--bloom-filter', 'name,k,s']);
      if (r.error) throw new Error(`strata convert: ${r.error}`);
      files.push([`strata rewrite of ${label}`, rewritten]);
    }
    for (const [label, file] of files) {
      const sorted = label.includes('sorted by k');
      for (const [filter, byId, byK] of GENERATED) {
        await checkCase(report, db, file, label, filter, sorted ? byK : byId);
      }
    }
    // The other commands and inputs: `cat` prints exactly the kept rows; a CSV input (no
    // statistics) filters decoded rows to DuckDB's count.
    {
      const [, file] = files[0];
      const r = runStrata(args.strata, ['cat', '--format', 'csv', '--filter', 'id < 3 OR id = 299999', '--columns', 'id,k', file]);
      const expected = 'id,k\n0,0\n1,919\n2,838\n299999,81\n';
      report.add(!r.error && r.stdout === expected ? 'PASS' : 'FAIL', 'strata', 'cat --filter prints the kept rows',
        r.error ? [r.error] : r.stdout === expected ? [] : [`got ${JSON.stringify(r.stdout.slice(0, 200))}`]);
      const csv = path.join(tmp, 'generated.csv');
      const converted = runStrata(args.strata, ['convert', file, csv]);
      const filter = "k IN (5, 7) AND id < 100000 AND s != 'v3'";
      const [{ n }] = await db.rows(`SELECT count(*)::INTEGER AS n FROM read_parquet(${sqlString(file)}) WHERE ${filter}`);
      const scanned = converted.error ? converted : strataSummary(args.strata, ['--filter', filter, csv]);
      const same = !scanned.error && scanned.summary.rows === n;
      report.add(same ? 'PASS' : 'FAIL', 'duckdb', `CSV input: ${filter}`,
        scanned.error ? [scanned.error] : same ? [] : [`strata ${scanned.summary.rows} rows, DuckDB ${n}`]);
    }

    // A hive dataset DuckDB writes (PARTITION_BY bucket, flag), read by `strata scan DIR` and
    // compared with DuckDB's WHERE on the one file of the same rows (file columns only: the
    // partition columns' own reading is dataset_test's). Filters on partition columns must
    // skip whole files.
    const base = path.join(tmp, 'bucketed.parquet');
    const hive = path.join(tmp, 'hive');
    const bucketed = `SELECT *, id // 100000 AS bucket FROM (${table})`;
    await db.rows(`COPY (${bucketed}) TO ${sqlString(base)} (FORMAT PARQUET, ROW_GROUP_SIZE 20000)`);
    await db.rows(`COPY (${bucketed}) TO ${sqlString(hive)} (FORMAT PARQUET, PARTITION_BY (bucket, flag))`);
    const fileColumns = ['id', 'k', 's', 'f', 'd', 'name', 'price', 'ts'];
    for (const [filter, skipsFiles] of [
      ['bucket = 1 AND k < 10', true], ["flag = true AND s = 'v17'", true], ["name = 'name-123456'", false],
      ['bucket IN (0, 2) AND NOT (flag = false) AND id >= 199990', true], ['k = 3 OR bucket = 2', false],
    ]) {
      const name = `hive dataset: ${filter}`;
      let peer;
      try {
        peer = JSON.parse(await db.summarize(base, { where: filter, columns: fileColumns }));
      } catch (e) {
        report.add('FAIL', 'duckdb', name, [`DuckDB: ${e.message}`]);
        continue;
      }
      const r = runStrata(args.strata, ['scan', '--json', '--stats', '--filter', filter, '--columns', fileColumns.join(','), hive]);
      if (r.error) {
        report.add('FAIL', 'duckdb', name, [r.error]);
        continue;
      }
      const diffs = diffSummaries(JSON.parse(r.stdout.trim().split('\n').pop()), peer, 'strata', 'duckdb');
      const files = /dataset: (\d+) files, (\d+) skipped by their partition values/.exec(r.stderr);
      if (!files || Number(files[1]) !== 6) diffs.push(`expected 6 files: ${r.stderr.trim()}`);
      else if (skipsFiles && Number(files[2]) === 0) diffs.push(`no file skipped by partition: ${r.stderr.trim()}`);
      report.judge('duckdb', name, diffs, () => null);
    }

    // Row numbers (--row-number) against DuckDB's file_row_number: with filters that prune row
    // groups and pages (the strata rewrites have a page index and small pages), on a file
    // sorted otherwise, at 1 and 2 threads; and a dataset's file_row_number and filename.
    for (const [label, file] of files) {
      for (const filter of ['id >= 150000 AND id < 150100', 'k IN (5, 7) AND f IS NULL', "name = 'name-123456'",
        "s = 'v17'"]) {
        const name = `${label}: --row-number with ${filter}`;
        let expected;
        try {
          const rows = await db.rows(`SELECT id, file_row_number FROM read_parquet(${sqlString(file)}, file_row_number = true)
            WHERE ${filter} ORDER BY file_row_number`);
          expected = 'id,file_row_number\n' + rows.map((r) => `${r.id},${r.file_row_number}\n`).join('');
        } catch (e) {
          report.add('FAIL', 'duckdb', name, [`DuckDB: ${e.message}`]);
          continue;
        }
        for (const threads of ['1', '2']) {
          const r = runStrata(args.strata, ['cat', '--format', 'csv', '--row-number', '--columns', 'id', '--threads', threads,
            '--filter', filter, file]);
          report.add(!r.error && r.stdout === expected ? 'PASS' : 'FAIL', 'duckdb', `${name} (${threads} threads)`,
            r.error ? [r.error] : r.stdout === expected ? [] : [`got ${JSON.stringify(r.stdout.slice(0, 200))}, DuckDB ${JSON.stringify(expected.slice(0, 200))}`]);
        }
      }
    }
    {
      const name = 'hive dataset: --row-number gives file_row_number and filename';
      const rows = await db.rows(`SELECT id, file_row_number, filename FROM read_parquet(${sqlString(path.join(hive, '**', '*.parquet'))},
        file_row_number = true, filename = true, hive_partitioning = false) WHERE k = 3`);
      const key = (id, n, file) => `${id},${n},${path.relative(hive, file)}`;
      const expected = rows.map((r) => key(r.id, r.file_row_number, r.filename)).sort();
      const r = runStrata(args.strata, ['cat', '--format', 'csv', '--row-number', '--columns', 'id', '--filter', 'k = 3', hive]);
      const got = r.error ? [] : r.stdout.trim().split('\n').slice(1).map((line) => {
        const [id, n, file] = line.split(',');
        return key(id, n, file);
      }).sort();
      const same = !r.error && got.length === expected.length && got.every((v, i) => v === expected[i]);
      report.add(same ? 'PASS' : 'FAIL', 'duckdb', name, r.error ? [r.error] : same ? [] :
        [`${got.length} rows against DuckDB's ${expected.length}; first ${JSON.stringify(got.slice(0, 3))} / ${JSON.stringify(expected.slice(0, 3))}`]);
    }

    const corpus = args.corpus;
    if (corpus) {
      for (const [name, filters] of CORPUS) {
        for (const filter of filters) await checkCase(report, db, path.join(corpus, 'data', name), name, filter, null);
      }
    }
  } finally {
    closeDuckdb();
    rmSync(tmp, { recursive: true, force: true });
  }
  process.exit(report.finish(start, 'allowed differences'));
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
