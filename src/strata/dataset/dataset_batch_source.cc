#include "strata/dataset/dataset_batch_source.h"

#include "strata/io/location.h"

#include <fmt/format.h>

#include <filesystem>

#include "strata/dataset/dataset_reader.h"
#include "strata/expr/parser.h"

namespace strata::dataset {
namespace {

class DatasetSource final : public BatchSource {
 public:
  static Result<std::unique_ptr<BatchSource>> Open(const std::string& path, const BatchSourceOptions& options,
                                                   MemoryPool* pool) {
    auto out = std::make_unique<DatasetSource>();
    DatasetOptions open;
    open.schema.executor = options.executor;
    open.schema.reader = ParquetReaderOptions(options);
    open.schema.reader.row_number_column.clear();  // the scan's (ScanOptions) own
    STRATA_ASSIGN_OR_RETURN(out->dataset_, Dataset::Open({path}, open, pool));
    ScanOptions scan;
    scan.columns = options.columns;
    scan.batch_rows = options.batch_rows;
    scan.max_batch_bytes = options.max_batch_bytes;
    scan.executor = options.executor;
    if (options.read_ahead_bytes) scan.read_ahead_bytes = *options.read_ahead_bytes;
    if (!options.filter.empty()) {
      STRATA_ASSIGN_OR_RETURN(scan.filter, expr::ParseFilter(options.filter));
    }
    scan.pruning = PruningOptions(options);
    scan.row_number_column = options.row_number_column;
    scan.file_path_column = options.file_path_column;
    STRATA_ASSIGN_OR_RETURN(out->reader_, out->dataset_->Scan(scan));
    out->schema_ = out->reader_->schema();
    out->filtered_ = !options.filter.empty();
    for (const auto& summary : out->dataset_->summaries()) out->rows_ += summary.num_rows;
    return std::unique_ptr<BatchSource>(std::move(out));
  }

  const SchemaPtr& schema() const override { return schema_; }
  Result<std::shared_ptr<RecordBatch>> Next() override { return reader_->Next(); }
  int64_t raw_bytes_read() const override { return 0; }
  int64_t raw_size() const override { return -1; }
  int64_t num_rows() const override { return filtered_ ? -1 : rows_; }
  std::string format_name() const override { return "parquet"; }
  std::optional<parquet::PruningStats> pruning_stats() const override {
    if (!filtered_) return std::nullopt;
    return reader_->stats().pruning;
  }
  std::string DatasetLine() const override {
    const DatasetScanStats stats = reader_->stats();
    return fmt::format("dataset: {} files, {} skipped by their partition values, {} read; {} partition column{}",
                       stats.files_total, stats.files_skipped_by_partition, stats.files_read,
                       dataset_->partitioning().fields.size(), dataset_->partitioning().fields.size() == 1 ? "" : "s");
  }

 private:
  std::shared_ptr<Dataset> dataset_;
  std::unique_ptr<DatasetReader> reader_;  // after dataset_: destroyed first
  SchemaPtr schema_;
  bool filtered_ = false;
  int64_t rows_ = 0;
};

}  // namespace

bool IsDatasetInput(const std::string& path) {
  if (KindOfLocation(path) == LocationKind::kS3) return IsObjectStoreDataset(path);
  if (KindOfLocation(path) == LocationKind::kHttp) return false;
  std::error_code error;
  return IsGlob(path) || std::filesystem::is_directory(path, error);
}

Result<std::unique_ptr<BatchSource>> OpenDatasetSource(const std::string& path, const BatchSourceOptions& options,
                                                       MemoryPool* pool) {
  return DatasetSource::Open(path, options, pool);
}

}  // namespace strata::dataset
