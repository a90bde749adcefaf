// ContentDefinedChunker: where a column writer's data pages end when content-defined chunking
// is on. A gear rolling hash runs over each record's levels and values; a page ends at the
// next record start once the hash has matched a mask (and the page holds at least the minimum
// bytes), or once it passes the maximum. So an insert or delete changes only the pages around
// it, and deduplicating storage keeps an edited file as a small delta. Sits beside the column
// writer, which asks it for each batch's boundaries before cutting pages.
//
// What is hashed: per level, the definition and repetition levels (2 bytes each, where the
// column has them; so nulls and list shapes move boundaries too), then the value's physical
// bytes (fixed-width values as stored, byte arrays without their length, booleans one byte;
// dictionary-array input by the dictionary's values, not its indices). Sizes count the bytes
// fed, before encoding and compression.
#pragma once

#include <cstdint>
#include <span>

#include "strata/memory/buffer.h"
#include "strata/parquet/write/level_builder.h"
#include "strata/parquet/write/physical_values.h"
#include "strata/parquet/write/writer_options.h"
#include "strata/parquet/write/writer_schema.h"
#include "strata/util/result.h"

namespace strata::parquet {

class ContentDefinedChunker {
 public:
  // `column` must outlive the chunker; `options` are validated (enabled or not).
  ContentDefinedChunker(const WriterColumn& column, const ContentDefinedChunking& options, MemoryPool* pool);

  // The levels of `leaf` before which a new page starts, ascending, each a record start
  // (repetition level 0). 0 may be among them: the boundary fell between the previous batch
  // and this one. The hash and the chunk's size carry over from call to call until Reset(),
  // so boundaries do not depend on how the rows were split into batches. The span points
  // into the chunker's buffer: valid until the next call.
  Result<std::span<const int64_t>> FindBoundaries(const ShreddedLeaf& leaf);

  // A new column chunk (row group) starts: its first page starts afresh.
  void Reset();

  // The mask a hash must match (its top bits zero): log2 of half the span between the
  // minimum and maximum size, minus the normalisation level, bits. Exposed for tests.
  uint64_t mask() const { return mask_; }
  int64_t memory_size() const;

 private:
  void RollBytes(const uint8_t* data, int64_t length);
  Status PrepareDictionary(const ArrayDataPtr& dictionary);
  // The next elements of the leaf's ranges (at most kPieceElements of one range), gathered.
  Status GatherPiece(const ShreddedLeaf& leaf);
  // `hashing`: the level began at or past the minimum (else its bytes are only counted).
  Status RollValueOfElement(const ShreddedLeaf& leaf, bool non_null, bool hashing);
  // FindBoundaries for a flat leaf whose levels are left to its validity bits (`validity`,
  // nullptr without nulls), without dictionary input or booleans: the same boundaries, without
  // the per-level dispatch.
  Status FindBoundariesFlat(const ShreddedLeaf& leaf, const uint8_t* validity);

  const WriterColumn& column_;
  int64_t min_bytes_;
  int64_t max_bytes_;
  uint64_t mask_;
  PhysicalValueGatherer gatherer_;
  ResizableBuffer boundaries_;
  // Dictionary-array input: the current dictionary's physical values.
  ArrayDataPtr dictionary_;
  ResizableBuffer dictionary_values_;
  int64_t dictionary_length_ = 0;

  // The walk over one leaf's elements: the range being read, the next element, and the
  // gathered piece of non-null values with a cursor into it.
  size_t range_ = 0;
  int64_t element_ = 0;
  int64_t piece_end_ = 0;  // elements before this are gathered
  GatheredValues piece_;
  const int32_t* piece_indices_ = nullptr;  // dictionary input: the piece's indices
  int64_t piece_value_ = 0;

  // The rolling state of the current chunk.
  uint64_t hash_ = 0;
  int64_t chunk_bytes_ = 0;
  bool matched_ = false;
};

}  // namespace strata::parquet
