// Filter, MakeNullArray and MakeRepeatedArray: random arrays of every type (nulls, slices,
// nested nulls at several levels, long and inline views, dictionaries) against per-row
// references; outputs validated with ValidateFull.
#include "strata/array/filter.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "strata/array/binary_builder.h"
#include "strata/array/binary_view_builder.h"
#include "strata/array/boolean_builder.h"
#include "strata/array/compare.h"
#include "strata/array/dictionary_builder.h"
#include "strata/array/fixed_size_binary_builder.h"
#include "strata/array/null_array.h"
#include "strata/array/primitive_builder.h"
#include "strata/array/validate.h"
#include "strata/types/field.h"
#include "strata/types/schema.h"

namespace strata {
namespace {

MemoryPool* Pool() { return SystemMemoryPool(); }

class RandomArrays {
 public:
  explicit RandomArrays(uint32_t seed) : rng_(seed) {}

  bool Chance(double p) { return std::uniform_real_distribution<double>(0, 1)(rng_) < p; }
  int64_t Uniform(int64_t lo, int64_t hi) { return std::uniform_int_distribution<int64_t>(lo, hi)(rng_); }

  // A validity bitmap with nulls at probability p (nullptr when p == 0).
  std::shared_ptr<Buffer> Validity(int64_t n, double p) {
    if (p == 0) return nullptr;
    auto buffer = *AllocateBuffer(Pool(), bitmap::BytesForBits(n));
    for (int64_t i = 0; i < n; ++i) bitmap::SetBitTo(buffer->mutable_data(), i, !Chance(p));
    return buffer;
  }

  template <typename T>
  ArrayDataPtr Primitive(TypePtr type, int64_t n, double p) {
    PrimitiveBuilder<T> builder(std::move(type), Pool());
    for (int64_t i = 0; i < n; ++i) {
      if (Chance(p)) {
        EXPECT_TRUE(builder.AppendNull().ok());
      } else {
        EXPECT_TRUE(builder.Append(static_cast<T>(rng_())).ok());
      }
    }
    return *builder.Finish();
  }

  ArrayDataPtr Boolean(int64_t n, double p) {
    BooleanBuilder builder(Pool());
    for (int64_t i = 0; i < n; ++i) {
      EXPECT_TRUE((Chance(p) ? builder.AppendNull() : builder.Append(Chance(0.5))).ok());
    }
    return *builder.Finish();
  }

  ArrayDataPtr FixedBinary(TypePtr type, int64_t n, double p) {
    FixedSizeBinaryBuilder builder(type, Pool());
    std::vector<uint8_t> value(static_cast<size_t>(type->byte_width()));
    for (int64_t i = 0; i < n; ++i) {
      for (auto& b : value) b = static_cast<uint8_t>(rng_());
      EXPECT_TRUE((Chance(p) ? builder.AppendNull() : builder.Append(value.data())).ok());
    }
    return *builder.Finish();
  }

  std::string Text(int max_length) {
    std::string s(static_cast<size_t>(Uniform(0, max_length)), ' ');
    for (auto& c : s) c = static_cast<char>('a' + rng_() % 26);
    return s;
  }

  template <typename OffsetT>
  ArrayDataPtr Binary(TypePtr type, int64_t n, double p) {
    BinaryBuilder<OffsetT> builder(std::move(type), Pool());
    for (int64_t i = 0; i < n; ++i) EXPECT_TRUE((Chance(p) ? builder.AppendNull() : builder.Append(Text(20))).ok());
    return *builder.Finish();
  }

  ArrayDataPtr Views(TypePtr type, int64_t n, double p) {
    BinaryViewBuilder builder(std::move(type), Pool());
    for (int64_t i = 0; i < n; ++i) EXPECT_TRUE((Chance(p) ? builder.AppendNull() : builder.Append(Text(30))).ok());
    return *builder.Finish();
  }

  // Children are longer than the parent and the parent is sliced, so struct offset
  // semantics matter.
  ArrayDataPtr Struct(int64_t n, double p) {
    auto type = struct_({std::make_shared<Field>("a", int32()), std::make_shared<Field>("b", utf8()),
                         std::make_shared<Field>("c", list(int16()))});
    auto out = ArrayData::Make(type, n, {Validity(n, p)});
    out->children = {Primitive<int32_t>(int32(), n + 3, p), Binary<int32_t>(utf8(), n + 3, p), List<int32_t>(list(int16()), n, p)};
    return out;
  }

  template <typename OffsetT>
  ArrayDataPtr List(TypePtr type, int64_t n, double p) {
    auto offsets = *AllocateBuffer(Pool(), (n + 1) * int64_t{sizeof(OffsetT)});
    OffsetT* o = offsets->template mutable_data_as<OffsetT>();
    o[0] = static_cast<OffsetT>(Uniform(0, 3));  // a non-zero first offset
    for (int64_t i = 0; i < n; ++i) o[i + 1] = o[i] + static_cast<OffsetT>(Uniform(0, 4));
    const int64_t child_length = o[n] + 2;
    auto out = ArrayData::Make(type, n, {Validity(n, p), std::move(offsets)});
    const TypeId child_id = type->list_value_type()->id();
    if (child_id == TypeId::kStruct) {
      out->children = {Struct(child_length, p)};
    } else {
      out->children = {Primitive<int16_t>(int16(), child_length, p)};
    }
    return out;
  }

  ArrayDataPtr Map(int64_t n, double p) {
    auto type = map(utf8(), int32());
    auto offsets = *AllocateBuffer(Pool(), (n + 1) * 4);
    int32_t* o = offsets->mutable_data_as<int32_t>();
    o[0] = 0;
    for (int64_t i = 0; i < n; ++i) o[i + 1] = o[i] + static_cast<int32_t>(Uniform(0, 3));
    auto entries = ArrayData::Make(type->value_field()->type(), o[n], {nullptr}, 0);
    entries->children = {Binary<int32_t>(utf8(), o[n], 0), Primitive<int32_t>(int32(), o[n], p)};
    auto out = ArrayData::Make(type, n, {Validity(n, p), std::move(offsets)});
    out->children = {std::move(entries)};
    return out;
  }

  ArrayDataPtr FixedList(int64_t n, double p) {
    auto out = ArrayData::Make(fixed_size_list(int64(), 3), n, {Validity(n, p)});
    out->children = {Primitive<int64_t>(int64(), n * 3, p)};
    return out;
  }

  ArrayDataPtr Dictionary(int64_t n, double p) {
    auto dictionary = Binary<int32_t>(utf8(), 7, 0.2);
    Int32Builder indices(int32(), Pool());
    for (int64_t i = 0; i < n; ++i) {
      EXPECT_TRUE((Chance(p) ? indices.AppendNull() : indices.Append(static_cast<int32_t>(Uniform(0, 6)))).ok());
    }
    return *MakeDictionaryArray(strata::dictionary(int32(), utf8()), *indices.Finish(), dictionary);
  }

 private:
  std::mt19937 rng_;
};

using Generator = std::function<ArrayDataPtr(RandomArrays&, int64_t, double)>;

struct Case {
  std::string name;
  Generator make;
};

std::vector<Case> AllCases() {
  std::vector<Case> cases;
  auto add = [&](std::string name, Generator g) { cases.push_back({std::move(name), std::move(g)}); };
  add("null", [](RandomArrays&, int64_t n, double) { return ArrayData::Make(null(), n, {nullptr}, n); });
  add("bool", [](RandomArrays& r, int64_t n, double p) { return r.Boolean(n, p); });
  add("int8", [](RandomArrays& r, int64_t n, double p) { return r.Primitive<int8_t>(int8(), n, p); });
  add("uint16", [](RandomArrays& r, int64_t n, double p) { return r.Primitive<uint16_t>(uint16(), n, p); });
  add("float16", [](RandomArrays& r, int64_t n, double p) { return r.Primitive<uint16_t>(float16(), n, p); });
  add("int32", [](RandomArrays& r, int64_t n, double p) { return r.Primitive<int32_t>(int32(), n, p); });
  add("date32", [](RandomArrays& r, int64_t n, double p) { return r.Primitive<int32_t>(date32(), n, p); });
  add("int64", [](RandomArrays& r, int64_t n, double p) { return r.Primitive<int64_t>(int64(), n, p); });
  add("double", [](RandomArrays& r, int64_t n, double p) { return r.Primitive<int64_t>(float64(), n, p); });
  add("timestamp", [](RandomArrays& r, int64_t n, double p) {
    return r.Primitive<int64_t>(timestamp(TimeUnit::kMicro, "UTC"), n, p);
  });
  add("decimal128", [](RandomArrays& r, int64_t n, double p) { return r.FixedBinary(decimal128(30, 2), n, p); });
  add("decimal256", [](RandomArrays& r, int64_t n, double p) { return r.FixedBinary(decimal256(60, 2), n, p); });
  add("fsb3", [](RandomArrays& r, int64_t n, double p) { return r.FixedBinary(fixed_size_binary(3), n, p); });
  add("string", [](RandomArrays& r, int64_t n, double p) { return r.Binary<int32_t>(utf8(), n, p); });
  add("binary", [](RandomArrays& r, int64_t n, double p) { return r.Binary<int32_t>(binary(), n, p); });
  add("large_string", [](RandomArrays& r, int64_t n, double p) { return r.Binary<int64_t>(large_utf8(), n, p); });
  add("string_view", [](RandomArrays& r, int64_t n, double p) { return r.Views(utf8_view(), n, p); });
  add("binary_view", [](RandomArrays& r, int64_t n, double p) { return r.Views(binary_view(), n, p); });
  add("struct", [](RandomArrays& r, int64_t n, double p) { return r.Struct(n, p); });
  add("list", [](RandomArrays& r, int64_t n, double p) { return r.List<int32_t>(list(int16()), n, p); });
  add("large_list", [](RandomArrays& r, int64_t n, double p) { return r.List<int64_t>(large_list(int16()), n, p); });
  add("list_of_struct", [](RandomArrays& r, int64_t n, double p) {
    auto value = struct_({std::make_shared<Field>("a", int32()), std::make_shared<Field>("b", utf8()),
                          std::make_shared<Field>("c", list(int16()))});
    return r.List<int32_t>(list(value), n, p);
  });
  add("map", [](RandomArrays& r, int64_t n, double p) { return r.Map(n, p); });
  add("fixed_size_list", [](RandomArrays& r, int64_t n, double p) { return r.FixedList(n, p); });
  add("dictionary", [](RandomArrays& r, int64_t n, double p) { return r.Dictionary(n, p); });
  return cases;
}

std::vector<uint8_t> RandomSelection(RandomArrays& r, int64_t bits, double density) {
  std::vector<uint8_t> out(static_cast<size_t>(bitmap::BytesForBits(bits)), 0);
  for (int64_t i = 0; i < bits; ++i) {
    if (density >= 1 || (density > 0 && r.Chance(density))) bitmap::SetBit(out.data(), i);
  }
  return out;
}

// Per-row reference: output row j equals input row i for the j-th selected i.
void CheckFilter(const Array& input, const uint8_t* selection, int64_t selection_offset, const std::string& what) {
  SCOPED_TRACE(what);
  std::vector<int64_t> rows;
  for (int64_t i = 0; i < input.length(); ++i) {
    if (bitmap::GetBit(selection, selection_offset + i)) rows.push_back(i);
  }
  const int64_t selected = static_cast<int64_t>(rows.size());
  for (int64_t passed : {selected, int64_t{-1}}) {
    auto result = Filter(input, selection, selection_offset, passed, Pool());
    ASSERT_TRUE(result.ok()) << result.status().ToString();
    const Array& out = *result;
    ASSERT_TRUE(ValidateFull(*out.data(), {.check_utf8 = true}).ok()) << ValidateFull(*out.data()).ToString();
    ASSERT_EQ(out.length(), selected);
    ASSERT_TRUE(out.type()->Equals(*input.type()));
    int64_t nulls = 0;
    for (int64_t j = 0; j < selected; ++j) {
      nulls += out.IsNull(j);
      ASSERT_TRUE(ArrayRangeEquals(*input.data(), rows[static_cast<size_t>(j)], *out.data(), j, 1))
          << "row " << j << " (input row " << rows[static_cast<size_t>(j)] << ")";
    }
    if (selected < input.length()) {
      // A fresh output: exact null count known up front, offset 0.
      EXPECT_EQ(out.data()->null_count, nulls);
      EXPECT_EQ(out.offset(), 0);
    } else {
      EXPECT_EQ(out.data(), input.data());  // all selected: zero-copy
    }
    EXPECT_EQ(out.null_count(), nulls);
  }
}

TEST(FilterTest, EveryTypeRandom) {
  RandomArrays r(42);
  for (const Case& c : AllCases()) {
    for (double null_probability : {0.0, 0.3}) {
      for (int64_t length : {int64_t{0}, int64_t{1}, int64_t{63}, int64_t{64}, int64_t{200}, int64_t{1000}}) {
        Array whole(c.make(r, length + 10, null_probability));
        ASSERT_TRUE(ValidateFull(*whole.data()).ok()) << c.name << ": " << ValidateFull(*whole.data()).ToString();
        const int64_t offset = r.Uniform(0, 10);
        Array input = whole.Slice(offset, length);
        for (double density : {0.0, 0.01, 0.5, 0.97, 1.0}) {
          const int64_t selection_offset = r.Uniform(0, 13);
          auto selection = RandomSelection(r, selection_offset + length, density);
          CheckFilter(input, selection.data(), selection_offset,
                      c.name + " nulls=" + std::to_string(null_probability) + " length=" + std::to_string(length) +
                          " offset=" + std::to_string(offset) + " density=" + std::to_string(density));
        }
      }
    }
  }
}

// Long runs of set and clear bits crossing word boundaries (the memcpy paths).
TEST(FilterTest, BlockRuns) {
  RandomArrays r(7);
  for (const Case& c : AllCases()) {
    Array input = Array(c.make(r, 700, 0.1)).Slice(5, 690);
    std::vector<uint8_t> selection(static_cast<size_t>(bitmap::BytesForBits(700)), 0);
    bitmap::SetBitsTo(selection.data(), 3, 200, true);
    bitmap::SetBitsTo(selection.data(), 260, 129, true);
    bitmap::SetBitsTo(selection.data(), 400, 1, true);
    bitmap::SetBitsTo(selection.data(), 500, 150, true);
    CheckFilter(input, selection.data(), 3, c.name + " runs");
  }
}

TEST(FilterTest, MatchesBuilderReference) {
  RandomArrays r(3);
  Array input = Array(r.Binary<int32_t>(utf8(), 500, 0.2)).Slice(7, 480);
  auto selection = RandomSelection(r, 480, 0.4);
  StringBuilder expected(utf8(), Pool());
  StringArray strings(input);
  for (int64_t i = 0; i < 480; ++i) {
    if (!bitmap::GetBit(selection.data(), i)) continue;
    ASSERT_TRUE((strings.IsNull(i) ? expected.AppendNull() : expected.Append(strings.GetView(i))).ok());
  }
  Array want(*expected.Finish());
  Array got = *Filter(input, selection.data(), 0, -1, Pool());
  EXPECT_TRUE(got.Equals(want)) << got.ToString() << "\n" << want.ToString();
}

TEST(FilterTest, RefusesMoreSelectedThanRows) {
  Array input(ArrayData::Make(null(), 4, {nullptr}, 4));
  uint8_t selection = 0x0F;
  auto result = Filter(input, &selection, 0, 5, Pool());
  ASSERT_FALSE(result.ok());
  EXPECT_TRUE(result.status().IsInvalid());
}

TEST(FilterTest, ViewsShareDataBuffers) {
  RandomArrays r(5);
  Array input(r.Views(utf8_view(), 300, 0.1));
  auto selection = RandomSelection(r, 300, 0.5);
  Array out = *Filter(input, selection.data(), 0, -1, Pool());
  ASSERT_EQ(out.data()->buffers.size(), input.data()->buffers.size());
  for (size_t i = 2; i < input.data()->buffers.size(); ++i) EXPECT_EQ(out.data()->buffers[i], input.data()->buffers[i]);
}

TEST(FilterTest, DictionaryIsShared) {
  RandomArrays r(9);
  Array input(r.Dictionary(100, 0.1));
  auto selection = RandomSelection(r, 100, 0.5);
  Array out = *Filter(input, selection.data(), 0, -1, Pool());
  EXPECT_EQ(out.data()->dictionary, input.data()->dictionary);
  std::vector<uint8_t> none(13, 0);
  Array empty = *Filter(input, none.data(), 0, 0, Pool());
  EXPECT_EQ(empty.length(), 0);
  EXPECT_EQ(empty.data()->dictionary, input.data()->dictionary);
  EXPECT_TRUE(ValidateFull(*empty.data()).ok());
}

// The memory rule: exact-size buffers, allocated once each, never reallocated.
TEST(FilterTest, StringFilterAllocatesExactlyOnce) {
  auto pool = MakeSystemMemoryPool();
  RandomArrays r(11);
  Array input = Array(r.Binary<int32_t>(utf8(), 10000, 0.1)).Slice(1, 9990);
  auto selection = RandomSelection(r, 9990, 0.3);
  const int64_t allocations = pool->num_allocations();
  const int64_t reallocations = pool->num_reallocations();
  Array out = *Filter(input, selection.data(), 0, -1, pool.get());
  EXPECT_EQ(pool->num_reallocations(), reallocations);
  EXPECT_EQ(pool->num_allocations() - allocations, 3);  // validity, offsets, data
  StringArray strings(out);
  EXPECT_EQ(out.data()->buffers[2]->size(), strings.total_values_length());
  EXPECT_EQ(out.data()->buffers[1]->size(), (out.length() + 1) * 4);
}

TEST(FilterTest, RecordBatch) {
  RandomArrays r(13);
  auto schema = std::make_shared<Schema>(std::vector<FieldPtr>{std::make_shared<Field>("x", int64()),
                                                               std::make_shared<Field>("s", utf8())});
  std::vector<Array> columns = {Array(r.Primitive<int64_t>(int64(), 100, 0.1)), Array(r.Binary<int32_t>(utf8(), 100, 0.1))};
  RecordBatch batch(schema, 100, columns);
  auto selection = RandomSelection(r, 100, 0.3);
  auto out = *FilterRecordBatch(batch, selection.data(), 0, -1, Pool());
  const int64_t selected = bitmap::CountSetBits(selection.data(), 0, 100);
  ASSERT_EQ(out->num_rows(), selected);
  for (int c = 0; c < 2; ++c) {
    EXPECT_EQ(out->column(c).length(), selected);
    EXPECT_TRUE(out->column(c).Equals(*Filter(columns[static_cast<size_t>(c)], selection.data(), 0, -1, Pool())));
  }
}

TEST(NullArrayTest, EveryType) {
  RandomArrays r(17);
  for (const Case& c : AllCases()) {
    TypePtr type = c.make(r, 1, 0)->type;
    for (int64_t length : {int64_t{0}, int64_t{1}, int64_t{77}}) {
      auto result = MakeNullArray(type, length, Pool());
      ASSERT_TRUE(result.ok()) << c.name << ": " << result.status().ToString();
      const Array& out = *result;
      EXPECT_TRUE(ValidateFull(*out.data(), {.check_utf8 = true}).ok())
          << c.name << ": " << ValidateFull(*out.data()).ToString();
      EXPECT_EQ(out.length(), length);
      EXPECT_EQ(out.null_count(), length);
      for (int64_t i = 0; i < length; ++i) EXPECT_TRUE(out.IsNull(i));
    }
  }
}

TEST(RepeatedArrayTest, FlatTypes) {
  RandomArrays r(19);
  const std::vector<std::string> flat = {"null", "bool", "int8", "uint16", "float16", "int32", "date32",
                                         "int64", "double", "timestamp", "decimal128", "decimal256", "fsb3",
                                         "string", "binary", "large_string", "string_view", "binary_view"};
  for (const Case& c : AllCases()) {
    if (std::find(flat.begin(), flat.end(), c.name) == flat.end()) continue;
    Array source(c.make(r, 40, 0.3));
    for (int64_t row : {int64_t{0}, int64_t{5}, int64_t{17}, int64_t{39}}) {
      Array value = source.Slice(row, 1);
      for (int64_t length : {int64_t{0}, int64_t{1}, int64_t{3}, int64_t{100}}) {
        auto result = MakeRepeatedArray(value, length, Pool());
        ASSERT_TRUE(result.ok()) << c.name << ": " << result.status().ToString();
        const Array& out = *result;
        ASSERT_TRUE(ValidateFull(*out.data()).ok()) << c.name << ": " << ValidateFull(*out.data()).ToString();
        ASSERT_EQ(out.length(), length);
        for (int64_t i = 0; i < length; ++i) {
          ASSERT_TRUE(ArrayRangeEquals(*value.data(), 0, *out.data(), i, 1)) << c.name << " row " << i;
        }
      }
    }
  }
  Array two(r.Primitive<int32_t>(int32(), 2, 0));
  EXPECT_FALSE(MakeRepeatedArray(two, 3, Pool()).ok());
}

}  // namespace
}  // namespace strata
