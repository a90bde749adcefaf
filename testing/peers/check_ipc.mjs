#!/usr/bin/env node
// Usage: node testing/peers/check_ipc.mjs --strata BIN --tmp DIR --list FILE [--parts convert,peers]
//            [--engines arrow-js,polars,duckdb]
// strata's Arrow IPC writer and readers against apache-arrow (Arrow JS), Polars and DuckDB
// (scripts/check-ipc-against-peers drives it):
//   convert  each Parquet file of --list through `strata convert f X.arrow|X.arrows
//            --ipc-compression none|lz4|zstd`: strata's scan of X, Arrow JS's (tableFromIPC of the
//            bytes, with the LZ4-frame and ZSTD codecs of ipc_codecs.mjs) and Polars' (scanIPC for
//            files, readIPCStream for streams) summaries must equal strata's summary of f.
//   peers    tables built in JavaScript (ints of every width, floats with NaN / -0 / ±inf,
//            strings, booleans, dates, timestamps with and without time zones, times, decimals,
//            binary, lists, structs, dictionaries, nulls, several batches) written by Arrow JS
//            (tableToIPC 'file' / 'stream', uncompressed / LZ4 / ZSTD) and by Polars (writeIPC
//            and writeIPCStream, uncompressed / lz4 / zstd): `strata scan` of each must equal
//            the writer's own summary of what it wrote, and `strata convert X Y.parquet` then
//            DuckDB's summary of Y.parquet too (and strata's).
// One line per check (PASS / FAIL / KNOWN, details indented), then `N passed, N failed`. KNOWN
// is a difference every line of which an ALLOWED entry (check_ipc_allowed.mjs) explains.
// Exit 1 on any failure.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as arrow from 'apache-arrow';
import { diffSummaries } from './compare_scan.mjs';
import { arrowTableSummary } from './arrow_summary.mjs';
import { lz4FrameDecode, registerArrowCodecs, zstdDecode } from './ipc_codecs.mjs';
import { ALLOWED, whyAllowed } from './check_ipc_allowed.mjs';
import { arrowTables } from './ipc_tables.mjs';
import {
  closeDuckdb, duckdb, parseArgsOrExit, polarsJobs, Report, runStrata, serveJobs, strataSummary,
} from './check_support.mjs';

registerArrowCodecs(arrow);
const SELF = fileURLToPath(import.meta.url);
export const COMPRESSIONS = ['none', 'lz4', 'zstd'];
export const FORMATS = [{ ext: 'arrow', kind: 'file' }, { ext: 'arrows', kind: 'stream' }];

const USAGE = 'usage: check_ipc.mjs --strata BIN --tmp DIR --list FILE [--parts convert,peers] ' +
  '[--engines arrow-js,polars,duckdb]';

function parseArgs(argv) {
  return parseArgsOrExit(argv, 'check_ipc', USAGE, {
    defaults: { strata: null, tmp: null, list: null, parts: ['convert', 'peers'], engines: ['arrow-js', 'polars', 'duckdb'] },
    values: { '--strata': 'strata', '--tmp': 'tmp', '--list': 'list' },
    lists: { '--parts': 'parts', '--engines': 'engines' },
    check: (o) => (o.parts.includes('convert') && !o.list ? 'the convert part needs --list' : null),
  });
}

// ---------------------------------------------------------------------------------------------
// Reporting

const reporter = new Report({ engineWidth: 9 });
const report = (...args) => reporter.add(...args);

// PASS without diffs; KNOWN when ALLOWED explains every diff; FAIL otherwise.
function verdict(engine, part, file, label, diffs) {
  reporter.judge(engine, label, diffs, (d) => whyAllowed({ engine, part, file, diffs: d }));
}

// ---------------------------------------------------------------------------------------------
// Arrow JS

function arrowSummaryOf(file) {
  try {
    return { summary: JSON.parse(arrowTableSummary(arrow.tableFromIPC(readFileSync(file)))) };
  } catch (error) {
    return { error: String(error?.message ?? error).split('\n')[0] };
  }
}

// The codec named in the first record batch message's BodyCompression: 'none', 'lz4', 'zstd'
// ('none' too when there is no record batch).
export function ipcBodyCompression(bytes) {
  const reader = new arrow.MessageReader(bytesOfStream(bytes));
  for (let r = reader.next(); !r.done; r = reader.next()) {
    const message = r.value;
    if (message.headerType === arrow.MessageHeader.RecordBatch) {
      const compression = message.header().compression;
      if (!compression) return 'none';
      return compression.type === arrow.CompressionType.LZ4_FRAME ? 'lz4'
        : compression.type === arrow.CompressionType.ZSTD ? 'zstd' : String(compression.type);
    }
    reader.readMessageBody(message.bodyLength); // skip the body to the next message
  }
  return 'none';
}

// The compressed body buffers of `bytes` (an IPC file or stream) whose 8-byte length prefix is
// not the length they decompress to, as "message M buffer B: prefix P, decompresses to N".
export function misstatedLengths(bytes) {
  const reader = new arrow.MessageReader(bytesOfStream(bytes));
  const problems = [];
  let index = 0;
  for (let r = reader.next(); !r.done; r = reader.next(), index++) {
    const message = r.value;
    const body = reader.readMessageBody(message.bodyLength);
    const type = message.headerType;
    if (type !== arrow.MessageHeader.RecordBatch && type !== arrow.MessageHeader.DictionaryBatch) continue;
    const header = type === arrow.MessageHeader.RecordBatch ? message.header() : message.header().data;
    const compression = header.compression;
    if (!compression) continue;
    const decode = compression.type === arrow.CompressionType.LZ4_FRAME ? lz4FrameDecode : zstdDecode;
    header.buffers.forEach((b, k) => {
      const length = Number(b.length);
      if (length < 8) return;
      const at = body.byteOffset + Number(b.offset);
      const prefix = Number(new DataView(body.buffer, at, 8).getBigInt64(0, true));
      if (prefix === -1) return;
      let decoded;
      try {
        decoded = decode(body.subarray(Number(b.offset) + 8, Number(b.offset) + length)).length;
      } catch (error) {
        decoded = `an error (${error.message})`;
      }
      if (decoded !== prefix) problems.push(`message ${index} buffer ${k}: prefix ${prefix}, decompresses to ${decoded}`);
    });
  }
  return problems;
}

// The stream inside a file-format file: after "ARROW1" and two bytes of padding.
function bytesOfStream(bytes) {
  const magic = Buffer.from(bytes.subarray(0, 6)).toString('latin1');
  return magic === 'ARROW1' ? bytes.subarray(8) : bytes;
}

// ---------------------------------------------------------------------------------------------
// Polars, in child processes (a Rust panic must not take the check down)

async function polarsWorker(jobFile) {
  const { polarsSummary } = await import('./polars_summary.mjs');
  const { loadPolars, writePolarsFrames } = await import('./ipc_tables.mjs');
  await loadPolars();
  serveJobs(jobFile, (job) => (job.kind === 'summary' ? { line: polarsSummary(job.file, { ipc: job.ipc }) }
    : { written: writePolarsFrames(job.dir, COMPRESSIONS) }));
}

// ---------------------------------------------------------------------------------------------
// Part: convert (Parquet -> IPC by strata, read by the peers)

async function convertPart(options) {
  const files = readFileSync(options.list, 'utf8').split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#'));
  const dir = path.join(options.tmp, 'convert');
  mkdirSync(dir, { recursive: true });
  const jobs = [];
  const pending = [];
  for (const [k, file] of files.entries()) {
    const name = path.basename(file);
    const reference = strataSummary(options.strata, file);
    if (reference.error) { report('FAIL', 'strata', `${name}: strata cannot read the Parquet file`, [reference.error]); continue; }
    for (const format of FORMATS) {
      for (const compression of COMPRESSIONS) {
        const variant = `${format.kind} ${compression}`;
        const out = path.join(dir, `${k}-${name.replace(/\.parquet$/, '')}.${compression}.${format.ext}`);
        const label = `${name} -> ${format.ext} (${compression})`;
        const r = runStrata(options.strata, ['convert', '--ipc-compression', compression, file, out]);
        if (r.error) { report('FAIL', 'strata', `${label}: strata convert failed`, [r.error]); continue; }
        const back = strataSummary(options.strata, out);
        verdict('strata', 'convert', name, `${label}: strata reads the original's summary`,
          back.error ? [`error: ${back.error}`] : diffSummaries(reference.summary, back.summary, 'parquet', 'ipc'));
        if (compression === 'none') {
          // The format by flag instead of extension: a copy named .bin, and the stream on stdin.
          const flag = format.kind === 'file' ? 'ipc' : 'arrows';
          const copy = `${out}.bin`;
          writeFileSync(copy, readFileSync(out));
          const byFlag = strataSummary(options.strata, ['--input-format', flag, copy]);
          verdict('strata', 'convert', name, `${label}: --input-format ${flag} of a .bin copy`,
            byFlag.error ? [`error: ${byFlag.error}`] : diffSummaries(reference.summary, byFlag.summary, 'parquet', 'ipc'));
          if (format.kind === 'stream') {
            const piped = strataSummary(options.strata, ['--input-format', flag, '-'], { input: readFileSync(out) });
            verdict('strata', 'convert', name, `${label}: --input-format arrows from standard input`,
              piped.error ? [`error: ${piped.error}`] : diffSummaries(reference.summary, piped.summary, 'parquet', 'ipc'));
          }
        }
        if (options.engines.includes('arrow-js')) {
          const bytes = readFileSync(out);
          let codec;
          try {
            codec = ipcBodyCompression(bytes);
          } catch (error) {
            codec = `unreadable (${error.message.split('\n')[0]})`;
          }
          // A file of only empty batches or none may carry no record batch to show it.
          const wanted = compression;
          const ok = codec === wanted || (codec === 'none' && reference.summary.rows === 0);
          report(ok ? 'PASS' : 'FAIL', 'strata', `${label}: record batches say ${wanted}`, ok ? [] : [`BodyCompression: ${codec}`]);
          const a = arrowSummaryOf(out);
          verdict('arrow-js', 'convert', name, label,
            a.error ? [`error: ${a.error}`] : diffSummaries(reference.summary, a.summary, 'strata', 'arrow-js'));
        }
        if (options.engines.includes('polars')) {
          const id = `c${jobs.length}`;
          jobs.push({ id, kind: 'summary', file: out, ipc: format.kind });
          pending.push({ id, name, label, reference: reference.summary, variant });
        }
      }
    }
  }
  const results = await polarsJobs(SELF, jobs, options.tmp);
  for (const p of pending) {
    const r = results.get(p.id);
    verdict('polars', 'convert', p.name, p.label,
      r.error ? [`error: ${r.error}`] : diffSummaries(p.reference, JSON.parse(r.line), 'strata', 'polars'));
  }
}

// ---------------------------------------------------------------------------------------------
// Part: peers (IPC written by Arrow JS and Polars, read by strata)

// strata scan of `file` against `expected`, then strata convert to Parquet: DuckDB and strata
// read the Parquet file to the same summary.
async function checkWritten(options, { writer, name, file, expected }) {
  const label = `${writer} ${path.basename(file)}`;
  const misstated = misstatedLengths(readFileSync(file));
  if (misstated.length) {
    // A body buffer whose length prefix is not its decompressed length: the file is not valid
    // IPC (apache-arrow 21.2.0 writes the compressed length there), and strata must refuse it.
    const r = runStrata(options.strata, ['scan', '--json', file]);
    const ok = !!r.error && /decompress|length|stated|size/i.test(r.error);
    report(ok ? 'PASS' : 'FAIL', 'strata', `${label}: strata refuses it (${misstated.length} buffers' length prefixes ` +
      `are not their decompressed lengths, e.g. ${misstated[0]})`, ok ? [] : [r.error ? `message: ${r.error}` : 'strata read it']);
    return;
  }
  const got = strataSummary(options.strata, file);
  verdict('strata', 'peers', name, `${label}: strata scan = ${writer}'s summary`,
    got.error ? [`error: ${got.error}`] : diffSummaries(expected, got.summary, writer, 'strata'));
  const parquet = `${file}.parquet`;
  const r = runStrata(options.strata, ['convert', file, parquet]);
  if (r.error) { report('FAIL', 'strata', `${label} -> parquet: strata convert failed`, [r.error]); return; }
  const again = strataSummary(options.strata, parquet);
  verdict('strata', 'parquet', name, `${label} -> parquet: strata reads it to ${writer}'s summary`,
    again.error ? [`error: ${again.error}`] : diffSummaries(expected, again.summary, writer, 'strata'));
  if (!options.engines.includes('duckdb')) return;
  let line;
  try {
    line = await (await duckdb()).summarize(parquet);
  } catch (error) {
    verdict('duckdb', 'parquet', name, `${label} -> strata convert -> parquet: DuckDB`, [`error: ${error.message.split('\n')[0]}`]);
    return;
  }
  verdict('duckdb', 'parquet', name, `${label} -> strata convert -> parquet: DuckDB = ${writer}'s summary`,
    diffSummaries(expected, JSON.parse(line), writer, 'duckdb'));
}

async function peersPart(options) {
  const dir = path.join(options.tmp, 'peers');
  mkdirSync(dir, { recursive: true });
  if (options.engines.includes('arrow-js')) {
    for (const { name, table, formats = ['file', 'stream'] } of arrowTables(arrow)) {
      const expected = JSON.parse(arrowTableSummary(table));
      for (const format of FORMATS.filter((f) => formats.includes(f.kind))) {
        for (const compression of COMPRESSIONS) {
          const type = compression === 'lz4' ? arrow.CompressionType.LZ4_FRAME
            : compression === 'zstd' ? arrow.CompressionType.ZSTD : null;
          const file = path.join(dir, `arrowjs-${name}.${compression}.${format.ext}`);
          try {
            writeFileSync(file, arrow.tableToIPC(table, format.kind, type));
          } catch (error) {
            report('FAIL', 'arrow-js', `${name} ${format.kind} ${compression}: Arrow JS cannot write it`, [error.message]);
            continue;
          }
          await checkWritten(options, { writer: 'arrow-js', name, file, expected });
        }
      }
    }
  }
  if (options.engines.includes('polars')) {
    const results = await polarsJobs(SELF, [{ id: 'w0', kind: 'write', dir }], options.tmp);
    const r = results.get('w0');
    if (r.error) {
      report('FAIL', 'polars', 'Polars cannot write its IPC files', [r.error]);
    } else {
      for (const w of r.written) {
        if (w.error) { report('FAIL', 'polars', `${w.name}: Polars cannot write it`, [w.error]); continue; }
        await checkWritten(options, { writer: 'polars', name: w.name, file: w.file, expected: JSON.parse(w.line) });
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------

async function main() {
  const argv = process.argv.slice(2);
  if (argv[0] === '--polars-worker') { await polarsWorker(argv[1]); return; }
  const options = parseArgs(argv);
  const start = Date.now();
  mkdirSync(options.tmp, { recursive: true });
  console.log(`check_ipc: parts ${options.parts.join(', ')}; engines ${options.engines.join(', ')}; ` +
    `${ALLOWED.length} allowed differences`);
  if (options.parts.includes('convert')) await convertPart(options);
  if (options.parts.includes('peers')) await peersPart(options);
  closeDuckdb();
  process.exitCode = reporter.finish(start, 'allowed differences');
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
