// What the peer-check drivers (check_csv.mjs, check_writer.mjs, check_ipc.mjs) share: their
// argument parsing, the PASS / FAIL / KNOWN report and its tally, the matching of differences
// against ALLOWED lists, running strata, DuckDB's EXCEPT ALL comparison, and running Polars (or
// scan_summary.mjs) in worker processes that a crash cannot take down. Tests:
// check_support_test.mjs.
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

// ---------------------------------------------------------------------------------------------
// Arguments

export class UsageError extends Error {}

// Parses `argv` of `--flag value` pairs: `values` maps a flag to its option key, `lists` maps a
// flag to a key whose value is split at commas. Options start as `defaults`. Throws UsageError
// on an unknown flag, a missing value, without --strata and --tmp (every driver needs both), or
// with the message `check(options)` returns.
export function parseFlags(argv, { defaults, values, lists = {}, check = () => null }) {
  const o = { ...defaults };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!(arg in values) && !(arg in lists)) throw new UsageError(`unknown argument ${arg}`);
    if (i + 1 >= argv.length) throw new UsageError(`${arg} needs a value`);
    const value = argv[++i];
    if (arg in values) o[values[arg]] = value;
    else o[lists[arg]] = value.split(',');
  }
  if (!o.strata || !o.tmp) throw new UsageError('need --strata and --tmp');
  const problem = check(o);
  if (problem) throw new UsageError(problem);
  return o;
}

// The drivers' bad-usage exit: `name: message`, the usage line, exit 2.
export function exitWithUsage(name, usageLine, message) {
  if (message) console.error(`${name}: ${message}`);
  console.error(usageLine);
  process.exit(2);
}

// parseFlags, exiting through exitWithUsage on bad usage.
export function parseArgsOrExit(argv, name, usageLine, spec) {
  try {
    return parseFlags(argv, spec);
  } catch (error) {
    if (error instanceof UsageError) exitWithUsage(name, usageLine, error.message);
    throw error;
  }
}

// ---------------------------------------------------------------------------------------------
// Allowed differences

// The reasons (`why`, each once) when an entry of `allowed` explains every line of `diffs`, else
// null. An entry matches a line when its `field` regexp matches it and, for each key of `facts`,
// the entry's value is equal to the fact (a string) or matches it (a RegExp). The first matching
// entry gives the reason.
export function allowedReasons(allowed, facts, diffs) {
  const keys = Object.keys(facts);
  const matches = (entry, d) => entry.field.test(d) && keys.every((k) =>
    (entry[k] instanceof RegExp ? entry[k].test(facts[k]) : entry[k] === facts[k]));
  const reasons = new Set();
  for (const d of diffs) {
    const hit = allowed.find((entry) => matches(entry, d));
    if (!hit) return null;
    reasons.add(hit.why);
  }
  return [...reasons];
}

// ---------------------------------------------------------------------------------------------
// Reporting

// One line per check (`VERDICT engine label`, the details indented below it, at most
// `detailLimit` of them), counted per engine and in total. `print` is console.log but for tests.
export class Report {
  constructor({ engineWidth, detailLimit = 14, print = console.log }) {
    this.engineWidth = engineWidth;
    this.detailLimit = detailLimit;
    this.print = print;
    this.tally = { passed: 0, failed: 0, known: 0 };
    this.perEngine = {};
  }

  add(verdict, engine, label, details = []) {
    const t = (this.perEngine[engine] ??= { PASS: 0, FAIL: 0, KNOWN: 0 });
    t[verdict] += 1;
    if (verdict === 'FAIL') this.tally.failed += 1;
    else this.tally.passed += 1;
    if (verdict === 'KNOWN') this.tally.known += 1;
    this.print(`${verdict.padEnd(5)} ${engine.padEnd(this.engineWidth)} ${label}`);
    for (const line of details.slice(0, this.detailLimit)) this.print(`      ${line}`);
    if (details.length > this.detailLimit) this.print(`      ... ${details.length - this.detailLimit} more`);
  }

  // PASS without diffs; KNOWN when `why(diffs)` gives reasons; FAIL otherwise, `context` first.
  judge(engine, label, diffs, why, context = []) {
    if (diffs.length === 0) { this.add('PASS', engine, label); return; }
    const reasons = why(diffs);
    if (reasons) this.add('KNOWN', engine, label, [...reasons.map((r) => `allowed: ${r}`), ...diffs]);
    else this.add('FAIL', engine, label, [...context, ...diffs]);
  }

  // The closing lines (`N passed, N failed` last) and the exit code: 1 on any failure.
  // `knownAre` names what a KNOWN is ("allowed differences", "known peer gaps").
  finish(start, knownAre) {
    this.print('');
    this.print(`per engine: ${perEngineText(this.perEngine)}`);
    this.print(`(${this.tally.known} of the passes are ${knownAre}; ${((Date.now() - start) / 1000).toFixed(0)} s)`);
    this.print(`${this.tally.passed} passed, ${this.tally.failed} failed`);
    return this.tally.failed > 0 ? 1 : 0;
  }
}

export function perEngineText(perEngine) {
  return Object.entries(perEngine).map(([e, t]) =>
    `${e} ${t.PASS} pass${t.KNOWN ? ` ${t.KNOWN} known` : ''} ${t.FAIL} fail`).join('; ');
}

// ---------------------------------------------------------------------------------------------
// strata

// `bin args`: { stdout, stderr, status: 0 } or { error } (with status, signal, stderr when it ran).
export function runStrata(bin, args, { timeout = 300000, input } = {}) {
  const r = spawnSync(bin, args, { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, timeout, input });
  if (r.error) return { error: r.error.message, signal: r.signal };
  if (r.status !== 0) {
    return { error: `exit ${r.status ?? r.signal}: ${r.stderr.trim().split('\n').slice(-3).join(' | ')}`,
      status: r.status, signal: r.signal, stderr: r.stderr };
  }
  return { stdout: r.stdout, stderr: r.stderr, status: 0 };
}

// `strata scan --json` of a file, or of the given arguments (with `input` on stdin).
export function strataSummary(bin, fileOrArgs, { input } = {}) {
  const r = runStrata(bin, ['scan', '--json', ...[].concat(fileOrArgs)], { input });
  if (r.error) return { error: r.error };
  const line = r.stdout.trim().split('\n').pop();
  try {
    return { summary: JSON.parse(line) };
  } catch {
    return { error: `not JSON: ${line.slice(0, 200)}` };
  }
}

// ---------------------------------------------------------------------------------------------
// DuckDB, one instance per driver, started on first use

let duck = null;
export async function duckdb() {
  if (duck) return duck;
  const { DuckDBSummary } = await import('./duckdb_summary.mjs');
  duck = await DuckDBSummary.create({ threads: 2 });
  return duck;
}

export function closeDuckdb() {
  duck?.close();
}

export const sqlString = (text) => `'${String(text).replaceAll("'", "''")}'`;
export const sqlIdent = (name) => `"${String(name).replaceAll('"', '""')}"`;
const bigintSafe = (r) => JSON.stringify(r, (k, v) => (typeof v === 'bigint' ? v.toString() : v));

// DuckDB's equality of two SELECTs: row counts, optionally column types, and EXCEPT ALL both
// ways (float columns also as text, so that -0.0 against 0.0 shows); up to `sampleChars` of
// sample rows per difference.
export async function compareSelects(db, a, b, { aName, bName, types = true, sampleChars = 700 }) {
  const problems = [];
  const ta = await db.rows(`DESCRIBE ${a}`);
  const tb = await db.rows(`DESCRIBE ${b}`);
  const show = (t) => t.map((r) => `${r.column_name} ${r.column_type}`).join(', ');
  if (types && show(ta) !== show(tb)) problems.push(`types: ${aName} ${show(ta)}; ${bName} ${show(tb)}`);
  const text = ta.filter((r) => /^(FLOAT|DOUBLE)$/.test(r.column_type))
    .map((r) => `, ${sqlIdent(r.column_name)}::VARCHAR AS ${sqlIdent(`${r.column_name}__text`)}`).join('');
  const withText = (s) => `SELECT *${text} FROM (${s})`;
  const [counts] = await db.rows(`SELECT (SELECT count(*) FROM (${a})) AS a, (SELECT count(*) FROM (${b})) AS b`);
  if (counts.a !== counts.b) problems.push(`rows: ${aName} ${counts.a}, ${bName} ${counts.b}`);
  for (const [x, y, name] of [[a, b, `${aName} EXCEPT ALL ${bName}`], [b, a, `${bName} EXCEPT ALL ${aName}`]]) {
    try {
      const diff = `${withText(x)} EXCEPT ALL ${withText(y)}`;
      const [{ n }] = await db.rows(`SELECT count(*) AS n FROM (${diff})`);
      if (Number(n) !== 0) {
        const some = await db.rows(`SELECT * FROM (${diff}) LIMIT 3`);
        problems.push(`${name}: ${n} rows, e.g. ${some.map(bigintSafe).join(' ; ').slice(0, sampleChars)}`);
      }
    } catch (error) {
      problems.push(`${name}: DuckDB error ${error.message.split('\n')[0]}`);
    }
  }
  return problems;
}

// ---------------------------------------------------------------------------------------------
// Engines in child processes (a Rust panic or abort must not take the check down)

// `engine crashed (CODE): ` and the last two lines of its stderr; `dropTrace` leaves out the
// lines of a Rust backtrace and a JavaScript stack, so that the panic message shows.
export function crashMessage(engine, how, stderr, { dropTrace = false } = {}) {
  let lines = stderr.trim().split('\n');
  if (dropTrace) lines = lines.filter((l) => !/^\s*(note|stack|\d+:|at )/.test(l));
  return `${engine} crashed (${how}): ${lines.slice(-2).join(' | ')}`;
}

// Runs `node args` and collects its stdout, stderr and how it ended.
function runNode(args, env) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'], env });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => { out += d; });
    child.stderr.on('data', (d) => { err += d; });
    child.on('close', (code, signal) => resolve({ out, err, code, signal }));
  });
}

// The JSON objects of the complete lines of `out`; a crashed process may leave a partial last one.
export function jsonLines(out) {
  const records = [];
  for (const line of out.split('\n')) {
    if (!line.trim()) continue;
    try {
      records.push(JSON.parse(line));
    } catch { /* partial */ }
  }
  return records;
}

// Runs `items` through `runBatch(items)` (a Promise of { results: Map key -> result, crash: the
// crash message }) until each has a result: when a batch ends without the results of some
// items, the first of them (the one that crashed it) gets `crashed(item, crash)` and the rest
// are run again. Map key -> result, `key(item)` the key.
export async function runWithRetry(items, key, runBatch, crashed = (item, crash) => ({ error: crash })) {
  const results = new Map();
  if (items.length === 0) return results;
  const batch = await runBatch(items);
  for (const [k, r] of batch.results) results.set(k, r);
  const missing = items.filter((item) => !results.has(key(item)));
  if (missing.length) {
    results.set(key(missing[0]), crashed(missing[0], batch.crash));
    for (const [k, r] of await runWithRetry(missing.slice(1), key, runBatch, crashed)) results.set(k, r);
  }
  return results;
}

// Runs `jobs` ([{id, ...}]) in `node script --polars-worker JOBFILE` processes (the job file in
// `tmp`); Map id -> result (the worker's {id, ...} line, or {id, error} for a crash).
export function polarsJobs(script, jobs, tmp) {
  return runWithRetry(jobs, (j) => j.id, async (batch) => {
    const jobFile = path.join(tmp, `polars-jobs-${batch[0].id}.json`);
    writeFileSync(jobFile, JSON.stringify(batch));
    const { out, err, code, signal } = await runNode([script, '--polars-worker', jobFile],
      { ...process.env, POLARS_MAX_THREADS: '2' });
    return { results: new Map(jsonLines(out).map((r) => [r.id, r])),
      crash: crashMessage('polars', code ?? signal, err, { dropTrace: true }) };
  }, (job, crash) => ({ id: job.id, error: crash }));
}

// The worker side of polarsJobs: runs each job of `jobFile` through `handle(job)` and prints
// one line per job, `{id, ...result}` or `{id, error}` (the first three lines of what it threw).
export function serveJobs(jobFile, handle) {
  const jobs = JSON.parse(readFileSync(jobFile, 'utf8'));
  for (const job of jobs) {
    let result;
    try {
      result = handle(job);
    } catch (error) {
      result = { error: String(error?.message ?? error).split('\n').filter(Boolean).slice(0, 3).join(' | ') };
    }
    process.stdout.write(`${JSON.stringify({ id: job.id, ...result })}\n`);
  }
}

// Runs `node script ENGINE --batch ...flags FILE...` (scan_summary.mjs) over `files`, one line
// per file; Map file -> {summary, digest, digestError} | {error}. Files a crash left undone are
// retried.
export function batchSummaries(script, engine, files, flags) {
  return runWithRetry(files, (f) => f, async (batch) => {
    const { out, err, code, signal } = await runNode([script, engine, '--batch', ...flags, ...batch]);
    const results = new Map();
    for (const record of jsonLines(out)) {
      try {
        results.set(record.file, record.error !== undefined ? { error: record.error }
          : { summary: JSON.parse(record.line), digest: record.digest, digestError: record.digestError });
      } catch { /* a summary line cut short: the file counts as not done */ }
    }
    return { results, crash: crashMessage(engine, code ?? signal, err) };
  });
}
