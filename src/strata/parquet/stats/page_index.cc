// The page index: ColumnIndex / OffsetIndex builders and readers.
#include "strata/parquet/stats/page_index.h"

#include <utility>

#include "strata/parquet/stats/encrypted_module.h"

namespace strata::parquet {

ColumnIndexBuilder::ColumnIndexBuilder(const StatisticsOptions& options) : options_(options) {}

void ColumnIndexBuilder::Reset() {
  index_ = ColumnIndex{};
  invalid_ = false;
  floating_ = false;
  physical_.reset();
  order_ = SortOrder::kUnknown;
  is_float16_ = false;
  type_length_ = 0;
  keep_def_histograms_ = true;
  keep_rep_histograms_ = true;
  def_histogram_length_ = 0;
  rep_histogram_length_ = 0;
  def_histograms_.clear();
  rep_histograms_.clear();
  nan_counts_.clear();
}

namespace {

// Appends one page's histogram, or gives up on the list when pages disagree on its length.
void AppendHistogram(std::span<const int64_t> histogram, bool first_page, size_t* length, bool* keep,
                     std::vector<int64_t>* out) {
  if (!*keep) return;
  if (first_page) *length = histogram.size();
  if (histogram.empty() || histogram.size() != *length) {
    *keep = false;
    out->clear();
    return;
  }
  out->insert(out->end(), histogram.begin(), histogram.end());
}

}  // namespace

void ColumnIndexBuilder::AddPage(const StatisticsCollector& page, std::span<const int64_t> def_histogram,
                                 std::span<const int64_t> rep_histogram) {
  const bool first_page = !physical_.has_value();
  if (first_page) {
    physical_ = page.physical_type();
    order_ = page.sort_order();
    is_float16_ = page.is_float16();
    type_length_ = page.type_length();
    floating_ = page.is_floating();
    if (order_ == SortOrder::kUnknown) invalid_ = true;
  } else if (*physical_ != page.physical_type() || order_ != page.sort_order() ||
             is_float16_ != page.is_float16() || type_length_ != page.type_length()) {
    invalid_ = true;  // pages of another column: no index is better than a wrong one
  }
  const bool null_page = page.num_values() == 0;
  // A non-null page without min/max (all NaN) cannot be described: parquet.thrift says the
  // chunk then gets no column index at all.
  if (!null_page && !page.has_min_max()) invalid_ = true;
  if (invalid_) return;

  index_.null_pages.push_back(null_page);
  if (null_page) {
    index_.min_values.emplace_back();
    index_.max_values.emplace_back();
  } else {
    const bool truncatable = page.sort_order() == SortOrder::kUnsigned &&
                             (page.physical_type() == PhysicalType::kByteArray ||
                              page.physical_type() == PhysicalType::kFixedLenByteArray);
    const int32_t limit = truncatable ? options_.max_value_bytes : 0;
    TruncatedBound min = TruncateBound(page.min_bytes(), limit, /*is_max=*/false);
    TruncatedBound max = TruncateBound(page.max_bytes(), limit, /*is_max=*/true);
    index_.min_values.push_back(std::move(min.value));
    // max_values is a required list: a max of 0xFF bytes that cannot be shortened goes in whole.
    index_.max_values.push_back(max.present ? std::move(max.value) : std::string(page.max_bytes()));
  }
  if (!index_.null_counts) index_.null_counts.emplace();
  index_.null_counts->push_back(page.null_count());
  if (floating_) nan_counts_.push_back(page.nan_count());
  AppendHistogram(def_histogram, first_page, &def_histogram_length_, &keep_def_histograms_, &def_histograms_);
  AppendHistogram(rep_histogram, first_page, &rep_histogram_length_, &keep_rep_histograms_, &rep_histograms_);
}

std::optional<ColumnIndex> ColumnIndexBuilder::Finish() {
  if (invalid_ || index_.null_pages.empty()) {
    Reset();
    return std::nullopt;
  }
  // Comparisons go through a collector of the column (no storage is touched by Compare).
  StatisticsCollector comparer(nullptr, *physical_, type_length_, order_, is_float16_);
  bool ascending = true;
  bool descending = true;
  std::optional<size_t> previous;
  for (size_t i = 0; i < index_.null_pages.size(); ++i) {
    if (index_.null_pages[i]) continue;
    if (previous) {
      const int min_order = comparer.Compare(index_.min_values[i], index_.min_values[*previous]);
      const int max_order = comparer.Compare(index_.max_values[i], index_.max_values[*previous]);
      ascending = ascending && min_order >= 0 && max_order >= 0;
      descending = descending && min_order <= 0 && max_order <= 0;
    }
    previous = i;
  }
  index_.boundary_order =
      ascending ? BoundaryOrder::kAscending : (descending ? BoundaryOrder::kDescending : BoundaryOrder::kUnordered);
  if (floating_) index_.nan_counts = std::move(nan_counts_);
  if (keep_def_histograms_ && !def_histograms_.empty()) index_.definition_level_histograms = std::move(def_histograms_);
  if (keep_rep_histograms_ && !rep_histograms_.empty()) index_.repetition_level_histograms = std::move(rep_histograms_);
  // Swapped out rather than moved: GCC 12 warns (falsely) about moving optional vectors here.
  ColumnIndex result;
  std::swap(result, index_);
  Reset();
  return result;
}

void OffsetIndexBuilder::AddPage(int64_t offset, int32_t compressed_page_size, int64_t first_row_index,
                                 std::optional<int64_t> unencoded_bytes) {
  index_.page_locations.push_back(PageLocation{offset, compressed_page_size, first_row_index});
  if (!unencoded_bytes) {
    all_unencoded_ = false;
    unencoded_bytes_.clear();
  } else if (all_unencoded_) {
    unencoded_bytes_.push_back(*unencoded_bytes);
  }
}

OffsetIndex OffsetIndexBuilder::Finish() {
  if (all_unencoded_ && !index_.page_locations.empty()) {
    index_.unencoded_byte_array_data_bytes = std::move(unencoded_bytes_);
  }
  OffsetIndex result = std::move(index_);
  Reset();
  return result;
}

void OffsetIndexBuilder::Reset() {
  index_ = OffsetIndex{};
  unencoded_bytes_.clear();
  all_unencoded_ = true;
}

namespace {

std::string ColumnPath(const ColumnChunk& chunk) {
  if (!chunk.meta_data || chunk.meta_data->path_in_schema.empty()) return "<unnamed>";
  std::string path;
  for (const std::string& part : chunk.meta_data->path_in_schema) {
    if (!path.empty()) path += '.';
    path += part;
  }
  return path;
}

// Decodes one index, charging its lists and strings to `pool` before each is allocated, so a
// count too large for the pool's limit is refused first. The charge ends with the call: the
// index handed back lives on the heap uncounted (callers keep it for one row group at most).
template <typename Index>
Result<size_t> DecodeCharged(const uint8_t* data, size_t size, Index* out, int64_t base_offset, MemoryPool* pool) {
  MemoryCharge charge(pool);
  *out = Index{};
  CompactReader reader(data, size, {.base_offset = base_offset, .charge = &charge});
  STRATA_RETURN_NOT_OK(Decode(reader, out));
  return reader.position();
}

// Reads [offset, offset + length) after checking it lies inside the source, and decodes it.
// Encrypted chunks: the range is one module (its length counted in `length`), decrypted first.
template <typename Index>
Result<std::optional<Index>> ReadIndex(RandomAccessSource& source, const ColumnChunk& chunk, MemoryPool* pool,
                                       const char* what, const std::optional<int64_t>& offset,
                                       const std::optional<int32_t>& length, const ColumnDecryption* decryption,
                                       encryption::ModuleType module_type) {
  if (!offset.has_value() && !length.has_value()) return std::optional<Index>();
  const std::string column = ColumnPath(chunk);
  if (!offset.has_value() || !length.has_value()) {
    return Status::Corrupt("{} of column '{}' in '{}' has {} but no {}", what, column, source.name(),
                           offset ? fmt::format("offset {}", *offset) : fmt::format("length {}", *length),
                           offset ? "length" : "offset");
  }
  STRATA_ASSIGN_OR_RETURN(const int64_t file_size, source.Size());
  if (*offset < 0 || *length <= 0 || *offset > file_size || *length > file_size - *offset) {
    return Status::Corrupt("{} of column '{}' at offset {} with length {} does not lie inside '{}' ({} bytes)",
                           what, column, *offset, *length, source.name(), file_size);
  }
  Index index;
  Result<size_t> decoded = size_t{0};
  if (decryption == nullptr) {
    STRATA_ASSIGN_OR_RETURN(auto buffer, source.ReadBufferAt(*offset, *length, pool));
    decoded = DecodeCharged(buffer->data(), static_cast<size_t>(buffer->size()), &index, *offset, pool);
  } else {
    ResizableBuffer plaintext(pool);
    STRATA_RETURN_NOT_OK(ReadEncryptedModule(source, *offset, *length, /*fills_max_bytes=*/true, *decryption,
                                             module_type, pool, &plaintext)
                             .status());
    decoded = DecodeCharged(plaintext.data(), static_cast<size_t>(plaintext.size()), &index, *offset, pool);
  }
  if (!decoded.ok()) {
    return decoded.status().WithContext(fmt::format("{}{} of column '{}' at offset {} ({} bytes) in '{}'",
                                                    decryption ? "decrypted " : "", what, column, *offset, *length,
                                                    source.name()));
  }
  return std::optional<Index>(std::move(index));
}

}  // namespace

Result<std::optional<ColumnIndex>> ReadColumnIndex(RandomAccessSource& source, const ColumnChunk& chunk,
                                                   MemoryPool* pool, const ColumnDecryption* decryption) {
  STRATA_ASSIGN_OR_RETURN(auto index, ReadIndex<ColumnIndex>(source, chunk, pool, "column index",
                                                             chunk.column_index_offset, chunk.column_index_length,
                                                             decryption,
                                                             encryption::ModuleType::kColumnIndex));
  if (!index) return index;
  const size_t pages = index->null_pages.size();
  auto check = [&](const char* field, size_t size, size_t expected) -> Status {
    if (size == expected) return Status::OK();
    return Status::Corrupt("column index of column '{}' at offset {} in '{}' lists {} {} for {} pages (expected {})",
                           ColumnPath(chunk), *chunk.column_index_offset, source.name(), size, field, pages,
                           expected);
  };
  STRATA_RETURN_NOT_OK(check("min_values", index->min_values.size(), pages));
  STRATA_RETURN_NOT_OK(check("max_values", index->max_values.size(), pages));
  if (index->null_counts) STRATA_RETURN_NOT_OK(check("null_counts", index->null_counts->size(), pages));
  if (index->nan_counts) STRATA_RETURN_NOT_OK(check("nan_counts", index->nan_counts->size(), pages));
  // Histograms hold (max level + 1) entries per page, concatenated.
  auto check_histograms = [&](const char* field, const std::optional<std::vector<int64_t>>& histograms) {
    if (!histograms || (pages > 0 && !histograms->empty() && histograms->size() % pages == 0)) return Status::OK();
    return Status::Corrupt("column index of column '{}' at offset {} in '{}' lists {} {} entries, not a positive "
                           "multiple of its {} pages",
                           ColumnPath(chunk), *chunk.column_index_offset, source.name(), histograms->size(), field,
                           pages);
  };
  STRATA_RETURN_NOT_OK(check_histograms("definition_level_histograms", index->definition_level_histograms));
  STRATA_RETURN_NOT_OK(check_histograms("repetition_level_histograms", index->repetition_level_histograms));
  return index;
}

Result<std::optional<OffsetIndex>> ReadOffsetIndex(RandomAccessSource& source, const ColumnChunk& chunk,
                                                   MemoryPool* pool, const ColumnDecryption* decryption) {
  STRATA_ASSIGN_OR_RETURN(auto index, ReadIndex<OffsetIndex>(source, chunk, pool, "offset index",
                                                             chunk.offset_index_offset, chunk.offset_index_length,
                                                             decryption,
                                                             encryption::ModuleType::kOffsetIndex));
  if (!index) return index;
  STRATA_ASSIGN_OR_RETURN(const int64_t file_size, source.Size());
  const std::string where = fmt::format("offset index of column '{}' at offset {} in '{}' ({} bytes)",
                                        ColumnPath(chunk), *chunk.offset_index_offset, source.name(), file_size);
  const auto& pages = index->page_locations;
  for (size_t i = 0; i < pages.size(); ++i) {
    const PageLocation& page = pages[i];
    if (page.offset < 0 || page.compressed_page_size <= 0 || page.offset > file_size ||
        page.compressed_page_size > file_size - page.offset) {
      return Status::Corrupt("{}: page {} at offset {} with {} bytes does not lie inside the file", where, i,
                             page.offset, page.compressed_page_size);
    }
    if (i == 0 ? page.first_row_index < 0 : page.first_row_index <= pages[i - 1].first_row_index) {
      return Status::Corrupt("{}: page {} starts at row {}, {}", where, i, page.first_row_index,
                             i == 0 ? "a negative row" : fmt::format("not after page {}'s row {}", i - 1,
                                                                     pages[i - 1].first_row_index));
    }
  }
  if (index->unencoded_byte_array_data_bytes && index->unencoded_byte_array_data_bytes->size() != pages.size()) {
    return Status::Corrupt("{}: {} unencoded_byte_array_data_bytes entries for {} pages", where,
                           index->unencoded_byte_array_data_bytes->size(), pages.size());
  }
  return index;
}

}  // namespace strata::parquet
