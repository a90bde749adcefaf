// node --test bench/compare/: which engine runs which workload, and what the report says about
// the read+decompress limit and pre-buffering, on hand-made results.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { writeMarkdown } from './report.mjs';
import { commandFor, engines, STRATA_BIN, workloads } from './workloads.mjs';

const byName = (name) => workloads('D').find((w) => w.name === name);

test('the limit row runs strata pages on scan and project workloads only', () => {
  const limit = engines().find((e) => e.name === 'limit');
  assert.deepEqual(commandFor(limit, byName('scan_small_strings')), [STRATA_BIN, 'pages', '--json', 'D/small_strings.parquet']);
  assert.deepEqual(commandFor(limit, byName('project_lineitem_snappy')),
    [STRATA_BIN, 'pages', '--json', '--columns', 'l_extendedprice,l_shipdate', 'D/lineitem_snappy.parquet']);
  assert.equal(commandFor(limit, byName('footer_wide')), null);
  assert.equal(commandFor(limit, byName('csv_read_lineitem')), null);
});

test('pre-buffer on runs on the full lineitem scans only', () => {
  const prebuf = engines().find((e) => e.id === 'strata-prebuf');
  assert.deepEqual(commandFor(prebuf, byName('scan_lineitem_zstd')),
    [STRATA_BIN, 'scan', '--json', '--stats', '--pre-buffer', 'on', 'D/lineitem_zstd.parquet']);
  assert.equal(commandFor(prebuf, byName('project_lineitem_snappy')), null);
  assert.equal(commandFor(prebuf, byName('scan_nullable_numeric')), null);
  const strata = engines().find((e) => e.baseline);
  assert.ok(!commandFor(strata, byName('scan_lineitem_zstd')).includes('--pre-buffer'));
});

test('--quick keeps the 1-thread peers and every strata row', () => {
  const quick = engines({ quick: true });
  assert.ok(quick.every((e) => !e.peer || e.threads === 1));
  assert.deepEqual(quick.filter((e) => !e.peer).map((e) => e.id), engines().filter((e) => !e.peer).map((e) => e.id));
  assert.equal(new Set(engines().map((e) => e.id)).size, engines().length);
});

test('the report has the limit and pre-buffer tables and peers minus start-up', () => {
  const cell = (id, engine, label, seconds, extra = {}) => ({
    id, engine, label, threads: 1, peer: engine === 'duckdb' ? 'duckdb' : null, error: null,
    medianSeconds: seconds, medianRssKiB: 10240, timeRatio: null, memoryRatio: null, limitRatio: null, ...extra,
  });
  const results = {
    date: '2026-01-01T00:00:00Z', quick: false, runs: 5, loadAverageAfter: [1, 1, 1], elapsedSeconds: 60,
    machine: { cpu: 'CPU', nproc: 2, memoryGiB: '4.0', os: 'Linux', node: '20', duckdb: 'd', polars: 'p',
      strata: 'strata 0', loadAverage: [0.5, 0.5, 0.5] },
    startup: [{ module: '@duckdb/node-api', medianSeconds: 0.25, medianRssKiB: 1024 }],
    workloads: [{
      name: 'scan_lineitem_snappy', kind: 'scan', file: 'f', disagreements: [],
      engines: [
        cell('strata-1t', 'strata', 'strata', 1.2, { timeRatio: 1, memoryRatio: 1, limitRatio: 2 }),
        cell('limit-1t', 'limit', 'limit (strata pages)', 0.6, { timeRatio: 0.5 }),
        cell('strata-prebuf', 'strata', 'strata, pre-buffer on', 0.84, { timeRatio: 0.7, limitRatio: 1.4 }),
        cell('duckdb-1t', 'duckdb', 'duckdb', 1.0, { timeRatio: 0.8 }),
      ],
    }],
  };
  const dir = mkdtempSync(path.join(os.tmpdir(), 'compare-test-'));
  try {
    writeMarkdown(path.join(dir, 'results.md'), results);
    const md = readFileSync(path.join(dir, 'results.md'), 'utf8');
    assert.match(md, /\| scan_lineitem_snappy \| strata \| 600 ms \| 1\.20 s \| 2\.00x \| no \|/);
    assert.match(md, /\| scan_lineitem_snappy \| strata, pre-buffer on \| 600 ms \| 840 ms \| 1\.40x \| yes \|/);
    assert.match(md, /\| scan_lineitem_snappy \| 1\.20 s \| 840 ms \| 0\.70x \| 10 MiB \| 10 MiB \|/);
    assert.match(md, /\| scan_lineitem_snappy \| duckdb \| 1 \| 1\.00 s \| 750 ms \|/);
    assert.match(md, /Load average \(1\/5\/15 min\) 0\.5 \/ 0\.5 \/ 0\.5 before/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
