// The Arrow C Data Interface and C Stream Interface structs: a public, stable ABI shared by
// every Arrow implementation. The include guards are the canonical ones, so a translation
// unit that also includes another project's copy of these definitions sees them only once.
#pragma once

#include <stdint.h>  // NOLINT: a C header

#ifdef __cplusplus
extern "C" {
#endif

#ifndef ARROW_C_DATA_INTERFACE
#define ARROW_C_DATA_INTERFACE

#define ARROW_FLAG_DICTIONARY_ORDERED 1
#define ARROW_FLAG_NULLABLE 2
#define ARROW_FLAG_MAP_KEYS_SORTED 4

struct ArrowSchema {
  // Type description.
  const char* format;
  const char* name;
  const char* metadata;
  int64_t flags;
  int64_t n_children;
  struct ArrowSchema** children;
  struct ArrowSchema* dictionary;

  // Frees what the producer allocated; sets release to NULL. NULL means released.
  void (*release)(struct ArrowSchema*);
  void* private_data;
};

struct ArrowArray {
  // Data description.
  int64_t length;
  int64_t null_count;
  int64_t offset;
  int64_t n_buffers;
  int64_t n_children;
  const void** buffers;
  struct ArrowArray** children;
  struct ArrowArray* dictionary;

  void (*release)(struct ArrowArray*);
  void* private_data;
};

#endif  // ARROW_C_DATA_INTERFACE

#ifndef ARROW_C_STREAM_INTERFACE
#define ARROW_C_STREAM_INTERFACE

struct ArrowArrayStream {
  // Each returns 0 or an errno-compatible code; on error get_last_error may describe it.
  int (*get_schema)(struct ArrowArrayStream*, struct ArrowSchema* out);
  // The next array; at the end of the stream *out is a released array (release NULL).
  int (*get_next)(struct ArrowArrayStream*, struct ArrowArray* out);
  // The last error's message, valid until the next call on this stream, or NULL.
  const char* (*get_last_error)(struct ArrowArrayStream*);

  void (*release)(struct ArrowArrayStream*);
  void* private_data;
};

#endif  // ARROW_C_STREAM_INTERFACE

#ifdef __cplusplus
}
#endif
