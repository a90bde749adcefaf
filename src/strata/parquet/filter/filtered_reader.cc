#include "strata/parquet/filter/filtered_reader.h"

#include <fmt/format.h>

#include <algorithm>

#include "strata/array/filter.h"
#include "strata/parquet/filter/late_materialization.h"
#include "strata/parquet/filter/predicate_values.h"
#include "strata/parquet/filter/row_group_pruner.h"

namespace strata::parquet {

void PruningStats::Add(const PruningStats& o) {
  row_groups += o.row_groups;
  row_groups_by_statistics += o.row_groups_by_statistics;
  row_groups_by_dictionary += o.row_groups_by_dictionary;
  row_groups_by_bloom_filter += o.row_groups_by_bloom_filter;
  pages += o.pages;
  pages_skipped += o.pages_skipped;
  bytes += o.bytes;
  bytes_skipped += o.bytes_skipped;
  rows += o.rows;
  rows_skipped_by_page_index += o.rows_skipped_by_page_index;
  rows_decoded += o.rows_decoded;
  rows_selected += o.rows_selected;
}

struct FilteredBatchReader::Impl {
  FileReader* file = nullptr;
  FilterOptions filter;
  std::shared_ptr<Schema> schema;           // the output fields
  std::vector<size_t> output_positions;     // their positions among the fields read
  std::vector<int> filter_fields;           // file fields the predicate reads, by filter position
  int num_file_fields = 0;
  std::unique_ptr<filter::RowGroupPruner> pruner;
  std::unique_ptr<BatchReader> reader;      // null when every row group was pruned
  std::unique_ptr<filter::LateMaterialization> late;  // with a predicate
  PruningStats stats;
  bool done = false;
};

FilteredBatchReader::FilteredBatchReader() : impl_(std::make_unique<Impl>()) {}
FilteredBatchReader::~FilteredBatchReader() = default;

namespace {

// Values of one domain: the same kind, and for temporal types the same unit, for decimals the
// same scale (a predicate bound to a wider dataset type is in that type's terms).
bool SameDomain(const DataType& a, const DataType& b) {
  const auto ka = filter::ValueKindOf(a);
  const auto kb = filter::ValueKindOf(b);
  if (!ka || ka != kb) return false;
  if (is_temporal(a.id()) || is_temporal(b.id())) {
    if (a.id() == TypeId::kDate32 || a.id() == TypeId::kDate64 || b.id() == TypeId::kDate32 ||
        b.id() == TypeId::kDate64) {
      return a.id() == b.id();
    }
    return a.unit() == b.unit();
  }
  if (a.id() == TypeId::kDecimal128) return a.scale() == b.scale();
  return true;
}

int64_t DataPages(const ColumnMetaData& meta) {
  if (!meta.encoding_stats) return 0;
  int64_t pages = 0;
  for (const PageEncodingStats& s : *meta.encoding_stats) {
    if (s.page_type == PageType::kDataPage || s.page_type == PageType::kDataPageV2) pages += s.count;
  }
  return pages;
}

}  // namespace

Result<std::unique_ptr<FilteredBatchReader>> FilteredBatchReader::Make(FileReader* file,
                                                                       const BatchReadOptions& options,
                                                                       const FilterOptions& filter) {
  STRATA_RETURN_NOT_OK(options.Validate());
  std::unique_ptr<FilteredBatchReader> out(new FilteredBatchReader());
  Impl& impl = *out->impl_;
  impl.file = file;
  impl.filter = filter;
  const Schema& file_schema = *file->schema();
  impl.num_file_fields = file_schema.num_fields();

  std::vector<int> output_fields = options.columns;
  if (output_fields.empty()) {
    for (int i = 0; i < file_schema.num_fields(); ++i) {
      if (file->has_field_metadata(i)) output_fields.push_back(i);  // (FileReaderOptions::columns)
    }
  }
  for (const int f : output_fields) {
    if (f < 0 || f >= file_schema.num_fields()) {
      return Status::Invalid("'{}': column {} out of range (the file has {})", file->source().name(), f,
                             file_schema.num_fields());
    }
  }
  // The restored types (the batch reader's own, when it is made below).
  std::vector<FieldPtr> output_schema_fields;
  for (const int f : output_fields) output_schema_fields.push_back(file->restored_schema()->field(f));

  // Fields read: the output fields, then those only the filter reads.
  std::vector<int> read_fields = output_fields;
  std::vector<size_t> filter_positions;
  if (filter.predicate) {
    Status status;
    filter.predicate->ForEachLeaf([&](const expr::Leaf& leaf) {
      const DataType* type = TypeAtLeafPath(file_schema, leaf.path);
      const bool null_test = leaf.kind == expr::Leaf::Kind::kIsNull || leaf.kind == expr::Leaf::Kind::kIsNotNull;
      const bool comparable = type != nullptr && leaf.type != nullptr &&
                              (SameDomain(*type, *leaf.type) || (null_test && type->Equals(*leaf.type)));
      if (status.ok() && !comparable) {
        status = Status::Invalid("'{}': the filter on '{}' ({}) does not match the file's column ({})",
                                 file->source().name(), leaf.column, leaf.type ? leaf.type->ToString() : "?",
                                 type ? type->ToString() : "absent");
      }
    });
    STRATA_RETURN_NOT_OK(status);
    for (const int f : filter.predicate->ReferencedFields()) {
      auto found = std::find(read_fields.begin(), read_fields.end(), f);
      size_t position = static_cast<size_t>(found - read_fields.begin());
      if (found == read_fields.end()) read_fields.push_back(f);
      filter_positions.push_back(position);
      impl.filter_fields.push_back(f);
    }
    filter::PrunerOptions pruner_options{filter.use_statistics, filter.use_dictionaries, filter.use_bloom_filters,
                                         filter.use_page_index};
    STRATA_ASSIGN_OR_RETURN(impl.pruner, filter::RowGroupPruner::Make(file, filter.predicate, pruner_options));
  }
  for (size_t i = 0; i < output_fields.size(); ++i) impl.output_positions.push_back(i);
  if (!file->options().row_number_column.empty()) {
    // The batch reader's last column, after the fields it reads (FileReaderOptions::row_number_column).
    impl.output_positions.push_back(read_fields.size());
    output_schema_fields.push_back(std::make_shared<Field>(file->options().row_number_column, int64(), false));
  }
  impl.schema = std::make_shared<Schema>(std::move(output_schema_fields), file_schema.metadata());

  std::vector<int> row_groups = options.row_groups;
  if (row_groups.empty()) {
    for (int i = 0; i < file->num_row_groups(); ++i) row_groups.push_back(i);
  }
  const SchemaDescriptor& descriptor = file->descriptor();
  std::vector<int> kept;
  for (const int rg : row_groups) {
    if (rg < 0 || rg >= file->num_row_groups()) {
      return Status::Invalid("'{}': row group {} out of range (the file has {})", file->source().name(), rg,
                             file->num_row_groups());
    }
    const RowGroup& group = file->metadata().row_groups[static_cast<size_t>(rg)];
    int64_t bytes = 0;
    for (const int f : read_fields) {
      const int first = descriptor.field_first_column(f);
      for (int c = first; c < first + descriptor.field_num_columns(f); ++c) {
        const ColumnChunk* chunk = file->metadata().chunk(rg, c);
        if (chunk == nullptr || !chunk->meta_data) continue;
        const auto& meta = chunk->meta_data;
        bytes += meta->total_compressed_size;
        impl.stats.pages += DataPages(*meta);
      }
    }
    ++impl.stats.row_groups;
    impl.stats.rows += group.num_rows;
    impl.stats.bytes += bytes;
    filter::PruneReason reason = filter::PruneReason::kNone;
    if (impl.pruner) {
      STRATA_ASSIGN_OR_RETURN(reason, impl.pruner->Check(rg));
    }
    switch (reason) {
      case filter::PruneReason::kNone: kept.push_back(rg); continue;
      case filter::PruneReason::kStatistics: ++impl.stats.row_groups_by_statistics; break;
      case filter::PruneReason::kDictionary: ++impl.stats.row_groups_by_dictionary; break;
      case filter::PruneReason::kBloomFilter: ++impl.stats.row_groups_by_bloom_filter; break;
    }
    impl.stats.bytes_skipped += bytes;
  }
  if (kept.empty()) return out;  // BatchReadOptions::row_groups empty would mean all of them

  BatchReadOptions read_options = options;
  read_options.columns = read_fields;
  read_options.row_groups = std::move(kept);
  STRATA_ASSIGN_OR_RETURN(impl.reader, file->ReadBatches(read_options));
  // The batches' types (restored, dictionaries, views), which the output columns keep.
  std::vector<FieldPtr> read_schema_fields;
  for (const size_t p : impl.output_positions) {
    read_schema_fields.push_back(impl.reader->schema()->field(static_cast<int>(p)));
  }
  impl.schema = std::make_shared<Schema>(std::move(read_schema_fields), file_schema.metadata());
  if (filter.predicate) {
    filter::LateMaterialization::CandidateRows candidate_rows;
    if (filter.use_page_index) {
      filter::RowGroupPruner* pruner = impl.pruner.get();
      candidate_rows = [pruner](int row_group) { return pruner->CandidateRows(row_group); };
    }
    Impl* state = out->impl_.get();
    auto select = [state, filter_positions](const std::vector<Array>& columns,
                                            int64_t rows) -> Result<expr::Selection> {
      // The predicate is bound to the file's schema: restored zones and durations evaluate as
      // the Parquet types they were read as.
      std::vector<Array> as_file;
      as_file.reserve(columns.size());
      for (size_t k = 0; k < columns.size(); ++k) {
        as_file.push_back(state->reader->AsFileType(filter_positions[k], columns[k]));
      }
      std::vector<const Array*> by_field(static_cast<size_t>(state->num_file_fields), nullptr);
      for (size_t k = 0; k < as_file.size(); ++k) by_field[static_cast<size_t>(state->filter_fields[k])] = &as_file[k];
      return expr::Evaluate(*state->filter.predicate, by_field, rows, state->file->pool());
    };
    impl.late = std::make_unique<filter::LateMaterialization>(impl.reader.get(), std::move(filter_positions),
                                                              std::move(candidate_rows), std::move(select));
  }
  return out;
}

Result<std::shared_ptr<RecordBatch>> FilteredBatchReader::Next() {
  Impl& impl = *impl_;
  if (impl.done || impl.reader == nullptr) {
    impl.done = true;
    return std::shared_ptr<RecordBatch>();
  }
  if (!impl.filter.predicate) {
    STRATA_ASSIGN_OR_RETURN(auto batch, impl.reader->Next());
    if (batch == nullptr) {
      impl.done = true;
      return batch;
    }
    impl.stats.rows_selected += batch->num_rows();
    return batch;
  }
  STRATA_ASSIGN_OR_RETURN(filter::LateMaterialization::FilteredBatch filtered, impl.late->Next());
  if (filtered.batch == nullptr) {
    impl.done = true;
    return std::shared_ptr<RecordBatch>();
  }
  const RecordBatch& batch = *filtered.batch;
  const expr::Selection& selection = filtered.selection;
  std::vector<Array> columns;
  columns.reserve(impl.output_positions.size());
  for (const size_t p : impl.output_positions) {
    const Array& column = batch.column(static_cast<int>(p));
    STRATA_ASSIGN_OR_RETURN(Array kept, Filter(column, selection.bits->data(), 0, selection.selected,
                                               impl.file->pool()));
    columns.push_back(std::move(kept));
  }
  impl.stats.rows_selected += selection.selected;
  return std::make_shared<RecordBatch>(impl.schema, selection.selected, std::move(columns));
}

const std::shared_ptr<Schema>& FilteredBatchReader::schema() const { return impl_->schema; }

const PruningStats& FilteredBatchReader::stats() const {
  Impl& impl = *impl_;
  if (impl.reader) {
    impl.stats.rows_decoded = impl.late ? impl.late->rows_decoded() : impl.stats.rows_selected;
    impl.stats.rows_skipped_by_page_index = impl.late ? impl.late->rows_skipped() : 0;
    impl.stats.pages_skipped = impl.reader->pages_skipped();
  }
  return impl.stats;
}

int64_t FilteredBatchReader::memory_size() const { return impl_->reader ? impl_->reader->memory_size() : 0; }

}  // namespace strata::parquet
