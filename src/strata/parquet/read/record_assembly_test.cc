#include "strata/parquet/read/record_assembly.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "strata/array/array.h"
#include "strata/array/pretty_print.h"
#include "strata/array/validate.h"
#include "strata/util/bit_util.h"

namespace strata::parquet {
namespace {

using R = FieldRepetitionType;

SchemaElement Leaf(std::string name, PhysicalType type, R repetition) {
  SchemaElement e;
  e.name = std::move(name);
  e.type = type;
  e.repetition_type = repetition;
  return e;
}

SchemaElement Group(std::string name, int children, R repetition, std::optional<ConvertedType> converted = {}) {
  SchemaElement e;
  e.name = std::move(name);
  e.num_children = children;
  e.repetition_type = repetition;
  e.converted_type = converted;
  return e;
}

// A schema whose first top-level field is the elements after the root.
std::shared_ptr<SchemaDescriptor> MakeSchema(std::vector<SchemaElement> elements, int top_level_fields = 1) {
  static std::vector<std::vector<SchemaElement>> keep_alive;  // descriptors point into them
  SchemaElement root;
  root.name = "schema";
  root.num_children = top_level_fields;
  elements.insert(elements.begin(), root);
  keep_alive.push_back(std::move(elements));
  auto descriptor = SchemaDescriptor::Make(keep_alive.back());
  EXPECT_TRUE(descriptor.ok()) << descriptor.status().ToString();
  return *descriptor;
}

// An int64 leaf array, slot by slot.
ArrayDataPtr Int64s(const std::vector<std::optional<int64_t>>& slots) {
  const auto n = static_cast<int64_t>(slots.size());
  auto values = *ResizableBuffer::Make(SystemMemoryPool());
  EXPECT_TRUE(values->ResizeZeroed(n * 8).ok());
  auto validity = *ResizableBuffer::Make(SystemMemoryPool());
  EXPECT_TRUE(validity->ResizeZeroed(bit_util::BytesForBits(n)).ok());
  int64_t nulls = 0;
  for (int64_t i = 0; i < n; ++i) {
    if (slots[static_cast<size_t>(i)]) {
      values->mutable_data_as<int64_t>()[i] = *slots[static_cast<size_t>(i)];
      bit_util::SetBit(validity->mutable_data(), i);
    } else {
      ++nulls;
    }
  }
  return ArrayData::Make(int64(), n, {nulls ? validity : nullptr, values}, nulls);
}

struct Leaf_ {
  std::vector<int16_t> def;
  std::vector<int16_t> rep;  // empty: not repeated
  ArrayDataPtr values;
};

Result<ArrayDataPtr> Assemble(const SchemaDescriptor& descriptor, const std::vector<Leaf_>& leaves, int field = 0) {
  STRATA_ASSIGN_OR_RETURN(auto plan, AssemblyPlan::Make(descriptor, field));
  std::vector<LeafLevels> levels;
  for (const auto& leaf : leaves) {
    levels.push_back(LeafLevels{leaf.def.data(), leaf.rep.empty() ? nullptr : leaf.rep.data(),
                                static_cast<int64_t>(leaf.def.size()), leaf.values});
  }
  STRATA_ASSIGN_OR_RETURN(auto out, AssembleRecords(plan, levels, SystemMemoryPool()));
  STRATA_RETURN_NOT_OK(ValidateFull(*out));
  if (!out->type->Equals(*descriptor.schema()->field(field)->type())) {
    return Status::Invalid("type {} differs from the schema's {}", out->type->ToString(),
                           descriptor.schema()->field(field)->type()->ToString());
  }
  return out;
}

std::string Print(const ArrayDataPtr& data) {
  PrettyPrintOptions options;
  options.max_rows = 0;
  return PrettyPrint(Array(data), options);
}

// optional group a (LIST) { repeated group list { optional int64 element } }
std::shared_ptr<SchemaDescriptor> ListOfInt64() {
  return MakeSchema({Group("a", 1, R::kOptional, ConvertedType::kList), Group("list", 1, R::kRepeated),
                     Leaf("element", PhysicalType::kInt64, R::kOptional)});
}

TEST(RecordAssemblyTest, ListWithNullsAndEmptyLists) {
  auto d = ListOfInt64();
  // Rows: [1, null, 2], null, [], [3], [null]
  // def: 3 = value, 2 = null element, 1 = empty list, 0 = null list.
  Leaf_ leaf{{3, 2, 3, 0, 1, 3, 2}, {0, 1, 1, 0, 0, 0, 0}, Int64s({1, std::nullopt, 2, 3, std::nullopt})};
  auto out = Assemble(*d, {leaf});
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_EQ((*out)->length, 5);
  EXPECT_EQ((*out)->null_count, 1);
  EXPECT_EQ(Print(*out), "[[1, null, 2], null, [], [3], [null]]");
}

TEST(RecordAssemblyTest, RequiredListOfRequiredElements) {
  // repeated int64 x (unannotated): a required list of required elements.
  auto d = MakeSchema({Leaf("x", PhysicalType::kInt64, R::kRepeated)});
  Leaf_ leaf{{1, 1, 0, 1}, {0, 1, 0, 0}, Int64s({5, 6, 7})};
  auto out = Assemble(*d, {leaf});
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_EQ(Print(*out), "[[5, 6], [], [7]]");
  EXPECT_EQ((*out)->buffers[0], nullptr);  // required list: no validity
}

TEST(RecordAssemblyTest, StructWithNulls) {
  // optional group s { optional int64 a; required int64 b }
  auto d = MakeSchema({Group("s", 2, R::kOptional), Leaf("a", PhysicalType::kInt64, R::kOptional),
                       Leaf("b", PhysicalType::kInt64, R::kRequired)});
  // Rows: {a: 1, b: 2}, null, {a: null, b: 3}
  Leaf_ a{{2, 0, 1}, {}, Int64s({1, std::nullopt, std::nullopt})};
  Leaf_ b{{1, 0, 1}, {}, Int64s({2, std::nullopt, 3})};
  auto out = Assemble(*d, {a, b});
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_EQ(Print(*out), "[{a: 1, b: 2}, null, {a: null, b: 3}]");
  EXPECT_EQ((*out)->null_count, 1);
}

TEST(RecordAssemblyTest, ListOfStructsOfLists) {
  // optional group outer (LIST) {
  //   repeated group list { optional group element {
  //     optional int64 id;
  //     optional group inner (LIST) { repeated group list { optional int64 element } } } } }
  auto d = MakeSchema({Group("outer", 1, R::kOptional, ConvertedType::kList), Group("list", 1, R::kRepeated),
                       Group("element", 2, R::kOptional), Leaf("id", PhysicalType::kInt64, R::kOptional),
                       Group("inner", 1, R::kOptional, ConvertedType::kList), Group("list", 1, R::kRepeated),
                       Leaf("element", PhysicalType::kInt64, R::kOptional)});
  // Levels: outer 1, list 2 (rep 1), element 3, id 4; inner 4, list 5 (rep 2), element 6.
  // Row 0: [{id: 1, inner: [10, null]}, null, {id: null, inner: []}]
  // Row 1: null
  // Row 2: [{id: 2, inner: null}]
  // Row 3: []
  Leaf_ id{{4, 2, 3, 0, 4, 1}, {0, 1, 1, 0, 0, 0}, Int64s({1, std::nullopt, std::nullopt, 2})};  // def >= 2
  Leaf_ inner{{6, 5, 2, 4, 0, 3, 1}, {0, 2, 1, 1, 0, 0, 0}, Int64s({10, std::nullopt})};      // def >= 5
  auto out = Assemble(*d, {id, inner});
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_EQ(Print(*out), "[[{id: 1, inner: [10, null]}, null, {id: null, inner: []}], null, [{id: 2, inner: null}], []]");
}

TEST(RecordAssemblyTest, MapWithNullValues) {
  // optional group m (MAP) { repeated group key_value { required int64 key; optional int64 value } }
  auto d = MakeSchema({Group("m", 1, R::kOptional, ConvertedType::kMap), Group("key_value", 2, R::kRepeated),
                       Leaf("key", PhysicalType::kInt64, R::kRequired), Leaf("value", PhysicalType::kInt64, R::kOptional)});
  // Rows: {1: 10, 2: null}, null, {}, {3: 30}
  Leaf_ key{{2, 2, 0, 1, 2}, {0, 1, 0, 0, 0}, Int64s({1, 2, 3})};
  Leaf_ value{{3, 2, 0, 1, 3}, {0, 1, 0, 0, 0}, Int64s({10, std::nullopt, 30})};
  auto out = Assemble(*d, {key, value});
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_EQ((*out)->type->id(), TypeId::kMap);
  EXPECT_EQ(Print(*out), "[{1: 10, 2: null}, null, {}, {3: 30}]");
}

TEST(RecordAssemblyTest, MapWithoutValueColumn) {
  auto d = MakeSchema({Group("m", 1, R::kOptional, ConvertedType::kMap), Group("key_value", 1, R::kRepeated),
                       Leaf("key", PhysicalType::kInt64, R::kRequired)});
  Leaf_ key{{2, 2, 0}, {0, 1, 0}, Int64s({1, 2})};
  auto out = Assemble(*d, {key});
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_EQ(Print(*out), "[{1: null, 2: null}, null]");
}

TEST(RecordAssemblyTest, NestedListsOfLists) {
  // optional group a (LIST) { repeated group list { optional group element (LIST) {
  //   repeated group list { optional int64 element } } } }
  auto d = MakeSchema({Group("a", 1, R::kOptional, ConvertedType::kList), Group("list", 1, R::kRepeated),
                       Group("element", 1, R::kOptional, ConvertedType::kList), Group("list", 1, R::kRepeated),
                       Leaf("element", PhysicalType::kInt64, R::kOptional)});
  // def: 0 null outer, 1 empty outer, 2 null inner, 3 empty inner, 4 null value, 5 value.
  // Rows: [[1, 2], [], null, [null]], [], null, [[3]]
  Leaf_ leaf{{5, 5, 3, 2, 4, 1, 0, 5}, {0, 2, 1, 1, 1, 0, 0, 0}, Int64s({1, 2, std::nullopt, 3})};
  auto out = Assemble(*d, {leaf});
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_EQ(Print(*out), "[[[1, 2], [], null, [null]], [], null, [[3]]]");
}

TEST(RecordAssemblyTest, LeavesDisagreeingOnStructureAreCorrupt) {
  auto d = MakeSchema({Group("s", 2, R::kOptional), Leaf("a", PhysicalType::kInt64, R::kOptional),
                       Leaf("b", PhysicalType::kInt64, R::kOptional)});
  Leaf_ a{{2, 2}, {}, Int64s({1, 2})};
  Leaf_ b{{2, 2, 2}, {}, Int64s({1, 2, 3})};
  auto out = Assemble(*d, {a, b});
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().code(), StatusCode::kCorrupt);
  EXPECT_NE(out.status().message().find("'s.b'"), std::string::npos) << out.status().ToString();
}

TEST(RecordAssemblyTest, ElementWithoutAnOpenListIsCorrupt) {
  auto d = ListOfInt64();
  // Row 0 is a null list, then an entry continues it (rep 1) with a value.
  Leaf_ leaf{{0, 3}, {0, 1}, Int64s({1})};
  auto out = Assemble(*d, {leaf});
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().code(), StatusCode::kCorrupt);
  EXPECT_NE(out.status().message().find("never started"), std::string::npos) << out.status().ToString();
}

TEST(RecordAssemblyTest, LeafValuesShorterThanSlotsAreCorrupt) {
  auto d = ListOfInt64();
  Leaf_ leaf{{3, 3, 3}, {0, 1, 1}, Int64s({1, 2})};  // three elements, two values
  auto out = Assemble(*d, {leaf});
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().code(), StatusCode::kCorrupt);
}

TEST(RecordAssemblyTest, RandomListsMatchAReference) {
  // Random rows of list<int64> with every kind of null, levels written by a simple encoder,
  // compared with the printed reference.
  auto d = ListOfInt64();
  uint64_t state = 42;
  auto next = [&] {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<uint32_t>(state >> 33);
  };
  for (int round = 0; round < 20; ++round) {
    Leaf_ leaf;
    std::vector<std::optional<int64_t>> slots;
    std::string expected = "[";
    const int rows = 1 + static_cast<int>(next() % 30);
    for (int r = 0; r < rows; ++r) {
      if (r) expected += ", ";
      const uint32_t kind = next() % 4;
      if (kind == 0) {
        leaf.def.push_back(0), leaf.rep.push_back(0), expected += "null";
        continue;
      }
      const int length = kind == 1 ? 0 : 1 + static_cast<int>(next() % 5);
      if (length == 0) {
        leaf.def.push_back(1), leaf.rep.push_back(0), expected += "[]";
        continue;
      }
      expected += "[";
      for (int i = 0; i < length; ++i) {
        if (i) expected += ", ";
        leaf.rep.push_back(i == 0 ? 0 : 1);
        if (next() % 5 == 0) {
          leaf.def.push_back(2), slots.push_back(std::nullopt), expected += "null";
        } else {
          const int64_t v = static_cast<int64_t>(next() % 1000);
          leaf.def.push_back(3), slots.push_back(v), expected += std::to_string(v);
        }
      }
      expected += "]";
    }
    expected += "]";
    leaf.values = Int64s(slots);
    auto out = Assemble(*d, {leaf});
    ASSERT_TRUE(out.ok()) << out.status().ToString();
    EXPECT_EQ(Print(*out), expected);
  }
}

}  // namespace
}  // namespace strata::parquet
