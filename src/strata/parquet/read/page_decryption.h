// PageDecryption: the PageModules of an encrypted column chunk (Parquet modular encryption).
// It keeps the AAD ordinals as the chunk's pages go by: the dictionary page comes first when the
// chunk has one, and data pages count from 0 after it. The file reader, the row group pruner and
// `strata pages` open a chunk through OpenPageReader, which gives the page reader this layer
// when the chunk's location says it is encrypted.
#pragma once

#include <memory>

#include "strata/parquet/encryption/column_decryption.h"
#include "strata/parquet/read/page_modules.h"
#include "strata/parquet/read/page_reader.h"

namespace strata::parquet {

class PageDecryption final : public PageModules {
 public:
  explicit PageDecryption(std::shared_ptr<const ColumnDecryption> decryption);

  const char* kind() const override { return "encrypted"; }
  int64_t length_prefix_bytes() const override;
  int64_t ModuleBytes(const uint8_t* prefix) const override;
  int64_t page_overhead() const override;
  Status OpenHeader(std::span<const uint8_t> module, int64_t file_offset, ResizableBuffer* plaintext) override;
  Result<int64_t> OpenPage(std::span<const uint8_t> module, int64_t file_offset, ResizableBuffer* plaintext) override;
  void PagePassedOver() override;

 private:
  // Counts the page whose header was opened last.
  void PageDone();

  std::shared_ptr<const ColumnDecryption> decryption_;
  int64_t pages_ = 0;               // pages done, the dictionary included
  int64_t data_page_ordinal_ = 0;   // data pages done (their AADs count them)
  bool current_is_dictionary_ = false;
};

// The page reader of the chunk at `location`, opening its modules with a PageDecryption when
// location.decryption is set (else PageReader::Make as it is).
Result<std::unique_ptr<PageReader>> OpenPageReader(RandomAccessSource* source, ColumnChunkLocation location,
                                                   MemoryPool* pool, const PageReadOptions& options);

}  // namespace strata::parquet
