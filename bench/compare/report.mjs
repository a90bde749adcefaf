// Writes bench-compare's outputs: results.json (everything), results.md (the table) and the
// time / memory charts through gnuplot.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';

const fmtSeconds = (s) => (s === null ? 'n/a' : s < 1 ? `${(s * 1000).toFixed(0)} ms` : `${s.toFixed(2)} s`);
const fmtMiB = (kib) => (kib === null ? 'n/a' : `${(kib / 1024).toFixed(0)} MiB`);
const fmtRatio = (r) => (r === null ? 'n/a' : `${r.toFixed(2)}x`);

export function writeMarkdown(file, results) {
  const m = results.machine;
  const lines = [
    '# strata vs peers: whole-process comparison',
    '',
    `${results.date} on ${m.cpu} (${m.nproc} cores), ${m.memoryGiB} GiB RAM, ${m.os}; ` +
      `node ${m.node}, @duckdb/node-api ${m.duckdb}, nodejs-polars ${m.polars}; strata: ${m.strata}.`,
    `${results.runs} timed runs per cell after one warm-up, engines interleaved run by run; ` +
      `${results.quick ? '--quick data (~20x smaller)' : 'default data sizes'}. ` +
      'Ratio = median over runs of (engine / strata) in the same round; > 1 means strata is faster / smaller.',
    '',
    '| workload | engine | threads | median time | median peak RSS | time vs strata | memory vs strata |',
    '|---|---|---:|---:|---:|---:|---:|',
  ];
  for (const w of results.workloads) {
    for (const e of w.engines) {
      lines.push(`| ${w.name} | ${e.engine} | ${e.threads} | ${fmtSeconds(e.medianSeconds)} | ` +
        `${fmtMiB(e.medianRssKiB)} | ${fmtRatio(e.timeRatio)} | ${fmtRatio(e.memoryRatio)} |`);
    }
  }
  lines.push('', '## Node start-up (node + loading the engine module, then exit)', '',
    '| module | median time | median peak RSS |', '|---|---:|---:|');
  for (const s of results.startup) {
    lines.push(`| ${s.module} | ${fmtSeconds(s.medianSeconds)} | ${fmtMiB(s.medianRssKiB)} |`);
  }
  const problems = results.workloads.flatMap((w) => w.disagreements.map((d) => `- ${w.name}: ${d}`));
  lines.push('', '## Do the engines agree?', '');
  lines.push(problems.length ? '**DISAGREEMENTS** (summaries differ, see results.json):' : 'Every engine that ran printed the same summary for every workload.');
  lines.push(...problems);
  const errors = results.workloads.flatMap((w) => w.engines.filter((e) => e.error)
    .map((e) => `- ${w.name} / ${e.id}: ${e.error}`));
  if (errors.length) lines.push('', '## Engines that did not run', '', ...errors);
  writeFileSync(file, `${lines.join('\n')}\n`);
}

// Clustered bars, one cluster per workload, one bar per engine.
export function writeCharts(dir, results) {
  const engineIds = results.workloads[0]?.engines.map((e) => e.id) ?? [];
  const rows = results.workloads.filter((w) => w.engines.some((e) => e.medianSeconds !== null));
  const dat = (pick) => rows.map((w) => [w.name,
    ...engineIds.map((id) => { const v = pick(w.engines.find((e) => e.id === id)); return v === null ? '?' : v; })]
    .map((c, i) => (i === 0 ? `"${c}"` : c)).join(' ')).join('\n');
  const charts = [
    { file: 'time.png', data: dat((e) => e.medianSeconds), ylabel: 'median wall time (s)' },
    { file: 'memory.png', data: dat((e) => (e.medianRssKiB === null ? null : e.medianRssKiB / 1024)), ylabel: 'median peak RSS (MiB)' },
  ];
  for (const chart of charts) {
    const datFile = path.join(dir, `${chart.file}.dat.tmp`);
    writeFileSync(datFile, `${chart.data}\n`);
    const plots = engineIds.map((id, i) => `'${datFile}' using ${i + 2}:xtic(1) title '${id}'`).join(', ');
    const script = [
      `set terminal pngcairo size 1400,700 noenhanced font ',10'`,
      `set output '${path.join(dir, chart.file)}'`,
      `set title 'strata vs peers (${results.quick ? 'quick' : 'default'} data, ${results.machine.nproc} cores, ${results.date})'`,
      'set style data histograms', 'set style histogram clustered gap 1', 'set style fill solid 0.8 border -1',
      'set boxwidth 0.9', 'set xtics rotate by -25', `set ylabel '${chart.ylabel}'`, 'set yrange [0:*]',
      'set key top left', 'set grid ytics', 'set datafile missing "?"',
      `plot ${plots}`,
    ].join('\n');
    const result = spawnSync('gnuplot', [], { input: script, encoding: 'utf8' });
    if (result.status !== 0) console.error(`gnuplot failed for ${chart.file}: ${result.stderr}`);
  }
}
