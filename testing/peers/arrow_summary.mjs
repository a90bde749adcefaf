// The scan summary of an apache-arrow Table (Arrow JS reading an IPC file or stream, or a table
// built in JavaScript), for check_ipc.mjs. Without a Parquet schema, the spec's type names come
// from the Arrow types, as strata's scan names them (cli/scan_summary.cc SummaryTypeName):
// int8..uint64, float16/32/64, decimal(P,S), date (date32 and date64), timestamp[unit] and
// time[unit] (time zone dropped), string (utf8, large_utf8, utf8_view), binary (binary,
// large_binary, binary_view, fixed_size_binary), null, nested (list, struct, map, ...). A
// dictionary column is summarised as its values (the type of its value type).
// Values are read from the Arrow buffers exactly (64-bit integers and decimals as BigInt, bytes
// as bytes); count / nulls / min / max and the text come from value_summary.mjs.
import { DateUnit, makeVector, Precision, TimeUnit, Type } from 'apache-arrow';
import { float16BitsToNumber, summaryLine } from './summary_format.mjs';
import { ColumnAccumulator, ColumnDigest } from './value_summary.mjs';

const UNIT = { [TimeUnit.SECOND]: 's', [TimeUnit.MILLISECOND]: 'ms', [TimeUnit.MICROSECOND]: 'us', [TimeUnit.NANOSECOND]: 'ns' };
const MS_PER_DAY = 86400000n;

// The spec type name of an Arrow JS DataType.
export function arrowSpecType(type) {
  switch (type.typeId) {
    case Type.Int: return `${type.isSigned ? '' : 'u'}int${type.bitWidth}`;
    case Type.Float: return type.precision === Precision.HALF ? 'float16' : type.precision === Precision.SINGLE ? 'float32' : 'float64';
    case Type.Bool: return 'bool';
    case Type.Decimal: return `decimal(${type.precision},${type.scale})`;
    case Type.Date: return 'date';
    case Type.Timestamp: return `timestamp[${UNIT[type.unit]}]`;
    case Type.Time: return `time[${UNIT[type.unit]}]`;
    case Type.Utf8: case Type.LargeUtf8: case Type.Utf8View: return 'string';
    case Type.Binary: case Type.LargeBinary: case Type.BinaryView: case Type.FixedSizeBinary: return 'binary';
    case Type.Null: return 'null';
    case Type.Dictionary: return arrowSpecType(type.dictionary);
    default: return 'nested';
  }
}

const floorDiv = (a, b) => (a % b !== 0n && (a < 0n) !== (b < 0n) ? a / b - 1n : a / b);

// value i of one Data chunk, normalised for ColumnAccumulator (see value_summary.mjs).
export function arrowValueReader(data) {
  const type = data.type;
  const values = data.values;
  const offsets = data.valueOffsets;
  switch (type.typeId) {
    case Type.Int: return (i) => values[i];
    case Type.Float:
      return type.precision === Precision.HALF ? (i) => float16BitsToNumber(values[i]) : (i) => values[i];
    case Type.Decimal: {
      const words = type.bitWidth / 32;
      return (i) => {
        let v = 0n;
        for (let w = words - 1; w >= 0; w--) v = (v << 32n) | BigInt(values[i * words + w]);
        return BigInt.asIntN(type.bitWidth, v);
      };
    }
    case Type.Date:
      if (type.unit === DateUnit.DAY) return (i) => BigInt(values[i]);
      // date64: milliseconds (two 32-bit words, low first), written as the day they fall in.
      if (values instanceof BigInt64Array) return (i) => floorDiv(values[i], MS_PER_DAY);
      return (i) => floorDiv(BigInt.asIntN(64, BigInt(values[2 * i] >>> 0) + (BigInt(values[2 * i + 1]) << 32n)), MS_PER_DAY);
    case Type.Time:
    case Type.Timestamp:
      return (i) => BigInt(values[i]);
    case Type.Utf8:
    case Type.Binary:
      return (i) => values.subarray(offsets[i], offsets[i + 1]);
    case Type.LargeUtf8:
    case Type.LargeBinary:
      return (i) => values.subarray(Number(offsets[i]), Number(offsets[i + 1]));
    case Type.FixedSizeBinary:
      return (i) => values.subarray(i * type.byteWidth, (i + 1) * type.byteWidth);
    case Type.Dictionary: {
      const chunks = data.dictionary.data;
      const readers = chunks.map((d) => arrowValueReader(d));
      const starts = [];
      let start = 0;
      for (const d of chunks) { starts.push(start); start += d.length; }
      return (i) => {
        const k = Number(values[i]);
        let c = starts.length - 1;
        while (starts[c] > k) c--;
        const d = chunks[c];
        return d.getValid(k - starts[c]) ? readers[c](k - starts[c]) : null;
      };
    }
    default: {
      // Bool, views and anything else: the vector's own getter (strings re-encoded as UTF-8).
      const vector = makeVector(data);
      return (i) => {
        const v = vector.get(i);
        return typeof v === 'string' ? new TextEncoder().encode(v) : v;
      };
    }
  }
}

// visit(columnIndex, value) for every value of every column in row order (nested: true for a
// non-null value, or the vector's value with `nestedValues`).
function eachValue(table, visit, { nestedValues = false } = {}) {
  table.schema.fields.forEach((field, c) => {
    const kind = arrowSpecType(field.type);
    for (const data of table.getChildAt(c).data) {
      if (data.type.typeId === Type.Null) {
        for (let i = 0; i < data.length; i++) visit(c, null);
      } else if (kind === 'nested') {
        const vector = nestedValues ? makeVector(data) : null;
        for (let i = 0; i < data.length; i++) visit(c, data.getValid(i) ? (vector ? vector.get(i) : true) : null);
      } else {
        const read = arrowValueReader(data);
        for (let i = 0; i < data.length; i++) visit(c, data.getValid(i) ? read(i) : null);
      }
    }
  });
}

export function arrowTableSummary(table) {
  const accumulators = table.schema.fields.map((f) => new ColumnAccumulator(f.name, arrowSpecType(f.type)));
  eachValue(table, (c, value) => accumulators[c].add(value));
  return summaryLine(table.numRows, accumulators.map((a) => {
    const r = a.result();
    // A null-typed column: no values, the type named as strata names it.
    return r.type === 'null' ? { ...r, min: null, max: null } : r;
  }));
}

// { column: "rows:sha256" } of every value in row order (value_summary.mjs's digest).
export function arrowTableDigest(table) {
  const digests = table.schema.fields.map(() => new ColumnDigest());
  eachValue(table, (c, value) => digests[c].add(value), { nestedValues: true });
  return Object.fromEntries(table.schema.fields.map((f, c) => [f.name, digests[c].result()]));
}
