#include "strata/types/schema.h"

#include <gtest/gtest.h>

namespace strata {
namespace {

TEST(FieldTest, ToStringAndEquals) {
  EXPECT_EQ(field("a", int32())->ToString(), "a: int32");
  EXPECT_EQ(field("a", int32(), false)->ToString(), "a: int32 not null");
  EXPECT_TRUE(field("a", int32())->Equals(*field("a", int32())));
  EXPECT_FALSE(field("a", int32())->Equals(*field("b", int32())));
  EXPECT_FALSE(field("a", int32())->Equals(*field("a", int64())));
  EXPECT_FALSE(field("a", int32())->Equals(*field("a", int32(), false)));
  auto with_meta = field("a", int32(), true, KeyValueMetadata({{"k", "v"}}));
  EXPECT_TRUE(with_meta->Equals(*field("a", int32())));
  EXPECT_FALSE(with_meta->Equals(*field("a", int32()), /*check_metadata=*/true));
  EXPECT_TRUE(with_meta->Equals(*with_meta->WithName("a"), true));
  EXPECT_EQ(with_meta->WithNullable(false)->ToString(), "a: int32 not null");
  EXPECT_EQ(with_meta->WithType(utf8())->ToString(), "a: string");
  EXPECT_EQ(with_meta->WithMetadata({})->metadata().size(), 0u);
}

TEST(KeyValueMetadataTest, GetSetKeepOrder) {
  KeyValueMetadata m({{"b", "1"}, {"a", "2"}});
  EXPECT_EQ(m.Get("a").value(), "2");
  EXPECT_FALSE(m.Get("c").has_value());
  m.Set("c", "3");
  m.Set("b", "9");
  ASSERT_EQ(m.size(), 3u);
  EXPECT_EQ(m.pairs()[0].first, "b");
  EXPECT_EQ(m.pairs()[0].second, "9");
  EXPECT_EQ(m.pairs()[2].first, "c");
  EXPECT_EQ(m.ToString(), "{b: 9, a: 2, c: 3}");
}

TEST(SchemaTest, GetFieldIndex) {
  auto s = schema({field("id", int64(), false), field("name", utf8()), field("name", binary())});
  EXPECT_EQ(s->num_fields(), 3);
  EXPECT_EQ(s->GetFieldIndex("id"), 0);
  EXPECT_EQ(s->GetFieldIndex("name"), 1);
  EXPECT_EQ(s->GetFieldIndex("missing"), -1);
  EXPECT_EQ(s->GetFieldByName("name")->type()->id(), TypeId::kString);
  EXPECT_EQ(s->GetFieldByName("missing"), nullptr);
}

TEST(SchemaTest, ToStringPrintsTree) {
  auto s = schema({field("id", int64(), false),
                   field("tags", list(utf8())),
                   field("point", struct_({field("x", float64()), field("y", float64(), false)})),
                   field("attrs", map(utf8(), int32())),
                   field("vec", fixed_size_list(float32(), 3)),
                   field("ts", timestamp(TimeUnit::kMicro, "UTC"))},
                  KeyValueMetadata({{"writer", "strata"}}));
  EXPECT_EQ(s->ToString(),
            "id: int64 not null\n"
            "tags: list\n"
            "  item: string\n"
            "point: struct\n"
            "  x: double\n"
            "  y: double not null\n"
            "attrs: map\n"
            "  entries: struct not null\n"
            "    key: string not null\n"
            "    value: int32\n"
            "vec: fixed_size_list[3]\n"
            "  item: float\n"
            "ts: timestamp[us, tz=UTC]\n"
            "-- metadata --\n"
            "writer: strata");
}

TEST(SchemaTest, Equals) {
  auto a = schema({field("x", int32()), field("y", utf8())});
  auto b = schema({field("x", int32()), field("y", utf8())}, KeyValueMetadata({{"k", "v"}}));
  auto c = schema({field("x", int32())});
  auto d = schema({field("x", int32()), field("y", large_utf8())});
  EXPECT_TRUE(a->Equals(*b));
  EXPECT_FALSE(a->Equals(*b, true));
  EXPECT_FALSE(a->Equals(*c));
  EXPECT_FALSE(a->Equals(*d));
}

}  // namespace
}  // namespace strata
