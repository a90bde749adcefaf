// Shredded and unshredded VARIANT columns read by FileReader against parquet-testing's
// shredded_variant corpus (cases.json): every row's metadata + value bytes equal the case's
// .variant.bin file, null variants are null, and the invalid cases fail with a clear error.
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "strata/array/binary_builder.h"
#include "strata/array/primitive_builder.h"
#include "strata/array/validate.h"
#include "strata/parquet/variant/variant_column.h"
#include "strata/parquet/read/file_reader.h"
#include "strata/testing/test_data.h"
#include "strata/variant/variant_encoder.h"
#include "strata/variant/variant_extension.h"
#include "strata/variant/variant_json.h"

namespace strata::parquet {
namespace {

// Cases this reader treats differently from cases.json, and why. A case listed here that
// the corpus marks otherwise, or that reads as cases.json says, fails the test.
const std::map<int, std::string>& CasesThatFail() {
  static const std::map<int, std::string> kCases = {
      {43, "'b' is a shredded field (missing in typed_value) and also in the residual value object; "
           "VariantShredding.md forbids it, Iceberg drops the residual field"},
      {125, "'b' is set in typed_value and in the residual value object; VariantShredding.md forbids it, Iceberg "
            "keeps typed_value's"},
  };
  return kCases;
}
const std::map<int, std::string>& CasesSkipped() {
  static const std::map<int, std::string> kCases = {
      {3, "cases.json has only the case number: no test, file or expected value"},
  };
  return kCases;
}

std::string_view BinaryAt(const ArrayData& a, int64_t i) {
  const int32_t* offsets = a.buffers[1]->data_as<int32_t>() + a.offset + i;
  return {reinterpret_cast<const char*>(a.buffers[2]->data()) + offsets[0], static_cast<size_t>(offsets[1] - offsets[0])};
}

bool IsNullAt(const ArrayData& a, int64_t i) {
  const uint8_t* bits = a.validity_data();
  return bits != nullptr && !((bits[(a.offset + i) >> 3] >> ((a.offset + i) & 7)) & 1);
}

// Reads every row of field "var" as metadata + value bytes (nullopt for a null variant).
Result<std::vector<std::optional<std::string>>> ReadVariants(const std::string& path, int64_t batch_rows) {
  STRATA_ASSIGN_OR_RETURN(auto file, FileReader::OpenFile(path, SystemMemoryPool()));
  BatchReadOptions options;
  options.batch_rows = batch_rows;
  STRATA_ASSIGN_OR_RETURN(auto reader, file->ReadBatches(options));
  const int column = reader->schema()->GetFieldIndex("var");
  if (column < 0) return Status::Invalid("no field 'var'");
  const Field& field = *reader->schema()->field(column);
  if (!variant::IsVariantField(field)) return Status::Invalid("'var' is not marked as a variant: {}", field.ToString());
  if (!field.type()->Equals(*variant::VariantStorageType())) {
    return Status::Invalid("'var' reads as {}", field.type()->ToString());
  }
  std::vector<std::optional<std::string>> rows;
  while (true) {
    STRATA_ASSIGN_OR_RETURN(auto batch, reader->Next());
    if (!batch) break;
    const ArrayData& var = *batch->column(column).data();
    STRATA_RETURN_NOT_OK(ValidateFull(var));
    for (int64_t r = 0; r < var.length; ++r) {
      if (IsNullAt(var, r)) {
        rows.emplace_back();
        continue;
      }
      const ArrayData& metadata = *var.children[0];
      const ArrayData& value = *var.children[1];
      if (IsNullAt(metadata, var.offset + r) || IsNullAt(value, var.offset + r)) {
        return Status::Invalid("row {}: null metadata or value in a non-null variant", rows.size());
      }
      const std::string_view m = BinaryAt(metadata, var.offset + r);
      const std::string_view v = BinaryAt(value, var.offset + r);
      std::string json;
      STRATA_RETURN_NOT_OK(variant::AppendVariantJson(m, v, &json));
      rows.push_back(std::string(m) + std::string(v));
    }
  }
  return rows;
}

TEST(VariantReaderTest, ShreddedVariantCasesReconstructExactly) {
  const std::string root = testing::ParquetTestingDir();
  STRATA_REQUIRE_OR_SKIP(!root.empty(), "parquet-testing folder not found (set STRATA_PARQUET_TESTING)");
  const std::string dir = root + "/shredded_variant";
  const nlohmann::json cases = nlohmann::json::parse(::strata::testing::ReadFileBytes(dir + "/cases.json"), nullptr, false);
  ASSERT_TRUE(cases.is_array()) << "cases.json does not parse";
  std::set<int> seen;
  int reconstructed = 0, failed = 0;
  for (const auto& c : cases) {
    const int number = c.at("case_number").get<int>();
    SCOPED_TRACE("case " + std::to_string(number));
    seen.insert(number);
    if (CasesSkipped().count(number)) {
      EXPECT_FALSE(c.contains("parquet_file")) << "listed as skipped but cases.json now describes it";
      continue;
    }
    ASSERT_TRUE(c.contains("parquet_file")) << "a case without a file that is not listed as skipped";
    const std::string parquet = dir + "/" + c.at("parquet_file").get<std::string>();
    if (c.contains("error_message") || CasesThatFail().count(number)) {
      EXPECT_NE(c.contains("error_message"), CasesThatFail().count(number) > 0)
          << "listed in CasesThatFail() but cases.json marks it an error anyway";
      auto rows = ReadVariants(parquet, 1024);
      EXPECT_FALSE(rows.ok()) << "read although it should fail ("
                              << c.value("error_message", CasesThatFail().count(number) ? CasesThatFail().at(number) : "")
                              << ")";
      if (!rows.ok()) {
        // The message names the file and the column.
        EXPECT_NE(rows.status().message().find(c.at("parquet_file").get<std::string>()), std::string::npos)
            << rows.status().ToString();
        EXPECT_NE(rows.status().message().find("var"), std::string::npos) << rows.status().ToString();
      }
      ++failed;
      continue;
    }
    std::vector<nlohmann::json> files;
    if (c.contains("variant_file")) {
      files.push_back(c.at("variant_file"));
    } else {
      ASSERT_TRUE(c.contains("variant_files"));
      for (const auto& f : c.at("variant_files")) files.push_back(f);
    }
    for (const int64_t batch_rows : {int64_t{1024}, int64_t{1}, int64_t{3}}) {
      auto rows = ReadVariants(parquet, batch_rows);
      ASSERT_TRUE(rows.ok()) << rows.status().ToString();
      ASSERT_EQ(rows->size(), files.size());
      for (size_t r = 0; r < files.size(); ++r) {
        SCOPED_TRACE("row " + std::to_string(r));
        if (files[r].is_null()) {
          EXPECT_FALSE((*rows)[r].has_value());
          continue;
        }
        ASSERT_TRUE((*rows)[r].has_value());
        const std::string expected = ::strata::testing::ReadFileBytes(dir + "/" + files[r].get<std::string>());
        ASSERT_FALSE(expected.empty());
        EXPECT_EQ(*(*rows)[r], expected);
      }
    }
    ++reconstructed;
  }
  for (const auto& [number, why] : CasesThatFail()) EXPECT_TRUE(seen.count(number)) << "case " << number << " is gone";
  for (const auto& [number, why] : CasesSkipped()) EXPECT_TRUE(seen.count(number)) << "case " << number << " is gone";
  EXPECT_EQ(reconstructed + failed + static_cast<int>(CasesSkipped().size()), static_cast<int>(cases.size()));
}

// Synthetic storage for ReconstructVariant: var { metadata, value, typed_value { a { value,
// typed_value int32 } } }, one row per entry.
struct Row {
  std::optional<std::string> metadata, value, a_value;
  std::optional<int32_t> a_typed;
};

ArrayDataPtr Binaries(const std::vector<std::optional<std::string>>& values) {
  StringBuilder builder(binary(), SystemMemoryPool());
  for (const auto& v : values) EXPECT_TRUE((v ? builder.Append(*v) : builder.AppendNull()).ok());
  return *builder.Finish();
}

ArrayDataPtr Storage(const std::vector<Row>& rows) {
  std::vector<std::optional<std::string>> metadata, value, a_value;
  Int32Builder a_typed(int32(), SystemMemoryPool());
  for (const Row& r : rows) {
    metadata.push_back(r.metadata);
    value.push_back(r.value);
    a_value.push_back(r.a_value);
    EXPECT_TRUE((r.a_typed ? a_typed.Append(*r.a_typed) : a_typed.AppendNull()).ok());
  }
  const auto n = static_cast<int64_t>(rows.size());
  auto a_type = struct_({field("value", binary()), field("typed_value", int32())});
  auto a = ArrayData::Make(a_type, n, {nullptr}, 0);
  a->children = {Binaries(a_value), *a_typed.Finish()};
  auto typed_type = struct_({field("a", a_type, false)});
  auto typed = ArrayData::Make(typed_type, n, {nullptr}, 0);
  typed->children = {a};
  auto storage = ArrayData::Make(struct_({field("metadata", binary(), false), field("value", binary()),
                                          field("typed_value", typed_type)}),
                                 n, {nullptr}, 0);
  storage->children = {Binaries(metadata), Binaries(value), typed};
  return storage;
}

VariantShredding Plan() {
  VariantShredding plan;
  plan.path = "var";
  plan.metadata_child = 0;
  plan.root.kind = ShreddedNode::Kind::kObject;
  plan.root.value_child = 1;
  plan.root.typed_child = 2;
  plan.root.path = "var";
  plan.root.names = {"a"};
  plan.root.field_children = {0};
  ShreddedNode a;
  a.kind = ShreddedNode::Kind::kPrimitive;
  a.value_child = 0;
  a.typed_child = 1;
  a.primitive = variant::PrimitiveType::kInt32;
  a.path = "var.typed_value.a";
  plan.root.children = {a};
  return plan;
}

TEST(VariantReconstructionTest, MergesAndRejectsHostileBytes) {
  using variant::VariantBuilder;
  const std::string metadata = VariantBuilder::EncodeMetadata({"a", "b"});
  auto md = variant::VariantMetadata::Make(metadata);
  ASSERT_TRUE(md.ok());
  std::string x, residual, five, expected;
  VariantBuilder::AppendString("x", &x);
  ASSERT_TRUE(VariantBuilder::AppendObject(*md, {{1, x}}, &residual).ok());
  ASSERT_TRUE(VariantBuilder::AppendInteger(variant::PrimitiveType::kInt32, 5, &five).ok());
  ASSERT_TRUE(VariantBuilder::AppendObject(*md, {{0, five}, {1, x}}, &expected).ok());
  const VariantShredding plan = Plan();
  auto rebuild = [&](const std::vector<Row>& rows) {
    return ReconstructVariant(plan, *Storage(rows), variant::VariantStorageType(), 10, true, SystemMemoryPool());
  };
  auto good = rebuild({Row{metadata, residual, std::nullopt, 5}, Row{metadata, std::nullopt, std::nullopt, std::nullopt}});
  ASSERT_TRUE(good.ok()) << good.status().ToString();
  EXPECT_EQ(BinaryAt(*(*good)->children[1], 0), expected);
  EXPECT_EQ(BinaryAt(*(*good)->children[1], 1), std::string("\x02\x00\x00", 3));  // {}
  EXPECT_TRUE(ValidateFull(**good).ok());

  const std::vector<std::pair<Row, std::string>> bad = {
      {Row{metadata, residual.substr(0, residual.size() - 1), std::nullopt, 5}, "needs"},      // truncated residual
      {Row{metadata, std::string("\x02\x01\x07\x00\x01\x00", 6), std::nullopt, 5}, "field id 7"},  // id outside
      {Row{std::string("\x01\x09", 2), std::nullopt, std::nullopt, 5}, "metadata"},            // corrupt metadata
      {Row{metadata, std::nullopt, five, 5}, "conflicting"},                                  // a: value and typed
      {Row{metadata, five, std::nullopt, 5}, "not an object"},                                 // residual not an object
      {Row{metadata, std::string("\x02\x01\x00\x00\x01\x00", 6), std::nullopt, 5}, "also in the residual"},
      {Row{VariantBuilder::EncodeMetadata({"b"}), std::nullopt, std::nullopt, 5}, "not in the variant's metadata"},
  };
  for (const auto& [row, message] : bad) {
    SCOPED_TRACE(message);
    auto result = rebuild({row});
    ASSERT_FALSE(result.ok());
    EXPECT_NE(result.status().message().find(message), std::string::npos) << result.status().ToString();
    EXPECT_NE(result.status().message().find("row 10"), std::string::npos) << result.status().ToString();
  }
}

}  // namespace
}  // namespace strata::parquet
