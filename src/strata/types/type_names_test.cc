#include "strata/types/type_names.h"

#include <gtest/gtest.h>

namespace strata {
namespace {

std::string TypeOf(std::string_view text) {
  auto type = ParseTypeName(text);
  return type.ok() ? (*type)->ToString() : "error: " + type.status().message();
}

TEST(TypeNamesTest, TypeNames) {
  EXPECT_EQ(TypeOf("int8"), "int8");
  EXPECT_EQ(TypeOf("INT64"), "int64");
  EXPECT_EQ(TypeOf("uint16"), "uint16");
  EXPECT_EQ(TypeOf("uint64"), "uint64");
  EXPECT_EQ(TypeOf("float32"), "float");
  EXPECT_EQ(TypeOf("double"), "double");
  EXPECT_EQ(TypeOf("bool"), "bool");
  EXPECT_EQ(TypeOf(" string "), "string");
  EXPECT_EQ(TypeOf("binary"), "binary");
  EXPECT_EQ(TypeOf("date32"), "date32[day]");
  EXPECT_EQ(TypeOf("timestamp[us]"), "timestamp[us]");
  EXPECT_EQ(TypeOf("timestamp[ns]"), "timestamp[ns]");
  EXPECT_EQ(TypeOf("timestamp[us,UTC]"), "timestamp[us, tz=UTC]");
  EXPECT_EQ(TypeOf("timestamp[ms, tz=utc]"), "timestamp[ms, tz=UTC]");
  EXPECT_EQ(TypeOf("timestamp[us, Europe/Paris]"), "timestamp[us, tz=Europe/Paris]");
  EXPECT_EQ(TypeOf("timestamptz"), "timestamp[us, tz=UTC]");
  EXPECT_EQ(TypeOf("time64[us]"), "time64[us]");
  EXPECT_EQ(TypeOf("time32[ms]"), "time32[ms]");
  EXPECT_EQ(TypeOf("decimal(10,2)"), "decimal128(10, 2)");
  EXPECT_EQ(TypeOf("decimal( 5 , 0 )"), "decimal128(5, 0)");
  EXPECT_EQ(TypeOf("decimal(40,3)"), "decimal256(40, 3)");
  EXPECT_EQ(TypeOf("decimal256(10,2)"), "decimal256(10, 2)");
}

TEST(TypeNamesTest, BadTypeNames) {
  EXPECT_NE(TypeOf("int33").find("unknown type 'int33'"), std::string::npos);
  EXPECT_NE(TypeOf("timestamp[xs]").find("the unit must be"), std::string::npos);
  EXPECT_NE(TypeOf("time64[ms]").find("time64 us or ns"), std::string::npos);
  EXPECT_NE(TypeOf("decimal(2,5)").find("scale 5 is larger"), std::string::npos);
  EXPECT_NE(TypeOf("decimal(0,0)").find("precision must be 1 to 76"), std::string::npos);
  EXPECT_NE(TypeOf("decimal(a,b)").find("decimal(precision,scale)"), std::string::npos);
  EXPECT_NE(TypeOf("decimal128(40,2)").find("at most 38"), std::string::npos);
  EXPECT_NE(TypeOf("").find("a type is missing"), std::string::npos);
}

TEST(TypeNamesTest, SchemaSpec) {
  auto spec = ParseSchemaSpec("id:int64, fare : decimal(10,2),at:timestamp[us, tz=+05:30],a:b:string");
  ASSERT_TRUE(spec.ok()) << spec.status().ToString();
  ASSERT_EQ(spec->size(), 4u);
  EXPECT_EQ((*spec)[0].name, "id");
  EXPECT_EQ((*spec)[0].type->ToString(), "int64");
  EXPECT_EQ((*spec)[1].name, "fare");
  EXPECT_EQ((*spec)[1].type->ToString(), "decimal128(10, 2)");
  EXPECT_EQ((*spec)[2].type->ToString(), "timestamp[us, tz=+05:30]");
  EXPECT_EQ((*spec)[3].name, "a:b");  // the name ends at the last ':'
}

TEST(TypeNamesTest, BadSchemaSpecs) {
  auto message = [](std::string_view text) {
    auto spec = ParseSchemaSpec(text, "--schema");
    return spec.ok() ? std::string("ok") : spec.status().message();
  };
  EXPECT_EQ(message("id:int33"), "--schema column 'id': unknown type 'int33' (types: int8..int64, uint8..uint64, "
                                 "float32, float64, bool, string, binary, date32, timestamp[us], timestamp[us,UTC], "
                                 "time64[us], decimal(p,s))");
  EXPECT_NE(message("id").find("'id' is not name:type"), std::string::npos);
  EXPECT_NE(message(":int64").find("has no column name"), std::string::npos);
  EXPECT_NE(message("a:int64,a:string").find("'a' is given twice"), std::string::npos);
  EXPECT_NE(message("a:int64,").find("'' is not name:type"), std::string::npos);
  EXPECT_NE(message("").find("--schema is empty"), std::string::npos);
}

TEST(TypeNamesTest, SchemaSpecLabel) {
  // The label leads every message: Python's keyword, not the CLI's flag.
  EXPECT_EQ(ParseSchemaSpec("").status().message(), "schema is empty (write 'name:type,name:type')");
  EXPECT_EQ(ParseSchemaSpec("a:int99", "schema").status().message().rfind("schema column 'a': unknown type", 0), 0u);
}

}  // namespace
}  // namespace strata
