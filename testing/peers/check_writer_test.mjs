// Tests of the parquet-wasm and hyparquet engines, the batch mode and the writer check's
// comparisons (node --test testing/peers/). Needs node_modules (npm ci).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { compareFiles, duckdb, TABLES } from './check_writer.mjs';
import { scanSummary } from './scan_summary.mjs';
import { ColumnAccumulator } from './value_summary.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const dir = mkdtempSync(path.join(tmpdir(), 'peers-test-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('accumulator: NaN left out, -0 == 0, bytes bytewise, narrow ints truncated', () => {
  const f = new ColumnAccumulator('f', 'float64');
  for (const v of [NaN, -0, 0, 2.5, null, -Infinity]) f.add(v);
  assert.deepEqual(f.result(), { name: 'f', type: 'float64', count: 5, nulls: 1, min: '-Infinity', max: '2.5' });
  const z = new ColumnAccumulator('z', 'float32');
  z.add(-0); z.add(0);
  assert.equal(z.result().min, '0');
  const n = new ColumnAccumulator('n', 'float32');
  n.add(NaN); n.add(null);
  assert.deepEqual([n.result().min, n.result().max, n.result().count], ['NaN', 'NaN', 1]);
  const s = new ColumnAccumulator('s', 'string');
  for (const v of ['é', 'z', '', 'Z']) s.add(new TextEncoder().encode(v));
  assert.deepEqual([s.result().min, s.result().max], ['', 'é']); // UTF-8 bytes: 0xC3 > 'z'
  const i = new ColumnAccumulator('i', 'int8');
  i.add(200); i.add(5n); // 200 stored in INT32 is -56 as INT_8
  assert.deepEqual([i.result().min, i.result().max], ['-56', '5']);
  const d = new ColumnAccumulator('d', 'decimal(5,2)');
  d.add(-1250n); d.add(7n);
  assert.deepEqual([d.result().min, d.result().max], ['-12.50', '0.07']);
  const b = new ColumnAccumulator('b', 'bool');
  b.add(true); b.add(false);
  assert.deepEqual([b.result().min, b.result().max], ['false', 'true']);
  const nested = new ColumnAccumulator('l', 'nested');
  nested.add([]); nested.add(null);
  assert.deepEqual([nested.result().count, nested.result().nulls], [1, 1]);
});

test('parquet-wasm and hyparquet summarise DuckDB-written files of every type as DuckDB does', async () => {
  const db = await duckdb();
  for (const [name, sql] of Object.entries(TABLES)) {
    const file = path.join(dir, `${name}.parquet`);
    await db.run(`COPY (${sql}) TO '${file}' (FORMAT parquet, ROW_GROUP_SIZE 1000)`);
    const expected = await scanSummary('duckdb', file);
    for (const engine of ['parquet-wasm', 'hyparquet']) {
      assert.equal(await scanSummary(engine, file), expected, `${engine} on ${name}`);
    }
  }
});

test('compareFiles sees -0.0 against 0.0, a lost row and a changed type', async () => {
  const db = await duckdb();
  const a = path.join(dir, 'a.parquet');
  const b = path.join(dir, 'b.parquet');
  const c = path.join(dir, 'c.parquet');
  const e = path.join(dir, 'e.parquet');
  await db.run(`COPY (SELECT * FROM (VALUES ('-0.0'::DOUBLE, 1), (1.5, 2), (1.5, 2)) t(x, y)) TO '${a}'`);
  await db.run(`COPY (SELECT * FROM (VALUES (0.0::DOUBLE, 1), (1.5, 2), (1.5, 2)) t(x, y)) TO '${b}'`);
  await db.run(`COPY (SELECT * FROM (VALUES ('-0.0'::DOUBLE, 1), (1.5, 2)) t(x, y)) TO '${c}'`);
  await db.run(`COPY (SELECT * FROM (VALUES ('-0.0'::DOUBLE, 1::BIGINT), (1.5, 2), (1.5, 2)) t(x, y)) TO '${e}'`);
  assert.deepEqual(await compareFiles(db, a, a), []);
  assert.ok((await compareFiles(db, a, b)).some((p) => /EXCEPT ALL/.test(p)));
  const lost = await compareFiles(db, a, c);
  assert.ok(lost.some((p) => /^rows: original 3, rewritten 2/.test(p)), lost.join('\n'));
  assert.ok(lost.some((p) => /original EXCEPT ALL rewritten: 1 rows/.test(p)), lost.join('\n'));
  assert.ok((await compareFiles(db, a, e)).some((p) => /^types:/.test(p)));
});

test('scan_summary --batch: one record per file, errors per file', () => {
  const good = path.join(dir, 'a.parquet');
  const r = spawnSync(process.execPath, [path.join(HERE, 'scan_summary.mjs'), 'hyparquet', '--batch', good,
    path.join(dir, 'missing.parquet')], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const records = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
  assert.equal(records.length, 2);
  assert.equal(JSON.parse(records[0].line).rows, 3);
  assert.ok(records[1].error);
});

test('digests: equal for the same values, different for -0.0 against 0.0', async () => {
  const a = path.join(dir, 'a.parquet');
  const b = path.join(dir, 'b.parquet');
  const { parquetWasmDigest } = await import('./parquet_wasm_summary.mjs');
  const { hyparquetDigest } = await import('./hyparquet_summary.mjs');
  for (const digest of [parquetWasmDigest, hyparquetDigest]) {
    const da = await digest(a);
    assert.deepEqual(await digest(a), da);
    const db = await digest(b);
    assert.notEqual(db.x, da.x);
    assert.equal(db.y, da.y);
    assert.match(da.x, /^3:[0-9a-f]{64}$/);
  }
});
