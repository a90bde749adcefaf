// The C Stream Interface: export a stream of batches, read it through the C struct and back
// through ImportBatchStream, the end of the stream, and errors with get_last_error.
#include <cerrno>
#include <cstring>
#include <vector>

#include <gtest/gtest.h>

#include "strata/arrow_c/arrow_c_test_util.h"
#include "strata/arrow_c/import.h"
#include "strata/arrow_c/stream.h"

namespace strata::arrow_c {
namespace {

class VectorStream final : public RecordBatchStream {
 public:
  VectorStream(SchemaPtr schema, std::vector<std::shared_ptr<RecordBatch>> batches, Status error_at_end = Status::OK())
      : schema_(std::move(schema)), batches_(std::move(batches)), error_(std::move(error_at_end)) {}
  SchemaPtr schema() const override { return schema_; }
  Result<std::shared_ptr<RecordBatch>> Next() override {
    if (next_ < batches_.size()) return batches_[next_++];
    if (!error_.ok()) return error_;
    ++calls_after_end;
    return std::shared_ptr<RecordBatch>();
  }
  int calls_after_end = 0;

 private:
  SchemaPtr schema_;
  std::vector<std::shared_ptr<RecordBatch>> batches_;
  size_t next_ = 0;
  Status error_;
};

std::vector<std::shared_ptr<RecordBatch>> MakeBatches(MemoryPool* pool, const SchemaPtr& s, int n) {
  testing::RandomArrays random(pool, 21);
  std::vector<std::shared_ptr<RecordBatch>> batches;
  for (int b = 0; b < n; ++b) {
    std::vector<Array> columns;
    for (const FieldPtr& f : s->fields()) columns.emplace_back(random.Make(f->type(), 10 + b, f->nullable()));
    batches.push_back(*RecordBatch::Make(s, 10 + b, columns));
  }
  return batches;
}

SchemaPtr TestSchema() {
  return schema({field("id", int64(), false), field("name", utf8()), field("tags", list(utf8_view()))});
}

TEST(ArrowCStreamTest, ThreeBatchesThroughTheCStruct) {
  auto pool = MakeSystemMemoryPool();
  auto s = TestSchema();
  auto batches = MakeBatches(pool.get(), s, 3);
  auto producer = std::make_shared<VectorStream>(s, batches);
  ArrowArrayStream stream;
  ASSERT_TRUE(ExportBatchStream(producer, &stream).ok());

  ArrowSchema c_schema;
  ASSERT_EQ(stream.get_schema(&stream, &c_schema), 0);
  auto imported_schema = ImportSchema(&c_schema);
  ASSERT_TRUE(imported_schema.ok()) << imported_schema.status().ToString();
  EXPECT_TRUE((*imported_schema)->Equals(*s));

  std::vector<ArrowArray> arrays(3);
  for (int i = 0; i < 3; ++i) {
    ASSERT_EQ(stream.get_next(&stream, &arrays[i]), 0);
    ASSERT_NE(arrays[i].release, nullptr);
    EXPECT_EQ(arrays[i].length, 10 + i);
  }
  for (int i = 0; i < 3; ++i) {  // the end, and it stays the end
    ArrowArray end;
    ASSERT_EQ(stream.get_next(&stream, &end), 0);
    EXPECT_EQ(end.release, nullptr);
  }
  EXPECT_EQ(producer->calls_after_end, 1);
  EXPECT_EQ(stream.get_last_error(&stream), nullptr);
  stream.release(&stream);
  EXPECT_EQ(stream.release, nullptr);
  producer.reset();
  batches.clear();
  // Batches outlive the stream and the producer.
  for (int i = 0; i < 3; ++i) {
    auto batch = ImportRecordBatch(&arrays[i], *imported_schema);
    ASSERT_TRUE(batch.ok()) << batch.status().ToString();
    EXPECT_EQ((*batch)->num_rows(), 10 + i);
  }
  EXPECT_EQ(pool->bytes_in_use(), 0);
}

TEST(ArrowCStreamTest, ImportBatchStreamRoundTrip) {
  auto pool = MakeSystemMemoryPool();
  auto s = TestSchema();
  auto batches = MakeBatches(pool.get(), s, 3);
  ArrowArrayStream stream;
  ASSERT_TRUE(ExportBatchStream(std::make_shared<VectorStream>(s, batches), &stream).ok());
  auto reader = ImportBatchStream(&stream);
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  EXPECT_EQ(stream.release, nullptr);  // taken over
  EXPECT_TRUE((*reader)->schema()->Equals(*s));
  for (int i = 0; i < 3; ++i) {
    auto batch = (*reader)->Next();
    ASSERT_TRUE(batch.ok()) << batch.status().ToString();
    ASSERT_NE(*batch, nullptr);
    EXPECT_TRUE((*batch)->Equals(*batches[static_cast<size_t>(i)]));
    EXPECT_EQ((*batch)->column(1).data()->buffers[2]->data(), batches[static_cast<size_t>(i)]->column(1).data()->buffers[2]->data());
  }
  for (int i = 0; i < 2; ++i) {
    auto end = (*reader)->Next();
    ASSERT_TRUE(end.ok());
    EXPECT_EQ(*end, nullptr);
  }
}

TEST(ArrowCStreamTest, ErrorsCarryCodeAndMessage) {
  auto pool = MakeSystemMemoryPool();
  auto s = TestSchema();
  for (auto [status, code] : {std::pair{Status::IOError("disk on fire at offset 4096"), EIO},
                              std::pair{Status::OutOfMemory("pool limit of 1 MiB"), ENOMEM},
                              std::pair{Status::Corrupt("page header is garbage"), EINVAL}}) {
    ArrowArrayStream stream;
    ASSERT_TRUE(ExportBatchStream(std::make_shared<VectorStream>(s, MakeBatches(pool.get(), s, 1), status), &stream).ok());
    ArrowArray first;
    ASSERT_EQ(stream.get_next(&stream, &first), 0);
    first.release(&first);
    ArrowArray failed;
    EXPECT_EQ(stream.get_next(&stream, &failed), code);
    ASSERT_NE(stream.get_last_error(&stream), nullptr);
    EXPECT_NE(std::strstr(stream.get_last_error(&stream), status.message().c_str()), nullptr);
    stream.release(&stream);
  }
  // Through ImportBatchStream the error comes back as a Status with the message.
  ArrowArrayStream stream;
  ASSERT_TRUE(
      ExportBatchStream(std::make_shared<VectorStream>(s, MakeBatches(pool.get(), s, 1), Status::IOError("boom")), &stream)
          .ok());
  auto reader = ImportBatchStream(&stream);
  ASSERT_TRUE(reader.ok());
  ASSERT_TRUE((*reader)->Next().ok());
  auto failed = (*reader)->Next();
  ASSERT_FALSE(failed.ok());
  EXPECT_TRUE(failed.status().IsIOError());
  EXPECT_NE(failed.status().message().find("boom"), std::string::npos) << failed.status().ToString();
}

TEST(ArrowCStreamTest, SchemaErrorOnImport) {
  class NoSchema final : public RecordBatchStream {
   public:
    SchemaPtr schema() const override { return nullptr; }
    Result<std::shared_ptr<RecordBatch>> Next() override { return std::shared_ptr<RecordBatch>(); }
  };
  ArrowArrayStream stream;
  ASSERT_TRUE(ExportBatchStream(std::make_shared<NoSchema>(), &stream).ok());
  auto reader = ImportBatchStream(&stream);
  ASSERT_FALSE(reader.ok());
  EXPECT_TRUE(reader.status().IsInvalid()) << reader.status().ToString();
  EXPECT_NE(reader.status().message().find("no schema"), std::string::npos);
  EXPECT_EQ(stream.release, nullptr);
}

}  // namespace
}  // namespace strata::arrow_c
