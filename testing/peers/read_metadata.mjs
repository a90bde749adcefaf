#!/usr/bin/env node
// Usage: node testing/peers/read_metadata.mjs duckdb|polars FILE
// Footer-only read: prints {"rows":N,"columns":C} from the file's metadata without decoding any
// page (the peers' side of the "footer" benchmark workload).
const [engine, file] = process.argv.slice(2);
if (!file || (engine !== 'duckdb' && engine !== 'polars')) {
  console.error('usage: read_metadata.mjs duckdb|polars FILE');
  process.exit(2);
}

try {
  if (engine === 'duckdb') {
    const { DuckDBInstance } = await import('@duckdb/node-api');
    const instance = await DuckDBInstance.create(':memory:');
    const connection = await instance.connect();
    const quoted = `'${file.replaceAll("'", "''")}'`;
    const reader = await connection.runAndReadAll(
      `SELECT num_rows FROM parquet_file_metadata(${quoted})`);
    const rows = Number(reader.getRows()[0][0]);
    // DESCRIBE binds the scan, which reads the footer and nothing else.
    const columns = (await connection.runAndReadAll(
      `DESCRIBE SELECT * FROM read_parquet(${quoted})`)).getRows().length;
    console.log(JSON.stringify({ rows, columns }));
  } else {
    const { default: pl } = await import('nodejs-polars');
    const scan = pl.scanParquet(file);
    // pl.len() over a bare scan is answered from the footer's row counts.
    const rows = Number(scan.select(pl.len().alias('n')).collectSync().getColumn('n').get(0));
    console.log(JSON.stringify({ rows, columns: scan.columns.length }));
  }
} catch (error) {
  console.error(`read_metadata: ${engine} cannot read ${file}: ${error.message}`);
  process.exitCode = 1;
}
