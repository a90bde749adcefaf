#include "strata/util/json_writer.h"

#include <gtest/gtest.h>

namespace strata {
namespace {

TEST(JsonWriterTest, StringLiterals) {
  char text[64];
  const std::string_view input = "a\"b\\c\n\x01\x7f";
  char* end = WriteJsonString(input, text);
  EXPECT_EQ(std::string(text, end), "\"a\\\"b\\\\c\\n\\u0001\x7f\"");
  EXPECT_LE(end - text, MaxJsonStringLength(static_cast<int64_t>(input.size())));
  // Ill-formed UTF-8 (a lone continuation, a truncated sequence, an encoded surrogate, an
  // overlong NUL) becomes one U+FFFD per byte; well-formed sequences are copied.
  const std::string_view invalid = "\x80\xe2\x82!\xed\xa0\x80\xc0\x80\xf0\x9f\x98\x80";
  end = WriteJsonString(invalid, text);
  const std::string fffd = "\xef\xbf\xbd";
  EXPECT_EQ(std::string(text, end), "\"" + fffd + fffd + fffd + "!" + fffd + fffd + fffd + fffd + fffd +
                                        "\xf0\x9f\x98\x80\"");
  EXPECT_LE(end - text, MaxJsonStringLength(static_cast<int64_t>(invalid.size())));
  std::string appended = "x";
  AppendJsonString("\t\b\f", &appended);
  EXPECT_EQ(appended, "x\"\\t\\b\\f\"");
}

TEST(JsonWriterTest, ObjectsArraysAndValues) {
  JsonWriter json;
  json.BeginObject();
  json.Field("a", 1);
  json.Field("b", "t\"x");
  json.OptionalField("c", std::optional<double>());
  json.Key("d");
  json.BeginArray();
  json.Double(0.5);
  json.Double(std::nan(""));
  json.Bool(true);
  json.Uint(uint64_t{1} << 63);
  json.BeginObject();
  json.EndObject();
  json.EndArray();
  json.EndObject();
  EXPECT_EQ(json.out(), R"({"a":1,"b":"t\"x","c":null,"d":[0.5,"NaN",true,9223372036854775808,{}]})");
}

}  // namespace
}  // namespace strata
