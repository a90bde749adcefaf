// VARIANT written back: parquet-testing's shredded_variant files read (as Arrow's
// arrow.parquet.variant extension), written with FileWriter, read again: the written group is
// annotated VARIANT(1), unshredded (required metadata, value), and every row's bytes are equal.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "strata/parquet/read/file_reader.h"
#include "strata/parquet/write/writer_test_util.h"
#include "strata/testing/test_data.h"
#include "strata/variant/variant_extension.h"

namespace strata::parquet {
namespace {

Result<std::vector<std::shared_ptr<RecordBatch>>> ReadAll(FileReader& reader) {
  std::vector<std::shared_ptr<RecordBatch>> batches;
  STRATA_ASSIGN_OR_RETURN(auto batch_reader, reader.ReadBatches());
  while (true) {
    STRATA_ASSIGN_OR_RETURN(auto batch, batch_reader->Next());
    if (!batch) break;
    batches.push_back(std::move(batch));
  }
  return batches;
}

TEST(VariantWriteTest, ShreddedCorpusWritesBackAsUnshreddedVariant) {
  STRATA_REQUIRE_PARQUET_TESTING();
  const std::string dir = strata::testing::ParquetTestingFile("shredded_variant");
  const std::vector<std::string> files = strata::testing::ParquetFilesIn(dir);
  int written = 0;
  for (const std::string& path : files) {
    SCOPED_TRACE(path);
    auto reader = FileReader::OpenFile(path, SystemMemoryPool());
    if (!reader.ok()) continue;
    auto batches = ReadAll(**reader);
    if (!batches.ok()) continue;  // the corpus's invalid cases (variant_reader_test checks their errors)
    const std::shared_ptr<Schema>& schema = (*reader)->schema();
    const int var = schema->GetFieldIndex("var");
    ASSERT_GE(var, 0);
    ASSERT_TRUE(variant::IsVariantField(*schema->field(var)));
    auto file = testing::WriteToBuffer(schema, *batches, WriterOptions{}, SystemMemoryPool());
    ASSERT_TRUE(file.ok()) << file.status().ToString();
    auto back = testing::OpenBuffer(*file, SystemMemoryPool());
    ASSERT_TRUE(back.ok()) << back.status().ToString();

    // The footer: optional group var (VARIANT(1)) { required binary metadata; optional binary value }.
    const SchemaDescriptor& descriptor = (*back)->descriptor();
    const SchemaNode& group = descriptor.node(descriptor.root().children[static_cast<size_t>(var)]);
    const SchemaElement& e = *group.element;
    ASSERT_TRUE(e.logical_type.has_value());
    EXPECT_EQ(e.logical_type->kind, LogicalType::Kind::kVariant);
    EXPECT_EQ(e.logical_type->specification_version, 1);
    ASSERT_EQ(group.children.size(), 2u);
    const SchemaElement& metadata = *descriptor.node(group.children[0]).element;
    const SchemaElement& value = *descriptor.node(group.children[1]).element;
    EXPECT_EQ(metadata.name, "metadata");
    EXPECT_EQ(metadata.repetition_type, FieldRepetitionType::kRequired);
    EXPECT_EQ(metadata.type, PhysicalType::kByteArray);
    EXPECT_EQ(value.name, "value");
    EXPECT_EQ(value.type, PhysicalType::kByteArray);

    // The rows: the same variants, byte for byte (the reader gives the unshredded bytes of both).
    EXPECT_TRUE(variant::IsVariantField(*(*back)->schema()->field(var)));
    auto original = (*reader)->ReadTable();
    auto round_trip = (*back)->ReadTable();
    ASSERT_TRUE(original.ok() && round_trip.ok());
    EXPECT_TRUE((*round_trip)->column(var)->Equals(*(*original)->column(var)));
    ++written;
  }
  EXPECT_GT(written, 100);
}

// A struct marked as a variant that is not struct<metadata, value> has no VARIANT form.
TEST(VariantWriteTest, OtherStructsMarkedAsVariantAreRefused) {
  auto type = struct_({field("metadata", binary(), false), field("other", int32())});
  auto schema = std::make_shared<Schema>(
      std::vector<FieldPtr>{field("v", type, true, variant::WithVariantExtension({}))});
  auto written = testing::WriteToBuffer(schema, {}, WriterOptions{}, SystemMemoryPool());
  ASSERT_FALSE(written.ok());
  EXPECT_TRUE(written.status().IsInvalid()) << written.status().ToString();
}

}  // namespace
}  // namespace strata::parquet
