// Renders docs/performance.md from a bench-compare run: the hand-written header
// (docs_header.md, beside this file), then the run as recorded in results.json (date, machine,
// load before and after, runs, thread counts) and its tables: time and peak RSS per workload and
// engine with ratios to strata, the peers at strata's thread count, strata against the
// read + decompress limit, and node's start-up.
// Usage: node bench/compare/docs_page.mjs [--results bench/results/results.json]
//        [--out docs/performance.md] (scripts/bench-docs)
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { fmtMiB, fmtRatio, fmtSeconds, startupSeconds } from './report.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
export const HEADER_FILE = path.join(HERE, 'docs_header.md');

// What each kind of workload does, in a sentence (workloads.mjs has the commands).
const KIND_TEXT = {
  scan: 'every column read and summarised (count, nulls, min, max)',
  project: 'some of the columns read and summarised (two of lineitem\'s, ten of the wide tables\')',
  footer: 'the footer only (each engine prints a row and a column count: strata meta --summary)',
  write: 'the file rewritten as snappy Parquet, every output checked against the input',
  csv_read: 'the CSV file read with each engine\'s own type inference and summarised',
  csv_to_parquet: 'the CSV file written as snappy Parquet, every output checked',
  ipc_write: 'the Parquet file written as an Arrow IPC file',
  ipc_read: 'an Arrow IPC file read and summarised',
  filter: 'three columns of the rows a predicate keeps, summarised (the same predicate text for every engine)',
};

const load = (l) => (l ? l.join(' / ') : 'n/a');
const escapeCell = (text) => String(text).replaceAll('|', '\\|');

function runSection(results) {
  const m = results.machine;
  const engines = results.workloads.flatMap((w) => w.engines);
  const threadsOf = (pick) => [...new Set(engines.filter(pick).map((e) => e.threads))].sort((a, b) => a - b);
  const strataThreads = threadsOf((e) => e.engine === 'strata');
  const peerThreads = threadsOf((e) => e.peer);
  return [
    '## The run',
    '',
    `- Date: ${results.date}; ${(results.elapsedSeconds / 60).toFixed(1)} minutes in all.`,
    `- Data: \`${results.data ?? 'bench/data'}\` (${results.quick ? '--quick: every dataset ~20x smaller than the default' : 'default sizes'}); ` +
      `${results.workloads.length} workloads; medians of ${results.runs} timed runs per cell after one warm-up.`,
    `- Machine: ${m.cpu}, ${m.nproc} cores, ${m.memoryGiB} GiB RAM, ${m.os}.`,
    `- Load average (1 / 5 / 15 min): ${load(m.loadAverage)} before the run, ${load(results.loadAverageAfter)} after it.`,
    `- Software: ${m.strata}${m.commit ? ` built from commit ${m.commit}` : ''}; node ${m.node}, ` +
      `@duckdb/node-api ${m.duckdb}, nodejs-polars ${m.polars}.`,
    `- Threads: strata at ${strataThreads.join(' and ') || 'n/a'}; the peers at ${peerThreads.join(' and ') || 'n/a'}.`,
    ...(results.quick ? ['', 'This is a `--quick` run, a smoke run on small files: the peers\' node start-up is most of their ' +
      'time, so read their "minus start-up" column, and read [performance-notes.md](performance-notes.md) for the ' +
      'reference run at default sizes.'] : []),
  ];
}

function workloadTables(results) {
  const lines = ['', '## Time and peak memory per workload', '',
    'Ratios are against strata at 1 thread (> 1: strata is faster or smaller). "minus start-up" is a ' +
    'peer\'s time less node\'s start-up with its module (last table).'];
  for (const w of results.workloads) {
    lines.push('', `### ${w.name}`, '', `\`${w.file}\`: ${KIND_TEXT[w.kind] ?? w.kind}.`, '',
      '| engine | threads | median time | minus start-up | median peak RSS | time vs strata | memory vs strata |',
      '|---|---:|---:|---:|---:|---:|---:|');
    for (const e of w.engines) {
      const startup = e.peer ? startupSeconds(results, e.peer) : null;
      const net = startup !== null && e.medianSeconds !== null ? fmtSeconds(Math.max(0, e.medianSeconds - startup)) : '';
      lines.push(`| ${escapeCell(e.label ?? e.engine)} | ${e.threads} | ${fmtSeconds(e.medianSeconds)} | ${net} | ` +
        `${fmtMiB(e.medianRssKiB)} | ${fmtRatio(e.timeRatio)} | ${fmtRatio(e.memoryRatio)} |`);
    }
  }
  return lines;
}

// strata's plain row at each thread count (not pre-buffering or pruning variants) with the peers
// beside it at the same count.
function peerTable(results) {
  const rows = [];
  for (const w of results.workloads) {
    const strataRows = w.engines.filter((e) => e.id === `strata-${e.threads}t` && e.medianSeconds !== null);
    for (const s of strataRows) {
      const peer = (name) => w.engines.find((e) => e.peer === name && e.threads === s.threads && e.medianSeconds !== null &&
        e.sameThreadsTimeRatio !== null && e.sameThreadsTimeRatio !== undefined);
      const duckdb = peer('duckdb');
      const polars = peer('polars');
      if (!duckdb && !polars) continue;
      const cells = (e) => (e ? [fmtRatio(e.sameThreadsTimeRatio), fmtMiB(e.medianRssKiB)] : ['', '']);
      rows.push(`| ${w.name} | ${s.threads} | ${fmtSeconds(s.medianSeconds)} | ${fmtMiB(s.medianRssKiB)} | ` +
        `${cells(duckdb).join(' | ')} | ${cells(polars).join(' | ')} |`);
    }
  }
  if (!rows.length) return [];
  return ['', '## strata against the peers at the same thread count', '',
    'Peer time / strata time in the same round (> 1: strata is faster), with each engine\'s peak RSS. ' +
    'An empty cell: that peer did not run the workload at that thread count.', '',
    '| workload | threads | strata | strata RSS | DuckDB / strata | DuckDB RSS | Polars / strata | Polars RSS |',
    '|---|---:|---:|---:|---:|---:|---:|---:|', ...rows];
}

function limitTable(results) {
  const rows = [];
  for (const w of results.workloads) {
    const limit = w.engines.find((e) => e.engine === 'limit' && e.medianSeconds !== null);
    if (!limit) continue;
    for (const e of w.engines.filter((x) => x.limitRatio !== null && x.limitRatio !== undefined)) {
      rows.push(`| ${w.name} | ${escapeCell(e.label)} | ${e.threads} | ${fmtSeconds(limit.medianSeconds)} | ` +
        `${fmtSeconds(e.medianSeconds)} | ${fmtRatio(e.limitRatio)} |`);
    }
  }
  if (!rows.length) return [];
  return ['', '## strata against the read + decompress limit', '',
    'The limit (`strata pages`, one thread) reads and decompresses every selected page and decodes nothing; ' +
    'strata / limit is the median over rounds of the ratio within a round.', '',
    '| workload | strata row | threads | limit | strata | strata / limit |', '|---|---|---:|---:|---:|---:|', ...rows];
}

function startupAndAgreement(results) {
  const lines = ['', '## Node start-up (node + loading the engine module, then exit)', '',
    '| module | median time | median peak RSS |', '|---|---:|---:|'];
  for (const s of results.startup) lines.push(`| ${s.module} | ${fmtSeconds(s.medianSeconds)} | ${fmtMiB(s.medianRssKiB)} |`);
  const problems = results.workloads.flatMap((w) => w.disagreements.map((d) => `- ${w.name}: ${d}`));
  lines.push('', '## Do the engines agree?', '');
  lines.push(problems.length ? 'No. These summaries differed (see results.json):'
    : 'Every engine that ran printed the same summary for every workload (the limit row: the same row count; ' +
      'workloads that write: strata\'s scan summary of every output equals the input\'s).');
  lines.push(...problems);
  const errors = results.workloads.flatMap((w) => w.engines.filter((e) => e.error).map((e) => `- ${w.name} / ${e.id}: ${e.error}`));
  if (errors.length) lines.push('', 'Cells that did not run:', '', ...errors);
  return lines;
}

// The page as a string: the header, then the generated sections.
export function renderDocsPage(results, header = readFileSync(HEADER_FILE, 'utf8')) {
  const lines = [header.trimEnd(), '',
    '<!-- Generated by scripts/bench-docs from bench/results/results.json: edit bench/compare/docs_header.md or docs_page.mjs, not this page. -->',
    '', ...runSection(results), ...workloadTables(results), ...peerTable(results), ...limitTable(results),
    ...startupAndAgreement(results)];
  return `${lines.join('\n')}\n`;
}

function main(argv) {
  const options = { results: 'bench/results/results.json', out: 'docs/performance.md' };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--results') options.results = argv[++i];
    else if (argv[i] === '--out') options.out = argv[++i];
    else {
      console.error(`docs_page: unknown option ${argv[i]} (--results FILE, --out FILE)`);
      process.exit(2);
    }
  }
  const results = JSON.parse(readFileSync(options.results, 'utf8'));
  writeFileSync(options.out, renderDocsPage(results));
  console.log(`docs_page: ${options.out} from ${options.results} (${results.date}, ${results.workloads.length} workloads)`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main(process.argv.slice(2));
