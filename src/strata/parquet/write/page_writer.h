// PageWriter: the last step of the write path before the file, the mirror of PageReader. It
// turns a page's encoded bytes into a stored page: compression (data page v1: levels and values
// together; v2: values only; dictionary pages), the CRC-32 of the stored bytes, the 2 GiB page
// limit, the Thrift page header, and, when it is given a PageSealer (an encrypted column), the
// page and header modules. One per
// column writer: the codec's contexts and the compression buffers are kept from page to page.
#pragma once

#include <memory>
#include <optional>
#include <span>
#include <string>

#include "strata/codec/codec.h"
#include "strata/memory/block_buffer.h"
#include "strata/parquet/write/page_sealer.h"
#include "strata/parquet/thrift/parquet_types.h"

namespace strata::parquet {

class PageWriter {
 public:
  // `column_path` names the column in errors.
  PageWriter(MemoryPool* pool, std::string column_path, bool checksums);

  Status Init(codec::CompressionCodec codec, int level);
  bool compresses() const { return codec_ != nullptr; }
  // Stores this column's pages and headers as modules sealed by `sealer` (PageEncryption for an
  // encrypted column).
  void SealPagesWith(std::unique_ptr<PageSealer> sealer) { sealer_ = std::move(sealer); }
  // The row group the next pages belong to (sealed pages' AADs count row groups and pages).
  void StartChunk(int64_t row_group);

  // A data page whose body is `levels` followed by `values`: completes `header` (sizes, crc)
  // and appends the header and the stored body to `out`. With `compress_levels` (v1) levels and
  // values are compressed as one; without (v2) the levels stay as they are. Returns the bytes
  // of the header plus the uncompressed body (for total_uncompressed_size).
  Result<int64_t> AppendDataPage(PageHeader header, std::span<const uint8_t> levels,
                                 std::span<const uint8_t> values, bool compress_levels, BlockBuffer* out);

  // A PLAIN dictionary page of `entries` values in `plain`: its serialized header into
  // *header, and in *body the stored body: `plain` itself, or the codec's (or cipher's) output,
  // valid until the next call (the caller writes it then, without a copy into a page buffer).
  // Returns the bytes of the header plus the uncompressed body.
  Result<int64_t> MakeDictionaryPage(std::span<const uint8_t> plain, int64_t entries, std::string* header,
                                     std::span<const uint8_t>* body);

  // Frees the compression and sealing buffers; the next page allocates its own. For a
  // dictionary page whose body the caller copied: the buffers grew to the dictionary's size (up
  // to its 1 MiB limit), which the chunk's data pages may be far from needing.
  void ReleaseScratch();

  // Pool bytes held (buffers and the codec's contexts).
  int64_t memory_size() const;

 private:
  // Sizes and checksum of a page stored as `first` then `second` (either may be empty).
  Status CompleteHeader(PageHeader* header, int64_t uncompressed, std::span<const uint8_t> first,
                        std::span<const uint8_t> second) const;
  // Serializes `header` into header_bytes_, and seals it when pages are sealed.
  Status StoreHeader(const PageHeader& header, PageSealer::PageKind kind);
  // The stored bytes of the serialized header: header_bytes_ or its module.
  std::span<const uint8_t> stored_header() const;

  std::string column_path_;
  bool checksums_;
  std::unique_ptr<codec::Codec> codec_;
  MemoryPool* pool_;
  ResizableBuffer body_;        // v1 levels + values, the codec's input
  ResizableBuffer compressed_;  // the codec's output
  std::string header_bytes_;
  std::unique_ptr<PageSealer> sealer_;  // null: pages stored as they are
  ResizableBuffer page_module_;    // a sealed page (data or dictionary)
  ResizableBuffer header_module_;  // a sealed page header
};

}  // namespace strata::parquet
