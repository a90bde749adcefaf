// Tests of the level builder: exact levels and ranges for each nested shape (the Dremel
// paper's example among them), slices at every level, the errors, buffer reuse, and random
// nested arrays checked against a plain recursive shredder written here.
#include "strata/parquet/write/level_builder.h"

#include <gtest/gtest.h>

#include <optional>
#include <random>
#include <string>
#include <vector>

#include "strata/array/binary_builder.h"
#include "strata/array/dictionary_builder.h"
#include "strata/array/list_builder.h"
#include "strata/array/map_builder.h"
#include "strata/array/primitive_builder.h"
#include "strata/array/struct_builder.h"
#include "strata/array/validate.h"
#include "strata/memory/memory_scope.h"
#include "strata/util/bit_util.h"

namespace strata::parquet {
namespace {

using Levels = std::vector<int16_t>;
using Ranges = std::vector<std::pair<int64_t, int64_t>>;

class LevelBuilderTest : public ::testing::Test {
 protected:
  std::unique_ptr<MemoryPool> pool_ = MakeSystemMemoryPool();

  std::shared_ptr<Buffer> Bitmap(const std::vector<bool>& valid) {
    if (valid.empty()) return nullptr;
    auto buffer = *AllocateBuffer(pool_.get(), bit_util::BytesForBits(static_cast<int64_t>(valid.size())));
    std::memset(buffer->mutable_data(), 0, static_cast<size_t>(buffer->size()));
    for (size_t i = 0; i < valid.size(); ++i) bit_util::SetBitTo(buffer->mutable_data(), static_cast<int64_t>(i), valid[i]);
    return buffer;
  }
  template <typename T>
  std::shared_ptr<Buffer> Values(const std::vector<T>& values) {
    auto buffer = *AllocateBuffer(pool_.get(), static_cast<int64_t>(values.size() * sizeof(T)));
    if (!values.empty()) std::memcpy(buffer->mutable_data(), values.data(), values.size() * sizeof(T));
    return buffer;
  }
  ArrayDataPtr Int32s(const std::vector<std::optional<int32_t>>& values) {
    Int32Builder builder(int32(), pool_.get());
    for (const auto& v : values) EXPECT_TRUE((v ? builder.Append(*v) : builder.AppendNull()).ok());
    return *builder.Finish();
  }
  ArrayDataPtr Strings(const std::vector<std::optional<std::string>>& values) {
    StringBuilder builder(utf8(), pool_.get());
    for (const auto& v : values) EXPECT_TRUE((v ? builder.Append(*v) : builder.AppendNull()).ok());
    return *builder.Finish();
  }
  // A list (int32 offsets: list or map) or large_list array by hand; `valid` empty = no bitmap.
  template <typename OffsetT = int32_t>
  ArrayDataPtr ListOf(TypePtr type, const std::vector<OffsetT>& offsets, const std::vector<bool>& valid,
                      ArrayDataPtr child) {
    auto data = ArrayData::Make(std::move(type), static_cast<int64_t>(offsets.size()) - 1,
                                {Bitmap(valid), Values(offsets)});
    data->children.push_back(std::move(child));
    return data;
  }
  ArrayDataPtr StructOf(TypePtr type, int64_t length, const std::vector<bool>& valid,
                        std::vector<ArrayDataPtr> children) {
    auto data = ArrayData::Make(std::move(type), length, {Bitmap(valid)});
    data->children = std::move(children);
    return data;
  }
  ArrayDataPtr FixedSizeListOf(TypePtr type, int64_t length, const std::vector<bool>& valid, ArrayDataPtr child) {
    auto data = ArrayData::Make(std::move(type), length, {Bitmap(valid)});
    data->children.push_back(std::move(child));
    return data;
  }

  std::unique_ptr<LevelBuilder> MakeBuilder(const FieldPtr& f) {
    auto made = LevelBuilder::Make(*f, pool_.get());
    EXPECT_TRUE(made.ok()) << made.status().ToString();
    return std::move(*made);
  }
};

Levels Defs(const ShreddedLeaf& leaf) {
  if (leaf.def_levels == nullptr) return {};
  return Levels(leaf.def_levels, leaf.def_levels + leaf.num_levels);
}
Levels Reps(const ShreddedLeaf& leaf) {
  if (leaf.rep_levels == nullptr) return {};
  return Levels(leaf.rep_levels, leaf.rep_levels + leaf.num_levels);
}
Ranges RangesOf(const ShreddedLeaf& leaf) { return Ranges(leaf.ranges.begin(), leaf.ranges.end()); }

int64_t ValueSlots(const ShreddedLeaf& leaf) {
  int64_t n = 0;
  for (int64_t i = 0; i < leaf.num_levels; ++i) {
    n += leaf.def_levels == nullptr || leaf.def_levels[i] >= leaf.value_slot_definition_level;
  }
  return n;
}

// Every leaf's contract: ranges cover exactly the value slots, in bounds of `values`.
void ExpectConsistent(const LevelBuilder& builder) {
  for (int i = 0; i < builder.num_leaves(); ++i) {
    const ShreddedLeaf& leaf = builder.leaf(i);
    int64_t covered = 0;
    for (const auto& [begin, end] : leaf.ranges) {
      EXPECT_LT(begin, end);
      EXPECT_GE(begin, 0);
      EXPECT_LE(end, leaf.values->length);
      covered += end - begin;
    }
    EXPECT_EQ(covered, ValueSlots(leaf)) << "leaf " << i;
  }
}

#define EXPECT_LEAF(builder, i, defs, reps, ranges)        \
  do {                                                     \
    const ShreddedLeaf& leaf_ = (builder).leaf(i);           \
    EXPECT_EQ(Defs(leaf_), Levels(defs)) << "leaf " << i;  \
    EXPECT_EQ(Reps(leaf_), Levels(reps)) << "leaf " << i;  \
    EXPECT_EQ(RangesOf(leaf_), Ranges(ranges)) << "leaf " << i; \
  } while (0)

TEST_F(LevelBuilderTest, FlatRequired) {
  auto builder = MakeBuilder(field("a", int32(), /*nullable=*/false));
  ASSERT_EQ(builder->num_leaves(), 1);
  auto array = Int32s({1, 2, 3});
  ASSERT_TRUE(builder->Build(*array).ok());
  const ShreddedLeaf& leaf = builder->leaf(0);
  EXPECT_EQ(leaf.path, std::vector<std::string>{"a"});
  EXPECT_EQ(leaf.max_definition_level, 0);
  EXPECT_EQ(leaf.max_repetition_level, 0);
  EXPECT_EQ(leaf.value_slot_definition_level, 0);
  EXPECT_EQ(leaf.num_levels, 3);
  EXPECT_EQ(leaf.def_levels, nullptr);
  EXPECT_EQ(leaf.rep_levels, nullptr);
  EXPECT_EQ(leaf.values.get(), array.get());
  EXPECT_EQ(RangesOf(leaf), (Ranges{{0, 3}}));
}

TEST_F(LevelBuilderTest, FlatOptionalFromBitmapAtAnyOffset) {
  auto builder = MakeBuilder(field("a", int32()));
  std::vector<std::optional<int32_t>> values;
  for (int i = 0; i < 203; ++i) values.push_back(i % 3 == 0 || i % 7 == 0 ? std::nullopt : std::optional(i));
  auto array = Int32s(values);
  for (int64_t offset : {0, 1, 5, 64, 70}) {
    for (int64_t length : {int64_t{0}, int64_t{1}, int64_t{64}, int64_t{130}, 203 - offset}) {
      auto slice = array->Slice(offset, length);
      ASSERT_TRUE(builder->Build(*slice).ok());
      const ShreddedLeaf& leaf = builder->leaf(0);
      EXPECT_EQ(leaf.max_definition_level, 1);
      EXPECT_EQ(leaf.value_slot_definition_level, 0);
      EXPECT_EQ(leaf.rep_levels, nullptr);
      ASSERT_EQ(leaf.num_levels, length);
      Levels expected;
      for (int64_t i = 0; i < length; ++i) expected.push_back(values[static_cast<size_t>(offset + i)] ? 1 : 0);
      EXPECT_EQ(Defs(leaf), expected) << "offset " << offset << " length " << length;
      EXPECT_EQ(RangesOf(leaf), (length == 0 ? Ranges{} : Ranges{{0, length}}));
      EXPECT_EQ(leaf.values->offset, offset);
    }
  }
  // Optional without nulls: all present.
  auto full = Int32s({4, 5});
  ASSERT_TRUE(builder->Build(*full).ok());
  EXPECT_LEAF(*builder, 0, (Levels{1, 1}), Levels{}, (Ranges{{0, 2}}));
}

TEST_F(LevelBuilderTest, NullTypeLeaf) {
  auto builder = MakeBuilder(field("n", null()));
  auto array = ArrayData::Make(null(), 3, {nullptr}, 3);
  ASSERT_TRUE(builder->Build(*array).ok());
  EXPECT_LEAF(*builder, 0, (Levels{0, 0, 0}), Levels{}, (Ranges{{0, 3}}));
}

// The Dremel paper's Document: non-null lists of non-null elements shred as its repeated
// fields do, so the levels are the paper's.
TEST_F(LevelBuilderTest, DremelDocument) {
  auto ints = list(field("element", int64(), false));
  auto language = struct_({field("Code", utf8(), false), field("Country", utf8())});
  auto name = struct_({field("Language", list(field("element", language, false)), false), field("Url", utf8())});
  auto links = struct_({field("Backward", ints, false), field("Forward", ints, false)});
  auto document = struct_({field("DocId", int64(), false), field("Links", links),
                           field("Name", list(field("element", name, false)), false)});
  auto builder = MakeBuilder(field("Document", document, false));
  ASSERT_EQ(builder->num_leaves(), 6);

  auto pool = pool_.get();
  auto doc_builder = *StructBuilder::Make(document, pool);
  auto* doc_id = static_cast<Int64Builder*>(doc_builder->field_builder(0));
  auto* links_b = static_cast<StructBuilder*>(doc_builder->field_builder(1));
  auto* backward = static_cast<ListBuilder<int32_t>*>(links_b->field_builder(0));
  auto* forward = static_cast<ListBuilder<int32_t>*>(links_b->field_builder(1));
  auto* names = static_cast<ListBuilder<int32_t>*>(doc_builder->field_builder(2));
  auto* name_b = static_cast<StructBuilder*>(names->value_builder());
  auto* languages = static_cast<ListBuilder<int32_t>*>(name_b->field_builder(0));
  auto* url = static_cast<StringBuilder*>(name_b->field_builder(1));
  auto* language_b = static_cast<StructBuilder*>(languages->value_builder());
  auto* code = static_cast<StringBuilder*>(language_b->field_builder(0));
  auto* country = static_cast<StringBuilder*>(language_b->field_builder(1));
  const auto add_ints = [](ListBuilder<int32_t>* b, std::vector<int64_t> values) {
    ASSERT_TRUE(b->Append().ok());
    for (auto v : values) ASSERT_TRUE(static_cast<Int64Builder*>(b->value_builder())->Append(v).ok());
  };
  const auto add_language = [&](const char* c, const char* k) {
    ASSERT_TRUE(language_b->Append().ok());
    ASSERT_TRUE(code->Append(c).ok());
    ASSERT_TRUE((k ? country->Append(k) : country->AppendNull()).ok());
  };
  // r1
  ASSERT_TRUE(doc_builder->Append().ok());
  ASSERT_TRUE(doc_id->Append(10).ok());
  ASSERT_TRUE(links_b->Append().ok());
  add_ints(backward, {});
  add_ints(forward, {20, 40, 60});
  ASSERT_TRUE(names->Append().ok());
  ASSERT_TRUE(name_b->Append().ok());
  ASSERT_TRUE(languages->Append().ok());
  add_language("en-us", "us");
  add_language("en", nullptr);
  ASSERT_TRUE(url->Append("http://A").ok());
  ASSERT_TRUE(name_b->Append().ok());
  ASSERT_TRUE(languages->Append().ok());
  ASSERT_TRUE(url->Append("http://B").ok());
  ASSERT_TRUE(name_b->Append().ok());
  ASSERT_TRUE(languages->Append().ok());
  add_language("en-gb", "gb");
  ASSERT_TRUE(url->AppendNull().ok());
  // r2
  ASSERT_TRUE(doc_builder->Append().ok());
  ASSERT_TRUE(doc_id->Append(20).ok());
  ASSERT_TRUE(links_b->Append().ok());
  add_ints(backward, {10, 30});
  add_ints(forward, {80});
  ASSERT_TRUE(names->Append().ok());
  ASSERT_TRUE(name_b->Append().ok());
  ASSERT_TRUE(languages->Append().ok());
  ASSERT_TRUE(url->Append("http://C").ok());
  auto array = *doc_builder->Finish();
  ASSERT_TRUE(ValidateFull(*array).ok());

  ASSERT_TRUE(builder->Build(*array).ok());
  EXPECT_EQ(builder->leaf(0).path, (std::vector<std::string>{"Document", "DocId"}));
  EXPECT_EQ(builder->leaf(1).path, (std::vector<std::string>{"Document", "Links", "Backward", "list", "element"}));
  EXPECT_EQ(builder->leaf(3).path,
            (std::vector<std::string>{"Document", "Name", "list", "element", "Language", "list", "element", "Code"}));
  const int16_t max_defs[] = {0, 2, 2, 2, 3, 2};
  const int16_t max_reps[] = {0, 1, 1, 2, 2, 1};
  for (int i = 0; i < 6; ++i) {
    EXPECT_EQ(builder->leaf(i).max_definition_level, max_defs[i]) << i;
    EXPECT_EQ(builder->leaf(i).max_repetition_level, max_reps[i]) << i;
  }
  EXPECT_LEAF(*builder, 0, Levels{}, Levels{}, (Ranges{{0, 2}}));
  EXPECT_EQ(builder->leaf(0).num_levels, 2);
  EXPECT_LEAF(*builder, 1, (Levels{1, 2, 2}), (Levels{0, 0, 1}), (Ranges{{0, 2}}));
  EXPECT_LEAF(*builder, 2, (Levels{2, 2, 2, 2}), (Levels{0, 1, 1, 0}), (Ranges{{0, 4}}));
  EXPECT_LEAF(*builder, 3, (Levels{2, 2, 1, 2, 1}), (Levels{0, 2, 1, 1, 0}), (Ranges{{0, 3}}));
  EXPECT_LEAF(*builder, 4, (Levels{3, 2, 1, 3, 1}), (Levels{0, 2, 1, 1, 0}), (Ranges{{0, 3}}));
  EXPECT_LEAF(*builder, 5, (Levels{2, 2, 1, 2}), (Levels{0, 1, 1, 0}), (Ranges{{0, 4}}));
  EXPECT_EQ(builder->leaf(5).value_slot_definition_level, 1);
  ExpectConsistent(*builder);
}

TEST_F(LevelBuilderTest, ListWithNullAndEmptyListsAndNullElements) {
  auto type = list(int32());
  auto builder = MakeBuilder(field("l", type));
  // [[1, 2], null, [], [3, null, 5], [6]]
  auto array = ListOf(type, {0, 2, 2, 2, 5, 6}, {true, false, true, true, true}, Int32s({1, 2, 3, std::nullopt, 5, 6}));
  ASSERT_TRUE(builder->Build(*array).ok());
  const ShreddedLeaf& leaf = builder->leaf(0);
  EXPECT_EQ(leaf.path, (std::vector<std::string>{"l", "list", "element"}));
  EXPECT_EQ(leaf.max_definition_level, 3);
  EXPECT_EQ(leaf.max_repetition_level, 1);
  EXPECT_EQ(leaf.value_slot_definition_level, 2);
  EXPECT_EQ(leaf.values.get(), array->children[0].get());
  EXPECT_LEAF(*builder, 0, (Levels{3, 3, 0, 1, 3, 2, 3, 3}), (Levels{0, 1, 0, 0, 0, 1, 1, 0}), (Ranges{{0, 6}}));
  // Sliced list: [[], [3, null, 5], [6]].
  ASSERT_TRUE(builder->Build(*array->Slice(2, 3)).ok());
  EXPECT_LEAF(*builder, 0, (Levels{1, 3, 2, 3, 3}), (Levels{0, 0, 1, 1, 0}), (Ranges{{2, 6}}));
  ExpectConsistent(*builder);
}

TEST_F(LevelBuilderTest, ListGapsAndChildrenOfNullListsAreNotWritten) {
  auto type = large_list(int32());
  auto builder = MakeBuilder(field("l", type, /*nullable=*/false));
  // The child is itself a slice (offset 1) of [99, 10, ..., 17]; the null lists cover 12 and
  // 14: [[10, 11], null, [13], null, [15, 16, 17]].
  auto child = Int32s({99, 10, 11, 12, 13, 14, 15, 16, 17})->Slice(1, 8);
  auto array = ListOf<int64_t>(type, {0, 2, 3, 4, 5, 8}, {true, false, true, false, true}, child)->Slice(0, 5);
  // Rows 1 and 3 are null but the field is not nullable: rejected ...
  auto status = builder->Build(*array);
  EXPECT_TRUE(status.IsInvalid());
  EXPECT_NE(status.message().find("'l'"), std::string::npos) << status.ToString();
  EXPECT_NE(status.message().find("2 nulls"), std::string::npos) << status.ToString();
  // ... while a nullable field writes it as one entry.
  auto nullable = MakeBuilder(field("l", type));
  ASSERT_TRUE(nullable->Build(*array).ok());
  EXPECT_LEAF(*nullable, 0, (Levels{3, 3, 0, 3, 0, 3, 3, 3}), (Levels{0, 1, 0, 0, 0, 0, 1, 1}),
              (Ranges{{0, 2}, {3, 4}, {5, 8}}));
  EXPECT_EQ(nullable->leaf(0).values->offset, 1);
  // Offsets past the child are refused.
  auto bad = ListOf<int64_t>(type, {0, 2, 9}, {}, child);
  EXPECT_TRUE(nullable->Build(*bad).IsInvalid());
}

TEST_F(LevelBuilderTest, ListOfListOfStrings) {
  auto inner = list(utf8());
  auto type = list(inner);
  auto builder = MakeBuilder(field("ll", type));
  // [[["a", "b"], []], null, [], [null, ["c", null]]]
  auto strings = Strings({"a", "b", "c", std::nullopt});
  auto inner_array = ListOf(inner, {0, 2, 2, 2, 4}, {true, true, false, true}, strings);
  auto array = ListOf(type, {0, 2, 2, 2, 4}, {true, false, true, true}, inner_array);
  ASSERT_TRUE(builder->Build(*array).ok());
  const ShreddedLeaf& leaf = builder->leaf(0);
  EXPECT_EQ(leaf.path, (std::vector<std::string>{"ll", "list", "element", "list", "element"}));
  EXPECT_EQ(leaf.max_definition_level, 5);
  EXPECT_EQ(leaf.max_repetition_level, 2);
  EXPECT_LEAF(*builder, 0, (Levels{5, 5, 3, 0, 1, 2, 5, 4}), (Levels{0, 2, 1, 0, 0, 0, 1, 2}), (Ranges{{0, 4}}));
  // Outer slice [[null, ["c", null]]] over an inner slice starting at its element 1.
  auto inner_slice = inner_array->Slice(1, 3);  // [[], null, ["c", null]]
  auto outer = ListOf(type, {1, 3}, {}, inner_slice);
  ASSERT_TRUE(builder->Build(*outer).ok());
  EXPECT_LEAF(*builder, 0, (Levels{2, 5, 4}), (Levels{0, 1, 2}), (Ranges{{2, 4}}));
  ExpectConsistent(*builder);
}

TEST_F(LevelBuilderTest, StructWithListMemberAndNullStructs) {
  auto b_type = list(int32());
  auto type = struct_({field("a", int32()), field("b", b_type)});
  auto builder = MakeBuilder(field("s", type));
  ASSERT_EQ(builder->num_leaves(), 2);
  // [{a: 1, b: [1, 2]}, null, {a: null, b: null}, {a: 3, b: []}, {a: 4, b: [5]}]; the null
  // struct's member list holds [7], which is not written.
  auto a = Int32s({1, 0, std::nullopt, 3, 4});
  auto b = ListOf(b_type, {0, 2, 3, 3, 3, 4}, {true, true, false, true, true}, Int32s({1, 2, 7, 5}));
  auto array = StructOf(type, 5, {true, false, true, true, true}, {a, b});
  ASSERT_TRUE(builder->Build(*array).ok());
  EXPECT_EQ(builder->leaf(0).path, (std::vector<std::string>{"s", "a"}));
  EXPECT_EQ(builder->leaf(1).path, (std::vector<std::string>{"s", "b", "list", "element"}));
  EXPECT_EQ(builder->leaf(0).max_definition_level, 2);
  EXPECT_EQ(builder->leaf(1).max_definition_level, 4);
  EXPECT_LEAF(*builder, 0, (Levels{2, 0, 1, 2, 2}), Levels{}, (Ranges{{0, 1}, {2, 5}}));
  EXPECT_LEAF(*builder, 1, (Levels{4, 4, 0, 1, 2, 4}), (Levels{0, 1, 0, 0, 0, 0}), (Ranges{{0, 2}, {3, 4}}));
  ExpectConsistent(*builder);
  // The struct sliced: [null, {a: null, b: null}, {a: 3, b: []}, {a: 4, b: [5]}].
  ASSERT_TRUE(builder->Build(*array->Slice(1, 4)).ok());
  EXPECT_LEAF(*builder, 0, (Levels{0, 1, 2, 2}), Levels{}, (Ranges{{2, 5}}));
  EXPECT_LEAF(*builder, 1, (Levels{0, 1, 2, 4}), (Levels{0, 0, 0, 0}), (Ranges{{3, 4}}));
  // Members that are slices themselves (offset 2 on top of the struct's).
  auto a2 = Int32s({8, 8, 1, 0, std::nullopt, 3, 4})->Slice(2, 5);
  auto array2 = StructOf(type, 5, {true, false, true, true, true}, {a2, b})->Slice(3, 2);
  ASSERT_TRUE(builder->Build(*array2).ok());
  EXPECT_LEAF(*builder, 0, (Levels{2, 2}), Levels{}, (Ranges{{3, 5}}));
  EXPECT_EQ(builder->leaf(0).values->offset, 2);
  EXPECT_LEAF(*builder, 1, (Levels{2, 4}), (Levels{0, 0}), (Ranges{{3, 4}}));
}

TEST_F(LevelBuilderTest, ListOfSlicedStructsOfSlicedMembers) {
  auto struct_type = struct_({field("a", int32())});
  auto type = list(struct_type);
  auto builder = MakeBuilder(field("l", type));
  // Member a = [1, 2, 3, 4, 5] (offset 1); the struct [{1}, {2}, null, {4}, {5}] sliced from
  // 1: [{2}, null, {4}, {5}]; the list: [[{2}, null], [{4}, {5}]].
  auto a = Int32s({0, 1, 2, 3, 4, 5})->Slice(1, 5);
  auto structs = StructOf(struct_type, 5, {true, true, false, true, true}, {a})->Slice(1, 4);
  auto array = ListOf(type, {0, 2, 4}, {}, structs);
  ASSERT_TRUE(builder->Build(*array).ok());
  EXPECT_EQ(builder->leaf(0).max_definition_level, 4);
  EXPECT_LEAF(*builder, 0, (Levels{4, 2, 4, 4}), (Levels{0, 1, 0, 1}), (Ranges{{1, 2}, {3, 5}}));
  EXPECT_EQ(builder->leaf(0).values.get(), a.get());
}

TEST_F(LevelBuilderTest, NonNullableMemberMayHoldNullsUnderANullStruct) {
  auto type = struct_({field("a", int32(), false)});
  auto builder = MakeBuilder(field("s", type));
  auto under_null = StructOf(type, 3, {true, false, true}, {Int32s({1, std::nullopt, 3})});
  ASSERT_TRUE(builder->Build(*under_null).ok());
  EXPECT_LEAF(*builder, 0, (Levels{1, 0, 1}), Levels{}, (Ranges{{0, 1}, {2, 3}}));
  auto written = StructOf(type, 3, {true, true, true}, {Int32s({1, std::nullopt, 3})});
  auto status = builder->Build(*written);
  EXPECT_TRUE(status.IsInvalid());
  EXPECT_NE(status.message().find("'s.a'"), std::string::npos) << status.ToString();
  EXPECT_NE(status.message().find("1 nulls"), std::string::npos) << status.ToString();
  // A non-nullable list element with a null is named by its Parquet path.
  auto list_type = list(field("item", int32(), false));
  auto list_builder = MakeBuilder(field("l", list_type));
  auto bad = ListOf(list_type, {0, 2}, {}, Int32s({1, std::nullopt}));
  status = list_builder->Build(*bad);
  EXPECT_TRUE(status.IsInvalid());
  EXPECT_NE(status.message().find("'l.list.element'"), std::string::npos) << status.ToString();
}

TEST_F(LevelBuilderTest, MapWithNullValuesAndEmptyMaps) {
  auto type = map(utf8(), int32());
  auto builder = MakeBuilder(field("m", type));
  ASSERT_EQ(builder->num_leaves(), 2);
  auto map_builder = *MapBuilder::Make(type, pool_.get());
  auto* keys = static_cast<StringBuilder*>(map_builder->key_builder());
  auto* items = static_cast<Int32Builder*>(map_builder->item_builder());
  // [{"k": 1, "j": null}, null, {}, {"z": 26}]
  ASSERT_TRUE(map_builder->Append().ok());
  ASSERT_TRUE(keys->Append("k").ok());
  ASSERT_TRUE(items->Append(1).ok());
  ASSERT_TRUE(keys->Append("j").ok());
  ASSERT_TRUE(items->AppendNull().ok());
  ASSERT_TRUE(map_builder->AppendNull().ok());
  ASSERT_TRUE(map_builder->Append().ok());
  ASSERT_TRUE(map_builder->Append().ok());
  ASSERT_TRUE(keys->Append("z").ok());
  ASSERT_TRUE(items->Append(26).ok());
  auto array = *map_builder->Finish();
  ASSERT_TRUE(builder->Build(*array).ok());
  EXPECT_EQ(builder->leaf(0).path, (std::vector<std::string>{"m", "key_value", "key"}));
  EXPECT_EQ(builder->leaf(1).path, (std::vector<std::string>{"m", "key_value", "value"}));
  EXPECT_EQ(builder->leaf(0).max_definition_level, 2);
  EXPECT_EQ(builder->leaf(0).value_slot_definition_level, 2);
  EXPECT_EQ(builder->leaf(1).max_definition_level, 3);
  EXPECT_EQ(builder->leaf(1).value_slot_definition_level, 2);
  EXPECT_LEAF(*builder, 0, (Levels{2, 2, 0, 1, 2}), (Levels{0, 1, 0, 0, 0}), (Ranges{{0, 3}}));
  EXPECT_LEAF(*builder, 1, (Levels{3, 2, 0, 1, 3}), (Levels{0, 1, 0, 0, 0}), (Ranges{{0, 3}}));
  ASSERT_TRUE(builder->Build(*array->Slice(3, 1)).ok());
  EXPECT_LEAF(*builder, 0, (Levels{2}), (Levels{0}), (Ranges{{2, 3}}));
  EXPECT_LEAF(*builder, 1, (Levels{3}), (Levels{0}), (Ranges{{2, 3}}));

  // A null key (built by hand: the map builder refuses it) is Invalid, naming the column.
  auto entries = std::make_shared<ArrayData>(*array->children[0]);
  entries->children[0] = Strings({"k", std::nullopt, "z"});
  auto with_null_key = std::make_shared<ArrayData>(*array);
  with_null_key->children[0] = entries;
  auto status = builder->Build(*with_null_key);
  EXPECT_TRUE(status.IsInvalid());
  EXPECT_NE(status.message().find("'m.key_value.key'"), std::string::npos) << status.ToString();
  // ... but not when the null key is outside every written map.
  ASSERT_TRUE(builder->Build(*with_null_key->Slice(2, 2)).ok());
}

TEST_F(LevelBuilderTest, FixedSizeList) {
  auto type = fixed_size_list(int32(), 2);
  auto builder = MakeBuilder(field("f", type));
  // [[1, 2], null, [null, 4]]: the null list's two child slots are not written.
  auto array = FixedSizeListOf(type, 3, {true, false, true}, Int32s({1, 2, 0, 0, std::nullopt, 4}));
  ASSERT_TRUE(builder->Build(*array).ok());
  EXPECT_EQ(builder->leaf(0).path, (std::vector<std::string>{"f", "list", "element"}));
  EXPECT_EQ(builder->leaf(0).max_definition_level, 3);
  EXPECT_LEAF(*builder, 0, (Levels{3, 3, 0, 2, 3}), (Levels{0, 1, 0, 0, 1}), (Ranges{{0, 2}, {4, 6}}));
  ASSERT_TRUE(builder->Build(*array->Slice(1, 2)).ok());
  EXPECT_LEAF(*builder, 0, (Levels{0, 2, 3}), (Levels{0, 0, 1}), (Ranges{{4, 6}}));
  // A sliced child: the list's offset multiplies by the size, the child's adds.
  auto shifted = FixedSizeListOf(type, 3, {}, Int32s({9, 1, 2, 3, 4, 5, 6})->Slice(1, 6))->Slice(2, 1);
  ASSERT_TRUE(builder->Build(*shifted).ok());
  EXPECT_LEAF(*builder, 0, (Levels{3, 3}), (Levels{0, 1}), (Ranges{{4, 6}}));

  // Size 0 behaves like empty lists.
  auto empty_type = fixed_size_list(int32(), 0);
  auto empty_builder = MakeBuilder(field("e", empty_type));
  auto empty = FixedSizeListOf(empty_type, 3, {true, false, true}, Int32s({}));
  ASSERT_TRUE(empty_builder->Build(*empty).ok());
  EXPECT_LEAF(*empty_builder, 0, (Levels{1, 0, 1}), (Levels{0, 0, 0}), Ranges{});
}

TEST_F(LevelBuilderTest, DictionaryLeaf) {
  StringBuilder dict_builder(utf8(), pool_.get());
  for (auto s : {"red", "green"}) ASSERT_TRUE(dict_builder.Append(s).ok());
  auto type = dictionary(int32(), utf8());
  DictionaryBuilder builder(type, pool_.get());
  ASSERT_TRUE(builder.SetDictionary(*dict_builder.Finish()).ok());
  ASSERT_TRUE(builder.Append(1).ok());
  ASSERT_TRUE(builder.AppendNull().ok());
  ASSERT_TRUE(builder.Append(0).ok());
  auto indices = *builder.Finish();
  auto flat = MakeBuilder(field("d", type));
  ASSERT_TRUE(flat->Build(*indices).ok());
  EXPECT_LEAF(*flat, 0, (Levels{1, 0, 1}), Levels{}, (Ranges{{0, 3}}));
  EXPECT_EQ(flat->leaf(0).values->type->id(), TypeId::kDictionary);
  // Under a list, the dictionary array is the leaf's values.
  auto list_type = list(type);
  auto nested = MakeBuilder(field("l", list_type));
  auto array = ListOf(list_type, {0, 1, 3}, {}, indices);
  ASSERT_TRUE(nested->Build(*array).ok());
  EXPECT_LEAF(*nested, 0, (Levels{3, 2, 3}), (Levels{0, 0, 1}), (Ranges{{0, 3}}));
  EXPECT_EQ(nested->leaf(0).values.get(), indices.get());
}

TEST_F(LevelBuilderTest, RejectsMismatchedArraysAndShapelessTypes) {
  EXPECT_TRUE(LevelBuilder::Make(*field("s", struct_({})), pool_.get()).status().IsInvalid());
  auto builder = MakeBuilder(field("a", int32()));
  auto status = builder->Build(*Strings({"x"}));
  EXPECT_TRUE(status.IsInvalid());
  EXPECT_NE(status.message().find("'a'"), std::string::npos) << status.ToString();
  auto type = struct_({field("x", int32())});
  auto nested = MakeBuilder(field("s", type));
  EXPECT_TRUE(nested->Build(*StructOf(type, 1, {}, {Strings({"x"})})).IsInvalid());
}

TEST_F(LevelBuilderTest, SecondBuildOfTheSameShapeAllocatesNothing) {
  auto inner = list(int32());
  auto type = struct_({field("a", int32()), field("b", inner), field("c", map(utf8(), int32()))});
  auto builder = MakeBuilder(field("s", type));
  auto b = ListOf(inner, {0, 2, 3, 3, 3}, {true, true, false, true}, Int32s({1, 2, 7}));
  auto c = ListOf(map(utf8(), int32()), {0, 1, 1, 1, 3}, {},
                  StructOf(map(utf8(), int32())->value_field()->type(), 3, {}, {Strings({"x", "y", "z"}), Int32s({1, std::nullopt, 3})}));
  auto array = StructOf(type, 4, {true, false, true, true}, {Int32s({1, 2, 3, std::nullopt}), b, c});
  ASSERT_TRUE(builder->Build(*array).ok());
  const int64_t held = builder->memory_size();
  EXPECT_GT(held, 0);
  {
    MemoryScope scope(pool_.get());
    ASSERT_TRUE(builder->Build(*array).ok());
    ASSERT_TRUE(builder->Build(*array->Slice(1, 3)).ok());  // smaller: fits too
    EXPECT_EQ(scope.delta().num_allocations, 0);
    EXPECT_EQ(scope.delta().num_reallocations, 0);
  }
  EXPECT_EQ(builder->memory_size(), held);
  ASSERT_TRUE(builder->Build(*array).ok());
  EXPECT_LEAF(*builder, 0, (Levels{2, 0, 2, 1}), Levels{}, (Ranges{{0, 1}, {2, 4}}));
  EXPECT_LEAF(*builder, 1, (Levels{4, 4, 0, 1, 2}), (Levels{0, 1, 0, 0, 0}), (Ranges{{0, 2}}));
  EXPECT_LEAF(*builder, 2, (Levels{3, 0, 2, 3, 3}), (Levels{0, 0, 0, 0, 1}), (Ranges{{0, 3}}));
  ExpectConsistent(*builder);

  auto flat = MakeBuilder(field("f", int32()));
  auto values = Int32s({1, std::nullopt, 3});
  ASSERT_TRUE(flat->Build(*values).ok());
  MemoryScope scope(pool_.get());
  ASSERT_TRUE(flat->Build(*values).ok());
  EXPECT_EQ(scope.delta().num_allocations + scope.delta().num_reallocations, 0);
}

// A plain recursive shredder, one value at a time, as the reference for random arrays.
struct ReferenceLeaf {
  Levels def, rep;
  std::vector<int64_t> elements;  // written elements of the leaf's array, in order
};

int CountLeaves(const TypePtr& type) {
  if (type->id() == TypeId::kStruct) {
    int n = 0;
    for (const auto& member : type->fields()) n += CountLeaves(member->type());
    return n;
  }
  if (is_list_like(type->id())) return CountLeaves(type->value_field()->type());
  return 1;
}

void ReferenceShred(const TypePtr& type, bool nullable, const ArrayData& data, int64_t i, int16_t def_if_null,
                    int16_t rep, int16_t rep_depth, std::vector<ReferenceLeaf>& leaves, size_t first) {
  const uint8_t* bits = data.validity_data();
  const bool valid = type->id() != TypeId::kNull && (bits == nullptr || bit_util::GetBit(bits, data.offset + i));
  const bool leaf = !is_nested(type->id());
  const auto emit = [&](int16_t def) {
    for (size_t k = first; k < first + static_cast<size_t>(CountLeaves(type)); ++k) {
      leaves[k].def.push_back(def);
      leaves[k].rep.push_back(rep);
    }
  };
  if (leaf) {
    leaves[first].def.push_back(static_cast<int16_t>(def_if_null + (valid && nullable ? 1 : 0)));
    leaves[first].rep.push_back(rep);
    leaves[first].elements.push_back(i);
    return;
  }
  if (!valid) return emit(def_if_null);
  const auto present = static_cast<int16_t>(def_if_null + (nullable ? 1 : 0));
  const int64_t position = data.offset + i;
  if (type->id() == TypeId::kStruct) {
    size_t member_first = first;
    for (int k = 0; k < type->num_fields(); ++k) {
      ReferenceShred(type->field(k)->type(), type->field(k)->nullable(), *data.children[static_cast<size_t>(k)],
                     position, present, rep, rep_depth, leaves, member_first);
      member_first += static_cast<size_t>(CountLeaves(type->field(k)->type()));
    }
    return;
  }
  int64_t begin = 0;
  int64_t end = 0;
  if (type->id() == TypeId::kFixedSizeList) {
    begin = position * type->list_size();
    end = begin + type->list_size();
  } else if (type->id() == TypeId::kLargeList) {
    begin = data.buffers[1]->data_as<int64_t>()[position];
    end = data.buffers[1]->data_as<int64_t>()[position + 1];
  } else {
    begin = data.buffers[1]->data_as<int32_t>()[position];
    end = data.buffers[1]->data_as<int32_t>()[position + 1];
  }
  if (begin == end) return emit(present);
  for (int64_t e = begin; e < end; ++e) {
    ReferenceShred(type->value_field()->type(), type->value_field()->nullable(), *data.children[0], e,
                   static_cast<int16_t>(present + 1), e == begin ? rep : static_cast<int16_t>(rep_depth + 1),
                   static_cast<int16_t>(rep_depth + 1), leaves, first);
  }
}

// Appends one random value of `type` to `builder` (null with probability 1/4 when nullable).
void AppendRandom(ArrayBuilder* builder, const TypePtr& type, bool nullable, std::mt19937& rng) {
  const bool null = nullable && rng() % 4 == 0;
  switch (type->id()) {
    case TypeId::kInt32: {
      auto* b = static_cast<Int32Builder*>(builder);
      ASSERT_TRUE((null ? b->AppendNull() : b->Append(static_cast<int32_t>(rng() % 100))).ok());
      return;
    }
    case TypeId::kString: {
      auto* b = static_cast<StringBuilder*>(builder);
      ASSERT_TRUE((null ? b->AppendNull() : b->Append(std::to_string(rng() % 100))).ok());
      return;
    }
    case TypeId::kList:
    case TypeId::kLargeList: {
      const auto add = [&](auto* b) {
        if (null) {
        ASSERT_TRUE(b->AppendNull().ok());
        return;
      }
        ASSERT_TRUE(b->Append().ok());
        for (uint32_t k = rng() % 4; k > 0; --k) {
          AppendRandom(b->value_builder(), type->value_field()->type(), type->value_field()->nullable(), rng);
        }
      };
      if (type->id() == TypeId::kList) return add(static_cast<ListBuilder<int32_t>*>(builder));
      return add(static_cast<ListBuilder<int64_t>*>(builder));
    }
    case TypeId::kFixedSizeList: {
      auto* b = static_cast<FixedSizeListBuilder*>(builder);
      if (null) {
        ASSERT_TRUE(b->AppendNull().ok());
        return;
      }
      ASSERT_TRUE(b->Append().ok());
      for (int k = 0; k < type->list_size(); ++k) {
        AppendRandom(b->value_builder(), type->value_field()->type(), type->value_field()->nullable(), rng);
      }
      return;
    }
    case TypeId::kStruct: {
      auto* b = static_cast<StructBuilder*>(builder);
      if (null) {
        ASSERT_TRUE(b->AppendNull().ok());
        return;
      }
      ASSERT_TRUE(b->Append().ok());
      for (int k = 0; k < type->num_fields(); ++k) {
        AppendRandom(b->field_builder(k), type->field(k)->type(), type->field(k)->nullable(), rng);
      }
      return;
    }
    case TypeId::kMap: {
      auto* b = static_cast<MapBuilder*>(builder);
      if (null) {
        ASSERT_TRUE(b->AppendNull().ok());
        return;
      }
      ASSERT_TRUE(b->Append().ok());
      for (uint32_t k = rng() % 3; k > 0; --k) {
        AppendRandom(b->key_builder(), type->key_type(), false, rng);
        AppendRandom(b->item_builder(), type->item_type(), true, rng);
      }
      return;
    }
    default:
      FAIL() << "no random values for " << type->ToString();
  }
}

TEST_F(LevelBuilderTest, RandomNestedArraysMatchTheReferenceShredder) {
  std::mt19937 rng(20261201);
  const std::vector<FieldPtr> fields = {
      field("a", list(struct_({field("x", int32()), field("y", large_list(utf8()))}))),
      field("b", map(utf8(), list(field("e", int32(), false)))),
      field("c", struct_({field("f", fixed_size_list(int32(), 3)), field("g", list(list(int32()))),
                          field("h", utf8(), false)}), false),
      field("d", large_list(fixed_size_list(struct_({field("p", int32()), field("q", map(int32(), utf8()))}), 2))),
  };
  for (const auto& f : fields) {
    auto builder = MakeBuilder(f);
    ASSERT_EQ(builder->num_leaves(), CountLeaves(f->type()));
    for (int round = 0; round < 4; ++round) {
      auto array_builder = *strata::MakeBuilder(f->type(), pool_.get());
      const int rows = 50 + round * 40;
      for (int r = 0; r < rows; ++r) AppendRandom(array_builder.get(), f->type(), f->nullable(), rng);
      auto array = *array_builder->Finish();
      ASSERT_TRUE(ValidateFull(*array).ok()) << ValidateFull(*array).ToString();
      for (const auto& [offset, length] : std::vector<std::pair<int64_t, int64_t>>{{0, rows}, {7, rows - 20}, {rows - 1, 1}, {3, 0}}) {
        auto slice = array->Slice(offset, length);
        auto status = builder->Build(*slice);
        ASSERT_TRUE(status.ok()) << f->ToString() << ": " << status.ToString();
        std::vector<ReferenceLeaf> expected(static_cast<size_t>(builder->num_leaves()));
        for (int64_t i = 0; i < length; ++i) {
          ReferenceShred(f->type(), f->nullable(), *slice, i, 0, 0, 0, expected, 0);
        }
        ExpectConsistent(*builder);
        for (int k = 0; k < builder->num_leaves(); ++k) {
          const ShreddedLeaf& leaf = builder->leaf(k);
          const ReferenceLeaf& want = expected[static_cast<size_t>(k)];
          SCOPED_TRACE(f->ToString() + " leaf " + std::to_string(k) + " slice " + std::to_string(offset));
          ASSERT_EQ(leaf.num_levels, static_cast<int64_t>(want.def.size()));
          if (leaf.max_definition_level > 0) {
            EXPECT_EQ(Defs(leaf), want.def);
          } else {
            EXPECT_EQ(leaf.def_levels, nullptr);
          }
          if (leaf.max_repetition_level > 0) {
            EXPECT_EQ(Reps(leaf), want.rep);
          } else {
            EXPECT_EQ(leaf.rep_levels, nullptr);
          }
          std::vector<int64_t> elements;
          for (const auto& [begin, end] : leaf.ranges) {
            for (int64_t e = begin; e < end; ++e) elements.push_back(e);
          }
          EXPECT_EQ(elements, want.elements);
          for (size_t r = 1; r < leaf.ranges.size(); ++r) EXPECT_LT(leaf.ranges[r - 1].second, leaf.ranges[r].first);
        }
      }
    }
  }
}

}  // namespace
}  // namespace strata::parquet
