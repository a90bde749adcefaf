#!/usr/bin/env node
// Usage: node testing/peers/check_csv.mjs --strata BIN --tmp DIR [--arrow-testing DIR]
//            [--parts scan,roundtrip,write,fuzz] [--engines duckdb,polars]
// strata's CSV reader and writer against DuckDB and Polars (scripts/check-csv-against-peers
// drives it; the files are csv_files.mjs's, the rules below and in testing/peers/README.md):
//   scan       each CSV: `strata scan --json` against each engine's summary of the file read
//              with its own CSV reader, twice: `inferred` (the engine's dialect sniffing, null
//              spellings and type inference) and `aligned` (the engine given strata's types
//              from `strata schema` and strata's null spellings: every value must agree). Also
//              strata at --threads 1 against the default.
//   roundtrip  each CSV through `strata convert x.csv x.parquet`: strata's scan of x.parquet is
//              its scan of x.csv, and DuckDB's aligned read_csv(x.csv) EXCEPT ALL
//              read_parquet(x.parquet) is empty both ways, with the same types.
//   write      Parquet files (a DuckDB table of every flat type, examples/trips.parquet, every
//              x.parquet above) through `strata convert p.parquet y.csv`: DuckDB and Polars read
//              y.csv back, given the Parquet file's types, to the Parquet file's rows; strata
//              reads it back to the same summary.
//   fuzz       arrow-testing's CSV fuzz regressions: strata reads or refuses each one cleanly.
// One line per check (PASS / FAIL / KNOWN, details indented), then `N passed, N failed`. KNOWN
// is a difference every line of which an ALLOWED entry explains. Exit 1 on any failure.
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { diffSummaries } from './compare_scan.mjs';
import { csvFiles, fuzzFiles } from './csv_files.mjs';
import { duckCsvSource, normalizeType, specTypeName } from './csv_options.mjs';
import { ALLOWED, whyAllowed } from './check_csv_allowed.mjs';
import {
  closeDuckdb, compareSelects, duckdb, exitWithUsage, parseArgsOrExit, polarsJobs, Report, runStrata, serveJobs,
  sqlIdent as ident, sqlString as q, strataSummary,
} from './check_support.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.resolve(HERE, '..', '..');
const SELF = fileURLToPath(import.meta.url);
// strata's default null spellings (csv/read_options.h ConvertOptions::null_values).
export const STRATA_NULLS = ['', 'NULL', 'null', 'NA', 'N/A'];

const USAGE = 'usage: check_csv.mjs --strata BIN --tmp DIR [--arrow-testing DIR] ' +
  '[--parts scan,roundtrip,write,fuzz] [--engines duckdb,polars]';

function usage(message) {
  exitWithUsage('check_csv', USAGE, message);
}

function parseArgs(argv) {
  return parseArgsOrExit(argv, 'check_csv', USAGE, {
    defaults: { strata: null, tmp: null, arrow: null, parts: ['scan', 'roundtrip', 'write', 'fuzz'], engines: ['duckdb', 'polars'] },
    values: { '--strata': 'strata', '--tmp': 'tmp', '--arrow-testing': 'arrow' },
    lists: { '--parts': 'parts', '--engines': 'engines' },
  });
}

// ---------------------------------------------------------------------------------------------
// Reporting

const reporter = new Report({ engineWidth: 13 });
const report = (...args) => reporter.add(...args);

// PASS without diffs; KNOWN when ALLOWED explains every diff; FAIL otherwise.
function verdict(engine, mode, entry, label, diffs, context = []) {
  reporter.judge(engine, label, diffs, (d) => whyAllowed({ engine, mode, file: entry.name, diffs: d }), context);
}

// ---------------------------------------------------------------------------------------------
// strata

// `strata schema FILE.csv`: the lines after "strata schema:", `name: type`.
function strataSchema(bin, args) {
  const r = runStrata(bin, ['schema', ...args]);
  if (r.error) return { error: r.error };
  const text = r.stdout.split('\n');
  const start = text.findIndex((l) => /^strata schema:/.test(l));
  if (start < 0) return { error: `no 'strata schema:' in: ${r.stdout.slice(0, 200)}` };
  const columns = [];
  for (const line of text.slice(start + 1)) {
    if (!line.trim()) continue;
    const at = line.lastIndexOf(': ');
    if (at < 0) return { error: `cannot read schema line '${line}'` };
    try {
      columns.push({ name: line.slice(0, at), type: normalizeType(line.slice(at + 2)) });
    } catch (error) {
      return { error: error.message };
    }
  }
  return { columns };
}

// strata's --schema text for columns [{name, type}] (canonical types). --schema cannot spell a
// name with a comma in it (it splits there): such columns are left to inference.
function strataSchemaArg(columns) {
  const strataType = (t) => t.replace(/^date$/, 'date32').replace(/^time\[(\w+)\]$/, 'time64[$1]')
    .replace(/^timestamp\[(\w+), tz=(.*)\]$/, 'timestamp[$1,$2]');
  return columns.filter((c) => !c.name.includes(',')).map((c) => `${c.name}:${strataType(c.type)}`).join(',');
}

// ---------------------------------------------------------------------------------------------
// Polars, in a child process (a Rust panic or abort must not take the check down)

function polarsWorker(jobFile, pl, polarsSummary) {
  serveJobs(jobFile, (job) => (job.kind === 'summary' ? { line: polarsSummary(job.file, { csv: job.csv }) }
    : { diffs: polarsRows(pl, job) }));
}

// The Parquet file's rows against the CSV read with the Parquet file's Polars schema.
function polarsRows(pl, { parquet, csvFile }) {
  const original = pl.readParquet(parquet);
  const schema = {};
  const skipped = [];
  for (const name of original.columns) {
    try {
      schema[name] = original.getColumn(name).dtype;
    } catch (error) {
      // Binary (strata writes hex) and other types nodejs-polars cannot hand to JavaScript.
      schema[name] = pl.Utf8;
      skipped.push(name);
    }
  }
  const back = pl.scanCSV(csvFile, { schema, hasHeader: true, sep: ',', quoteChar: '"' }).collectSync();
  const diffs = [];
  if (back.height !== original.height) diffs.push(`rows: parquet ${original.height}, csv ${back.height}`);
  for (const name of original.columns) {
    if (skipped.includes(name)) continue;
    const a = original.getColumn(name);
    const b = back.getColumn(name);
    if (String(a.dtype) !== String(b.dtype)) diffs.push(`column '${name}' type: parquet ${a.dtype}, csv ${b.dtype}`);
    const temporal = /Date|Time/.test(String(a.dtype));
    const text = (s) => (temporal ? s.cast(pl.Int64) : s).cast(pl.Utf8).toArray();
    const [x, y] = [text(a), text(b)];
    const bad = [];
    for (let i = 0; i < Math.max(x.length, y.length) && bad.length < 3; i++) {
      if (x[i] !== y[i]) bad.push(`row ${i}: parquet ${JSON.stringify(x[i])}, csv ${JSON.stringify(y[i])}`);
    }
    if (bad.length) diffs.push(`column '${name}' values: ${bad.join('; ')}`);
  }
  return diffs;
}

// ---------------------------------------------------------------------------------------------
// Part: scan

// The CSV options of each mode for `entry` given strata's schema.
function peerOptions(entry, mode, engine, schema) {
  const csv = {};
  if (engine === 'polars' && entry.sep) csv.sep = entry.sep;
  if (entry.peerInferRows) csv.inferRows = entry.peerInferRows;
  if (mode === 'aligned') {
    csv.nulls = STRATA_NULLS;
    csv.schema = schema;
  }
  return csv;
}

async function scanPart(options, entries) {
  const db = options.engines.includes('duckdb') ? await duckdb() : null;
  const jobs = [];
  const checks = []; // { entry, mode, engine, id | line/error }
  for (const entry of entries) {
    const args = [...entry.strataArgs, entry.file];
    if (entry.expectDefaultError) {
      const r = runStrata(options.strata, ['scan', '--json', entry.file]);
      const ok = r.error && entry.expectDefaultError.test(r.stderr ?? '');
      report(ok ? 'PASS' : 'FAIL', 'strata', `${entry.name}: refused without ${entry.strataArgs.join(' ')}`,
        ok ? [] : [r.error ? `message: ${r.error}` : 'strata read it with its default sample']);
    }
    const strata = strataSummary(options.strata, args);
    const schema = strataSchema(options.strata, args);
    entry.strata = strata.summary;
    entry.schema = schema.columns;
    if (strata.error || schema.error) {
      report('FAIL', 'strata', `${entry.name}: strata cannot read it`, [strata.error ?? schema.error]);
      continue;
    }
    const typeDiffs = schema.columns.map((c, i) => [c, strata.summary.columns[i]])
      .filter(([c, s]) => !s || c.name !== s.name || specTypeName(c.type) !== s.type)
      .map(([c, s]) => `schema ${c.name}: ${c.type}, scan ${s?.name}: ${s?.type}`);
    report(typeDiffs.length ? 'FAIL' : 'PASS', 'strata', `${entry.name}: schema = scan types`, typeDiffs);
    const one = strataSummary(options.strata, ['--threads', '1', ...args]);
    report(one.error || diffSummaries(strata.summary, one.summary, 'default', 'threads1').length ? 'FAIL' : 'PASS',
      'strata', `${entry.name}: --threads 1 = default threads`,
      one.error ? [one.error] : diffSummaries(strata.summary, one.summary, 'default', 'threads1'));
    for (const mode of ['inferred', 'aligned']) {
      for (const engine of options.engines) {
        const csv = peerOptions(entry, mode, engine, schema.columns);
        const check = { entry, mode, engine, csv };
        if (engine === 'duckdb') {
          try {
            check.line = await db.summarize(entry.file, { csv });
          } catch (error) {
            check.error = error.message.split('\n')[0];
          }
        } else {
          check.id = `s${jobs.length}`;
          jobs.push({ id: check.id, kind: 'summary', file: entry.file, csv });
        }
        checks.push(check);
      }
    }
  }
  const polars = await polarsJobs(SELF, jobs, options.tmp);
  for (const check of checks) {
    const { entry, mode, engine } = check;
    const result = check.id ? polars.get(check.id) : check;
    const label = `${entry.name} [${mode}]`;
    const context = mode === 'aligned' ? [`given: ${strataSchemaArg(entry.schema)}`] : [];
    if (result.error) {
      verdict(engine, mode, entry, label, [`error: ${result.error}`], context);
      continue;
    }
    verdict(engine, mode, entry, label, diffSummaries(entry.strata, JSON.parse(result.line), 'strata', engine), context);
  }
}

// ---------------------------------------------------------------------------------------------
// Part: roundtrip (CSV -> Parquet)

async function roundtripPart(options, entries) {
  const db = await duckdb();
  for (const entry of entries.filter((e) => e.strata)) {
    const out = path.join(options.tmp, 'parquet', `${entry.name.replace(/[/.]/g, '_')}.parquet`);
    const r = runStrata(options.strata, ['convert', ...entry.strataArgs, entry.file, out]);
    if (r.error) { report('FAIL', 'strata', `${entry.name} -> parquet: strata convert failed`, [r.error]); continue; }
    entry.parquet = out;
    const again = strataSummary(options.strata, [out]);
    report(again.error || diffSummaries(entry.strata, again.summary, 'csv', 'parquet').length ? 'FAIL' : 'PASS',
      'strata', `${entry.name} -> parquet: strata reads the same summary`,
      again.error ? [again.error] : diffSummaries(entry.strata, again.summary, 'csv', 'parquet'));
    const csv = duckCsvSource(entry.file, { nulls: STRATA_NULLS, schema: entry.schema, inferRows: entry.peerInferRows }, q);
    let problems;
    try {
      problems = await compareSelects(db, `SELECT * FROM ${csv}`, `SELECT * FROM read_parquet(${q(out)})`,
        { aName: 'read_csv', bName: 'read_parquet' });
    } catch (error) {
      problems = [`DuckDB error: ${error.message.split('\n')[0]}`];
    }
    verdict('duckdb-rows', 'roundtrip', entry, `${entry.name} -> strata convert -> parquet: EXCEPT ALL both ways`, problems,
      [`read_csv given: ${strataSchemaArg(entry.schema)}`]);
  }
}

// ---------------------------------------------------------------------------------------------
// Part: write (Parquet -> CSV)

// Every flat type DuckDB has a Parquet form for, with nulls, special floats and text that
// needs quoting.
const TYPES_TABLE = `SELECT
    CASE WHEN i % 5 = 1 THEN NULL ELSE (i % 256 - 128)::TINYINT END AS i8,
    CASE WHEN i % 5 = 2 THEN NULL ELSE (i * 163 % 65536 - 32768)::SMALLINT END AS i16,
    (i * 1000003 - 2147483648)::INTEGER AS i32,
    CASE WHEN i = 0 THEN -9223372036854775808 WHEN i = 1 THEN 9223372036854775807 ELSE i * 20000000000000003 END AS i64,
    (i % 256)::UTINYINT AS u8, (i * 7)::USMALLINT AS u16, (i * 10000019)::UINTEGER AS u32,
    CASE WHEN i = 1 THEN 18446744073709551615 ELSE i::HUGEINT * 40000000000000007 END::UBIGINT AS u64,
    CASE i % 7 WHEN 0 THEN 'NaN'::FLOAT WHEN 1 THEN '-0.0'::FLOAT WHEN 2 THEN 'inf'::FLOAT ELSE (i / 3)::FLOAT END AS f32,
    CASE i % 9 WHEN 0 THEN 'NaN'::DOUBLE WHEN 1 THEN '-0.0'::DOUBLE WHEN 2 THEN '-inf'::DOUBLE WHEN 3 THEN 5e-324
      WHEN 4 THEN NULL ELSE i / 7 + 0.1 END AS f64,
    CASE WHEN i % 4 = 0 THEN NULL ELSE ((i * 12345) % 1000000 / 100 - 4000)::DECIMAL(9,2) END AS d9,
    ((i * 98765432101) % 1000000000000 / 1000000)::DECIMAL(18,6) AS d18,
    (i::HUGEINT * 1234567890123456789 // 7)::DECIMAL(38,3) AS d38,
    CASE WHEN i % 6 = 0 THEN NULL ELSE DATE '1970-01-01' + (i * 997 - 200000)::INTEGER END AS dt,
    TIMESTAMP '2000-01-01' + to_microseconds(i * 987654321123) AS ts,
    TIMESTAMPTZ '2020-06-01 00:00:00+00' + to_microseconds(i * 3600000001) AS tstz,
    TIME '00:00:00' + to_microseconds(i * 7654321 % 86400000000) AS tm,
    CASE i % 8 WHEN 0 THEN NULL WHEN 1 THEN '' WHEN 2 THEN 'NULL' WHEN 3 THEN 'a,b "c"' || chr(10) || 'd'
      WHEN 4 THEN ' padded ' WHEN 5 THEN 'ünïcødé 日本 🎉' WHEN 6 THEN 'NA' ELSE 'plain ' || i END AS s,
    CASE WHEN i % 3 = 0 THEN NULL ELSE i % 2 = 0 END AS b,
    CASE WHEN i % 5 = 0 THEN NULL ELSE ('x' || i)::BLOB END AS bin
  FROM range(400) t(i)`;

// DuckDB's read_csv of strata's CSV `csvFile`, given the Parquet file's DuckDB types, RFC 4180
// dialect stated (not sniffed); binary columns (hex text) go through unhex().
async function duckReadBack(db, parquet, csvFile) {
  const columns = await db.rows(`DESCRIBE SELECT * FROM read_parquet(${q(parquet)})`);
  const types = columns.map((c) => `${q(c.column_name)}: ${q(c.column_type === 'BLOB' ? 'VARCHAR' : c.column_type)}`);
  const select = columns.map((c) => (c.column_type === 'BLOB' ? `unhex(${ident(c.column_name)}) AS ${ident(c.column_name)}`
    : ident(c.column_name))).join(', ');
  return `SELECT ${select} FROM read_csv(${q(csvFile)}, header = true, delim = ',', quote = '"', escape = '"', ` +
    `nullstr = '', allow_quoted_nulls = false, types = {${types.join(', ')}})`;
}

async function writePart(options, entries) {
  const db = await duckdb();
  const sources = [];
  const typesFile = path.join(options.tmp, 'parquet', 'duckdb_types.parquet');
  await db.connection.run(`COPY (${TYPES_TABLE}) TO ${q(typesFile)} (FORMAT parquet)`);
  sources.push({ name: 'duckdb_types.parquet', file: typesFile });
  sources.push({ name: 'examples/trips.parquet', file: path.join(REPO, 'examples', 'trips.parquet') });
  for (const e of entries.filter((x) => x.parquet)) sources.push({ name: `${e.name} (strata's parquet)`, file: e.parquet, entry: e });
  const jobs = [];
  const pending = [];
  for (const [k, source] of sources.entries()) {
    const out = path.join(options.tmp, 'written', `${k}.csv`);
    const r = runStrata(options.strata, ['convert', source.file, out]);
    if (r.error) { report('FAIL', 'strata', `${source.name} -> csv: strata convert failed`, [r.error]); continue; }
    const entry = { name: source.name };
    let problems;
    try {
      problems = await compareSelects(db, `SELECT * FROM read_parquet(${q(source.file)})`, await duckReadBack(db, source.file, out),
        { aName: 'parquet', bName: 'csv' });
    } catch (error) {
      problems = [`DuckDB error: ${error.message.split('\n')[0]}`];
    }
    verdict('duckdb-rows', 'write', entry, `${source.name} -> strata convert -> csv: DuckDB reads the parquet's rows`, problems);
    if (source.entry) {
      // strata reads its own CSV back, given the types it inferred for the original.
      const back = strataSummary(options.strata, ['--schema', strataSchemaArg(source.entry.schema), out]);
      const diffs = back.error ? [back.error] : diffSummaries(source.entry.strata, back.summary, 'original', 'written');
      verdict('strata', 'write', entry, `${source.name} -> csv: strata reads it back (--schema) to the same summary`, diffs);
    }
    if (options.engines.includes('polars')) {
      const id = `w${jobs.length}`;
      jobs.push({ id, kind: 'rows', parquet: source.file, csvFile: out });
      pending.push({ id, entry, label: `${source.name} -> strata convert -> csv: Polars reads the parquet's rows` });
    }
  }
  const results = await polarsJobs(SELF, jobs, options.tmp);
  for (const p of pending) {
    const r = results.get(p.id);
    verdict('polars-rows', 'write', p.entry, p.label, r.error ? [`error: ${r.error}`] : r.diffs);
  }
}

// ---------------------------------------------------------------------------------------------
// Part: fuzz

function fuzzPart(options, files) {
  for (const file of files) {
    const r = runStrata(options.strata, ['scan', '--json', '--input-format', 'csv', file], { timeout: 120000 });
    const clean = r.status === 0 ? /^\{"rows":/.test(r.stdout.trim().split('\n').pop() ?? '')
      : r.status === 1 && /^strata: /m.test(r.stderr ?? '');
    report(clean ? 'PASS' : 'FAIL', 'strata-fuzz', `${path.basename(file)}: ${r.status === 0 ? 'read' : 'refused'} cleanly`,
      clean ? [] : [r.error ?? 'printed no summary line', r.signal ? `signal ${r.signal}` : '']);
  }
}

// ---------------------------------------------------------------------------------------------

async function main() {
  const argv = process.argv.slice(2);
  if (argv[0] === '--polars-worker') {
    const { default: pl } = await import('nodejs-polars');
    const { polarsSummary } = await import('./polars_summary.mjs');
    polarsWorker(argv[1], pl, polarsSummary);
    return;
  }
  const options = parseArgs(argv);
  const start = Date.now();
  for (const sub of ['files', 'parquet', 'written']) mkdirSync(path.join(options.tmp, sub), { recursive: true });
  const arrowCsvDir = options.arrow ? path.join(options.arrow, 'data', 'csv') : null;
  if (arrowCsvDir && !existsSync(arrowCsvDir)) usage(`no ${arrowCsvDir}`);
  const entries = csvFiles(path.join(options.tmp, 'files'), { repo: REPO, arrowCsvDir });
  console.log(`check_csv: ${entries.length} CSV files, ${ALLOWED.length} allowed differences; engines ${options.engines.join(', ')}`);
  if (options.parts.includes('scan') || options.parts.includes('roundtrip') || options.parts.includes('write')) await scanPart(options, entries);
  if (options.parts.includes('roundtrip') || options.parts.includes('write')) await roundtripPart(options, entries);
  if (options.parts.includes('write')) await writePart(options, entries);
  if (options.parts.includes('fuzz')) fuzzPart(options, fuzzFiles(arrowCsvDir));
  closeDuckdb();
  process.exitCode = reporter.finish(start, 'allowed differences');
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
