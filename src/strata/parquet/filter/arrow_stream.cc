#include "strata/parquet/filter/arrow_stream.h"

namespace strata::parquet {

namespace {

// `Batches` is BatchReader or FilteredBatchReader.
template <typename Batches>
class ParquetStream final : public arrow_c::RecordBatchStream {
 public:
  // `batches` points into `file`: the file reader is kept and destroyed last.
  ParquetStream(std::unique_ptr<FileReader> file, std::unique_ptr<Batches> batches)
      : file_(std::move(file)), batches_(std::move(batches)) {}

  SchemaPtr schema() const override { return batches_->schema(); }
  Result<std::shared_ptr<RecordBatch>> Next() override { return batches_->Next(); }

 private:
  std::unique_ptr<FileReader> file_;
  std::unique_ptr<Batches> batches_;
};

}  // namespace

Result<std::unique_ptr<arrow_c::RecordBatchStream>> MakeArrowStream(std::unique_ptr<FileReader> file,
                                                                     const BatchReadOptions& options,
                                                                     const FilterOptions& filter) {
  if (file == nullptr) return Status::Invalid("no Parquet file reader given");
  if (filter.predicate) {
    STRATA_ASSIGN_OR_RETURN(std::unique_ptr<FilteredBatchReader> batches,
                            FilteredBatchReader::Make(file.get(), options, filter));
    return std::unique_ptr<arrow_c::RecordBatchStream>(
        std::make_unique<ParquetStream<FilteredBatchReader>>(std::move(file), std::move(batches)));
  }
  STRATA_ASSIGN_OR_RETURN(std::unique_ptr<BatchReader> batches, file->ReadBatches(options));
  return std::unique_ptr<arrow_c::RecordBatchStream>(
      std::make_unique<ParquetStream<BatchReader>>(std::move(file), std::move(batches)));
}

Status ExportArrowStream(std::unique_ptr<FileReader> file, const BatchReadOptions& options, ArrowArrayStream* out,
                         const FilterOptions& filter) {
  STRATA_ASSIGN_OR_RETURN(std::unique_ptr<arrow_c::RecordBatchStream> stream,
                          MakeArrowStream(std::move(file), options, filter));
  return arrow_c::ExportBatchStream(std::move(stream), out);
}

}  // namespace strata::parquet
