// PageSealer: how the page writer stores a column's pages and page headers as modules
// (length-prefixed, sealed blobs) instead of plain bytes, the mirror of the read side's
// PageModules. The page writer hands it each stored page and serialized header; what seals
// them (modular encryption's keys, ciphers and AADs: page_encryption.h) is this layer's
// business, not the page writer's.
#pragma once

#include <cstdint>
#include <span>

#include "strata/memory/buffer.h"
#include "strata/util/status.h"

namespace strata::parquet {

class PageSealer {
 public:
  enum class PageKind { kData, kDictionary };

  virtual ~PageSealer() = default;

  // The row group the next pages belong to.
  virtual void StartChunk(int64_t row_group) = 0;
  // Seals a page stored as `first` then `second` (either may be empty) into `module`.
  virtual Status SealPage(PageKind kind, std::span<const uint8_t> first, std::span<const uint8_t> second,
                          ResizableBuffer* module) = 0;
  // Seals the serialized header of the page SealPage sealed last into `module`; the page is
  // then done (later pages may count it).
  virtual Status SealHeader(PageKind kind, std::span<const uint8_t> header, ResizableBuffer* module) = 0;
};

}  // namespace strata::parquet
