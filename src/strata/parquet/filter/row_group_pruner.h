// RowGroupPruner: which row groups, and which rows of them, a predicate can select, from what
// the file says before its pages are decoded: chunk statistics, the dictionaries of chunks
// whose data pages are all dictionary-encoded, Bloom filters (= and IN), and the page index.
// Each leaf's column is resolved once; dictionaries and filters are read only when statistics
// did not already rule the row group out, and only for the leaves they can answer.
#pragma once

#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

#include "strata/expr/predicate.h"
#include "strata/parquet/encoding/dictionary.h"
#include "strata/parquet/read/file_reader.h"
#include "strata/parquet/filter/predicate_values.h"
#include "strata/parquet/filter/row_ranges.h"

namespace strata::parquet::filter {

enum class PruneReason { kNone, kStatistics, kDictionary, kBloomFilter };

struct PrunerOptions {
  bool use_statistics = true;
  bool use_dictionaries = true;
  bool use_bloom_filters = true;
  bool use_page_index = true;
};

class RowGroupPruner {
 public:
  // Invalid when a leaf's path names no leaf column of the file or a type the file's column
  // does not store in the leaf's value domain.
  static Result<std::unique_ptr<RowGroupPruner>> Make(const FileReader* file, expr::PredicatePtr predicate,
                                                      const PrunerOptions& options);

  // Why no row of `row_group` can match, or kNone when some may.
  Result<PruneReason> Check(int row_group);

  // The rows of `row_group` that may match by the page index of the leaves' columns (every
  // row where a column has no index).
  Result<RowRanges> CandidateRows(int row_group);

 private:
  struct LeafColumn {
    int column = -1;
    std::unique_ptr<ColumnValueReader> values;
  };
  RowGroupPruner(const FileReader* file, expr::PredicatePtr predicate, const PrunerOptions& options)
      : file_(file), predicate_(std::move(predicate)), options_(options) {}
  const LeafColumn& Column(const expr::Leaf& leaf) const { return leaves_.at(&leaf); }
  const ColumnMetaData* Metadata(int row_group, int column) const;
  bool StatisticsMayMatch(int row_group, const expr::Leaf& leaf) const;
  Result<PruneReason> CheckWithReads(int row_group);
  // The chunk's dictionary page and Bloom filter, read once per Check() (null: none).
  Result<const Dictionary*> ChunkDictionary(int row_group, int column);
  Result<const BloomFilter*> ChunkBloomFilter(int row_group, int column);
  Result<bool> DictionaryMayMatch(int row_group, const expr::Leaf& leaf);
  Result<bool> BloomFilterMayMatch(int row_group, const expr::Leaf& leaf);
  // The rows of the leaf's pages that may match; nullopt when its column has no usable index.
  Result<std::optional<RowRanges>> LeafPageRows(int row_group, const expr::Leaf& leaf);

  const FileReader* file_;
  expr::PredicatePtr predicate_;
  PrunerOptions options_;
  std::unordered_map<const expr::Leaf*, LeafColumn> leaves_;
  // The current Check()'s reads, by leaf column.
  struct ChunkExtras {
    bool dictionary_read = false;
    std::unique_ptr<Dictionary> dictionary;
    bool bloom_filter_read = false;
    std::unique_ptr<BloomFilter> bloom_filter;
  };
  std::unordered_map<int, ChunkExtras> extras_;
};

}  // namespace strata::parquet::filter
