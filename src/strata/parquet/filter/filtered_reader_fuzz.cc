// Fuzz target "filtered_reader": the input as a Parquet file, read through FilteredBatchReader
// with a predicate on its first flat columns, so that hostile statistics, dictionary pages,
// Bloom filters and page indexes reach the pruning code. Batches must be valid and no larger
// than asked; when both succeed, the pruned read keeps exactly the rows of the unpruned one
// (pruning may only skip what cannot match).
#include "strata/array/validate.h"
#include "strata/expr/bind.h"
#include "strata/fuzz/fuzz_target.h"
#include "strata/io/random_access_source.h"
#include "strata/parquet/filter/filtered_reader.h"

namespace strata::parquet {
namespace {

constexpr int64_t kMaxRows = 1 << 18;

// A predicate over up to three top-level fields, its shape picked by `choice`: equality and IN
// (dictionaries, Bloom filters), ranges (statistics, the page index), null tests.
expr::ExpressionPtr MakeFilter(const Schema& schema, uint8_t choice) {
  std::vector<expr::ExpressionPtr> leaves;
  for (int i = 0; i < schema.num_fields() && leaves.size() < 3; ++i) {
    const DataType& type = *schema.field(i)->type();
    const TypeId id = type.id() == TypeId::kDictionary ? type.value_type()->id() : type.id();
    const auto column = expr::Column(schema.field(i)->name());
    std::vector<expr::Literal> values;
    if (is_integer(id) || is_floating(id) || is_decimal(id) || is_temporal(id)) {
      values = {expr::Literal::Integer(1), expr::Literal::Integer(choice)};
    } else if (id == TypeId::kString || id == TypeId::kBinary || id == TypeId::kLargeString ||
               id == TypeId::kLargeBinary || id == TypeId::kStringView || id == TypeId::kBinaryView ||
               id == TypeId::kFixedSizeBinary) {
      values = {expr::Literal::String("a"), expr::Literal::String(std::string(1, static_cast<char>(choice)))};
    } else if (id == TypeId::kBoolean) {
      values = {expr::Literal::Bool(true), expr::Literal::Bool(false)};
    } else {
      leaves.push_back(expr::IsNull(column));
      continue;
    }
    switch ((choice >> leaves.size()) & 3) {
      case 0: leaves.push_back(expr::Equal(column, values[0])); break;
      case 1: leaves.push_back(expr::In(column, values)); break;
      case 2: leaves.push_back(expr::And({expr::GreaterEqual(column, values[0]), expr::IsNotNull(column)})); break;
      default: leaves.push_back(expr::Or({expr::Less(column, values[1]), expr::IsNull(column)})); break;
    }
  }
  if (leaves.empty()) return nullptr;
  if (leaves.size() == 1) return leaves[0];
  return (choice & 0x80) ? expr::Or(std::move(leaves)) : expr::And(std::move(leaves));
}

// Every batch of a filtered read, checked; nullopt when the read failed (with an error).
std::optional<int64_t> ReadAll(FileReader& file, const FilterOptions& filter, int64_t batch_rows) {
  BatchReadOptions options;
  options.batch_rows = batch_rows;
  auto reader = FilteredBatchReader::Make(&file, options, filter);
  if (!reader.ok()) {
    fuzz::CheckError(reader.status(), "FilteredBatchReader::Make");
    return std::nullopt;
  }
  int64_t rows = 0;
  while (rows < kMaxRows) {
    auto batch = (*reader)->Next();
    if (!batch.ok()) {
      fuzz::CheckError(batch.status(), "FilteredBatchReader::Next");
      return std::nullopt;
    }
    if (*batch == nullptr) break;
    STRATA_FUZZ_CHECK((*batch)->num_rows() >= 1 && (*batch)->num_rows() <= batch_rows);
    for (const Array& column : (*batch)->columns()) {
      STRATA_FUZZ_CHECK(column.length() == (*batch)->num_rows(), "column length differs from the batch");
      Status valid = ValidateFull(*column.data());
      STRATA_FUZZ_CHECK(valid.ok(), valid.ToString());
    }
    rows += (*batch)->num_rows();
  }
  STRATA_FUZZ_CHECK(rows <= file.num_rows() || rows >= kMaxRows, "more rows kept than the file holds");
  const PruningStats& stats = (*reader)->stats();
  STRATA_FUZZ_CHECK(stats.row_groups_by_statistics + stats.row_groups_by_dictionary +
                        stats.row_groups_by_bloom_filter <= stats.row_groups);
  STRATA_FUZZ_CHECK(stats.bytes_skipped <= stats.bytes);
  return rows;
}

void FuzzFilteredFile(const uint8_t* data, size_t size) {
  fuzz::FuzzPool pool;
  {
    auto source = MakeBufferSource(std::make_shared<Buffer>(data, static_cast<int64_t>(size)), "fuzz.parquet");
    FileReaderOptions options;
    options.footer.speculative_tail_bytes = 256;
    options.pages.whole_chunk_read_limit = (size & 1) ? 0 : (8 << 20);
    auto file = FileReader::Open(source, pool.get(), options);
    if (!file.ok()) {
      fuzz::CheckError(file.status(), "FileReader::Open");
      return;
    }
    const uint8_t choice = size > 0 ? data[size / 2] : 0;
    const auto expression = MakeFilter(*(*file)->schema(), choice);
    if (expression == nullptr) return;
    auto predicate = expr::Bind(*expression, *(*file)->schema());
    if (!predicate.ok()) {
      fuzz::CheckError(predicate.status(), "expr::Bind");
      return;
    }
    FilterOptions pruned;
    pruned.predicate = *predicate;
    FilterOptions unpruned = pruned;
    unpruned.use_statistics = unpruned.use_dictionaries = unpruned.use_bloom_filters = unpruned.use_page_index =
        false;
    const int64_t batch_rows = 1 + static_cast<int64_t>(size % 700);
    const auto with = ReadAll(**file, pruned, batch_rows);
    const auto without = ReadAll(**file, unpruned, batch_rows);
    if (with && without && *with < kMaxRows && *without < kMaxRows) {
      STRATA_FUZZ_CHECK(*with == *without, "pruning changed the rows kept");
    }
  }
}

}  // namespace
}  // namespace strata::parquet

STRATA_FUZZ_TARGET(filtered_reader) {
  strata::parquet::FuzzFilteredFile(data, size);
  return 0;
}
