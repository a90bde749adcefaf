// Runs one command under /usr/bin/time and returns its wall time (measured here, in seconds,
// with sub-millisecond resolution) and peak RSS (/usr/bin/time's %M, in KiB), plus its output.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const scratch = mkdtempSync(path.join(os.tmpdir(), 'bench-compare-'));
process.on('exit', () => rmSync(scratch, { recursive: true, force: true }));

export function measure(argv, { env, timeoutSeconds = 900 } = {}) {
  const timeFile = path.join(scratch, 'time.txt');
  rmSync(timeFile, { force: true });
  const started = process.hrtime.bigint();
  const result = spawnSync('/usr/bin/time', ['-f', '%e %M', '-o', timeFile, ...argv], {
    encoding: 'utf8', env: { ...process.env, ...env }, timeout: timeoutSeconds * 1000,
    maxBuffer: 256 * 1024 * 1024,
  });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  let rssKiB = null;
  try {
    const fields = readFileSync(timeFile, 'utf8').trim().split('\n').pop().split(' ');
    rssKiB = Number(fields[1]);
  } catch {
    // no time file: the command could not start
  }
  const ok = !result.error && result.status === 0;
  return {
    ok, seconds, rssKiB, stdout: result.stdout ?? '', stderr: result.stderr ?? '',
    error: ok ? null : (result.error?.message ?? `exit ${result.status ?? result.signal}: ${
      (result.stderr ?? '').trim().split('\n').filter((l) => !/^(note|stack|thread) /.test(l)).slice(-2).join(' | ')}`),
  };
}

export function median(values) {
  const sorted = values.filter((v) => v !== null && Number.isFinite(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return null;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

// The summary (or metadata) JSON object in a command's stdout: the last line that parses as a
// JSON object with a `rows` field (strata's --stats may print more lines).
export function summaryOf(stdout) {
  const lines = stdout.split('\n').map((l) => l.trim()).filter((l) => l.startsWith('{'));
  for (let i = lines.length - 1; i >= 0; i--) {
    try {
      const parsed = JSON.parse(lines[i]);
      if (parsed && (parsed.rows !== undefined || parsed.num_rows !== undefined)) return parsed;
    } catch {
      // not JSON
    }
  }
  return null;
}
