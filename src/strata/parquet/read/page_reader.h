// PageReader: walks one column chunk's pages. It reads page headers and bodies from the byte
// source (the whole chunk in one read when small, else page by page), verifies checksums,
// decompresses into a scratch buffer reused from page to page, and hands out pages whose
// spans stay valid until the next call, or, for a caller that keeps a page's buffer
// (ShareValues: string views into PLAIN pages), as long as it holds it. Dictionary, data v1
// and data v2 pages are returned; index pages and unknown page types are skipped.
#pragma once

#include <memory>
#include <span>
#include <string>

#include "strata/codec/codec.h"
#include "strata/codec/streaming_decompressor.h"
#include "strata/io/random_access_source.h"
#include "strata/parquet/encryption/column_decryption.h"
#include "strata/parquet/read/page_modules.h"
#include "strata/parquet/read/reader_options.h"
#include "strata/parquet/thrift/parquet_types.h"

namespace strata::parquet {

// Where a column chunk is, for reading and for error messages.
struct ColumnChunkLocation {
  int row_group = 0;
  int column = 0;
  std::string column_path;
  int64_t offset = 0;  // file offset of the first page (dictionary or data)
  int64_t length = 0;  // total_compressed_size
  codec::CompressionCodec codec = codec::CompressionCodec::kUncompressed;
  // Set for encrypted chunks: OpenPageReader (page_decryption.h) then gives the page reader
  // the PageModules that decrypt them.
  std::shared_ptr<const ColumnDecryption> decryption;
};

struct Page {
  PageType type = PageType::kDataPage;
  const PageHeader* header = nullptr;
  int64_t file_offset = 0;     // of the page header
  int32_t num_values = 0;      // levels (data pages) or dictionary entries
  Encoding encoding = Encoding::kPlain;
  // Data page v1: levels and values together in `values` (each level run length-prefixed).
  Encoding repetition_level_encoding = Encoding::kRle;
  Encoding definition_level_encoding = Encoding::kRle;
  // Data page v2: levels stored uncompressed, apart from the values.
  std::span<const uint8_t> repetition_levels;
  std::span<const uint8_t> definition_levels;
  std::span<const uint8_t> values;  // decompressed; empty when `streamed`
  int32_t num_nulls = -1;           // v2 only
  int32_t num_rows = -1;            // v2 only
  // The page's values (v1: levels and values) are not materialised: read them with
  // PageReader::ReadStream(), `stream_bytes` in all.
  bool streamed = false;
  int64_t stream_bytes = 0;
};

class PageReader {
 public:
  // `modules`: set when every page header and page of the chunk is a module to open (an
  // encrypted chunk: OpenPageReader in page_decryption.h). Such pages are not streamed: a
  // module is opened whole.
  static Result<std::unique_ptr<PageReader>> Make(RandomAccessSource* source, ColumnChunkLocation location,
                                                  MemoryPool* pool, const PageReadOptions& options,
                                                  std::unique_ptr<PageModules> modules = nullptr);

  // Lets Next() stream large PLAIN data pages (see PageReadOptions::stream_large_pages). The
  // column reader allows it for value types it can decode from a window.
  void AllowStreaming(bool allow) { streaming_allowed_ = allow; }

  // The caller will keep the buffers of PLAIN and DELTA_LENGTH_BYTE_ARRAY data pages
  // (ShareValues): an uncompressed one read page by page then comes from the source's
  // ReadBufferAt, zero-copy on memory and memory-mapped sources (a buffer of its own, the
  // page's size, otherwise), instead of a scratch buffer that ShareValues would then take.
  void KeepStoredPages(bool keep) { keep_stored_pages_ = keep; }

  // The buffer holding the current page's `values` (and, v1, its levels), which the caller may
  // keep for as long as it likes: once kept, the reader never writes into it again (the next
  // page takes a fresh buffer when it would have reused this one). Whatever it points into
  // stays alive with it: the decompressed page, the page as read, or the whole chunk when the
  // chunk was read in one go (at most PageReadOptions::whole_chunk_read_limit bytes, or a
  // slice of a memory map or of an in-memory file). Null for a streamed page and for bytes that
  // cannot be kept cheaply (a slice of a ReadRangeCache entry: read_buffers_keepable()).
  std::shared_ptr<Buffer> ShareValues() const;

  // Fills `page` with the next dictionary or data page; false at the end of the chunk.
  // The page's spans point into buffers owned by this reader and stay valid until the next call.
  Result<bool> Next(Page* page);

  // The next decompressed bytes of the current streamed page, at most `out.size()`; 0 at its
  // end. Reads the source (uncompressed pages) or the codec a window at a time.
  Result<int64_t> ReadStream(std::span<uint8_t> out);

  // Flat columns, whose data pages hold one value per row: the following Next() calls pass
  // over whole data pages as long as they hold at most `rows` rows in all, without
  // decompressing them (or reading them, when the chunk is read page by page). The rows passed
  // over are counted until TakeSkippedRows(), which also ends the skipping.
  void SkipDataPageRows(int64_t rows) { rows_to_skip_ = rows; }
  int64_t TakeSkippedRows() {
    const int64_t rows = rows_skipped_;
    rows_skipped_ = rows_to_skip_ = 0;
    return rows;
  }
  // Data pages passed over so far.
  int64_t pages_skipped() const { return pages_skipped_; }

  const ColumnChunkLocation& location() const { return location_; }
  const std::string& source_name() const { return source_->name(); }
  // Bytes of scratch held (chunk or page buffer, decompression buffer).
  int64_t memory_size() const;

 private:
  PageReader(RandomAccessSource* source, ColumnChunkLocation location, MemoryPool* pool,
             const PageReadOptions& options);
  // Makes bytes [offset, offset + length) of the chunk addressable; returns a pointer to them.
  Result<const uint8_t*> Fetch(int64_t offset, int64_t length, ResizableBuffer* scratch);
  std::string Where(int64_t file_offset) const;
  Status Decompress(std::span<const uint8_t> compressed, int64_t uncompressed_size, int64_t file_offset,
                    std::span<const uint8_t>* out);
  bool CanStream(PageType type, int64_t uncompressed_size) const;
  Status FillPage(PageType type, int64_t header_file_offset, Page* page);
  // Chunks of modules: the module at `offset` in the chunk, in one read when `guess` bytes
  // hold it (its length prefix says how long it is).
  Result<std::span<const uint8_t>> FetchModule(int64_t offset, int64_t guess, ResizableBuffer* scratch,
                                               int64_t header_file_offset);
  // Chunks of modules: opens the header module at position_ into header_; returns its size.
  Result<int64_t> OpenHeaderModule(int64_t header_file_offset, int64_t remaining);
  // Chunks of modules: the page's module (fetched into body_scratch_ unless the chunk is in
  // memory), checked against the header's compressed size.
  Result<std::span<const uint8_t>> FetchPageModule(int64_t body_offset, int64_t compressed_size,
                                                   int64_t header_file_offset);
  // Chunks of modules: the page's module, opened into opened_page_.
  Result<std::span<const uint8_t>> OpenPageModule(std::span<const uint8_t> module, int64_t body_file_offset);
  Status MakeStreamDecompressor(int64_t header_file_offset);
  // After the decompressor's Reset: its declared size checked, `page` marked streamed.
  Status StreamStarted(int64_t uncompressed_size, int64_t header_file_offset, Page* page);
  // Starts streaming the page's values; false when the codec cannot stream this block (a
  // SNAPPY copy past the window), and the page is then decompressed whole.
  Result<bool> StartStream(std::span<const uint8_t> compressed, int64_t uncompressed_size,
                           int64_t header_file_offset, Page* page);
  // The same for a v1 data page read from the source a window at a time, never held whole
  // (codecs that read their input in pieces); false when it cannot be.
  Result<bool> StartSourceStream(int64_t body_offset, int64_t stored_size, int64_t uncompressed_size,
                                 int64_t header_file_offset, Page* page);
  // `*buffer` to write the next page into: itself, or a new one when a caller kept it.
  Result<ResizableBuffer*> Reusable(std::shared_ptr<ResizableBuffer>* buffer);
  // Whether the body of the page whose header is header_ is read into a buffer of its own
  // (KeepStoredPages).
  bool KeepsStoredBody(PageType type) const;

  RandomAccessSource* source_;
  ColumnChunkLocation location_;
  MemoryPool* pool_;
  PageReadOptions options_;
  std::unique_ptr<codec::Codec> codec_;
  std::shared_ptr<Buffer> whole_chunk_;  // when the chunk was read in one go
  ResizableBuffer header_scratch_;
  // Page bodies as read, and decompressed. Shared pointers: ShareValues hands them out.
  std::shared_ptr<ResizableBuffer> body_scratch_;
  std::shared_ptr<ResizableBuffer> decompressed_;
  std::shared_ptr<Buffer> stored_body_;  // KeepStoredPages: the current page as read
  // Where the current page's values are (ShareValues).
  enum class ValuesIn { kNone, kWholeChunk, kStoredBody, kBodyScratch, kDecompressed, kOpenedPage };
  ValuesIn values_in_ = ValuesIn::kNone;
  bool keep_stored_pages_ = false;
  PageHeader header_;
  int64_t position_ = 0;  // offset within the chunk of the next page header

  // Streaming state of the current page.
  bool streaming_allowed_ = false;
  std::unique_ptr<codec::StreamingDecompressor> stream_decompressor_;
  int64_t stream_source_offset_ = -1;  // uncompressed page read from the source: next file offset
  int64_t stream_left_ = 0;            // decompressed bytes still to come
  // A page streamed from the source: its checksum over the bytes read so far, in order.
  uint32_t stream_crc_ = 0;
  int64_t stream_crc_end_ = 0;
  // Chunks of modules: how they open, and the current header and page opened.
  std::unique_ptr<PageModules> modules_;
  ResizableBuffer opened_header_;
  std::shared_ptr<ResizableBuffer> opened_page_;
  // SkipDataPageRows.
  int64_t rows_to_skip_ = 0;
  int64_t rows_skipped_ = 0;
  int64_t pages_skipped_ = 0;
};

}  // namespace strata::parquet
