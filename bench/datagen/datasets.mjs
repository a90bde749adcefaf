// The benchmark datasets, generated deterministically with DuckDB SQL (integer mixing of the row
// number; no random(), no extension downloads: the tpch extension is not in the npm package).
// Each dataset is a function of its parameters; `--quick` divides the sizes by 20.
import path from 'node:path';
import { generate, openDuckDB, sqlString } from './duckdb_session.mjs';

const GENERATOR_VERSION = 1; // bump when the SQL changes, so old files are regenerated

// A reproducible pseudo-random integer in [0, modulus) for row `i`, stream `k`: two rounds of
// multiplicative hashing modulo the largest prime below 2^32, the second with a per-stream
// multiplier so streams are not shifted copies of each other. Products stay below 2^63 for
// i < 3e9 (DuckDB raises an error on overflow rather than wrapping).
export const mix = (k, modulus, i = 'i') => {
  const multiplier = (1103515245 + k * 15838) % 1073741789;
  return `((((${i}) * 2654435761 + ${k * 40503 + 11}) % 4294967291 * ${multiplier}) % 4294967291 % ${modulus})`;
};

export const DEFAULT_SIZES = {
  lineitemRows: 6_000_000,
  numericRows: 10_000_000,
  stringRows: 20_000_000,
  binaryRowGroups: 4,
  binaryRowsPerGroup: 484,
  wideColumns: 1000,
  wideRowGroups: 100,
  wideRowsPerGroup: 1000,
  // Issue 41's wide table: 2,000 columns (3 of 4 int64, 1 of 4 short strings), 200,000 rows in
  // two row groups of ~1 GB decoded each (~1.1 GB of snappy file).
  wideTableColumns: 2000,
  wideTableRowGroups: 2,
  wideTableRowsPerGroup: 100_000,
  // A footer of 10,000 columns x 100 row groups (1M column chunks) over a few rows.
  footerColumns: 10_000,
  footerRowGroups: 100,
  footerRowsPerGroup: 10,
};

export function quickSizes() {
  const s = { ...DEFAULT_SIZES };
  s.lineitemRows /= 20;
  s.numericRows /= 20;
  s.stringRows /= 20;
  s.binaryRowGroups = 1;
  s.binaryRowsPerGroup = Math.round(484 * 4 / 20); // ~97 rows: 1/20 of the data in one group
  s.wideRowGroups = 5;
  s.wideTableRowsPerGroup /= 20;
  s.footerRowGroups = 5;
  return s;
}

const COMMENT_WORDS = ['carefully', 'final', 'deposits', 'sleep', 'quickly', 'ironic', 'packages',
  'haggle', 'blithely', 'regular', 'accounts', 'above', 'the', 'furiously', 'express', 'requests',
  'bold', 'pinto', 'beans', 'among', 'slyly', 'even', 'instructions', 'nag', 'silent', 'foxes',
  'pending', 'theodolites', 'unusual', 'dependencies', 'across', 'special'];

// TPC-H lineitem's 16 columns and types, with TPC-H-like value distributions.
function lineitemSql(rows) {
  const words = `[${COMMENT_WORDS.map((w) => `'${w}'`).join(',')}]`;
  const word = (k) => `${words}[1 + ${mix(k, COMMENT_WORDS.length)}]`;
  return `
WITH base AS (
  SELECT i,
    (i // 4 + 1)::BIGINT AS l_orderkey,
    (1 + ${mix(1, 200000)})::BIGINT AS l_partkey,
    (1 + ${mix(2, 10000)})::BIGINT AS l_suppkey,
    (i % 4 + 1)::INTEGER AS l_linenumber,
    (1 + ${mix(3, 50)}) AS quantity,
    DATE '1992-01-02' + ${mix(4, 2526)}::INTEGER AS l_shipdate
  FROM range(0, ${rows}) t(i))
SELECT l_orderkey, l_partkey, l_suppkey, l_linenumber,
  quantity::DECIMAL(15,2) AS l_quantity,
  (quantity * (90000 + (l_partkey // 10) % 20001 + 100 * (l_partkey % 1000)) / 100)::DECIMAL(15,2)
    AS l_extendedprice,
  (${mix(5, 11)} / 100)::DECIMAL(15,2) AS l_discount,
  (${mix(6, 9)} / 100)::DECIMAL(15,2) AS l_tax,
  CASE WHEN l_shipdate > DATE '1995-06-17' THEN 'N' WHEN ${mix(7, 2)} = 0 THEN 'R' ELSE 'A' END
    AS l_returnflag,
  CASE WHEN l_shipdate > DATE '1995-06-17' THEN 'O' ELSE 'F' END AS l_linestatus,
  l_shipdate,
  l_shipdate + (${mix(8, 61)}::INTEGER - 30) AS l_commitdate,
  l_shipdate + (1 + ${mix(9, 30)}::INTEGER) AS l_receiptdate,
  ['DELIVER IN PERSON', 'COLLECT COD', 'NONE', 'TAKE BACK RETURN'][1 + ${mix(10, 4)}] AS l_shipinstruct,
  ['REG AIR', 'AIR', 'RAIL', 'SHIP', 'TRUCK', 'MAIL', 'FOB'][1 + ${mix(11, 7)}] AS l_shipmode,
  rtrim(left(concat_ws(' ', ${word(12)}, ${word(13)}, ${word(14)}, ${word(15)}, ${word(16)},
    ${word(17)}, ${word(18)}), 10 + ${mix(19, 34)}::INTEGER)) AS l_comment
FROM base ORDER BY i`;
}

// Every 10th value null on average, at positions that differ per column.
const nullable = (k, expression) => `CASE WHEN ${mix(k, 10)} = 0 THEN NULL ELSE ${expression} END`;

function nullableNumericSql(rows) {
  return `
SELECT
  ${nullable(1, `(${mix(2, 4294967291)} - 2147483645)::INTEGER`)} AS i32,
  ${nullable(3, `(${mix(4, 4294967291)} * 1073741823 - 2305843009213693952)::BIGINT`)} AS i64,
  ${nullable(5, `((${mix(6, 2000001)} - 1000000) / 1024.0)::FLOAT`)} AS f32,
  ${nullable(7, `((${mix(8, 4294967291)} - 2147483645) / 65536.0 + ${mix(9, 1000)} / 1e7)::DOUBLE`)} AS f64
FROM range(0, ${rows}) t(i) ORDER BY i`;
}

// About 9 bytes each: a letter and 8 digits.
function smallStringsSql(rows) {
  return `SELECT chr(97 + ${mix(1, 26)}::INTEGER) || lpad(${mix(2, 100000000)}::VARCHAR, 8, '0') AS s
FROM range(0, ${rows}) t(i) ORDER BY i`;
}

// Values of 100-220 KB cut from a 512 KB pool of hash bytes (incompressible, and different per
// row because the window moves), 5% nulls.
function largeBinarySql(rows) {
  return `
WITH pool AS (
  SELECT unhex(string_agg(sha256(j::VARCHAR), '' ORDER BY j)) AS bytes FROM range(0, 16384) t(j))
SELECT i::BIGINT AS id,
  CASE WHEN ${mix(1, 20)} = 0 THEN NULL
       ELSE array_slice(bytes, start, start + length - 1) END AS payload
FROM (SELECT i, 1 + ${mix(2, 200000)} AS start, 100000 + ${mix(3, 120001)} AS length
      FROM range(0, ${rows}) t(i)), pool ORDER BY i`;
}

// 1,000 columns cycling int64 / double / int32 / short string.
function wideSql(columns, rows) {
  const list = [];
  for (let c = 0; c < columns; c++) {
    const name = `c${String(c).padStart(4, '0')}`;
    switch (c % 4) {
      case 0: list.push(`(i * ${c + 1})::BIGINT AS ${name}`); break;
      case 1: list.push(`(i / ${c + 1})::DOUBLE AS ${name}`); break;
      case 2: list.push(`((i + ${c}) % 1000)::INTEGER AS ${name}`); break;
      default: list.push(`'v' || ((i + ${c}) % 100)::VARCHAR AS ${name}`);
    }
  }
  return `SELECT ${list.join(', ')} FROM range(0, ${rows}) t(i) ORDER BY i`;
}

// Issue 41's wide table: 3 of 4 columns int64 of high cardinality (DuckDB writes them PLAIN),
// 1 of 4 short strings of 1,000 distinct values (dictionary-encoded). Row groups of exactly
// `rowsPerGroup` rows, each one scan of range() (no temporary table of 2,000 columns).
function wideTableSql(columns, rowsPerGroup, groups) {
  const list = [];
  for (let c = 0; c < columns; c++) {
    const name = `c${String(c).padStart(4, '0')}`;
    if (c % 4 === 3) list.push(`'v' || ((i * 7 + ${c}) % 1000)::VARCHAR AS ${name}`);
    else list.push(`((i * ${c + 1}) % 100000007)::BIGINT AS ${name}`);
  }
  const parts = [];
  for (let g = 0; g < groups; g++) {
    parts.push(`SELECT ${list.join(', ')} FROM range(${g * rowsPerGroup}, ${(g + 1) * rowsPerGroup}) t(i)`);
  }
  return parts.join(' UNION ALL ');
}

// Row groups of exactly `rowsPerGroup` rows: DuckDB cuts row groups between the chunks it
// receives, so the source is a UNION ALL of one scan per group.
function perGroupSource(table, rowsPerGroup, groups) {
  const parts = [];
  for (let g = 0; g < groups; g++) {
    parts.push(`SELECT * EXCLUDE (rn) FROM ${table} WHERE rn >= ${g * rowsPerGroup} AND rn < ${(g + 1) * rowsPerGroup}`);
  }
  return parts.join(' UNION ALL ');
}

// A table of wideSql's columns in row groups of exactly `rowsPerGroup` rows, as `name`.parquet.
function wideDataset(file, name, columns, groups, rowsPerGroup) {
  return {
    name, file: file(`${name}.parquet`), params: { v: GENERATOR_VERSION, columns, groups, rowsPerGroup },
    write: async (db, tmp) => {
      await db.run(`CREATE OR REPLACE TEMP TABLE ${name} AS
        SELECT row_number() OVER () - 1 AS rn, * FROM (${wideSql(columns, groups * rowsPerGroup)})`);
      await db.run(`COPY (${perGroupSource(name, rowsPerGroup, groups)})
        TO ${sqlString(tmp)} (FORMAT parquet, COMPRESSION snappy, ROW_GROUP_SIZE ${rowsPerGroup})`);
      await db.run(`DROP TABLE ${name}`);
    },
  };
}

// Returns the list of { name, file, params, write(db, tmp) } for the given sizes.
export function datasets(outDir, sizes) {
  const file = (name) => path.join(outDir, name);
  const list = [];
  const lineitemParams = { v: GENERATOR_VERSION, rows: sizes.lineitemRows };
  for (const codec of ['snappy', 'zstd', 'uncompressed']) {
    list.push({
      name: `lineitem_${codec}`, file: file(`lineitem_${codec}.parquet`), params: { ...lineitemParams, codec },
      needs: 'lineitem',
      write: (db, tmp) => db.run(`COPY lineitem TO ${sqlString(tmp)} (FORMAT parquet, COMPRESSION ${codec})`),
    });
  }
  list.push({
    name: 'lineitem_csv', file: file('lineitem.csv'), params: { ...lineitemParams, format: 'csv' },
    needs: 'lineitem',
    write: (db, tmp) => db.run(`COPY lineitem TO ${sqlString(tmp)} (FORMAT csv, HEADER true)`),
  });
  list.push({
    name: 'nullable_numeric', file: file('nullable_numeric.parquet'),
    params: { v: GENERATOR_VERSION, rows: sizes.numericRows },
    write: (db, tmp) => db.run(`COPY (${nullableNumericSql(sizes.numericRows)}) TO ${sqlString(tmp)}
      (FORMAT parquet, COMPRESSION snappy)`),
  });
  list.push({
    name: 'small_strings', file: file('small_strings.parquet'),
    params: { v: GENERATOR_VERSION, rows: sizes.stringRows },
    // PLAIN: dictionary off; ZSTD; row groups of 1M values so pages are as large as DuckDB writes.
    write: (db, tmp) => db.run(`COPY (${smallStringsSql(sizes.stringRows)}) TO ${sqlString(tmp)}
      (FORMAT parquet, COMPRESSION zstd, DICTIONARY_SIZE_LIMIT 1, ROW_GROUP_SIZE 1048576)`),
  });
  const binaryRows = sizes.binaryRowGroups * sizes.binaryRowsPerGroup;
  list.push({
    name: 'large_binary', file: file('large_binary.parquet'),
    params: { v: GENERATOR_VERSION, groups: sizes.binaryRowGroups, rowsPerGroup: sizes.binaryRowsPerGroup },
    write: async (db, tmp) => {
      await db.run(`CREATE OR REPLACE TEMP TABLE large_binary AS
        SELECT row_number() OVER () - 1 AS rn, * FROM (${largeBinarySql(binaryRows)})`);
      await db.run(`COPY (${perGroupSource('large_binary', sizes.binaryRowsPerGroup, sizes.binaryRowGroups)})
        TO ${sqlString(tmp)} (FORMAT parquet, COMPRESSION snappy, ROW_GROUP_SIZE ${sizes.binaryRowsPerGroup})`);
      await db.run('DROP TABLE large_binary');
    },
  });
  list.push(wideDataset(file, 'wide', sizes.wideColumns, sizes.wideRowGroups, sizes.wideRowsPerGroup));
  list.push({
    name: 'wide_table', file: file('wide_table.parquet'),
    params: { v: GENERATOR_VERSION, columns: sizes.wideTableColumns, groups: sizes.wideTableRowGroups,
      rowsPerGroup: sizes.wideTableRowsPerGroup },
    write: (db, tmp) => db.run(`COPY (${wideTableSql(sizes.wideTableColumns, sizes.wideTableRowsPerGroup,
      sizes.wideTableRowGroups)}) TO ${sqlString(tmp)}
      (FORMAT parquet, COMPRESSION snappy, ROW_GROUP_SIZE ${sizes.wideTableRowsPerGroup})`),
  });
  list.push(wideDataset(file, 'wide_footer', sizes.footerColumns, sizes.footerRowGroups, sizes.footerRowsPerGroup));
  return list;
}

// Generates whatever is missing or stale. The lineitem table is built once, only if needed.
export async function generateAll(outDir, sizes, { only } = {}) {
  const db = await openDuckDB({ threads: 1 }); // one thread: reproducible row groups and bytes
  let lineitemBuilt = false;
  try {
    for (const dataset of datasets(outDir, sizes)) {
      if (only && !only.some((o) => dataset.name.startsWith(o))) continue;
      await generate(dataset.file, dataset.params, async (tmp) => {
        if (dataset.needs === 'lineitem' && !lineitemBuilt) {
          await db.run(`CREATE TEMP TABLE lineitem AS ${lineitemSql(sizes.lineitemRows)}`);
          lineitemBuilt = true;
        }
        await dataset.write(db, tmp);
      });
    }
  } finally {
    db.close();
  }
}
