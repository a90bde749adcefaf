#include "strata/parquet/filter/row_group_pruner.h"

#include <fmt/format.h>

#include "strata/expr/range_pruning.h"
#include "strata/parquet/decimal_text.h"
#include "strata/parquet/encoding/dictionary.h"
#include "strata/parquet/read/page_decryption.h"
#include "strata/parquet/read/page_reader.h"

namespace strata::parquet::filter {
namespace {

using expr::Leaf;

bool IsDataPage(PageType type) { return type == PageType::kDataPage || type == PageType::kDataPageV2; }
bool IsDictionaryEncoding(Encoding e) { return e == Encoding::kPlainDictionary || e == Encoding::kRleDictionary; }

// Every data page dictionary-encoded, so the dictionary holds every value of the chunk. Without
// encoding_stats only a chunk whose encodings are dictionary and level encodings qualifies
// (a PLAIN among them may be a fallback page, as well as the dictionary page's own encoding).
bool FullyDictionaryEncoded(const ColumnMetaData& meta) {
  if (!meta.dictionary_page_offset && !meta.encoding_stats) {
    // parquet-mr's older files put the dictionary first without setting its offset.
    bool any = false;
    for (Encoding e : meta.encodings) any = any || IsDictionaryEncoding(e);
    if (!any) return false;
  }
  if (meta.encoding_stats) {
    bool any_dictionary_page = false;
    for (const PageEncodingStats& s : *meta.encoding_stats) {
      if (IsDataPage(s.page_type) && s.count > 0 && !IsDictionaryEncoding(s.encoding)) return false;
      any_dictionary_page = any_dictionary_page || s.page_type == PageType::kDictionaryPage;
    }
    return any_dictionary_page || meta.dictionary_page_offset.has_value();
  }
  bool any = false;
  for (Encoding e : meta.encodings) {
    if (IsDictionaryEncoding(e)) any = true;
    else if (e != Encoding::kRle && e != Encoding::kBitPacked) return false;
  }
  return any;
}

int PhysicalWidth(const ColumnDescriptor& column) {
  switch (column.physical_type) {
    case PhysicalType::kInt32: case PhysicalType::kFloat: return 4;
    case PhysicalType::kInt64: case PhysicalType::kDouble: return 8;
    case PhysicalType::kInt96: return 12;
    case PhysicalType::kFixedLenByteArray: return column.type_length;
    default: return 0;
  }
}

// A unit holding exactly one value (a dictionary entry), for LeafMayMatch.
expr::ValueRange SingleValue(std::optional<expr::Value> value) {
  expr::ValueRange range;
  range.row_count = 1;
  range.null_count = 0;
  if (value) {
    range.nan_count = 0;
    range.min = value;
    range.max = std::move(value);
  }
  return range;
}

// The predicate tree over row ranges: AND intersects, OR unites, a leaf gives its pages' rows.
template <typename LeafRows>
Result<RowRanges> TreeRows(const expr::Predicate& node, int64_t rows, LeafRows&& leaf_rows) {
  switch (node.kind()) {
    case expr::Predicate::Kind::kTrue: return RowRanges::All(rows);
    case expr::Predicate::Kind::kFalse: return RowRanges();
    case expr::Predicate::Kind::kLeaf: return leaf_rows(node.leaf());
    case expr::Predicate::Kind::kAnd: {
      RowRanges out = RowRanges::All(rows);
      for (const auto& child : node.children()) {
        STRATA_ASSIGN_OR_RETURN(RowRanges r, TreeRows(*child, rows, leaf_rows));
        out = RowRanges::Intersect(out, r);
        if (out.empty()) break;
      }
      return out;
    }
    case expr::Predicate::Kind::kOr: {
      RowRanges out;
      for (const auto& child : node.children()) {
        STRATA_ASSIGN_OR_RETURN(RowRanges r, TreeRows(*child, rows, leaf_rows));
        out = RowRanges::Union(out, r);
      }
      return out;
    }
  }
  return RowRanges::All(rows);
}

}  // namespace

Result<std::unique_ptr<RowGroupPruner>> RowGroupPruner::Make(const FileReader* file, expr::PredicatePtr predicate,
                                                             const PrunerOptions& options) {
  std::unique_ptr<RowGroupPruner> pruner(new RowGroupPruner(file, std::move(predicate), options));
  Status status;
  pruner->predicate_->ForEachLeaf([&](const Leaf& leaf) {
    if (!status.ok()) return;
    const int column = LeafColumnIndex(file->descriptor(), leaf.path);
    const auto kind = leaf.type ? ValueKindOf(*leaf.type) : std::nullopt;
    const bool null_test = leaf.kind == Leaf::Kind::kIsNull || leaf.kind == Leaf::Kind::kIsNotNull;
    if ((column < 0 || !kind) && null_test) {
      // A group (a struct) tested for null: its leaves' statistics count nulls at any level,
      // so they cannot say which rows the group itself is null in. Rows are filtered only.
      pruner->leaves_.emplace(&leaf, LeafColumn{});
      return;
    }
    if (column < 0 || !kind) {
      status = Status::Invalid("'{}': filter column '{}' is not a leaf column of the file", file->source().name(),
                               leaf.column);
      return;
    }
    if (IsDecimalTextColumn(file->descriptor().column(column))) {
      // Decimals read as text: statistics, dictionaries and Bloom filters hold the two's
      // complement bytes, in numeric order, not the text the predicate compares. Rows are
      // filtered only.
      pruner->leaves_.emplace(&leaf, LeafColumn{});
      return;
    }
    LeafColumn entry;
    entry.column = column;
    entry.values = std::make_unique<ColumnValueReader>(file->descriptor().column(column), *kind);
    pruner->leaves_.emplace(&leaf, std::move(entry));
  });
  STRATA_RETURN_NOT_OK(status);
  return pruner;
}

const ColumnMetaData* RowGroupPruner::Metadata(int row_group, int column) const {
  const ColumnChunk* chunk = file_->metadata().chunk(row_group, column);
  if (chunk == nullptr) return nullptr;  // not decoded (FileReaderOptions::columns): no pruning by it
  const auto& meta = chunk->meta_data;
  return meta ? &*meta : nullptr;  // an encrypted column whose key was not given
}

bool RowGroupPruner::StatisticsMayMatch(int row_group, const Leaf& leaf) const {
  if (!options_.use_statistics) return true;
  const LeafColumn& lc = Column(leaf);
  if (lc.column < 0) return true;
  const ColumnMetaData* meta = Metadata(row_group, lc.column);
  if (meta == nullptr) return true;
  const int64_t rows = file_->metadata().row_groups[static_cast<size_t>(row_group)].num_rows;
  return expr::LeafMayMatch(leaf, lc.values->ChunkRange(*meta, rows));
}

Result<const Dictionary*> RowGroupPruner::ChunkDictionary(int row_group, int column) {
  ChunkExtras& extras = extras_[column];
  if (extras.dictionary_read) return extras.dictionary.get();
  extras.dictionary_read = true;
  const ColumnDescriptor& descriptor = file_->descriptor().column(column);
  STRATA_ASSIGN_OR_RETURN(auto location, file_->ChunkLocation(row_group, column));
  PageReadOptions page_options = file_->options().pages;
  page_options.whole_chunk_read_limit = 0;  // the dictionary page only, not the chunk
  page_options.stream_large_pages = false;
  STRATA_ASSIGN_OR_RETURN(auto pages,
                          OpenPageReader(&file_->source(), std::move(location), file_->pool(), page_options));
  Page page;
  STRATA_ASSIGN_OR_RETURN(const bool any, pages->Next(&page));
  if (!any || page.type != PageType::kDictionaryPage) return nullptr;
  if (descriptor.physical_type == PhysicalType::kByteArray) {
    STRATA_ASSIGN_OR_RETURN(extras.dictionary, Dictionary::MakeByteArray(file_->pool(), page.values.data(),
                                                                         static_cast<int64_t>(page.values.size()),
                                                                         page.num_values));
  } else if (const int width = PhysicalWidth(descriptor); width > 0) {
    STRATA_ASSIGN_OR_RETURN(extras.dictionary, Dictionary::MakeFixedWidth(file_->pool(), page.values.data(),
                                                                          static_cast<int64_t>(page.values.size()),
                                                                          page.num_values, width));
  }
  return extras.dictionary.get();
}

Result<const BloomFilter*> RowGroupPruner::ChunkBloomFilter(int row_group, int column) {
  ChunkExtras& extras = extras_[column];
  if (!extras.bloom_filter_read) {
    extras.bloom_filter_read = true;
    STRATA_ASSIGN_OR_RETURN(extras.bloom_filter, file_->ReadBloomFilter(row_group, column));
  }
  return extras.bloom_filter.get();
}

Result<bool> RowGroupPruner::DictionaryMayMatch(int row_group, const Leaf& leaf) {
  // Only value comparisons: nulls are not in a dictionary.
  if (leaf.kind == Leaf::Kind::kIsNull || leaf.kind == Leaf::Kind::kIsNotNull) return true;
  const LeafColumn& lc = Column(leaf);
  if (lc.column < 0) return true;
  const ColumnMetaData* meta = Metadata(row_group, lc.column);
  if (meta == nullptr || !FullyDictionaryEncoded(*meta)) return true;
  STRATA_ASSIGN_OR_RETURN(const Dictionary* dictionary, ChunkDictionary(row_group, lc.column));
  if (dictionary == nullptr) return true;
  for (int64_t i = 0; i < dictionary->size(); ++i) {
    std::string_view bytes;
    if (dictionary->is_byte_array()) {
      const ByteArrayView& v = dictionary->views()[i];
      bytes = {reinterpret_cast<const char*>(v.data), static_cast<size_t>(v.length)};
    } else {
      const int w = dictionary->value_width();
      bytes = {reinterpret_cast<const char*>(dictionary->fixed_values()) + i * w, static_cast<size_t>(w)};
    }
    if (expr::LeafMayMatch(leaf, SingleValue(lc.values->Decode(bytes)))) return true;
  }
  return false;
}

Result<bool> RowGroupPruner::BloomFilterMayMatch(int row_group, const Leaf& leaf) {
  const bool equality = (leaf.kind == Leaf::Kind::kCompare && leaf.op == expr::CompareOp::kEq) ||
                        leaf.kind == Leaf::Kind::kIn;
  if (!equality) return true;
  const LeafColumn& lc = Column(leaf);
  if (lc.column < 0) return true;
  const ColumnMetaData* meta = Metadata(row_group, lc.column);
  if (meta == nullptr || !meta->bloom_filter_offset) return true;
  STRATA_ASSIGN_OR_RETURN(const BloomFilter* bloom, ChunkBloomFilter(row_group, lc.column));
  if (bloom == nullptr) return true;
  for (const expr::Value& value : leaf.values) {
    const std::vector<uint64_t> hashes = lc.values->BloomHashes(value);
    if (hashes.empty()) return true;  // the filter cannot answer for this value
    for (const uint64_t h : hashes) {
      if (bloom->FindHash(h)) return true;
    }
  }
  return false;
}

Result<PruneReason> RowGroupPruner::Check(int row_group) {
  Result<PruneReason> reason = CheckWithReads(row_group);
  extras_.clear();  // this row group's dictionaries and filters go back to the pool
  return reason;
}

Result<PruneReason> RowGroupPruner::CheckWithReads(int row_group) {
  auto statistics = [&](const Leaf& leaf) { return StatisticsMayMatch(row_group, leaf); };
  if (!expr::MayMatch(*predicate_, statistics)) return PruneReason::kStatistics;
  // Dictionaries and Bloom filters cost reads: asked only for leaves statistics left open,
  // each read at most once per row group and column (leaves on one column share it).
  Status status;
  std::unordered_map<const Leaf*, bool> dictionary_answers;
  auto dictionary = [&](const Leaf& leaf) {
    if (!status.ok() || !statistics(leaf)) return status.ok() ? false : true;
    auto found = dictionary_answers.find(&leaf);
    if (found != dictionary_answers.end()) return found->second;
    auto may = DictionaryMayMatch(row_group, leaf);
    if (!may.ok()) status = may.status();
    return dictionary_answers[&leaf] = may.ok() ? *may : true;
  };
  if (options_.use_dictionaries) {
    const bool may = expr::MayMatch(*predicate_, dictionary);
    STRATA_RETURN_NOT_OK(status.WithContext(fmt::format("'{}' (row group {}): reading a dictionary for the filter",
                                                        file_->source().name(), row_group)));
    if (!may) return PruneReason::kDictionary;
  }
  if (options_.use_bloom_filters) {
    auto bloom = [&](const Leaf& leaf) {
      if (!status.ok()) return true;
      if (options_.use_dictionaries ? !dictionary(leaf) : !statistics(leaf)) return false;
      auto may = BloomFilterMayMatch(row_group, leaf);
      if (!may.ok()) status = may.status();
      return may.ok() ? *may : true;
    };
    const bool may = expr::MayMatch(*predicate_, bloom);
    STRATA_RETURN_NOT_OK(status);
    if (!may) return PruneReason::kBloomFilter;
  }
  return PruneReason::kNone;
}

Result<std::optional<RowRanges>> RowGroupPruner::LeafPageRows(int row_group, const Leaf& leaf) {
  const LeafColumn& lc = Column(leaf);
  if (lc.column < 0) return std::optional<RowRanges>();
  const int64_t rows = file_->metadata().row_groups[static_cast<size_t>(row_group)].num_rows;
  STRATA_ASSIGN_OR_RETURN(auto column_index, file_->ReadColumnIndex(row_group, lc.column));
  if (!column_index) return std::optional<RowRanges>();
  STRATA_ASSIGN_OR_RETURN(auto offset_index, file_->ReadOffsetIndex(row_group, lc.column));
  if (!offset_index) return std::optional<RowRanges>();
  const auto& locations = offset_index->page_locations;
  const size_t pages = locations.size();
  // An index that disagrees with itself or the row group is not used.
  if (pages == 0 || column_index->null_pages.size() != pages || locations[0].first_row_index != 0) {
    return std::optional<RowRanges>();
  }
  RowRanges out;
  for (size_t i = 0; i < pages; ++i) {
    const int64_t begin = locations[i].first_row_index;
    const int64_t end = i + 1 < pages ? locations[i + 1].first_row_index : rows;
    if (end <= begin || end > rows) return std::optional<RowRanges>();
    // A page called all-null in a required column, or with fewer nulls than rows, makes the
    // index meaningless (parquet-mr 1.13 writes all pages "null" when statistics are off).
    if (column_index->null_pages[i]) {
      const bool required = file_->descriptor().column(lc.column).max_definition_level == 0;
      const bool short_of_nulls = column_index->null_counts && i < column_index->null_counts->size() &&
                                  (*column_index->null_counts)[i] >= 0 &&
                                  (*column_index->null_counts)[i] != end - begin;
      if (required || short_of_nulls) return std::optional<RowRanges>();
    }
    if (expr::LeafMayMatch(leaf, lc.values->PageRange(*column_index, i, end - begin))) out.Append(begin, end);
  }
  return std::optional<RowRanges>(std::move(out));
}

Result<RowRanges> RowGroupPruner::CandidateRows(int row_group) {
  const int64_t rows = file_->metadata().row_groups[static_cast<size_t>(row_group)].num_rows;
  if (!options_.use_page_index) return RowRanges::All(rows);
  std::unordered_map<const Leaf*, RowRanges> cache;
  return TreeRows(*predicate_, rows, [&](const Leaf& leaf) -> Result<RowRanges> {
    auto found = cache.find(&leaf);
    if (found != cache.end()) return found->second;
    STRATA_ASSIGN_OR_RETURN(auto page_rows, LeafPageRows(row_group, leaf));
    RowRanges r = page_rows ? std::move(*page_rows) : RowRanges::All(rows);
    cache.emplace(&leaf, r);
    return r;
  });
}

}  // namespace strata::parquet::filter
