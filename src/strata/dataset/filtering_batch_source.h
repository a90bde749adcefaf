// A row filter for inputs that have no statistics to prune with (CSV, Arrow IPC): every batch is
// decoded, the filter evaluated over it, and only the kept rows of the asked-for columns
// passed on. Parquet input uses parquet::FilteredBatchReader instead (batch_source.cc).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "strata/dataset/batch_source.h"
#include "strata/expr/expression.h"

namespace strata::dataset {

class RowFilterPlan {
 public:
  // Parses `filter`; `columns` are the columns asked for (empty: all).
  static Result<std::unique_ptr<RowFilterPlan>> Make(const std::string& filter, std::vector<std::string> columns);
  // The columns to read: those asked for and those the filter reads (empty: all).
  const std::vector<std::string>& input_columns() const { return input_columns_; }
  const std::vector<std::string>& output_columns() const { return output_columns_; }
  const expr::ExpressionPtr& expression() const { return expression_; }

 private:
  expr::ExpressionPtr expression_;
  std::vector<std::string> output_columns_;
  std::vector<std::string> input_columns_;
};

// `source` read with plan->input_columns(); `path` names the input in messages.
Result<std::unique_ptr<BatchSource>> MakeFilteringSource(std::unique_ptr<BatchSource> source,
                                                         std::unique_ptr<RowFilterPlan> plan, const std::string& path,
                                                         MemoryPool* pool);

}  // namespace strata::dataset
