#include <gtest/gtest.h>

#include <vector>

#include "strata/array/array.h"
#include "strata/array/binary_builder.h"
#include "strata/array/dictionary_builder.h"
#include "strata/array/list_builder.h"
#include "strata/array/map_builder.h"
#include "strata/array/null_builder.h"
#include "strata/array/primitive_builder.h"
#include "strata/array/pretty_print.h"
#include "strata/array/struct_builder.h"
#include "strata/array/filter.h"
#include "strata/array/union_builder.h"
#include "strata/array/validate.h"
#include "strata/memory/memory_scope.h"

namespace strata {
namespace {

TEST(ListBuilderTest, RoundTripAndSlice) {
  auto pool = MakeSystemMemoryPool();
  auto builder = *ListBuilder<int32_t>::Make(list(int32()), pool.get());
  auto* values = static_cast<Int32Builder*>(builder->value_builder());
  // [[1, 2], null, [], [3, null, 5], [6]]
  ASSERT_TRUE(builder->Append().ok());
  ASSERT_TRUE(values->Append(1).ok());
  ASSERT_TRUE(values->Append(2).ok());
  ASSERT_TRUE(builder->AppendNull().ok());
  ASSERT_TRUE(builder->Append().ok());
  ASSERT_TRUE(builder->Append().ok());
  ASSERT_TRUE(values->Append(3).ok());
  ASSERT_TRUE(values->AppendNull().ok());
  ASSERT_TRUE(values->Append(5).ok());
  ASSERT_TRUE(builder->Append().ok());
  ASSERT_TRUE(values->Append(6).ok());
  auto data = *builder->Finish();
  ASSERT_TRUE(ValidateFull(*data).ok());
  ListArray<int32_t> array(data);
  EXPECT_EQ(array.ToString(), "[[1, 2], null, [], [3, null, 5], [6]]");
  EXPECT_EQ(array.value_offset(3), 2);
  EXPECT_EQ(array.value_length(3), 3);
  EXPECT_EQ(array.value_slice(3).ToString(), "[3, null, 5]");
  EXPECT_EQ(array.values().length(), 6);
  auto slice = array.Slice(2, 3);
  EXPECT_EQ(slice.ToString(), "[[], [3, null, 5], [6]]");
  EXPECT_TRUE(ValidateFull(*slice.data()).ok());
  // Empty builder after Finish, reusable.
  ASSERT_TRUE(builder->Append().ok());
  ASSERT_TRUE(values->Append(9).ok());
  EXPECT_EQ(Array(*builder->Finish()).ToString(), "[[9]]");
}

TEST(ListBuilderTest, LargeListOfStringsAndBulkOffsets) {
  auto pool = MakeSystemMemoryPool();
  auto builder = *ListBuilder<int64_t>::Make(large_list(utf8()), pool.get());
  auto* values = static_cast<StringBuilder*>(builder->value_builder());
  const int64_t starts[] = {0, 2, 2, 3};
  const uint8_t validity = 0b1011;
  ASSERT_TRUE(builder->AppendValues(starts, 4, &validity).ok());
  for (auto s : {"a", "b", "c", "d", "e"}) ASSERT_TRUE(values->Append(s).ok());
  auto data = *builder->Finish();
  ASSERT_TRUE(ValidateFull(*data).ok());
  EXPECT_EQ(Array(data).ToString(), R"([["a", "b"], [], null, ["d", "e"]])");
  const int64_t decreasing[] = {5, 1};
  EXPECT_TRUE(builder->AppendValues(decreasing, 2).IsInvalid());
}

TEST(ListBuilderTest, ReserveThenAppendMakesNoAllocation) {
  auto pool = MakeSystemMemoryPool();
  auto builder = *ListBuilder<int32_t>::Make(list(int64()), pool.get());
  auto* values = static_cast<Int64Builder*>(builder->value_builder());
  ASSERT_TRUE(builder->Reserve(1000).ok());
  ASSERT_TRUE(values->Reserve(3000).ok());
  MemoryScope scope(pool.get());
  for (int i = 0; i < 1000; ++i) {
    ASSERT_TRUE(builder->Append().ok());
    for (int k = 0; k < 3; ++k) ASSERT_TRUE(values->Append(i * k).ok());
  }
  EXPECT_EQ(scope.delta().num_allocations + scope.delta().num_reallocations, 0);
  auto data = *builder->Finish();  // the closing offset fits in the reservation
  EXPECT_EQ(scope.delta().num_allocations + scope.delta().num_reallocations, 0);
  EXPECT_EQ(data->length, 1000);
}

TEST(FixedSizeListBuilderTest, RoundTripNullsAndWrongChildLength) {
  auto pool = MakeSystemMemoryPool();
  auto builder = *FixedSizeListBuilder::Make(fixed_size_list(float32(), 2), pool.get());
  auto* values = static_cast<FloatBuilder*>(builder->value_builder());
  ASSERT_TRUE(builder->Append().ok());
  ASSERT_TRUE(values->Append(1.5f).ok());
  ASSERT_TRUE(values->Append(2.5f).ok());
  ASSERT_TRUE(builder->AppendNull().ok());  // appends two empty child values
  ASSERT_TRUE(builder->Append().ok());
  ASSERT_TRUE(values->AppendNull().ok());
  ASSERT_TRUE(values->Append(-1.0f).ok());
  auto data = *builder->Finish();
  ASSERT_TRUE(ValidateFull(*data).ok());
  FixedSizeListArray array(data);
  EXPECT_EQ(array.values().length(), 6);
  EXPECT_EQ(array.ToString(), "[[1.5, 2.5], null, [null, -1]]");
  EXPECT_EQ(array.Slice(1, 2).ToString(), "[null, [null, -1]]");
  EXPECT_EQ(array.Slice(2, 1).value_slice(0).ToString(), "[null, -1]");

  ASSERT_TRUE(builder->Append().ok());
  ASSERT_TRUE(values->Append(1.0f).ok());
  auto status = builder->Finish().status();
  EXPECT_TRUE(status.IsInvalid());
  EXPECT_NE(status.message().find("needs 2 child elements, got 1"), std::string::npos) << status.ToString();
}

TEST(StructBuilderTest, RoundTripAndFieldSlicing) {
  auto pool = MakeSystemMemoryPool();
  auto type = struct_({field("a", int32()), field("b", utf8())});
  auto builder = *StructBuilder::Make(type, pool.get());
  auto* a = static_cast<Int32Builder*>(builder->field_builder(0));
  auto* b = static_cast<StringBuilder*>(builder->field_builder(1));
  ASSERT_TRUE(builder->Append().ok());
  ASSERT_TRUE(a->Append(1).ok());
  ASSERT_TRUE(b->Append("x").ok());
  ASSERT_TRUE(builder->AppendNull().ok());
  ASSERT_TRUE(builder->Append().ok());
  ASSERT_TRUE(a->AppendNull().ok());
  ASSERT_TRUE(b->Append("z").ok());
  auto data = *builder->Finish();
  ASSERT_TRUE(ValidateFull(*data).ok());
  StructArray array(data);
  EXPECT_EQ(array.ToString(), R"([{a: 1, b: "x"}, null, {a: null, b: "z"}])");
  auto slice = array.Slice(1, 2);
  EXPECT_EQ(slice.field(1).length(), 2);
  EXPECT_EQ(slice.field(1).ToString(), R"(["", "z"])");
  EXPECT_EQ(slice.ToString(), R"([null, {a: null, b: "z"}])");

  ASSERT_TRUE(builder->Append().ok());
  ASSERT_TRUE(a->Append(1).ok());
  auto status = builder->Finish().status();
  EXPECT_TRUE(status.IsInvalid());
  EXPECT_NE(status.message().find("field 'b' has 0 values for 1 rows"), std::string::npos) << status.ToString();
}

TEST(MapBuilderTest, RoundTrip) {
  auto pool = MakeSystemMemoryPool();
  auto builder = *MapBuilder::Make(map(utf8(), int64()), pool.get());
  auto* keys = static_cast<StringBuilder*>(builder->key_builder());
  auto* items = static_cast<Int64Builder*>(builder->item_builder());
  ASSERT_TRUE(builder->Append().ok());
  ASSERT_TRUE(keys->Append("k").ok());
  ASSERT_TRUE(items->Append(1).ok());
  ASSERT_TRUE(keys->Append("j").ok());
  ASSERT_TRUE(items->AppendNull().ok());
  ASSERT_TRUE(builder->AppendNull().ok());
  ASSERT_TRUE(builder->Append().ok());
  ASSERT_TRUE(builder->Append().ok());
  ASSERT_TRUE(keys->Append("z").ok());
  ASSERT_TRUE(items->Append(26).ok());
  auto data = *builder->Finish();
  ASSERT_TRUE(ValidateFull(*data).ok()) << ValidateFull(*data).ToString();
  MapArray array(data);
  EXPECT_EQ(array.ToString(), R"([{"k": 1, "j": null}, null, {}, {"z": 26}])");
  EXPECT_EQ(array.keys().length(), 3);
  EXPECT_EQ(array.items().ToString(), "[1, null, 26]");
  EXPECT_EQ(array.value_length(0), 2);
  EXPECT_EQ(array.Slice(3, 1).ToString(), R"([{"z": 26}])");
  EXPECT_EQ(data->children[0]->type->ToString(), "struct<key: string not null, value: int64>");

  ASSERT_TRUE(builder->Append().ok());
  ASSERT_TRUE(keys->Append("k").ok());
  EXPECT_TRUE(builder->Finish().status().IsInvalid());  // 1 key, 0 items
  builder->Reset();
  ASSERT_TRUE(builder->Append().ok());
  ASSERT_TRUE(keys->AppendNull().ok());
  ASSERT_TRUE(items->Append(1).ok());
  EXPECT_TRUE(builder->Finish().status().IsInvalid());  // null key
}

TEST(DictionaryBuilderTest, IndicesAgainstDictionary) {
  auto pool = MakeSystemMemoryPool();
  StringBuilder dict_builder(utf8(), pool.get());
  for (auto s : {"red", "green", "blue"}) ASSERT_TRUE(dict_builder.Append(s).ok());
  auto dict = *dict_builder.Finish();

  auto type = dictionary(int8(), utf8());
  DictionaryBuilder builder(type, pool.get());
  EXPECT_TRUE(builder.Finish().status().IsInvalid());  // no dictionary yet
  EXPECT_TRUE(builder.SetDictionary(dict).ok());
  EXPECT_TRUE(builder.SetDictionary(*Int32Builder(int32(), pool.get()).Finish()).IsInvalid());
  ASSERT_TRUE(builder.Append(2).ok());
  EXPECT_TRUE(builder.Append(3).IsInvalid());
  ASSERT_TRUE(builder.AppendNull().ok());
  const int32_t indices[] = {0, 99, 1, 0};
  const uint8_t validity = 0b1101;
  ASSERT_TRUE(builder.AppendIndices(indices, 4, &validity).ok());  // 99 sits under a null
  const int32_t bad[] = {0, 3};
  EXPECT_TRUE(builder.AppendIndices(bad, 2).IsInvalid());
  auto data = *builder.Finish();
  ASSERT_TRUE(ValidateFull(*data).ok()) << ValidateFull(*data).ToString();
  DictionaryArray array(data);
  EXPECT_EQ(array.length(), 6);
  EXPECT_EQ(array.ToString(), R"(["blue", null, "red", null, "green", "red"])");
  EXPECT_EQ(array.GetValueIndex(4), 1);
  EXPECT_EQ(array.indices().type_id(), TypeId::kInt8);
  EXPECT_EQ(array.dictionary().length(), 3);
  EXPECT_EQ(array.Slice(4, 2).ToString(), R"(["green", "red"])");
  // The dictionary survives Finish for the next batch.
  ASSERT_TRUE(builder.Append(1).ok());
  EXPECT_EQ(Array(*builder.Finish()).ToString(), R"(["green"])");
}

TEST(DictionaryBuilderTest, MakeDictionaryArrayChecksIndices) {
  auto pool = MakeSystemMemoryPool();
  StringBuilder dict_builder(utf8(), pool.get());
  ASSERT_TRUE(dict_builder.Append("only").ok());
  auto dict = *dict_builder.Finish();
  Int32Builder indices(int32(), pool.get());
  ASSERT_TRUE(indices.Append(0).ok());
  ASSERT_TRUE(indices.AppendNull().ok());
  auto good = *indices.Finish();
  auto made = MakeDictionaryArray(dictionary(int32(), utf8()), good, dict);
  ASSERT_TRUE(made.ok());
  EXPECT_EQ(Array(*made).ToString(), R"(["only", null])");
  ASSERT_TRUE(indices.Append(1).ok());
  auto bad = *indices.Finish();
  EXPECT_TRUE(MakeDictionaryArray(dictionary(int32(), utf8()), bad, dict).status().IsCorrupt());
  EXPECT_TRUE(MakeDictionaryArray(dictionary(int16(), utf8()), good, dict).status().IsInvalid());
}

// A builder from MakeBuilder for every type yields a valid array after nulls and empty values.
TEST(MakeBuilderTest, EveryTypeBuildsValidArrays) {
  auto pool = MakeSystemMemoryPool();
  std::vector<TypePtr> types = {
      null(), boolean(), int8(), int16(), int32(), int64(), uint8(), uint16(), uint32(), uint64(), float16(),
      float32(), float64(), decimal128(12, 3), decimal256(50, 3), date32(), date64(), time32(TimeUnit::kMilli),
      time64(TimeUnit::kNano), timestamp(TimeUnit::kMicro, "UTC"), duration(TimeUnit::kSecond), binary(), utf8(),
      large_binary(), large_utf8(), binary_view(), utf8_view(), fixed_size_binary(5), fixed_size_binary(0), list(int32()),
      large_list(utf8()), fixed_size_list(int16(), 3), struct_({field("a", int8()), field("b", list(utf8()))}),
      map(utf8(), float64())};
  for (const TypePtr& type : types) {
    auto builder = MakeBuilder(type, pool.get());
    ASSERT_TRUE(builder.ok()) << type->ToString();
    ASSERT_TRUE((*builder)->Reserve(10).ok());
    ASSERT_TRUE((*builder)->AppendNulls(2).ok()) << type->ToString();
    ASSERT_TRUE((*builder)->AppendEmptyValues(3).ok()) << type->ToString();
    ASSERT_TRUE((*builder)->AppendNull().ok());
    EXPECT_EQ((*builder)->length(), 6);
    auto data = (*builder)->Finish();
    ASSERT_TRUE(data.ok()) << type->ToString() << ": " << data.status().ToString();
    EXPECT_TRUE((*data)->type->Equals(*type));
    EXPECT_EQ((*data)->length, 6);
    EXPECT_EQ((*data)->GetNullCount(), type->id() == TypeId::kNull ? 6 : 3) << type->ToString();
    Status st = ValidateFull(**data, {.check_utf8 = true});
    EXPECT_TRUE(st.ok()) << type->ToString() << ": " << st.ToString();
    Array array(*data);
    EXPECT_TRUE(array.IsNull(0));
    EXPECT_TRUE(array.IsNull(5));
    EXPECT_EQ(array.IsValid(2), type->id() != TypeId::kNull);
    EXPECT_TRUE(array.Equals(array.Slice(0)));
  }
  auto dict = MakeBuilder(dictionary(int32(), utf8()), pool.get());
  ASSERT_TRUE(dict.ok());
  EXPECT_TRUE((*dict)->AppendEmptyValue().IsInvalid());  // needs a dictionary first
}

TEST(MakeBuilderTest, MemoryIsReturnedToThePool) {
  auto pool = MakeSystemMemoryPool();
  {
    auto builder = *MakeBuilder(struct_({field("a", list(utf8())), field("m", map(int32(), utf8()))}), pool.get());
    ASSERT_TRUE(builder->AppendNulls(100).ok());
    auto data = *builder->Finish();
    EXPECT_GT(pool->bytes_in_use(), 0);
    EXPECT_GT(builder->memory_size(), -1);
  }
  EXPECT_EQ(pool->bytes_in_use(), 0);
}

// Sparse and dense unions built slot by slot: ids, offsets and members as Arrow lays them out,
// equality, printing and filtering, and the member lengths Finish checks.
TEST(UnionBuilderTest, SparseAndDense) {
  auto pool = MakeSystemMemoryPool();
  for (const bool dense : {false, true}) {
    SCOPED_TRACE(dense ? "dense" : "sparse");
    std::vector<FieldPtr> members{field("i", int32()), field("s", utf8())};
    const TypePtr type = dense ? dense_union(members, {5, 7}) : sparse_union(members, {5, 7});
    auto made = MakeBuilder(type, pool.get());
    ASSERT_TRUE(made.ok()) << made.status().ToString();
    auto* builder = dynamic_cast<UnionBuilder*>(made->get());
    ASSERT_NE(builder, nullptr);
    auto* ints = dynamic_cast<Int32Builder*>(builder->member_builder(0));
    auto* strings = dynamic_cast<StringBuilder*>(builder->member_builder(1));
    ASSERT_TRUE(ints != nullptr && strings != nullptr);
    ASSERT_TRUE(builder->Append(5).ok());
    ASSERT_TRUE(ints->Append(42).ok());
    ASSERT_TRUE(builder->Append(7).ok());
    ASSERT_TRUE(strings->Append("a").ok());
    ASSERT_TRUE(builder->AppendNull().ok());
    ASSERT_TRUE(builder->Append(7).ok());
    ASSERT_TRUE(strings->AppendNull().ok());
    EXPECT_TRUE(builder->Append(6).IsInvalid());
    auto data = builder->Finish();
    ASSERT_TRUE(data.ok()) << data.status().ToString();
    ASSERT_TRUE(ValidateFull(**data).ok()) << ValidateFull(**data).ToString();
    const Array array(*data);
    EXPECT_EQ(array.length(), 4);
    EXPECT_EQ((*data)->children[0]->length, dense ? 2 : 4);
    EXPECT_EQ(PrettyPrint(array), "[5: 42, 7: \"a\", 5: null, 7: null]");
    EXPECT_EQ(UnionArray(array).LogicalNullCount(), 2);
    EXPECT_TRUE(array.Equals(array.Slice(0)));
    EXPECT_FALSE(array.Slice(0, 1).Equals(array.Slice(2, 1)));
    EXPECT_EQ(PrettyPrint(array.Slice(1, 2)), "[7: \"a\", 5: null]");
    const uint8_t selection = 0b1010;  // rows 1 and 3
    auto filtered = Filter(array, &selection, 0, -1, pool.get());
    ASSERT_TRUE(filtered.ok()) << filtered.status().ToString();
    EXPECT_TRUE(ValidateFull(*filtered->data()).ok());
    EXPECT_EQ(PrettyPrint(*filtered), "[7: \"a\", 7: null]");
    auto empty = Filter(array, &selection, 4, 0, pool.get());  // nothing selected
    ASSERT_TRUE(empty.ok()) << empty.status().ToString();
    EXPECT_EQ(empty->length(), 0);
  }
  // A member left out of step with the slots fails at Finish.
  auto lonely = UnionBuilder::Make(dense_union({field("i", int32())}, {0}), pool.get());
  ASSERT_TRUE(lonely.ok());
  ASSERT_TRUE((*lonely)->Append(0).ok());
  EXPECT_TRUE((*lonely)->Finish().status().IsInvalid());
}

}  // namespace
}  // namespace strata
