// Tests of the scan-summary formatting rules: node --test testing/peers/
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DuckDBInstance } from '@duckdb/node-api';
import {
  compareBytes, decimalTextToUnscaled, float16BitsToNumber, formatBinary, formatDate, formatDecimal,
  formatFloat32, formatFloat64, formatTime, formatTimestamp, int96ToNanos, specTypeOf,
  summaryLine, truncateInteger,
} from './summary_format.mjs';

test('float64: shortest round-trip text in the spec form', () => {
  assert.equal(formatFloat64(0.1), '0.1');
  assert.equal(formatFloat64(1e21), '1e+21');
  assert.equal(formatFloat64(5e-324), '5e-324');
  assert.equal(formatFloat64(Infinity), 'Infinity');
  assert.equal(formatFloat64(-Infinity), '-Infinity');
  assert.equal(formatFloat64(NaN), 'NaN');
  assert.equal(formatFloat64(-0), '0');
  assert.equal(formatFloat64(10.1), '10.1');
  assert.equal(formatFloat64(-1.5e-7), '-1.5e-7');
});

test('float32: shortest text that round-trips to the same float32', () => {
  assert.equal(formatFloat32(Math.fround(3.4028234663852886e38)), '3.4028235e+38');
  assert.equal(formatFloat32(Math.fround(1.1)), '1.1');
  assert.equal(formatFloat32(Math.fround(0.1)), '0.1');
  assert.equal(formatFloat32(16777216), '16777216');
  assert.equal(formatFloat32(Math.fround(1e-45)), '1e-45'); // smallest subnormal
  assert.equal(formatFloat32(Math.fround(1.17549435e-38)), '1.1754944e-38'); // smallest normal
  assert.equal(formatFloat32(-0), '0');
  assert.equal(formatFloat32(NaN), 'NaN');
  assert.equal(formatFloat32(-Infinity), '-Infinity');
});

test('float16 converts exactly and prints as float32', () => {
  assert.equal(formatFloat32(float16BitsToNumber(0x2e66)), '0.099975586'); // float16 nearest 0.1
  assert.equal(float16BitsToNumber(0x7bff), 65504);
  assert.equal(float16BitsToNumber(0x0001), 2 ** -24);
  assert.equal(Object.is(float16BitsToNumber(0x8000), -0), true);
  assert.ok(Number.isNaN(float16BitsToNumber(0x7e00)));
  assert.equal(float16BitsToNumber(0xfc00), -Infinity);
});

// Exact check against the round-trip interval: the text lies strictly between the midpoints to
// the neighbouring float32 values, and no decimal with one digit fewer does.
function float32Neighbours(x) {
  const f = new Float32Array(1);
  const u = new Uint32Array(f.buffer);
  f[0] = x;
  const bits = u[0];
  u[0] = bits + 1; const next = f[0];
  u[0] = bits - 1; const prev = f[0];
  return x > 0 ? [prev, next] : [next, prev];
}

function digitCount(text) {
  return text.replace(/e.*/, '').replace(/[-.]/g, '').replace(/^0+/, '').replace(/0+$/, '').length;
}

test('float32: randomized, round-trips and is minimal; agrees with DuckDB on digits', async () => {
  const f = new Float32Array(1);
  const u = new Uint32Array(f.buffer);
  let seed = 12345;
  const values = [];
  for (let i = 0; i < 4000; i++) {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    u[0] = seed;
    if (!Number.isFinite(f[0]) || f[0] === 0) continue;
    values.push(f[0]);
  }
  for (const x of values) {
    const text = formatFloat32(x);
    assert.equal(Math.fround(Number(text)), x, `${text} does not round-trip to ${x}`);
    const p = digitCount(text);
    if (p > 1) {
      const [low, high] = float32Neighbours(Math.abs(x));
      const lo = (low + Math.abs(x)) / 2;
      const hi = (high + Math.abs(x)) / 2;
      const [mantissa, exponent] = Math.abs(x).toExponential(p - 2).split('e');
      const digits = BigInt(mantissa.replace('.', ''));
      for (const d of [digits - 1n, digits, digits + 1n]) {
        const candidate = Number(`${d}e${Number(exponent) - (p - 2)}`);
        assert.ok(!(candidate > lo && candidate < hi), `${x}: ${candidate} is shorter than ${text}`);
      }
    }
  }
  // DuckDB prints FLOAT with shortest digits (except whole numbers, which it writes in full):
  // ours must never be longer.
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  const sample = values.slice(0, 500);
  const reader = await connection.runAndReadAll(
    `SELECT v::VARCHAR AS t FROM (SELECT unnest([${sample.map((v) => `${v}::DOUBLE::FLOAT`).join(',')}]) AS v)`);
  const duck = reader.getRowObjects().map((r) => r.t);
  sample.forEach((x, i) => {
    const ours = formatFloat32(x);
    assert.equal(Math.fround(Number(duck[i])), x);
    assert.ok(digitCount(ours) <= digitCount(duck[i].replace(/\.0$/, '')),
      `${x}: ours ${ours}, DuckDB ${duck[i]}`);
  });
  connection.closeSync();
  instance.closeSync();
});

test('decimals are exact with exactly S fraction digits', () => {
  assert.equal(formatDecimal(-1250n, 2), '-12.50');
  assert.equal(formatDecimal(-5n, 2), '-0.05');
  assert.equal(formatDecimal(0n, 3), '0.000');
  assert.equal(formatDecimal(123n, 0), '123');
  const big = 10n ** 37n - 1n;
  assert.equal(formatDecimal(big, 10), `${'9'.repeat(27)}.${'9'.repeat(10)}`);
  assert.equal(decimalTextToUnscaled('-0.5', 2), -50n);
  assert.equal(decimalTextToUnscaled('12', 3), 12000n);
  assert.throws(() => decimalTextToUnscaled('1.234', 2));
});

test('dates: proleptic Gregorian, 4+ digit years, negative years', () => {
  assert.equal(formatDate(0), '1970-01-01');
  assert.equal(formatDate(-719162), '0001-01-01');
  assert.equal(formatDate(-719163), '0000-12-31'); // year 0 = 1 BC
  assert.equal(formatDate(2932896), '9999-12-31');
  assert.equal(formatDate(2932897), '10000-01-01');
  // 15 March 44 BC is year -43 in astronomical numbering; -0044-03-15 is 45 BC.
  assert.equal(formatDate(Date.UTC(2000, 0, 1) / 864e5), '2000-01-01');
  const d = new Date(0);
  d.setUTCFullYear(-44, 2, 15);
  assert.equal(formatDate(Math.round(d.getTime() / 864e5)), '-0044-03-15');
  // Randomized against JavaScript's own proleptic Gregorian calendar (+-275,000 years).
  let seed = 7;
  for (let i = 0; i < 5000; i++) {
    seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
    const day = (seed % 200000000) - 100000000;
    const date = new Date(day * 864e5);
    const y = date.getUTCFullYear();
    const year = y < 0 ? `-${String(-y).padStart(4, '0')}` : String(y).padStart(4, '0');
    const expected = `${year}-${String(date.getUTCMonth() + 1).padStart(2, '0')}-` +
      `${String(date.getUTCDate()).padStart(2, '0')}`;
    assert.equal(formatDate(day), expected);
  }
});

test('timestamps and times: fraction only when non-zero, no trailing zeros', () => {
  assert.equal(formatTimestamp(1235865600000n, 'ms'), '2009-03-01T00:00:00');
  assert.equal(formatTimestamp(-1n, 'ms'), '1969-12-31T23:59:59.999');
  assert.equal(formatTimestamp(1500000n, 'us'), '1970-01-01T00:00:01.5');
  assert.equal(formatTimestamp(1n, 'ns'), '1970-01-01T00:00:00.000000001');
  assert.equal(formatTimestamp(-62135596800n, 's'), '0001-01-01T00:00:00');
  assert.equal(formatTime(43201500n, 'ms'), '12:00:01.5');
  assert.equal(formatTime(0n, 'ns'), '00:00:00');
  assert.equal(formatTime(86399999999999n, 'ns'), '23:59:59.999999999');
});

test('INT96 -> nanoseconds with wrapping 64-bit arithmetic', () => {
  const int96 = (nanos, julianDay) => {
    const bytes = new Uint8Array(12);
    const view = new DataView(bytes.buffer);
    view.setBigInt64(0, nanos, true);
    view.setInt32(8, julianDay, true);
    return bytes;
  };
  assert.equal(int96ToNanos(int96(0n, 2440588)), 0n);
  assert.equal(formatTimestamp(int96ToNanos(int96(60n * 10n ** 9n, 2454892)), 'ns'),
    '2009-03-01T00:01:00');
  // 290000-12-31T01:00:00+02:00 from int96_from_spark.md wraps around.
  const us = 9089380393200000000n;
  const day = us / 86400000000n;
  const nanos = (us % 86400000000n) * 1000n;
  assert.equal(int96ToNanos(int96(nanos, Number(day + 2440588n))), BigInt.asIntN(64, us * 1000n));
});

test('binary values and bytewise order', () => {
  assert.equal(formatBinary(new Uint8Array()),
    'len=0;sha256=e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  assert.equal(formatBinary(Buffer.from('abc')),
    'len=3;sha256=ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  assert.ok(compareBytes(Uint8Array.of(0x7f), Uint8Array.of(0x80)) < 0);
  assert.ok(compareBytes(Uint8Array.of(1), Uint8Array.of(1, 0)) < 0);
});

test('small integers stored in INT32 are truncated to their width', () => {
  assert.equal(truncateInteger(300, 'int8'), 44n);
  assert.equal(truncateInteger(-129, 'int8'), 127n);
  assert.equal(truncateInteger(-1, 'uint16'), 65535n);
  assert.equal(truncateInteger(-1, 'uint32'), 4294967295n);
  assert.equal(truncateInteger(123, 'int32'), 123n);
});

test('types from Parquet schema elements', () => {
  const leaf = (physical, extra = {}) => ({ physical, repetition: 'OPTIONAL', numChildren: 0,
    converted: null, logical: null, scale: null, precision: null, ...extra });
  assert.equal(specTypeOf(leaf('INT96')), 'timestamp[ns]');
  assert.equal(specTypeOf(leaf('BYTE_ARRAY')), 'binary');
  assert.equal(specTypeOf(leaf('BYTE_ARRAY', { converted: 'UTF8' })), 'string');
  assert.equal(specTypeOf(leaf('BYTE_ARRAY', { converted: 'BSON' })), 'binary');
  assert.equal(specTypeOf(leaf('INT32', { converted: 'DECIMAL', precision: 4, scale: 2 })), 'decimal(4,2)');
  assert.equal(specTypeOf(leaf('INT32', { converted: 'INT_8', logical: `IntType(bitWidth=${String.fromCharCode(8)}, isSigned=1)` })), 'int8');
  assert.equal(specTypeOf(leaf('INT64', { logical: 'IntType(bitWidth=@, isSigned=0)' })), 'uint64');
  assert.equal(specTypeOf(leaf('INT32', { converted: 'UINT_16' })), 'uint16');
  assert.equal(specTypeOf(leaf('INT64', { logical: 'TimestampType(isAdjustedToUTC=1, unit=TimeUnit(MILLIS=<null>, MICROS=<null>, NANOS=NanoSeconds()))' })), 'timestamp[ns]');
  assert.equal(specTypeOf(leaf('INT32', { converted: 'TIME_MILLIS' })), 'time[ms]');
  assert.equal(specTypeOf(leaf('FIXED_LEN_BYTE_ARRAY', { logical: 'Float16Type()' })), 'float16');
  assert.equal(specTypeOf(leaf('FIXED_LEN_BYTE_ARRAY', { logical: 'UUIDType()' })), 'binary');
  assert.equal(specTypeOf(leaf('FIXED_LEN_BYTE_ARRAY', { converted: 'INTERVAL' })), 'binary');
  assert.equal(specTypeOf(leaf('BYTE_ARRAY', { logical: 'SomeFutureType()' })), 'binary');
  assert.equal(specTypeOf(leaf('INT32', { repetition: 'REPEATED' })), 'nested');
  assert.equal(specTypeOf({ physical: null, numChildren: 2 }), 'nested');
});

test('summary line keys, order and nulls', () => {
  const line = summaryLine(3, [
    { name: 'a', type: 'int32', count: 0, nulls: 3, min: 'x', max: 'y' },
    { name: 'b', type: 'nested', count: 3, nulls: 0, min: null, max: null },
    { name: 'c"', type: 'string', count: 3, nulls: 0, min: 'a', max: 'b' },
  ]);
  assert.equal(line, '{"rows":3,"columns":[' +
    '{"name":"a","type":"int32","count":0,"nulls":3,"min":null,"max":null},' +
    '{"name":"b","type":"nested","count":null,"nulls":0,"min":null,"max":null},' +
    '{"name":"c\\"","type":"string","count":3,"nulls":0,"min":"a","max":"b"}]}');
});
