/* strata.h from strict C99: every function called, a CSV file taken to Parquet and back to
 * CSV through the streams, and the rows counted through the Arrow C structs. Run by CTest with
 * a scratch directory as its argument; exits 1 on the first failed check. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "strata/c/strata.h"

static int failures = 0;

#define CHECK(cond)                                                                          \
  do {                                                                                       \
    if (!(cond)) {                                                                           \
      fprintf(stderr, "%s:%d: check failed: %s (last error: %s)\n", __FILE__, __LINE__, #cond, \
              strata_last_error());                                                          \
      ++failures;                                                                            \
      return 1;                                                                              \
    }                                                                                        \
  } while (0)

/* Rows of every batch of `stream`, released at the end; -1 on an error. */
static long long CountRows(struct ArrowArrayStream* stream) {
  long long rows = 0;
  struct ArrowSchema schema;
  if (stream->get_schema(stream, &schema) != 0) return -1;
  if (strcmp(schema.format, "+s") != 0 || schema.n_children != 3) rows = -1;
  schema.release(&schema);
  while (rows >= 0) {
    struct ArrowArray array;
    if (stream->get_next(stream, &array) != 0) {
      rows = -1;
      break;
    }
    if (array.release == NULL) break;
    rows += array.length;
    array.release(&array);
  }
  stream->release(stream);
  return rows;
}

static int Run(const char* dir) {
  char csv_in[1024], parquet_path[1024], csv_out[1024];
  struct ArrowArrayStream stream;
  FILE* file;
  int i;

  CHECK(strlen(dir) < 900);
  sprintf(csv_in, "%s/c_api_compile_test_in.csv", dir);
  sprintf(parquet_path, "%s/c_api_compile_test.parquet", dir);
  sprintf(csv_out, "%s/c_api_compile_test_out.csv", dir);

  CHECK(strata_version() != NULL && strlen(strata_version()) > 0);
  CHECK(strcmp(strata_last_error(), "") == 0);
  CHECK(strata_set_memory_limit(0) == 0 && strata_memory_limit() == 0);

  file = fopen(csv_in, "w");
  CHECK(file != NULL);
  fprintf(file, "id;name;score\n");
  for (i = 0; i < 1000; ++i) fprintf(file, "%d;n%d;%d.5\n", i, i % 7, i);
  fclose(file);

  /* Option errors are EINVAL with a message naming the key. */
  CHECK(strata_csv_read(csv_in, "delimiter=semicolon;bogus=1", &stream) == EINVAL);
  CHECK(strstr(strata_last_error(), "bogus") != NULL);
  CHECK(stream.release == NULL);

  CHECK(strata_csv_read(csv_in, "delimiter=semicolon;header=yes;batch_rows=100", &stream) == 0);
  CHECK(strcmp(strata_last_error(), "") == 0);
  CHECK(strata_parquet_write(&stream, parquet_path, "codec=zstd;level=3;row_group_rows=300") == 0);
  CHECK(stream.release == NULL); /* consumed */

  CHECK(strata_parquet_read(parquet_path, "threads=2;batch_rows=128", &stream) == 0);
  CHECK(strata_csv_write(&stream, csv_out, "delimiter=tab;header=yes;null=NULL") == 0);
  CHECK(stream.release == NULL);

  CHECK(strata_csv_read(csv_out, "delimiter=tab", &stream) == 0);
  CHECK(CountRows(&stream) == 1000);

  CHECK(strata_parquet_read(parquet_path, "columns=id,name,score", &stream) == 0);
  CHECK(CountRows(&stream) == 1000);

  CHECK(strata_parquet_read(parquet_path, "columns=nope", &stream) == EINVAL);
  CHECK(strata_parquet_write(NULL, parquet_path, NULL) == EINVAL);

  remove(csv_in);
  remove(parquet_path);
  remove(csv_out);
  return 0;
}

int main(int argc, char** argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s SCRATCH_DIR\n", argv[0]);
    return 2;
  }
  Run(argv[1]);
  if (failures == 0) printf("c_api_compile_test: OK (strata %s)\n", strata_version());
  return failures == 0 ? 0 : 1;
}
