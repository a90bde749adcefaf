// FilteredBatchReader: batches of a file's rows that satisfy a predicate, reading as little
// as the file allows. Before anything is decoded, row groups are pruned by their statistics,
// by the dictionaries of fully dictionary-encoded chunks and by Bloom filters (= and IN); the
// page index then skips pages no row of which can match. The filter columns are decoded first;
// the other selected columns decode only what survives. PruningStats says what was skipped,
// and by which mechanism.
#pragma once

#include <cstdint>
#include <memory>

#include "strata/expr/predicate.h"
#include "strata/parquet/read/file_reader.h"

namespace strata::parquet {

struct FilterOptions {
  // Bound to the file's schema (FileReader::schema()); null: every row.
  expr::PredicatePtr predicate;
  bool use_statistics = true;
  bool use_dictionaries = true;
  bool use_bloom_filters = true;
  bool use_page_index = true;
};

struct PruningStats {
  int64_t row_groups = 0;                 // row groups considered
  int64_t row_groups_by_statistics = 0;   // skipped: min/max and null counts
  int64_t row_groups_by_dictionary = 0;   // skipped: no dictionary value matches
  int64_t row_groups_by_bloom_filter = 0; // skipped: no listed value in the filter
  int64_t pages = 0;                      // data pages of the columns read (as encoding_stats count them)
  int64_t pages_skipped = 0;              // passed over undecoded (page index, batches no row matched)
  int64_t bytes = 0;                      // compressed bytes of the selected columns' chunks
  int64_t bytes_skipped = 0;              // of those, not read (row groups and pages skipped)
  int64_t rows = 0;                       // rows of the row groups considered
  int64_t rows_skipped_by_page_index = 0; // rows of row groups read that no field decoded
  int64_t rows_decoded = 0;               // rows the filter columns decoded
  int64_t rows_selected = 0;              // rows returned

  void Add(const PruningStats& other);
};

class FilteredBatchReader {
 public:
  // `options.columns`: the output fields (empty: all); `options.row_groups` restricts the row
  // groups considered. Batches hold only selected rows (never empty), at most batch_rows each.
  static Result<std::unique_ptr<FilteredBatchReader>> Make(FileReader* file, const BatchReadOptions& options,
                                                           const FilterOptions& filter);
  ~FilteredBatchReader();

  // The next batch, or nullptr after the last one.
  Result<std::shared_ptr<RecordBatch>> Next();
  const std::shared_ptr<Schema>& schema() const;
  // So far; complete after the last batch.
  const PruningStats& stats() const;
  int64_t memory_size() const;

 private:
  FilteredBatchReader();
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace strata::parquet
