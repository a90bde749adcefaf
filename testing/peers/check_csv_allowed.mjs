// Differences between strata's CSV reading and DuckDB's or Polars' that are not strata bugs,
// each with its reason (check_csv.mjs reports them as KNOWN). A difference is KNOWN only when
// every one of its diff lines matches an entry:
//   engine  duckdb | polars | duckdb-rows | polars-rows | strata
//   mode    regexp on inferred | aligned | roundtrip | write
//   file    regexp on the file's name (csv_files.mjs; arrow/NAME for arrow-testing's)
//   field   regexp on the diff line
//   why     the reason, printed with the check
// `inferred` runs each engine with its defaults, so most entries are inference and convention
// choices; in `aligned` (strata's types and null spellings given) only the Polars lines remain.
import { allowedReasons } from './check_support.mjs';

export const ALLOWED = [
  // strata keeps digit strings with leading zeros as text (no-loss rule: 02134 is not 2134), as
  // DuckDB's sniffer does; Polars infers Int64 and drops the zeros.
  { engine: 'polars', mode: /^inferred$/, file: /^zip_codes\.csv$/, field: /^column \d+ '(zip|account)' (type|min|max):/,
    why: 'Polars infers integers for digit strings with leading zeros (ZIP codes lose them)' },
  // Null conventions. strata's defaults: unquoted '', NULL, null, NA, N/A are null, a quoted
  // field never is ("" is an empty string). DuckDB's: only the empty field, quoted or not
  // (allow_quoted_nulls), so NA and NULL are text and the int column is VARCHAR. Polars': only
  // the unquoted empty field. Given strata's spellings (aligned), DuckDB agrees exactly.
  { engine: 'duckdb', mode: /^inferred$/, file: /^null_spellings\.csv$/, field: /^column [12] '(s|n)' (type|count|nulls|min|max):/,
    why: "DuckDB's default nulls: the empty field only, a quoted \"\" too; NULL / NA are text" },
  { engine: 'polars', mode: /^inferred$/, file: /^null_spellings\.csv$/, field: /^column [12] '(s|n)' (type|count|nulls|min|max):/,
    why: "Polars' default nulls: the unquoted empty field only; NULL / NA are text" },
  // Polars has no allow_quoted_nulls: its null_values also turn the quoted "NULL" and "NA" into
  // nulls, which strata (and DuckDB with allow_quoted_nulls=false) read as text.
  { engine: 'polars', mode: /^aligned$/, file: /^null_spellings\.csv$/, field: /^column 1 's' (count|nulls):/,
    why: 'Polars applies null spellings to quoted fields too ("NA" in quotes is null)' },
  // Polars' inference takes nan / inf / Infinity for text; given Float64 it parses them as
  // strata does (the aligned check passes).
  { engine: 'polars', mode: /^inferred$/, file: /^special_floats\.csv$/, field: /^column 1 'x' (type|min|max):/,
    why: 'Polars infers a string column for nan / inf spellings' },
  // Nine fraction digits: strata infers timestamp[ns] (nothing lost); DuckDB's sniffer and
  // Polars infer microseconds and drop the last three digits. Given timestamp[ns], both agree.
  { engine: 'duckdb', mode: /^inferred$/, file: /^timestamps_tz\.csv$/, field: /^column 3 'at_ns' (type|min|max):/,
    why: 'DuckDB infers TIMESTAMP (us) for nanosecond text and truncates it' },
  { engine: 'polars', mode: /^inferred$/, file: /^timestamps_tz\.csv$/, field: /^column 3 'at_ns' (type|min|max):/,
    why: 'Polars infers Datetime(us) for nanosecond text and truncates it' },
  // Polars has one time unit: every TIME is Time (nanoseconds), named time[ns]; values agree.
  { engine: 'polars', mode: /./, file: /./, field: /type: strata "time\[(s|ms|us)\]", polars "time\[ns\]"/,
    why: 'Polars names every TIME time[ns]' },
  // arrow-testing's c10 holds integers above int64's range (uint64). strata keeps the exact
  // text (string: its lattice has no wider integer and float64 would lose digits); DuckDB infers
  // DOUBLE and loses digits (17929716297117858000); Polars infers Int128 (exact, not a spec type).
  { engine: 'duckdb', mode: /^inferred$/, file: /^arrow\/aggregate_test_100/, field: /^column 9 'c10' (type|min|max):/,
    why: 'c10 is beyond int64: DuckDB infers DOUBLE (digits lost), strata keeps the text' },
  { engine: 'polars', mode: /^inferred$/, file: /^arrow\/aggregate_test_100/, field: /^column 9 'c10' (type|min|max):/,
    why: 'c10 is beyond int64: Polars infers Int128, strata keeps the text' },
];

// The reasons when ALLOWED explains every line of `diffs`, else null.
export function whyAllowed({ engine, mode, file, diffs }) {
  return allowedReasons(ALLOWED, { engine, mode, file }, diffs);
}
