#include "strata/types/data_type.h"

#include <gtest/gtest.h>

#include "strata/types/field.h"

namespace strata {
namespace {

TEST(DataTypeTest, ToStringOfEveryType) {
  EXPECT_EQ(null()->ToString(), "null");
  EXPECT_EQ(boolean()->ToString(), "bool");
  EXPECT_EQ(int8()->ToString(), "int8");
  EXPECT_EQ(int16()->ToString(), "int16");
  EXPECT_EQ(int32()->ToString(), "int32");
  EXPECT_EQ(int64()->ToString(), "int64");
  EXPECT_EQ(uint8()->ToString(), "uint8");
  EXPECT_EQ(uint16()->ToString(), "uint16");
  EXPECT_EQ(uint32()->ToString(), "uint32");
  EXPECT_EQ(uint64()->ToString(), "uint64");
  EXPECT_EQ(float16()->ToString(), "halffloat");
  EXPECT_EQ(float32()->ToString(), "float");
  EXPECT_EQ(float64()->ToString(), "double");
  EXPECT_EQ(decimal128(15, 2)->ToString(), "decimal128(15, 2)");
  EXPECT_EQ(decimal256(60, 10)->ToString(), "decimal256(60, 10)");
  EXPECT_EQ(date32()->ToString(), "date32[day]");
  EXPECT_EQ(date64()->ToString(), "date64[ms]");
  EXPECT_EQ(time32(TimeUnit::kSecond)->ToString(), "time32[s]");
  EXPECT_EQ(time32(TimeUnit::kMilli)->ToString(), "time32[ms]");
  EXPECT_EQ(time64(TimeUnit::kMicro)->ToString(), "time64[us]");
  EXPECT_EQ(time64(TimeUnit::kNano)->ToString(), "time64[ns]");
  EXPECT_EQ(timestamp(TimeUnit::kNano)->ToString(), "timestamp[ns]");
  EXPECT_EQ(timestamp(TimeUnit::kNano, "UTC")->ToString(), "timestamp[ns, tz=UTC]");
  EXPECT_EQ(timestamp(TimeUnit::kMilli, "Europe/Paris")->ToString(), "timestamp[ms, tz=Europe/Paris]");
  EXPECT_EQ(duration(TimeUnit::kMicro)->ToString(), "duration[us]");
  EXPECT_EQ(binary()->ToString(), "binary");
  EXPECT_EQ(utf8()->ToString(), "string");
  EXPECT_EQ(large_binary()->ToString(), "large_binary");
  EXPECT_EQ(large_utf8()->ToString(), "large_string");
  EXPECT_EQ(binary_view()->ToString(), "binary_view");
  EXPECT_EQ(utf8_view()->ToString(), "string_view");
  EXPECT_EQ(fixed_size_binary(16)->ToString(), "fixed_size_binary[16]");
  EXPECT_EQ(list(int64())->ToString(), "list<item: int64>");
  EXPECT_EQ(list(field("element", int32(), false))->ToString(), "list<element: int32 not null>");
  EXPECT_EQ(large_list(utf8())->ToString(), "large_list<item: string>");
  EXPECT_EQ(fixed_size_list(float32(), 3)->ToString(), "fixed_size_list<item: float>[3]");
  EXPECT_EQ(struct_({field("a", int32()), field("b", utf8())})->ToString(), "struct<a: int32, b: string>");
  EXPECT_EQ(struct_({})->ToString(), "struct<>");
  EXPECT_EQ(map(utf8(), int64())->ToString(), "map<string, int64>");
  EXPECT_EQ(map(utf8(), int64(), true)->ToString(), "map<string, int64, keys_sorted>");
  EXPECT_EQ(dictionary(int32(), utf8())->ToString(), "dictionary<values=string, indices=int32>");
  EXPECT_EQ(dictionary(int8(), utf8(), true)->ToString(), "dictionary<values=string, indices=int8, ordered>");
  EXPECT_EQ(list(struct_({field("x", list(int8()))}))->ToString(), "list<item: struct<x: list<item: int8>>>");
}

TEST(DataTypeTest, EqualsComparesParameters) {
  EXPECT_TRUE(int64()->Equals(*int64()));
  EXPECT_FALSE(int64()->Equals(*int32()));
  EXPECT_FALSE(int64()->Equals(*uint64()));
  EXPECT_FALSE(utf8()->Equals(*binary()));
  EXPECT_FALSE(utf8()->Equals(*large_utf8()));
  EXPECT_FALSE(utf8()->Equals(*utf8_view()));
  EXPECT_TRUE(decimal128(15, 2)->Equals(*decimal128(15, 2)));
  EXPECT_FALSE(decimal128(15, 2)->Equals(*decimal128(15, 3)));
  EXPECT_FALSE(decimal128(15, 2)->Equals(*decimal128(16, 2)));
  EXPECT_FALSE(decimal128(15, 2)->Equals(*decimal256(15, 2)));
  EXPECT_TRUE(time32(TimeUnit::kMilli)->Equals(*time32(TimeUnit::kMilli)));
  EXPECT_FALSE(time32(TimeUnit::kMilli)->Equals(*time32(TimeUnit::kSecond)));
  EXPECT_FALSE(time64(TimeUnit::kMicro)->Equals(*time64(TimeUnit::kNano)));
  EXPECT_TRUE(timestamp(TimeUnit::kNano, "UTC")->Equals(*timestamp(TimeUnit::kNano, "UTC")));
  EXPECT_FALSE(timestamp(TimeUnit::kNano, "UTC")->Equals(*timestamp(TimeUnit::kNano)));
  EXPECT_FALSE(timestamp(TimeUnit::kNano)->Equals(*timestamp(TimeUnit::kMicro)));
  EXPECT_FALSE(duration(TimeUnit::kNano)->Equals(*duration(TimeUnit::kSecond)));
  EXPECT_FALSE(duration(TimeUnit::kNano)->Equals(*timestamp(TimeUnit::kNano)));
  EXPECT_FALSE(date32()->Equals(*date64()));
  EXPECT_TRUE(fixed_size_binary(16)->Equals(*fixed_size_binary(16)));
  EXPECT_FALSE(fixed_size_binary(16)->Equals(*fixed_size_binary(8)));
  // List item names do not count; type and nullability do.
  EXPECT_TRUE(list(int64())->Equals(*list(field("element", int64()))));
  EXPECT_FALSE(list(int64())->Equals(*list(field("item", int64(), false))));
  EXPECT_FALSE(list(int64())->Equals(*list(int32())));
  EXPECT_FALSE(list(int64())->Equals(*large_list(int64())));
  EXPECT_TRUE(fixed_size_list(int8(), 4)->Equals(*fixed_size_list(int8(), 4)));
  EXPECT_FALSE(fixed_size_list(int8(), 4)->Equals(*fixed_size_list(int8(), 5)));
  // Struct member names count.
  EXPECT_TRUE(struct_({field("a", int32())})->Equals(*struct_({field("a", int32())})));
  EXPECT_FALSE(struct_({field("a", int32())})->Equals(*struct_({field("b", int32())})));
  EXPECT_FALSE(struct_({field("a", int32())})->Equals(*struct_({field("a", int32(), false)})));
  EXPECT_FALSE(struct_({field("a", int32())})->Equals(*struct_({field("a", int32()), field("b", int32())})));
  EXPECT_TRUE(map(utf8(), int64())->Equals(*map(utf8(), int64())));
  EXPECT_FALSE(map(utf8(), int64())->Equals(*map(utf8(), int32())));
  EXPECT_FALSE(map(utf8(), int64())->Equals(*map(binary(), int64())));
  EXPECT_FALSE(map(utf8(), int64())->Equals(*map(utf8(), int64(), true)));
  EXPECT_FALSE(map(utf8(), int64())->Equals(*list(struct_({field("key", utf8(), false), field("value", int64())}))));
  EXPECT_TRUE(dictionary(int32(), utf8())->Equals(*dictionary(int32(), utf8())));
  EXPECT_FALSE(dictionary(int32(), utf8())->Equals(*dictionary(int16(), utf8())));
  EXPECT_FALSE(dictionary(int32(), utf8())->Equals(*dictionary(int32(), binary())));
  EXPECT_FALSE(dictionary(int32(), utf8())->Equals(*dictionary(int32(), utf8(), true)));
  TypePtr none;
  EXPECT_FALSE(int32()->Equals(none));
  EXPECT_TRUE(*int32() == *TypeForId(TypeId::kInt32));
}

TEST(DataTypeTest, WidthsAndAccessors) {
  EXPECT_EQ(boolean()->bit_width(), 1);
  EXPECT_EQ(boolean()->byte_width(), 0);
  EXPECT_EQ(int8()->byte_width(), 1);
  EXPECT_EQ(uint16()->byte_width(), 2);
  EXPECT_EQ(float16()->byte_width(), 2);
  EXPECT_EQ(int32()->byte_width(), 4);
  EXPECT_EQ(date32()->byte_width(), 4);
  EXPECT_EQ(date64()->byte_width(), 8);
  EXPECT_EQ(timestamp(TimeUnit::kMicro)->byte_width(), 8);
  EXPECT_EQ(decimal128(10, 2)->byte_width(), 16);
  EXPECT_EQ(decimal256(50, 2)->byte_width(), 32);
  EXPECT_EQ(fixed_size_binary(7)->byte_width(), 7);
  EXPECT_EQ(dictionary(int16(), utf8())->bit_width(), 16);
  EXPECT_EQ(utf8()->bit_width(), 0);
  EXPECT_EQ(list(int32())->bit_width(), 0);

  auto m = map(utf8(), int64(), true);
  EXPECT_TRUE(m->keys_sorted());
  EXPECT_EQ(m->key_type()->id(), TypeId::kString);
  EXPECT_EQ(m->item_type()->id(), TypeId::kInt64);
  EXPECT_EQ(m->value_field()->name(), "entries");
  EXPECT_FALSE(m->value_field()->nullable());
  EXPECT_EQ(m->value_field()->type()->field(0)->name(), "key");
  EXPECT_FALSE(m->value_field()->type()->field(0)->nullable());
  EXPECT_EQ(m->value_field()->type()->field(1)->name(), "value");

  auto l = list(int16());
  EXPECT_EQ(l->value_field()->name(), "item");
  EXPECT_TRUE(l->value_field()->nullable());
  EXPECT_EQ(l->list_value_type()->id(), TypeId::kInt16);
  EXPECT_EQ(fixed_size_list(int16(), 5)->list_size(), 5);

  auto d = dictionary(int32(), utf8(), true);
  EXPECT_EQ(d->index_type()->id(), TypeId::kInt32);
  EXPECT_EQ(d->value_type()->id(), TypeId::kString);
  EXPECT_TRUE(d->ordered());

  auto t = timestamp(TimeUnit::kMilli, "UTC");
  EXPECT_EQ(t->unit(), TimeUnit::kMilli);
  EXPECT_EQ(t->timezone(), "UTC");
  EXPECT_EQ(decimal128(15, 2)->precision(), 15);
  EXPECT_EQ(decimal128(15, 2)->scale(), 2);
  auto s = struct_({field("a", int32()), field("b", utf8())});
  EXPECT_EQ(s->num_fields(), 2);
  EXPECT_EQ(s->field(1)->name(), "b");
}

TEST(DataTypeTest, Classification) {
  EXPECT_TRUE(is_integer(TypeId::kInt8));
  EXPECT_TRUE(is_integer(TypeId::kUInt64));
  EXPECT_FALSE(is_integer(TypeId::kFloat32));
  EXPECT_FALSE(is_integer(TypeId::kBoolean));
  EXPECT_TRUE(is_signed_integer(TypeId::kInt64));
  EXPECT_FALSE(is_signed_integer(TypeId::kUInt8));
  EXPECT_TRUE(is_unsigned_integer(TypeId::kUInt8));
  EXPECT_TRUE(is_floating(TypeId::kFloat16));
  EXPECT_TRUE(is_floating(TypeId::kFloat64));
  EXPECT_FALSE(is_floating(TypeId::kDecimal128));
  EXPECT_TRUE(is_primitive_fixed_width(TypeId::kInt32));
  EXPECT_TRUE(is_primitive_fixed_width(TypeId::kTimestamp));
  EXPECT_TRUE(is_primitive_fixed_width(TypeId::kDecimal256));
  EXPECT_TRUE(is_primitive_fixed_width(TypeId::kFixedSizeBinary));
  EXPECT_FALSE(is_primitive_fixed_width(TypeId::kBoolean));
  EXPECT_FALSE(is_primitive_fixed_width(TypeId::kString));
  EXPECT_TRUE(is_binary_like(TypeId::kBinary));
  EXPECT_TRUE(is_binary_like(TypeId::kString));
  EXPECT_FALSE(is_binary_like(TypeId::kLargeString));
  EXPECT_TRUE(is_large_binary_like(TypeId::kLargeString));
  EXPECT_TRUE(is_view(TypeId::kStringView));
  EXPECT_FALSE(is_view(TypeId::kString));
  EXPECT_TRUE(is_string(TypeId::kLargeString));
  EXPECT_FALSE(is_string(TypeId::kBinary));
  for (TypeId id : {TypeId::kList, TypeId::kLargeList, TypeId::kFixedSizeList, TypeId::kStruct, TypeId::kMap}) {
    EXPECT_TRUE(is_nested(id)) << TypeIdName(id);
  }
  EXPECT_FALSE(is_nested(TypeId::kDictionary));
  EXPECT_FALSE(is_nested(TypeId::kFixedSizeBinary));
}

TEST(DataTypeTest, ValidatingFactoriesRejectBadParameters) {
  EXPECT_TRUE(MakeDecimal128(38, 0).ok());
  EXPECT_TRUE(MakeDecimal128(0, 0).status().IsInvalid());
  EXPECT_TRUE(MakeDecimal128(39, 0).status().IsInvalid());
  EXPECT_NE(MakeDecimal128(39, 0).status().message().find("39"), std::string::npos);
  EXPECT_TRUE(MakeDecimal256(76, 5).ok());
  EXPECT_TRUE(MakeDecimal256(77, 5).status().IsInvalid());
  EXPECT_EQ((*MakeDecimal(38, 2))->id(), TypeId::kDecimal128);
  EXPECT_EQ((*MakeDecimal(39, 2))->id(), TypeId::kDecimal256);
  EXPECT_TRUE(MakeTime32(TimeUnit::kNano).status().IsInvalid());
  EXPECT_TRUE(MakeTime64(TimeUnit::kSecond).status().IsInvalid());
  EXPECT_TRUE(MakeTime64(TimeUnit::kNano).ok());
  EXPECT_TRUE(MakeFixedSizeBinary(-1).status().IsInvalid());
  EXPECT_TRUE(MakeFixedSizeList(field("item", int8()), -2).status().IsInvalid());
  EXPECT_TRUE(MakeDictionary(utf8(), utf8()).status().IsInvalid());
  EXPECT_TRUE(MakeDictionary(uint8(), utf8()).ok());
  EXPECT_TRUE(MakeMap(field("entries", int32(), false)).status().IsInvalid());
  EXPECT_TRUE(MakeMap(field("entries", struct_({field("k", utf8(), false), field("v", int8())}), true))
                  .status().IsInvalid());
  EXPECT_TRUE(MakeMap(field("entries", struct_({field("k", utf8()), field("v", int8())}), false))
                  .status().IsInvalid());
  auto m = MakeMap(field("entries", struct_({field("k", utf8(), false), field("v", int8())}), false));
  ASSERT_TRUE(m.ok());
  EXPECT_TRUE((*m)->Equals(*map(utf8(), int8())));
}

TEST(DataTypeTest, SingletonsAreShared) {
  EXPECT_EQ(int64().get(), int64().get());
  EXPECT_EQ(TypeForId(TypeId::kString).get(), utf8().get());
  EXPECT_EQ(TypeForId(TypeId::kTimestamp), nullptr);
}

}  // namespace
}  // namespace strata
