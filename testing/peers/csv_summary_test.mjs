// node --test testing/peers/: the CSV side of the peers' scan summary (csv_options.mjs, DuckDB's
// read_csv and Polars' scanCSV readings, scan_summary.mjs's CSV options).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import {
  duckCsvSource, duckTypeOf, isCsvPath, normalizeType, parseSchemaSpec, specTypeName, specTypeOfDuck,
} from './csv_options.mjs';
import { DuckDBSummary, sqlString } from './duckdb_summary.mjs';
import { polarsInferLength, polarsSummary } from './polars_summary.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));

test('CSV paths, type names and their DuckDB forms', () => {
  for (const f of ['a.csv', 'b.TSV', 'c.csv.gz', 'd.tsv.zst', 'e.txt']) assert.ok(isCsvPath(f), f);
  for (const f of ['a.parquet', 'csv', 'a.csv.bak']) assert.ok(!isCsvPath(f), f);
  assert.equal(normalizeType('double'), 'float64');
  assert.equal(normalizeType('date32'), 'date');
  assert.equal(normalizeType('time64[us]'), 'time[us]');
  assert.equal(normalizeType('timestamp[us, tz=UTC]'), 'timestamp[us, tz=UTC]');
  assert.equal(normalizeType('timestamp[ms,utc]'), 'timestamp[ms, tz=UTC]');
  assert.equal(normalizeType('timestamp[us, Europe/Paris]'), 'timestamp[us, tz=Europe/Paris]');
  assert.equal(normalizeType('timestamptz'), 'timestamp[us, tz=UTC]');
  assert.equal(normalizeType('Decimal(10, 2)'), 'decimal(10,2)');
  assert.throws(() => normalizeType('list<int32>'), /no CSV reading/);
  assert.equal(specTypeName('timestamp[ns, tz=UTC]'), 'timestamp[ns]');
  assert.deepEqual(parseSchemaSpec('id:int64, at:timestamp[us, tz=+05:30],a:b:string'),
    [{ name: 'id', type: 'int64' }, { name: 'at', type: 'timestamp[us, tz=+05:30]' }, { name: 'a:b', type: 'string' }]);
  assert.equal(duckTypeOf('timestamp[us, tz=UTC]'), 'TIMESTAMPTZ');
  assert.equal(duckTypeOf('timestamp[ns]'), 'TIMESTAMP_NS');
  assert.equal(duckTypeOf('decimal(9,2)'), 'DECIMAL(9,2)');
  assert.equal(specTypeOfDuck('TIMESTAMP WITH TIME ZONE'), 'timestamp[us]');
  assert.equal(specTypeOfDuck('DECIMAL(18,3)'), 'decimal(18,3)');
  assert.equal(specTypeOfDuck('BIGINT[]'), 'nested');
  assert.equal(duckCsvSource('x.csv', { nulls: ['', 'NA'], schema: [{ name: 'a', type: 'int32' }], inferRows: 'all' }, sqlString),
    "read_csv('x.csv', nullstr = ['', 'NA'], allow_quoted_nulls = false, types = {'a': 'INTEGER'}, sample_size = -1)");
});

// A small CSV whose summary is known: nulls as empty fields, a quoted comma and newline, a
// quoted empty string, NA (a null only when given), dates and time stamps.
const CSV = 'id,n,x,day,at,flag,s\n' +
  '1,10,1.5,2024-01-31,2024-01-31 10:00:00,true,plain\n' +
  '2,,-0.25,,2024-02-01 00:00:00.5,false,"a, ""b""\nc"\n' +
  '3,-7,,1999-12-31,,,""\n' +
  '4,NA,2,2000-01-01,1970-01-01 00:00:00,true,NA\n';

function expectedLine({ naIsNull }) {
  const col = (name, type, count, min, max) => ({ name, type, count, nulls: 4 - count, min, max });
  return JSON.stringify({ rows: 4, columns: [
    col('id', 'int64', 4, '1', '4'),
    naIsNull ? col('n', 'int64', 2, '-7', '10') : col('n', 'string', 3, '-7', 'NA'),
    col('x', 'float64', 3, '-0.25', '2'),
    col('day', 'date', 3, '1999-12-31', '2024-01-31'),
    col('at', 'timestamp[us]', 3, '1970-01-01T00:00:00', '2024-02-01T00:00:00.5'),
    col('flag', 'bool', 3, 'false', 'true'),
    naIsNull ? col('s', 'string', 3, '', 'plain') : col('s', 'string', 4, '', 'plain'),
  ] });
}

async function withFiles(fn) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'csv-summary-test-'));
  try {
    const csv = path.join(dir, 't.csv');
    writeFileSync(csv, CSV);
    writeFileSync(path.join(dir, 't.csv.gz'), gzipSync(CSV));
    writeFileSync(path.join(dir, 't.tsv'), CSV.replaceAll(',', '\t').replace('"a\t ""b""\nc"', '"a, ""b""\nc"'));
    return await fn(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('DuckDB and Polars read a CSV to the same line, with strata\'s nulls and types when given', async () => {
  const duck = await DuckDBSummary.create({ threads: 1 });
  try {
    await withFiles(async (dir) => {
      for (const name of ['t.csv', 't.csv.gz', 't.tsv']) {
        const file = path.join(dir, name);
        // Strata's null spellings: NA is a null, the quoted "" stays an empty string.
        const aligned = { nulls: ['', 'NULL', 'null', 'NA', 'N/A'] };
        assert.equal(await duck.summarize(file, { csv: aligned }), expectedLine({ naIsNull: true }), `duckdb ${name}`);
        assert.equal(polarsSummary(file, { csv: aligned }), expectedLine({ naIsNull: true }), `polars ${name}`);
        // Defaults: NA is text (and n a string column) in both.
        assert.equal(polarsSummary(file, { csv: {} }), expectedLine({ naIsNull: false }), `polars default ${name}`);
      }
      // DuckDB's default reads the quoted "" as null (allow_quoted_nulls).
      const duckDefault = JSON.parse(await duck.summarize(path.join(dir, 't.csv'), { csv: {} }));
      assert.deepEqual(duckDefault.columns[6], { name: 's', type: 'string', count: 3, nulls: 1, min: 'NA', max: 'plain' });
      // Given types win over inference, in both engines.
      const schema = parseSchemaSpec('n:string,x:float32,at:timestamp[ns]');
      for (const line of [await duck.summarize(path.join(dir, 't.csv'), { csv: { schema } }),
        polarsSummary(path.join(dir, 't.csv'), { csv: { schema } })]) {
        const columns = JSON.parse(line).columns;
        assert.deepEqual(columns.map((c) => c.type), ['int64', 'string', 'float32', 'date', 'timestamp[ns]', 'bool', 'string']);
        assert.equal(columns[4].max, '2024-02-01T00:00:00.5');
      }
      assert.equal(await duck.summarize(path.join(dir, 't.csv'), { csv: {}, columns: ['x'] }),
        JSON.stringify({ rows: 4, columns: [{ name: 'x', type: 'float64', count: 3, nulls: 1, min: '-0.25', max: '2' }] }));
    });
  } finally {
    duck.close();
  }
});

test('Polars looks at the whole file by default: a float in the last row makes the column float', async () => {
  await withFiles((dir) => {
    const file = path.join(dir, 'late.csv');
    const rows = Array.from({ length: 3000 }, (_, i) => `${i}`);
    writeFileSync(file, `v\n${rows.join('\n')}\n0.5\n`);
    assert.equal(JSON.parse(polarsSummary(file, { csv: {} })).columns[0].type, 'float64');
    // With 100 rows Polars takes the column for Int64 and fails on the last row.
    assert.throws(() => polarsSummary(file, { csv: { inferRows: 100 } }), /0\.5/);
    // The bound: every record of N columns takes at least N bytes.
    assert.equal(polarsInferLength(file, 1), statSync(file).size + 2);
    assert.equal(polarsInferLength(file, 4), Math.floor(statSync(file).size / 4) + 2);
  });
});

test('scan_summary.mjs reads CSV by extension or --format csv, with --schema, --null and --sep', async () => {
  await withFiles((dir) => {
    const run = (...args) => spawnSync(process.execPath, [path.join(HERE, 'scan_summary.mjs'), ...args], { encoding: 'utf8' });
    const csv = path.join(dir, 't.csv');
    for (const engine of ['duckdb', 'polars']) {
      const r = run(engine, csv, '--null', '', '--null', 'NA', '--threads', '1');
      assert.equal(r.status, 0, r.stderr);
      assert.equal(r.stdout.trim(), expectedLine({ naIsNull: true }));
      const renamed = path.join(dir, `data-${engine}`);
      writeFileSync(renamed, CSV.replaceAll(',', '|').replace('"a| ""b""\nc"', '"a, ""b""\nc"'));
      const typed = run(engine, renamed, '--format', 'csv', '--sep', '|', '--schema', 'id:int32');
      assert.equal(typed.status, 0, typed.stderr);
      assert.equal(JSON.parse(typed.stdout).columns[0].type, 'int32');
    }
    const bad = run('hyparquet', csv);
    assert.equal(bad.status, 1);
    assert.match(bad.stderr, /reads Parquet only/);
    assert.equal(run('duckdb', csv, '--schema', 'id').status, 2);
  });
});
