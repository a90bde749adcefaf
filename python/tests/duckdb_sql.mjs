// Runs SQL statements in one in-memory DuckDB (the pinned @duckdb/node-api) and prints the last
// statement's rows as a JSON array of objects (DuckDB's JSON form: big integers and decimals as
// strings). Used by the Python tests to check strata against an engine no one here wrote.
//   node duckdb_sql.mjs "CREATE ..." "SELECT ..."
import { DuckDBInstance } from '@duckdb/node-api';

const statements = process.argv.slice(2);
if (statements.length === 0) {
  console.error('usage: node duckdb_sql.mjs SQL [SQL ...]');
  process.exit(2);
}
const instance = await DuckDBInstance.create(':memory:');
const connection = await instance.connect();
let rows = [];
for (const sql of statements) {
  rows = (await connection.runAndReadAll(sql)).getRowObjectsJson();
}
process.stdout.write(`${JSON.stringify(rows)}\n`);
connection.closeSync();
instance.closeSync();
