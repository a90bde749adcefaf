// Count / nulls / min / max of one column computed in JavaScript from values an engine hands over
// (parquet-wasm through Arrow JS, hyparquet), with the ordering rules of
// /work/shared/SCAN-SUMMARY.md; the text comes from summary_format.mjs.
//
// Values are given normalised by the engine module:
//   integers, decimals (unscaled), dates (days), times and timestamps (count of the type's unit):
//     BigInt (or a safe-integer Number)
//   floats: Number (float16 / float32 widened exactly); bool: boolean
//   string and binary: Uint8Array (compared bytewise, strings written as UTF-8 text)
//   nested: anything non-null (only nulls are counted)
//   null / undefined: a null
import { createHash } from 'node:crypto';
import {
  compareBytes, formatBinary, formatDate, formatDecimal, formatFloat32, formatFloat64,
  formatInteger, formatTime, formatTimestamp, integerWidth, truncateInteger,
} from './summary_format.mjs';

function kindOf(type) {
  if (type === 'nested') return 'nested';
  if (type === 'bool') return 'bool';
  if (type === 'float16' || type === 'float32' || type === 'float64') return 'float';
  if (type === 'string' || type === 'binary') return 'bytes';
  return 'integer'; // intN, uintN, decimal, date, time, timestamp
}

export class ColumnAccumulator {
  constructor(name, type) {
    this.name = name;
    this.type = type;
    this.kind = kindOf(type);
    this.truncate = integerWidth(type) !== null;
    this.count = 0;
    this.nulls = 0;
    this.min = null;
    this.max = null;
    this.sawNaN = false;
  }

  add(value) {
    if (value === null || value === undefined) {
      this.nulls += 1;
      return;
    }
    this.count += 1;
    switch (this.kind) {
      case 'nested':
        return;
      case 'float':
        if (Number.isNaN(value)) {
          this.sawNaN = true;
          return;
        }
        // -0 and +0 compare equal: keep whichever came first, both print `0`.
        if (this.min === null || value < this.min) this.min = value;
        if (this.max === null || value > this.max) this.max = value;
        return;
      case 'bytes':
        if (this.min === null || compareBytes(value, this.min) < 0) this.min = value;
        if (this.max === null || compareBytes(value, this.max) > 0) this.max = value;
        return;
      case 'bool':
        if (this.min === null || (!value && this.min)) this.min = value;
        if (this.max === null || (value && !this.max)) this.max = value;
        return;
      default: {
        const v = this.truncate ? truncateInteger(value, this.type) : BigInt(value);
        if (this.min === null || v < this.min) this.min = v;
        if (this.max === null || v > this.max) this.max = v;
      }
    }
  }

  // Adds `n` nulls at once (a column chunk the engine reports as all-null).
  addNulls(n) {
    this.nulls += n;
  }

  format(value) {
    const type = this.type;
    if (value === null) return null;
    switch (this.kind) {
      case 'float': return type === 'float64' ? formatFloat64(value) : formatFloat32(value);
      case 'bool': return value ? 'true' : 'false';
      case 'bytes':
        return type === 'string' ? Buffer.from(value.buffer, value.byteOffset, value.length).toString('utf8')
          : formatBinary(value);
      default:
        break;
    }
    if (type.startsWith('decimal')) return formatDecimal(value, Number(/,(\d+)\)/.exec(type)[1]));
    if (type === 'date') return formatDate(value);
    if (type.startsWith('timestamp')) return formatTimestamp(value, /\[(\w+)\]/.exec(type)[1]);
    if (type.startsWith('time')) return formatTime(value, /\[(\w+)\]/.exec(type)[1]);
    return formatInteger(value);
  }

  // { name, type, count, nulls, min, max } for summaryLine().
  result() {
    let min = this.format(this.min);
    let max = this.format(this.max);
    if (this.kind === 'float' && this.count > 0 && this.min === null && this.sawNaN) min = max = 'NaN';
    return { name: this.name, type: this.type, count: this.count, nulls: this.nulls, min, max };
  }
}

// ---------------------------------------------------------------------------------------------
// Digests of every value (check_writer.mjs compares an engine's reading of a file and of its
// rewrite): one sha256 per column over a canonical text of each row's value, in row order.
// -0, NaN, bigints and bytes keep their identity (JSON alone would merge them).

function canonicalReplacer(key, value) {
  if (typeof value === 'bigint') return `i${value}`;
  if (typeof value === 'number') return Object.is(value, -0) ? 'f-0' : `f${value}`; // NaN, Infinity too
  if (value instanceof Uint8Array) return `b${Buffer.from(value.buffer, value.byteOffset, value.length).toString('hex')}`;
  if (ArrayBuffer.isView(value)) return Array.from(value);
  if (value instanceof Map) return { map: [...value.entries()] };
  if (value instanceof Date) return `d${value.getTime()}`;
  if (value && typeof value.toJSON !== 'function' && typeof value.toArray === 'function') return [...value.toArray()];
  return value;
}

export function canonicalValue(value) {
  if (value === null || value === undefined) return 'null';
  return JSON.stringify(value, canonicalReplacer);
}

export class ColumnDigest {
  constructor() {
    this.hash = createHash('sha256');
    this.rows = 0;
  }

  add(value) {
    this.hash.update(canonicalValue(value));
    this.hash.update('\n');
    this.rows += 1;
  }

  result() {
    return `${this.rows}:${this.hash.digest('hex')}`;
  }
}
