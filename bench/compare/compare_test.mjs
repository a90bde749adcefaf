// node --test bench/compare/: which engine runs which workload, and what the report says about
// the read+decompress limit, pre-buffering and the writer, on hand-made results.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { renderDocsPage } from './docs_page.mjs';
import { writeMarkdown } from './report.mjs';
import {
  commandFor, engines, inputCommand, outputFor, POLARS_CSV_INFER_ROWS, STRATA_BIN, threadedKind, workloads, writesOutput,
} from './workloads.mjs';

const byName = (name) => workloads('D').find((w) => w.name === name);

test('the limit row runs strata pages on scan and project workloads only', () => {
  const limit = engines().find((e) => e.name === 'limit');
  assert.deepEqual(commandFor(limit, byName('scan_small_strings')), [STRATA_BIN, 'pages', '--json', 'D/small_strings.parquet']);
  assert.deepEqual(commandFor(limit, byName('project_lineitem_snappy')),
    [STRATA_BIN, 'pages', '--json', '--columns', 'l_extendedprice,l_shipdate', 'D/lineitem_snappy.parquet']);
  assert.equal(commandFor(limit, byName('footer_wide')), null);
  assert.equal(commandFor(limit, byName('csv_read_lineitem')), null);
});

test('strata scans run at 1 thread and at every core, each peer compared at its thread count', () => {
  const cores = os.availableParallelism?.() ?? os.cpus().length;
  const scan = byName('scan_lineitem_snappy');
  const project = byName('project_lineitem_snappy');
  assert.ok(threadedKind(scan) && threadedKind(project));
  const strata = engines().filter((e) => e.name === 'strata' && !e.variant && commandFor(e, scan));
  assert.deepEqual(strata.map((e) => e.threads), cores > 1 ? [1, cores] : [1]);
  assert.deepEqual(commandFor(strata[0], scan),
    [STRATA_BIN, 'scan', '--json', '--stats', '--threads', '1', 'D/lineitem_snappy.parquet']);
  if (cores > 1) {
    assert.deepEqual(commandFor(strata[1], scan),
      [STRATA_BIN, 'scan', '--json', '--stats', '--threads', String(cores), 'D/lineitem_snappy.parquet']);
  }
});

test('pre-buffer on runs on the full lineitem scans only', () => {
  const prebuf = engines().find((e) => e.id === 'strata-prebuf');
  assert.deepEqual(commandFor(prebuf, byName('scan_lineitem_zstd')),
    [STRATA_BIN, 'scan', '--json', '--stats', '--threads', '1', '--pre-buffer', 'on', 'D/lineitem_zstd.parquet']);
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
    assert.match(md, /\| scan_lineitem_snappy \| strata \| 1 \| 600 ms \| 1\.20 s \| 2\.00x \| no \| yes \|/);
    assert.match(md, /\| scan_lineitem_snappy \| strata, pre-buffer on \| 1 \| 600 ms \| 840 ms \| 1\.40x \| yes \| yes \|/);
    assert.match(md, /\| scan_lineitem_snappy \| 1\.20 s \| 840 ms \| 0\.70x \| 10 MiB \| 10 MiB \|/);
    assert.match(md, /\| scan_lineitem_snappy \| duckdb \| 1 \| 1\.00 s \| 750 ms \|/);
    assert.match(md, /Load average \(1\/5\/15 min\) 0\.5 \/ 0\.5 \/ 0\.5 before/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the write workload runs strata convert at 1 and nproc threads and both peers', () => {
  const write = byName('write_lineitem_snappy');
  const out = (id) => path.join('D', 'write-out', `write_lineitem_snappy.${id}.parquet`);
  const all = engines();
  const strata = all.filter((e) => e.name === 'strata' && commandFor(e, write));
  const cores = os.availableParallelism?.() ?? os.cpus().length;
  assert.deepEqual(strata.map((e) => e.threads), cores > 1 ? [1, cores] : [1]);
  assert.deepEqual(commandFor(strata[0], write),
    [STRATA_BIN, 'convert', '--threads', '1', 'D/lineitem_snappy.parquet', out('strata-1t')]);
  const polars = all.find((e) => e.peer === 'polars' && e.threads === 1);
  assert.deepEqual(commandFor(polars, write).slice(1),
    ['bench/compare/write_peer.mjs', 'polars', 'D/lineitem_snappy.parquet', out('polars-1t'), '--threads', '1']);
  assert.equal(outputFor(polars, write), out('polars-1t'));
  // Every engine writes its own file; the limit and pre-buffer rows do not write.
  const writers = all.filter((e) => commandFor(e, write));
  assert.equal(new Set(writers.map((e) => outputFor(e, write))).size, writers.length);
  assert.ok(writers.every((e) => e.name !== 'limit' && e.id !== 'strata-prebuf'));
  // strata's multi-threaded row runs on the threaded workloads only (not the footer's).
  const multi = all.find((e) => e.name === 'strata' && e.threads > 1);
  if (multi) assert.equal(commandFor(multi, byName('footer_wide')), null);
});

test('the report has the writer table against the peers at the same threads', () => {
  const cell = (id, engine, threads, seconds, rssMiB, extra = {}) => ({
    id, engine, label: engine, threads, peer: engine === 'strata' ? null : engine, error: null,
    medianSeconds: seconds, medianRssKiB: rssMiB * 1024, timeRatio: null, memoryRatio: null, limitRatio: null,
    sameThreadsTimeRatio: null, sameThreadsMemoryRatio: null, ...extra,
  });
  const results = {
    date: '2026-01-01T00:00:00Z', quick: false, runs: 5, loadAverageAfter: [1, 1, 1], elapsedSeconds: 60,
    machine: { cpu: 'CPU', nproc: 2, memoryGiB: '4.0', os: 'Linux', node: '20', duckdb: 'd', polars: 'p',
      strata: 'strata 0', loadAverage: [0.5, 0.5, 0.5] },
    startup: [],
    workloads: [{
      name: 'write_lineitem_snappy', kind: 'write', file: 'f', disagreements: [],
      engines: [
        cell('strata-1t', 'strata', 1, 2.0, 80, { timeRatio: 1, memoryRatio: 1 }),
        cell('strata-2t', 'strata', 2, 1.2, 95, { timeRatio: 0.6 }),
        cell('duckdb-2t', 'duckdb', 2, 1.8, 600, { sameThreadsTimeRatio: 1.5 }),
        cell('polars-1t', 'polars', 1, 2.6, 400, { sameThreadsTimeRatio: 1.3 }),
        cell('polars-2t', 'polars', 2, 1.08, 650, { sameThreadsTimeRatio: 0.9 }),
      ],
    }],
  };
  const dir = mkdtempSync(path.join(os.tmpdir(), 'compare-test-'));
  try {
    writeMarkdown(path.join(dir, 'results.md'), results);
    const md = readFileSync(path.join(dir, 'results.md'), 'utf8');
    assert.match(md, /## Writer: strata convert/);
    assert.match(md, /\| write_lineitem_snappy \| 1 \| 2\.00 s \| 80 MiB \| 2\.60 s \| 1\.30x \| 400 MiB \| n\/a \| n\/a \| n\/a \| yes \| yes \|/);
    assert.match(md, /\| write_lineitem_snappy \| 2 \| 1\.20 s \| 95 MiB \| 1\.08 s \| 0\.90x \| 650 MiB \| 1\.80 s \| 1\.50x \| 600 MiB \| no \| no \|/);
    assert.match(md, /\| write_lineitem_snappy \| strata \| 2 \| 1\.20 s \|/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the CSV workloads run strata at 1 and nproc threads and both peers with their CSV readers', () => {
  const cores = os.availableParallelism?.() ?? os.cpus().length;
  const all = engines();
  const read = byName('csv_read_lineitem');
  const convert = byName('csv_to_parquet_lineitem');
  assert.equal(convert.outputDir, path.join('D', 'csv-out'));
  assert.equal(read.outputDir, undefined);
  for (const w of [read, convert]) {
    const strata = all.filter((e) => e.name === 'strata' && commandFor(e, w));
    assert.deepEqual(strata.map((e) => e.threads), cores > 1 ? [1, cores] : [1]);
    assert.ok(all.every((e) => e.name !== 'limit' || commandFor(e, w) === null));
    assert.equal(commandFor(all.find((e) => e.id === 'strata-prebuf'), w), null);
  }
  const [one, many] = all.filter((e) => e.name === 'strata' && commandFor(e, read));
  assert.deepEqual(commandFor(one, read), [STRATA_BIN, 'scan', '--json', '--stats', '--threads', '1', 'D/lineitem.csv']);
  if (many) {
    assert.deepEqual(commandFor(many, read), [STRATA_BIN, 'scan', '--json', '--stats', '--threads', String(cores), 'D/lineitem.csv']);
  }
  const out = (id) => path.join('D', 'csv-out', `csv_to_parquet_lineitem.${id}.parquet`);
  assert.deepEqual(commandFor(one, convert), [STRATA_BIN, 'convert', '--threads', '1', 'D/lineitem.csv', out('strata-1t')]);
  // Peers: the scan summary of the CSV, and write_peer.mjs from the CSV; Polars infers from a
  // sample the size of strata's, DuckDB keeps its sniffer's default.
  const duck = all.find((e) => e.peer === 'duckdb' && e.threads === 1);
  const polars = all.find((e) => e.peer === 'polars' && e.threads === cores);
  const infer = ['--infer-rows', String(POLARS_CSV_INFER_ROWS)];
  assert.deepEqual(commandFor(duck, read).slice(1), ['testing/peers/scan_summary.mjs', 'duckdb', 'D/lineitem.csv', '--threads', '1']);
  assert.deepEqual(commandFor(polars, read).slice(1),
    ['testing/peers/scan_summary.mjs', 'polars', 'D/lineitem.csv', '--threads', String(cores), ...infer]);
  assert.deepEqual(commandFor(duck, convert).slice(1),
    ['bench/compare/write_peer.mjs', 'duckdb', 'D/lineitem.csv', out('duckdb-1t'), '--threads', '1']);
  assert.deepEqual(commandFor(polars, convert).slice(1),
    ['bench/compare/write_peer.mjs', 'polars', 'D/lineitem.csv', out(`polars-${cores}t`), '--threads', String(cores), ...infer]);
  const writers = all.filter((e) => commandFor(e, convert));
  assert.equal(new Set(writers.map((e) => outputFor(e, convert))).size, writers.length);
  // The Parquet write workload keeps its commands (no CSV arguments).
  assert.ok(!commandFor(all.find((e) => e.peer === 'polars' && e.threads === 1), byName('write_lineitem_snappy')).includes('--infer-rows'));
});

test('the report has the CSV table against the peers at the same threads', () => {
  const cell = (id, engine, threads, seconds, rssMiB, extra = {}) => ({
    id, engine, label: engine, threads, peer: engine === 'strata' ? null : engine, error: null,
    medianSeconds: seconds, medianRssKiB: rssMiB * 1024, timeRatio: null, memoryRatio: null, limitRatio: null,
    sameThreadsTimeRatio: null, sameThreadsMemoryRatio: null, ...extra,
  });
  const results = {
    date: '2026-01-01T00:00:00Z', quick: false, runs: 3, loadAverageAfter: [1, 1, 1], elapsedSeconds: 60,
    machine: { cpu: 'CPU', nproc: 2, memoryGiB: '4.0', os: 'Linux', node: '20', duckdb: 'd', polars: 'p',
      strata: 'strata 0', loadAverage: [0.5, 0.5, 0.5] },
    startup: [],
    workloads: [{
      name: 'csv_read_lineitem', kind: 'csv_read', file: 'f', disagreements: [],
      engines: [
        cell('strata-1t', 'strata', 1, 4.0, 50, { timeRatio: 1, memoryRatio: 1 }),
        cell('strata-2t', 'strata', 2, 2.5, 60, { timeRatio: 0.62 }),
        cell('duckdb-1t', 'duckdb', 1, 6.0, 300, { sameThreadsTimeRatio: 1.5 }),
        cell('polars-2t', 'polars', 2, 5.0, 2000, { sameThreadsTimeRatio: 2 }),
      ],
    }],
  };
  const dir = mkdtempSync(path.join(os.tmpdir(), 'compare-test-'));
  try {
    writeMarkdown(path.join(dir, 'results.md'), results);
    const md = readFileSync(path.join(dir, 'results.md'), 'utf8');
    assert.match(md, /## CSV: strata against the peers at the same thread count/);
    assert.match(md, /\| csv_read_lineitem \| 1 \| 4\.00 s \| 50 MiB \| n\/a \| n\/a \| n\/a \| 6\.00 s \| 1\.50x \| 300 MiB \|/);
    assert.match(md, /\| csv_read_lineitem \| 2 \| 2\.50 s \| 60 MiB \| 5\.00 s \| 2\.00x \| 2000 MiB \| n\/a \| n\/a \| n\/a \|/);
    assert.match(md, /CSV workloads read a CSV file/);
    assert.doesNotMatch(md, /## Writer: strata convert/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the IPC workloads: strata convert / scan at 1 and nproc threads against Polars, no DuckDB row', () => {
  const cores = os.availableParallelism?.() ?? os.cpus().length;
  const all = engines();
  const write = byName('ipc_write_lineitem');
  const writeLz4 = byName('ipc_write_lineitem_lz4');
  const read = byName('ipc_read_lineitem');
  assert.equal(write.outputDir, path.join('D', 'ipc-out'));
  const out = (w, id) => path.join('D', 'ipc-out', `${w.name}.${id}.arrow`);
  const strata = all.filter((e) => e.name === 'strata' && commandFor(e, write));
  assert.deepEqual(strata.map((e) => e.threads), cores > 1 ? [1, cores] : [1]);
  assert.deepEqual(commandFor(strata[0], write),
    [STRATA_BIN, 'convert', '--threads', '1', '--ipc-compression', 'none', 'D/lineitem_snappy.parquet', out(write, 'strata-1t')]);
  assert.deepEqual(commandFor(strata[0], writeLz4).slice(4, 6), ['--ipc-compression', 'lz4']);
  const polars = all.find((e) => e.peer === 'polars' && e.threads === 1);
  assert.deepEqual(commandFor(polars, write).slice(1),
    ['bench/compare/write_peer.mjs', 'polars', 'D/lineitem_snappy.parquet', out(write, 'polars-1t'), '--threads', '1',
      '--ipc-compression', 'none']);
  assert.equal(outputFor(polars, write), out(write, 'polars-1t'));
  assert.deepEqual(commandFor(strata[0], read), [STRATA_BIN, 'scan', '--json', '--threads', '1', 'D/lineitem.arrow']);
  assert.deepEqual(commandFor(polars, read).slice(1), ['testing/peers/scan_summary.mjs', 'polars', 'D/lineitem.arrow', '--threads', '1']);
  // DuckDB (no IPC without its community extension), the limit and pre-buffer rows do not run.
  for (const w of [write, writeLz4, read]) {
    assert.ok(all.filter((e) => e.peer === 'duckdb' || e.name === 'limit' || e.id === 'strata-prebuf').every((e) => commandFor(e, w) === null));
  }
  assert.ok(writesOutput(write) && !writesOutput(read) && threadedKind(read));
  // The IPC input of a read workload is made by strata from the Parquet file; others have none.
  assert.deepEqual(inputCommand(byName('ipc_read_lineitem_lz4')),
    [STRATA_BIN, 'convert', '--ipc-compression', 'lz4', 'D/lineitem_snappy.parquet', 'D/lineitem_lz4.arrow']);
  assert.equal(inputCommand(write), null);
  // DuckDB keeps its rows elsewhere.
  assert.notEqual(commandFor(all.find((e) => e.peer === 'duckdb'), byName('write_lineitem_snappy')), null);
});

test('the report has the IPC table against Polars at the same threads', () => {
  const cell = (id, engine, threads, seconds, rssMiB, extra = {}) => ({
    id, engine, label: engine, threads, peer: engine === 'strata' ? null : engine, error: null,
    medianSeconds: seconds, medianRssKiB: rssMiB * 1024, timeRatio: null, memoryRatio: null, limitRatio: null,
    sameThreadsTimeRatio: null, sameThreadsMemoryRatio: null, ...extra,
  });
  const results = {
    date: '2026-01-01T00:00:00Z', quick: false, runs: 3, loadAverageAfter: [1, 1, 1], elapsedSeconds: 60,
    machine: { cpu: 'CPU', nproc: 2, memoryGiB: '4.0', os: 'Linux', node: '20', duckdb: 'd', polars: 'p',
      strata: 'strata 0', loadAverage: [0.5, 0.5, 0.5] },
    startup: [],
    workloads: [{
      name: 'ipc_write_lineitem', kind: 'ipc_write', file: 'f', disagreements: [],
      engines: [
        cell('strata-1t', 'strata', 1, 3.0, 70, { timeRatio: 1, memoryRatio: 1 }),
        cell('polars-1t', 'polars', 1, 6.0, 2500, { sameThreadsTimeRatio: 2 }),
      ],
    }],
  };
  const dir = mkdtempSync(path.join(os.tmpdir(), 'compare-test-'));
  try {
    writeMarkdown(path.join(dir, 'results.md'), results);
    const md = readFileSync(path.join(dir, 'results.md'), 'utf8');
    assert.match(md, /## Arrow IPC: strata against Polars at the same thread count/);
    assert.match(md, /\| ipc_write_lineitem \| 1 \| 3\.00 s \| 70 MiB \| 6\.00 s \| 2\.00x \| 2500 MiB \|/);
    assert.doesNotMatch(md, /## CSV: strata against/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the docs page shows the run, a table per workload, the peers at the same threads and the limit', () => {
  const cell = (id, engine, label, threads, seconds, extra = {}) => ({
    id, engine, label, threads, peer: engine === 'duckdb' || engine === 'polars' ? engine : null, error: null,
    medianSeconds: seconds, medianRssKiB: 20480, timeRatio: null, memoryRatio: null, limitRatio: null,
    sameThreadsTimeRatio: null, ...extra,
  });
  const results = {
    date: '2026-01-01T00:00:00Z', quick: true, runs: 3, data: 'bench/data/quick', loadAverageAfter: [1.5, 1, 1],
    elapsedSeconds: 120,
    machine: { cpu: 'CPU', nproc: 2, memoryGiB: '4.0', os: 'Linux 6', node: '20', duckdb: 'd', polars: 'p',
      strata: 'strata 0.1', commit: 'abc1234', loadAverage: [0.5, 0.25, 0.75] },
    startup: [{ module: '@duckdb/node-api', medianSeconds: 0.2, medianRssKiB: 1024 }],
    workloads: [{
      name: 'scan_lineitem_snappy', kind: 'scan', file: 'bench/data/quick/lineitem_snappy.parquet', disagreements: [],
      engines: [
        cell('strata-1t', 'strata', 'strata', 1, 0.5, { timeRatio: 1, memoryRatio: 1, limitRatio: 2.5 }),
        cell('limit-1t', 'limit', 'limit (strata pages)', 1, 0.2, { timeRatio: 0.4 }),
        cell('strata-2t', 'strata', 'strata', 2, 0.3, { timeRatio: 0.6, limitRatio: 1.5 }),
        cell('strata-nopruning', 'strata', 'strata, --pruning off', 1, 0.7, { timeRatio: 1.4 }),
        cell('duckdb-1t', 'duckdb', 'duckdb', 1, 1.0, { timeRatio: 2, sameThreadsTimeRatio: 2 }),
      ],
    }],
  };
  const page = renderDocsPage(results, '# Performance\n\nheader text\n');
  assert.match(page, /^# Performance\n\nheader text\n/);
  assert.match(page, /Load average \(1 \/ 5 \/ 15 min\): 0\.5 \/ 0\.25 \/ 0\.75 before the run, 1\.5 \/ 1 \/ 1 after it/);
  assert.match(page, /--quick: every dataset ~20x smaller/);
  assert.match(page, /Threads: strata at 1 and 2; the peers at 1\./);
  assert.match(page, /strata 0\.1 built from commit abc1234; node 20/);
  assert.match(page, /This is a `--quick` run/);
  assert.match(page, /### scan_lineitem_snappy\n\n`bench\/data\/quick\/lineitem_snappy\.parquet`: every column/);
  assert.match(page, /\| duckdb \| 1 \| 1\.00 s \| 800 ms \| 20 MiB \| 2\.00x \| n\/a \|/);
  assert.match(page, /\| scan_lineitem_snappy \| 1 \| 500 ms \| 20 MiB \| 2\.00x \| 20 MiB \|  \|  \|/);
  assert.doesNotMatch(page, /\| scan_lineitem_snappy \| 2 \| 300 ms/);  // no peer at 2 threads
  assert.doesNotMatch(page, /\| scan_lineitem_snappy \| 1 \| 700 ms/);  // a variant, not strata's own row
  assert.match(page, /\| scan_lineitem_snappy \| strata \| 2 \| 200 ms \| 300 ms \| 1\.50x \|/);
  assert.match(page, /Every engine that ran printed the same summary/);
  assert.doesNotMatch(page, /issue \d/);
});
