// ARROW:schema restoration in the reader's own batches (FileReaderOptions::restore_arrow_schema,
// on by default): a file pyarrow wrote (time zones, a string dictionary, two row groups) and one
// strata's writer wrote (a duration, a number dictionary), read through BatchReader's batch path
// (Next, ForEachBatch), its field-wise path (OpenNextRowGroup, ReadFields) and the filtered
// reader; with the option off the Parquet types stand and the values are the same.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "strata/array/binary_builder.h"
#include "strata/array/primitive_builder.h"
#include "strata/exec/process_pool.h"
#include "strata/expr/bind.h"
#include "strata/expr/parser.h"
#include "strata/parquet/filter/filtered_reader.h"
#include "strata/parquet/read/file_reader.h"
#include "strata/parquet/write/writer_test_util.h"
#include "strata/testing/test_data.h"

namespace strata::parquet {
namespace {

using Columns = std::vector<std::vector<std::string>>;  // per column, its values as text

// pyarrow's file of every Arrow type (apache/arrow#41317), two row groups of 3 and 2 rows. Some
// of its other columns are cut short on purpose; these read whole.
constexpr char kPyarrowFile[] = "bad_data/ARROW-GH-41317.parquet";
const std::vector<std::string> kPyarrowColumns = {"timestamp_ms_gmt", "timestamp_ms_gmt_plus_2",
                                                  "timestamp_ms_gmt_minus_0215", "dict", "int64"};
// Every row of the three timestamp columns is 2019-01-01 14:00:00.5 on the wall clock of the
// column's zone (pandas' view): the instants 14:00:00.5Z, 12:00:00.5Z and 16:15:00.5Z, in ms.
const std::string kUtc = "1546351200500";
const std::string kPlus2 = "1546344000500";
const std::string kMinus0215 = "1546359300500";

// Value `i` as text: integers, timestamps and durations as their counts, strings as
// themselves, a dictionary as the value its index points to.
std::string ValueText(const Array& column, int64_t i) {
  if (column.IsNull(i)) return "null";
  switch (column.type()->id()) {
    case TypeId::kInt64:
    case TypeId::kTimestamp:
    case TypeId::kDuration: return std::to_string(Int64Array(column.data()).Value(i));
    case TypeId::kString: return StringArray(column.data()).GetString(i);
    case TypeId::kDictionary: {
      const int32_t index = Int32Array(column.data()).Value(i);
      return ValueText(Array(column.data()->dictionary), index);
    }
    default: {
      std::string text = "unexpected type ";
      text += column.type()->ToString();
      return text;
    }
  }
}

void Append(const RecordBatch& batch, Columns* out) {
  out->resize(static_cast<size_t>(batch.num_columns()));
  for (int c = 0; c < batch.num_columns(); ++c) {
    std::vector<std::string>& values = (*out)[static_cast<size_t>(c)];
    for (int64_t i = 0; i < batch.num_rows(); ++i) values.push_back(ValueText(batch.column(c), i));
  }
}

std::vector<std::string> TypeNames(const Schema& schema) {
  std::vector<std::string> out;
  for (const FieldPtr& field : schema.fields()) out.push_back(field->type()->ToString());
  return out;
}

// Every column of `batch` carries the type `schema` (the reader's, reported before reading) says.
void ExpectTypesOf(const RecordBatch& batch, const Schema& schema) {
  ASSERT_EQ(batch.num_columns(), schema.num_fields());
  for (int c = 0; c < batch.num_columns(); ++c) {
    EXPECT_TRUE(batch.column(c).type()->Equals(*schema.field(c)->type()))
        << schema.field(c)->name() << ": " << batch.column(c).type()->ToString() << " in a batch, "
        << schema.field(c)->type()->ToString() << " in the schema";
    EXPECT_TRUE(batch.schema()->field(c)->type()->Equals(*schema.field(c)->type()));
  }
}

std::vector<int> FieldIndices(const FileReader& file, const std::vector<std::string>& names) {
  std::vector<int> out;
  for (const std::string& name : names) {
    out.push_back(file.descriptor().FieldIndex(name));
    EXPECT_GE(out.back(), 0) << name;
  }
  return out;
}

// Every batch of `reader` (a batch reader or a filtered one): the values, every batch's
// types checked against the reader's schema().
template <typename Reader>
Columns Drain(Reader& reader) {
  Columns out;
  while (true) {
    auto batch = reader.Next();
    EXPECT_TRUE(batch.ok()) << batch.status().ToString();
    if (!batch.ok() || *batch == nullptr) break;
    ExpectTypesOf(**batch, *reader.schema());
    Append(**batch, &out);
  }
  return out;
}

// Through Next().
Columns ReadByBatches(FileReader* file, BatchReadOptions options) {
  auto reader = file->ReadBatches(options);
  EXPECT_TRUE(reader.ok()) << reader.status().ToString();
  if (!reader.ok()) return {};
  return Drain(**reader);
}

// Through ForEachBatch on two threads (row groups decoded at once), put back in file order.
Columns ReadByForEachBatch(FileReader* file, BatchReadOptions options) {
  options.executor = exec::ProcessExecutor(2);
  auto reader = file->ReadBatches(options);
  EXPECT_TRUE(reader.ok()) << reader.status().ToString();
  if (!reader.ok()) return {};
  std::mutex mutex;
  std::map<size_t, std::vector<std::shared_ptr<RecordBatch>>> by_position;
  const Status status = (*reader)->ForEachBatch([&](size_t position, std::shared_ptr<RecordBatch> batch) {
    std::lock_guard<std::mutex> lock(mutex);
    by_position[position].push_back(std::move(batch));
    return Status::OK();
  });
  EXPECT_TRUE(status.ok()) << status.ToString();
  Columns out;
  for (const auto& [position, batches] : by_position) {
    for (const auto& batch : batches) {
      ExpectTypesOf(*batch, *(*reader)->schema());
      Append(*batch, &out);
    }
  }
  return out;
}

// Through the field-wise API the filtered reader drives: each row group's fields read in two
// steps, the first column alone, then the others.
Columns ReadFieldWise(FileReader* file, BatchReadOptions options) {
  auto opened = file->ReadBatches(options);
  EXPECT_TRUE(opened.ok()) << opened.status().ToString();
  if (!opened.ok()) return {};
  BatchReader& reader = **opened;
  const size_t fields = static_cast<size_t>(reader.schema()->num_fields());
  std::vector<size_t> rest;
  for (size_t i = 1; i < fields; ++i) rest.push_back(i);
  Columns out;
  while (true) {
    auto more = reader.OpenNextRowGroup();
    EXPECT_TRUE(more.ok()) << more.status().ToString();
    if (!more.ok() || !*more) break;
    while (reader.rows_left() > 0) {
      const int64_t rows = std::min<int64_t>(2, reader.rows_left());
      std::vector<Array> columns(fields);
      EXPECT_TRUE(reader.ReadFields({0}, rows, &columns).ok());
      EXPECT_TRUE(reader.ReadFields(rest, rows, &columns).ok());
      reader.FinishRows(rows);
      const RecordBatch batch(reader.schema(), rows, std::move(columns));
      ExpectTypesOf(batch, *reader.schema());
      Append(batch, &out);
    }
  }
  return out;
}

class PyarrowFileTest : public ::testing::Test {
 protected:
  void SetUp() override { STRATA_REQUIRE_PARQUET_TESTING(); }

  std::unique_ptr<FileReader> Open(bool restore) {
    FileReaderOptions options;
    options.restore_arrow_schema = restore;
    auto file = FileReader::OpenFile(strata::testing::ParquetTestingFile(kPyarrowFile), pool_, options);
    EXPECT_TRUE(file.ok()) << file.status().ToString();
    return file.ok() ? std::move(*file) : nullptr;
  }

  BatchReadOptions Options(const FileReader& file) {
    BatchReadOptions options;
    options.columns = FieldIndices(file, kPyarrowColumns);
    options.batch_rows = 2;  // batches 2 + 1 and 2: a batch ends inside a row group too
    return options;
  }

  MemoryPool* pool_ = SystemMemoryPool();
};

const Columns kPyarrowValues = {{kUtc, kUtc, kUtc, kUtc, kUtc},
                                {kPlus2, kPlus2, kPlus2, kPlus2, kPlus2},
                                {kMinus0215, kMinus0215, kMinus0215, kMinus0215, kMinus0215},
                                {"foo", "bar", "baz", "null", "baz"},
                                {"-200000000000", "-100000000000", "null", "100000000000", "200000000000"}};

TEST_F(PyarrowFileTest, BatchesCarryTheZonesAndTheDictionaryOnBothPaths) {
  std::unique_ptr<FileReader> file = Open(true);
  ASSERT_NE(file, nullptr);
  const std::vector<std::string> restored = {"timestamp[ms, tz=UTC]", "timestamp[ms, tz=+02:00]",
                                             "timestamp[ms, tz=-02:15]", "dictionary<values=string, indices=int32>",
                                             "int64"};
  auto reader = file->ReadBatches(Options(*file));
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  EXPECT_EQ(TypeNames(*(*reader)->schema()), restored);  // before reading: what the C stream exports
  const int plus_2 = file->descriptor().FieldIndex("timestamp_ms_gmt_plus_2");
  EXPECT_EQ(file->restored_schema()->field(plus_2)->type()->ToString(), "timestamp[ms, tz=+02:00]");
  // The Parquet mapping, which filters bind to, stays.
  EXPECT_EQ(file->schema()->field(plus_2)->type()->ToString(), "timestamp[ms, tz=UTC]");
  EXPECT_EQ(ReadByBatches(file.get(), Options(*file)), kPyarrowValues);
  EXPECT_EQ(ReadByForEachBatch(file.get(), Options(*file)), kPyarrowValues);
  EXPECT_EQ(ReadFieldWise(file.get(), Options(*file)), kPyarrowValues);
}

TEST_F(PyarrowFileTest, OffTheParquetTypesStandWithTheSameValues) {
  std::unique_ptr<FileReader> file = Open(false);
  ASSERT_NE(file, nullptr);
  auto reader = file->ReadBatches(Options(*file));
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  EXPECT_EQ(TypeNames(*(*reader)->schema()),
            (std::vector<std::string>{"timestamp[ms, tz=UTC]", "timestamp[ms, tz=UTC]", "timestamp[ms, tz=UTC]",
                                      "string", "int64"}));
  EXPECT_TRUE(file->restored_schema()->Equals(*file->schema()));
  EXPECT_EQ(ReadByBatches(file.get(), Options(*file)), kPyarrowValues);
  EXPECT_EQ(ReadFieldWise(file.get(), Options(*file)), kPyarrowValues);
}

// Filtered reads (late materialisation over the field-wise path) keep the restored types, and
// a predicate on the dictionary column still evaluates.
TEST_F(PyarrowFileTest, FilteredReaderRestores) {
  for (const bool restore : {true, false}) {
    std::unique_ptr<FileReader> file = Open(restore);
    ASSERT_NE(file, nullptr);
    FilterOptions filter;
    auto parsed = expr::ParseFilter("dict = 'baz' AND int64 > 0");
    ASSERT_TRUE(parsed.ok());
    auto bound = expr::Bind(**parsed, *file->schema());
    ASSERT_TRUE(bound.ok()) << bound.status().ToString();
    filter.predicate = *bound;
    BatchReadOptions options = Options(*file);
    options.columns = FieldIndices(*file, {"timestamp_ms_gmt_minus_0215", "dict"});
    auto reader = FilteredBatchReader::Make(file.get(), options, filter);
    ASSERT_TRUE(reader.ok()) << reader.status().ToString();
    const std::vector<std::string> types =
        restore ? std::vector<std::string>{"timestamp[ms, tz=-02:15]", "dictionary<values=string, indices=int32>"}
                : std::vector<std::string>{"timestamp[ms, tz=UTC]", "string"};
    EXPECT_EQ(TypeNames(*(*reader)->schema()), types);
    EXPECT_EQ(Drain(**reader), (Columns{{kMinus0215}, {"baz"}})) << "restore " << restore;
  }
}

// A file strata's writer made with its ARROW:schema: a duration (stored as a plain INT64) and a
// number dictionary, which batches leave as values (a dictionary per batch would not fit an
// Arrow IPC file; whole-column reads encode them, RestoreColumn).
class WrittenFileTest : public ::testing::Test {
 protected:
  std::unique_ptr<FileReader> Write(bool restore) {
    const TypePtr elapsed = duration(strata::TimeUnit::kMilli);
    const TypePtr numbers = dictionary(int32(), int64());
    auto schema = std::make_shared<Schema>(std::vector<FieldPtr>{field("took", elapsed), field("code", numbers)});
    Int64Builder took(elapsed, pool_);
    Int32Builder indices(int32(), pool_);
    Int64Builder codes(int64(), pool_);
    for (int64_t v : {10, 20, 30}) EXPECT_TRUE(took.Append(v).ok());
    for (int32_t v : {0, 1, 0}) EXPECT_TRUE(indices.Append(v).ok());
    for (int64_t v : {70, 7}) EXPECT_TRUE(codes.Append(v).ok());
    ArrayDataPtr code = *indices.Finish();
    code->type = numbers;
    code->dictionary = *codes.Finish();
    auto batch = std::make_shared<RecordBatch>(schema, 3, std::vector<Array>{Array(*took.Finish()), Array(code)});
    auto bytes = testing::WriteToBuffer(schema, {batch}, WriterOptions(), pool_);
    EXPECT_TRUE(bytes.ok()) << bytes.status().ToString();
    FileReaderOptions options;
    options.restore_arrow_schema = restore;
    auto file = FileReader::Open(MakeBufferSource(*bytes, "written.parquet"), pool_, options);
    EXPECT_TRUE(file.ok()) << file.status().ToString();
    return file.ok() ? std::move(*file) : nullptr;
  }

  MemoryPool* pool_ = SystemMemoryPool();
};

TEST_F(WrittenFileTest, DurationsRelabelledNumberDictionariesLeftAsValues) {
  const Columns values = {{"10", "20", "30"}, {"70", "7", "70"}};
  for (const bool restore : {true, false}) {
    std::unique_ptr<FileReader> file = Write(restore);
    ASSERT_NE(file, nullptr);
    BatchReadOptions options;
    options.batch_rows = 2;
    auto reader = file->ReadBatches(options);
    ASSERT_TRUE(reader.ok());
    EXPECT_EQ(TypeNames(*(*reader)->schema()),
              (std::vector<std::string>{restore ? "duration[ms]" : "int64", "int64"}));
    EXPECT_TRUE(file->arrow_schema_restore()[1].encode == restore);  // left to whole-column reads
    EXPECT_EQ(ReadByBatches(file.get(), options), values);
    EXPECT_EQ(ReadFieldWise(file.get(), options), values);
  }
}

// The predicate binds to the Parquet type (int64); the restored duration column still
// evaluates against it, and comes out as a duration.
TEST_F(WrittenFileTest, FilterOnARestoredDuration) {
  std::unique_ptr<FileReader> file = Write(true);
  ASSERT_NE(file, nullptr);
  auto parsed = expr::ParseFilter("took > 15");
  ASSERT_TRUE(parsed.ok());
  auto bound = expr::Bind(**parsed, *file->schema());
  ASSERT_TRUE(bound.ok()) << bound.status().ToString();
  FilterOptions filter;
  filter.predicate = *bound;
  auto reader = FilteredBatchReader::Make(file.get(), BatchReadOptions(), filter);
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  EXPECT_EQ(TypeNames(*(*reader)->schema()), (std::vector<std::string>{"duration[ms]", "int64"}));
  EXPECT_EQ(Drain(**reader), (Columns{{"20", "30"}, {"7", "70"}}));
}

}  // namespace
}  // namespace strata::parquet
