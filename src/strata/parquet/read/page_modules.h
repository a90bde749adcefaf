// PageModules: how the page reader opens a column chunk whose page headers and pages are stored
// as modules (length-prefixed, sealed blobs) instead of plain bytes. The page reader finds each
// module's bounds and hands it here to be opened; what sealed it (modular encryption's keys,
// ciphers and AADs: page_decryption.h) is this layer's business, not the page reader's.
#pragma once

#include <cstdint>
#include <span>

#include "strata/memory/buffer.h"
#include "strata/util/result.h"

namespace strata::parquet {

class PageModules {
 public:
  virtual ~PageModules() = default;

  // What the modules are, for errors ("encrypted": "encrypted module of 90 bytes ...").
  virtual const char* kind() const = 0;
  // Bytes at the start of every module that give its length; ModuleBytes reads them.
  virtual int64_t length_prefix_bytes() const = 0;
  // The whole module's size (prefix included), from its first length_prefix_bytes() bytes.
  virtual int64_t ModuleBytes(const uint8_t* prefix) const = 0;
  // Bytes a page's module holds beyond the page itself. Writers disagree on whether a page
  // header's compressed_page_size counts them, so the page reader accepts either.
  virtual int64_t page_overhead() const = 0;

  // Opens the next page header's module (the chunk's pages in order, one call each) into
  // `plaintext`. `file_offset` locates it for errors.
  virtual Status OpenHeader(std::span<const uint8_t> module, int64_t file_offset, ResizableBuffer* plaintext) = 0;
  // Opens the module of the page whose header was opened last into `plaintext`; returns the
  // module bytes it consumed (the whole module when it is well formed).
  virtual Result<int64_t> OpenPage(std::span<const uint8_t> module, int64_t file_offset,
                                   ResizableBuffer* plaintext) = 0;
  // The page whose header was opened last is passed over unopened (later modules may count it).
  virtual void PagePassedOver() = 0;
};

}  // namespace strata::parquet
