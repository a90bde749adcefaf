// The tables check_ipc.mjs has Arrow JS and Polars write as Arrow IPC for strata to read: every
// flat type with nulls and edge values, nested types, dictionaries over several batches, null
// columns and an empty table. Deterministic (no clock, no Math.random).

// A small deterministic generator (LCG), so every run writes the same files.
function generator(seed) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s;
  };
}

const ROWS = 1000;

// ---------------------------------------------------------------------------------------------
// Arrow JS

// A fixed-width vector from a typed array of values (nulls where `valid(i)` is false).
function fixedVector(arrow, type, values, valid) {
  const length = type.typeId === arrow.Type.Decimal ? values.length / (type.bitWidth / 32) : values.length;
  const bitmap = new Uint8Array(Math.ceil(length / 8));
  let nulls = 0;
  for (let i = 0; i < length; i++) {
    if (valid(i)) bitmap[i >> 3] |= 1 << (i & 7);
    else nulls++;
  }
  return arrow.makeVector(arrow.makeData({ type, length, nullCount: nulls, nullBitmap: nulls ? bitmap : undefined, data: values }));
}

function flatTable(arrow) {
  const rnd = generator(1);
  const n = ROWS;
  const nth = (k) => (i) => i % k !== k - 1; // every k-th row null
  const ints = (bits, signed) => {
    const lo = signed ? -(2 ** (bits - 1)) : 0;
    const hi = signed ? 2 ** (bits - 1) - 1 : 2 ** bits - 1;
    return Array.from({ length: n }, (_, i) => (i === 0 ? lo : i === 1 ? hi : (i % 7 === 6 ? null : lo + (rnd() % (hi - lo + 1)))));
  };
  const big = (signed) => Array.from({ length: n }, (_, i) => {
    if (i === 0) return signed ? -(2n ** 63n) : 0n;
    if (i === 1) return signed ? 2n ** 63n - 1n : 2n ** 64n - 1n;
    if (i % 9 === 8) return null;
    const v = (BigInt(rnd()) << 32n) | BigInt(rnd());
    return signed ? BigInt.asIntN(64, v) : v;
  });
  const specials64 = [NaN, -0, 0, Infinity, -Infinity, 5e-324, 1.7976931348623157e308, 0.1];
  const specials32 = [NaN, -0, Math.fround(3.4028234663852886e38), Math.fround(1e-45), Math.fround(0.1)];
  const f64 = Array.from({ length: n }, (_, i) => (i < specials64.length ? specials64[i] : i % 11 === 10 ? null : (rnd() - 2 ** 31) / 1000));
  const f32 = Array.from({ length: n }, (_, i) => (i < specials32.length ? specials32[i] : i % 13 === 12 ? null : Math.fround((rnd() % 100000) / 7)));
  const words = ['', 'a', 'zz', 'ünïcødé 日本 🎉', 'NULL', 'with,comma', 'line\nbreak', '\u0000nul'];
  const strings = Array.from({ length: n }, (_, i) => (i < words.length ? words[i] : i % 10 === 9 ? null : `s${rnd() % 5000}`));
  const day = 86400000;
  const dates = Array.from({ length: n }, (_, i) => (i === 0 ? -719162 : i === 1 ? 2932896 : (rnd() % 40000) - 10000)); // 0001-01-01 .. 9999-12-31
  const validDate = nth(8);
  const ms = (i) => BigInt(dates[i]) * BigInt(day) + BigInt(rnd() % day);
  const time64 = (perDay) => BigInt64Array.from({ length: n }, () => (BigInt(rnd()) * BigInt(rnd())) % perDay);
  const ts = (mul) => BigInt64Array.from({ length: n }, (_, i) => ms(i) * mul + BigInt(rnd() % Number(mul || 1n)));
  const decimalWords = (unscaled) => {
    const out = new Uint32Array(unscaled.length * 4);
    unscaled.forEach((v, i) => {
      const u = BigInt.asUintN(128, v);
      for (let w = 0; w < 4; w++) out[i * 4 + w] = Number((u >> BigInt(32 * w)) & 0xffffffffn);
    });
    return out;
  };
  const dec = Array.from({ length: n }, (_, i) => (i === 0 ? -(10n ** 18n - 1n) : i === 1 ? 10n ** 18n - 1n : BigInt(rnd()) - 2n ** 31n));
  const binary = Array.from({ length: n }, (_, i) => (i % 6 === 5 ? null : Uint8Array.from({ length: i % 17 }, () => rnd() & 255)));
  const fixed = Array.from({ length: n }, (_, i) => (i % 5 === 4 ? null : Uint8Array.from({ length: 4 }, () => rnd() & 255)));
  const { Field, Schema, Table, vectorFromArray: v } = arrow;
  const columns = {
    i8: v(ints(8, true), new arrow.Int8()),
    i16: v(ints(16, true), new arrow.Int16()),
    i32: v(ints(32, true), new arrow.Int32()),
    i64: v(big(true), new arrow.Int64()),
    u8: v(ints(8, false), new arrow.Uint8()),
    u16: v(ints(16, false), new arrow.Uint16()),
    u32: v(ints(32, false), new arrow.Uint32()),
    u64: v(big(false), new arrow.Uint64()),
    f32: v(f32, new arrow.Float32()),
    f64: v(f64, new arrow.Float64()),
    f64_all_nan: v(Array.from({ length: n }, (_, i) => (i % 2 ? NaN : null)), new arrow.Float64()),
    s: v(strings, new arrow.Utf8()),
    s_large: v(strings, new arrow.LargeUtf8()),
    b: v(Array.from({ length: n }, (_, i) => (i % 4 === 3 ? null : (rnd() & 1) === 1)), new arrow.Bool()),
    date32: fixedVector(arrow, new arrow.DateDay(), Int32Array.from(dates), validDate),
    date64: fixedVector(arrow, new arrow.DateMillisecond(), BigInt64Array.from(dates.map((d, i) => ms(i))), nth(9)),
    ts_s: fixedVector(arrow, new arrow.Timestamp(arrow.TimeUnit.SECOND), ts(1n).map((x) => x / 1000n), nth(7)),
    ts_ms_utc: fixedVector(arrow, new arrow.Timestamp(arrow.TimeUnit.MILLISECOND, 'UTC'), ts(1n), nth(7)),
    ts_us_paris: fixedVector(arrow, new arrow.Timestamp(arrow.TimeUnit.MICROSECOND, 'Europe/Paris'), ts(1000n), nth(6)),
    ts_ns: fixedVector(arrow, new arrow.Timestamp(arrow.TimeUnit.NANOSECOND), ts(1000000n).map((x, i) => (i === 0 ? -(2n ** 63n) + 1n : x)), nth(5)),
    time_ms: fixedVector(arrow, new arrow.TimeMillisecond(), Int32Array.from({ length: n }, () => rnd() % 86400000), nth(4)),
    time_us: fixedVector(arrow, new arrow.TimeMicrosecond(), time64(86400000000n), nth(5)),
    time_ns: fixedVector(arrow, new arrow.TimeNanosecond(), time64(86400000000000n), nth(6)),
    dec18_3: fixedVector(arrow, new arrow.Decimal(3, 18, 128), decimalWords(dec), nth(10)),
    dec38_10: fixedVector(arrow, new arrow.Decimal(10, 38, 128), decimalWords(dec.map((x) => x * 10n ** 20n)), nth(3)),
    bin: v(binary, new arrow.Binary()),
    fixed4: v(fixed, new arrow.FixedSizeBinary(4)),
  };
  const fields = Object.entries(columns).map(([name, vector]) => new Field(name, vector.type, true));
  return new Table(new Schema(fields), columns);
}

function nestedTable(arrow) {
  const rnd = generator(2);
  const n = ROWS;
  const { Field, vectorFromArray: v } = arrow;
  const item = (type) => new Field('item', type, true);
  const lists = Array.from({ length: n }, (_, i) => (i % 7 === 6 ? null : Array.from({ length: i % 5 }, (_, k) => (k === 3 ? null : rnd() % 1000 - 500))));
  const textLists = Array.from({ length: n }, (_, i) => (i % 9 === 8 ? null : Array.from({ length: i % 3 }, () => `t${rnd() % 50}`)));
  const structType = new arrow.Struct([new Field('a', new arrow.Int32(), true), new Field('b', new arrow.Utf8(), true)]);
  const structs = Array.from({ length: n }, (_, i) => (i % 8 === 7 ? null : { a: i % 3 ? rnd() % 100 : null, b: i % 4 ? `b${i}` : null }));
  const nestedLists = Array.from({ length: n }, (_, i) => (i % 10 === 9 ? null : Array.from({ length: i % 3 }, (_, k) => (k === 1 && i % 2 ? null : [i, k]))));
  const listOfStruct = Array.from({ length: n }, (_, i) => (i % 6 === 5 ? null : Array.from({ length: i % 3 }, (_, k) => ({ a: k, b: `x${i}` }))));
  const fixedLists = Array.from({ length: n }, (_, i) => (i % 5 === 4 ? null : [i, -i, i * 2]));
  const columns = {
    id: v(Array.from({ length: n }, (_, i) => i), new arrow.Int32()),
    l_i32: v(lists, new arrow.List(item(new arrow.Int32()))),
    l_str: v(textLists, new arrow.List(item(new arrow.Utf8()))),
    st: v(structs, structType),
    l_l: v(nestedLists, new arrow.List(item(new arrow.List(item(new arrow.Int32()))))),
    l_st: v(listOfStruct, new arrow.List(item(structType))),
    fsl: v(fixedLists, new arrow.FixedSizeList(3, item(new arrow.Int32()))),
  };
  return new arrow.Table(columns);
}

// Three batches of dictionary columns. `replace`: each batch has its own, growing dictionary
// (deltas or replacements: the stream format only); else the batches share one dictionary
// (slices of one column), as the file format requires.
function dictionaryTable(arrow, { replace }) {
  const { vectorFromArray: v } = arrow;
  const sizes = [300, 350, 400];
  const columns = (k, n, words) => ({
    k: v(Array.from({ length: n }, (_, i) => (replace ? k : i % 3)), new arrow.Int32()),
    color: v(Array.from({ length: n }, (_, i) => (i % 11 === 10 ? null : words[i % words.length])), new arrow.Dictionary(new arrow.Utf8(), new arrow.Int32())),
    code: v(Array.from({ length: n }, (_, i) => `c${(i * 7 + k) % 40}`), new arrow.Dictionary(new arrow.Utf8(), new arrow.Int16())),
  });
  const colors = ['red', 'green', 'blue', 'cyan', 'magenta', 'yellow', 'black'];
  if (replace) {
    const [a, b, c] = sizes.map((n, k) => new arrow.Table(columns(k, n, colors.slice(0, 3 + 2 * k))));
    return a.concat(b, c);
  }
  const total = sizes.reduce((x, y) => x + y, 0);
  const full = columns(0, total, colors);
  const parts = [];
  let at = 0;
  for (const n of sizes) {
    parts.push(new arrow.Table(Object.fromEntries(Object.entries(full).map(([name, vector]) => [name, vector.slice(at, at + n)]))));
    at += n;
  }
  return parts[0].concat(parts[1], parts[2]);
}

// Arrow JS declares a Null-typed field non-nullable unless told (new Table({...}) does), which the
// Parquet leg refuses as Arrow C++ does ("NullType Arrow field must be nullable"): the schema is
// given, every field nullable.
function nullsTable(arrow) {
  const { vectorFromArray: v } = arrow;
  const n = 100;
  const columns = {
    nothing: v(Array.from({ length: n }, () => null), new arrow.Null()),
    all_null_i64: v(Array.from({ length: n }, () => null), new arrow.Int64()),
    all_null_s: v(Array.from({ length: n }, () => null), new arrow.Utf8()),
    x: v(Array.from({ length: n }, (_, i) => i), new arrow.Int32()),
  };
  const schema = new arrow.Schema(Object.entries(columns).map(([name, vector]) => new arrow.Field(name, vector.type, true)));
  return new arrow.Table(schema, columns);
}

function emptyTable(arrow) {
  const { vectorFromArray: v } = arrow;
  return new arrow.Table({
    a: v([], new arrow.Int64()), s: v([], new arrow.Utf8()), l: v([], new arrow.List(new arrow.Field('item', new arrow.Int32(), true))),
  });
}

// [{ name, table, formats? }] (formats: the IPC formats the table can be written in; default both)
export function arrowTables(arrow) {
  return [
    { name: 'flat', table: flatTable(arrow) },
    { name: 'nested', table: nestedTable(arrow) },
    { name: 'dictionaries', table: dictionaryTable(arrow, { replace: false }) },
    { name: 'dictionary_replacement', table: dictionaryTable(arrow, { replace: true }), formats: ['stream'] },
    { name: 'nulls', table: nullsTable(arrow) },
    { name: 'empty', table: emptyTable(arrow) },
  ];
}

// ---------------------------------------------------------------------------------------------
// Polars (run inside check_ipc.mjs's Polars worker)

function polarsFrames(pl) {
  const rnd = generator(3);
  const n = ROWS;
  const nullEvery = (k, f) => Array.from({ length: n }, (_, i) => (i % k === k - 1 ? null : f(i)));
  const big = (text) => pl.Series(text).cast(pl.Int64);
  const flat = pl.DataFrame([
    pl.Series('i8', nullEvery(7, (i) => (i === 0 ? -128 : i === 1 ? 127 : (rnd() % 256) - 128)), pl.Int8),
    pl.Series('i16', nullEvery(7, (i) => (i === 0 ? -32768 : (rnd() % 65536) - 32768)), pl.Int16),
    pl.Series('i32', nullEvery(7, (i) => (i === 0 ? -2147483648 : i === 1 ? 2147483647 : rnd() - 2 ** 31)), pl.Int32),
    big(nullEvery(9, (i) => (i === 0 ? '-9223372036854775808' : i === 1 ? '9223372036854775807' : String(BigInt(rnd()) * BigInt(rnd()) - 2n ** 62n)))).alias('i64'),
    pl.Series('u8', nullEvery(5, () => rnd() % 256), pl.UInt8),
    pl.Series('u32', nullEvery(5, (i) => (i === 0 ? 4294967295 : rnd())), pl.UInt32),
    pl.Series(nullEvery(5, (i) => (i === 0 ? '18446744073709551615' : String(rnd())))).cast(pl.UInt64).alias('u64'),
    pl.Series('f32', nullEvery(11, (i) => [NaN, -0, Infinity][i] ?? (rnd() % 100000) / 7), pl.Float32),
    pl.Series('f64', nullEvery(11, (i) => [NaN, -0, -Infinity, 5e-324][i] ?? (rnd() - 2 ** 31) / 1000), pl.Float64),
    pl.Series('s', nullEvery(10, (i) => ['', 'ünïcødé 日本 🎉', 'a,b "c"'][i] ?? `s${rnd() % 3000}`), pl.Utf8),
    pl.Series('b', nullEvery(4, () => (rnd() & 1) === 1), pl.Bool),
    pl.Series('d', nullEvery(8, (i) => new Date(Date.UTC(1900 + (i % 300), i % 12, 1 + (i % 28)))), pl.Date),
    pl.Series('ts_ms_utc', nullEvery(6, (i) => new Date(Date.UTC(1950 + (i % 100), i % 12, 1, i % 24, i % 60, i % 60, i % 1000))), pl.Datetime('ms', 'UTC')),
    pl.Series('cat', nullEvery(9, (i) => ['x', 'yy', 'zzz', 'w'][i % 4]), pl.Utf8).cast(pl.Categorical),
    pl.Series('l', nullEvery(7, (i) => Array.from({ length: i % 4 }, (_, k) => i * 10 + k)), pl.List(pl.Int32)),
    pl.Series('l_s', nullEvery(8, (i) => Array.from({ length: i % 3 }, (_, k) => `v${k}`)), pl.List(pl.Utf8)),
    pl.Series('sa', nullEvery(3, (i) => i), pl.Int32),
    pl.Series('sb', nullEvery(4, (i) => `b${i % 17}`), pl.Utf8),
  ]).withColumns(
    pl.col('ts_ms_utc').cast(pl.Datetime('us', 'America/New_York')).alias('ts_us_ny'),
    pl.col('ts_ms_utc').cast(pl.Datetime('ns')).alias('ts_ns'),
    pl.col('ts_ms_utc').cast(pl.Time).alias('tm'),
    pl.when(pl.col('i8').isNull()).then(pl.lit(null)).otherwise(pl.struct([pl.col('sa'), pl.col('sb')])).alias('st'),
    pl.lit(null).alias('nothing'),
  );
  // Three chunks (record batches) of one frame, the categorical's values growing.
  const part = (k) => pl.DataFrame([
    pl.Series('k', Array.from({ length: 200 }, () => k), pl.Int32),
    pl.Series('cat', Array.from({ length: 200 }, (_, i) => (i % 13 === 12 ? null : `w${(i * (k + 1)) % (5 + 10 * k)}`)), pl.Utf8).cast(pl.Categorical),
    pl.Series('x', Array.from({ length: 200 }, (_, i) => i * k + 0.5), pl.Float64),
  ]);
  const chunked = part(0).vstack(part(1)).vstack(part(2));
  // The file format allows one dictionary per field: the chunks' categoricals are replacements
  // there, so the chunked frame is written as a stream only, and once more rechunked as a file.
  return [{ name: 'flat', frame: flat }, { name: 'chunked', frame: chunked, formats: ['stream'] },
    { name: 'rechunked', frame: chunked.rechunk() }];
}

// Writes every frame as IPC file and stream under each compression; [{ name, file, line } or
// { name, error }], line = Polars' own summary of the frame (polars_summary.mjs).
function writeWith(pl, dir, compressions, polarsLazySummary) {
  const written = [];
  for (const { name, frame, formats = ['file', 'stream'] } of polarsFrames(pl)) {
    const line = polarsLazySummary(frame, { nullType: 'null' });
    for (const compression of compressions) {
      const c = compression === 'none' ? 'uncompressed' : compression;
      for (const [ext, write, kind] of [['arrow', 'writeIPC', 'file'], ['arrows', 'writeIPCStream', 'stream']]) {
        if (!formats.includes(kind)) continue;
        const file = `${dir}/polars-${name}.${compression}.${ext}`;
        try {
          frame[write](file, { compression: c });
          written.push({ name, file, line });
        } catch (error) {
          written.push({ name: `${name} ${ext} ${compression}`, error: String(error?.message ?? error).split('\n')[0] });
        }
      }
    }
  }
  return written;
}

// nodejs-polars and polars_summary.mjs, loaded once (only the Polars worker needs them).
let loaded = null;
export async function loadPolars() {
  if (!loaded) {
    const [{ default: pl }, { polarsLazySummary }] = await Promise.all([import('nodejs-polars'), import('./polars_summary.mjs')]);
    loaded = { pl, polarsLazySummary };
  }
  return loaded;
}

export function writePolarsFrames(dir, compressions) {
  if (!loaded) throw new Error('call loadPolars() first');
  return writeWith(loaded.pl, dir, compressions, loaded.polarsLazySummary);
}
