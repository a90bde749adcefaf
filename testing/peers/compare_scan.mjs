#!/usr/bin/env node
// Usage: node testing/peers/compare_scan.mjs --strata BIN [--peer duckdb|polars]
//            [--list FILE] [--skip-peer-errors] [--timeout SECONDS] [PARQUET...]
// For each file runs `BIN scan --json FILE` and the peer's scan summary (scan_summary.mjs in a
// child process, so a crashing engine cannot take the comparison down) and reports one of:
//   match | mismatch (with a per-column diff) | strata error | peer error
// Exit code: 0 when every file matches (peer errors count as failures unless
// --skip-peer-errors), 1 otherwise, 2 on bad usage. `--versus ENGINE` compares two peers
// instead of strata (e.g. --versus polars --peer duckdb).
// In a --list file, one path per line (relative to the list), `#` starts a comment, and a path
// written `!path` is a file strata must refuse: an error there is `expected error` (a pass), and
// a summary line is `mismatch`. The peer is not run for those. A path written `~path` is a file
// the peer is known to read wrongly (see README.md): a mismatch there is reported as
// `known peer gap` and does not fail the run.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { exitWithUsage } from './check_support.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const SCAN_SUMMARY = path.join(HERE, 'scan_summary.mjs');

function usage(message) {
  exitWithUsage('compare_scan', 'usage: compare_scan.mjs (--strata BIN | --versus ENGINE) [--peer ENGINE] ' +
    '[--list FILE] [--skip-peer-errors] [--timeout SECONDS] [PARQUET...]', message);
}

function parseArgs(argv) {
  const options = { strata: null, versus: null, peer: 'duckdb', files: [], skipPeerErrors: false,
    timeoutSeconds: 300, mustRefuse: new Set(), peerGaps: new Set() };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => (i + 1 < argv.length ? argv[++i] : usage(`${arg} needs a value`));
    if (arg === '--strata') options.strata = value();
    else if (arg === '--versus') options.versus = value();
    else if (arg === '--peer') options.peer = value();
    else if (arg === '--skip-peer-errors') options.skipPeerErrors = true;
    else if (arg === '--timeout') options.timeoutSeconds = Number(value());
    else if (arg === '--list') {
      const listFile = value();
      const base = path.dirname(listFile);
      for (const line of readFileSync(listFile, 'utf8').split('\n')) {
        const entry = line.replace(/#.*/, '').trim();
        if (entry.startsWith('~')) {
          const file = path.resolve(base, entry.slice(1).trim());
          options.files.push(file);
          options.peerGaps.add(file);
        } else if (entry.startsWith('!')) {
          const file = path.resolve(base, entry.slice(1).trim());
          options.files.push(file);
          options.mustRefuse.add(file);
        } else if (entry) options.files.push(path.resolve(base, entry));
      }
    } else if (arg.startsWith('--')) usage(`unknown option ${arg}`);
    else options.files.push(arg);
  }
  if (!options.strata === !options.versus) usage('give exactly one of --strata and --versus');
  if (options.files.length === 0) usage('no files to compare');
  return options;
}

// Runs a command; returns { line } (the last non-empty stdout line) or { error }.
function run(command, args, timeoutSeconds) {
  const result = spawnSync(command, args, { encoding: 'utf8', timeout: timeoutSeconds * 1000,
    maxBuffer: 64 * 1024 * 1024 });
  if (result.error) return { error: result.error.message };
  if (result.status !== 0) {
    const stderr = result.stderr.trim().split('\n').filter((l) => l && !/^(note|stack|thread) /.test(l));
    return { error: `exit ${result.status ?? result.signal}: ${stderr.slice(-3).join(' | ')}` };
  }
  const lines = result.stdout.split('\n').filter((l) => l.trim() !== '');
  if (lines.length === 0) return { error: 'printed nothing' };
  try {
    return { line: lines[lines.length - 1], summary: JSON.parse(lines[lines.length - 1]) };
  } catch (error) {
    return { error: `not JSON: ${lines[lines.length - 1].slice(0, 200)}` };
  }
}

function show(value) {
  return value === null || value === undefined ? 'null' : JSON.stringify(value);
}

// Differences between two parsed summaries, one string per difference.
export function diffSummaries(left, right, leftName, rightName) {
  const diffs = [];
  if (left.rows !== right.rows) diffs.push(`rows: ${leftName} ${left.rows}, ${rightName} ${right.rows}`);
  const leftColumns = left.columns ?? [];
  const rightColumns = right.columns ?? [];
  if (leftColumns.length !== rightColumns.length) {
    diffs.push(`column count: ${leftName} ${leftColumns.length}, ${rightName} ${rightColumns.length}`);
  }
  const n = Math.max(leftColumns.length, rightColumns.length);
  for (let i = 0; i < n; i++) {
    const a = leftColumns[i] ?? {};
    const b = rightColumns[i] ?? {};
    const label = `column ${i} '${a.name ?? b.name}'`;
    for (const key of ['name', 'type', 'count', 'nulls', 'min', 'max']) {
      if (show(a[key]) !== show(b[key])) {
        diffs.push(`${label} ${key}: ${leftName} ${show(a[key])}, ${rightName} ${show(b[key])}`);
      }
    }
  }
  return diffs;
}

function main() {
  const options = parseArgs(process.argv.slice(2));
  const leftName = options.strata ? 'strata' : options.versus;
  const counts = { match: 0, mismatch: 0, 'strata error': 0, 'peer error': 0, 'expected error': 0,
    'known peer gap': 0 };
  for (const file of options.files) {
    const left = options.strata
      ? run(options.strata, ['scan', '--json', file], options.timeoutSeconds)
      : run(process.execPath, [SCAN_SUMMARY, options.versus, file], options.timeoutSeconds);
    let verdict;
    let details = [];
    if (options.mustRefuse.has(file)) {
      verdict = left.error ? 'expected error' : 'mismatch';
      details = [left.error ? `${leftName}: ${left.error}`
        : `${leftName} printed a summary for a file it must refuse: ${left.line.slice(0, 200)}`];
      counts[verdict] += 1;
      console.log(`${verdict.toUpperCase().padEnd(14)} ${file}`);
      for (const line of details) console.log(`    ${line}`);
      continue;
    }
    const right = run(process.execPath, [SCAN_SUMMARY, options.peer, file], options.timeoutSeconds);
    if (right.error) {
      verdict = 'peer error';
      details = [`${options.peer}: ${right.error}`];
      if (left.error) details.push(`${leftName}: ${left.error}`);
    } else if (left.error) {
      verdict = 'strata error';
      details = [`${leftName}: ${left.error}`];
    } else {
      details = diffSummaries(left.summary, right.summary, leftName, options.peer);
      verdict = details.length === 0 ? 'match'
        : options.peerGaps.has(file) ? 'known peer gap' : 'mismatch';
    }
    counts[verdict] += 1;
    console.log(`${verdict.toUpperCase().padEnd(14)} ${file}`);
    for (const line of details) console.log(`    ${line}`);
  }
  console.log(`\n${options.files.length} files: ${counts.match} match, ${counts.mismatch} mismatch, ` +
    `${counts['strata error']} ${leftName} error, ${counts['peer error']} peer error, ` +
    `${counts['expected error']} expected error, ${counts['known peer gap']} known peer gap`);
  const failed = counts.mismatch + counts['strata error'] +
    (options.skipPeerErrors ? 0 : counts['peer error']);
  process.exitCode = failed > 0 ? 1 : 0;
}

if (import.meta.url === `file://${process.argv[1]}`) main();
