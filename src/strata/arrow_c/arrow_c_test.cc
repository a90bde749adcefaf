// Export -> import round trips of every type, zero-copy and release-once checks, and hostile
// imports (bad formats, buffers, offsets, UTF-8) through the Arrow C Data Interface.
#include <cstring>
#include <vector>

#include <gtest/gtest.h>

#include "strata/array/record_batch.h"
#include "strata/arrow_c/arrow_c_test_util.h"
#include "strata/arrow_c/export.h"
#include "strata/arrow_c/import.h"

namespace strata::arrow_c {
namespace {

using testing::AllTypes;
using testing::RandomArrays;
using testing::ReleaseCounter;
using testing::SchemaReleaseCounter;

// Buffer data pointers of `a` and `b` are the same memory, all the way down.
void ExpectSameMemory(const ArrayData& a, const ArrayData& b, const std::string& path) {
  ASSERT_EQ(a.buffers.size(), b.buffers.size()) << path;
  for (size_t i = 0; i < a.buffers.size(); ++i) {
    if (a.buffers[i] == nullptr || b.buffers[i] == nullptr || a.buffers[i]->size() == 0) continue;
    EXPECT_EQ(a.buffers[i]->data(), b.buffers[i]->data()) << path << " buffer " << i;
  }
  ASSERT_EQ(a.children.size(), b.children.size()) << path;
  for (size_t i = 0; i < a.children.size(); ++i) ExpectSameMemory(*a.children[i], *b.children[i], path + ".child");
  if (a.dictionary) ExpectSameMemory(*a.dictionary, *b.dictionary, path + ".dictionary");
}

Array RoundTrip(const Array& array) {
  ArrowArray c_array;
  ArrowSchema c_schema;
  Status st = ExportArray(array, &c_array, &c_schema);
  EXPECT_TRUE(st.ok()) << st.ToString();
  Result<Array> back = ImportArray(&c_array, &c_schema);
  EXPECT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(c_array.release, nullptr);
  EXPECT_EQ(c_schema.release, nullptr);
  return back.ok() ? *back : Array();
}

TEST(ArrowCTest, RoundTripsEveryTypeZeroCopy) {
  auto pool = MakeSystemMemoryPool();
  RandomArrays random(pool.get(), 42);
  for (const TypePtr& type : AllTypes()) {
    SCOPED_TRACE(type->ToString());
    Array array(random.Make(type, 60));
    const MemoryStats before = pool->stats();
    Array back = RoundTrip(array);
    ASSERT_NE(back.data(), nullptr);
    const MemoryStats after = pool->stats();
    // Export and import allocate nothing from the pool: only small heap bookkeeping.
    EXPECT_EQ(after.num_allocations, before.num_allocations);
    EXPECT_EQ(after.total_bytes_allocated, before.total_bytes_allocated);
    EXPECT_TRUE(back.type()->Equals(*type)) << back.type()->ToString();
    EXPECT_TRUE(back.Equals(array)) << back.ToString() << "\nvs\n" << array.ToString();
    ExpectSameMemory(*array.data(), *back.data(), "array");

    // Slices keep their offset: the same memory, fewer rows.
    for (auto [off, len] : {std::pair<int64_t, int64_t>{7, 30}, {59, 1}, {13, 0}}) {
      Array slice = array.Slice(off, len);
      Array slice_back = RoundTrip(slice);
      ASSERT_NE(slice_back.data(), nullptr);
      EXPECT_EQ(slice_back.length(), len);
      if (len > 0) {
        EXPECT_EQ(slice_back.offset(), off);
      }
      EXPECT_TRUE(slice_back.Equals(slice)) << slice_back.ToString() << "\nvs\n" << slice.ToString();
      if (len > 0) ExpectSameMemory(*slice.data(), *slice_back.data(), "slice");
    }
  }
}

TEST(ArrowCTest, FormatStrings) {
  EXPECT_EQ(*FormatString(*decimal128(10, 2)), "d:10,2");
  EXPECT_EQ(*FormatString(*decimal256(40, 3)), "d:40,3,256");
  EXPECT_EQ(*FormatString(*decimal32(9, 2)), "d:9,2,32");
  EXPECT_EQ(*FormatString(*decimal64(18, -1)), "d:18,-1,64");
  EXPECT_EQ(*FormatString(*year_month_interval()), "tiM");
  EXPECT_EQ(*FormatString(*day_time_interval()), "tiD");
  EXPECT_EQ(*FormatString(*timestamp(TimeUnit::kMicro, "UTC")), "tsu:UTC");
  EXPECT_EQ(*FormatString(*timestamp(TimeUnit::kNano)), "tsn:");
  EXPECT_EQ(*FormatString(*fixed_size_list(int8(), 4)), "+w:4");
  EXPECT_EQ(*FormatString(*fixed_size_binary(16)), "w:16");
  EXPECT_EQ(*FormatString(*duration(TimeUnit::kMilli)), "tDm");
  EXPECT_EQ(*FormatString(*month_day_nano_interval()), "tin");
  EXPECT_EQ(*FormatString(*time32(TimeUnit::kSecond)), "tts");
  EXPECT_EQ(*FormatString(*dictionary(int16(), utf8())), "s");
  EXPECT_EQ(*FormatString(*utf8_view()), "vu");
}

TEST(ArrowCTest, SchemaWithMetadataFlagsAndNames) {
  KeyValueMetadata ext{{"ARROW:extension:name", "arrow.uuid"}, {"ARROW:extension:metadata", ""}};
  auto s = schema({field("id", int64(), false), field("uuid", fixed_size_binary(16), true, ext),
                   field("tags", list(field("tag", utf8(), false))), field("m", map(utf8(), float64(), true)),
                   field("d", dictionary(int32(), utf8(), true), false)},
                  KeyValueMetadata{{"origin", "test"}, {"empty", ""}});
  ArrowSchema c;
  ASSERT_TRUE(ExportSchema(*s, &c).ok());
  EXPECT_STREQ(c.format, "+s");
  ASSERT_EQ(c.n_children, 5);
  EXPECT_EQ(c.children[0]->flags & ARROW_FLAG_NULLABLE, 0);
  EXPECT_NE(c.children[3]->flags & ARROW_FLAG_MAP_KEYS_SORTED, 0);
  EXPECT_NE(c.children[4]->flags & ARROW_FLAG_DICTIONARY_ORDERED, 0);
  EXPECT_STREQ(c.children[4]->dictionary->format, "u");
  EXPECT_STREQ(c.children[2]->children[0]->name, "tag");
  SchemaReleaseCounter::Wrap(&c);
  auto back = ImportSchema(&c);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(SchemaReleaseCounter::calls, 1);
  EXPECT_TRUE((*back)->Equals(*s, /*check_metadata=*/true)) << (*back)->ToString();
  EXPECT_EQ((*back)->field(2)->type()->value_field()->name(), "tag");
  EXPECT_FALSE((*back)->field(2)->type()->value_field()->nullable());
  EXPECT_TRUE((*back)->field(3)->type()->keys_sorted());
  EXPECT_TRUE((*back)->field(4)->type()->ordered());
  EXPECT_EQ((*back)->field(1)->metadata().Get("ARROW:extension:name"), "arrow.uuid");
}

TEST(ArrowCTest, RecordBatchRoundTrip) {
  auto pool = MakeSystemMemoryPool();
  RandomArrays random(pool.get(), 7);
  auto s = schema({field("a", int32()), field("b", utf8_view()), field("c", list(dictionary(int8(), utf8())))},
                  KeyValueMetadata{{"k", "v"}});
  std::vector<Array> columns;
  for (const FieldPtr& f : s->fields()) columns.emplace_back(random.Make(f->type(), 40));
  auto batch = *RecordBatch::Make(s, 40, columns);
  for (auto b : {batch, batch->Slice(5, 20)}) {
    ArrowArray c_array;
    ArrowSchema c_schema;
    ASSERT_TRUE(ExportRecordBatch(*b, &c_array, &c_schema).ok());
    EXPECT_EQ(c_array.null_count, 0);
    auto back = ImportRecordBatch(&c_array, &c_schema);
    ASSERT_TRUE(back.ok()) << back.status().ToString();
    EXPECT_TRUE((*back)->Equals(*b));
    EXPECT_EQ((*back)->schema()->metadata().Get("k"), "v");
    for (int i = 0; i < b->num_columns(); ++i) ExpectSameMemory(*b->column(i).data(), *(*back)->column(i).data(), "c");
  }
}

TEST(ArrowCTest, ReleaseRunsOnceWhenTheLastImportedBufferGoes) {
  auto pool = MakeSystemMemoryPool();
  RandomArrays random(pool.get(), 3);
  Array array(random.Make(struct_({field("a", utf8()), field("b", list(int64()))}), 100));
  ArrowArray c;
  ASSERT_TRUE(ExportArray(array, &c).ok());
  ReleaseCounter::Wrap(&c);
  auto back = ImportArray(&c, array.type());
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(c.release, nullptr);  // moved into the import
  Array child = StructArray(*back).field(1);
  *back = Array();
  EXPECT_EQ(ReleaseCounter::calls, 0);  // the child still holds producer memory
  EXPECT_EQ(child.length(), 100);
  child = Array();
  EXPECT_EQ(ReleaseCounter::calls, 1);
}

TEST(ArrowCTest, ExportedMemoryOutlivesTheArrayHandle) {
  auto pool = MakeSystemMemoryPool();
  std::vector<int64_t> expected;
  ArrowArray c;
  {
    RandomArrays random(pool.get(), 9);
    Array array(random.Make(int64(), 1000, false));
    Int64Array typed(array);
    expected.assign(typed.raw_values(), typed.raw_values() + 1000);
    ASSERT_TRUE(ExportArray(array, &c).ok());
  }
  EXPECT_GE(pool->bytes_in_use(), 8000);  // still held for the consumer
  const auto* values = static_cast<const int64_t*>(c.buffers[1]);
  EXPECT_EQ(std::vector<int64_t>(values, values + 1000), expected);
  c.release(&c);
  EXPECT_EQ(c.release, nullptr);
  EXPECT_EQ(pool->bytes_in_use(), 0);
}

TEST(ArrowCTest, MovedChildOutlivesItsParent) {
  auto pool = MakeSystemMemoryPool();
  RandomArrays random(pool.get(), 11);
  auto type = struct_({field("a", int32()), field("s", utf8())});
  Array array(random.Make(type, 50));
  Array expected = StructArray(array).field(1);
  ArrowArray parent;
  ASSERT_TRUE(ExportArray(array, &parent).ok());
  array = Array();
  // Move child 1 out as the spec describes: copy the struct, mark the original released.
  ArrowArray moved = *parent.children[1];
  parent.children[1]->release = nullptr;
  parent.release(&parent);
  EXPECT_EQ(parent.release, nullptr);
  EXPECT_GT(pool->bytes_in_use(), 0);
  ReleaseCounter::Wrap(&moved);
  auto back = ImportArray(&moved, utf8());
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_TRUE(back->Equals(expected));
  expected = Array();
  *back = Array();
  EXPECT_EQ(ReleaseCounter::calls, 1);
  EXPECT_EQ(pool->bytes_in_use(), 0);
}

TEST(ArrowCTest, UnknownNullCountIsComputedOnExport) {
  auto pool = MakeSystemMemoryPool();
  RandomArrays random(pool.get(), 5);
  ArrayDataPtr data = random.Make(int32(), 64);
  const int64_t nulls = data->null_count;
  data->null_count = kUnknownNullCount;
  ArrowArray c;
  ASSERT_TRUE(ExportArray(Array(data), &c).ok());
  EXPECT_EQ(c.null_count, nulls);
  c.release(&c);
}

// ---- hostile producers ---------------------------------------------------------------------

// A hand-made ArrowArray over test-owned memory whose release only counts.
struct FakeArray {
  static inline int releases = 0;
  std::vector<const void*> buffers;
  std::vector<FakeArray*> kids;
  std::vector<ArrowArray*> kid_pointers;
  ArrowArray c{};

  static void Release(ArrowArray* a) {
    ++releases;
    a->release = nullptr;
  }
  static void ChildRelease(ArrowArray* a) { a->release = nullptr; }

  ArrowArray* Build(int64_t length, int64_t null_count = 0, bool child = false) {
    c.length = length;
    c.null_count = null_count;
    c.offset = 0;
    c.n_buffers = static_cast<int64_t>(buffers.size());
    c.buffers = buffers.data();
    kid_pointers.clear();
    for (FakeArray* k : kids) kid_pointers.push_back(k->Build(k->c.length, k->c.null_count, true));
    c.n_children = static_cast<int64_t>(kids.size());
    c.children = kid_pointers.empty() ? nullptr : kid_pointers.data();
    c.dictionary = nullptr;
    c.release = child ? &ChildRelease : &Release;
    c.private_data = nullptr;
    if (!child) releases = 0;
    return &c;
  }
};

void ExpectInvalid(ArrowArray* c, const TypePtr& type, const std::string& needle) {
  auto result = ImportArray(c, type);
  ASSERT_FALSE(result.ok());
  EXPECT_TRUE(result.status().IsInvalid()) << result.status().ToString();
  EXPECT_NE(result.status().message().find(needle), std::string::npos) << result.status().ToString();
  EXPECT_EQ(FakeArray::releases, 1) << "the producer's release must run exactly once";
}

alignas(64) const int32_t kInts[8] = {1, 2, 3, 4, 5, 6, 7, 8};
alignas(64) const int32_t kOffsets[4] = {0, 2, 1, 5};
alignas(64) const int32_t kGoodOffsets[4] = {0, 1, 2, 3};
alignas(64) const int32_t kListOffsets[3] = {0, 2, 10};
alignas(64) const char kBadUtf8[4] = {'a', '\xC3', '\x28', 'b'};
alignas(64) const int64_t kLongs[4] = {1, 2, 3, 4};
alignas(64) const uint8_t kAllValid[8] = {0xFF};

TEST(ArrowCHostileTest, WrongBufferCount) {
  FakeArray a;
  a.buffers = {nullptr, kInts, kInts};
  ExpectInvalid(a.Build(3), int32(), "3 buffers, the layout needs 2");
}

TEST(ArrowCHostileTest, NegativeLength) {
  FakeArray a;
  a.buffers = {nullptr, kInts};
  ExpectInvalid(a.Build(-1), int32(), "negative length");
}

TEST(ArrowCHostileTest, NullDataBufferWithRows) {
  FakeArray a;
  a.buffers = {nullptr, nullptr};
  ExpectInvalid(a.Build(3), int32(), "is null, but 12 bytes are needed");
  FakeArray s;
  s.buffers = {nullptr, kGoodOffsets, nullptr};
  ExpectInvalid(s.Build(3), utf8(), "buffer 2 (data) is null");
  // Empty arrays may leave data buffers out.
  FakeArray e;
  e.buffers = {nullptr, nullptr};
  auto ok = ImportArray(e.Build(0), int32());
  EXPECT_TRUE(ok.ok()) << ok.status().ToString();
  EXPECT_EQ(FakeArray::releases, 1);
}

TEST(ArrowCHostileTest, NullsWithoutValidity) {
  FakeArray a;
  a.buffers = {nullptr, kInts};
  ExpectInvalid(a.Build(3, 1), int32(), "null_count is 1 but the validity buffer is null");
  FakeArray b;
  b.buffers = {kAllValid, kInts};
  ExpectInvalid(b.Build(3, 2), int32(), "null_count is 2 but the validity bitmap has 0 nulls");
}

TEST(ArrowCHostileTest, OffsetsOutOfRange) {
  FakeArray child;
  child.buffers = {nullptr, kInts};
  child.c.length = 3;
  FakeArray list_array;
  list_array.buffers = {nullptr, kListOffsets};
  list_array.kids = {&child};
  ExpectInvalid(list_array.Build(2), list(int32()), "last offset 10 is past the end of the child array (3)");
  FakeArray s;
  s.buffers = {nullptr, kOffsets, "abcdefgh"};
  ExpectInvalid(s.Build(3), utf8(), "offsets decrease at row 1");
}

TEST(ArrowCHostileTest, InvalidUtf8) {
  FakeArray s;
  s.buffers = {nullptr, kGoodOffsets, kBadUtf8};
  ExpectInvalid(s.Build(3), utf8(), "not valid UTF-8");
  FakeArray b;  // the same bytes are fine as binary
  b.buffers = {nullptr, kGoodOffsets, kBadUtf8};
  EXPECT_TRUE(ImportArray(b.Build(3), binary()).ok());
}

TEST(ArrowCHostileTest, WrongChildrenAndMisalignment) {
  FakeArray a;
  a.buffers = {nullptr};
  ExpectInvalid(a.Build(1), struct_({field("x", int32())}), "0 children, the type has 1");
  FakeArray m;
  m.buffers = {nullptr, reinterpret_cast<const uint8_t*>(kLongs) + 4};
  ExpectInvalid(m.Build(2), int64(), "not aligned to 8 bytes");
  FakeArray d;  // a dictionary array without its dictionary
  d.buffers = {nullptr, kInts};
  ExpectInvalid(d.Build(2), dictionary(int32(), utf8()), "dictionary is missing");
}

TEST(ArrowCHostileTest, DictionaryIndexOutOfRange) {
  FakeArray values;
  values.buffers = {nullptr, kInts};
  values.Build(2, 0, true);
  FakeArray d;
  d.buffers = {nullptr, kInts};  // indices 1..4, dictionary of 2
  ArrowArray* c = d.Build(4);
  c->dictionary = &values.c;
  ExpectInvalid(c, dictionary(int32(), int32()), "outside a dictionary of 2 values");
}

TEST(ArrowCHostileTest, ReleasedOrNullInputs) {
  ArrowArray released{};
  EXPECT_TRUE(ImportArray(&released, int32()).status().IsInvalid());
  EXPECT_TRUE(ImportArray(nullptr, int32()).status().IsInvalid());
  ArrowSchema released_schema{};
  EXPECT_TRUE(ImportType(&released_schema).status().IsInvalid());
}

// A hand-made ArrowSchema whose release only counts.
struct FakeSchema {
  static inline int releases = 0;
  std::string format;
  std::vector<FakeSchema*> kids;
  std::vector<ArrowSchema*> kid_pointers;
  ArrowSchema c{};
  static void Release(ArrowSchema* s) {
    ++releases;
    s->release = nullptr;
  }
  static void ChildRelease(ArrowSchema* s) { s->release = nullptr; }
  ArrowSchema* Build(bool child = false) {
    kid_pointers.clear();
    for (FakeSchema* k : kids) kid_pointers.push_back(k->Build(true));
    c = ArrowSchema{format.c_str(), "", nullptr, ARROW_FLAG_NULLABLE, static_cast<int64_t>(kids.size()),
                    kid_pointers.empty() ? nullptr : kid_pointers.data(), nullptr,
                    child ? &ChildRelease : &Release, nullptr};
    if (!child) releases = 0;
    return &c;
  }
};

TEST(ArrowCHostileTest, BadFormatStrings) {
  for (const char* format : {"d:", "d:10", "d:10,2,99", "d:x,2", "w:-1", "w:", "w:3x", "tsu", "tsx:UTC", "tt", "ttx",
                             "X", "", "vx", "+w:-1", "+w:", "tDq", "+x"}) {
    SCOPED_TRACE(format);
    FakeSchema s;
    s.format = format;
    FakeSchema child;
    child.format = "i";
    if (std::string_view(format).starts_with("+w")) s.kids = {&child};
    auto result = ImportType(s.Build());
    ASSERT_FALSE(result.ok());
    EXPECT_TRUE(result.status().IsInvalid()) << result.status().ToString();
    EXPECT_EQ(FakeSchema::releases, 1);
  }
  // Child counts must match the format.
  FakeSchema list_without_child;
  list_without_child.format = "+l";
  EXPECT_TRUE(ImportType(list_without_child.Build()).status().IsInvalid());
  EXPECT_EQ(FakeSchema::releases, 1);
  FakeSchema zero_size;  // "+w:0" is legal
  zero_size.format = "+w:0";
  FakeSchema child;
  child.format = "i";
  zero_size.kids = {&child};
  auto type = ImportType(zero_size.Build());
  ASSERT_TRUE(type.ok()) << type.status().ToString();
  EXPECT_TRUE((*type)->Equals(*fixed_size_list(field("", int32()), 0)));
  EXPECT_EQ(FakeSchema::releases, 1);
  // Unions: the type ids must be one per child, distinct, in [0, 127].
  for (const char* format : {"+ud:0", "+us:1,1", "+us:128", "+us:-1", "+ud:0,", "+us:x"}) {
    SCOPED_TRACE(format);
    FakeSchema union_type;
    union_type.format = format;
    FakeSchema member;
    member.format = "i";
    FakeSchema other_member;
    other_member.format = "u";
    if (std::string_view(format).find(',') != std::string_view::npos) union_type.kids = {&member, &other_member};
    auto refused = ImportType(union_type.Build());
    EXPECT_TRUE(refused.status().IsInvalid()) << refused.status().ToString();
    EXPECT_EQ(FakeSchema::releases, 1);
  }
  // Run ends must be int16, int32 or int64.
  FakeSchema ree;
  ree.format = "+r";
  FakeSchema float_ends;
  float_ends.format = "f";
  FakeSchema values;
  values.format = "u";
  ree.kids = {&float_ends, &values};
  EXPECT_TRUE(ImportType(ree.Build()).status().IsInvalid());
  EXPECT_EQ(FakeSchema::releases, 1);
}

// Every interval unit ("tiM", "tiD", "tin") and decimal width ("d:P,S,32" ... ",256") imports;
// a decimal's precision must fit its width, and an unknown interval unit is refused.
TEST(ArrowCTest, IntervalAndDecimalFormats) {
  for (const auto& [format, expected] : {std::pair<const char*, TypePtr>{"tin", month_day_nano_interval()},
                                         {"tiM", year_month_interval()},
                                         {"tiD", day_time_interval()},
                                         {"d:9,2,32", decimal32(9, 2)},
                                         {"d:18,0,64", decimal64(18, 0)},
                                         {"d:5,1", decimal128(5, 1)}}) {
    FakeSchema schema;
    schema.format = format;
    auto type = ImportType(schema.Build());
    ASSERT_TRUE(type.ok()) << format << ": " << type.status().ToString();
    EXPECT_TRUE((*type)->Equals(*expected)) << (*type)->ToString();
    EXPECT_EQ(FakeSchema::releases, 1);
  }
  for (const char* format : {"tix", "d:10,2,32", "d:19,2,64"}) {
    FakeSchema other;
    other.format = format;
    auto refused = ImportType(other.Build());
    ASSERT_FALSE(refused.ok()) << format;
    EXPECT_TRUE(refused.status().IsInvalid()) << refused.status().ToString();
    EXPECT_NE(refused.status().message().find(format), std::string::npos) << refused.status().ToString();
    EXPECT_EQ(FakeSchema::releases, 1);
  }
}

TEST(ArrowCHostileTest, BadSchemaReleasesArrayToo) {
  FakeSchema s;
  s.format = "X";
  FakeArray a;
  a.buffers = {nullptr, kInts};
  ArrowArray* c = a.Build(2);
  auto result = ImportArray(c, s.Build());
  EXPECT_TRUE(result.status().IsInvalid());
  EXPECT_EQ(FakeSchema::releases, 1);
  EXPECT_EQ(FakeArray::releases, 1);
}

}  // namespace
}  // namespace strata::arrow_c
