#include "strata/csv/arrow_stream.h"

namespace strata::csv {

namespace {

class CsvStream final : public arrow_c::RecordBatchStream {
 public:
  explicit CsvStream(std::unique_ptr<CsvReader> reader) : reader_(std::move(reader)) {}
  SchemaPtr schema() const override { return reader_->schema(); }
  Result<std::shared_ptr<RecordBatch>> Next() override { return reader_->Next(); }

 private:
  std::unique_ptr<CsvReader> reader_;
};

}  // namespace

std::unique_ptr<arrow_c::RecordBatchStream> MakeArrowStream(std::unique_ptr<CsvReader> reader) {
  return std::make_unique<CsvStream>(std::move(reader));
}

Status ExportArrowStream(std::unique_ptr<CsvReader> reader, ArrowArrayStream* out) {
  if (reader == nullptr) return Status::Invalid("no CSV reader given");
  return arrow_c::ExportBatchStream(MakeArrowStream(std::move(reader)), out);
}

}  // namespace strata::csv
