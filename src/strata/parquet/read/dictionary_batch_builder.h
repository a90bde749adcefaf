// DictionaryBatchBuilder: the dictionary arrays of a flat BYTE_ARRAY column read with
// BatchReadOptions::read_dictionary. Dictionary-coded pages decode their indices straight into
// the batch (the column reader does); the chunk's dictionary page becomes one string/binary
// array per chunk whose data buffer is the dictionary's own bytes, shared by every batch.
// Values of pages that are not dictionary-coded (a writer's PLAIN fallback) go to a
// batch-local extension of the dictionary, which the batch's indices then address.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <utility>
#include <vector>

#include "strata/array/array_data.h"
#include "strata/memory/buffer.h"
#include "strata/parquet/encoding/byte_array.h"

namespace strata::parquet {

class DictionaryBatchBuilder {
 public:
  // `type`: the output dictionary type (string/binary values, large or not; int32 indices).
  DictionaryBatchBuilder(MemoryPool* pool, TypePtr type);

  // The chunk's dictionary: `n` entries whose bytes lie back to back in `bytes`.
  Status SetDictionary(const ByteArrayView* entries, int64_t n, std::shared_ptr<Buffer> bytes);
  // The chunk's dictionary as an array (null before its dictionary page).
  const ArrayDataPtr& dictionary() const { return dictionary_; }

  // A batch of up to `rows` rows begins; `bytes_per_row` estimates its non-dictionary values.
  void StartBatch(int64_t rows, double bytes_per_row);
  // Indices into the chunk's dictionary were written for a range of the batch.
  void NoteDictionaryIndices() { used_dictionary_ = true; }
  // The `non_null` values of slots [slot, slot + count) come from a page that is not
  // dictionary-coded: they join the extension, and `indices` (the range's, dense) address them.
  Status AppendValues(const ByteArrayView* values, int64_t non_null, int64_t slot, int64_t count, int32_t* indices);
  // The batch's dictionary: the chunk's, the extension, or both (the extension's indices move
  // up past the chunk's entries). `indices` are the batch's (`validity`: which are valid);
  // `check` validates the extension's values (may be empty).
  Result<ArrayDataPtr> FinishDictionary(int32_t* indices, const uint8_t* validity,
                                        const std::function<Status(const ArrayData&)>& check);
  // Scratch held across batches.
  int64_t memory_size() const;

 private:
  template <typename Offset>
  Status AppendExtension(const ByteArrayView* views, int64_t n);

  MemoryPool* pool_;
  TypePtr value_type_;
  bool large_offsets_;
  ArrayDataPtr dictionary_;
  int64_t batch_rows_ = 0;
  double bytes_per_row_ = 0;
  // The batch-local extension (values of pages that are not dictionary-coded), and the ranges
  // of batch slots [first, first + count) whose indices refer to it.
  std::shared_ptr<ResizableBuffer> extension_offsets_;
  std::shared_ptr<ResizableBuffer> extension_data_;
  std::vector<std::shared_ptr<ResizableBuffer>> extension_pieces_;  // full pieces before extension_data_
  int64_t extension_length_ = 0;
  bool used_dictionary_ = false;
  std::vector<std::pair<int64_t, int64_t>> extension_ranges_;
};

}  // namespace strata::parquet
