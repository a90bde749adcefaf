#include "strata/parquet/schema.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "strata/io/random_access_source.h"
#include "strata/parquet/thrift/footer.h"
#include "strata/testing/test_data.h"

namespace strata::parquet {
namespace {

struct OpenedSchema {
  FileFooter footer;
  std::shared_ptr<SchemaDescriptor> descriptor;
};

OpenedSchema Open(const std::string& relative) {
  auto source = OpenLocalFile(strata::testing::ParquetTestingFile(relative));
  EXPECT_TRUE(source.ok()) << source.status().ToString();
  auto footer = ReadFooter(**source, SystemMemoryPool());
  EXPECT_TRUE(footer.ok()) << footer.status().ToString();
  OpenedSchema out{std::move(*footer), nullptr};
  auto descriptor = SchemaDescriptor::Make(out.footer.metadata.schema);
  EXPECT_TRUE(descriptor.ok()) << descriptor.status().ToString();
  out.descriptor = *descriptor;
  return out;
}

SchemaElement Leaf(std::string name, PhysicalType type, FieldRepetitionType repetition) {
  SchemaElement e;
  e.name = std::move(name);
  e.type = type;
  e.repetition_type = repetition;
  return e;
}

SchemaElement Group(std::string name, int children, FieldRepetitionType repetition) {
  SchemaElement e;
  e.name = std::move(name);
  e.num_children = children;
  e.repetition_type = repetition;
  return e;
}

TEST(SchemaDescriptorTest, AllTypesPlain) {
  STRATA_REQUIRE_PARQUET_TESTING();
  auto opened = Open("data/alltypes_plain.parquet");
  const auto& d = *opened.descriptor;
  ASSERT_EQ(d.num_columns(), 11);
  EXPECT_EQ(d.column(0).dotted_path, "id");
  EXPECT_EQ(d.column(0).type->ToString(), "int32");
  EXPECT_EQ(d.column(1).type->ToString(), "bool");
  EXPECT_EQ(d.column(10).dotted_path, "timestamp_col");
  EXPECT_EQ(d.column(10).type->ToString(), "timestamp[ns]");  // INT96
  EXPECT_EQ(d.column(9).type->ToString(), "binary");           // string_col has no annotation
  EXPECT_EQ(d.column(0).max_definition_level, 1);
  EXPECT_EQ(d.schema()->num_fields(), 11);
}

TEST(SchemaDescriptorTest, DecimalsOnEveryPhysicalType) {
  STRATA_REQUIRE_PARQUET_TESTING();
  EXPECT_EQ(Open("data/int32_decimal.parquet").descriptor->column(0).type->ToString(), "decimal128(4, 2)");
  EXPECT_EQ(Open("data/int64_decimal.parquet").descriptor->column(0).type->ToString(), "decimal128(10, 2)");
  EXPECT_EQ(Open("data/fixed_length_decimal.parquet").descriptor->column(0).type->ToString(), "decimal128(25, 2)");
  EXPECT_EQ(Open("data/byte_array_decimal.parquet").descriptor->column(0).type->ToString(), "decimal128(4, 2)");
}

TEST(SchemaDescriptorTest, Float16) {
  STRATA_REQUIRE_PARQUET_TESTING();
  EXPECT_EQ(Open("data/float16_nonzeros_and_nans.parquet").descriptor->column(0).type->ToString(), "halffloat");
}

TEST(SchemaDescriptorTest, NestedLevelsAndLists) {
  STRATA_REQUIRE_PARQUET_TESTING();
  auto opened = Open("data/list_columns.parquet");
  const auto& d = *opened.descriptor;
  ASSERT_EQ(d.num_columns(), 2);
  EXPECT_EQ(d.column(0).max_repetition_level, 1);
  EXPECT_EQ(d.column(0).max_definition_level, 3);
  EXPECT_EQ(d.schema()->field(0)->type()->id(), TypeId::kList);
}

TEST(SchemaDescriptorTest, LegacyTwoLevelListAndUnannotatedRepeated) {
  // optional group a (LIST) { repeated int32 array; }   and   repeated int64 b;
  std::vector<SchemaElement> elements;
  elements.push_back(Group("schema", 2, FieldRepetitionType::kRequired));
  elements.push_back(Group("a", 1, FieldRepetitionType::kOptional));
  elements.back().converted_type = ConvertedType::kList;
  elements.push_back(Leaf("array", PhysicalType::kInt32, FieldRepetitionType::kRepeated));
  elements.push_back(Leaf("b", PhysicalType::kInt64, FieldRepetitionType::kRepeated));
  auto d = *SchemaDescriptor::Make(elements);
  EXPECT_EQ(d->schema()->field(0)->type()->ToString(), "list<array: int32 not null>");
  EXPECT_TRUE(d->schema()->field(0)->nullable());
  EXPECT_EQ(d->schema()->field(1)->type()->ToString(), "list<b: int64 not null>");
  EXPECT_FALSE(d->schema()->field(1)->nullable());
  EXPECT_EQ(d->column(0).max_definition_level, 2);
  EXPECT_EQ(d->column(1).max_repetition_level, 1);
  EXPECT_EQ(d->field_first_column(1), 1);
}

TEST(SchemaDescriptorTest, MalformedTreesAreCorrupt) {
  std::vector<SchemaElement> elements;
  elements.push_back(Group("schema", 3, FieldRepetitionType::kRequired));
  elements.push_back(Leaf("a", PhysicalType::kInt32, FieldRepetitionType::kOptional));
  auto result = SchemaDescriptor::Make(elements);
  ASSERT_FALSE(result.ok());
  EXPECT_TRUE(result.status().IsCorrupt()) << result.status().ToString();

  elements = {Group("schema", 1, FieldRepetitionType::kRequired), Group("g", -5, FieldRepetitionType::kOptional)};
  EXPECT_TRUE(SchemaDescriptor::Make(elements).status().IsCorrupt());

  // A chain deeper than any real schema is refused, not recursed into.
  elements.clear();
  elements.push_back(Group("schema", 1, FieldRepetitionType::kRequired));
  for (int i = 0; i < 500; ++i) elements.push_back(Group("g", 1, FieldRepetitionType::kOptional));
  elements.push_back(Leaf("x", PhysicalType::kInt32, FieldRepetitionType::kOptional));
  EXPECT_FALSE(SchemaDescriptor::Make(elements).ok());

  elements = {Group("schema", 1, FieldRepetitionType::kRequired),
              Leaf("f", PhysicalType::kFixedLenByteArray, FieldRepetitionType::kOptional)};
  EXPECT_TRUE(SchemaDescriptor::Make(elements).status().IsCorrupt());
}

// Some old writers give the root a physical type as well as children: it is still the root
// group. A typed root without children has no columns and stays an error.
TEST(SchemaDescriptorTest, ARootWithAPhysicalTypeAndChildrenIsTheRootGroup) {
  SchemaElement root = Group("schema", 2, FieldRepetitionType::kRequired);
  root.type = PhysicalType::kInt32;
  std::vector<SchemaElement> elements = {root, Leaf("a", PhysicalType::kInt64, FieldRepetitionType::kOptional),
                                         Leaf("b", PhysicalType::kDouble, FieldRepetitionType::kRequired)};
  auto descriptor = SchemaDescriptor::Make(elements);
  ASSERT_TRUE(descriptor.ok()) << descriptor.status().ToString();
  ASSERT_EQ((*descriptor)->num_columns(), 2);
  EXPECT_EQ((*descriptor)->schema()->field(0)->ToString(), "a: int64");
  EXPECT_EQ((*descriptor)->schema()->field(1)->ToString(), "b: double not null");

  SchemaElement lone = Leaf("schema", PhysicalType::kInt32, FieldRepetitionType::kRequired);
  auto refused = SchemaDescriptor::Make({lone});
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("has a physical type and no children"), std::string::npos)
      << refused.status().ToString();
}

TEST(SchemaDescriptorTest, EveryTestingFileMapsOrFailsClearly) {
  STRATA_REQUIRE_PARQUET_TESTING();
  int mapped = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(strata::testing::ParquetTestingDir())) {
    if (entry.path().extension() != ".parquet") continue;
    auto source = OpenLocalFile(entry.path().string());
    ASSERT_TRUE(source.ok());
    auto footer = ReadFooter(**source, SystemMemoryPool());
    if (!footer.ok()) continue;  // footer errors are covered by the footer tests
    auto descriptor = SchemaDescriptor::Make(footer->metadata.schema);
    if (descriptor.ok()) {
      ++mapped;
      EXPECT_FALSE((*descriptor)->ToTreeString().empty());
    } else {
      EXPECT_FALSE(descriptor.status().message().empty()) << entry.path();
    }
  }
  EXPECT_GT(mapped, 100);
}

}  // namespace
}  // namespace strata::parquet
