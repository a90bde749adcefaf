// DuckDB's side of scripts/check-s3-cli (@duckdb/node-api): data made by an engine other than
// strata, and row-for-row comparisons of what strata wrote to S3 (downloaded by AWS's SDK).
//   node testing/s3/duckdb_check.mjs hive SOURCE.csv DIR      DIR/vendor=.../data_0.parquet
//   node testing/s3/duckdb_check.mjs wide OUT.csv ROWS       a CSV of ROWS rows (~140 bytes each)
//   node testing/s3/duckdb_check.mjs compare A B              "rows R a_not_b N b_not_a M"
// A and B are .parquet or .csv files (or globs), read with DuckDB's own readers.
import { DuckDBInstance } from '@duckdb/node-api';

const [command, a, b] = process.argv.slice(2);
const instance = await DuckDBInstance.create(':memory:');
const connection = await instance.connect();
const quote = (path) => `'${path.replaceAll("'", "''")}'`;
const read = (path) => (path.endsWith('.csv') ? `read_csv(${quote(path)})` : `read_parquet(${quote(path)})`);
const value = async (sql) => (await connection.runAndReadAll(sql)).getRows()[0][0];

if (command === 'hive') {
  await connection.run(`COPY (SELECT * FROM read_csv(${quote(a)})) TO ${quote(b)} (FORMAT parquet, PARTITION_BY (vendor))`);
} else if (command === 'wide') {
  await connection.run(`COPY (
    SELECT i AS id, hash(i) % 1000000 AS amount, 'customer ' || (hash(i, 2) % 50000) AS customer,
           DATE '2020-01-01' + CAST(hash(i, 3) % 1500 AS INTEGER) AS day,
           md5(CAST(i AS VARCHAR)) AS token, CAST(hash(i, 4) % 100000 AS DOUBLE) / 100 AS price
    FROM range(${Number(b)}) t(i)) TO ${quote(a)} (FORMAT csv, HEADER)`);
} else if (command === 'compare') {
  const rows = await value(`SELECT count(*) FROM ${read(a)}`);
  const aNotB = await value(`SELECT count(*) FROM (SELECT * FROM ${read(a)} EXCEPT ALL SELECT * FROM ${read(b)})`);
  const bNotA = await value(`SELECT count(*) FROM (SELECT * FROM ${read(b)} EXCEPT ALL SELECT * FROM ${read(a)})`);
  process.stdout.write(`rows ${rows} a_not_b ${aNotB} b_not_a ${bNotA}\n`);
} else {
  process.stderr.write('usage: duckdb_check.mjs hive SOURCE.csv DIR | wide OUT.csv ROWS | compare A B\n');
  process.exit(2);
}
