#include "strata/dataset/file_scan.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "strata/array/filter.h"
#include "strata/array/null_array.h"
#include "strata/array/widen.h"
#include "strata/dataset/dataset_reader.h"
#include "strata/expr/evaluate.h"
#include "strata/expr/range_pruning.h"

namespace strata::dataset {

namespace {

// expr::Value's kind for a column type; -1 when leaves cannot compare it.
int ValueKind(const DataType& type) {
  const TypeId id = type.id();
  if (id == TypeId::kBoolean) return 0;
  if (is_signed_integer(id) || is_temporal(id)) return 1;
  if (is_unsigned_integer(id)) return 2;
  if (is_floating(id)) return 3;
  if (id == TypeId::kDecimal128) return 4;
  if (is_string(id) || is_binary_like(id) || is_large_binary_like(id) || is_view(id) ||
      id == TypeId::kFixedSizeBinary) {
    return 5;
  }
  return -1;
}

// Whether a leaf bound to `dataset_type` means the same on a column of `file_type`: the same
// value kind, and for temporal types the same unit (date32 days are not date64 milliseconds),
// for decimals the same scale.
bool SameValueDomain(const DataType& file_type, const DataType& dataset_type) {
  const int kind = ValueKind(file_type);
  if (kind < 0 || kind != ValueKind(dataset_type)) return false;
  if (is_temporal(file_type.id()) || is_temporal(dataset_type.id())) {
    if (file_type.id() != dataset_type.id()) return false;
    if (file_type.id() == TypeId::kDate32 || file_type.id() == TypeId::kDate64) return true;
    return file_type.unit() == dataset_type.unit();
  }
  if (file_type.id() == TypeId::kDecimal128) return file_type.scale() == dataset_type.scale();
  return true;
}

expr::ValueRange PartitionRange(const PartitionValue& value) {
  expr::ValueRange range;
  range.row_count = 1;
  range.null_count = value.value ? 0 : 1;
  range.nan_count = 0;
  if (value.value) {
    if (value.value->kind == expr::Value::Kind::kDouble && std::isnan(value.value->d)) {
      range.nan_count = 1;  // min/max leave NaN out: no non-NaN value
    } else {
      range.min = *value.value;
      range.max = *value.value;
    }
  }
  return range;
}

}  // namespace

bool PartitionMayMatch(const ScanPlan& plan, size_t file) {
  if (!plan.predicate) return true;
  const Dataset& dataset = *plan.dataset;
  const int partition_begin = dataset.num_file_fields();
  const auto& values = dataset.partitioning().values[file];
  return expr::MayMatch(*plan.predicate, [&](const expr::Leaf& leaf) {
    const int field = leaf.path[0];
    if (field < partition_begin) return true;
    return expr::LeafMayMatch(leaf, PartitionRange(values[static_cast<size_t>(field - partition_begin)]));
  });
}

namespace {

// The dataset fields a scan of `plan` reads from files: the output's file columns and every
// file column the predicate references.
std::vector<int> FileFieldsRead(const ScanPlan& plan) {
  std::vector<int> fields;
  const int partition_begin = plan.dataset->num_file_fields();
  for (const int f : plan.output_fields) {
    if (f < partition_begin) fields.push_back(f);
  }
  if (plan.predicate) {
    for (const int f : plan.predicate->ReferencedFields()) {
      if (f < partition_begin) fields.push_back(f);
    }
  }
  std::sort(fields.begin(), fields.end());
  fields.erase(std::unique(fields.begin(), fields.end()), fields.end());
  return fields;
}

}  // namespace

int64_t EstimatedChunkBytes(const ScanPlan& plan, size_t file) {
  const FileSummary& summary = plan.dataset->summaries()[file];
  if (summary.schema == nullptr) return -1;
  int64_t bytes = 0;
  for (const int f : FileFieldsRead(plan)) {
    const int index = summary.schema->GetFieldIndex(plan.dataset->schema()->field(f)->name());
    if (index >= 0) bytes += summary.max_chunk_bytes[static_cast<size_t>(index)];
  }
  return bytes;
}

Result<std::unique_ptr<FileScan>> FileScan::Open(const ScanPlan& plan, size_t file) {
  std::unique_ptr<FileScan> scan(new FileScan());
  scan->plan_ = &plan;
  scan->file_ = file;
  const Dataset& dataset = *plan.dataset;
  const std::string& path = dataset.files()[file].path;
  parquet::FileReaderOptions reader_options = dataset.options().schema.reader;
  reader_options.row_number_column = plan.row_number_column;
  auto opened = parquet::FileReader::OpenFile(path, dataset.pool(), reader_options);
  if (!opened.ok()) return opened.status().WithContext("dataset: '" + path + "'");
  scan->reader_ = std::move(*opened);
  Status status = scan->Prepare();
  if (!status.ok()) return status.WithContext("dataset: '" + path + "'");
  return scan;
}

Status FileScan::Prepare() {
  const Dataset& dataset = *plan_->dataset;
  const Schema& dataset_schema = *dataset.schema();
  const Schema& file_schema = *reader_->schema();
  const int partition_begin = dataset.num_file_fields();
  field_map_.assign(static_cast<size_t>(dataset_schema.num_fields()), -1);
  for (int d = 0; d < partition_begin; ++d) {
    field_map_[static_cast<size_t>(d)] = file_schema.GetFieldIndex(dataset_schema.field(d)->name());
  }

  // The filter for this file: partition leaves are constants here (evaluated exactly on the
  // one value), leaves on columns the file lacks see only nulls.
  expr::PredicatePtr residual;
  if (plan_->predicate) {
    const auto& values = dataset.partitioning().values[file_];
    Status status;
    residual = expr::ReplaceLeaves(plan_->predicate, [&](const expr::Leaf& leaf) -> std::optional<bool> {
      const int field = leaf.path[0];
      if (field >= partition_begin) {
        std::vector<const Array*> columns(static_cast<size_t>(dataset_schema.num_fields()), nullptr);
        columns[static_cast<size_t>(field)] = &values[static_cast<size_t>(field - partition_begin)].array;
        auto selection = expr::Evaluate(*expr::Predicate::MakeLeaf(leaf), columns, 1, dataset.pool());
        if (!selection.ok()) {
          if (status.ok()) status = selection.status();
          return false;
        }
        return selection->selected == 1;
      }
      if (field_map_[static_cast<size_t>(field)] < 0) return leaf.kind == expr::Leaf::Kind::kIsNull;
      return std::nullopt;
    });
    STRATA_RETURN_NOT_OK(status);
  }
  if (residual && residual->kind() == expr::Predicate::Kind::kFalse) return Status::OK();  // no batches
  if (residual && residual->kind() == expr::Predicate::Kind::kTrue) residual = nullptr;

  // Leaves whose literals are in another unit than the file's column cannot go to its reader;
  // the reader then gets the filter without them (a superset: the tree is AND/OR only) and
  // the whole filter runs on the conformed batch.
  expr::PredicatePtr pushed = residual;
  if (residual) {
    bool all_pushable = true;
    auto pushable = [&](const expr::Leaf& leaf) {
      std::vector<int> file_path = leaf.path;
      file_path[0] = field_map_[static_cast<size_t>(leaf.path[0])];
      const DataType* file_type = TypeAtLeafPath(file_schema, file_path);
      return file_type != nullptr && leaf.type != nullptr && SameValueDomain(*file_type, *leaf.type);
    };
    residual->ForEachLeaf([&](const expr::Leaf& leaf) { all_pushable = all_pushable && pushable(leaf); });
    if (!all_pushable) {
      post_filter_ = residual;
      pushed = expr::ReplaceLeaves(residual, [&](const expr::Leaf& leaf) -> std::optional<bool> {
        if (pushable(leaf)) return std::nullopt;
        return true;
      });
      if (pushed->kind() == expr::Predicate::Kind::kTrue) pushed = nullptr;
    }
    if (pushed) pushed = expr::RemapFields(pushed, field_map_);
  }

  // Columns to read: the output's file columns, then the post filter's.
  parquet::BatchReadOptions read = plan_->read;
  read.columns.clear();
  auto add_read = [&](int d) {
    if (d >= partition_begin || field_map_[static_cast<size_t>(d)] < 0) return;
    if (std::find(read_fields_.begin(), read_fields_.end(), d) != read_fields_.end()) return;
    read_fields_.push_back(d);
    read.columns.push_back(field_map_[static_cast<size_t>(d)]);
  };
  for (const int d : plan_->output_fields) add_read(d);
  if (post_filter_) {
    for (const int d : post_filter_->ReferencedFields()) add_read(d);
  }
  if (read.columns.empty()) {
    // Only partition or missing columns wanted: read the file's smallest column for the row
    // counts (empty columns would mean all of them).
    if (file_schema.num_fields() == 0) {
      return Status::NotImplemented("a file without columns cannot give row counts to a dataset scan");
    }
    const parquet::SchemaDescriptor& descriptor = reader_->descriptor();
    int cheapest = 0;
    int64_t cheapest_bytes = -1;
    for (int f = 0; f < file_schema.num_fields(); ++f) {
      int64_t bytes = 0;
      for (int rg = 0; rg < reader_->num_row_groups(); ++rg) {
        for (int c = descriptor.field_first_column(f);
             c < descriptor.field_first_column(f) + descriptor.field_num_columns(f); ++c) {
          const parquet::ColumnChunk* chunk = reader_->metadata().chunk(rg, c);
          if (chunk != nullptr && chunk->meta_data) bytes += chunk->meta_data->total_compressed_size;
        }
      }
      if (cheapest_bytes < 0 || bytes < cheapest_bytes) {
        cheapest = f;
        cheapest_bytes = bytes;
      }
    }
    read.columns.push_back(cheapest);
    read_fields_.push_back(-1);  // read for its length only
  }

  // The budget's unit: the largest row group's compressed bytes of the columns read.
  const parquet::SchemaDescriptor& descriptor = reader_->descriptor();
  std::vector<int> charged = read.columns;
  if (pushed) {
    for (const int f : pushed->ReferencedFields()) charged.push_back(f);
  }
  std::sort(charged.begin(), charged.end());
  charged.erase(std::unique(charged.begin(), charged.end()), charged.end());
  for (int rg = 0; rg < reader_->num_row_groups(); ++rg) {
    int64_t bytes = 0;
    for (const int f : charged) {
      for (int c = descriptor.field_first_column(f);
           c < descriptor.field_first_column(f) + descriptor.field_num_columns(f); ++c) {
        const parquet::ColumnChunk* chunk = reader_->metadata().chunk(rg, c);
        if (chunk != nullptr && chunk->meta_data) bytes += chunk->meta_data->total_compressed_size;
      }
    }
    chunk_bytes_ = std::max(chunk_bytes_, bytes);
  }

  parquet::FilterOptions filter = plan_->pruning;
  filter.predicate = pushed;
  STRATA_ASSIGN_OR_RETURN(batches_, parquet::FilteredBatchReader::Make(reader_.get(), read, filter));
  return Status::OK();
}

Result<Array> FileScan::Conform(const Array& array, int dataset_field) const {
  const FieldPtr& target = plan_->dataset->schema()->field(dataset_field);
  if (array.type()->Equals(*target->type())) return array;
  if (!CanWiden(*array.type(), *target->type())) {
    return Status::Invalid("dataset: column '{}' of '{}' has type {}, which does not widen to the dataset's {}",
                           target->name(), plan_->dataset->files()[file_].path, array.type()->ToString(),
                           target->type()->ToString());
  }
  return Widen(array, target->type(), plan_->dataset->pool());
}

Result<std::shared_ptr<RecordBatch>> FileScan::Next() {
  if (batches_ == nullptr) return std::shared_ptr<RecordBatch>();
  const Dataset& dataset = *plan_->dataset;
  MemoryPool* pool = dataset.pool();
  const int partition_begin = dataset.num_file_fields();
  while (true) {
    STRATA_ASSIGN_OR_RETURN(auto batch, batches_->Next());
    if (batch == nullptr) return batch;
    int64_t rows = batch->num_rows();
    if (rows == 0) continue;
    // Per dataset field, the conformed column (file fields read only).
    std::vector<Array> by_field(static_cast<size_t>(dataset.schema()->num_fields()));
    std::vector<const Array*> present(by_field.size(), nullptr);
    for (size_t p = 0; p < read_fields_.size(); ++p) {
      const int d = read_fields_[p];
      if (d < 0) continue;
      STRATA_ASSIGN_OR_RETURN(by_field[static_cast<size_t>(d)], Conform(batch->column(static_cast<int>(p)), d));
      present[static_cast<size_t>(d)] = &by_field[static_cast<size_t>(d)];
    }
    // The reader's last column after the fields read, with row numbers.
    Array row_numbers;
    if (!plan_->row_number_column.empty()) row_numbers = batch->column(static_cast<int>(read_fields_.size()));
    if (post_filter_) {
      STRATA_ASSIGN_OR_RETURN(expr::Selection selection, expr::Evaluate(*post_filter_, present, rows, pool));
      if (selection.selected == 0) continue;
      if (selection.selected < rows) {
        for (size_t d = 0; d < by_field.size(); ++d) {
          if (present[d] == nullptr) continue;
          STRATA_ASSIGN_OR_RETURN(by_field[d],
                                  Filter(by_field[d], selection.bits->data(), 0, selection.selected, pool));
        }
        if (!plan_->row_number_column.empty()) {
          STRATA_ASSIGN_OR_RETURN(row_numbers, Filter(row_numbers, selection.bits->data(), 0, selection.selected, pool));
        }
        rows = selection.selected;
      }
    }
    std::vector<Array> columns;
    columns.reserve(plan_->output_fields.size());
    for (const int d : plan_->output_fields) {
      if (d >= partition_begin) {
        const PartitionValue& value = dataset.partitioning().values[file_][static_cast<size_t>(d - partition_begin)];
        STRATA_ASSIGN_OR_RETURN(Array repeated, MakeRepeatedArray(value.array, rows, pool));
        columns.push_back(std::move(repeated));
      } else if (present[static_cast<size_t>(d)] != nullptr) {
        columns.push_back(by_field[static_cast<size_t>(d)]);
      } else {
        STRATA_ASSIGN_OR_RETURN(Array nulls, MakeNullArray(dataset.schema()->field(d)->type(), rows, pool));
        columns.push_back(std::move(nulls));
      }
    }
    if (!plan_->row_number_column.empty()) columns.push_back(std::move(row_numbers));
    if (!plan_->file_path_column.empty()) {
      STRATA_ASSIGN_OR_RETURN(Array paths, FilePathColumn(rows));
      columns.push_back(std::move(paths));
    }
    rows_returned_ += rows;
    return std::make_shared<RecordBatch>(plan_->output_schema, rows, std::move(columns));
  }
}

Result<Array> FileScan::FilePathColumn(int64_t rows) {
  MemoryPool* pool = plan_->dataset->pool();
  if (path_dictionary_ == nullptr) {
    const std::string& path = plan_->dataset->files()[file_].path;
    const auto length = static_cast<int64_t>(path.size());
    STRATA_ASSIGN_OR_RETURN(auto offsets, AllocateBuffer(pool, 2 * static_cast<int64_t>(sizeof(int32_t))));
    if (length > INT32_MAX) return Status::Invalid("dataset: a file path of {} bytes", length);
    offsets->mutable_data_as<int32_t>()[0] = 0;
    offsets->mutable_data_as<int32_t>()[1] = static_cast<int32_t>(length);
    STRATA_ASSIGN_OR_RETURN(auto bytes, AllocateBuffer(pool, length));
    if (length > 0) std::memcpy(bytes->mutable_data(), path.data(), path.size());
    path_dictionary_ = ArrayData::Make(utf8(), 1, {nullptr, std::move(offsets), std::move(bytes)}, 0);
  }
  // Every row's index is 0: the one path.
  STRATA_ASSIGN_OR_RETURN(auto indices, AllocateBuffer(pool, rows * static_cast<int64_t>(sizeof(int32_t))));
  if (rows > 0) std::memset(indices->mutable_data(), 0, static_cast<size_t>(rows) * sizeof(int32_t));
  auto data = ArrayData::Make(plan_->output_schema->field(plan_->output_schema->num_fields() - 1)->type(), rows,
                              {nullptr, std::move(indices)}, 0);
  data->dictionary = path_dictionary_;
  return Array(std::move(data));
}

parquet::PruningStats FileScan::stats() const {
  parquet::PruningStats stats = batches_ ? batches_->stats() : parquet::PruningStats{};
  // The reader counts the rows it returned, before the post filter.
  if (post_filter_) stats.rows_selected = rows_returned_;
  return stats;
}

int64_t FileScan::memory_size() const { return batches_ ? batches_->memory_size() : 0; }

}  // namespace strata::dataset
