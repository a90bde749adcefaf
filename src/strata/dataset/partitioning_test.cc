#include "strata/dataset/partitioning.h"

#include <gtest/gtest.h>

#include "strata/array/array.h"

namespace strata::dataset {
namespace {

MemoryPool* Pool() { return SystemMemoryPool(); }

DatasetFile File(const std::string& relative_dir, const std::string& name = "part.parquet") {
  DatasetFile file;
  file.root = "/data";
  file.path = "/data/" + relative_dir + "/" + name;
  size_t start = 0;
  while (start < relative_dir.size()) {
    size_t slash = relative_dir.find('/', start);
    if (slash == std::string::npos) slash = relative_dir.size();
    file.segments.push_back(relative_dir.substr(start, slash - start));
    start = slash + 1;
  }
  return file;
}

TEST(PartitioningTest, UrlDecodesKeysAndValues) {
  EXPECT_EQ(UrlDecode("a%2Fb%3Dc%25d%3a"), "a/b=c%d:");
  EXPECT_EQ(UrlDecode("100%"), "100%");
  EXPECT_EQ(UrlDecode("%zz%4"), "%zz%4");
  EXPECT_EQ(UrlDecode("x%20y"), "x y");
  auto segment = ParseHiveSegment("my%20key=2024-01-01 10%3A00%3A00");
  ASSERT_TRUE(segment.has_value());
  EXPECT_EQ(segment->first, "my key");
  EXPECT_EQ(segment->second, "2024-01-01 10:00:00");
  EXPECT_FALSE(ParseHiveSegment("plain").has_value());
  EXPECT_FALSE(ParseHiveSegment("=x").has_value());
  // Only the first '=' separates: the value may hold more.
  EXPECT_EQ(ParseHiveSegment("k=a=b")->second, "a=b");
}

TEST(PartitioningTest, InfersIntDateTimestampAndString) {
  std::vector<DatasetFile> files = {
      File("i=-5/d=2024-02-29/t=2024-01-01 10%3A00%3A00.5/s=abc/z=0"),
      File("i=+12/d=1970-01-01/t=2024-01-01 10%3A00%3A00/s=12/z=2024-01-01"),
      File("i=__HIVE_DEFAULT_PARTITION__/d=/t=1999-12-31T23%3A59%3A59.123456/s=2024-13-01/z=x"),
  };
  auto parsed = ParsePartitions(files, {}, Pool());
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  ASSERT_EQ(parsed->fields.size(), 5u);
  EXPECT_EQ(parsed->fields[0]->ToString(), "i: int64");
  EXPECT_EQ(parsed->fields[1]->type()->id(), TypeId::kDate32);
  EXPECT_EQ(parsed->fields[2]->type()->ToString(), timestamp(TimeUnit::kMicro)->ToString());
  EXPECT_EQ(parsed->fields[3]->type()->id(), TypeId::kString);
  EXPECT_EQ(parsed->fields[4]->type()->id(), TypeId::kString);  // mixes int, date and text

  const auto& v = parsed->values;
  EXPECT_EQ(v[0][0].value->i, -5);
  EXPECT_EQ(v[1][0].value->i, 12);
  EXPECT_FALSE(v[2][0].value.has_value());  // __HIVE_DEFAULT_PARTITION__ -> null
  EXPECT_TRUE(v[2][0].array.IsNull(0));
  EXPECT_EQ(v[0][1].value->i, 19782);  // 2024-02-29
  EXPECT_EQ(v[1][1].value->i, 0);
  EXPECT_FALSE(v[2][1].value.has_value());  // empty -> null
  EXPECT_EQ(v[0][2].value->i, int64_t{1704103200} * 1000000 + 500000);
  EXPECT_EQ(v[2][2].value->i, int64_t{946684799} * 1000000 + 123456);
  EXPECT_EQ(v[1][3].value->bytes, "12");
  EXPECT_EQ(PrimitiveArray<int64_t>(v[0][0].array).Value(0), -5);
  EXPECT_EQ(BinaryArray<int32_t>(v[0][3].array).GetView(0), "abc");
}

TEST(PartitioningTest, InvalidDatesAndOverflowingIntegersAreStrings) {
  auto parsed = ParsePartitions({File("a=2023-02-29/b=9223372036854775808"), File("a=2023-02-28/b=1")}, {}, Pool());
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  EXPECT_EQ(parsed->fields[0]->type()->id(), TypeId::kString);
  EXPECT_EQ(parsed->fields[1]->type()->id(), TypeId::kString);
}

TEST(PartitioningTest, TrueAndFalseAreBooleans) {
  auto parsed = ParsePartitions({File("flag=true/mixed=true"), File("flag=false/mixed=1"), File("flag=/mixed=0")}, {},
                                Pool());
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  EXPECT_EQ(parsed->fields[0]->type()->id(), TypeId::kBoolean);
  EXPECT_EQ(parsed->fields[1]->type()->id(), TypeId::kString);  // true beside integers
  EXPECT_TRUE(parsed->values[0][0].value->b);
  EXPECT_FALSE(parsed->values[1][0].value->b);
  EXPECT_FALSE(parsed->values[2][0].value.has_value());
}

TEST(PartitioningTest, InferenceOffAndExplicitTypes) {
  std::vector<DatasetFile> files = {File("a=1/b=2/c=true"), File("a=3/b=4/c=false")};
  PartitionOptions strings;
  strings.infer_types = false;
  auto all_strings = ParsePartitions(files, strings, Pool());
  ASSERT_TRUE(all_strings.ok());
  for (const auto& f : all_strings->fields) EXPECT_EQ(f->type()->id(), TypeId::kString);

  PartitionOptions typed;
  typed.types["a"] = int32();
  typed.types["c"] = boolean();
  auto explicit_types = ParsePartitions(files, typed, Pool());
  ASSERT_TRUE(explicit_types.ok()) << explicit_types.status().ToString();
  EXPECT_EQ(explicit_types->fields[0]->type()->id(), TypeId::kInt32);
  EXPECT_EQ(explicit_types->fields[1]->type()->id(), TypeId::kInt64);  // still inferred
  EXPECT_EQ(explicit_types->fields[2]->type()->id(), TypeId::kBoolean);
  EXPECT_TRUE(explicit_types->values[0][2].value->b);
  EXPECT_EQ(PrimitiveArray<int32_t>(explicit_types->values[1][0].array).Value(0), 3);

  PartitionOptions bad;
  bad.types["c"] = int64();
  auto refused = ParsePartitions(files, bad, Pool());
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("'true'"), std::string::npos) << refused.status().ToString();
  EXPECT_NE(refused.status().message().find("/data/a=1/b=2/c=true/part.parquet"), std::string::npos);
}

TEST(PartitioningTest, KeysInAnyOrderButTheSameSet) {
  auto reordered = ParsePartitions({File("a=1/b=x"), File("b=y/a=2")}, {}, Pool());
  ASSERT_TRUE(reordered.ok()) << reordered.status().ToString();
  EXPECT_EQ(reordered->fields[0]->name(), "a");
  EXPECT_EQ(reordered->values[1][0].value->i, 2);
  EXPECT_EQ(reordered->values[1][1].value->bytes, "y");

  auto mismatched = ParsePartitions({File("a=1/b=x"), File("a=2")}, {}, Pool());
  ASSERT_FALSE(mismatched.ok());
  const std::string& message = mismatched.status().message();
  EXPECT_NE(message.find("/data/a=1/b=x/part.parquet"), std::string::npos) << message;
  EXPECT_NE(message.find("/data/a=2/part.parquet"), std::string::npos) << message;

  EXPECT_FALSE(ParsePartitions({File("a=1/a=2")}, {}, Pool()).ok());
}

TEST(PartitioningTest, NonHiveSegmentsAreIgnoredAndHiveCanBeOff) {
  auto parsed = ParsePartitions({File("raw/k=1/2024"), File("raw/k=2/2025")}, {}, Pool());
  ASSERT_TRUE(parsed.ok());
  ASSERT_EQ(parsed->fields.size(), 1u);
  EXPECT_EQ(parsed->fields[0]->name(), "k");
  PartitionOptions off;
  off.hive = false;
  auto none = ParsePartitions({File("k=1")}, off, Pool());
  ASSERT_TRUE(none.ok());
  EXPECT_TRUE(none->empty());
  EXPECT_EQ(none->values.size(), 1u);
}

}  // namespace
}  // namespace strata::dataset
