// parquet-testing/variant: every example's metadata and value decode, validate and print as
// JSON, compared with the text expected here and with data_dictionary.json's documented value.
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "strata/testing/test_data.h"
#include "strata/variant/variant_json.h"
#include "strata/variant/variant_metadata.h"
#include "strata/variant/variant_value.h"

namespace strata::variant {
namespace {

std::string LongStringJson() {
  return "\"This string is for sure and certainly longer than 64 bytes and it also includes several non ascii "
         "characters such as \U0001F422, \U0001F496, \u2665\uFE0F, \U0001F3A3 and \U0001F926!!\"";
}

// Our JSON text of each example (empty: only compared with the dictionary). Timestamps adjusted to UTC are written in UTC with +00:00.
const std::map<std::string, std::string>& ExpectedJson() {
  static const std::map<std::string, std::string> kExpected = {
      {"array_empty", "[]"},
      {"array_nested",
       R"([{"id":1,"thing":{"names":["Contrarian","Spider"]}},null,{"id":2,"names":["Apple","Ray",null],"type":"if"}])"},
      {"array_primitive", "[2,1,5,9]"},
      // Not in data_dictionary.json (the README's list does not name it either).
      {"long_string", LongStringJson()},
      {"object_empty", "{}"},
      {"object_nested",
       R"({"id":1,"observation":{"location":"In the Volcano","time":"12:34:56","value":{"humidity":456,"temperature":123}},"species":{"name":"lava monster","population":6789}})"},
      {"object_primitive",
       R"({"boolean_false_field":false,"boolean_true_field":true,"double_field":1.23456789,"int_field":1,"null_field":null,"string_field":"Apache Parquet","timestamp_field":"2025-04-16T12:34:56.78"})"},
      {"primitive_binary", R"("AxM33q2+78r+")"},
      {"primitive_boolean_false", "false"},
      {"primitive_boolean_true", "true"},
      {"primitive_date", R"("2025-04-16")"},
      {"primitive_decimal16", "12345678912345678.90"},
      {"primitive_decimal4", "12.34"},
      {"primitive_decimal8", "12345678.90"},
      {"primitive_double", "1234567890.1234"},
      {"primitive_float", "1234567936"},
      {"primitive_int16", "1234"},
      {"primitive_int32", "123456"},
      {"primitive_int64", "1234567890123456789"},
      {"primitive_int8", "42"},
      {"primitive_null", "null"},
      {"primitive_string", ""},
      {"primitive_time", R"("12:33:54.123456")"},
      {"primitive_timestamp", R"("2025-04-16T16:34:56.78+00:00")"},
      {"primitive_timestamp_nanos", R"("2024-11-07T12:33:54.123456789+00:00")"},
      {"primitive_timestampntz", R"("2025-04-16T12:34:56.78")"},
      {"primitive_timestampntz_nanos", R"("2024-11-07T12:33:54.123456789")"},
      {"primitive_uuid", R"("f24f9b64-81fa-49d1-b74e-8c09a6e31c56")"},
      {"short_string", ""},
  };
  return kExpected;
}

// Examples whose documented text is spelled differently from ours, with why; their values are
// checked against ExpectedJson() only.
const std::map<std::string, std::string>& SpelledDifferently() {
  static const std::map<std::string, std::string> kWhy = {
      {"primitive_time", "documented as 12:33:54:123456 (a colon before the fraction)"},
      {"primitive_timestamp", "documented in the writer's zone (-04:00); written here in UTC"},
      {"primitive_timestamp_nanos", "documented with a T and +00:00 like ours, kept here for the zone rule"},
      {"primitive_timestampntz", "documented with a space instead of the ISO T"},
      {"primitive_decimal16", "documented as a double (1.2345678912345678e+16); written here exactly"},
  };
  return kWhy;
}

// Documented and decoded values agree: numbers within a float32's precision, the rest exactly.
bool SameValue(const nlohmann::json& documented, const nlohmann::json& decoded) {
  if (documented.is_number() && decoded.is_number()) {
    const double a = documented.get<double>(), b = decoded.get<double>();
    return a == b || std::fabs(a - b) <= 1e-7 * std::max(std::fabs(a), std::fabs(b));  // float32 precision
  }
  if (documented.type() != decoded.type()) return false;
  if (documented.is_object()) {
    if (documented.size() != decoded.size()) return false;
    for (auto it = documented.begin(); it != documented.end(); ++it) {
      if (!decoded.contains(it.key()) || !SameValue(it.value(), decoded[it.key()])) return false;
    }
    return true;
  }
  if (documented.is_array()) {
    if (documented.size() != decoded.size()) return false;
    for (size_t i = 0; i < documented.size(); ++i) {
      if (!SameValue(documented[i], decoded[i])) return false;
    }
    return true;
  }
  return documented == decoded;
}

TEST(VariantCorpusTest, EveryExampleDecodesToItsDocumentedValue) {
  const std::string dir = testing::ParquetTestingDir();
  STRATA_REQUIRE_OR_SKIP(!dir.empty(), "parquet-testing folder not found (set STRATA_PARQUET_TESTING)");
  const std::string folder = dir + "/variant";
  std::string dictionary_text = ::strata::testing::ReadFileBytes(folder + "/data_dictionary.json");
  // The file ends its object with a trailing comma, which strict JSON does not allow.
  const size_t last_brace = dictionary_text.rfind('}');
  const size_t last_comma = dictionary_text.find_last_not_of(" \t\r\n", last_brace - 1);
  if (last_comma != std::string::npos && dictionary_text[last_comma] == ',') dictionary_text[last_comma] = ' ';
  const nlohmann::json dictionary = nlohmann::json::parse(dictionary_text, nullptr, false);
  ASSERT_FALSE(dictionary.is_discarded()) << "data_dictionary.json does not parse";

  std::set<std::string> examples;
  for (const auto& entry : std::filesystem::directory_iterator(folder)) {
    if (entry.path().extension() == ".value") examples.insert(entry.path().stem().string());
  }
  ASSERT_FALSE(examples.empty());
  for (const auto& [name, unused] : ExpectedJson()) {
    EXPECT_TRUE(examples.count(name)) << name << " is not in the corpus";
  }
  for (const std::string& name : examples) {
    SCOPED_TRACE(name);
    ASSERT_TRUE(ExpectedJson().count(name)) << "an example this test does not know: add it";
    const bool documented = dictionary.contains(name);
    EXPECT_TRUE(documented || name == "long_string") << "not documented in data_dictionary.json";
    const std::string metadata_bytes = ::strata::testing::ReadFileBytes(folder + "/" + name + ".metadata");
    const std::string value_bytes = ::strata::testing::ReadFileBytes(folder + "/" + name + ".value");
    auto metadata = VariantMetadata::Make(metadata_bytes);
    ASSERT_TRUE(metadata.ok()) << metadata.status().ToString();
    auto value = VariantValue::Make(value_bytes);
    ASSERT_TRUE(value.ok()) << value.status().ToString();
    EXPECT_EQ(value->bytes().size(), value_bytes.size());
    ASSERT_TRUE(ValidateVariant(*metadata, *value).ok()) << ValidateVariant(*metadata, *value).ToString();
    std::string json;
    ASSERT_TRUE(AppendVariantJson(*metadata, *value, &json).ok());
    const std::string& expected = ExpectedJson().at(name);
    if (!expected.empty()) {
      EXPECT_EQ(json, expected);
    }
    const nlohmann::json decoded = nlohmann::json::parse(json, nullptr, false);
    ASSERT_FALSE(decoded.is_discarded()) << "not JSON: " << json;
    if (documented && !SpelledDifferently().count(name)) {
      EXPECT_TRUE(SameValue(dictionary[name], decoded)) << "documented " << dictionary[name].dump() << ", decoded " << json;
    }
  }
}

}  // namespace
}  // namespace strata::variant
