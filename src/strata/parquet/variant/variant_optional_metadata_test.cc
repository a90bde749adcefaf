// VARIANT groups whose metadata is `optional binary` (the spec says required; Arrow C++ 21-23
// and DuckDB 1.4 write it optional): they read, a present group with null metadata and no value
// reads as a null variant, and one with a value or typed_value beside null metadata fails naming
// the file, the column and the row. DuckDB 1.5.6 (the one installed) writes required metadata,
// so the files are made here: strata's writer writes the group as a plain struct, and its footer
// is then given the VARIANT annotation.
#include <gtest/gtest.h>

#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "strata/array/binary_builder.h"
#include "strata/array/primitive_builder.h"
#include "strata/array/record_batch.h"
#include "strata/array/validate.h"
#include "strata/parquet/read/file_reader.h"
#include "strata/parquet/testing/file_builder.h"
#include "strata/parquet/write/writer_test_util.h"
#include "strata/variant/variant_encoder.h"
#include "strata/variant/variant_extension.h"
#include "strata/variant/variant_json.h"

namespace strata::parquet {
namespace {

using variant::PrimitiveType;
using variant::VariantBuilder;

// One row of `var`: the group null (nullopt), or its metadata, value and typed_value (each may
// be null).
struct Group {
  std::optional<std::string> metadata;
  std::optional<std::string> value;
  std::optional<int64_t> typed = std::nullopt;
};

ArrayDataPtr Binaries(const std::vector<std::optional<Group>>& rows, std::optional<std::string> Group::*member) {
  StringBuilder builder(binary(), SystemMemoryPool());
  for (const auto& row : rows) {
    const std::optional<std::string>* v = row ? &((*row).*member) : nullptr;
    EXPECT_TRUE((v && *v ? builder.Append(**v) : builder.AppendNull()).ok());
  }
  return *builder.Finish();
}

// `var` written as optional group var { optional binary metadata; optional binary value;
// [optional int64 typed_value] } and then annotated VARIANT(1) in the footer (the writer keeps
// the spec: it writes a variant's metadata required). The ARROW:schema is left out so the
// footer alone says what the group is.
Result<std::shared_ptr<Buffer>> WriteOptionalMetadataFile(const std::vector<std::optional<Group>>& rows, bool shredded) {
  const auto n = static_cast<int64_t>(rows.size());
  std::vector<FieldPtr> fields = {field("metadata", binary()), field("value", binary())};
  std::vector<ArrayDataPtr> children = {Binaries(rows, &Group::metadata), Binaries(rows, &Group::value)};
  if (shredded) {
    Int64Builder typed(int64(), SystemMemoryPool());
    for (const auto& row : rows) STRATA_RETURN_NOT_OK(row && row->typed ? typed.Append(*row->typed) : typed.AppendNull());
    STRATA_ASSIGN_OR_RETURN(auto typed_data, typed.Finish());
    fields.push_back(field("typed_value", int64()));
    children.push_back(std::move(typed_data));
  }
  Int64Builder validity_source(int64(), SystemMemoryPool());
  for (const auto& row : rows) STRATA_RETURN_NOT_OK(row ? validity_source.Append(0) : validity_source.AppendNull());
  STRATA_ASSIGN_OR_RETURN(auto with_nulls, validity_source.Finish());
  auto var = ArrayData::Make(struct_(fields), n, {with_nulls->buffers[0]}, with_nulls->GetNullCount());
  var->children = std::move(children);
  auto schema = std::make_shared<Schema>(std::vector<FieldPtr>{field("var", var->type)});
  STRATA_ASSIGN_OR_RETURN(auto batch, RecordBatch::Make(schema, n, {MakeArray(var)}));
  WriterOptions options;
  options.file.store_arrow_schema = false;
  STRATA_ASSIGN_OR_RETURN(auto plain, testing::WriteToBuffer(schema, {batch}, options, SystemMemoryPool()));

  // The footer, annotated.
  return testing::EditFooter(*plain, [](FileMetaData* metadata) {
    for (SchemaElement& e : metadata->schema) {
      if (e.name != "var") continue;
      LogicalType variant_type;
      variant_type.kind = LogicalType::Kind::kVariant;
      variant_type.specification_version = 1;
      e.logical_type = variant_type;
      return Status::OK();
    }
    return Status::Invalid("no group 'var' in the written schema");
  });
}

// Every row of `var` as JSON text ("null row" for a null variant), read in batches of
// `batch_rows`.
Result<std::vector<std::string>> ReadJsonRows(std::shared_ptr<Buffer> file, int64_t batch_rows) {
  STRATA_ASSIGN_OR_RETURN(auto reader,
                          FileReader::Open(MakeBufferSource(std::move(file), "optional_metadata.parquet"), SystemMemoryPool()));
  const Field& var_field = *reader->schema()->field(0);
  if (!variant::IsVariantField(var_field)) return Status::Invalid("'var' reads as {}", var_field.ToString());
  BatchReadOptions options;
  options.batch_rows = batch_rows;
  STRATA_ASSIGN_OR_RETURN(auto batches, reader->ReadBatches(options));
  std::vector<std::string> rows;
  while (true) {
    STRATA_ASSIGN_OR_RETURN(auto batch, batches->Next());
    if (!batch) break;
    const ArrayData& var = *batch->column(0).data();
    STRATA_RETURN_NOT_OK(ValidateFull(var));
    const Array var_array(batch->column(0).data());
    const StringArray metadata(var.children[0]), value(var.children[1]);  // binary: int32 offsets
    for (int64_t r = 0; r < var.length; ++r) {
      if (var_array.IsNull(r)) {
        rows.push_back("null row");
        continue;
      }
      std::string json;
      STRATA_RETURN_NOT_OK(variant::AppendVariantJson(metadata.GetView(var.offset + r), value.GetView(var.offset + r), &json));
      rows.push_back(std::move(json));
    }
  }
  return rows;
}

std::string IntegerValue(int64_t v) {
  std::string out;
  EXPECT_TRUE(VariantBuilder::AppendInteger(PrimitiveType::kInt64, v, &out).ok());
  return out;
}

// 3000 rows: the group null every 7th row, present without metadata or value every 11th (a
// null variant), else metadata and a value (shredded: every other value in typed_value).
std::vector<std::optional<Group>> Rows(bool shredded, std::vector<std::string>* expected) {
  const std::string metadata = VariantBuilder::EncodeMetadata({});
  std::vector<std::optional<Group>> rows;
  for (int64_t i = 0; i < 3000; ++i) {
    if (i % 7 == 3) {
      rows.emplace_back();
      expected->push_back("null row");
    } else if (i % 11 == 5) {
      rows.push_back(Group{std::nullopt, std::nullopt});
      expected->push_back("null row");
    } else if (shredded && i % 2 == 0) {
      rows.push_back(Group{metadata, std::nullopt, i * 3});
      expected->push_back(std::to_string(i * 3));
    } else {
      rows.push_back(Group{metadata, IntegerValue(-i)});
      expected->push_back(std::to_string(-i));
    }
  }
  return rows;
}

TEST(VariantOptionalMetadataTest, OptionalMetadataReads) {
  for (const bool shredded : {false, true}) {
    SCOPED_TRACE(shredded ? "shredded" : "unshredded");
    std::vector<std::string> expected;
    auto file = WriteOptionalMetadataFile(Rows(shredded, &expected), shredded);
    ASSERT_TRUE(file.ok()) << file.status().ToString();
    {
      auto reader = testing::OpenBuffer(*file, SystemMemoryPool());
      ASSERT_TRUE(reader.ok()) << reader.status().ToString();
      const SchemaDescriptor& descriptor = (*reader)->descriptor();
      const SchemaNode& group = descriptor.node(descriptor.root().children[0]);
      ASSERT_TRUE(IsVariantGroup(group));
      EXPECT_EQ(descriptor.node(group.children[0]).repetition(), FieldRepetitionType::kOptional);
    }
    for (const int64_t batch_rows : {int64_t{65536}, int64_t{1}, int64_t{700}}) {
      SCOPED_TRACE(batch_rows);
      auto rows = ReadJsonRows(*file, batch_rows);
      ASSERT_TRUE(rows.ok()) << rows.status().ToString();
      EXPECT_EQ(*rows, expected);
    }
  }
}

// Rows without a null in the metadata take the unshredded pass-through (no rebuilding): the
// same values.
TEST(VariantOptionalMetadataTest, OptionalMetadataWithoutNullsPassesThrough) {
  const std::string metadata = VariantBuilder::EncodeMetadata({});
  std::vector<std::optional<Group>> rows;
  std::vector<std::string> expected;
  for (int64_t i = 0; i < 100; ++i) {
    if (i % 4 == 0) {
      rows.emplace_back();
      expected.push_back("null row");
    } else {
      rows.push_back(Group{metadata, IntegerValue(i)});
      expected.push_back(std::to_string(i));
    }
  }
  auto file = WriteOptionalMetadataFile(rows, false);
  ASSERT_TRUE(file.ok()) << file.status().ToString();
  auto read = ReadJsonRows(*file, 30);
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  EXPECT_EQ(*read, expected);
}

// A value or typed_value beside null metadata cannot be read: the error names the file, the
// column and the row (counted in the file: the row group's first row plus the slot).
TEST(VariantOptionalMetadataTest, NullMetadataBesideAValueIsRefused) {
  const std::string metadata = VariantBuilder::EncodeMetadata({});
  for (const bool shredded : {false, true}) {
    SCOPED_TRACE(shredded ? "typed_value" : "value");
    std::vector<std::optional<Group>> rows;
    for (int64_t i = 0; i < 2000; ++i) rows.push_back(Group{metadata, IntegerValue(i)});
    rows[1234] = shredded ? Group{std::nullopt, std::nullopt, 7} : Group{std::nullopt, IntegerValue(7)};
    auto file = WriteOptionalMetadataFile(rows, shredded);
    ASSERT_TRUE(file.ok()) << file.status().ToString();
    for (const int64_t batch_rows : {int64_t{65536}, int64_t{1000}}) {
      auto read = ReadJsonRows(*file, batch_rows);
      ASSERT_FALSE(read.ok());
      const std::string message = read.status().ToString();
      EXPECT_TRUE(read.status().IsCorrupt()) << message;
      EXPECT_NE(message.find("optional_metadata.parquet"), std::string::npos) << message;
      EXPECT_NE(message.find("variant column 'var'"), std::string::npos) << message;
      EXPECT_NE(message.find("row 1234"), std::string::npos) << message;
      EXPECT_NE(message.find(shredded ? "metadata is null but the typed_value is set"
                                      : "metadata is null but the value is set"),
                std::string::npos)
          << message;
    }
  }
}

}  // namespace
}  // namespace strata::parquet
