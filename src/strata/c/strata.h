/* The strata C API: Parquet and CSV files read as, and written from, Arrow C streams
 * (the Arrow C Data and C Stream Interface). A thin layer over strata's readers and writers
 * for C, and for any language or engine that speaks the Arrow C ABI (DuckDB, Polars,
 * pyarrow, ...). C99; no C++ type crosses it and no exception leaves it.
 *
 * Return values: 0 on success, else an errno code: EINVAL (a bad argument or option, an
 * invalid or unsupported input), EIO (reading or writing failed, a checksum mismatch),
 * ENOMEM (out of memory), ENOSYS (a feature strata does not implement). The message is
 * strata_last_error()'s.
 *
 * Options: one string of `key=value` pairs separated by ';' ("codec=zstd;level=9"). NULL
 * or "" means every default. Keys are matched exactly after trimming spaces around them;
 * values are taken as written (no trimming, no escapes, so a value cannot hold ';').
 * Parsing is strict: an unknown key, a bad value or a key given twice fails with EINVAL
 * naming it. Booleans are yes|no (also on|off, true|false, 1|0). Lists are comma-separated
 * (`columns=a,b`: top-level column names, which therefore cannot hold ',' or ';').
 *
 * Ownership: a read function fills the caller's *out, which the caller releases
 * (out->release(out)) once done, before the process exits; on failure *out is left released
 * (release NULL). A write function consumes *in: it is released before the function
 * returns, on success and on every failure, and marked released (in->release NULL).
 *
 * Memory: every buffer comes from one process-wide pool on the system allocator (strata's
 * SystemMemoryPool()); arrays handed out own their buffers until released.
 *
 * Threads: the functions may be called from any thread at once; a stream must be used by
 * one thread at a time. Parallel decoding and encoding use strata's one process pool.
 */
#ifndef STRATA_C_STRATA_H
#define STRATA_C_STRATA_H

#include "strata/arrow_c/abi.h" /* struct ArrowSchema, ArrowArray, ArrowArrayStream */

#ifdef __cplusplus
extern "C" {
#endif

/* Reads the Parquet file at `path` as a stream of record batches (a struct array per batch).
 * Options:
 *   columns=a,b     top-level columns to read, in this order (default all)
 *   threads=N       threads decoding a batch's columns (0: every core; default 1)
 *   batch_rows=N    rows per batch at most (default 65536)
 *   filter=EXPR     only the rows EXPR keeps, in the command line's --filter syntax
 *                   ("a >= 3 AND b IN ('x', 'y')"; no ';'), pruned by statistics,
 *                   dictionaries, Bloom filters and the page index before decoding
 *   restore_arrow_schema=on|off  types an Arrow writer's ARROW:schema restores: time zones,
 *                   durations, string dictionaries (default on; off: the Parquet types)
 * The file is opened and its footer read here; pages are read as batches are pulled. */
int strata_parquet_read(const char* path, const char* options, struct ArrowArrayStream* out);

/* Writes every batch of `in` to a Parquet file at `path`, which appears only once the
 * whole file is written (under a temporary name beside it, then renamed); on failure nothing
 * is left behind and an existing file stays as it was. Consumes `in`.
 * Options:
 *   codec=C            uncompressed|snappy|gzip|zstd|lz4|lz4_raw|brotli (default snappy)
 *   level=N            compression level (default: the codec's own)
 *   row_group_rows=N   rows per row group at most (default 262144)
 *   page_version=1|2   data page version (default 1)
 *   dictionary=on|off  dictionary encoding (default on)
 *   statistics=on|off  min/max and null counts per chunk and page (default on)
 *   threads=N          threads encoding a row group's columns (0: every core; default 0) */
int strata_parquet_write(struct ArrowArrayStream* in, const char* path, const char* options);

/* Reads the CSV file at `path` (also .gz or .zst; "-" is standard input) as a stream of
 * record batches; the dialect, header and column types not given are detected from a sample.
 * Options:
 *   delimiter=X          1 to 4 bytes (", ", "||"), or comma|tab|semicolon|pipe|space (default: detected)
 *   header=yes|no|auto   whether the first row names the columns (default auto)
 *   null=TEXT            the one spelling of null (default "", NULL, null, NA, N/A)
 *   all_strings=yes|no   every column as its text, nothing inferred (default no)
 *   threads=N            threads parsing blocks (0: every core; default 0)
 *   batch_rows=N         rows per batch at most (default 65536)
 *   sample_bytes=N       bytes the dialect and types are inferred from (default 1048576)
 *   infer_whole_file=yes|no  infer types from every row, reading the file twice (default no)
 *   columns=a,b          columns to read, by name, in this order (default all)
 *   ragged=error|fill|skip|salvage  rows of the wrong width: fail (default), pad short ones,
 *                        skip them, or pad short ones and skip long ones (salvage also ends a
 *                        quote left open at the end of the file there)
 *   max_bad_rows=N       with skip or salvage: the stream fails when more rows are skipped
 *                        (default: when more than half are) */
int strata_csv_read(const char* path, const char* options, struct ArrowArrayStream* out);

/* Writes every batch of `in` as CSV to `path` (safe output as strata_parquet_write).
 * Consumes `in`. Options:
 *   delimiter=X     one byte, or a name as for strata_csv_read (default comma)
 *   header=yes|no   a first line of column names (default yes)
 *   null=TEXT       how a null is written (default: nothing) */
int strata_csv_write(struct ArrowArrayStream* in, const char* path, const char* options);

/* At most `bytes` bytes in strata's buffers at once, process-wide (0: no limit), as the
 * command line's --memory-limit. Readers and writers fit their batches, column windows and row
 * groups to it; a call (or a stream's get_next) that still needs more fails with ENOMEM and a
 * message naming the limit. Returns 0, or EINVAL (nothing changed) for a negative limit. */
int strata_set_memory_limit(int64_t bytes);

/* The limit strata_set_memory_limit set, 0 when none. */
int64_t strata_memory_limit(void);

/* The message of the calling thread's last failed strata call, "" when it succeeded. Valid
 * until the same thread's next strata call (strata_version excepted). Never NULL. */
const char* strata_last_error(void);

/* strata's version, "0.1.0". A static string. */
const char* strata_version(void);

#ifdef __cplusplus
}
#endif

#endif /* STRATA_C_STRATA_H */
