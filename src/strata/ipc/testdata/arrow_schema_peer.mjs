// Interop peer for strata's Arrow IPC schema message, using the `apache-arrow` npm package (an
// implementation strata did not write). Run by schema_message_test:
//   node arrow_schema_peer.mjs ARROW_DIR read STREAM_FILE
//       reads an IPC stream (strata's schema message + end-of-stream marker) with tableFromIPC
//       and prints its schema, one field per line, children indented by two spaces.
//   node arrow_schema_peer.mjs ARROW_DIR write STREAM_FILE
//       writes the IPC stream of an empty table whose schema has many types.
// ARROW_DIR is the apache-arrow package directory (imported by path, so the package may live
// outside the source tree's node_modules).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const [arrowDir, mode, file] = process.argv.slice(2);
const arrow = await import(pathToFileURL(join(arrowDir, 'Arrow.node.mjs')).href);
const { Type, TimeUnit, DateUnit, Precision, Field, Schema, Table } = arrow;

function describeType(type) {
  const name = Type[type.typeId];
  switch (type.typeId) {
    case Type.Int: return `Int(bitWidth=${type.bitWidth}, signed=${type.isSigned})`;
    case Type.Float: return `Float(${Precision[type.precision]})`;
    case Type.Decimal: return `Decimal(precision=${type.precision}, scale=${type.scale}, bitWidth=${type.bitWidth})`;
    case Type.Date: return `Date(${DateUnit[type.unit]})`;
    case Type.Time: return `Time(${TimeUnit[type.unit]}, bitWidth=${type.bitWidth})`;
    case Type.Timestamp: return `Timestamp(${TimeUnit[type.unit]}, tz=${type.timezone ?? 'none'})`;
    case Type.Duration: return `Duration(${TimeUnit[type.unit]})`;
    case Type.FixedSizeBinary: return `FixedSizeBinary(${type.byteWidth})`;
    case Type.FixedSizeList: return `FixedSizeList(${type.listSize})`;
    case Type.Map: return `Map(keysSorted=${type.keysSorted})`;
    case Type.Dictionary:
      return `Dictionary(id=${type.id}, ordered=${type.isOrdered}, indices=${describeType(type.indices)}, ` +
             `values=${describeType(type.dictionary)})`;
    default: return name;
  }
}

function describeMetadata(metadata, indent, lines) {
  for (const [key, value] of metadata ?? new Map()) lines.push(`${indent}  [${key}=${value}]`);
}

function describeField(field, indent, lines) {
  lines.push(`${indent}${field.name}: ${describeType(field.type)}${field.nullable ? '' : ' not null'}`);
  describeMetadata(field.metadata, indent, lines);
  const children = field.type.typeId === Type.Dictionary ? field.type.dictionary.children : field.type.children;
  for (const child of children ?? []) describeField(child, indent + '  ', lines);
}

if (mode === 'read') {
  const table = arrow.tableFromIPC(readFileSync(file));
  const lines = [];
  for (const field of table.schema.fields) describeField(field, '', lines);
  describeMetadata(table.schema.metadata, '', lines);
  console.log(lines.join('\n'));
} else if (mode === 'write') {
  const f = (name, type, nullable = true, metadata = undefined) => new Field(name, type, nullable, metadata);
  const entries = (key, value) =>
    f('entries', new arrow.Struct([f('key', key, false), f('value', value)]), false);
  const fields = [
    f('null', new arrow.Null()),
    f('bool', new arrow.Bool(), false),
    f('i8', new arrow.Int8()), f('i16', new arrow.Int16()), f('i32', new arrow.Int32()), f('i64', new arrow.Int64()),
    f('u8', new arrow.Uint8()), f('u16', new arrow.Uint16()), f('u32', new arrow.Uint32()),
    f('u64', new arrow.Uint64()),
    f('f16', new arrow.Float16()), f('f32', new arrow.Float32()), f('f64', new arrow.Float64()),
    f('dec128', new arrow.Decimal(2, 15, 128)), f('dec256', new arrow.Decimal(10, 60, 256)),
    f('date32', new arrow.DateDay()), f('date64', new arrow.DateMillisecond()),
    f('time_s', new arrow.TimeSecond()), f('time_ms', new arrow.TimeMillisecond()),
    f('time_us', new arrow.TimeMicrosecond()), f('time_ns', new arrow.TimeNanosecond()),
    f('ts_naive', new arrow.TimestampMicrosecond()),
    f('ts_utc', new arrow.TimestampNanosecond('UTC')),
    f('ts_ny', new arrow.TimestampSecond('America/New_York')),
    f('dur_ms', new arrow.DurationMillisecond()), f('dur_ns', new arrow.DurationNanosecond()),
    f('bin', new arrow.Binary()), f('str', new arrow.Utf8(), true, new Map([['k', 'v']])),
    f('large_bin', new arrow.LargeBinary()), f('large_str', new arrow.LargeUtf8()),
    f('bin_view', new arrow.BinaryView()), f('str_view', new arrow.Utf8View()),
    f('fsb', new arrow.FixedSizeBinary(16)),
    f('list', new arrow.List(f('item', new arrow.Int32(), false))),
    f('large_list', new arrow.LargeList(f('item', new arrow.Utf8()))),
    f('fsl', new arrow.FixedSizeList(3, f('item', new arrow.Float32()))),
    f('struct', new arrow.Struct([f('a', new arrow.Int64(), false), f('b', new arrow.List(f('item', new arrow.Utf8())))])),
    f('map', new arrow.Map_(entries(new arrow.Utf8(), new arrow.Int64()), true)),
    f('dict', new arrow.Dictionary(new arrow.Utf8(), new arrow.Int32(), 0, false)),
    f('dict_ordered', new arrow.Dictionary(new arrow.Utf8(), new arrow.Int16(), 1, true)),
  ];
  const schema = new Schema(fields, new Map([['origin', 'apache-arrow js']]));
  writeFileSync(file, arrow.tableToIPC(new Table(schema), 'stream'));
} else {
  console.error(`usage: node arrow_schema_peer.mjs ARROW_DIR read|write STREAM_FILE (got ${mode})`);
  process.exit(2);
}
