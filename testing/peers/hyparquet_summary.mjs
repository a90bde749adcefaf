// Scan summary computed by hyparquet (pure JavaScript reader, every codec through
// hyparquet-compressors). Types come from the file's SchemaElements as hyparquet parses them
// (through summary_format.mjs's specTypeOf), values from hyparquet's decoded columns (onChunk,
// top-level columns assembled), count / nulls / min / max from value_summary.mjs.
//
// hyparquet turns some values into lossy JavaScript objects by default (timestamps into Date,
// decimals into Number). To read what the file stores exactly:
// - the `parsers` hooks hand back the raw values (days, unit counts, bytes of strings);
// - DECIMAL columns have hyparquet's decimal conversion (which yields a double) switched off by
//   removing the annotation from hyparquet's copy of the schema: hyparquet then gives the
//   unscaled integers it decoded, and the scale is applied here from the original schema.
import { asyncBufferFromFile, parquetMetadataAsync, parquetRead } from 'hyparquet';
import { compressors } from 'hyparquet-compressors';
import { specTypeOf, summaryLine } from './summary_format.mjs';
import { ColumnAccumulator, ColumnDigest } from './value_summary.mjs';

const RAW_PARSERS = {
  timestampFromMilliseconds: (v) => BigInt(v),
  timestampFromMicroseconds: (v) => BigInt(v),
  timestampFromNanoseconds: (v) => BigInt.asIntN(64, BigInt(v)), // INT96: the spec's wrapping
  dateFromDays: (days) => BigInt(days),
  stringFromBytes: (bytes) => bytes,
  jsonFromBytes: (bytes) => bytes,
  uuidFromBytes: (bytes) => bytes,
  geometryFromBytes: (bytes) => bytes,
  geographyFromBytes: (bytes) => bytes,
};

// hyparquet's parsed LogicalType -> the printed thrift form specTypeOf() reads (DuckDB's).
function thriftLogical(logical) {
  if (!logical) return null;
  const unit = (u) => `unit=TimeUnit(${u}=${u})`;
  switch (logical.type) {
    case 'STRING': return 'StringType()';
    case 'ENUM': return 'EnumType()';
    case 'JSON': return 'JsonType()';
    case 'DECIMAL': return `DecimalType(scale=${logical.scale}, precision=${logical.precision})`;
    case 'DATE': return 'DateType()';
    case 'TIME': return `TimeType(${unit(logical.unit)})`;
    case 'TIMESTAMP': return `TimestampType(${unit(logical.unit)})`;
    case 'INTEGER':
      return `IntType(bitWidth=${String.fromCharCode(logical.bitWidth)}, isSigned=${logical.isSigned ? 1 : 0})`;
    case 'FLOAT16': return 'Float16Type()';
    case 'MAP': return 'MapType()';
    case 'LIST': return 'ListType()';
    case 'VARIANT': return 'VariantType()';
    case undefined: return 'UnknownType()'; // a LogicalType union member hyparquet does not know
    default: return `${logical.type}Type()`; // UUID, BSON, NULL, GEOMETRY, GEOGRAPHY, FILE
  }
}

function elementSpecType(element) {
  return specTypeOf({
    physical: element.type,
    repetition: element.repetition_type,
    numChildren: element.num_children ?? 0,
    converted: element.converted_type ?? null,
    logical: thriftLogical(element.logical_type),
    scale: element.scale ?? element.logical_type?.scale ?? 0,
    precision: element.precision ?? element.logical_type?.precision ?? null,
  });
}

// Top-level schema elements (index into metadata.schema) in file order.
function topLevel(schema) {
  const indexes = [];
  let index = 1;
  const skip = () => {
    const children = schema[index].num_children ?? 0;
    index += 1;
    for (let i = 0; i < children; i++) skip();
  };
  for (let i = 0; i < (schema[0].num_children ?? 0); i++) {
    indexes.push(index);
    skip();
  }
  return indexes;
}

// Big-endian two's complement bytes -> BigInt.
function bytesToBigInt(bytes) {
  let value = 0n;
  for (const byte of bytes) value = (value << 8n) | BigInt(byte);
  return bytes.length ? BigInt.asIntN(bytes.length * 8, value) : 0n;
}

function normalise(value, type) {
  if (value === null || value === undefined) return null;
  if (type.startsWith('decimal')) return value instanceof Uint8Array ? bytesToBigInt(value) : BigInt(value);
  if (type === 'float16' || type === 'float32' || type === 'float64') return Number(value);
  if (type === 'string' || type === 'binary') {
    if (typeof value === 'string') return new TextEncoder().encode(value);
    return value;
  }
  return value;
}

// [{ name, type }] of the top-level fields of hyparquet-parsed metadata, spec types.
export function topLevelTypes(metadata) {
  const schema = metadata.schema;
  return topLevel(schema).map((i) => ({ name: schema[i].name, type: elementSpecType(schema[i]) }));
}

// Reads `file` with hyparquet; visit(field, value) for every value of the selected columns, in
// row order per column. Returns { rows, fields }.
async function scanColumns(file, columns, visit) {
  const buffer = await asyncBufferFromFile(file);
  const metadata = await parquetMetadataAsync(buffer, { parsers: RAW_PARSERS });
  const schema = metadata.schema;
  const fields = topLevelTypes(metadata);
  // hyparquet's copy without the DECIMAL annotations of top-level columns (see the top of the
  // file). Decimals inside nested columns keep hyparquet's conversion (only digested, and the
  // unscaled bytes' width is the writer's choice: DuckDB pads DECIMAL(21,1) to 16 bytes).
  const topLeaves = new Set(topLevel(schema).filter((i) => !schema[i].num_children));
  const readSchema = schema.map((e, i) => (topLeaves.has(i) &&
    (e.converted_type === 'DECIMAL' || e.logical_type?.type === 'DECIMAL')
    ? { ...e, converted_type: undefined, logical_type: undefined } : e));
  const selected = columns
    ? columns.map((name) => {
      const found = fields.find((f) => f.name === name);
      if (!found) throw new Error(`no column '${name}' in ${file}`);
      return found;
    })
    : fields;
  const byName = new Map(selected.map((f) => [f.name, f]));
  const chunks = new Map(selected.map((f) => [f.name, []]));
  const rows = metadata.row_groups.reduce((n, rg) => n + Number(rg.num_rows), 0);
  await parquetRead({
    file: buffer,
    metadata: { ...metadata, schema: readSchema },
    columns: selected.map((f) => f.name),
    compressors,
    parsers: RAW_PARSERS,
    utf8: false,
    onChunk({ columnName, columnData, rowStart, rowEnd }) {
      if (!byName.has(columnName)) return;
      if (columnData.length < rowEnd - rowStart) {
        throw new Error(`column '${columnName}': ${columnData.length} values for ${rowEnd - rowStart} rows`);
      }
      chunks.get(columnName).push({ rowStart, rowEnd, columnData });
    },
  });
  for (const field of selected) {
    const list = chunks.get(field.name).sort((x, y) => x.rowStart - y.rowStart);
    let next = 0;
    for (const { rowStart, rowEnd, columnData } of list) {
      if (rowStart !== next) throw new Error(`column '${field.name}': rows ${next}..${rowStart} not delivered`);
      for (let i = 0; i < rowEnd - rowStart; i++) visit(field, normalise(columnData[i], field.type));
      next = rowEnd;
    }
    if (next !== rows) throw new Error(`column '${field.name}': hyparquet delivered ${next} of ${rows} rows`);
  }
  return { rows, fields: selected };
}

export async function hyparquetSummary(file, { columns } = {}) {
  const accumulators = new Map();
  const { rows, fields } = await scanColumns(file, columns, (field, value) => {
    let acc = accumulators.get(field.name);
    if (!acc) accumulators.set(field.name, (acc = new ColumnAccumulator(field.name, field.type)));
    acc.add(value);
  });
  return summaryLine(rows, fields.map((f) => (accumulators.get(f.name) ?? new ColumnAccumulator(f.name, f.type)).result()));
}

// { column: "rows:sha256" } over every value (see value_summary.mjs).
export async function hyparquetDigest(file, { columns } = {}) {
  const digests = new Map();
  const { fields } = await scanColumns(file, columns, (field, value) => {
    let d = digests.get(field.name);
    if (!d) digests.set(field.name, (d = new ColumnDigest()));
    d.add(value);
  });
  return Object.fromEntries(fields.map((f) => [f.name, (digests.get(f.name) ?? new ColumnDigest()).result()]));
}
