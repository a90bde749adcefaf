// CSV input for the peers' scan summary (scan_summary.mjs, check_csv.mjs): which files are CSV,
// the options a CSV read takes, and the spec type names (SCAN-SUMMARY.md, plus the time zone
// strata's `schema` command prints) as DuckDB and Polars types.
//
// Options of a CSV read, all optional (each engine's own default when absent):
//   sep        field separator. DuckDB sniffs it; Polars has no sniffer, so it gets '\t' for
//              .tsv files and ',' otherwise.
//   nulls      null spellings, replacing the engine's ('' only, in both). Unquoted fields only
//              in DuckDB (allow_quoted_nulls=false, strata's rule); Polars has no such switch and
//              applies them to quoted fields too.
//   schema     [{name, type}] with spec / strata type names: DuckDB `types=` (by name), Polars
//              `schema` (every column; the others keep Polars' inferred types).
//   inferRows  rows the types are inferred from: DuckDB sample_size (default: its 20480-row
//              sniffer sample), Polars inferSchemaLength (default: the whole file, see
//              polarsInferLength). 'all' = the whole file for both.

export const CSV_PATH = /\.(csv|tsv|txt|psv)(\.(gz|gzip|zst|zstd))?$/i;

export function isCsvPath(file) {
  return CSV_PATH.test(String(file));
}

export function isTsvPath(file) {
  return /\.tsv(\.(gz|gzip|zst|zstd))?$/i.test(String(file));
}

// Splits `text` at `separator` where it is not inside [] or ().
function splitOutside(text, separator) {
  const parts = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '[' || c === '(') depth += 1;
    else if ((c === ']' || c === ')') && depth > 0) depth -= 1;
    else if (c === separator && depth === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}

// 'name:type,name:type' (the syntax of strata's --schema) -> [{name, type}], types normalised
// by normalizeType. The name ends at the last ':' outside brackets.
export function parseSchemaSpec(text) {
  return splitOutside(String(text), ',').filter((p) => p.trim() !== '').map((piece) => {
    const parts = splitOutside(piece, ':');
    if (parts.length < 2) throw new Error(`--schema: '${piece.trim()}' is not name:type`);
    const type = parts.pop();
    return { name: parts.join(':').trim(), type: normalizeType(type) };
  });
}

// strata's and the spec's spellings of a type -> one canonical form:
// int8..uint64, float32, float64, bool, string, binary, date, decimal(P,S),
// timestamp[UNIT] / timestamp[UNIT, tz=ZONE], time[UNIT].
export function normalizeType(text) {
  const t = String(text).trim().toLowerCase().replace(/\s+/g, '');
  const simple = {
    float: 'float32', double: 'float64', boolean: 'bool', utf8: 'string', large_string: 'string',
    large_utf8: 'string', str: 'string', text: 'string', large_binary: 'binary', date32: 'date',
    'date32[day]': 'date', timestamp: 'timestamp[us]', timestamptz: 'timestamp[us, tz=UTC]',
    time: 'time[us]', time64: 'time[us]',
  };
  if (simple[t]) return simple[t];
  if (/^(u?int(8|16|32|64)|float(32|64)|bool|string|binary|date)$/.test(t)) return t;
  let m = /^timestamp\[(s|ms|us|ns)(?:,(?:tz=)?([^\]]+))?\]$/.exec(t);
  if (m) {
    if (!m[2]) return `timestamp[${m[1]}]`;
    const inside = String(text).slice(String(text).indexOf('[') + 1, String(text).lastIndexOf(']'));
    const given = inside.slice(inside.indexOf(',') + 1).trim().replace(/^tz\s*=\s*/i, '');
    const zone = /^utc$/i.test(given) ? 'UTC' : given;
    return `timestamp[${m[1]}, tz=${zone}]`;
  }
  m = /^time(?:32|64)?\[(s|ms|us|ns)\]$/.exec(t);
  if (m) return `time[${m[1]}]`;
  m = /^(?:decimal|decimal128|decimal256|numeric)\((\d+)(?:,(\d+))?\)$/.exec(t);
  if (m) return `decimal(${m[1]},${m[2] ?? 0})`;
  throw new Error(`type '${text}' has no CSV reading here (int8..uint64, float32, float64, bool, ` +
    'string, binary, date, decimal(p,s), timestamp[unit] or timestamp[unit, tz=Z], time[unit])');
}

// The spec type name of a canonical type: the time zone is not part of it.
export function specTypeName(type) {
  return type.replace(/^timestamp\[(\w+), tz=[^\]]*\]$/, 'timestamp[$1]');
}

const DUCK_SIMPLE = {
  int8: 'TINYINT', int16: 'SMALLINT', int32: 'INTEGER', int64: 'BIGINT', uint8: 'UTINYINT',
  uint16: 'USMALLINT', uint32: 'UINTEGER', uint64: 'UBIGINT', float32: 'FLOAT', float64: 'DOUBLE',
  bool: 'BOOLEAN', string: 'VARCHAR', binary: 'BLOB', date: 'DATE',
};
const DUCK_TIMESTAMPS = { s: 'TIMESTAMP_S', ms: 'TIMESTAMP_MS', us: 'TIMESTAMP', ns: 'TIMESTAMP_NS' };

// A canonical type as a DuckDB SQL type. DuckDB's time zone types are microseconds only.
export function duckTypeOf(type) {
  if (DUCK_SIMPLE[type]) return DUCK_SIMPLE[type];
  let m = /^decimal\((\d+),(\d+)\)$/.exec(type);
  if (m) return `DECIMAL(${m[1]},${m[2]})`;
  m = /^timestamp\[(\w+)(, tz=.*)?\]$/.exec(type);
  if (m) return m[2] ? 'TIMESTAMPTZ' : DUCK_TIMESTAMPS[m[1]];
  if (/^time\[/.test(type)) return type === 'time[ns]' ? 'TIME_NS' : 'TIME';
  throw new Error(`no DuckDB type for ${type}`);
}

// A DuckDB column type (DESCRIBE's column_type) as a spec type name.
export function specTypeOfDuck(columnType) {
  const t = String(columnType).toUpperCase();
  const simple = {
    TINYINT: 'int8', SMALLINT: 'int16', INTEGER: 'int32', BIGINT: 'int64', HUGEINT: 'int128',
    UTINYINT: 'uint8', USMALLINT: 'uint16', UINTEGER: 'uint32', UBIGINT: 'uint64', UHUGEINT: 'uint128',
    FLOAT: 'float32', DOUBLE: 'float64', BOOLEAN: 'bool', VARCHAR: 'string', JSON: 'string',
    BLOB: 'binary', UUID: 'binary', DATE: 'date', TIMESTAMP_S: 'timestamp[s]', TIMESTAMP_MS: 'timestamp[ms]',
    TIMESTAMP: 'timestamp[us]', 'TIMESTAMP WITH TIME ZONE': 'timestamp[us]', TIMESTAMP_NS: 'timestamp[ns]',
    TIME: 'time[us]', TIME_NS: 'time[ns]', 'TIME WITH TIME ZONE': 'time[us]', INTERVAL: 'binary',
    '"NULL"': 'string', NULL: 'string',
  };
  if (simple[t]) return simple[t];
  const m = /^DECIMAL\((\d+),\s*(\d+)\)$/.exec(t);
  if (m) return `decimal(${m[1]},${m[2]})`;
  if (/\[\]$|^(STRUCT|MAP|UNION|LIST)\b|\[\d+\]$/.test(t)) return 'nested';
  throw new Error(`DuckDB type ${columnType} has no scan-summary type`);
}

// A canonical type as a Polars DataType (`pl` is the nodejs-polars module).
export function polarsTypeOf(pl, type) {
  const simple = {
    int8: pl.Int8, int16: pl.Int16, int32: pl.Int32, int64: pl.Int64, uint8: pl.UInt8,
    uint16: pl.UInt16, uint32: pl.UInt32, uint64: pl.UInt64, float32: pl.Float32,
    float64: pl.Float64, bool: pl.Bool, string: pl.Utf8, date: pl.Date,
  };
  if (simple[type]) return simple[type];
  if (type === 'binary') throw new Error('Polars reads no binary columns from CSV');
  let m = /^decimal\((\d+),(\d+)\)$/.exec(type);
  if (m) return pl.Decimal(Number(m[1]), Number(m[2]));
  m = /^timestamp\[(\w+)(?:, tz=(.*))?\]$/.exec(type);
  if (m) {
    if (m[1] === 's') throw new Error('Polars has no second-resolution Datetime');
    return m[2] ? pl.Datetime(m[1], m[2]) : pl.Datetime(m[1]);
  }
  if (/^time\[/.test(type)) return pl.Time;
  throw new Error(`no Polars type for ${type}`);
}

// SQL text of `read_csv(file, ...)` for `options` (see the top of the file).
export function duckCsvSource(file, options, sqlString) {
  const args = [sqlString(file)];
  options ??= {};
  if (options.sep) args.push(`delim = ${sqlString(options.sep)}`);
  if (options.nulls) {
    args.push(`nullstr = [${options.nulls.map(sqlString).join(', ')}]`, 'allow_quoted_nulls = false');
  }
  if (options.schema?.length) {
    args.push(`types = {${options.schema.map((c) => `${sqlString(c.name)}: ${sqlString(duckTypeOf(c.type))}`).join(', ')}}`);
  }
  if (options.inferRows === 'all') args.push('sample_size = -1');
  else if (options.inferRows) args.push(`sample_size = ${Number(options.inferRows)}`);
  return `read_csv(${args.join(', ')})`;
}

// The separator Polars is given: the option, else by extension.
export function polarsSeparator(file, options = {}) {
  return options.sep ?? (isTsvPath(file) ? '\t' : ',');
}
