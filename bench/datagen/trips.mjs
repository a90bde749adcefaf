// The example table shipped in examples/: 2,000 taxi trips, deterministic (integer arithmetic on
// the row number, no random()), written as SNAPPY Parquet in 2 row groups and as CSV.
// Usage: node bench/datagen/trips.mjs OUT_DIR
import path from 'node:path';
import { openDuckDB, sqlString } from './duckdb_session.mjs';

const ROWS = 2000;
const ROWS_PER_GROUP = 1000;

// A pseudo-random but reproducible integer in [0, modulus) for row i and stream k.
const mix = (k, modulus) => `((i * 2654435761 + ${k} * 40503 + 7) % 4294967291 % ${modulus})`;

export const TRIPS_SQL = `
SELECT
  i::BIGINT AS trip_id,
  TIMESTAMP '2024-03-01 00:00:00' + to_seconds(i * 1290 + ${mix(1, 600)}) AS pickup_at,
  CAST(TIMESTAMP '2024-03-01 00:00:00' + to_seconds(i * 1290 + ${mix(1, 600)}) AS DATE) AS pickup_date,
  CAST((250 + ${mix(2, 6000)} + (${mix(3, 4)} = 0)::INT * ${mix(4, 9000)}) / 100 AS DECIMAL(10,2)) AS fare,
  round(0.3 + ${mix(5, 2000)} / 100.0 * (1 + ${mix(6, 3)}) / 2, 2)::DOUBLE AS distance_km,
  (1 + ${mix(7, 10)} // 3)::INTEGER AS passengers,
  ['Cobalt Cabs', 'Verde Taxi', 'Northline', 'Verde Taxi', 'Cobalt Cabs'][1 + ${mix(8, 5)}] AS vendor,
  CASE WHEN ${mix(9, 4)} = 0 THEN NULL
       ELSE ['airport run', 'cash', 'card declined, paid cash', 'child seat', 'late night',
             'luggage', 'rain', 'toll road', 'waited 5 min', 'wheelchair access'][1 + ${mix(10, 10)}]
  END AS notes,
  (${mix(11, 17)} = 0) AS store_and_forward
FROM range(1, ${ROWS + 1}) t(i)
ORDER BY i`;

export async function writeTrips(outDir) {
  // One thread so the row groups are exactly ROWS_PER_GROUP rows and the bytes are reproducible.
  const db = await openDuckDB({ threads: 1 });
  try {
    const parquet = path.join(outDir, 'trips.parquet');
    const csv = path.join(outDir, 'trips.csv');
    await db.run(`CREATE TABLE trips AS ${TRIPS_SQL}`);
    // DuckDB cuts row groups only between the (up to 2,048-row) chunks it receives, so the
    // halves are fed as separate scans.
    await db.run(`COPY (SELECT * FROM trips WHERE trip_id <= ${ROWS_PER_GROUP}
                        UNION ALL SELECT * FROM trips WHERE trip_id > ${ROWS_PER_GROUP})
      TO ${sqlString(parquet)} (FORMAT parquet, COMPRESSION snappy, ROW_GROUP_SIZE ${ROWS_PER_GROUP})`);
    await db.run(`COPY trips TO ${sqlString(csv)} (FORMAT csv, HEADER true)`);
    const groups = await db.rows(`SELECT row_group_id, any_value(row_group_num_rows) AS n
      FROM parquet_metadata(${sqlString(parquet)}) GROUP BY ALL ORDER BY 1`);
    console.log(`${parquet}: ${groups.length} row groups (${groups.map((g) => g.n).join(', ')} rows)`);
    console.log(`${csv}: ${ROWS} rows`);
  } finally {
    db.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  if (process.argv.length !== 3) {
    console.error('usage: trips.mjs OUT_DIR');
    process.exit(2);
  }
  await writeTrips(process.argv[2]);
}
