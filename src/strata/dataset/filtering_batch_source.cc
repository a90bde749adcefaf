#include "strata/dataset/filtering_batch_source.h"

#include <fmt/format.h>

#include <algorithm>

#include "strata/array/filter.h"
#include "strata/expr/bind.h"
#include "strata/expr/evaluate.h"
#include "strata/expr/parser.h"

namespace strata::dataset {
namespace {

void CollectColumns(const expr::Expression& e, std::vector<std::string>* names) {
  if (!e.column().empty() && std::find(names->begin(), names->end(), e.column()[0]) == names->end()) {
    names->push_back(e.column()[0]);
  }
  for (const auto& child : e.children()) CollectColumns(*child, names);
}

class FilteringSource final : public BatchSource {
 public:
  FilteringSource(std::unique_ptr<BatchSource> source, expr::PredicatePtr predicate, std::vector<int> outputs,
                  SchemaPtr schema, MemoryPool* pool)
      : source_(std::move(source)),
        predicate_(std::move(predicate)),
        outputs_(std::move(outputs)),
        schema_(std::move(schema)),
        pool_(pool) {}

  const SchemaPtr& schema() const override { return schema_; }
  Result<std::shared_ptr<RecordBatch>> Next() override {
    while (true) {
      STRATA_ASSIGN_OR_RETURN(auto batch, source_->Next());
      if (batch == nullptr) return batch;
      std::vector<const Array*> columns;
      for (const Array& column : batch->columns()) columns.push_back(&column);
      STRATA_ASSIGN_OR_RETURN(const expr::Selection selection,
                              expr::Evaluate(*predicate_, columns, batch->num_rows(), pool_));
      if (selection.selected == 0) continue;
      std::vector<Array> kept;
      for (const int i : outputs_) {
        STRATA_ASSIGN_OR_RETURN(Array column,
                                Filter(batch->column(i), selection.bits->data(), 0, selection.selected, pool_));
        kept.push_back(std::move(column));
      }
      return std::make_shared<RecordBatch>(schema_, selection.selected, std::move(kept));
    }
  }
  int64_t raw_bytes_read() const override { return source_->raw_bytes_read(); }
  int64_t raw_size() const override { return source_->raw_size(); }
  int64_t read_count() const override { return source_->read_count(); }
  std::string format_name() const override { return source_->format_name(); }
  std::string DialectLine() const override { return source_->DialectLine(); }
  std::string DetectionLines() const override { return source_->DetectionLines(); }
  std::string SkippedRowsReport() const override { return source_->SkippedRowsReport(); }

 private:
  std::unique_ptr<BatchSource> source_;
  expr::PredicatePtr predicate_;
  std::vector<int> outputs_;
  SchemaPtr schema_;
  MemoryPool* pool_;
};

}  // namespace

Result<std::unique_ptr<RowFilterPlan>> RowFilterPlan::Make(const std::string& filter, std::vector<std::string> columns) {
  auto plan = std::make_unique<RowFilterPlan>();
  STRATA_ASSIGN_OR_RETURN(plan->expression_, expr::ParseFilter(filter));
  plan->output_columns_ = std::move(columns);
  if (!plan->output_columns_.empty()) {
    plan->input_columns_ = plan->output_columns_;
    CollectColumns(*plan->expression_, &plan->input_columns_);
  }
  return plan;
}

Result<std::unique_ptr<BatchSource>> MakeFilteringSource(std::unique_ptr<BatchSource> source,
                                                         std::unique_ptr<RowFilterPlan> plan, const std::string& path,
                                                         MemoryPool* pool) {
  const Schema& input = *source->schema();
  auto bound = expr::Bind(*plan->expression(), input);
  if (!bound.ok()) return bound.status().WithContext(fmt::format("'{}'", path));
  std::vector<int> outputs;
  std::vector<FieldPtr> fields;
  if (plan->output_columns().empty()) {
    for (int i = 0; i < input.num_fields(); ++i) outputs.push_back(i);
  } else {
    for (const auto& name : plan->output_columns()) outputs.push_back(input.GetFieldIndex(name));
  }
  for (const int i : outputs) {
    if (i < 0) return Status::Invalid("'{}': a column asked for is missing", path);
    fields.push_back(input.field(i));
  }
  auto schema = std::make_shared<Schema>(std::move(fields), input.metadata());
  return std::unique_ptr<BatchSource>(
      std::make_unique<FilteringSource>(std::move(source), *bound, std::move(outputs), std::move(schema), pool));
}

}  // namespace strata::dataset
