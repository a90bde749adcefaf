// Writes bench-compare's outputs: results.json (everything), results.md (the table) and the
// time / memory charts through gnuplot. docs_page.mjs renders docs/performance.md from the same
// results.json with the formatting helpers exported here.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { POLARS_CSV_INFER_ROWS } from './workloads.mjs';

export const fmtSeconds = (s) => (s === null ? 'n/a' : s < 1 ? `${(s * 1000).toFixed(0)} ms` : `${s.toFixed(2)} s`);
export const fmtMiB = (kib) => (kib === null ? 'n/a' : `${(kib / 1024).toFixed(0)} MiB`);
export const fmtRatio = (r) => (r === null || r === undefined ? 'n/a' : `${r.toFixed(2)}x`);
// The writer issue's memory target for `strata convert` of the lineitem file.
const WRITER_RSS_TARGET_MIB = 90;

// The median start-up (node + module load) of each peer, to show peers' times without it.
export function startupSeconds(results, peer) {
  const module = peer === 'duckdb' ? '@duckdb/node-api' : 'nodejs-polars';
  return results.startup.find((s) => s.module === module)?.medianSeconds ?? null;
}

export function writeMarkdown(file, results) {
  const m = results.machine;
  const load = (l) => (l ? l.join(' / ') : 'n/a');
  const lines = [
    '# strata vs peers: whole-process comparison',
    '',
    `${results.date} on ${m.cpu} (${m.nproc} cores), ${m.memoryGiB} GiB RAM, ${m.os}; ` +
      `node ${m.node}, @duckdb/node-api ${m.duckdb}, nodejs-polars ${m.polars}; strata: ${m.strata}. ` +
      `Load average (1/5/15 min) ${load(m.loadAverage)} before, ${load(results.loadAverageAfter)} after; ` +
      `${(results.elapsedSeconds / 60).toFixed(1)} minutes in all.`,
    `Times are whole-process wall times (node start-up and module load included for the peers; ` +
      `measured on its own below and subtracted in "minus start-up"), medians of ${results.runs} timed runs ` +
      'per cell after one warm-up, engines interleaved run by run; ' +
      `${results.quick ? '--quick data (~20x smaller), peers at 1 thread only' : 'default data sizes'}. ` +
      'Ratio = median over rounds of (engine / strata) in the same round; > 1 means strata is faster / smaller. ' +
      'Memory is peak RSS of the whole process.',
    '',
    '| workload | engine | threads | median time | minus start-up | median peak RSS | time vs strata | memory vs strata |',
    '|---|---|---:|---:|---:|---:|---:|---:|',
  ];
  for (const w of results.workloads) {
    for (const e of w.engines) {
      const startup = e.peer ? startupSeconds(results, e.peer) : null;
      const net = startup !== null && e.medianSeconds !== null ? fmtSeconds(Math.max(0, e.medianSeconds - startup)) : '';
      lines.push(`| ${w.name} | ${e.label ?? e.engine} | ${e.threads} | ${fmtSeconds(e.medianSeconds)} | ${net} | ` +
        `${fmtMiB(e.medianRssKiB)} | ${fmtRatio(e.timeRatio)} | ${fmtRatio(e.memoryRatio)} |`);
    }
  }
  lines.push('', '"limit (strata pages)" reads, checksums and decompresses every selected page and decodes ' +
    'nothing (`strata pages`): the floor for a full scan. "strata, pre-buffer on" is `strata scan ' +
    '--pre-buffer on`; the strata row runs with the default (auto), which is off for local files.');
  if (results.workloads.some((w) => w.kind === 'write')) {
    lines.push('', 'Write workloads rewrite the input as a snappy Parquet file: strata is `strata convert IN OUT ' +
      '--threads N` (its defaults: dictionary, snappy, statistics, page index), Polars `scanParquet(IN).sinkParquet(OUT)` (streaming), ' +
      'DuckDB `COPY (SELECT * FROM IN) TO OUT (FORMAT parquet, COMPRESSION snappy)`; every output was checked ' +
      'before timing (rows reported, and strata\'s scan summary of the output equal to the input\'s). ' +
      '"time vs strata" is against strata at 1 thread; the writer table compares at the same thread count.');
  }

  if (results.workloads.some((w) => w.kind === 'csv_read' || w.kind === 'csv_to_parquet')) {
    lines.push('', 'CSV workloads read a CSV file with each engine\'s own type inference: csv_read prints the scan summary ' +
      '(strata `scan --json --stats --threads N`, DuckDB `read_csv` with its sniffer\'s 20,480-row sample, Polars `scanCSV` ' +
      `with types from ${POLARS_CSV_INFER_ROWS} rows and dates parsed; strata infers from its first MiB), csv_to_parquet writes it as snappy ` +
      'Parquet (strata `convert --threads N IN OUT`, DuckDB `COPY (SELECT * FROM read_csv(IN)) TO OUT`, Polars ' +
      '`scanCSV(IN).sinkParquet(OUT)`), every output checked before timing against strata\'s summary of the CSV.');
  }

  const limited = results.workloads.filter((w) => w.engines.some((e) => e.limitRatio !== null));
  if (limited.length) {
    lines.push('', '## strata against the read + decompress limit (issue 7: full scan within 1.5x; issue 13: the ' +
      '1-thread lineitem scan within 2x; the limit runs on 1 thread)', '',
      '| workload | strata row | threads | limit | strata | strata / limit | within 1.5x | within 2x |',
      '|---|---|---:|---:|---:|---:|:---:|:---:|');
    for (const w of limited) {
      const limit = w.engines.find((e) => e.engine === 'limit');
      for (const e of w.engines.filter((x) => x.limitRatio !== null)) {
        lines.push(`| ${w.name} | ${e.label} | ${e.threads} | ${fmtSeconds(limit.medianSeconds)} | ` +
          `${fmtSeconds(e.medianSeconds)} | ${fmtRatio(e.limitRatio)} | ${e.limitRatio <= 1.5 ? 'yes' : 'no'} | ` +
          `${e.limitRatio <= 2 ? 'yes' : 'no'} |`);
      }
    }
  }

  const prebuffered = results.workloads.filter((w) => w.engines.some((e) => e.id === 'strata-prebuf' && e.medianSeconds !== null));
  if (prebuffered.length) {
    lines.push('', '## strata pre-buffering on vs off (full lineitem scans)', '',
      '| workload | off (auto) | on | on / off time | off RSS | on RSS |', '|---|---:|---:|---:|---:|---:|');
    for (const w of prebuffered) {
      const off = w.engines.find((e) => e.id === 'strata-1t');
      const on = w.engines.find((e) => e.id === 'strata-prebuf');
      lines.push(`| ${w.name} | ${fmtSeconds(off.medianSeconds)} | ${fmtSeconds(on.medianSeconds)} | ` +
        `${fmtRatio(on.timeRatio)} | ${fmtMiB(off.medianRssKiB)} | ${fmtMiB(on.medianRssKiB)} |`);
    }
  }

  const scanned = results.workloads.filter((w) => (w.kind === 'scan' || w.kind === 'project') &&
    w.engines.some((e) => e.medianSeconds !== null));
  if (scanned.length) {
    lines.push('', '## Scans: strata against the peers at the same thread count (issue 13: faster than both, ' +
      'peak RSS under half of the leaner peer\'s)', '',
      '| workload | threads | strata | strata RSS | duckdb / strata | duckdb RSS | polars / strata | polars RSS | faster than both | RSS under half |',
      '|---|---:|---:|---:|---:|---:|---:|---:|:---:|:---:|');
    for (const w of scanned) {
      for (const s of w.engines.filter((e) => e.id === `strata-${e.threads}t` && e.medianSeconds !== null)) {
        const peer = (name) => w.engines.find((e) => e.peer === name && e.threads === s.threads && e.medianSeconds !== null);
        const duckdb = peer('duckdb');
        const polars = peer('polars');
        const both = [duckdb, polars].filter(Boolean);
        const faster = both.length === 2 ? (both.every((e) => e.sameThreadsTimeRatio > 1) ? 'yes' : 'no') : 'n/a';
        const leaner = both.length ? Math.min(...both.map((e) => e.medianRssKiB ?? Infinity)) : null;
        const half = leaner === null || s.medianRssKiB === null ? 'n/a' : s.medianRssKiB < leaner / 2 ? 'yes' : 'no';
        const cells = (e) => (e ? [fmtRatio(e.sameThreadsTimeRatio), fmtMiB(e.medianRssKiB)] : ['n/a', 'n/a']);
        lines.push(`| ${w.name} | ${s.threads} | ${fmtSeconds(s.medianSeconds)} | ${fmtMiB(s.medianRssKiB)} | ` +
          `${cells(duckdb).join(' | ')} | ${cells(polars).join(' | ')} | ${faster} | ${half} |`);
      }
    }
  }

  const written = results.workloads.filter((w) => w.kind === 'write' && w.engines.some((e) => e.medianSeconds !== null));
  if (written.length) {
    lines.push('', `## Writer: strata convert against the peers at the same thread count (target: faster than Polars at ` +
      `2 threads, peak RSS under ${WRITER_RSS_TARGET_MIB} MiB)`, '',
      '| workload | threads | strata | strata RSS | polars | polars / strata | polars RSS | duckdb | duckdb / strata | duckdb RSS | faster than polars | RSS under target |',
      '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|:---:|:---:|');
    for (const w of written) {
      for (const s of w.engines.filter((e) => e.engine === 'strata' && e.medianSeconds !== null)) {
        const peer = (name) => w.engines.find((e) => e.peer === name && e.threads === s.threads && e.medianSeconds !== null);
        const polars = peer('polars');
        const duckdb = peer('duckdb');
        const cells = (e) => (e ? [fmtSeconds(e.medianSeconds), fmtRatio(e.sameThreadsTimeRatio), fmtMiB(e.medianRssKiB)]
          : ['n/a', 'n/a', 'n/a']);
        const faster = polars && polars.sameThreadsTimeRatio !== null ? (polars.sameThreadsTimeRatio > 1 ? 'yes' : 'no') : 'n/a';
        const small = s.medianRssKiB === null ? 'n/a' : s.medianRssKiB < WRITER_RSS_TARGET_MIB * 1024 ? 'yes' : 'no';
        lines.push(`| ${w.name} | ${s.threads} | ${fmtSeconds(s.medianSeconds)} | ${fmtMiB(s.medianRssKiB)} | ` +
          `${cells(polars).join(' | ')} | ${cells(duckdb).join(' | ')} | ${faster} | ${small} |`);
      }
    }
  }

  const csvRows = results.workloads.filter((w) => (w.kind === 'csv_read' || w.kind === 'csv_to_parquet') &&
    w.engines.some((e) => e.medianSeconds !== null));
  if (csvRows.length) {
    lines.push('', '## CSV: strata against the peers at the same thread count (peer / strata > 1: strata is faster)', '',
      '| workload | threads | strata | strata RSS | polars | polars / strata | polars RSS | duckdb | duckdb / strata | duckdb RSS |',
      '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
    for (const w of csvRows) {
      for (const s of w.engines.filter((e) => e.engine === 'strata' && e.medianSeconds !== null)) {
        const peer = (name) => w.engines.find((e) => e.peer === name && e.threads === s.threads && e.medianSeconds !== null);
        const cells = (e) => (e ? [fmtSeconds(e.medianSeconds), fmtRatio(e.sameThreadsTimeRatio), fmtMiB(e.medianRssKiB)]
          : ['n/a', 'n/a', 'n/a']);
        lines.push(`| ${w.name} | ${s.threads} | ${fmtSeconds(s.medianSeconds)} | ${fmtMiB(s.medianRssKiB)} | ` +
          `${cells(peer('polars')).join(' | ')} | ${cells(peer('duckdb')).join(' | ')} |`);
      }
    }
  }

  const ipcRows = results.workloads.filter((w) => (w.kind === 'ipc_write' || w.kind === 'ipc_read') &&
    w.engines.some((e) => e.medianSeconds !== null));
  if (ipcRows.length) {
    lines.push('', '## Arrow IPC: strata against Polars at the same thread count (polars / strata > 1: strata is faster)', '',
      'ipc_write rewrites lineitem_snappy.parquet as an IPC file (strata `convert --threads N --ipc-compression C`, ' +
      'Polars `readParquet(IN).writeIPC(OUT, {compression})`, which holds the whole table: nodejs-polars has no sinkIPC); ' +
      'ipc_read prints the scan summary of an IPC file strata wrote from it (strata `scan --json --threads N`, Polars ' +
      '`scanIPC`). DuckDB reads and writes Arrow IPC only through its community arrow extension: no row.', '',
      '| workload | threads | strata | strata RSS | polars | polars / strata | polars RSS |',
      '|---|---:|---:|---:|---:|---:|---:|');
    for (const w of ipcRows) {
      for (const s of w.engines.filter((e) => e.engine === 'strata' && e.medianSeconds !== null)) {
        const polars = w.engines.find((e) => e.peer === 'polars' && e.threads === s.threads && e.medianSeconds !== null);
        const cells = polars ? [fmtSeconds(polars.medianSeconds), fmtRatio(polars.sameThreadsTimeRatio), fmtMiB(polars.medianRssKiB)]
          : ['n/a', 'n/a', 'n/a'];
        lines.push(`| ${w.name} | ${s.threads} | ${fmtSeconds(s.medianSeconds)} | ${fmtMiB(s.medianRssKiB)} | ${cells.join(' | ')} |`);
      }
    }
  }

  lines.push('', '## Node start-up (node + loading the engine module, then exit)', '',
    '| module | median time | median peak RSS |', '|---|---:|---:|');
  for (const s of results.startup) {
    lines.push(`| ${s.module} | ${fmtSeconds(s.medianSeconds)} | ${fmtMiB(s.medianRssKiB)} |`);
  }
  const problems = results.workloads.flatMap((w) => w.disagreements.map((d) => `- ${w.name}: ${d}`));
  lines.push('', '## Do the engines agree?', '');
  lines.push(problems.length ? '**DISAGREEMENTS** (summaries differ, see results.json):'
    : 'Every engine that ran printed the same summary for every workload (the limit row: the same row count; ' +
      'write and csv_to_parquet workloads: strata\'s scan summary of every output equals the input\'s).');
  lines.push(...problems);
  const errors = results.workloads.flatMap((w) => w.engines.filter((e) => e.error)
    .map((e) => `- ${w.name} / ${e.id}: ${e.error}`));
  if (errors.length) lines.push('', '## Engines that did not run', '', ...errors);
  writeFileSync(file, `${lines.join('\n')}\n`);
}

// Clustered bars, one cluster per workload, one bar per engine.
export function writeCharts(dir, results) {
  // Every engine that appears in some workload, in first-seen order; '?' where it does not run.
  const engineIds = [...new Set(results.workloads.flatMap((w) => w.engines.map((e) => e.id)))];
  const titles = new Map(results.workloads.flatMap((w) => w.engines)
    .map((e) => [e.id, e.peer ? `${e.label} ${e.threads}t` : (e.label ?? e.id)]));
  const pickOf = (w, id, pick) => { const e = w.engines.find((x) => x.id === id); return e ? pick(e) : null; };
  const rows = results.workloads.filter((w) => w.engines.some((e) => e.medianSeconds !== null));
  const dat = (pick) => rows.map((w) => [w.name,
    ...engineIds.map((id) => { const v = pickOf(w, id, pick); return v === null ? '?' : v; })]
    .map((c, i) => (i === 0 ? `"${c}"` : c)).join(' ')).join('\n');
  const charts = [
    { file: 'time.png', data: dat((e) => e.medianSeconds), ylabel: 'median wall time (s)' },
    { file: 'memory.png', data: dat((e) => (e.medianRssKiB === null ? null : e.medianRssKiB / 1024)), ylabel: 'median peak RSS (MiB)' },
  ];
  for (const chart of charts) {
    const datFile = path.join(dir, `${chart.file}.dat.tmp`);
    writeFileSync(datFile, `${chart.data}\n`);
    const plots = engineIds.map((id, i) => `'${datFile}' using ${i + 2}:xtic(1) title '${titles.get(id)}'`).join(', ');
    const script = [
      `set terminal pngcairo size 1400,700 noenhanced font ',10'`,
      `set output '${path.join(dir, chart.file)}'`,
      `set title 'strata vs peers (${results.quick ? 'quick' : 'default'} data, ${results.machine.nproc} cores, ${results.date})'`,
      'set style data histograms', 'set style histogram clustered gap 1', 'set style fill solid 0.8 border -1',
      'set boxwidth 0.9', 'set xtics rotate by 20 right nomirror', `set ylabel '${chart.ylabel}'`, 'set yrange [0:*]',
      'set key outside right top', 'set bmargin 7', 'set grid ytics', 'set datafile missing "?"',
      `plot ${plots}`,
    ].join('\n');
    const result = spawnSync('gnuplot', [], { input: script, encoding: 'utf8' });
    if (result.status !== 0) console.error(`gnuplot failed for ${chart.file}: ${result.stderr}`);
  }
}
