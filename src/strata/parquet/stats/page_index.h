// The page index (parquet-format PageIndex.md): per-page min/max/null counts (ColumnIndex) and
// page locations (OffsetIndex) of one column chunk, built by the writer page by page and read
// back for `strata meta` and tests. Sits beside statistics.h, whose collectors it consumes.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "strata/io/random_access_source.h"
#include "strata/memory/memory_pool.h"
#include "strata/parquet/encryption/column_decryption.h"
#include "strata/parquet/stats/statistics.h"
#include "strata/parquet/thrift/parquet_types.h"
#include "strata/util/result.h"

namespace strata::parquet {

// Builds one column chunk's ColumnIndex page by page.
class ColumnIndexBuilder {
 public:
  explicit ColumnIndexBuilder(const StatisticsOptions& options);

  // One data page: its statistics collector (min/max/nulls/NaNs of that page), and its
  // definition/repetition level histograms (may be empty when max level is 0). A page is a
  // null page when it has no non-null values. The collector is read during the call only.
  // Histograms are kept only when every page gives one of the same length as the first page's.
  void AddPage(const StatisticsCollector& page, std::span<const int64_t> def_histogram,
               std::span<const int64_t> rep_histogram);
  // The index, or nullopt when it cannot be written correctly (a non-null page without min/max,
  // e.g. all NaN, or a column with SortOrder::kUnknown) or no page was added. boundary_order:
  // ASCENDING when every page's min and max are >= the previous non-null page's, DESCENDING
  // likewise, else UNORDERED (compared with the column's order via the collector's Compare, on
  // the values written; ASCENDING when both hold). Truncation as statistics, except that a max
  // that cannot be shortened is written whole (max_values are required). nan_counts for
  // FLOAT, DOUBLE and FLOAT16 columns. Leaves the builder as after Reset().
  std::optional<ColumnIndex> Finish();
  void Reset();

  int64_t num_pages() const { return static_cast<int64_t>(index_.null_pages.size()); }

 private:
  StatisticsOptions options_;
  ColumnIndex index_;
  bool invalid_ = false;
  bool floating_ = false;
  // The first page's collector settings: later pages must match (else the index is invalid).
  std::optional<PhysicalType> physical_;
  SortOrder order_ = SortOrder::kUnknown;
  bool is_float16_ = false;
  int32_t type_length_ = 0;
  bool keep_def_histograms_ = true;
  bool keep_rep_histograms_ = true;
  size_t def_histogram_length_ = 0;
  size_t rep_histogram_length_ = 0;
  std::vector<int64_t> def_histograms_;
  std::vector<int64_t> rep_histograms_;
  std::vector<int64_t> nan_counts_;
};

// Builds one column chunk's OffsetIndex.
class OffsetIndexBuilder {
 public:
  // offset: file offset of the page header; compressed_page_size includes the header;
  // first_row_index: row of the chunk where the page starts; unencoded_bytes: BYTE_ARRAY
  // unencoded data bytes of the page (or nullopt for other types). unencoded_byte_array_data_bytes
  // is written only when every page gives it.
  void AddPage(int64_t offset, int32_t compressed_page_size, int64_t first_row_index,
               std::optional<int64_t> unencoded_bytes);
  // Moves the index out; the builder is left as after Reset().
  OffsetIndex Finish();
  void Reset();

  int64_t num_pages() const { return static_cast<int64_t>(index_.page_locations.size()); }

 private:
  OffsetIndex index_;
  std::vector<int64_t> unencoded_bytes_;
  bool all_unencoded_ = true;
};

// Reading side, for `strata meta` and tests: reads and decodes a chunk's column/offset index
// from `source` at the locations its ColumnChunk gives (column_index_offset/length,
// offset_index_offset/length), checking them against the source's size first; nullopt when the
// chunk has none. The decoded index is checked for consistency too: ColumnIndex lists of one
// length per page; OffsetIndex pages inside the file, first_row_index starting >= 0 and
// strictly increasing. Errors (Corrupt, or the source's IOError) name the source, the column
// path and the offsets. The temporary read buffers come from `pool` and are released on return;
// while decoding, the index's lists and strings are charged to `pool` too (MemoryCharge), so a
// limit refuses a hostile count before it is allocated, but the returned index is not counted.
// An encrypted chunk's index is one module (Encryption.md: AAD type ColumnIndex / OffsetIndex
// with the file's row group and column ordinals; the stated length counts the whole module):
// pass the chunk's `decryption` (FileReader::ChunkLocation's, or FindChunkDecryption's) and it
// is checked (its length field must equal the stated length), authenticated and decrypted
// before decoding; a module that does not authenticate is Corrupt, naming the module, its
// offset and the column. Without `decryption` the bytes are decoded as plaintext.
Result<std::optional<ColumnIndex>> ReadColumnIndex(RandomAccessSource& source, const ColumnChunk& chunk,
                                                   MemoryPool* pool, const ColumnDecryption* decryption = nullptr);
Result<std::optional<OffsetIndex>> ReadOffsetIndex(RandomAccessSource& source, const ColumnChunk& chunk,
                                                   MemoryPool* pool, const ColumnDecryption* decryption = nullptr);

}  // namespace strata::parquet
