// The CSV files check_csv.mjs compares strata with DuckDB and Polars on: the kinds of file real
// users have, generated deterministically into a directory, plus the example and the public
// Arrow test files. Each entry: { name, file, sep (a hint for Polars, which does not sniff),
// strataArgs (extra `strata scan` arguments), peerInferRows, what }.
import { copyFileSync, existsSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

const pad = (n, width = 2) => String(n).padStart(width, '0');
const DAY_MS = 86400000;

function dateText(days) {
  const d = new Date(days * DAY_MS);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
}

function timestampText(seconds, sep = ' ', fraction = '') {
  const d = new Date(seconds * 1000);
  return `${dateText(Math.floor(seconds / 86400))}${sep}${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:` +
    `${pad(d.getUTCSeconds())}${fraction}`;
}

// Quotes a field the RFC 4180 way when it needs it (or always, with force).
function q(text, force = false) {
  const s = String(text);
  return force || /[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

const lines = (header, rows, eol = '\n') => [header, ...rows].map((r) => r.join(',')).join(eol) + eol;

// ints, floats, dates, timestamps and booleans, each with nulls (empty fields), an all-null column.
function typedNulls(n = 600) {
  const rows = [];
  for (let i = 0; i < n; i++) {
    const big = i === 0 ? '-9223372036854775808' : i === 1 ? '9223372036854775807'
      : String(BigInt(i) * 15350975401313851n - 4611686018427387904n);
    const ratio = i === 2 ? '-0.0' : i === 3 ? '0.1' : i === 4 ? '1e+21' : i === 5 ? '1.5e-7'
      : ((i % 2 ? -1 : 1) * (i + 1) * 1.37e-3 * 10 ** (i % 12)).toExponential(5);
    rows.push([
      i + 1,
      i % 7 === 3 ? '' : ((i * 37) % 2001) - 1000,
      i % 17 === 4 ? '' : big,
      i % 13 === 0 ? '' : (((i * 7919) % 100000) / 100).toFixed(2),
      i % 9 === 8 ? '' : ratio,
      i % 10 === 6 ? '' : dateText(i === 7 ? -25567 : i === 8 ? 47481 : 18000 + i * 3),
      i % 8 === 5 ? '' : timestampText(1700000000 + i * 3671),
      i % 6 === 1 ? '' : timestampText(1500000000 + i * 86413, 'T', `.${pad((i * 12347) % 1000000, 6)}`),
      i % 5 === 2 ? '' : i % 3 === 0 ? 'true' : 'false',
      '',
    ]);
  }
  return lines(['id', 'small', 'big', 'price', 'ratio', 'day', 'at', 'at_iso', 'flag', 'nothing'], rows);
}

function quoted() {
  const texts = ['plain', 'with, comma', 'say "hi"', 'two\nlines', 'crlf\r\ninside', '  padded  ',
    '"', 'a,b,"c"', 'trailing,', ',leading', 'x'.repeat(300), 'tab\there', 'semi;colon'];
  const rows = texts.map((t, i) => [i, q(t, i % 2 === 0), q(String(i * 11), true), q(`${t} #${i}`, true)]);
  return lines(['id', q('text'), q('number, quoted', true), 'note'], rows);
}

function small(eol, sep = ',') {
  const rows = [];
  for (let i = 0; i < 50; i++) {
    rows.push([i, i % 4 === 0 ? '' : i * 3 - 70, (i * 0.25).toString(), dateText(19000 + i),
      i % 3 === 0 ? 'true' : 'false', i % 5 === 0 ? q(`multi${eol}line, ${i}`, true) : `text ${i}`]);
  }
  return [['id', 'n', 'x', 'day', 'flag', 'label'], ...rows].map((r) => r.join(sep)).join(eol) + eol;
}

function tabs() {
  const rows = [];
  for (let i = 0; i < 40; i++) rows.push([i, `a, b ${i}`, (i / 8).toString(), i % 6 === 0 ? '' : `semi;${i} "quoted"`]);
  return [['id', 'with_commas', 'x', 'text'], ...rows].map((r) => r.join('\t')).join('\n') + '\n';
}

function unicode() {
  const words = ['Zürich', 'São Paulo', '東京', 'Москва', 'القاهرة', 'Ἀθῆναι', 'naïve café', 'e\u0301t\u00e9',
    '🎉 party', '𝄞 clef', 'ß', 'Ω', 'ascii', 'ÅÄÖ', '한국어', 'हिन्दी'];
  const rows = words.map((w, i) => [i, q(w), w.length % 2 ? '' : q(`${w}/${i}`), q(`🙂${i}`)]);
  return lines(['id', '名前', 'ville', 'émoji'], rows);
}

function zipCodes() {
  const zips = ['02134', '00501', '90210', '10001', '07030', '60614', '01002', '94105'];
  const rows = zips.map((z, i) => [i, z, z.replace(/^0+/, '') || '0', `00${i}12`, i === 0 ? '0' : String(i * 7)]);
  return lines(['id', 'zip', 'zip_no_zeros', 'account', 'count'], rows);
}

function nullSpellings() {
  const rows = [['1', '""', '10'], ['2', '', '20'], ['3', 'NULL', 'NULL'], ['4', '"NULL"', '40'],
    ['5', 'NA', 'NA'], ['6', 'N/A', '60'], ['7', 'null', 'null'], ['8', 'text', '80'], ['9', '"NA"', ''],
    ['10', '" "', '100']];
  return lines(['id', 's', 'n'], rows);
}

function specialFloats() {
  const values = ['nan', 'inf', '-inf', '-0.0', '0', '1e308', '5e-324', 'NaN', 'Infinity', '-Infinity',
    '2.2250738585072014e-308', '0.30000000000000004', '-1.5'];
  return lines(['id', 'x'], values.map((v, i) => [i, v]));
}

function timestampsTz() {
  const rows = [];
  const zones = ['Z', '+02:00', '-05:30', '+00:00', 'Z'];
  for (let i = 0; i < 20; i++) {
    const s = 1600000000 + i * 98765;
    rows.push([i, i % 7 === 3 ? '' : `${timestampText(s, 'T')}${zones[i % zones.length]}`,
      timestampText(s % 86400, ' ').slice(11) + (i % 2 ? `.${pad(i * 123, 3)}` : ''),
      `${timestampText(s, ' ')}.${pad(i * 7654321 + 1, 9)}`]);
  }
  return lines(['id', 'at_tz', 'clock', 'at_ns'], rows);
}

// About 3 MB: several of strata's 1 MiB parsing blocks, quoted newlines crossing their edges.
function bigQuoted(n = 30000) {
  const rows = [];
  for (let i = 0; i < n; i++) {
    const text = i % 3 === 0 ? `line one ${i}\nline "two", ${i % 97}` : `row ${i} ${'x'.repeat(i % 40)}`;
    rows.push([i, q(text), ((i * 7907) % 100000 / 1000).toString(), dateText(10000 + (i % 9000))]);
  }
  return lines(['id', 'text', 'amount', 'day'], rows);
}

// An integer column that turns into floats after the first MiB (strata's sample).
function lateType(n = 150000) {
  const rows = [];
  for (let i = 0; i < n; i++) rows.push([i, i * 3]);
  rows.push([n, '1.5']);
  return lines(['id', 'v'], rows);
}

// The generated files (written into `dir`), the repository's example, and the Arrow test files
// (arrowCsvDir = arrow-testing/data/csv, or null when missing).
export function csvFiles(dir, { repo, arrowCsvDir }) {
  const out = [];
  const add = (name, content, extra = {}) => {
    const file = path.join(dir, name);
    writeFileSync(file, content);
    out.push({ name, file, strataArgs: [], ...extra });
  };
  const trips = path.join(dir, 'trips.csv');
  copyFileSync(path.join(repo, 'examples', 'trips.csv'), trips);
  out.push({ name: 'trips.csv', file: trips, strataArgs: [], what: 'examples/trips.csv' });
  const typed = typedNulls();
  add('typed_nulls.csv', typed, { what: 'ints, floats, dates, timestamps, booleans with nulls; an all-null column' });
  add('typed_nulls.csv.gz', gzipSync(typed), { what: 'the same, gzip' });
  add('quoted.csv', quoted(), { what: 'quoted fields: commas, doubled quotes, LF and CRLF inside, padding' });
  add('crlf.csv', small('\r\n'), { what: 'CRLF line endings' });
  add('tabs.tsv', tabs(), { sep: '\t', what: 'tab-separated' });
  add('semicolon.csv', small('\n', ';'), { sep: ';', what: "';' separated" });
  add('bom.csv', `\ufeff${small('\n')}`, { what: 'UTF-8 byte order mark' });
  add('unicode.csv', unicode(), { what: 'unicode text and names' });
  add('zip_codes.csv', zipCodes(), { what: 'leading zeros (ZIP codes, account numbers)' });
  add('null_spellings.csv', nullSpellings(), { what: 'empty vs quoted empty vs NULL / NA / N/A / null' });
  add('special_floats.csv', specialFloats(), { what: 'nan, inf, -0.0, extremes' });
  add('timestamps_tz.csv', timestampsTz(), { what: 'Z and offset time stamps, times of day, nanoseconds' });
  add('big_quoted.csv', bigQuoted(), { what: '3 MB, quoted newlines across parsing blocks' });
  add('late_type.csv', lateType(), { strataArgs: ['--infer-whole-file'], peerInferRows: 'all',
    expectDefaultError: /--infer-whole-file/,
    what: 'a float after the first MiB (strata --infer-whole-file; the peers look at every row)' });
  if (arrowCsvDir) {
    for (const name of readdirSync(arrowCsvDir).sort()) {
      const file = path.join(arrowCsvDir, name);
      if (/\.csv(\.gz)?$/.test(name) && existsSync(file)) out.push({ name: `arrow/${name}`, file, strataArgs: [], what: 'arrow-testing' });
    }
  }
  return out;
}

// The arrow-testing fuzz regression files (not CSV a peer must agree on: strata must only
// refuse them cleanly or read them, never crash or hang).
export function fuzzFiles(arrowCsvDir) {
  const dir = arrowCsvDir && path.join(arrowCsvDir, 'fuzzing');
  if (!dir || !existsSync(dir)) return [];
  return readdirSync(dir).filter((n) => n.startsWith('clusterfuzz')).sort().map((n) => path.join(dir, n));
}
