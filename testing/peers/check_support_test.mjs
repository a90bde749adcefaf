// Tests of what the peer-check drivers share (check_support.mjs): argument parsing, the ALLOWED
// matching, the report and its tally, and the worker runner's retry after a crash
// (node --test testing/peers/).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import {
  allowedReasons, batchSummaries, crashMessage, jsonLines, parseFlags, perEngineText, polarsJobs, Report, runWithRetry,
  UsageError,
} from './check_support.mjs';

const dir = mkdtempSync(path.join(tmpdir(), 'check-support-test-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const SPEC = {
  defaults: { strata: null, tmp: null, list: null, parts: ['a', 'b'] },
  values: { '--strata': 'strata', '--tmp': 'tmp', '--list': 'list' },
  lists: { '--parts': 'parts' },
};

test('parseFlags: values, comma lists, defaults kept', () => {
  const o = parseFlags(['--tmp', '/t', '--strata', 'bin', '--parts', 'x,y,z'], SPEC);
  assert.deepEqual(o, { strata: 'bin', tmp: '/t', list: null, parts: ['x', 'y', 'z'] });
  assert.deepEqual(parseFlags(['--strata', 'b', '--tmp', 't'], SPEC).parts, ['a', 'b']);
  // The last of a repeated flag wins.
  assert.equal(parseFlags(['--strata', 'b', '--tmp', 't', '--list', 'one', '--list', 'two'], SPEC).list, 'two');
  // The defaults object itself is not written to.
  assert.equal(SPEC.defaults.strata, null);
});

test('parseFlags: unknown flag, missing value, missing --strata / --tmp', () => {
  const fails = (argv, message) => assert.throws(() => parseFlags(argv, SPEC),
    (error) => error instanceof UsageError && error.message === message);
  fails(['--strata', 'b', '--tmp', 't', '--bogus', 'x'], 'unknown argument --bogus');
  fails(['--strata', 'b', 'stray'], 'unknown argument stray');
  fails(['--strata', 'b', '--tmp'], '--tmp needs a value');
  fails(['--strata', 'b'], 'need --strata and --tmp');
  fails([], 'need --strata and --tmp');
});

test('parseFlags: a driver\'s own check runs after the flags', () => {
  const spec = { ...SPEC, check: (o) => (o.parts.includes('a') && !o.list ? 'the a part needs --list' : null) };
  assert.throws(() => parseFlags(['--strata', 'b', '--tmp', 't'], spec),
    (error) => error instanceof UsageError && error.message === 'the a part needs --list');
  assert.equal(parseFlags(['--strata', 'b', '--tmp', 't', '--parts', 'b'], spec).list, null);
  assert.equal(parseFlags(['--strata', 'b', '--tmp', 't', '--list', 'l'], spec).list, 'l');
});

const ALLOWED = [
  { engine: 'polars', mode: /^inferred$/, file: /^zip/, field: /^column \d+ 'zip' type:/, why: 'zip codes' },
  { engine: 'polars', mode: /./, file: /./, field: /time\[ns\]/, why: 'one time unit' },
  { engine: 'duckdb', mode: /./, file: /./, field: /./, why: 'duckdb anything' },
];

test('allowedReasons: every line explained, each reason once, first entry wins', () => {
  const facts = { engine: 'polars', mode: 'inferred', file: 'zip_codes.csv' };
  const diffs = ["column 0 'zip' type: strata string, polars int64", 'column 1 t type: time[ns]', 'time[ns] again'];
  assert.deepEqual(allowedReasons(ALLOWED, facts, diffs), ['zip codes', 'one time unit']);
  // A zip line matching the time pattern too takes the first entry's reason.
  assert.deepEqual(allowedReasons(ALLOWED, facts, ["column 0 'zip' type: time[ns]"]), ['zip codes']);
  assert.deepEqual(allowedReasons(ALLOWED, facts, []), []);
});

test('allowedReasons: null when one line is not explained', () => {
  const facts = { engine: 'polars', mode: 'aligned', file: 'zip_codes.csv' };
  // The zip entry is for `inferred` only.
  assert.equal(allowedReasons(ALLOWED, facts, ["column 0 'zip' type: x"]), null);
  assert.equal(allowedReasons(ALLOWED, facts, ['time[ns]', 'rows: 1, 2']), null);
  // The engine is compared exactly: 'polars-values' is not 'polars'.
  assert.equal(allowedReasons(ALLOWED, { ...facts, engine: 'polars-values' }, ['time[ns]']), null);
  assert.deepEqual(allowedReasons(ALLOWED, { ...facts, engine: 'duckdb' }, ['rows: 1, 2']), ['duckdb anything']);
});

test('allowedReasons: the facts checked are the ones given (the writer has a `set`)', () => {
  const writer = [{ engine: 'hyparquet', file: /./, set: /^lz4raw/, field: /lz4 offset/, why: 'empty lz4 block' }];
  assert.deepEqual(allowedReasons(writer, { engine: 'hyparquet', file: 'a.parquet', set: 'lz4raw-small' },
    ['error: lz4 offset out of range 0']), ['empty lz4 block']);
  assert.equal(allowedReasons(writer, { engine: 'hyparquet', file: 'a.parquet', set: 'default' },
    ['error: lz4 offset out of range 0']), null);
});

function capture(options) {
  const lines = [];
  return { lines, report: new Report({ ...options, print: (line) => lines.push(line) }) };
}

test('Report: line layout, details cut at the limit, tally per engine', () => {
  const { lines, report } = capture({ engineWidth: 9, detailLimit: 2 });
  report.add('PASS', 'strata', 'a file');
  report.add('FAIL', 'polars', 'b file', ['one', 'two', 'three', 'four']);
  report.add('KNOWN', 'polars', 'c file', ['why']);
  assert.deepEqual(lines, [
    'PASS  strata    a file',
    'FAIL  polars    b file',
    '      one',
    '      two',
    '      ... 2 more',
    'KNOWN polars    c file',
    '      why',
  ]);
  assert.deepEqual(report.tally, { passed: 2, failed: 1, known: 1 });
  assert.deepEqual(report.perEngine, { strata: { PASS: 1, FAIL: 0, KNOWN: 0 }, polars: { PASS: 0, FAIL: 1, KNOWN: 1 } });
  assert.equal(perEngineText(report.perEngine), 'strata 1 pass 0 fail; polars 0 pass 1 known 1 fail');
});

test('Report.judge: PASS, KNOWN with the reasons, FAIL with the context first', () => {
  const { lines, report } = capture({ engineWidth: 6 });
  const why = (diffs) => (diffs.every((d) => d.startsWith('ok')) ? ['it is fine'] : null);
  report.judge('duckdb', 'same', [], () => assert.fail('not asked without diffs'));
  report.judge('duckdb', 'known', ['ok 1', 'ok 2'], why, ['context']);
  report.judge('duckdb', 'bad', ['ok 1', 'bad 2'], why, ['given: x']);
  assert.deepEqual(lines, [
    'PASS  duckdb same',
    'KNOWN duckdb known', '      allowed: it is fine', '      ok 1', '      ok 2',
    'FAIL  duckdb bad', '      given: x', '      ok 1', '      bad 2',
  ]);
});

test('Report.finish: closing lines and exit code', () => {
  const { lines, report } = capture({ engineWidth: 6 });
  report.add('PASS', 'strata', 'x');
  report.add('KNOWN', 'strata', 'y');
  assert.equal(report.finish(Date.now(), 'known peer gaps'), 0);
  assert.deepEqual(lines.slice(-4), ['', 'per engine: strata 1 pass 1 known 0 fail',
    '(1 of the passes are known peer gaps; 0 s)', '2 passed, 0 failed']);
  report.add('FAIL', 'duckdb', 'z');
  assert.equal(report.finish(Date.now(), 'allowed differences'), 1);
  assert.equal(lines.at(-1), '2 passed, 1 failed');
});

test('crashMessage: last two stderr lines, trace lines left out on request', () => {
  const stderr = "thread 'main' panicked at src/x.rs:1:2:\nindex out of bounds\nnote: run with RUST_BACKTRACE=1\n" +
    '   0: rust_begin_unwind\n    at node:internal/x\n';
  assert.equal(crashMessage('polars', 'SIGABRT', stderr, { dropTrace: true }),
    "polars crashed (SIGABRT): thread 'main' panicked at src/x.rs:1:2: | index out of bounds");
  assert.equal(crashMessage('hyparquet', 134, stderr), 'hyparquet crashed (134):    0: rust_begin_unwind |     at node:internal/x');
});

test('jsonLines: complete lines only', () => {
  assert.deepEqual(jsonLines('{"id":"a"}\n\n{"id":"b","x":1}\n{"id":"c",'), [{ id: 'a' }, { id: 'b', x: 1 }]);
  assert.deepEqual(jsonLines(''), []);
});

test('runWithRetry: the first missing item takes the crash, the rest run again', async () => {
  const batches = [];
  // A batch does its items in order and dies on a 'bad' one.
  const runBatch = async (items) => {
    batches.push(items.join(','));
    const results = new Map();
    for (const item of items) {
      if (item.startsWith('bad')) return { results, crash: `died on ${item}` };
      results.set(item, { done: item });
    }
    return { results, crash: 'unused' };
  };
  const results = await runWithRetry(['a', 'bad1', 'b', 'bad2', 'c'], (x) => x, runBatch);
  assert.deepEqual(batches, ['a,bad1,b,bad2,c', 'b,bad2,c', 'c']);
  assert.deepEqual(Object.fromEntries(results), {
    a: { done: 'a' }, bad1: { error: 'died on bad1' }, b: { done: 'b' }, bad2: { error: 'died on bad2' }, c: { done: 'c' },
  });
  assert.equal((await runWithRetry([], (x) => x, () => assert.fail('no batch for no items'))).size, 0);
  const custom = await runWithRetry(['bad'], (x) => x, runBatch, (item, crash) => ({ id: item, error: crash }));
  assert.deepEqual(custom.get('bad'), { id: 'bad', error: 'died on bad' });
});

test('polarsJobs + serveJobs: results by id, a job that kills the worker is reported, the rest still run', async () => {
  const worker = path.join(dir, 'worker.mjs');
  const support = pathToFileURL(path.resolve(import.meta.dirname, 'check_support.mjs')).href;
  writeFileSync(worker, `import { serveJobs } from ${JSON.stringify(support)};
    serveJobs(process.argv[3], (job) => {
      if (job.kind === 'exit') { process.stderr.write('fatal: gone\\n'); process.exit(3); }
      if (job.kind === 'throw') throw new Error('bad job\\nsecond line\\n\\nthird\\nfourth');
      return { twice: job.n * 2, threads: process.env.POLARS_MAX_THREADS };
    });
  `);
  const jobs = [{ id: 'j0', n: 1 }, { id: 'j1', kind: 'exit' }, { id: 'j2', kind: 'throw' }, { id: 'j3', n: 4 }];
  const results = await polarsJobs(worker, jobs, dir);
  assert.deepEqual(results.get('j0'), { id: 'j0', twice: 2, threads: '2' });
  assert.deepEqual(results.get('j1'), { id: 'j1', error: 'polars crashed (3): fatal: gone' });
  assert.deepEqual(results.get('j2'), { id: 'j2', error: 'bad job | second line | third' });
  assert.deepEqual(results.get('j3'), { id: 'j3', twice: 8, threads: '2' });
  assert.equal(results.size, 4);
});

test('batchSummaries: summaries by file, a file that kills the engine is reported, the rest still run', async () => {
  const script = path.join(dir, 'scan.mjs');
  // Stands in for scan_summary.mjs ENGINE --batch FLAG... FILE...: a line per file.
  writeFileSync(script, `const files = process.argv.slice(6);
    for (const file of files) {
      if (file === 'crash') { process.stderr.write('one\\ntwo\\nthree\\n'); process.exit(134); }
      const record = file === 'refused' ? { file, error: 'not parquet' }
        : { file, line: JSON.stringify({ rows: file.length, flag: process.argv[5] }), digest: { a: '1:x' } };
      console.log(JSON.stringify(record));
    }
  `);
  const results = await batchSummaries(script, 'fake', ['ab', 'crash', 'refused', 'abcd'], ['--digest', '--x']);
  assert.deepEqual(results.get('ab'), { summary: { rows: 2, flag: '--x' }, digest: { a: '1:x' }, digestError: undefined });
  assert.deepEqual(results.get('crash'), { error: 'fake crashed (134): two | three' });
  assert.deepEqual(results.get('refused'), { error: 'not parquet' });
  assert.equal(results.get('abcd').summary.rows, 4);
  assert.equal(results.size, 4);
});
