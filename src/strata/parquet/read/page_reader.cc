#include "strata/parquet/read/page_reader.h"

#include <algorithm>

#include <fmt/format.h>

#include "strata/codec/crc32.h"

#include <zstd.h>

namespace strata::parquet {

Status PageReadOptions::Validate() const {
  if (whole_chunk_read_limit < 0) return Status::Invalid("whole_chunk_read_limit must be >= 0");
  if (max_page_bytes <= 0) return Status::Invalid("max_page_bytes must be > 0");
  if (max_page_header_bytes < 64) return Status::Invalid("max_page_header_bytes must be >= 64");
  if (stream_window_bytes < 1024) return Status::Invalid("stream_window_bytes must be >= 1024");
  if (column_windows_total_bytes < 0) return Status::Invalid("column_windows_total_bytes must be >= 0");
  if (snappy_stream_windows < 1) return Status::Invalid("snappy_stream_windows must be >= 1");
  return Status::OK();
}

PageReader::PageReader(RandomAccessSource* source, ColumnChunkLocation location, MemoryPool* pool,
                       const PageReadOptions& options)
    : source_(source),
      location_(std::move(location)),
      pool_(pool),
      options_(options),
      header_scratch_(pool),
      opened_header_(pool) {}

Result<std::unique_ptr<PageReader>> PageReader::Make(RandomAccessSource* source, ColumnChunkLocation location,
                                                     MemoryPool* pool, const PageReadOptions& options,
                                                     std::unique_ptr<PageModules> modules) {
  STRATA_RETURN_NOT_OK(options.Validate());
  auto reader = std::unique_ptr<PageReader>(new PageReader(source, std::move(location), pool, options));
  reader->modules_ = std::move(modules);
  const auto& loc = reader->location_;
  STRATA_ASSIGN_OR_RETURN(const int64_t file_size, source->Size());
  if (loc.offset < 0 || loc.length < 0 || loc.offset > file_size || loc.length > file_size - loc.offset) {
    return Status::Corrupt("column '{}' (row group {}) of '{}': chunk at offset {} with {} bytes lies outside the file ({} bytes)",
                           loc.column_path, loc.row_group, source->name(), loc.offset, loc.length, file_size);
  }
  if (loc.codec != codec::CompressionCodec::kUncompressed) {
    auto codec = codec::MakeCodec(loc.codec, pool);
    if (!codec.ok()) {
      return codec.status().WithContext(
          fmt::format("'{}', column '{}' (row group {})", source->name(), loc.column_path, loc.row_group));
    }
    reader->codec_ = std::move(*codec);
  }
  if (loc.length <= options.whole_chunk_read_limit) {
    STRATA_ASSIGN_OR_RETURN(reader->whole_chunk_, source->ReadBufferAt(loc.offset, loc.length, pool));
  }
  return reader;
}

// The column reader prefixes file, column and row group; pages add where they start.
std::string PageReader::Where(int64_t file_offset) const { return fmt::format("page at offset {}", file_offset); }

int64_t PageReader::memory_size() const {
  const auto capacity = [](const auto& buffer) -> int64_t { return buffer ? buffer->capacity() : 0; };
  return capacity(whole_chunk_) + header_scratch_.capacity() + capacity(body_scratch_) + capacity(decompressed_) +
         capacity(stored_body_) + opened_header_.capacity() + capacity(opened_page_) +
         (codec_ ? codec_->memory_size() : 0) +
         (stream_decompressor_ ? stream_decompressor_->memory_size() : 0);
}

std::shared_ptr<Buffer> PageReader::ShareValues() const {
  switch (values_in_) {
    case ValuesIn::kWholeChunk: return source_->read_buffers_keepable() ? whole_chunk_ : nullptr;
    case ValuesIn::kStoredBody: return stored_body_;
    case ValuesIn::kBodyScratch: return body_scratch_;
    case ValuesIn::kDecompressed: return decompressed_;
    case ValuesIn::kOpenedPage: return opened_page_;
    default: return nullptr;
  }
}

Result<ResizableBuffer*> PageReader::Reusable(std::shared_ptr<ResizableBuffer>* buffer) {
  // use_count() > 1: a caller kept it (ShareValues) and may still read it. Only this reader
  // hands out references, so a count of 1 cannot rise while we write.
  if (*buffer == nullptr || buffer->use_count() > 1) {
    STRATA_ASSIGN_OR_RETURN(*buffer, ResizableBuffer::Make(pool_));
  }
  return buffer->get();
}

bool PageReader::KeepsStoredBody(PageType type) const {
  if (!keep_stored_pages_ || codec_ || whole_chunk_ || modules_ || !source_->read_buffers_keepable()) {
    return false;
  }
  Encoding encoding;
  if (type == PageType::kDataPage && header_.data_page_header) {
    encoding = header_.data_page_header->encoding;
  } else if (type == PageType::kDataPageV2 && header_.data_page_header_v2) {
    encoding = header_.data_page_header_v2->encoding;
  } else {
    return false;
  }
  return encoding == Encoding::kPlain || encoding == Encoding::kDeltaLengthByteArray;
}

Result<const uint8_t*> PageReader::Fetch(int64_t offset, int64_t length, ResizableBuffer* scratch) {
  if (whole_chunk_) return whole_chunk_->data() + offset;
  STRATA_RETURN_NOT_OK(scratch->ReserveScratch(length));
  scratch->set_size(length);
  STRATA_RETURN_NOT_OK(source_->ReadAt(location_.offset + offset, length, scratch->mutable_data()));
  return static_cast<const uint8_t*>(scratch->data());
}

namespace {

// The most a codec can expand `compressed` bytes, so a page header cannot make the reader
// allocate far more than its data can decode to (a 30-byte page declaring 1 GiB). Snappy
// copies emit at most 64 bytes per 3-byte tag; LZ4 at most ~255 bytes per input byte;
// deflate at most 1032:1. ZSTD states the frame's content size in its header when the writer
// knew it; BROTLI has no cheap bound (the page-size and pool limits apply).
int64_t DeclaredSizeBound(codec::CompressionCodec codec, int64_t n) {
  switch (codec) {
    case codec::CompressionCodec::kSnappy: return 22 * n + 64;
    case codec::CompressionCodec::kLz4:
    case codec::CompressionCodec::kLz4Raw: return 256 * n + 64;
    case codec::CompressionCodec::kGzip: return 1032 * n + 1024;
    default: return -1;
  }
}

Status CheckDeclaredSize(codec::CompressionCodec codec, std::span<const uint8_t> compressed, int64_t declared) {
  const auto n = static_cast<int64_t>(compressed.size());
  int64_t bound = DeclaredSizeBound(codec, n);
  switch (codec) {
    case codec::CompressionCodec::kZstd: {
      const unsigned long long size = ZSTD_getFrameContentSize(compressed.data(), compressed.size());
      if (size != ZSTD_CONTENTSIZE_UNKNOWN && size != ZSTD_CONTENTSIZE_ERROR && compressed.size() > 0) {
        // Several frames may follow; only a first frame larger than the page is impossible.
        if (size > static_cast<unsigned long long>(declared)) bound = declared - 1;
      }
      break;
    }
    default: break;
  }
  if (bound >= 0 && declared > bound) {
    return Status::Corrupt("{} compressed bytes cannot decompress to the {} bytes the header declares", n, declared);
  }
  return Status::OK();
}

}  // namespace

Status PageReader::Decompress(std::span<const uint8_t> compressed, int64_t uncompressed_size, int64_t file_offset,
                              std::span<const uint8_t>* out) {
  Status plausible = CheckDeclaredSize(location_.codec, compressed, uncompressed_size);
  if (!plausible.ok()) return plausible.WithContext(Where(file_offset));
  // The previous page is done with: a larger page frees the old buffer before allocating.
  STRATA_ASSIGN_OR_RETURN(ResizableBuffer* const decompressed, Reusable(&decompressed_));
  STRATA_RETURN_NOT_OK(decompressed->ReserveScratch(uncompressed_size));
  decompressed->set_size(uncompressed_size);
  auto written = codec_->Decompress(compressed, {decompressed->mutable_data(), static_cast<size_t>(uncompressed_size)});
  if (!written.ok()) return written.status().WithContext(Where(file_offset));
  if (*written != uncompressed_size) {
    return Status::Corrupt("{}: decompressed to {} bytes, the header declares {}", Where(file_offset), *written,
                           uncompressed_size);
  }
  *out = {decompressed->data(), static_cast<size_t>(uncompressed_size)};
  return Status::OK();
}

bool PageReader::CanStream(PageType type, int64_t uncompressed_size) const {
  if (type == PageType::kDataPage ? !header_.data_page_header : !header_.data_page_header_v2) return false;
  const Encoding encoding = type == PageType::kDataPage ? header_.data_page_header->encoding
                                                        : header_.data_page_header_v2->encoding;
  if (encoding != Encoding::kPlain) return false;
  // v1 levels are read from the stream's head: only the length-prefixed RLE form is supported.
  if (type == PageType::kDataPage && header_.data_page_header->definition_level_encoding != Encoding::kRle) return false;
  if (!codec_) return true;
  switch (location_.codec) {
    case codec::CompressionCodec::kZstd:
    case codec::CompressionCodec::kGzip:
    case codec::CompressionCodec::kBrotli: return true;
    // Our SNAPPY decoder runs slower than the library's whole-block one: only pages of more
    // than snappy_stream_windows windows stream (large values; a wide row group's windows).
    case codec::CompressionCodec::kSnappy:
      return uncompressed_size > options_.snappy_stream_windows * options_.stream_window_bytes;
    default: return false;
  }
}

Status PageReader::FillPage(PageType type, int64_t header_file_offset, Page* page) {
  *page = Page{};
  page->type = type;
  page->header = &header_;
  page->file_offset = header_file_offset;
  if (!header_.data_page_header) {
    return Status::Corrupt("{}: data page without a data_page_header", Where(header_file_offset));
  }
  const auto& h = *header_.data_page_header;
  page->num_values = h.num_values;
  page->encoding = h.encoding;
  page->repetition_level_encoding = h.repetition_level_encoding;
  page->definition_level_encoding = h.definition_level_encoding;
  if (page->num_values < 0) return Status::Corrupt("{}: {} values", Where(header_file_offset), page->num_values);
  return Status::OK();
}

Status PageReader::MakeStreamDecompressor(int64_t header_file_offset) {
  if (stream_decompressor_) return Status::OK();
  auto decompressor = codec::MakeStreamingDecompressor(location_.codec, pool_);
  if (!decompressor.ok()) return decompressor.status().WithContext(Where(header_file_offset));
  stream_decompressor_ = std::move(*decompressor);
  return Status::OK();
}

Status PageReader::StreamStarted(int64_t uncompressed_size, int64_t header_file_offset, Page* page) {
  const int64_t declared = stream_decompressor_->declared_size();
  if (declared >= 0 && declared != uncompressed_size) {
    return Status::Corrupt("{}: page decompresses to {} bytes, the header declares {}", Where(header_file_offset),
                           declared, uncompressed_size);
  }
  page->streamed = true;
  page->stream_bytes = uncompressed_size;
  page->values = {};
  stream_left_ = uncompressed_size;
  return Status::OK();
}

Result<bool> PageReader::StartStream(std::span<const uint8_t> compressed, int64_t uncompressed_size,
                                     int64_t header_file_offset, Page* page) {
  Status plausible = CheckDeclaredSize(location_.codec, compressed, uncompressed_size);
  if (!plausible.ok()) return plausible.WithContext(Where(header_file_offset));
  STRATA_RETURN_NOT_OK(MakeStreamDecompressor(header_file_offset));
  Status st = stream_decompressor_->Reset(compressed);
  // A SNAPPY block reaching back past the streaming window: decompressed whole instead.
  if (st.IsNotImplemented()) return false;
  if (!st.ok()) return st.WithContext(Where(header_file_offset));
  STRATA_RETURN_NOT_OK(StreamStarted(uncompressed_size, header_file_offset, page));
  return true;
}

Result<bool> PageReader::StartSourceStream(int64_t body_offset, int64_t stored_size, int64_t uncompressed_size,
                                           int64_t header_file_offset, Page* page) {
  STRATA_RETURN_NOT_OK(MakeStreamDecompressor(header_file_offset));
  if (!stream_decompressor_->supports_input_reader()) return false;
  const int64_t bound = DeclaredSizeBound(location_.codec, stored_size);
  if (bound >= 0 && uncompressed_size > bound) {
    return Status::Corrupt("{}: {} compressed bytes cannot decompress to the {} bytes the header declares",
                           Where(header_file_offset), stored_size, uncompressed_size);
  }
  const int64_t file_start = location_.offset + body_offset;
  const bool verify = options_.verify_checksums && header_.crc.has_value();
  stream_crc_ = 0;
  stream_crc_end_ = verify ? 0 : stored_size;  // bytes the checksum covers so far
  auto read = [this, file_start](int64_t offset, std::span<uint8_t> out) -> Status {
    STRATA_RETURN_NOT_OK(source_->ReadAt(file_start + offset, static_cast<int64_t>(out.size()), out.data()));
    const int64_t end = offset + static_cast<int64_t>(out.size());
    if (offset <= stream_crc_end_ && end > stream_crc_end_) {
      stream_crc_ = codec::Crc32(out.subspan(static_cast<size_t>(stream_crc_end_ - offset)), stream_crc_);
      stream_crc_end_ = end;
    }
    return Status::OK();
  };
  Status st = stream_decompressor_->ResetWithReader(stored_size, std::move(read), verify);
  if (st.IsNotImplemented()) return false;  // a SNAPPY copy past the window: read whole
  if (!st.ok()) return st.WithContext(Where(header_file_offset));
  // Validation has read every byte in order; decoding reads them again, past the checksum.
  if (verify && (stream_crc_end_ != stored_size || stream_crc_ != static_cast<uint32_t>(*header_.crc))) {
    return Status::ChecksumError("{}: page checksum mismatch (stored {:08x}, computed {:08x})",
                                 Where(header_file_offset), static_cast<uint32_t>(*header_.crc), stream_crc_);
  }
  STRATA_RETURN_NOT_OK(StreamStarted(uncompressed_size, header_file_offset, page));
  return true;
}

Result<int64_t> PageReader::ReadStream(std::span<uint8_t> out) {
  const int64_t wanted = std::min<int64_t>(static_cast<int64_t>(out.size()), stream_left_);
  if (wanted <= 0) return 0;
  if (stream_source_offset_ >= 0) {
    STRATA_RETURN_NOT_OK(source_->ReadAt(stream_source_offset_, wanted, out.data()));
    stream_source_offset_ += wanted;
    stream_left_ -= wanted;
    return wanted;
  }
  int64_t produced = 0;
  while (produced < wanted) {
    STRATA_ASSIGN_OR_RETURN(const int64_t n, stream_decompressor_->Read(out.subspan(static_cast<size_t>(produced),
                                                                                    static_cast<size_t>(wanted - produced))));
    if (n == 0) {
      return Status::Corrupt("page values end after {} decompressed bytes; the header declares {} more",
                             stream_decompressor_->total_out(), stream_left_ - produced);
    }
    produced += n;
  }
  stream_left_ -= produced;
  return produced;
}

Result<std::span<const uint8_t>> PageReader::FetchModule(int64_t offset, int64_t guess, ResizableBuffer* scratch,
                                                         int64_t header_file_offset) {
  const int64_t left = location_.length - offset;
  const int64_t prefix = modules_->length_prefix_bytes();
  if (left < prefix) {
    return Status::Corrupt("{}: {} bytes left in the chunk cannot hold an {} module", Where(header_file_offset), left,
                           modules_->kind());
  }
  // One read when the guess covers the module (a page: its header's size; a header: a window).
  int64_t fetched = std::clamp(guess, prefix, left);
  STRATA_ASSIGN_OR_RETURN(const uint8_t* bytes, Fetch(offset, fetched, scratch));
  const int64_t module_bytes = modules_->ModuleBytes(bytes);
  if (module_bytes > left) {
    return Status::Corrupt("{}: {} module of {} bytes runs past the chunk ({} bytes left)", Where(header_file_offset),
                           modules_->kind(), module_bytes, left);
  }
  if (module_bytes > fetched) {
    STRATA_ASSIGN_OR_RETURN(bytes, Fetch(offset, module_bytes, scratch));
  }
  return std::span<const uint8_t>(bytes, static_cast<size_t>(module_bytes));
}

Result<int64_t> PageReader::OpenHeaderModule(int64_t header_file_offset, int64_t remaining) {
  STRATA_ASSIGN_OR_RETURN(
      const auto module,
      FetchModule(position_, std::min<int64_t>(remaining, 64 * 1024), &header_scratch_, header_file_offset));
  const auto module_bytes = static_cast<int64_t>(module.size());
  if (module_bytes > options_.max_page_header_bytes) {
    return Status::Corrupt("{}: {} page header of {} bytes is larger than the header limit ({})",
                           Where(header_file_offset), modules_->kind(), module_bytes, options_.max_page_header_bytes);
  }
  STRATA_RETURN_NOT_OK(modules_->OpenHeader(module, header_file_offset, &opened_header_));
  header_ = PageHeader{};
  auto parsed = DeserializePageHeader(opened_header_.data(), static_cast<size_t>(opened_header_.size()), &header_,
                                      header_file_offset);
  if (!parsed.ok()) return parsed.status().WithContext(fmt::format("{} ({} header)", Where(header_file_offset), modules_->kind()));
  return module_bytes;
}

Result<std::span<const uint8_t>> PageReader::FetchPageModule(int64_t body_offset, int64_t compressed_size,
                                                             int64_t header_file_offset) {
  // Arrow C++ and parquet-mr store the module's size as compressed_page_size; DuckDB stores the
  // plaintext's, the module being that plus its length, nonce and tag.
  const int64_t overhead = modules_->page_overhead();
  STRATA_ASSIGN_OR_RETURN(ResizableBuffer* const scratch, Reusable(&body_scratch_));
  STRATA_ASSIGN_OR_RETURN(const auto module,
                          FetchModule(body_offset, compressed_size + overhead, scratch, header_file_offset));
  const auto module_bytes = static_cast<int64_t>(module.size());
  if (module_bytes != compressed_size && module_bytes != compressed_size + overhead) {
    return Status::Corrupt("{}: {} page of {} bytes for a page header declaring {}", Where(header_file_offset),
                           modules_->kind(), module_bytes, compressed_size);
  }
  return module;
}

Result<std::span<const uint8_t>> PageReader::OpenPageModule(std::span<const uint8_t> module, int64_t body_file_offset) {
  STRATA_ASSIGN_OR_RETURN(ResizableBuffer* const plaintext, Reusable(&opened_page_));
  STRATA_ASSIGN_OR_RETURN(const int64_t module_bytes, modules_->OpenPage(module, body_file_offset, plaintext));
  if (module_bytes != static_cast<int64_t>(module.size())) {
    return Status::Corrupt("{}: the {} page takes {} of the {} bytes its header gives it", Where(body_file_offset),
                           modules_->kind(), module_bytes, module.size());
  }
  return std::span<const uint8_t>(plaintext->data(), static_cast<size_t>(plaintext->size()));
}

Result<bool> PageReader::Next(Page* page) {
  values_in_ = ValuesIn::kNone;
  stored_body_.reset();
  while (position_ < location_.length) {
    const int64_t header_file_offset = location_.offset + position_;
    const int64_t remaining = location_.length - position_;
    // Parse the header from a window that grows until the header fits: most headers take
    // a few dozen bytes, statistics can make them larger.
    int64_t window = std::min<int64_t>(remaining, whole_chunk_ ? remaining : 4 * 1024);
    size_t header_size = 0;
    if (modules_) {
      STRATA_ASSIGN_OR_RETURN(const int64_t module_bytes, OpenHeaderModule(header_file_offset, remaining));
      header_size = static_cast<size_t>(module_bytes);
    }
    while (!modules_) {
      STRATA_ASSIGN_OR_RETURN(const uint8_t* bytes, Fetch(position_, window, &header_scratch_));
      header_ = PageHeader{};
      auto parsed = DeserializePageHeader(bytes, static_cast<size_t>(window), &header_, header_file_offset);
      if (parsed.ok()) {
        header_size = *parsed;
        break;
      }
      if (window >= remaining || window >= options_.max_page_header_bytes) {
        return parsed.status().WithContext(Where(header_file_offset));
      }
      window = std::min({remaining, window * 4, options_.max_page_header_bytes});
    }
    const int64_t compressed_size = header_.compressed_page_size;
    const int64_t uncompressed_size = header_.uncompressed_page_size;
    if (compressed_size < 0 || uncompressed_size < 0) {
      return Status::Corrupt("{}: negative page size (compressed {}, uncompressed {})", Where(header_file_offset),
                             compressed_size, uncompressed_size);
    }
    const int64_t body_offset = position_ + static_cast<int64_t>(header_size);
    if (compressed_size > location_.length - body_offset) {
      return Status::Corrupt("{}: page of {} bytes runs past the end of the column chunk ({} bytes left)",
                             Where(header_file_offset), compressed_size, location_.length - body_offset);
    }
    if (compressed_size > options_.max_page_bytes || uncompressed_size > options_.max_page_bytes) {
      return Status::LimitExceeded("{}: page declares {} bytes ({} compressed), above the limit of {}",
                                   Where(header_file_offset), uncompressed_size, compressed_size,
                                   options_.max_page_bytes);
    }
    // Bytes the page takes in the chunk: its compressed size, or its module, whose own length
    // prefix says (writers disagree on whether the header counts it).
    std::span<const uint8_t> page_module;
    int64_t stored_size = compressed_size;
    if (modules_) {
      STRATA_ASSIGN_OR_RETURN(page_module, FetchPageModule(body_offset, compressed_size, header_file_offset));
      stored_size = static_cast<int64_t>(page_module.size());
    }
    position_ = body_offset + stored_size;

    const PageType type = header_.type;
    if (type != PageType::kDataPage && type != PageType::kDataPageV2 && type != PageType::kDictionaryPage) {
      continue;  // index pages and page types from the future carry nothing we decode
    }
    if (rows_to_skip_ > 0 && type != PageType::kDictionaryPage) {
      const int64_t values = type == PageType::kDataPage
                                 ? (header_.data_page_header ? header_.data_page_header->num_values : -1)
                                 : (header_.data_page_header_v2 ? header_.data_page_header_v2->num_values : -1);
      if (values >= 0 && values <= rows_to_skip_) {
        rows_to_skip_ -= values;
        rows_skipped_ += values;
        ++pages_skipped_;
        if (modules_) modules_->PagePassedOver();
        continue;
      }
    }
    stream_left_ = 0;
    stream_source_offset_ = -1;
    const bool stream = streaming_allowed_ && options_.stream_large_pages && !modules_ &&
                        (type != PageType::kDictionaryPage) &&
                        uncompressed_size > options_.stream_window_bytes && CanStream(type, uncompressed_size);
    // An uncompressed page not already in memory is streamed straight from the source: the
    // body is never held whole (and its checksum is then not verified: that needs every byte).
    if (stream && !codec_ && !whole_chunk_ && type == PageType::kDataPage) {
      if (compressed_size != uncompressed_size) {
        return Status::Corrupt("{}: uncompressed page declares {} bytes but stores {}", Where(header_file_offset),
                               uncompressed_size, compressed_size);
      }
      STRATA_RETURN_NOT_OK(FillPage(type, header_file_offset, page));
      page->streamed = true;
      page->stream_bytes = uncompressed_size;
      stream_source_offset_ = location_.offset + body_offset;
      stream_left_ = uncompressed_size;
      return true;
    }
    // So is a compressed one whose codec reads its input in pieces (SNAPPY): a window at a
    // time, twice (the codec validates the block first, and the checksum is checked then).
    if (stream && codec_ && !whole_chunk_ && !modules_ && type == PageType::kDataPage) {
      STRATA_RETURN_NOT_OK(FillPage(type, header_file_offset, page));
      STRATA_ASSIGN_OR_RETURN(const bool streamed,
                              StartSourceStream(body_offset, stored_size, uncompressed_size, header_file_offset, page));
      if (streamed) return true;
    }
    std::span<const uint8_t> compressed = page_module;
    ValuesIn stored_in = ValuesIn::kOpenedPage;
    if (!modules_) {
      const uint8_t* body = nullptr;
      if (whole_chunk_) {
        body = whole_chunk_->data() + body_offset;
        stored_in = ValuesIn::kWholeChunk;
      } else if (KeepsStoredBody(type)) {
        STRATA_ASSIGN_OR_RETURN(stored_body_,
                                source_->ReadBufferAt(location_.offset + body_offset, stored_size, pool_));
        body = stored_body_->data();
        stored_in = ValuesIn::kStoredBody;
      } else {
        STRATA_ASSIGN_OR_RETURN(ResizableBuffer* const scratch, Reusable(&body_scratch_));
        STRATA_ASSIGN_OR_RETURN(body, Fetch(body_offset, stored_size, scratch));
        stored_in = ValuesIn::kBodyScratch;
      }
      compressed = {body, static_cast<size_t>(stored_size)};
    }
    // The checksum covers the page as stored: compressed, and sealed in its module if it is.
    if (options_.verify_checksums && header_.crc) {
      const uint32_t actual = codec::Crc32(compressed);
      if (actual != static_cast<uint32_t>(*header_.crc)) {
        return Status::ChecksumError("{}: page checksum mismatch (stored {:08x}, computed {:08x})",
                                     Where(header_file_offset), static_cast<uint32_t>(*header_.crc), actual);
      }
    }
    if (modules_) {
      STRATA_ASSIGN_OR_RETURN(compressed, OpenPageModule(compressed, location_.offset + body_offset));
    }
    // The compressed bytes (opened from their module if they were in one).
    const auto body_size = static_cast<int64_t>(compressed.size());

    *page = Page{};
    page->type = type;
    page->header = &header_;
    page->file_offset = header_file_offset;
    if (type == PageType::kDictionaryPage) {
      if (!header_.dictionary_page_header) {
        return Status::Corrupt("{}: dictionary page without a dictionary_page_header", Where(header_file_offset));
      }
      page->num_values = header_.dictionary_page_header->num_values;
      page->encoding = header_.dictionary_page_header->encoding;
    } else if (type == PageType::kDataPage) {
      STRATA_RETURN_NOT_OK(FillPage(type, header_file_offset, page));
    } else {
      if (!header_.data_page_header_v2) {
        return Status::Corrupt("{}: data page v2 without a data_page_header_v2", Where(header_file_offset));
      }
      const auto& h = *header_.data_page_header_v2;
      page->num_values = h.num_values;
      page->encoding = h.encoding;
      page->num_nulls = h.num_nulls;
      page->num_rows = h.num_rows;
      const int64_t levels = static_cast<int64_t>(h.repetition_levels_byte_length) + h.definition_levels_byte_length;
      if (h.repetition_levels_byte_length < 0 || h.definition_levels_byte_length < 0 || levels > body_size ||
          levels > uncompressed_size) {
        return Status::Corrupt("{}: level lengths {} + {} do not fit the page ({} bytes)", Where(header_file_offset),
                               h.repetition_levels_byte_length, h.definition_levels_byte_length, body_size);
      }
      page->repetition_levels = compressed.subspan(0, static_cast<size_t>(h.repetition_levels_byte_length));
      page->definition_levels = compressed.subspan(static_cast<size_t>(h.repetition_levels_byte_length),
                                                   static_cast<size_t>(h.definition_levels_byte_length));
      std::span<const uint8_t> values = compressed.subspan(static_cast<size_t>(levels));
      const int64_t values_size = uncompressed_size - levels;
      // PyArrow before 3.0 flagged compressed v2 pages is_compressed = false. A page so flagged
      // whose stored values are not the declared size cannot be plain: decompress it, as
      // Arrow C++ reads those files.
      const bool compressed_values =
          codec_ && (h.is_compressed || static_cast<int64_t>(values.size()) != values_size);
      bool streamed = false;
      if (stream && compressed_values && values_size > options_.stream_window_bytes) {
        STRATA_ASSIGN_OR_RETURN(streamed, StartStream(values, values_size, header_file_offset, page));
      }
      if (values_size == 0) {
        // All values null: some writers still compress the empty value section (a 1-byte
        // snappy block, a short zstd frame); there is nothing to decompress.
        page->values = {};
      } else if (streamed) {
        // The values come through ReadStream().
      } else if (compressed_values) {
        STRATA_RETURN_NOT_OK(Decompress(values, values_size, header_file_offset, &page->values));
        values_in_ = ValuesIn::kDecompressed;
      } else {
        if (static_cast<int64_t>(values.size()) != values_size) {
          return Status::Corrupt("{}: uncompressed page holds {} value bytes, the header declares {}",
                                 Where(header_file_offset), values.size(), values_size);
        }
        page->values = values;
        values_in_ = stored_in;
      }
      if (page->num_values < 0) return Status::Corrupt("{}: {} values", Where(header_file_offset), page->num_values);
      return true;
    }
    if (page->num_values < 0) return Status::Corrupt("{}: {} values", Where(header_file_offset), page->num_values);
    bool streamed = false;
    if (stream && codec_ && type == PageType::kDataPage) {
      STRATA_ASSIGN_OR_RETURN(streamed, StartStream(compressed, uncompressed_size, header_file_offset, page));
    }
    if (streamed) {
      // The values come through ReadStream().
    } else if (codec_) {
      STRATA_RETURN_NOT_OK(Decompress(compressed, uncompressed_size, header_file_offset, &page->values));
      values_in_ = ValuesIn::kDecompressed;
      // A v1 or dictionary page keeps nothing in the chunk once decompressed: after the
      // chunk's last page, the chunk read whole can go. A wide row group's columns then hold
      // their pages, not their compressed chunks as well.
      if (position_ >= location_.length) whole_chunk_.reset();
    } else {
      if (body_size != uncompressed_size) {
        return Status::Corrupt("{}: uncompressed page declares {} bytes but stores {}", Where(header_file_offset),
                               uncompressed_size, body_size);
      }
      page->values = compressed;
      values_in_ = stored_in;
    }
    return true;
  }
  return false;
}

}  // namespace strata::parquet
