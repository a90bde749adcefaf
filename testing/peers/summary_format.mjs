// Formatting rules of the scan summary (/work/shared/SCAN-SUMMARY.md), shared by every peer engine.
// Engines compute count / nulls / min / max; this module names the types and writes the values,
// so DuckDB and Polars lines differ only where the engines read different values.
import { createHash } from 'node:crypto';

// ---------------------------------------------------------------------------------------------
// Floats

// Shortest text that round-trips to the same float64, in ECMAScript Number::toString form
// (`0.1`, `1e+21`, `5e-324`), which is the form the spec's examples use.
export function formatFloat64(x) {
  if (Number.isNaN(x)) return 'NaN';
  if (x === 0) return '0'; // -0 and +0 compare equal and are both written `0`
  return String(x); // also `Infinity` / `-Infinity`
}

// Shortest text that round-trips to the same float32. `x` is the float32 value widened (exactly)
// to a double. For each digit count p we try the correctly rounded p-digit decimal and its two
// neighbours: at a power of two the round-trip interval is lopsided, and the nearest p-digit
// decimal can fall outside it while a neighbour is inside.
export function formatFloat32(x) {
  if (Number.isNaN(x)) return 'NaN';
  if (x === 0) return '0';
  if (!Number.isFinite(x)) return String(x);
  for (let p = 1; p <= 9; p++) {
    const [mantissa, exponent] = x.toExponential(p - 1).split('e');
    const digits = BigInt(mantissa.replace('.', '').replace('-', ''));
    const sign = x < 0 ? '-' : '';
    let best = null;
    for (const candidate of [digits, digits - 1n, digits + 1n]) {
      if (candidate <= 0n) continue;
      const value = Number(`${sign}${candidate}e${Number(exponent) - (p - 1)}`);
      if (Math.fround(value) !== x) continue;
      if (best === null || Math.abs(value - x) < Math.abs(best - x)) best = value;
    }
    if (best !== null) return String(best);
  }
  throw new Error(`no round-trip text for float32 ${x}`); // unreachable: 9 digits always suffice
}

// IEEE half-precision bits -> float32 value (every float16 is exact in float32 and in a double).
export function float16BitsToNumber(bits) {
  const sign = bits & 0x8000 ? -1 : 1;
  const exponent = (bits >> 10) & 0x1f;
  const fraction = bits & 0x3ff;
  if (exponent === 0) return sign * fraction * 2 ** -24;
  if (exponent === 31) return fraction ? NaN : sign * Infinity;
  return sign * (1 + fraction / 1024) * 2 ** (exponent - 15);
}

// ---------------------------------------------------------------------------------------------
// Integers and decimals

export function formatInteger(value) {
  return BigInt(value).toString();
}

// Exact decimal text from the unscaled integer, with exactly `scale` fraction digits: `-12.50`.
export function formatDecimal(unscaled, scale) {
  const value = BigInt(unscaled);
  const negative = value < 0n;
  const digits = (negative ? -value : value).toString();
  if (scale === 0) return (negative ? '-' : '') + digits;
  const padded = digits.padStart(scale + 1, '0');
  const whole = padded.slice(0, padded.length - scale);
  const fraction = padded.slice(padded.length - scale);
  return `${negative ? '-' : ''}${whole}.${fraction}`;
}

// Parse decimal text such as `-0.50` or `12` (as some engines print decimals) to the unscaled
// integer at `scale`; throws if the text has more fraction digits than the scale allows.
export function decimalTextToUnscaled(text, scale) {
  const match = /^(-?)(\d*)(?:\.(\d*))?$/.exec(String(text).trim());
  if (!match) throw new Error(`not a decimal: '${text}'`);
  const [, sign, whole, fraction = ''] = match;
  if (fraction.replace(/0+$/, '').length > scale) {
    throw new Error(`decimal '${text}' has more than ${scale} fraction digits`);
  }
  const unscaled = BigInt((whole || '0') + fraction.padEnd(scale, '0'));
  return sign ? -unscaled : unscaled;
}

// ---------------------------------------------------------------------------------------------
// Dates and times

const UNIT_PER_SECOND = { s: 1n, ms: 1000n, us: 1000000n, ns: 1000000000n };

function floorDiv(a, b) {
  const q = a / b;
  return a % b !== 0n && (a < 0n) !== (b < 0n) ? q - 1n : q;
}

function pad(value, width) {
  return String(value).padStart(width, '0');
}

function formatYear(year) {
  return year < 0 ? `-${pad(-year, 4)}` : pad(year, 4);
}

// Days since 1970-01-01 -> proleptic Gregorian `YYYY-MM-DD` (year 0 = 1 BC, negative years with
// `-`, at least 4 digits). Civil-from-days over 400-year eras, in BigInt so any int64 day works.
export function formatDate(daysSinceEpoch) {
  const z = BigInt(daysSinceEpoch) + 719468n;
  const era = floorDiv(z, 146097n);
  const dayOfEra = z - era * 146097n;
  const yearOfEra = (dayOfEra - dayOfEra / 1460n + dayOfEra / 36524n - dayOfEra / 146096n) / 365n;
  const dayOfYear = dayOfEra - (365n * yearOfEra + yearOfEra / 4n - yearOfEra / 100n);
  const mp = (5n * dayOfYear + 2n) / 153n;
  const day = dayOfYear - (153n * mp + 2n) / 5n + 1n;
  const month = mp < 10n ? mp + 3n : mp - 9n;
  const year = yearOfEra + era * 400n + (month <= 2n ? 1n : 0n);
  return `${formatYear(Number(year))}-${pad(month, 2)}-${pad(day, 2)}`;
}

// `.fraction` without trailing zeros, or nothing when the sub-second part is zero.
function formatFraction(subsecond, unit) {
  if (subsecond === 0n) return '';
  const width = UNIT_PER_SECOND[unit].toString().length - 1;
  return `.${pad(subsecond, width).replace(/0+$/, '')}`;
}

function formatClock(secondsOfDay) {
  const hours = secondsOfDay / 3600n;
  const minutes = (secondsOfDay / 60n) % 60n;
  const seconds = secondsOfDay % 60n;
  return `${pad(hours, 2)}:${pad(minutes, 2)}:${pad(seconds, 2)}`;
}

// A count of `unit`s since the epoch (any sign) -> `YYYY-MM-DDTHH:MM:SS[.fraction]`.
export function formatTimestamp(value, unit) {
  const perSecond = UNIT_PER_SECOND[unit];
  const v = BigInt(value);
  const seconds = floorDiv(v, perSecond);
  const subsecond = v - seconds * perSecond;
  const days = floorDiv(seconds, 86400n);
  const secondsOfDay = seconds - days * 86400n;
  return `${formatDate(days)}T${formatClock(secondsOfDay)}${formatFraction(subsecond, unit)}`;
}

// A count of `unit`s since midnight -> `HH:MM:SS[.fraction]`.
export function formatTime(value, unit) {
  const perSecond = UNIT_PER_SECOND[unit];
  const v = BigInt(value);
  const seconds = floorDiv(v, perSecond);
  return `${formatClock(seconds)}${formatFraction(v - seconds * perSecond, unit)}`;
}

// INT96 (8 bytes nanoseconds of day, then 4 bytes Julian day, little-endian) -> nanoseconds
// since the epoch, in wrapping 64-bit arithmetic as the spec demands.
export function int96ToNanos(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, 12);
  const nanosOfDay = view.getBigInt64(0, true);
  const julianDay = BigInt(view.getInt32(8, true));
  return BigInt.asIntN(64, (julianDay - 2440588n) * 86400000000000n + nanosOfDay);
}

// ---------------------------------------------------------------------------------------------
// Bytes

export function formatBinary(bytes) {
  const hash = createHash('sha256').update(bytes).digest('hex');
  return `len=${bytes.length};sha256=${hash}`;
}

export function compareBytes(a, b) {
  return Buffer.compare(Buffer.from(a.buffer, a.byteOffset, a.length),
                        Buffer.from(b.buffer, b.byteOffset, b.length));
}

// ---------------------------------------------------------------------------------------------
// Types

const INT_CONVERTED = {
  INT_8: 'int8', INT_16: 'int16', INT_32: 'int32', INT_64: 'int64',
  UINT_8: 'uint8', UINT_16: 'uint16', UINT_32: 'uint32', UINT_64: 'uint64',
};
const TIME_UNIT_FROM_THRIFT = { MILLIS: 'ms', MICROS: 'us', NANOS: 'ns' };

// The unit inside a printed thrift TimeUnit: `unit=TimeUnit(MILLIS=<null>, MICROS=MicroSeconds(), ...)`.
function thriftTimeUnit(logical) {
  for (const [name, unit] of Object.entries(TIME_UNIT_FROM_THRIFT)) {
    const m = new RegExp(`${name}=([^,)]*)`).exec(logical);
    if (m && m[1] !== '<null>') return unit;
  }
  return null;
}

function physicalType(physical) {
  switch (physical) {
    case 'BOOLEAN': return 'bool';
    case 'INT32': return 'int32';
    case 'INT64': return 'int64';
    case 'INT96': return 'timestamp[ns]';
    case 'FLOAT': return 'float32';
    case 'DOUBLE': return 'float64';
    default: return 'binary'; // BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY
  }
}

// The spec type of one top-level schema element, given as the fields of a Parquet SchemaElement:
// { physical, repetition, numChildren, converted, logical (printed thrift LogicalType or null),
//   scale, precision }. LogicalType wins over ConvertedType; an annotation that does not fit the
// physical type is ignored (as readers do) and the physical type decides.
export function specTypeOf(element) {
  const { physical, repetition, numChildren, converted, logical, scale, precision } = element;
  if (!physical || numChildren > 0 || repetition === 'REPEATED') return 'nested';
  const isInt = physical === 'INT32' || physical === 'INT64';
  const isBytes = physical === 'BYTE_ARRAY' || physical === 'FIXED_LEN_BYTE_ARRAY';
  const decimal = `decimal(${precision},${scale ?? 0})`;
  const logicalName = logical ? /^(\w+)/.exec(logical)?.[1] : null;
  switch (logicalName) {
    case 'StringType': case 'EnumType': case 'JsonType':
      if (physical === 'BYTE_ARRAY') return 'string';
      break;
    case 'DecimalType':
      if (isInt || isBytes) return decimal;
      break;
    case 'DateType':
      if (physical === 'INT32') return 'date';
      break;
    case 'TimeType': {
      const unit = thriftTimeUnit(logical);
      if (unit && isInt) return `time[${unit}]`;
      break;
    }
    case 'TimestampType': {
      const unit = thriftTimeUnit(logical);
      if (unit && physical === 'INT64') return `timestamp[${unit}]`;
      break;
    }
    case 'IntType': {
      // DuckDB prints bitWidth as a raw byte (8 -> "\b", 64 -> "@"); take its char code.
      const m = /bitWidth=([\s\S]?), isSigned=(\d)/.exec(logical);
      if (m && isInt) {
        const width = m[1] ? m[1].charCodeAt(0) : 0;
        if ([8, 16, 32, 64].includes(width)) return `${m[2] === '1' ? '' : 'u'}int${width}`;
      }
      break;
    }
    case 'Float16Type':
      if (physical === 'FIXED_LEN_BYTE_ARRAY') return 'float16';
      break;
    case 'VariantType': case 'MapType': case 'ListType':
      return 'nested';
    default:
      break; // UUID, BSON, GEOMETRY, GEOGRAPHY, NULL, unknown: the physical type (bytes -> binary)
  }
  if (logicalName && isBytes) return 'binary';
  switch (converted) {
    case 'UTF8': case 'ENUM': case 'JSON':
      if (physical === 'BYTE_ARRAY') return 'string';
      break;
    case 'DECIMAL':
      if (isInt || isBytes) return decimal;
      break;
    case 'DATE':
      if (physical === 'INT32') return 'date';
      break;
    case 'TIME_MILLIS':
      if (physical === 'INT32') return 'time[ms]';
      break;
    case 'TIME_MICROS':
      if (physical === 'INT64') return 'time[us]';
      break;
    case 'TIMESTAMP_MILLIS':
      if (physical === 'INT64') return 'timestamp[ms]';
      break;
    case 'TIMESTAMP_MICROS':
      if (physical === 'INT64') return 'timestamp[us]';
      break;
    case 'MAP': case 'LIST': case 'MAP_KEY_VALUE':
      return 'nested';
    default:
      if (INT_CONVERTED[converted] && isInt) return INT_CONVERTED[converted];
  }
  return physicalType(physical);
}

// Width and signedness of an integer spec type (`uint16` -> {bits: 16, signed: false}).
export function integerWidth(type) {
  const m = /^(u?)int(8|16|32|64)$/.exec(type);
  return m ? { bits: Number(m[2]), signed: m[1] === '' } : null;
}

// INT_8/INT_16/UINT_8/UINT_16 (and 32-bit unsigned) stored in INT32 keep only their width.
export function truncateInteger(value, type) {
  const width = integerWidth(type);
  if (!width) return BigInt(value);
  return width.signed ? BigInt.asIntN(width.bits, BigInt(value))
                      : BigInt.asUintN(width.bits, BigInt(value));
}

// ---------------------------------------------------------------------------------------------
// The line

// columns: [{ name, type, count, nulls, min, max }] with min/max already formatted (or null).
// Keys in the spec's order; nested columns have count = min = max = null.
export function summaryLine(rows, columns) {
  const ordered = columns.map((c) => ({
    name: c.name,
    type: c.type,
    count: c.type === 'nested' ? null : c.count,
    nulls: c.nulls,
    min: c.type === 'nested' || c.count === 0 ? null : c.min,
    max: c.type === 'nested' || c.count === 0 ? null : c.max,
  }));
  return JSON.stringify({ rows, columns: ordered });
}
