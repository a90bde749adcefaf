// Scan summary computed by Polars (nodejs-polars): types come from the Polars schema of the file
// (Polars' reading of the Parquet schema, see README.md for what it cannot say), count / nulls /
// min / max from one lazy aggregate over every selected column, values written by
// summary_format.mjs. Set POLARS_MAX_THREADS before importing this module to pick the threads.
// CSV files ({csv} options, see csv_options.mjs) are read with pl.scanCSV, Polars' own type
// inference over the whole file by default (inferSchemaLength), dates and datetimes parsed
// (parseDates: without it Polars reads them as strings).
import { createHash } from 'node:crypto';
import { closeSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import pl from 'nodejs-polars';
import { polarsSeparator, polarsTypeOf } from './csv_options.mjs';
import {
  decimalTextToUnscaled, formatBinary, formatDate, formatDecimal, formatFloat32, formatFloat64,
  formatInteger, formatTime, formatTimestamp, summaryLine,
} from './summary_format.mjs';

const SIMPLE_TYPES = {
  Int8: 'int8', Int16: 'int16', Int32: 'int32', Int64: 'int64',
  UInt8: 'uint8', UInt16: 'uint16', UInt32: 'uint32', UInt64: 'uint64',
  Float32: 'float32', Float64: 'float64', Bool: 'bool', Date: 'date',
  String: 'string', Utf8: 'string', Categorical: 'string', Enum: 'string',
  Time: 'time[ns]', // Polars has one time unit: every Parquet TIME is read as nanoseconds
  List: 'nested', FixedSizeList: 'nested', Struct: 'nested', Array: 'nested',
};

// The spec type of a Polars column. nodejs-polars cannot hand Binary or Float16 dtypes to
// JavaScript at all (it throws), so those are recognised by the error.
function specTypeOf(frame, name) {
  let dtype;
  try {
    dtype = frame.getColumn(name).dtype;
  } catch (error) {
    if (/DataType Binary\b/.test(error.message)) return 'binary';
    if (/DataType Float16\b/.test(error.message)) return 'float16';
    if (/DataType Int128\b/.test(error.message)) return 'int128';
    if (/DataType (List|Struct|Array)\b/.test(error.message)) return 'nested';
    throw error;
  }
  const variant = dtype.variant;
  if (SIMPLE_TYPES[variant]) return SIMPLE_TYPES[variant];
  if (variant === 'Decimal') {
    const { precision, scale } = dtype.inner ? { precision: dtype.inner[0], scale: dtype.inner[1] }
      : dtype;
    return `decimal(${precision},${scale})`;
  }
  if (variant === 'Datetime') return `timestamp[${dtype.timeUnit ?? dtype.inner?.[0] ?? 'us'}]`;
  if (variant === 'Null') return 'null';
  if (variant === 'Int128') return 'int128';
  throw new Error(`column '${name}': Polars type ${dtype} has no scan-summary type`);
}

function isFloat(type) {
  return type === 'float16' || type === 'float32' || type === 'float64';
}

// Expressions for min and max whose results JavaScript can read exactly: integers and
// timestamps as decimal text (Int64 would come back as a lossy number), binary as a list of
// bytes, floats without NaN.
function minMaxExpressions(name, type, index) {
  let value = pl.col(name);
  if (type === 'float16') value = value.cast(pl.Float32); // exact
  if (isFloat(type)) value = value.filter(value.isNan().not());
  const finish = (e) => {
    if (type === 'binary') return e.cast(pl.List(pl.UInt8));
    if (type === 'date') return e.cast(pl.Int32);
    if (type.startsWith('timestamp') || type.startsWith('time')) return e.cast(pl.Int64).cast(pl.Utf8);
    if (/int\d+$/.test(type) || type.startsWith('decimal')) return e.cast(pl.Utf8);
    return e;
  };
  return [finish(value.min()).alias(`min_${index}`), finish(value.max()).alias(`max_${index}`)];
}

function formatPolarsValue(value, type) {
  if (value === null || value === undefined) return null;
  if (type === 'float64') return formatFloat64(value);
  if (type === 'float32' || type === 'float16') return formatFloat32(value);
  if (type === 'bool') return value ? 'true' : 'false';
  if (type === 'string') return String(value);
  if (type === 'binary') return formatBinary(Uint8Array.from(value));
  if (type === 'date') return formatDate(value);
  if (type.startsWith('decimal')) {
    const scale = Number(/,(\d+)\)/.exec(type)[1]);
    return formatDecimal(decimalTextToUnscaled(value, scale), scale);
  }
  if (type.startsWith('timestamp')) return formatTimestamp(BigInt(value), /\[(\w+)\]/.exec(type)[1]);
  if (type.startsWith('time')) return formatTime(BigInt(value), 'ns');
  return formatInteger(value);
}

// Bytes of the file's text: the file's size, or for gzip the uncompressed size in its last
// member's trailer (ISIZE, modulo 2^32: enough for the files this reads).
function textBytes(file) {
  const size = statSync(file).size;
  if (!/\.gz(ip)?$/i.test(file) || size < 18) return size;
  const fd = openSync(file, 'r');
  try {
    const trailer = Buffer.alloc(4);
    readSync(fd, trailer, 0, 4, size - 4);
    return Math.max(size, trailer.readUInt32LE(0));
  } finally {
    closeSync(fd);
  }
}

// inferSchemaLength for "the whole file". nodejs-polars turns null into 0 (every column a
// string) and Polars reserves 24 bytes per row of it up front (2^32 - 1 asks for 96 GiB), so
// the bound is the most records the file can hold: a record of N columns takes at least N
// bytes (N - 1 separators and a line end).
export function polarsInferLength(file, columnCount) {
  return Math.floor(textBytes(file) / Math.max(1, columnCount)) + 2;
}

// The lazy CSV scan of `file` for `options` (csv_options.mjs). Given types replace Polars' own
// for those columns (Polars takes a whole schema: the others keep their inferred types).
export function polarsCsvScan(file, options = {}) {
  const base = { sep: polarsSeparator(file, options), parseDates: true, hasHeader: true };
  if (options.nulls) {
    // Polars reads an unquoted empty field as null without being told, and would read a quoted
    // empty field as null too if '' were among its null values.
    const nulls = options.nulls.filter((n) => n !== '');
    if (nulls.length) base.nullValues = nulls;
  }
  let inferRows = options.inferRows;
  if (!inferRows || inferRows === 'all') {
    const header = pl.scanCSV(file, { ...base, inferSchemaLength: 1 }).columns.length;
    inferRows = polarsInferLength(file, header);
  }
  if (!options.schema?.length) return pl.scanCSV(file, { ...base, inferSchemaLength: Number(inferRows) });
  const given = new Map(options.schema.map((c) => [c.name, polarsTypeOf(pl, c.type)]));
  const names = pl.scanCSV(file, { ...base, inferSchemaLength: 1 }).columns;
  for (const name of given.keys()) {
    if (!names.includes(name)) throw new Error(`--schema names '${name}', which ${file} does not have`);
  }
  let inferred = {};
  if (names.some((n) => !given.has(n))) {
    inferred = pl.scanCSV(file, { ...base, inferSchemaLength: Number(inferRows) }).limit(0).collectSync().schema;
  }
  const schema = Object.fromEntries(names.map((n) => [n, given.get(n) ?? inferred[n]]));
  return pl.scanCSV(file, { ...base, schema });
}

// Arrow IPC: `ipc` 'file' is pl.scanIPC; 'stream' is pl.readIPCStream of the file's bytes
// (nodejs-polars 0.25.2's readIPCStream(path) fails with "Unable to get root as message" on a
// valid stream that it reads from a Buffer).
function scanOf(file, csv, ipc) {
  if (ipc === 'file') return pl.scanIPC(file);
  if (ipc === 'stream') return pl.readIPCStream(readFileSync(file)).lazy();
  return csv ? polarsCsvScan(file, csv) : pl.scanParquet(file);
}

// Returns the summary line for `file`, restricted to `columns` (names) when given. With `csv`
// (csv_options.mjs; {} for Polars' defaults) the file is read as CSV; with `ipc` ('file' or
// 'stream') as Arrow IPC.
// `where` (SQL) keeps only the rows it selects: Polars' SQL context over the lazy scan, so the
// predicate is pushed into the Parquet reader as Polars does for its own expressions.
export function polarsSummary(file, { columns, csv, ipc, where } = {}) {
  let scan = scanOf(file, csv, ipc);
  if (where) {
    const context = pl.SQLContext({ t: scan });
    scan = context.execute(`SELECT * FROM t WHERE ${where}`);
  }
  return polarsLazySummary(scan, { columns, nullType: ipc ? 'null' : 'int32' });
}

// The summary line of a LazyDataFrame (or DataFrame). A column of Polars' Null type is named
// `nullType` (a Parquet file's all-null column of unknown type: int32; Arrow's null type: null).
export function polarsLazySummary(source, { columns, nullType = 'int32' } = {}) {
  const scan = typeof source.lazy === 'function' ? source.lazy() : source;
  const names = columns ?? scan.columns;
  for (const name of names) {
    if (!scan.columns.includes(name)) throw new Error(`no column '${name}' in the frame`);
  }
  const empty = scan.select(...names.map((n) => pl.col(n))).limit(0).collectSync();
  const types = names.map((name) => specTypeOf(empty, name));
  const expressions = [pl.len().alias('rows')];
  names.forEach((name, i) => {
    expressions.push(pl.col(name).count().alias(`count_${i}`));
    if (types[i] !== 'nested' && types[i] !== 'null') {
      expressions.push(...minMaxExpressions(name, types[i], i));
    }
  });
  const [result] = scan.select(...expressions).collectSync().toRecords();
  const rows = Number(result.rows);
  const summary = names.map((name, i) => {
    const type = types[i] === 'null' ? nullType : types[i];
    const count = Number(result[`count_${i}`]);
    let min = formatPolarsValue(result[`min_${i}`], type);
    let max = formatPolarsValue(result[`max_${i}`], type);
    if (isFloat(type) && count > 0 && min === null) min = max = 'NaN';
    return { name, type, count, nulls: rows - count, min, max };
  });
  return summaryLine(rows, summary);
}

// { column: "rows:sha256" }: Polars' own hash of every value (Series.hash, fixed seeds), in row
// order, so a reading of a file and of its rewrite can be compared value for value.
export function polarsDigest(file, { columns, csv, ipc } = {}) {
  const scan = scanOf(file, csv, ipc);
  const names = columns ?? scan.columns;
  const hashed = scan.select(...names.map((n, i) => pl.col(n).hash(1, 2, 3, 4).cast(pl.Utf8).alias(`h_${i}`)))
    .collectSync();
  return Object.fromEntries(names.map((name, i) => {
    const values = hashed.getColumn(`h_${i}`).toArray();
    const digest = createHash('sha256').update(values.join('\n')).digest('hex');
    return [name, `${values.length}:${digest}`];
  }));
}
