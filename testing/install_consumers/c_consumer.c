/* An installed strata used from C99 (scripts/check-install): builds an ArrowArrayStream of its
 * own (two batches of an int64 column), writes it to Parquet with strata_parquet_write, reads
 * the file back with strata_parquet_read and checks the rows and their sum. Usage:
 *   c_consumer SCRATCH_DIR EXPECTED_VERSION
 * Prints "c_consumer: strata VERSION, ROWS rows, sum SUM" and exits 0, else exits 1. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <strata/c/strata.h>

#define BATCHES 2
#define ROWS_PER_BATCH 1000

#define CHECK(cond)                                                                          \
  do {                                                                                       \
    if (!(cond)) {                                                                           \
      fprintf(stderr, "c_consumer: %s:%d: check failed: %s (strata_last_error: %s)\n",       \
              __FILE__, __LINE__, #cond, strata_last_error());                               \
      exit(1);                                                                               \
    }                                                                                        \
  } while (0)

/* --- The producer: a struct<x: int64 not null> stream, values 0, 1, 2, ... --- */

static void ReleaseSchema(struct ArrowSchema* schema) {
  int64_t i;
  for (i = 0; i < schema->n_children; ++i) {
    struct ArrowSchema* child = schema->children[i];
    if (child->release != NULL) child->release(child);
    free(child);
  }
  free(schema->children);
  schema->release = NULL;
}

static void ReleaseChildSchema(struct ArrowSchema* schema) { schema->release = NULL; }

static void FillSchema(struct ArrowSchema* out) {
  struct ArrowSchema* child = (struct ArrowSchema*)calloc(1, sizeof(struct ArrowSchema));
  CHECK(child != NULL);
  child->format = "l";
  child->name = "x";
  child->flags = 0; /* not nullable */
  child->release = ReleaseChildSchema;

  memset(out, 0, sizeof(*out));
  out->format = "+s";
  out->name = "";
  out->n_children = 1;
  out->children = (struct ArrowSchema**)malloc(sizeof(struct ArrowSchema*));
  CHECK(out->children != NULL);
  out->children[0] = child;
  out->release = ReleaseSchema;
}

/* A batch is one allocation (the child array, the pointer arrays and the values), shared by
 * the parent and the child array: a consumer may move the child out and release it later. */
struct Batch {
  int references;
  struct ArrowArray child;
  struct ArrowArray* children[1];
  const void* parent_buffers[1];
  const void* child_buffers[2];
  int64_t values[ROWS_PER_BATCH];
};

static void Unref(struct Batch* batch) {
  if (--batch->references == 0) free(batch);
}

static void ReleaseChildArray(struct ArrowArray* array) {
  Unref((struct Batch*)array->private_data);
  array->release = NULL;
}

static void ReleaseBatch(struct ArrowArray* array) {
  struct Batch* batch = (struct Batch*)array->private_data;
  if (batch->child.release != NULL) batch->child.release(&batch->child); /* not moved out */
  Unref(batch);
  array->release = NULL;
}

static void FillBatch(int index, struct ArrowArray* out) {
  struct Batch* batch = (struct Batch*)calloc(1, sizeof(struct Batch));
  int i;
  CHECK(batch != NULL);
  for (i = 0; i < ROWS_PER_BATCH; ++i) batch->values[i] = (int64_t)index * ROWS_PER_BATCH + i;
  batch->child_buffers[0] = NULL; /* no validity bitmap: no nulls */
  batch->child_buffers[1] = batch->values;
  batch->child.length = ROWS_PER_BATCH;
  batch->child.n_buffers = 2;
  batch->child.buffers = batch->child_buffers;
  batch->child.release = ReleaseChildArray;
  batch->child.private_data = batch;
  batch->references = 2;
  batch->children[0] = &batch->child;
  batch->parent_buffers[0] = NULL;

  memset(out, 0, sizeof(*out));
  out->length = ROWS_PER_BATCH;
  out->n_buffers = 1;
  out->buffers = batch->parent_buffers;
  out->n_children = 1;
  out->children = batch->children;
  out->release = ReleaseBatch;
  out->private_data = batch;
}

static int next_batch = 0;

static int GetSchema(struct ArrowArrayStream* stream, struct ArrowSchema* out) {
  (void)stream;
  FillSchema(out);
  return 0;
}

static int GetNext(struct ArrowArrayStream* stream, struct ArrowArray* out) {
  (void)stream;
  if (next_batch == BATCHES) {
    memset(out, 0, sizeof(*out)); /* released: the end of the stream */
    return 0;
  }
  FillBatch(next_batch++, out);
  return 0;
}

static const char* GetLastError(struct ArrowArrayStream* stream) {
  (void)stream;
  return NULL;
}

static void ReleaseStream(struct ArrowArrayStream* stream) { stream->release = NULL; }

/* --- The consumer side: rows and the sum of x over a stream strata produced --- */

static void Scan(struct ArrowArrayStream* stream, long long* rows, long long* sum) {
  struct ArrowSchema schema;
  *rows = 0;
  *sum = 0;
  CHECK(stream->get_schema(stream, &schema) == 0);
  CHECK(strcmp(schema.format, "+s") == 0 && schema.n_children == 1);
  CHECK(strcmp(schema.children[0]->format, "l") == 0 && strcmp(schema.children[0]->name, "x") == 0);
  schema.release(&schema);
  for (;;) {
    struct ArrowArray array;
    const struct ArrowArray* x;
    const int64_t* values;
    int64_t i;
    CHECK(stream->get_next(stream, &array) == 0);
    if (array.release == NULL) break;
    CHECK(array.n_children == 1);
    x = array.children[0];
    CHECK(x->null_count == 0 && x->n_buffers == 2);
    values = (const int64_t*)x->buffers[1];
    for (i = 0; i < x->length; ++i) *sum += values[x->offset + array.offset + i];
    *rows += array.length;
    array.release(&array);
  }
  stream->release(stream);
}

int main(int argc, char** argv) {
  char path[4096];
  struct ArrowArrayStream stream;
  long long rows, sum;
  const long long expected_rows = (long long)BATCHES * ROWS_PER_BATCH;

  if (argc != 3) {
    fprintf(stderr, "usage: %s SCRATCH_DIR EXPECTED_VERSION\n", argv[0]);
    return 2;
  }
  CHECK(strcmp(strata_version(), argv[2]) == 0);
  CHECK(strlen(argv[1]) < sizeof(path) - 32);
  sprintf(path, "%s/c_consumer.parquet", argv[1]);

  memset(&stream, 0, sizeof(stream));
  stream.get_schema = GetSchema;
  stream.get_next = GetNext;
  stream.get_last_error = GetLastError;
  stream.release = ReleaseStream;
  CHECK(strata_parquet_write(&stream, path, "codec=zstd;row_group_rows=1500") == 0);
  CHECK(stream.release == NULL); /* consumed */

  CHECK(strata_parquet_read(path, "batch_rows=300", &stream) == 0);
  Scan(&stream, &rows, &sum);
  CHECK(rows == expected_rows);
  CHECK(sum == expected_rows * (expected_rows - 1) / 2);

  /* Errors come back as codes with a message. */
  CHECK(strata_parquet_read(path, "bogus=1", &stream) != 0);
  CHECK(strstr(strata_last_error(), "bogus") != NULL);

  remove(path);
  printf("c_consumer: strata %s, %lld rows, sum %lld\n", strata_version(), rows, sum);
  return 0;
}
