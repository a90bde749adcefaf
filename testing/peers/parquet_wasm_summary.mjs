// Scan summary computed by arrow-rs's Parquet reader (parquet-wasm, WebAssembly): the file is
// decoded by arrow-rs into Arrow record batches, handed to JavaScript as an Arrow IPC stream and
// read with apache-arrow; values are taken from the Arrow buffers exactly (no JS doubles for
// 64-bit integers or decimals), count / nulls / min / max from value_summary.mjs.
//
// Type names come from the Parquet schema (the spec defines them from it; hyparquet's footer
// parser supplies the SchemaElements). arrow-rs follows an embedded ARROW:schema, so an Arrow
// type may differ from the Parquet one (a timestamp in seconds stored as milliseconds, a
// dictionary, a large string): values are brought back to the Parquet type's unit here, and a
// kind that does not fit the Parquet type is an error.
import { readFileSync } from 'node:fs';
import { tableFromIPC, Type, TimeUnit, DateUnit, Precision, makeVector } from 'apache-arrow';
import { readParquet } from 'parquet-wasm/node';
import { parquetMetadata } from 'hyparquet';
import { float16BitsToNumber, summaryLine } from './summary_format.mjs';
import { ColumnAccumulator, ColumnDigest } from './value_summary.mjs';
import { topLevelTypes } from './hyparquet_summary.mjs';

const UNIT_NAME = { [TimeUnit.SECOND]: 's', [TimeUnit.MILLISECOND]: 'ms', [TimeUnit.MICROSECOND]: 'us',
  [TimeUnit.NANOSECOND]: 'ns' };
const PER_SECOND = { s: 1n, ms: 1000n, us: 1000000n, ns: 1000000000n };

function rescale(value, fromUnit, toUnit) {
  if (fromUnit === toUnit) return value;
  const from = PER_SECOND[fromUnit];
  const to = PER_SECOND[toUnit];
  return to > from ? value * (to / from) : value / (from / to);
}

// A reader of value i of one Arrow Data chunk, giving value_summary's normalised values.
function valueReader(data, specType) {
  const type = data.type;
  const values = data.values;
  const offsets = data.valueOffsets;
  switch (type.typeId) {
    case Type.Int:
      return (i) => values[i];
    case Type.Float:
      if (type.precision === Precision.HALF) return (i) => float16BitsToNumber(values[i]);
      return (i) => values[i];
    case Type.Bool: {
      const vector = makeVector(data);
      return (i) => vector.get(i);
    }
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
      return (i) => BigInt(values[2 * i]) + (BigInt(values[2 * i + 1]) << 32n); // ms, low word first
    case Type.Time:
    case Type.Timestamp: {
      const from = UNIT_NAME[type.unit];
      const to = /\[(\w+)\]/.exec(specType)?.[1] ?? from;
      return (i) => rescale(BigInt(values[i]), from, to);
    }
    case Type.Utf8:
    case Type.Binary:
      return (i) => values.subarray(offsets[i], offsets[i + 1]);
    case Type.LargeUtf8:
    case Type.LargeBinary:
      return (i) => values.subarray(Number(offsets[i]), Number(offsets[i + 1]));
    case Type.FixedSizeBinary:
      return (i) => values.subarray(i * type.byteWidth, (i + 1) * type.byteWidth);
    case Type.Dictionary: {
      const dictionary = data.dictionary.data;
      const readers = dictionary.map((d) => valueReader(d, specType));
      const starts = [];
      let start = 0;
      for (const d of dictionary) { starts.push(start); start += d.length; }
      return (i) => {
        const k = Number(values[i]);
        let c = starts.length - 1;
        while (starts[c] > k) c--;
        return readers[c](k - starts[c]);
      };
    }
    default: {
      // Views and anything else: the vector's own getter (strings are re-encoded as UTF-8).
      const vector = makeVector(data);
      return (i) => {
        const v = vector.get(i);
        return typeof v === 'string' ? new TextEncoder().encode(v) : v;
      };
    }
  }
}

// Reads `file` with arrow-rs and calls visit(field, value) for every value of every selected
// column in row order (value_summary's normalised values; nested values as apache-arrow gives
// them, null for a null). Returns { rows, fields }.
function scanColumns(file, columns, visit) {
  const bytes = readFileSync(file);
  const metadata = parquetMetadata(bytes);
  const fields = topLevelTypes(metadata);
  const selected = columns
    ? columns.map((name) => {
      const found = fields.find((f) => f.name === name);
      if (!found) throw new Error(`no column '${name}' in ${file}`);
      return found;
    })
    : fields;
  const wasmTable = readParquet(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length),
    columns ? { columns } : undefined);
  const table = tableFromIPC(wasmTable.intoIPCStream()); // consumes the wasm table
  for (const field of selected) {
    const index = table.schema.fields.findIndex((f) => f.name === field.name);
    if (index < 0) throw new Error(`arrow-rs gave no column '${field.name}'`);
    for (const data of table.getChildAt(index).data) {
      if (data.offset !== 0) throw new Error(`column '${field.name}': sliced Arrow data is not handled`);
      if (data.type.typeId === Type.Null) {
        for (let i = 0; i < data.length; i++) visit(field, null);
      } else if (field.type === 'nested') {
        const vector = makeVector(data);
        for (let i = 0; i < data.length; i++) visit(field, data.getValid(i) ? vector.get(i) : null);
      } else {
        const read = valueReader(data, field.type);
        for (let i = 0; i < data.length; i++) visit(field, data.getValid(i) ? read(i) : null);
      }
    }
  }
  return { rows: table.numRows, fields: selected };
}

export function parquetWasmSummary(file, { columns } = {}) {
  const accumulators = new Map();
  const { rows, fields } = scanColumns(file, columns, (field, value) => {
    let acc = accumulators.get(field.name);
    if (!acc) accumulators.set(field.name, (acc = new ColumnAccumulator(field.name, field.type)));
    acc.add(field.type === 'nested' && value !== null ? true : value);
  });
  return summaryLine(rows, fields.map((f) => (accumulators.get(f.name) ?? new ColumnAccumulator(f.name, f.type)).result()));
}

// { column: "rows:sha256" } over every value (see value_summary.mjs).
export function parquetWasmDigest(file, { columns } = {}) {
  const digests = new Map();
  const { fields } = scanColumns(file, columns, (field, value) => {
    let d = digests.get(field.name);
    if (!d) digests.set(field.name, (d = new ColumnDigest()));
    d.add(value);
  });
  return Object.fromEntries(fields.map((f) => [f.name, (digests.get(f.name) ?? new ColumnDigest()).result()]));
}
