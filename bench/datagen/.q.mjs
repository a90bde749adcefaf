import { openDuckDB } from '/work/main/bench/datagen/duckdb_session.mjs';
const db = await openDuckDB(); console.table(await db.rows(process.argv[2])); db.close();
