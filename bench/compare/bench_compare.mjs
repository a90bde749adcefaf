// bench-compare: whole-process comparison of strata with DuckDB and Polars (through node).
// Usage: node bench/compare/bench_compare.mjs [--quick] [--workload NAME[,NAME]] [--runs N (5;
//        3 with --quick)]
//        [--data DIR] [--out DIR] [--before BIN]; strata is $STRATA_BIN if set, else build/release's;
//        --before (or $STRATA_BEFORE_BIN) adds rows of another strata binary, e.g. a build of main.
// For each workload: one warm-up run per engine whose output is also the correctness check (all
// summaries must agree), then N rounds, each running every engine once in turn (A B C A B C...)
// so drift on the machine hits all engines alike. Medians and the median of per-round ratios
// against strata go to results.json / results.md / time.png / memory.png. Beside the engines,
// two strata rows: the read+decompress limit (`strata pages`) and pre-buffering on (see
// workloads.mjs). Write and csv_to_parquet workloads check each engine's output instead of its
// stdout: the row count it reports and strata's scan summary of the file it wrote must equal
// strata's summary of the input (for a CSV input, strata's reading of it: the engines' type
// inference must agree).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { diffSummaries } from '../../testing/peers/compare_scan.mjs';
import { measure, median, summaryOf } from './measure.mjs';
import { writeCharts, writeMarkdown } from './report.mjs';
import {
  commandFor, engineApplies, engines, inputCommand, outputFor, startupCommand, STRATA_BEFORE_BIN, STRATA_BIN, strataAvailable,
  strataScanCommand, threadedKind, workloads, writesOutput,
} from './workloads.mjs';

function parseArgs(argv) {
  const options = { quick: false, only: null, runs: null, data: null, out: 'bench/results' };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--quick') options.quick = true;
    else if (arg === '--workload') options.only = argv[++i].split(',');
    else if (arg === '--runs') options.runs = Number(argv[++i]);
    else if (arg === '--data') options.data = argv[++i];
    else if (arg === '--out') options.out = argv[++i];
    else if (arg === '--before') options.before = argv[++i];
    else {
      console.error(`bench-compare: unknown option ${arg}`);
      process.exit(2);
    }
  }
  // --quick defaults to 3 rounds so the whole run stays under 3 minutes on 2 busy cores.
  options.runs ??= options.quick ? 3 : 5;
  if (!(options.runs >= 1)) {
    console.error('bench-compare: --runs needs a number >= 1');
    process.exit(2);
  }
  options.data ??= options.quick ? 'bench/data/quick' : 'bench/data';
  return options;
}

function packageVersion(name) {
  return JSON.parse(readFileSync(`node_modules/${name}/package.json`, 'utf8')).version;
}

function machine() {
  const cpu = os.cpus()[0]?.model?.trim() ?? 'unknown CPU';
  let strata = 'not built';
  if (strataAvailable()) {
    try {
      strata = execFileSync(STRATA_BIN, ['--version'], { encoding: 'utf8' }).trim();
    } catch (error) {
      strata = `present, --version failed`;
    }
  }
  // The checkout the run was made from (the docs page names it); '+' marks uncommitted changes.
  let commit = null;
  try {
    commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
    if (execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { encoding: 'utf8' }).trim()) commit += '+';
  } catch (error) {
    commit = null;
  }
  return {
    nproc: os.availableParallelism?.() ?? os.cpus().length, cpu, commit,
    memoryGiB: (os.totalmem() / 2 ** 30).toFixed(1), os: `${os.type()} ${os.release()}`,
    node: process.versions.node, duckdb: packageVersion('@duckdb/node-api'),
    polars: packageVersion('nodejs-polars'), strata, strataBin: STRATA_BIN,
  };
}

function envFor(engine) {
  return engine.peer === 'polars' ? { POLARS_MAX_THREADS: String(engine.threads) } : {};
}

// Checks that every engine's warm-up output is the same summary (or metadata) as the first
// engine's; returns human-readable disagreements.
function checkAgreement(workload, warmups) {
  const produced = warmups.filter((w) => w.summary);
  const disagreements = [];
  if (produced.length < 2) return disagreements;
  // The limit row prints page totals, not a scan summary: only its row count is comparable.
  const full = produced.filter((w) => w.engine.name !== 'limit');
  // Write workloads: every output against the input (the 'input' entry, see runWorkload).
  const reference = writesOutput(workload) ? full.find((w) => w.engine.id === 'input')
    : full.find((w) => w.engine.peer) ?? full[0];
  if (!reference) return disagreements;
  for (const other of produced) {
    if (other === reference) continue;
    let diffs;
    if (other.engine.name === 'limit') {
      diffs = other.summary.rows === reference.summary.rows ? []
        : [`rows ${other.summary.rows} vs ${reference.summary.rows}`];
    } else if (workload.kind === 'footer') {
      const rows = (s) => s.rows ?? s.num_rows;
      const columns = (s) => (Array.isArray(s.columns) ? s.columns.length : s.columns ?? s.num_columns);
      diffs = [];
      if (rows(other.summary) !== rows(reference.summary)) diffs.push(`rows ${rows(other.summary)} vs ${rows(reference.summary)}`);
      if (columns(other.summary) !== undefined && columns(other.summary) !== columns(reference.summary)) {
        diffs.push(`columns ${columns(other.summary)} vs ${columns(reference.summary)}`);
      }
    } else {
      diffs = diffSummaries(other.summary, reference.summary, other.engine.id, reference.engine.id);
    }
    for (const d of diffs.slice(0, 10)) disagreements.push(`${other.engine.id} vs ${reference.engine.id}: ${d}`);
  }
  return disagreements;
}

function ratio(numerators, denominators) {
  if (!denominators || denominators.every((d) => d === null)) return null;
  return median(numerators.map((n, i) => (n === null || !denominators[i] ? null : n / denominators[i])));
}

// A write workload's warm-up check: the rows the engine reported (if it printed any) and
// strata's scan summary of its output file. Returns { summary } or { error }.
function writtenSummary(cell, warm, input) {
  const output = outputFor(cell.engine, cell.workload);
  if (!existsSync(output)) return { error: `wrote no ${output}` };
  const reported = summaryOf(warm.stdout);
  if (reported && reported.rows !== input.rows) {
    return { error: `reported ${reported.rows} rows written, the input has ${input.rows}` };
  }
  const scan = measure(strataScanCommand(output));
  const summary = scan.ok ? summaryOf(scan.stdout) : null;
  if (!summary) return { error: `strata scan of ${output} failed: ${scan.error ?? 'no summary line'}` };
  return { summary };
}

// Write workloads start every run without the engine's previous output.
function removeOutput(cell) {
  if (writesOutput(cell.workload)) rmSync(outputFor(cell.engine, cell.workload), { force: true });
}

function runWorkload(workload, engineList, runs) {
  const active = engineList.filter((engine) => engineApplies(engine, workload))
    .map((engine) => ({ engine, workload, argv: commandFor(engine, workload), error: null, seconds: [], rss: [] }));
  const warmups = [];
  let input = null;
  if (writesOutput(workload)) {
    mkdirSync(workload.outputDir, { recursive: true });
    const scan = measure(strataScanCommand(workload.file));
    input = scan.ok ? summaryOf(scan.stdout) : null;
    if (!input) {
      const problem = `strata scan of the input failed (${scan.error ?? 'no summary line'}): nothing to check the outputs against`;
      console.log(`  !!! ${problem}`);
      return { name: workload.name, kind: workload.kind, file: workload.file, engines: [], disagreements: [problem] };
    }
    warmups.push({ engine: { id: 'input', name: 'input' }, summary: input });
  }
  for (const cell of active) {
    if (!cell.argv) { cell.error = 'no command for this workload yet'; continue; }
    removeOutput(cell);
    const warm = measure(cell.argv, { env: envFor(cell.engine) });
    let summary = warm.ok ? summaryOf(warm.stdout) : null;
    let checkError = null;
    if (warm.ok && writesOutput(workload)) {
      const checked = writtenSummary(cell, warm, input);
      summary = checked.summary ?? null;
      checkError = checked.error ?? null;
    }
    if (!warm.ok || !summary) {
      cell.error = !warm.ok ? warm.error : checkError ?? 'printed no summary line';
      cell.argv = null;
      console.log(`  ${cell.engine.id.padEnd(10)} n/a (${cell.error.slice(0, 160)})`);
      continue;
    }
    warmups.push({ engine: cell.engine, summary });
  }
  const disagreements = checkAgreement(workload, warmups);
  for (const d of disagreements) console.log(`  !!! DISAGREEMENT ${d}`);
  for (let round = 0; round < runs; round++) {
    for (const cell of active) {
      if (!cell.argv) { cell.seconds.push(null); cell.rss.push(null); continue; }
      removeOutput(cell);
      const run = measure(cell.argv, { env: envFor(cell.engine) });
      cell.seconds.push(run.ok ? run.seconds : null);
      cell.rss.push(run.ok ? run.rssKiB : null);
      if (!run.ok) console.log(`  ${cell.engine.id} failed in round ${round + 1}: ${run.error}`);
    }
  }
  if (writesOutput(workload)) rmSync(workload.outputDir, { recursive: true, force: true });
  const strata = active.find((c) => c.engine.baseline);
  const limit = active.find((c) => c.engine.name === 'limit' && c.argv);
  // Write and CSV workloads: each row against strata at the same thread count.
  const strataAt = (threads) => active.find((c) => c.engine.name === 'strata' && c.engine.threads === threads && c.argv);
  const cells = active.map((cell) => ({
    id: cell.engine.id, engine: cell.engine.name, label: cell.engine.label, threads: cell.engine.threads,
    peer: cell.engine.peer,
    command: cell.argv ? cell.argv.join(' ') : null, error: cell.error,
    seconds: cell.seconds, rssKiB: cell.rss,
    medianSeconds: median(cell.seconds), medianRssKiB: median(cell.rss),
    timeRatio: cell === strata ? (strata.argv ? 1 : null) : ratio(cell.seconds, strata?.seconds),
    memoryRatio: cell === strata ? (strata.argv ? 1 : null) : ratio(cell.rss, strata?.rss),
    // strata's scans against the read+decompress limit: median of per-round (scan / limit).
    limitRatio: cell.engine.name === 'strata' && limit && cell.argv ? ratio(cell.seconds, limit.seconds) : null,
    sameThreadsTimeRatio: threadedKind(workload) && cell.engine.peer ? ratio(cell.seconds, strataAt(cell.engine.threads)?.seconds) : null,
    sameThreadsMemoryRatio: threadedKind(workload) && cell.engine.peer ? ratio(cell.rss, strataAt(cell.engine.threads)?.rss) : null,
  }));
  for (const c of cells) {
    if (c.medianSeconds !== null) {
      console.log(`  ${c.id.padEnd(14)} ${c.medianSeconds.toFixed(3)} s  ${(c.medianRssKiB / 1024).toFixed(0)} MiB` +
        (c.timeRatio !== null && c.id !== strata?.engine.id ? `  (${c.timeRatio.toFixed(2)}x strata)` : '') +
        (c.limitRatio !== null ? `  (${c.limitRatio.toFixed(2)}x the limit)` : '') +
        (c.sameThreadsTimeRatio !== null ? `  (${c.sameThreadsTimeRatio.toFixed(2)}x strata at ${c.threads} threads)` : ''));
    }
  }
  return { name: workload.name, kind: workload.kind, file: workload.file, engines: cells, disagreements };
}

function main() {
  const options = parseArgs(process.argv.slice(2));
  const started = Date.now();
  const engineList = engines({ quick: options.quick, before: options.before ?? STRATA_BEFORE_BIN });
  const info = machine();
  info.loadAverage = os.loadavg().map((l) => Number(l.toFixed(2)));
  console.log(`bench-compare: ${info.cpu}, ${info.nproc} cores; strata: ${info.strata}; data: ${options.data}; ` +
    `load average ${info.loadAverage.join(' ')}`);
  if (!strataAvailable()) console.log(`  (${STRATA_BIN} is missing: strata's cells are n/a)`);

  const startup = [];
  for (const peer of ['duckdb', 'polars']) {
    const argv = startupCommand(peer);
    measure(argv); // warm-up
    const runs = Array.from({ length: options.runs }, () => measure(argv));
    startup.push({ module: peer === 'duckdb' ? '@duckdb/node-api' : 'nodejs-polars',
      seconds: runs.map((r) => r.seconds), medianSeconds: median(runs.map((r) => r.seconds)),
      medianRssKiB: median(runs.map((r) => r.rssKiB)) });
    console.log(`startup ${peer}: ${startup.at(-1).medianSeconds.toFixed(3)} s`);
  }

  const results = [];
  for (const workload of workloads(options.data)) {
    if (options.only && !options.only.some((o) => workload.name.includes(o))) continue;
    if (engineList.every((e) => !commandFor(e, workload))) {
      console.log(`${workload.name}: hook only, no engine has a command yet`);
      continue;
    }
    if (writesOutput(workload) && !strataAvailable()) {
      console.log(`${workload.name}: skipped, the outputs are checked with strata (${STRATA_BIN} is missing)`);
      continue;
    }
    const make = inputCommand(workload);
    if (make && !existsSync(workload.file) && existsSync(workload.source) && strataAvailable()) {
      console.log(`${workload.name}: making ${workload.file} with ${make.slice(1).join(' ')}`);
      const made = measure(make);
      if (!made.ok) console.log(`  failed: ${made.error}`);
    }
    if (!existsSync(workload.file)) {
      console.log(`${workload.name}: ${workload.file} is missing (run scripts/bench-data${options.quick ? ' --quick' : ''}` +
        `${make ? '; it is made with strata convert from the Parquet file' : ''})`);
      continue;
    }
    console.log(`${workload.name} (${workload.file})`);
    results.push(runWorkload(workload, engineList, options.runs));
  }

  mkdirSync(options.out, { recursive: true });
  const loadAverageAfter = os.loadavg().map((l) => Number(l.toFixed(2)));
  const output = { date: new Date().toISOString(), quick: options.quick, runs: options.runs, loadAverageAfter,
    data: options.data, machine: info, startup, workloads: results,
    elapsedSeconds: (Date.now() - started) / 1000 };
  writeFileSync(path.join(options.out, 'results.json'), `${JSON.stringify(output, null, 1)}\n`);
  writeMarkdown(path.join(options.out, 'results.md'), output);
  if (results.length) writeCharts(options.out, output);
  const disagreements = results.reduce((n, w) => n + w.disagreements.length, 0);
  console.log(`bench-compare: ${results.length} workloads in ${output.elapsedSeconds.toFixed(0)} s -> ` +
    `${options.out}/results.{json,md}, time.png, memory.png` +
    (disagreements ? `; ${disagreements} DISAGREEMENTS` : ''));
  process.exitCode = disagreements ? 1 : 0;
}

main();
