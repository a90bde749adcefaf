// Differences between strata's reading of Arrow IPC and a peer's that are not strata bugs, each
// with its reason (check_ipc.mjs reports them as KNOWN). A difference is KNOWN only when every
// one of its diff lines matches an entry:
//   engine  strata | arrow-js | polars | duckdb
//   part    regexp on convert | peers (strata's scan of the peer's IPC) | parquet (the peer's IPC
//           through strata convert to Parquet, read by strata and DuckDB)
//   file    regexp on the file's name (the Parquet file of `convert`, the table of `peers`)
//   field   regexp on the diff line
//   why     the reason, printed with the check
import { allowedReasons } from './check_support.mjs';

export const ALLOWED = [
  // Parquet has no unit of seconds: strata writes timestamp[s] as TIMESTAMP(MILLIS) (the same
  // instants, as Arrow C++ does), so the Parquet file's readers see timestamp[ms].
  { engine: 'strata', part: /^parquet$/, file: /./, field: /^column \d+ '[^']*' type: [\w-]+ "timestamp\[s\]", strata "timestamp\[ms\]"$/,
    why: 'Parquet has no seconds: timestamp[s] is written as TIMESTAMP(MILLIS)' },
  { engine: 'duckdb', part: /^parquet$/, file: /./, field: /^column \d+ '[^']*' type: [\w-]+ "timestamp\[s\]", duckdb "timestamp\[ms\]"$/,
    why: 'Parquet has no seconds: timestamp[s] is written as TIMESTAMP(MILLIS)' },
  // Parquet has no null type: a null column is an INT32 column annotated NULL (LogicalType
  // UNKNOWN), which DuckDB's summary names by its physical type (strata restores the Arrow type
  // from the ARROW:schema it stored).
  { engine: 'duckdb', part: /^parquet$/, file: /./, field: /^column \d+ '[^']*' type: [\w-]+ "null", duckdb "int32"$/,
    why: 'Parquet has no null type: DuckDB names the INT32 column of nulls int32' },
  // Polars has one time unit: every TIME is Time (nanoseconds), named time[ns]; values agree.
  { engine: 'polars', part: /./, file: /./, field: /type: strata "time\[(s|ms|us)\]", polars "time\[ns\]"/,
    why: 'Polars names every TIME time[ns]' },
];

// The reasons when ALLOWED explains every line of `diffs`, else null.
export function whyAllowed({ engine, part, file, diffs }) {
  return allowedReasons(ALLOWED, { engine, part, file }, diffs);
}
