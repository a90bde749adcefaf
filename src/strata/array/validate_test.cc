#include "strata/array/validate.h"

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "strata/array/array.h"
#include "strata/array/binary_builder.h"
#include "strata/array/binary_view_builder.h"
#include "strata/array/dictionary_builder.h"
#include "strata/array/list_builder.h"
#include "strata/array/map_builder.h"
#include "strata/array/pretty_print.h"
#include "strata/array/primitive_builder.h"
#include "strata/array/struct_builder.h"

namespace strata {
namespace {

// Owns bytes for hand-made (possibly malformed) buffers.
std::shared_ptr<Buffer> Bytes(std::vector<uint8_t> bytes) {
  auto pool = SystemMemoryPool();
  auto buffer = *AllocateBuffer(pool, static_cast<int64_t>(bytes.size()));
  if (!bytes.empty()) std::memcpy(buffer->mutable_data(), bytes.data(), bytes.size());
  return buffer;
}

template <typename T>
std::shared_ptr<Buffer> Values(std::vector<T> values) {
  std::vector<uint8_t> bytes(values.size() * sizeof(T));
  if (!values.empty()) std::memcpy(bytes.data(), values.data(), bytes.size());
  return Bytes(std::move(bytes));
}

std::shared_ptr<Buffer> Text(std::string_view s) { return Bytes(std::vector<uint8_t>(s.begin(), s.end())); }

void ExpectCorrupt(const ArrayData& data, std::string_view fragment, ValidateOptions options = {}) {
  Status st = ValidateFull(data, options);
  EXPECT_TRUE(st.IsCorrupt()) << st.ToString();
  EXPECT_NE(st.message().find(fragment), std::string::npos) << "message: " << st.message();
}

TEST(ValidateTest, AcceptsWellFormedHandMadeArrays) {
  auto ints = ArrayData::Make(int32(), 3, {nullptr, Values<int32_t>({1, 2, 3})}, 0);
  EXPECT_TRUE(ValidateFull(*ints).ok());
  auto strings = ArrayData::Make(utf8(), 2, {Bytes({0b01}), Values<int32_t>({0, 3, 3}), Text("abc")}, 1);
  EXPECT_TRUE(ValidateFull(*strings, {.check_utf8 = true}).ok());
}

TEST(ValidateTest, MissingType) {
  ArrayData data;
  EXPECT_TRUE(ValidateFull(data).IsCorrupt());
}

TEST(ValidateTest, NegativeLengthAndOffset) {
  ExpectCorrupt(*ArrayData::Make(int32(), -1, {nullptr, Values<int32_t>({})}, 0), "negative length -1");
  ExpectCorrupt(*ArrayData::Make(int32(), 1, {nullptr, Values<int32_t>({1})}, 0, -2), "negative offset -2");
}

TEST(ValidateTest, WrongBufferCount) {
  ExpectCorrupt(*ArrayData::Make(int32(), 1, {nullptr}, 0), "1 buffers, the layout needs 2");
  ExpectCorrupt(*ArrayData::Make(utf8(), 0, {nullptr, Values<int32_t>({0})}, 0), "2 buffers, the layout needs 3");
  ExpectCorrupt(*ArrayData::Make(utf8_view(), 0, {nullptr}, 0), "at least 2");
}

TEST(ValidateTest, ValuesBufferTooSmall) {
  ExpectCorrupt(*ArrayData::Make(int64(), 3, {nullptr, Values<int64_t>({1, 2})}, 0), "values buffer holds 16 bytes, needs 24");
  // The offset counts too.
  ExpectCorrupt(*ArrayData::Make(int64(), 2, {nullptr, Values<int64_t>({1, 2})}, 0, 1), "needs 24");
  ExpectCorrupt(*ArrayData::Make(fixed_size_binary(4), 2, {nullptr, Bytes({1, 2, 3, 4, 5})}, 0), "needs 8");
  ExpectCorrupt(*ArrayData::Make(boolean(), 9, {nullptr, Bytes({1})}, 0), "values bitmap holds 1 bytes, needs 2");
  ExpectCorrupt(*ArrayData::Make(int8(), 4, {nullptr, nullptr}, 0), "values buffer is missing");
}

TEST(ValidateTest, HugeLengthDoesNotOverflow) {
  ExpectCorrupt(*ArrayData::Make(decimal256(10, 0), int64_t{1} << 60, {nullptr, Bytes({0})}, 0), "overflow");
}

TEST(ValidateTest, ValidityBitmapTooSmall) {
  ExpectCorrupt(*ArrayData::Make(int8(), 9, {Bytes({0xff}), Bytes(std::vector<uint8_t>(9))}, kUnknownNullCount),
                "validity bitmap holds 1 bytes, needs 2");
}

TEST(ValidateTest, NullCountInconsistent) {
  ExpectCorrupt(*ArrayData::Make(int8(), 3, {Bytes({0b101}), Bytes({1, 2, 3})}, 0), "null_count is 0 but the validity bitmap has 1 nulls");
  ExpectCorrupt(*ArrayData::Make(int8(), 3, {nullptr, Bytes({1, 2, 3})}, 2), "null_count is 2");
  ExpectCorrupt(*ArrayData::Make(null(), 3, {nullptr}, 1), "must equal the length 3");
}

TEST(ValidateTest, OffsetsDecrease) {
  ExpectCorrupt(*ArrayData::Make(utf8(), 3, {nullptr, Values<int32_t>({0, 2, 1, 3}), Text("abc")}, 0),
                "offsets decrease at row 1: 2 then 1");
}

TEST(ValidateTest, FirstOffsetNegative) {
  ExpectCorrupt(*ArrayData::Make(binary(), 1, {nullptr, Values<int32_t>({-1, 2}), Text("abc")}, 0), "first offset -1");
}

TEST(ValidateTest, LastOffsetPastData) {
  ExpectCorrupt(*ArrayData::Make(large_utf8(), 2, {nullptr, Values<int64_t>({0, 2, 7}), Text("abc")}, 0),
                "last offset 7 is past the end of the data buffer (3)");
}

TEST(ValidateTest, OffsetsBufferTooSmall) {
  ExpectCorrupt(*ArrayData::Make(utf8(), 3, {nullptr, Values<int32_t>({0, 1, 2}), Text("abc")}, 0),
                "offsets buffer holds 12 bytes, needs 16");
}

TEST(ValidateTest, ListChildDoesNotCoverLastOffset) {
  auto child = ArrayData::Make(int32(), 2, {nullptr, Values<int32_t>({1, 2})}, 0);
  auto data = ArrayData::Make(list(int32()), 2, {nullptr, Values<int32_t>({0, 1, 3})}, 0);
  data->children.push_back(child);
  ExpectCorrupt(*data, "last offset 3 is past the end of the child array (2)");
}

TEST(ValidateTest, ChildTypeMismatch) {
  auto child = ArrayData::Make(int64(), 1, {nullptr, Values<int64_t>({1})}, 0);
  auto data = ArrayData::Make(list(int32()), 1, {nullptr, Values<int32_t>({0, 1})}, 0);
  data->children.push_back(child);
  ExpectCorrupt(*data, "child 'item' has type int64, the type says int32");
}

TEST(ValidateTest, WrongChildCount) {
  auto data = ArrayData::Make(list(int32()), 0, {nullptr, Values<int32_t>({0})}, 0);
  ExpectCorrupt(*data, "0 children, the layout needs 1");
}

TEST(ValidateTest, StructChildTooShort) {
  auto type = struct_({field("a", int8()), field("b", int8())});
  auto data = ArrayData::Make(type, 3, {nullptr}, 0);
  data->children.push_back(ArrayData::Make(int8(), 3, {nullptr, Bytes({1, 2, 3})}, 0));
  data->children.push_back(ArrayData::Make(int8(), 2, {nullptr, Bytes({1, 2})}, 0));
  ExpectCorrupt(*data, "child 'b' has 2 elements, needs at least 3");
}

TEST(ValidateTest, FixedSizeListChildTooShort) {
  auto data = ArrayData::Make(fixed_size_list(int8(), 3), 2, {nullptr}, 0);
  data->children.push_back(ArrayData::Make(int8(), 5, {nullptr, Bytes({1, 2, 3, 4, 5})}, 0));
  ExpectCorrupt(*data, "has 5 elements, needs at least 6");
}

TEST(ValidateTest, NestedErrorsNameTheirPath) {
  auto type = struct_({field("inner", list(int8()))});
  auto list_data = ArrayData::Make(list(int8()), 1, {nullptr, Values<int32_t>({0, 1})}, 0);
  list_data->children.push_back(ArrayData::Make(int8(), 1, {nullptr, nullptr}, 0));
  auto data = ArrayData::Make(type, 1, {nullptr}, 0);
  data->children.push_back(list_data);
  ExpectCorrupt(*data, "array.inner.item (int8): values buffer is missing");
}

TEST(ValidateTest, MapEntriesWithNulls) {
  auto pool = MakeSystemMemoryPool();
  auto builder = *MapBuilder::Make(map(utf8(), int8()), pool.get());
  ASSERT_TRUE(builder->Append().ok());
  ASSERT_TRUE(static_cast<StringBuilder*>(builder->key_builder())->Append("k").ok());
  ASSERT_TRUE(static_cast<Int8Builder*>(builder->item_builder())->Append(1).ok());
  auto good = *builder->Finish();
  ASSERT_TRUE(ValidateFull(*good).ok());
  auto bad = std::make_shared<ArrayData>(*good);
  auto entries = std::make_shared<ArrayData>(*good->children[0]);
  entries->buffers[0] = Bytes({0});
  entries->null_count = 1;
  bad->children[0] = entries;
  ExpectCorrupt(*bad, "map entries hold 1 nulls");
  auto bad_keys = std::make_shared<ArrayData>(*good);
  auto entries2 = std::make_shared<ArrayData>(*good->children[0]);
  auto keys = std::make_shared<ArrayData>(*entries2->children[0]);
  keys->buffers[0] = Bytes({0});
  keys->null_count = 1;
  entries2->children[0] = keys;
  bad_keys->children[0] = entries2;
  ExpectCorrupt(*bad_keys, "map keys hold 1 nulls");
}

TEST(ValidateTest, DictionaryIndexOutOfRange) {
  auto dict = ArrayData::Make(utf8(), 2, {nullptr, Values<int32_t>({0, 1, 2}), Text("ab")}, 0);
  auto data = ArrayData::Make(dictionary(int16(), utf8()), 3, {Bytes({0b011}), Values<int16_t>({1, 2, 77})}, 1);
  data->dictionary = dict;
  ExpectCorrupt(*data, "row 1 has index 2, outside a dictionary of 2 values");
  auto ok = ArrayData::Make(dictionary(int16(), utf8()), 3, {Bytes({0b101}), Values<int16_t>({1, 99, 0})}, 1);
  ok->dictionary = dict;
  EXPECT_TRUE(ValidateFull(*ok).ok());  // index under a null is not checked
  auto missing = ArrayData::Make(dictionary(int16(), utf8()), 0, {nullptr, Values<int16_t>({})}, 0);
  ExpectCorrupt(*missing, "dictionary is missing");
  auto wrong = ArrayData::Make(dictionary(int16(), utf8()), 0, {nullptr, Values<int16_t>({})}, 0);
  wrong->dictionary = ArrayData::Make(int8(), 0, {nullptr, Bytes({})}, 0);
  ExpectCorrupt(*wrong, "dictionary has type int8, the type says string");
}

std::vector<uint8_t> View(int32_t length, std::string_view prefix_or_inline, int32_t index = 0, int32_t offset = 0) {
  std::vector<uint8_t> v(16, 0);
  std::memcpy(v.data(), &length, 4);
  std::memcpy(v.data() + 4, prefix_or_inline.data(), std::min<size_t>(prefix_or_inline.size(), 12));
  if (length > 12) {
    std::memcpy(v.data() + 8, &index, 4);
    std::memcpy(v.data() + 12, &offset, 4);
  }
  return v;
}

std::shared_ptr<Buffer> Views(std::vector<std::vector<uint8_t>> views) {
  std::vector<uint8_t> all;
  for (auto& v : views) all.insert(all.end(), v.begin(), v.end());
  return Bytes(std::move(all));
}

TEST(ValidateTest, ViewsOutOfBounds) {
  auto data_buffer = Text("0123456789abcdefghij");
  auto good = ArrayData::Make(utf8_view(), 2, {nullptr, Views({View(3, "abc"), View(15, "0123", 0, 0)}), data_buffer}, 0);
  EXPECT_TRUE(ValidateFull(*good, {.check_utf8 = true}).ok());
  ExpectCorrupt(*ArrayData::Make(utf8_view(), 1, {nullptr, Views({View(15, "0123", 1, 0)}), data_buffer}, 0),
                "row 0 refers to data buffer 1, but there are 1");
  ExpectCorrupt(*ArrayData::Make(utf8_view(), 1, {nullptr, Views({View(15, "6789", 0, 6)}), data_buffer}, 0),
                "row 0 spans bytes [6, 21) of data buffer 0 of 20 bytes");
  ExpectCorrupt(*ArrayData::Make(utf8_view(), 1, {nullptr, Views({View(15, "xxxx", 0, 0)}), data_buffer}, 0),
                "prefix does not match");
  ExpectCorrupt(*ArrayData::Make(utf8_view(), 1, {nullptr, Views({View(-3, "")}), data_buffer}, 0), "negative length -3");
  ExpectCorrupt(*ArrayData::Make(utf8_view(), 2, {nullptr, Views({View(1, "a")})}, 0), "views buffer holds 16 bytes, needs 32");
}

TEST(ValidateTest, Utf8OnRequest) {
  auto bad = ArrayData::Make(utf8(), 2, {nullptr, Values<int32_t>({0, 2, 4}), Text("ok\xc3(")}, 0);
  EXPECT_TRUE(ValidateFull(*bad).ok());  // not checked unless asked
  ExpectCorrupt(*bad, "row 1 is not valid UTF-8 (byte 0 of the value)", {.check_utf8 = true});
  // Binary is never checked.
  auto binary_data = ArrayData::Make(binary(), 2, {nullptr, Values<int32_t>({0, 2, 4}), Text("ok\xc3(")}, 0);
  EXPECT_TRUE(ValidateFull(*binary_data, {.check_utf8 = true}).ok());
  // A value boundary inside a multi-byte sequence fails even though the whole range is valid.
  auto split = ArrayData::Make(large_utf8(), 2, {nullptr, Values<int64_t>({0, 1, 2}), Text("\xc3\xa9")}, 0);
  ExpectCorrupt(*split, "row 0 is not valid UTF-8", {.check_utf8 = true});
  // Invalid bytes under a null slot are fine.
  auto masked = ArrayData::Make(utf8(), 2, {Bytes({0b10}), Values<int32_t>({0, 1, 3}), Text("\xffok")}, 1);
  EXPECT_TRUE(ValidateFull(*masked, {.check_utf8 = true}).ok());
  auto view = ArrayData::Make(utf8_view(), 1, {nullptr, Views({View(2, "\xed\xa0")})}, 0);
  ExpectCorrupt(*view, "row 0 is not valid UTF-8", {.check_utf8 = true});
}

}  // namespace
}  // namespace strata

namespace strata {
namespace {

ArrayDataPtr Int32s(std::vector<int32_t> values) {
  const auto n = static_cast<int64_t>(values.size());
  return ArrayData::Make(int32(), n, {nullptr, Values(std::move(values))}, 0);
}

// Hostile layouts of the union, run-end encoded and list-view types fail with what and where.
TEST(ValidateUnionTest, TypeIdsAndOffsetsMustBeInRange) {
  const TypePtr dense = dense_union({field("a", int32()), field("b", int32())}, {5, 7});
  auto good = ArrayData::Make(dense, 3, {nullptr, Values<int8_t>({5, 7, 5}), Values<int32_t>({0, 0, 1})}, 0);
  good->children = {Int32s({1, 2}), Int32s({3})};
  EXPECT_TRUE(ValidateFull(*good).ok()) << ValidateFull(*good).ToString();
  EXPECT_EQ(PrettyPrint(Array(good)), "[5: 1, 7: 3, 5: 2]");

  auto bad_id = std::make_shared<ArrayData>(*good);
  bad_id->buffers[1] = Values<int8_t>({5, 6, 5});
  ExpectCorrupt(*bad_id, "row 1 has type id 6");
  auto negative_id = std::make_shared<ArrayData>(*good);
  negative_id->buffers[1] = Values<int8_t>({-1, 5, 5});
  ExpectCorrupt(*negative_id, "row 0 has type id -1");
  auto past_child = std::make_shared<ArrayData>(*good);
  past_child->buffers[2] = Values<int32_t>({0, 1, 1});
  ExpectCorrupt(*past_child, "row 1 has offset 1 into member 'b'");
  auto negative_offset = std::make_shared<ArrayData>(*good);
  negative_offset->buffers[2] = Values<int32_t>({-4, 0, 1});
  ExpectCorrupt(*negative_offset, "offset -4");
  auto short_ids = std::make_shared<ArrayData>(*good);
  short_ids->buffers[1] = Values<int8_t>({5});
  ExpectCorrupt(*short_ids, "type ids buffer");
  auto with_bitmap = std::make_shared<ArrayData>(*good);
  with_bitmap->buffers[0] = Bytes({0xFF});
  ExpectCorrupt(*with_bitmap, "no validity bitmap");

  const TypePtr sparse = sparse_union({field("a", int32()), field("b", utf8())}, {0, 1});
  auto short_member = ArrayData::Make(sparse, 2, {nullptr, Values<int8_t>({0, 0})}, 0);
  short_member->children = {Int32s({1, 2}), ArrayData::Make(utf8(), 1, {nullptr, Values<int32_t>({0, 0}), Text("")}, 0)};
  ExpectCorrupt(*short_member, "child 'b' has 1 elements, needs at least 2");
}

TEST(ValidateRunEndEncodedTest, RunEndsMustBePositiveAndStrictlyIncrease) {
  const TypePtr type = run_end_encoded(int32(), int32());
  auto make = [&](std::vector<int32_t> ends, int64_t length, int64_t offset = 0) {
    const auto runs = static_cast<int64_t>(ends.size());
    auto d = ArrayData::Make(type, length, {nullptr}, 0, offset);
    std::vector<int32_t> values(ends.size(), 9);
    d->children = {ArrayData::Make(int32(), runs, {nullptr, Values(std::move(ends))}, 0), Int32s(std::move(values))};
    return d;
  };
  auto good = make({2, 3, 7}, 7);
  EXPECT_TRUE(ValidateFull(*good).ok()) << ValidateFull(*good).ToString();
  EXPECT_TRUE(ValidateFull(*make({2, 3, 7}, 4, 3)).ok());
  ExpectCorrupt(*make({2, 2, 7}, 7), "run ends must strictly increase: run end 1 is 2 after 2");
  ExpectCorrupt(*make({3, 2, 7}, 7), "run end 1 is 2 after 3");
  ExpectCorrupt(*make({0, 2}, 2), "run end 0 is 0");
  ExpectCorrupt(*make({-5, 2}, 2), "run end 0 is -5");
  ExpectCorrupt(*make({2, 3}, 7), "the last run ends at 3");
  ExpectCorrupt(*make({}, 1), "no runs");
  auto mismatched = make({2, 3}, 3);
  mismatched->children[1] = Int32s({1});
  ExpectCorrupt(*mismatched, "2 run ends but 1 values");
  auto narrow = ArrayData::Make(run_end_encoded(int16(), int32()), 40000, {nullptr}, 0);
  narrow->children = {ArrayData::Make(int16(), 1, {nullptr, Values<int16_t>({30000})}, 0), Int32s({1})};
  ExpectCorrupt(*narrow, "passes the largest int16 run end");
}

TEST(ValidateListViewTest, ViewsMayOverlapButNotPassTheChild) {
  const TypePtr type = list_view(int32());
  auto make = [&](std::vector<int32_t> offsets, std::vector<int32_t> sizes) {
    const auto n = static_cast<int64_t>(offsets.size());
    auto d = ArrayData::Make(type, n, {nullptr, Values(std::move(offsets)), Values(std::move(sizes))}, 0);
    d->children = {Int32s({1, 2, 3, 4})};
    return d;
  };
  auto overlapping = make({2, 0, 1}, {2, 4, 1});  // out of order, overlapping: legal
  EXPECT_TRUE(ValidateFull(*overlapping).ok()) << ValidateFull(*overlapping).ToString();
  EXPECT_EQ(PrettyPrint(Array(overlapping)), "[[3, 4], [1, 2, 3, 4], [2]]");
  ExpectCorrupt(*make({3, 0}, {2, 1}), "row 0 views child elements [3, 5) of a child of 4");
  ExpectCorrupt(*make({0, -1}, {1, 1}), "row 1 views child elements [-1, 0)");
  ExpectCorrupt(*make({0}, {-2}), "row 0 views child elements [0, -2)");
  auto large = ArrayData::Make(large_list_view(int32()), 1, {nullptr, Values<int64_t>({int64_t{1} << 40}),
                                                             Values<int64_t>({1})}, 0);
  large->children = {Int32s({1})};
  ExpectCorrupt(*large, "row 0 views child elements");
}

}  // namespace
}  // namespace strata
