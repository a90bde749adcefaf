// DuckDB's side of scripts/check-convert's ALP checks (@duckdb/node-api).
//   node testing/peers/alp_lineitem.mjs generate OUT.parquet ROWS
//     lineitem-like floating-point columns, deterministic (hash() of the row number, no tpch
//     extension needed): TPC-H's decimal columns as DOUBLE (l_quantity 1..50, l_extendedprice
//     with 2 decimals, l_discount 0.00-0.10, l_tax 0.00-0.08), a DOUBLE with NaN, infinities,
//     -0.0, subnormals and nulls, and a FLOAT with nulls.
//   node testing/peers/alp_lineitem.mjs compare A.parquet B.parquet
//     prints "rows R a_not_b N b_not_a M" (EXCEPT ALL both ways).
import { DuckDBInstance } from '@duckdb/node-api';

const [command, a, b] = process.argv.slice(2);
const instance = await DuckDBInstance.create(':memory:');
const connection = await instance.connect();
const quote = (path) => `'${path.replaceAll("'", "''")}'`;

if (command === 'generate') {
  const rows = Number(b);
  await connection.run(`COPY (
    SELECT
      CAST(1 + hash(i, 1) % 50 AS DOUBLE) AS l_quantity,
      CAST((1 + hash(i, 1) % 50) * (90000 + hash(i, 2) % 120000) AS DOUBLE) / 100 AS l_extendedprice,
      CAST(hash(i, 3) % 11 AS DOUBLE) / 100 AS l_discount,
      CAST(hash(i, 4) % 9 AS DOUBLE) / 100 AS l_tax,
      CASE i % 1000
        WHEN 1 THEN 'NaN'::DOUBLE WHEN 2 THEN 'inf'::DOUBLE WHEN 3 THEN '-inf'::DOUBLE
        WHEN 4 THEN -0.0::DOUBLE WHEN 5 THEN 4.9e-324::DOUBLE WHEN 6 THEN NULL
        WHEN 7 THEN 1.0 / 3 ELSE CAST(hash(i, 5) % 1000000 AS DOUBLE) / 1000 - 500 END AS l_measure,
      CASE WHEN i % 97 = 0 THEN NULL ELSE CAST(CAST(hash(i, 6) % 10000 AS DOUBLE) / 100 AS FLOAT) END AS l_weight
    FROM range(${rows}) t(i)
  ) TO ${quote(a)} (FORMAT parquet)`);
} else if (command === 'compare') {
  const reader = await connection.runAndReadAll(`SELECT
    (SELECT count(*) FROM read_parquet(${quote(a)})) AS rows,
    (SELECT count(*) FROM (SELECT * FROM read_parquet(${quote(a)}) EXCEPT ALL SELECT * FROM read_parquet(${quote(b)}))) AS a_not_b,
    (SELECT count(*) FROM (SELECT * FROM read_parquet(${quote(b)}) EXCEPT ALL SELECT * FROM read_parquet(${quote(a)}))) AS b_not_a`);
  const [row] = reader.getRows();
  console.log(`rows ${row[0]} a_not_b ${row[1]} b_not_a ${row[2]}`);
} else {
  console.error('usage: alp_lineitem.mjs generate OUT ROWS | compare A B');
  process.exit(2);
}
