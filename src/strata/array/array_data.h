// ArrayData: the Arrow in-memory layout of one array, shared by every typed view, builder,
// validator and (later) the Arrow C Data Interface export. Buffers are in Arrow order
// (validity first) and come 64-byte aligned from a MemoryPool, so export is zero-copy.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

#include "strata/memory/buffer.h"
#include "strata/types/data_type.h"
#include "strata/types/field.h"

namespace strata {

// null_count value meaning "not computed yet"; GetNullCount() computes and caches it.
inline constexpr int64_t kUnknownNullCount = -1;

// Buffer order per type (Arrow's):
//   null:                      [nullptr]
//   boolean, primitives, fixed_size_binary, decimals: [validity, values]
//   binary, string (+large):   [validity, offsets (length + 1 entries), data]
//   binary_view, string_view:  [validity, views (16 bytes each), data buffers...]
//   list, large_list, map:     [validity, offsets], one child
//   fixed_size_list:           [validity], one child (length * list_size + offsets)
//   struct:                    [validity], one child per field
//   dictionary:                [validity, indices], `dictionary` holds the values
// The validity buffer may be nullptr when the array has no nulls.
// `offset` is in elements (bits for bitmaps); it applies to this array's own buffers, and to
// children only through offsets (list) or directly (struct, fixed_size_list).
struct ArrayData {
  TypePtr type;
  int64_t length = 0;
  int64_t null_count = 0;  // kUnknownNullCount until computed
  int64_t offset = 0;
  std::vector<std::shared_ptr<Buffer>> buffers;
  std::vector<std::shared_ptr<ArrayData>> children;
  std::shared_ptr<ArrayData> dictionary;  // dictionary type only

  ArrayData() = default;
  ArrayData(TypePtr type, int64_t length, std::vector<std::shared_ptr<Buffer>> buffers,
            int64_t null_count = kUnknownNullCount, int64_t offset = 0)
      : type(std::move(type)), length(length), null_count(null_count), offset(offset), buffers(std::move(buffers)) {}

  static std::shared_ptr<ArrayData> Make(TypePtr type, int64_t length, std::vector<std::shared_ptr<Buffer>> buffers,
                                         int64_t null_count = kUnknownNullCount, int64_t offset = 0) {
    return std::make_shared<ArrayData>(std::move(type), length, std::move(buffers), null_count, offset);
  }

  // The validity bitmap's bytes (bit `offset` is element 0), or nullptr when there is none.
  const uint8_t* validity_data() const {
    return !buffers.empty() && buffers[0] != nullptr ? buffers[0]->data() : nullptr;
  }

  // The null count, counting the bitmap once if it is unknown. Safe to call concurrently
  // (the cache is written with an atomic store).
  int64_t GetNullCount() const;

  // A zero-copy view of elements [offset, offset + length) of this array (bounds are the
  // caller's precondition). The null count becomes unknown unless it was known to be 0.
  std::shared_ptr<ArrayData> Slice(int64_t offset, int64_t length) const;
};

using ArrayDataPtr = std::shared_ptr<ArrayData>;

}  // namespace strata
