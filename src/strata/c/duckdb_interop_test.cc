// The C API against a real Arrow consumer and producer: DuckDB through its own C API
// (libduckdb.so from the npm peers). strata's streams are registered in DuckDB with
// duckdb_arrow_scan and compared with DuckDB's read_parquet of the same files; DuckDB's Arrow
// results are written by strata_parquet_write / strata_csv_write and read back by DuckDB.
#include "strata/c/strata.h"

#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "strata/array/array.h"
#include "strata/array/pretty_print.h"
#include "strata/array/union_builder.h"
#include "strata/array/primitive_builder.h"
#include "strata/array/binary_builder.h"
#include "strata/array/validate.h"
#include "strata/arrow_c/stream.h"
#include "strata/testing/test_data.h"

// The few declarations of DuckDB's stable C API (duckdb.h) this test uses; no header ships
// with libduckdb.so. Handles are pointers to one-pointer structs; duckdb_state is an int enum.
extern "C" {
typedef struct _duckdb_database { void* internal_ptr; }* duckdb_database;
typedef struct _duckdb_connection { void* internal_ptr; }* duckdb_connection;
typedef struct _duckdb_arrow { void* internal_ptr; }* duckdb_arrow;
typedef struct _duckdb_arrow_stream { void* internal_ptr; }* duckdb_arrow_stream;
typedef struct _duckdb_arrow_schema { void* internal_ptr; }* duckdb_arrow_schema;
typedef struct _duckdb_arrow_array { void* internal_ptr; }* duckdb_arrow_array;
typedef enum { DuckDBSuccess = 0, DuckDBError = 1 } duckdb_state;
typedef uint64_t idx_t;

duckdb_state duckdb_open(const char* path, duckdb_database* out_database);
void duckdb_close(duckdb_database* database);
duckdb_state duckdb_connect(duckdb_database database, duckdb_connection* out_connection);
void duckdb_disconnect(duckdb_connection* connection);
const char* duckdb_library_version(void);
// The result is materialized; its schema and chunks (2048 rows each) come out as Arrow C
// structs written to the ArrowSchema / ArrowArray the handle points to. After the last chunk,
// duckdb_query_arrow_array leaves the array untouched.
duckdb_state duckdb_query_arrow(duckdb_connection connection, const char* query, duckdb_arrow* out_result);
duckdb_state duckdb_query_arrow_schema(duckdb_arrow result, duckdb_arrow_schema* out_schema);
duckdb_state duckdb_query_arrow_array(duckdb_arrow result, duckdb_arrow_array* out_array);
idx_t duckdb_arrow_row_count(duckdb_arrow result);
const char* duckdb_query_arrow_error(duckdb_arrow result);
void duckdb_destroy_arrow(duckdb_arrow* result);
// Registers the ArrowArrayStream `arrow` points to as a view; the stream is read when the view
// is, stays the caller's, and must outlive every query of the view.
duckdb_state duckdb_arrow_scan(duckdb_connection connection, const char* table_name, duckdb_arrow_stream arrow);
}

namespace strata {
namespace {

namespace fs = std::filesystem;

// A stream over a DuckDB Arrow result (owned: destroyed on release).
struct DuckDBResultStream {
  duckdb_arrow result = nullptr;

  static DuckDBResultStream* Of(ArrowArrayStream* s) { return static_cast<DuckDBResultStream*>(s->private_data); }
  static int GetSchema(ArrowArrayStream* s, ArrowSchema* out) {
    auto handle = reinterpret_cast<duckdb_arrow_schema>(out);
    return duckdb_query_arrow_schema(Of(s)->result, &handle) == DuckDBSuccess ? 0 : EIO;
  }
  static int GetNext(ArrowArrayStream* s, ArrowArray* out) {
    *out = ArrowArray{};  // stays released after the last chunk
    auto handle = reinterpret_cast<duckdb_arrow_array>(out);
    return duckdb_query_arrow_array(Of(s)->result, &handle) == DuckDBSuccess ? 0 : EIO;
  }
  static const char* GetLastError(ArrowArrayStream* s) { return duckdb_query_arrow_error(Of(s)->result); }
  static void Release(ArrowArrayStream* s) {
    DuckDBResultStream* self = Of(s);
    duckdb_destroy_arrow(&self->result);
    delete self;
    s->release = nullptr;
  }
};

// duckdb_arrow_scan asks the stream for its schema and never releases the root it gets (nor
// does its bind, which clears the root's release instead). So that nothing leaks, DuckDB gets
// this wrapper: it asks strata once, hands out copies whose root release only marks them
// released, and releases strata's schema with the stream.
struct SchemaOnceStream {
  ArrowArrayStream inner{};
  ArrowSchema schema{};

  static SchemaOnceStream* Of(ArrowArrayStream* s) { return static_cast<SchemaOnceStream*>(s->private_data); }
  static void ReleaseCopy(ArrowSchema* copy) { copy->release = nullptr; }
  static int GetSchema(ArrowArrayStream* s, ArrowSchema* out) {
    SchemaOnceStream* self = Of(s);
    if (self->schema.release == nullptr) {
      const int code = self->inner.get_schema(&self->inner, &self->schema);
      if (code != 0) return code;
    }
    *out = self->schema;
    out->release = &ReleaseCopy;
    return 0;
  }
  static int GetNext(ArrowArrayStream* s, ArrowArray* out) { return Of(s)->inner.get_next(&Of(s)->inner, out); }
  static const char* GetLastError(ArrowArrayStream* s) { return Of(s)->inner.get_last_error(&Of(s)->inner); }
  static void Release(ArrowArrayStream* s) {
    SchemaOnceStream* self = Of(s);
    if (self->schema.release != nullptr) self->schema.release(&self->schema);
    if (self->inner.release != nullptr) self->inner.release(&self->inner);
    delete self;
    s->release = nullptr;
  }
  // Takes over *from.
  static ArrowArrayStream Wrap(ArrowArrayStream* from) {
    auto* self = new SchemaOnceStream;
    self->inner = *from;
    from->release = nullptr;
    return ArrowArrayStream{&GetSchema, &GetNext, &GetLastError, &Release, self};
  }
};

struct QueryResult {
  std::vector<std::shared_ptr<RecordBatch>> batches;
  int64_t rows = 0;
  std::string error;  // empty on success
};

class DuckDBInteropTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(duckdb_open(nullptr, &db_), DuckDBSuccess);
    ASSERT_EQ(duckdb_connect(db_, &con_), DuckDBSuccess);
    dir_ = fs::temp_directory_path() / ("strata_duckdb_interop_" + std::to_string(::getpid()) + "_" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override {
    duckdb_disconnect(&con_);
    duckdb_close(&db_);
    fs::remove_all(dir_);
  }

  std::string Path(const std::string& name) const { return (dir_ / name).string(); }

  // The Arrow stream of `sql`'s result (released by the consumer), or an empty stream on error.
  ArrowArrayStream Stream(const std::string& sql) {
    duckdb_arrow result = nullptr;
    if (duckdb_query_arrow(con_, sql.c_str(), &result) != DuckDBSuccess) {
      ADD_FAILURE() << sql << ": " << duckdb_query_arrow_error(result);
      duckdb_destroy_arrow(&result);
      return ArrowArrayStream{};
    }
    auto* wrapper = new DuckDBResultStream{result};
    return ArrowArrayStream{&DuckDBResultStream::GetSchema, &DuckDBResultStream::GetNext,
                            &DuckDBResultStream::GetLastError, &DuckDBResultStream::Release, wrapper};
  }

  // `sql`'s result as strata batches, through strata's importer.
  QueryResult Query(const std::string& sql) {
    QueryResult out;
    ArrowArrayStream stream = Stream(sql);
    if (stream.release == nullptr) {
      out.error = "query failed";
      return out;
    }
    auto imported = arrow_c::ImportBatchStream(&stream);
    if (!imported.ok()) {
      out.error = imported.status().ToString();
      return out;
    }
    while (true) {
      auto batch = (*imported)->Next();
      if (!batch.ok()) {
        out.error = batch.status().ToString();
        break;
      }
      if (*batch == nullptr) break;
      out.rows += (*batch)->num_rows();
      out.batches.push_back(*batch);
    }
    return out;
  }

  // The single BIGINT value `sql` returns.
  int64_t QueryInt(const std::string& sql) {
    QueryResult result = Query(sql);
    EXPECT_EQ(result.error, "") << sql;
    if (result.rows != 1 || result.batches[0]->num_columns() != 1 ||
        result.batches[0]->column(0).type()->id() != TypeId::kInt64) {
      ADD_FAILURE() << sql << " did not return one BIGINT";
      return -1;
    }
    return Int64Array(result.batches[0]->column(0)).Value(0);
  }

  void Exec(const std::string& sql) {
    duckdb_arrow result = nullptr;
    EXPECT_EQ(duckdb_query_arrow(con_, sql.c_str(), &result), DuckDBSuccess) << sql << ": "
                                                                              << duckdb_query_arrow_error(result);
    duckdb_destroy_arrow(&result);
  }

  // Registers `stream` (consumed) with duckdb_arrow_scan and copies it into table `table`.
  // The copy is made with SELECT * because duckdb_arrow_scan's scan expects the stream to
  // apply DuckDB's projection and filters itself (a plain C stream cannot: duckdb#17012), so
  // only a scan of every column in order is correct. The view is dropped before the stream is
  // released.
  void Materialize(ArrowArrayStream* stream, const std::string& table) {
    ArrowArrayStream wrapped = SchemaOnceStream::Wrap(stream);
    const std::string view = table + "_arrow";
    EXPECT_EQ(duckdb_arrow_scan(con_, view.c_str(), reinterpret_cast<duckdb_arrow_stream>(&wrapped)), DuckDBSuccess);
    Exec("CREATE TABLE " + table + " AS SELECT * FROM " + view);
    Exec("DROP VIEW " + view);
    wrapped.release(&wrapped);
  }

  // Rows of `a` not in `b` plus rows of `b` not in `a` (multiset difference both ways).
  int64_t Difference(const std::string& a, const std::string& b) {
    return QueryInt("SELECT count(*) FROM ((" + a + ") EXCEPT ALL (" + b + "))") +
           QueryInt("SELECT count(*) FROM ((" + b + ") EXCEPT ALL (" + a + "))");
  }

  // The same aggregate row from DuckDB's table `table` and its read_parquet of `path`.
  void ExpectSameAggregates(const std::string& select_list, const std::string& table, const std::string& path) {
    QueryResult ours = Query("SELECT " + select_list + " FROM " + table);
    QueryResult theirs = Query("SELECT " + select_list + " FROM read_parquet('" + path + "')");
    ASSERT_EQ(ours.error, "");
    ASSERT_EQ(theirs.error, "");
    ASSERT_EQ(ours.rows, 1);
    ASSERT_EQ(theirs.rows, 1);
    EXPECT_TRUE(ours.batches[0]->Equals(*theirs.batches[0]))
        << "strata via arrow_scan:\n" << ours.batches[0]->ToString() << "\nread_parquet:\n"
        << theirs.batches[0]->ToString();
  }

  duckdb_database db_ = nullptr;
  duckdb_connection con_ = nullptr;
  fs::path dir_;
};

TEST_F(DuckDBInteropTest, ParquetTestingFileMatchesReadParquet) {
  STRATA_REQUIRE_PARQUET_TESTING();
  const std::string path = testing::ParquetTestingFile("data/alltypes_plain.parquet");
  ArrowArrayStream stream;
  ASSERT_EQ(strata_parquet_read(path.c_str(), nullptr, &stream), 0) << strata_last_error();
  Materialize(&stream, "from_strata");
  EXPECT_EQ(QueryInt("SELECT count(*) FROM from_strata"), 8);
  EXPECT_EQ(Difference("SELECT * FROM from_strata", "SELECT * FROM read_parquet('" + path + "')"), 0);
  ExpectSameAggregates(
      "count(*) AS n, sum(id) AS sum_id, min(string_col) AS min_s, max(string_col) AS max_s, sum(bigint_col) AS sum_b, "
      "sum(double_col) AS sum_d, count(bool_col) FILTER (WHERE bool_col) AS trues, "
      "min(timestamp_col)::TIMESTAMP AS min_ts, max(timestamp_col)::TIMESTAMP AS max_ts",
      "from_strata", path);
}

// ~100k rows of ints, strings, doubles and dates with nulls, written by strata (CSV text to
// Parquet through the C API), then read by strata into DuckDB and by DuckDB's read_parquet.
TEST_F(DuckDBInteropTest, StrataWrittenFileMatchesReadParquet) {
  const int rows = 100000;
  {
    std::ofstream csv(Path("big.csv"));
    csv << "x,s,d,day\n";
    for (int i = 0; i < rows; ++i) {
      const int day = 1 + i % 28;
      if (i % 11 != 0) csv << (static_cast<int64_t>(i) * 7919 % 1000003) - 500000;
      csv << ",";
      if (i % 13 != 0) csv << "s" << (i * 31 % 99991);
      csv << "," << (i % 17 == 0 ? std::string() : std::to_string(i) + ".25") << ",";
      if (i % 19 != 0) csv << 2000 + i % 30 << "-0" << 1 + i % 9 << "-" << (day < 10 ? "0" : "") << day;
      csv << "\n";
    }
  }
  ArrowArrayStream stream;
  ASSERT_EQ(strata_csv_read(Path("big.csv").c_str(), "header=yes;infer_whole_file=yes", &stream), 0)
      << strata_last_error();
  const std::string path = Path("big.parquet");
  ASSERT_EQ(strata_parquet_write(&stream, path.c_str(), "codec=zstd;row_group_rows=30000"), 0) << strata_last_error();

  ASSERT_EQ(strata_parquet_read(path.c_str(), "threads=0;batch_rows=10000", &stream), 0) << strata_last_error();
  Materialize(&stream, "from_strata");
  EXPECT_EQ(QueryInt("SELECT count(*) FROM from_strata"), rows);
  EXPECT_EQ(QueryInt("SELECT count(*) FROM from_strata WHERE typeof(day) = 'DATE' AND typeof(d) = 'DOUBLE'"), rows);
  EXPECT_EQ(Difference("SELECT * FROM from_strata", "SELECT * FROM read_parquet('" + path + "')"), 0);
  ExpectSameAggregates(
      "count(*) AS n, count(x) AS nx, sum(x) AS sum_x, min(s) AS min_s, max(s) AS max_s, count(s) AS ns, "
      "sum(d) AS sum_d, min(day) AS min_day, max(day) AS max_day, count(day) AS nday",
      "from_strata", path);
}

// DuckDB's result as an Arrow stream, written by strata, read back by DuckDB.
constexpr const char* kDuckDBQuery =
    "SELECT i, i * 2.5 AS d, i / 7 AS f, CASE WHEN i % 10 = 3 THEN NULL ELSE 'v' || i END AS s, "
    "DATE '2024-01-01' + i::INT AS day FROM range(100000) t(i)";

TEST_F(DuckDBInteropTest, DuckDBResultThroughStrataParquetWriter) {
  ArrowArrayStream stream = Stream(kDuckDBQuery);
  ASSERT_NE(stream.release, nullptr);
  const std::string path = Path("from_duckdb.parquet");
  ASSERT_EQ(strata_parquet_write(&stream, path.c_str(), "codec=snappy;row_group_rows=25000;page_version=2"), 0)
      << strata_last_error();
  EXPECT_EQ(QueryInt("SELECT count(*) FROM read_parquet('" + path + "')"), 100000);
  EXPECT_EQ(Difference(kDuckDBQuery, "SELECT * FROM read_parquet('" + path + "')"), 0);
  // And back through strata's reader.
  ASSERT_EQ(strata_parquet_read(path.c_str(), nullptr, &stream), 0) << strata_last_error();
  Materialize(&stream, "round_trip");
  EXPECT_EQ(Difference(kDuckDBQuery, "SELECT * FROM round_trip"), 0);
}

TEST_F(DuckDBInteropTest, DuckDBResultThroughStrataCsv) {
  ArrowArrayStream stream = Stream(kDuckDBQuery);
  ASSERT_NE(stream.release, nullptr);
  const std::string path = Path("from_duckdb.csv");
  ASSERT_EQ(strata_csv_write(&stream, path.c_str(), nullptr), 0) << strata_last_error();
  // DuckDB's reader of strata's CSV (strata writes a null as nothing, an empty string as "").
  EXPECT_EQ(Difference(kDuckDBQuery, "SELECT * FROM read_csv('" + path + "', allow_quoted_nulls = false)"), 0);
  // strata's reader of it, into DuckDB.
  ASSERT_EQ(strata_csv_read(path.c_str(), "infer_whole_file=yes", &stream), 0) << strata_last_error();
  Materialize(&stream, "from_csv");
  EXPECT_EQ(QueryInt("SELECT count(*) FROM from_csv"), 100000);
  EXPECT_EQ(Difference(kDuckDBQuery, "SELECT * FROM from_csv"), 0);
  // With another delimiter and null spelling.
  stream = Stream(kDuckDBQuery);
  ASSERT_EQ(strata_csv_write(&stream, Path("semi.csv").c_str(), "delimiter=semicolon;null=NULL"), 0)
      << strata_last_error();
  ASSERT_EQ(strata_csv_read(Path("semi.csv").c_str(), "delimiter=semicolon;null=NULL;threads=2", &stream), 0)
      << strata_last_error();
  Materialize(&stream, "from_semi");
  EXPECT_EQ(Difference(kDuckDBQuery, "SELECT * FROM from_semi"), 0);
}

// The comparisons above would catch a difference: one changed row, one missing row.
// A fixed list of batches as a stream.
class BatchListStream : public arrow_c::RecordBatchStream {
 public:
  explicit BatchListStream(std::vector<std::shared_ptr<RecordBatch>> batches) : batches_(std::move(batches)) {}
  SchemaPtr schema() const override { return batches_.front()->schema(); }
  Result<std::shared_ptr<RecordBatch>> Next() override {
    if (next_ == batches_.size()) return std::shared_ptr<RecordBatch>();
    return batches_[next_++];
  }

 private:
  std::vector<std::shared_ptr<RecordBatch>> batches_;
  size_t next_ = 0;
};

// Issue 38: DuckDB as a C Data consumer and producer of unions and run-end encoded arrays.
// DuckDB's UNION comes out as a sparse union that strata imports and validates; strata's sparse
// union and run-end encoded columns go into DuckDB, which reads the same values.
TEST_F(DuckDBInteropTest, UnionsAndRunEndEncodedBothWays) {
  QueryResult from_duckdb = Query(
      "SELECT u FROM (VALUES (union_value(i := 5)::UNION(i INTEGER, s VARCHAR)), "
      "(union_value(s := 'x')::UNION(i INTEGER, s VARCHAR))) t(u)");
  ASSERT_EQ(from_duckdb.error, "");
  ASSERT_EQ(from_duckdb.rows, 2);
  const Array& u = from_duckdb.batches[0]->column(0);
  EXPECT_TRUE(is_union(u.type_id())) << u.type()->ToString();
  EXPECT_TRUE(ValidateFull(*u.data()).ok()) << ValidateFull(*u.data()).ToString();
  const std::string text = PrettyPrint(u);
  EXPECT_NE(text.find(": 5"), std::string::npos) << text;
  EXPECT_NE(text.find(": \"x\""), std::string::npos) << text;

  auto pool = MakeSystemMemoryPool();
  const TypePtr union_type = sparse_union({field("i", int32()), field("s", utf8())}, {0, 1});
  auto builder = *UnionBuilder::Make(union_type, pool.get());
  auto* ints = static_cast<Int32Builder*>(builder->member_builder(0));
  auto* strings = static_cast<StringBuilder*>(builder->member_builder(1));
  ASSERT_TRUE(builder->Append(0).ok() && ints->Append(7).ok());
  ASSERT_TRUE(builder->Append(1).ok() && strings->Append("seven").ok());
  ASSERT_TRUE(builder->Append(0).ok() && ints->Append(-1).ok());
  auto unions = *builder->Finish();
  // Runs: 10 twice, then 20 (int32 run ends 2, 3).
  Int32Builder ends(int32(), pool.get());
  ASSERT_TRUE(ends.Append(2).ok() && ends.Append(3).ok());
  Int64Builder values(int64(), pool.get());
  ASSERT_TRUE(values.Append(10).ok() && values.Append(20).ok());
  auto ree = ArrayData::Make(run_end_encoded(int32(), int64()), 3, {nullptr}, 0);
  ree->children = {*ends.Finish(), *values.Finish()};
  ASSERT_TRUE(ValidateFull(*ree).ok()) << ValidateFull(*ree).ToString();
  auto s = schema({field("u", union_type), field("r", ree->type)});
  auto batch = std::make_shared<RecordBatch>(s, 3, std::vector<Array>{Array(unions), Array(ree)});
  ArrowArrayStream stream{};
  ASSERT_TRUE(arrow_c::ExportBatchStream(std::make_shared<BatchListStream>(std::vector{batch}), &stream).ok());
  Materialize(&stream, "from_strata");
  EXPECT_EQ(QueryInt("SELECT count(*) FROM from_strata"), 3);
  EXPECT_EQ(QueryInt("SELECT sum(r)::BIGINT FROM from_strata"), 40);
  EXPECT_EQ(QueryInt("SELECT sum(union_extract(u, 'i'))::BIGINT FROM from_strata"), 6);
  EXPECT_EQ(QueryInt("SELECT count(*) FROM from_strata WHERE union_extract(u, 's') = 'seven'"), 1);
}

TEST_F(DuckDBInteropTest, ComparisonsSeeDifferences) {
  EXPECT_FALSE(std::string(duckdb_library_version()).empty());
  EXPECT_EQ(Difference("SELECT * FROM range(10)", "SELECT * FROM range(10)"), 0);
  EXPECT_EQ(Difference("SELECT * FROM range(10)", "SELECT * FROM range(9)"), 1);
  EXPECT_EQ(Difference("SELECT * FROM range(10)", "SELECT range + (range = 3)::INT FROM range(10)"), 2);
  EXPECT_EQ(Difference("SELECT 1 UNION ALL SELECT 1", "SELECT 1"), 1);  // multisets, not sets
}

}  // namespace
}  // namespace strata
