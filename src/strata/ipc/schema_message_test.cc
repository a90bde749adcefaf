#include "strata/ipc/schema_message.h"
#include "strata/testing/test_data.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <flatbuffers/flatbuffers.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include "strata/util/base64.h"

namespace strata::ipc {
namespace {

namespace fb = flatbuffers;

// Vtable slots of the tables the tests build or inspect by hand (Schema.fbs, Message.fbs).
constexpr fb::voffset_t Slot(int field_index) { return static_cast<fb::voffset_t>(4 + 2 * field_index); }
constexpr fb::voffset_t kMessageVersion = Slot(0), kMessageHeaderType = Slot(1), kMessageHeader = Slot(2),
                        kMessageBodyLength = Slot(3);
constexpr fb::voffset_t kSchemaEndianness = Slot(0), kSchemaFields = Slot(1);
constexpr fb::voffset_t kFieldName = Slot(0), kFieldNullable = Slot(1), kFieldTypeType = Slot(2),
                        kFieldType = Slot(3), kFieldDictionary = Slot(4), kFieldChildren = Slot(5);
constexpr fb::voffset_t kDictionaryId = Slot(0);
constexpr fb::voffset_t kIntBitWidth = Slot(0), kIntIsSigned = Slot(1);
constexpr uint8_t kTypeInt = 2, kTypeList = 12, kTypeStruct = 13, kTypeUnion = 14, kTypeRunEndEncoded = 22;
constexpr uint8_t kTypeInterval = 11;
constexpr fb::voffset_t kIntervalUnitSlot = Slot(0);
constexpr int16_t kYearMonth = 0, kDayTime = 1, kMonthDayNano = 2;  // enum IntervalUnit

FieldPtr F(std::string name, TypePtr type, bool nullable = true, KeyValueMetadata metadata = {}) {
  return field(std::move(name), std::move(type), nullable, std::move(metadata));
}

std::shared_ptr<Schema> RoundTrip(const Schema& schema) {
  auto message = SerializeSchema(schema);
  EXPECT_TRUE(message.ok()) << message.status().ToString();
  if (!message.ok()) return nullptr;
  auto back = DeserializeSchema(*message);
  EXPECT_TRUE(back.ok()) << back.status().ToString();
  return back.ok() ? *back : nullptr;
}

void ExpectRoundTrip(const Schema& schema) {
  auto back = RoundTrip(schema);
  ASSERT_NE(back, nullptr);
  EXPECT_TRUE(back->Equals(schema, /*check_metadata=*/true)) << "wrote:\n"
                                                             << schema.ToString() << "\nread:\n"
                                                             << back->ToString();
  EXPECT_EQ(back->ToString(), schema.ToString());
}

// One field per strata TypeId (and per unit where units matter).
Schema EveryTypeSchema() {
  return Schema(
      {
          F("null", null()),
          F("bool", boolean(), false),
          F("i8", int8()), F("i16", int16()), F("i32", int32(), false), F("i64", int64()),
          F("u8", uint8()), F("u16", uint16()), F("u32", uint32()), F("u64", uint64()),
          F("f16", float16()), F("f32", float32()), F("f64", float64()),
          F("dec32", decimal32(9, 2)), F("dec64", decimal64(18, -1)),
          F("dec128", decimal128(38, 10)), F("dec256", decimal256(76, -3)),
          F("date32", date32()), F("date64", date64()),
          F("time_s", time32(TimeUnit::kSecond)), F("time_ms", time32(TimeUnit::kMilli)),
          F("time_us", time64(TimeUnit::kMicro)), F("time_ns", time64(TimeUnit::kNano)),
          F("ts_s", timestamp(TimeUnit::kSecond)), F("ts_ms_utc", timestamp(TimeUnit::kMilli, "UTC")),
          F("ts_us_offset", timestamp(TimeUnit::kMicro, "+07:30")),
          F("ts_ns_ny", timestamp(TimeUnit::kNano, "America/New_York")),
          F("dur_s", duration(TimeUnit::kSecond)), F("dur_ms", duration(TimeUnit::kMilli)),
          F("dur_us", duration(TimeUnit::kMicro)), F("dur_ns", duration(TimeUnit::kNano)),
          F("interval", month_day_nano_interval()), F("interval_ym", year_month_interval()),
          F("interval_dt", day_time_interval()),
          F("bin", binary()), F("str", utf8(), false, {{"comment", "utf-8 \xc3\xa9"}}),
          F("large_bin", large_binary()), F("large_str", large_utf8()),
          F("bin_view", binary_view()), F("str_view", utf8_view()),
          F("fsb0", fixed_size_binary(0)), F("uuid", fixed_size_binary(16)),
          F("list", list(F("item", int32(), false))),
          F("large_list", large_list(F("element", utf8()))),
          F("fsl", fixed_size_list(F("item", float32()), 3)),
          F("struct", struct_({F("a", int64(), false), F("b", boolean())})),
          F("empty_struct", struct_({})),
          F("map", map(utf8(), int64())),
          F("sorted_map", map(int32(), F("value", utf8(), false), /*keys_sorted=*/true)),
          F("dict", dictionary(int32(), utf8())),
          F("dict_u8_ordered", dictionary(uint8(), large_utf8(), /*ordered=*/true)),
          F("dict_i64", dictionary(int64(), decimal128(9, 2))),
          F("sparse", sparse_union({F("i", int32()), F("s", utf8(), false)}, {5, 7})),
          F("dense", dense_union({F("a", int16()), F("n", null())}, {127, 0})),
          F("ree", run_end_encoded(int16(), utf8())),
          F("list_view", list_view(F("item", int32(), false))),
          F("large_list_view", large_list_view(utf8())),
      },
      {{"pandas", "{\"columns\": []}"}, {"", "empty key"}, {"empty value", ""}});
}

TEST(SchemaMessageTest, RoundTripsEveryType) { ExpectRoundTrip(EveryTypeSchema()); }

TEST(SchemaMessageTest, RoundTripsAnEmptySchema) { ExpectRoundTrip(Schema({})); }

TEST(SchemaMessageTest, RoundTripsDeepNestingWithMetadataAndNullability) {
  KeyValueMetadata meta{{"PARQUET:field_id", "7"}, {"note", std::string("nul\0byte", 8)}};
  TypePtr inner = struct_({F("code", dictionary(int16(), utf8()), false, meta), F("when", timestamp(TimeUnit::kNano, "UTC"))});
  inner = map(utf8(), F("value", list(F("item", inner, false, meta)), true, meta), true);
  inner = fixed_size_list(F("item", inner, false), 2);
  inner = large_list(F("element", struct_({F("m", inner, true, meta), F("d", dictionary(int8(), list(utf8())))})));
  inner = list(F("item", inner, false));
  ExpectRoundTrip(Schema({F("deep", inner, false, meta), F("flat", utf8())}, {{"k", "v"}}));
}

TEST(SchemaMessageTest, FramesAnEncapsulatedV5SchemaMessage) {
  auto message = SerializeSchema(EveryTypeSchema());
  ASSERT_TRUE(message.ok()) << message.status().ToString();
  ASSERT_GE(message->size(), 16u);
  EXPECT_EQ(message->size() % 8, 0u);
  uint32_t marker = 0;
  int32_t length = 0;
  std::memcpy(&marker, message->data(), 4);
  std::memcpy(&length, message->data() + 4, 4);
  EXPECT_EQ(marker, 0xFFFFFFFFu);
  EXPECT_EQ(static_cast<size_t>(length), message->size() - 8);

  // Read the Message table directly, through the flatbuffers runtime only.
  std::vector<uint64_t> aligned(static_cast<size_t>(length) / 8);
  std::memcpy(aligned.data(), message->data() + 8, static_cast<size_t>(length));
  const auto* bytes = reinterpret_cast<const uint8_t*>(aligned.data());
  const auto* root = fb::GetRoot<fb::Table>(bytes);
  EXPECT_EQ(root->GetField<int16_t>(kMessageVersion, 0), 4);  // V5
  EXPECT_EQ(root->GetField<uint8_t>(kMessageHeaderType, 0), 1);  // Schema
  EXPECT_EQ(root->GetField<int64_t>(kMessageBodyLength, -1), 0);
  const auto* schema = root->GetPointer<const fb::Table*>(kMessageHeader);
  ASSERT_NE(schema, nullptr);
  EXPECT_EQ(schema->GetField<int16_t>(kSchemaEndianness, -1), 0);  // Little
}

// Collects (path, dictionary id) in field order by walking the written flatbuffer.
void CollectDictionaryIds(const fb::Table* field, const std::string& parent, std::vector<std::string>& out) {
  const auto* name = field->GetPointer<const fb::String*>(kFieldName);
  const std::string path = parent + (parent.empty() ? "" : ".") + name->str();
  if (const auto* dictionary = field->GetPointer<const fb::Table*>(kFieldDictionary)) {
    out.push_back(path + "=" + std::to_string(dictionary->GetField<int64_t>(kDictionaryId, -1)));
  }
  const auto* children = field->GetPointer<const fb::Vector<fb::Offset<fb::Table>>*>(kFieldChildren);
  for (fb::uoffset_t i = 0; children != nullptr && i < children->size(); ++i) {
    CollectDictionaryIds(children->Get(i), path, out);
  }
}

TEST(SchemaMessageTest, AssignsDictionaryIdsDepthFirst) {
  const Schema schema({
      F("a", dictionary(int32(), utf8())),
      F("s", struct_({F("b", dictionary(int8(), struct_({F("c", dictionary(int32(), binary()))}))),
                      F("d", dictionary(int16(), utf8()))})),
      F("e", list(F("item", dictionary(int64(), utf8())))),
  });
  auto message = SerializeSchema(schema);
  ASSERT_TRUE(message.ok()) << message.status().ToString();
  std::vector<uint64_t> aligned((message->size() - 8) / 8);
  std::memcpy(aligned.data(), message->data() + 8, message->size() - 8);
  const auto* root = fb::GetRoot<fb::Table>(reinterpret_cast<const uint8_t*>(aligned.data()));
  const auto* fields =
      root->GetPointer<const fb::Table*>(kMessageHeader)->GetPointer<const fb::Vector<fb::Offset<fb::Table>>*>(kSchemaFields);
  std::vector<std::string> ids;
  for (fb::uoffset_t i = 0; i < fields->size(); ++i) CollectDictionaryIds(fields->Get(i), "", ids);
  EXPECT_EQ(ids, (std::vector<std::string>{"a=0", "s.b=1", "s.b.c=2", "s.d=3", "e.item=4"}));
  ExpectRoundTrip(schema);
}

TEST(SchemaMessageTest, RefusesADictionaryOfDictionaries) {
  auto message = SerializeSchema(Schema({F("x", dictionary(int32(), dictionary(int8(), utf8())))}));
  EXPECT_TRUE(message.status().IsNotImplemented()) << message.status().ToString();
}

TEST(SchemaMessageTest, ReadsMessagesWithoutTheContinuationMarker) {
  auto message = SerializeSchema(EveryTypeSchema());
  ASSERT_TRUE(message.ok());
  auto back = DeserializeSchema(std::string_view(*message).substr(4));  // pre-0.15: length first
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_TRUE((*back)->Equals(EveryTypeSchema(), true));
}

TEST(SchemaMessageTest, ReadsTheFirstMessageOfAStream) {
  auto message = SerializeSchema(EveryTypeSchema());
  ASSERT_TRUE(message.ok());
  const std::string stream = *message + std::string("\xff\xff\xff\xff\0\0\0\0", 8);
  auto back = DeserializeSchema(stream);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_TRUE((*back)->Equals(EveryTypeSchema(), true));
}

TEST(SchemaMessageTest, RoundTripsThroughBase64AsParquetStoresIt) {
  auto message = SerializeSchema(EveryTypeSchema());
  ASSERT_TRUE(message.ok());
  auto decoded = Base64Decode(Base64Encode(*message));
  ASSERT_TRUE(decoded.ok());
  auto back = DeserializeSchema(*decoded);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_TRUE((*back)->Equals(EveryTypeSchema(), true));
}

// ---------------------------------------------------------------------------------------------
// Hostile input.

TEST(SchemaMessageTest, RefusesEveryTruncation) {
  auto message = SerializeSchema(EveryTypeSchema());
  ASSERT_TRUE(message.ok());
  for (size_t size = 0; size < message->size(); ++size) {
    auto back = DeserializeSchema(std::string_view(*message).substr(0, size));
    ASSERT_FALSE(back.ok()) << size;
    EXPECT_TRUE(back.status().IsCorrupt()) << size << ": " << back.status().ToString();
  }
}

TEST(SchemaMessageTest, SurvivesEverySingleByteCorruption) {
  auto message = SerializeSchema(
      Schema({F("m", map(utf8(), F("value", list(dictionary(int8(), utf8())), true, {{"k", "v"}}))),
              F("ts", timestamp(TimeUnit::kNano, "UTC")), F("d", decimal128(10, 2))},
             {{"a", "b"}}));
  ASSERT_TRUE(message.ok());
  int refused = 0;
  for (size_t i = 0; i < message->size(); ++i) {
    const uint8_t original = static_cast<uint8_t>((*message)[i]);
    for (const uint8_t value : {uint8_t{0x00}, uint8_t{0xFF}, uint8_t{0x80}, uint8_t{0x7F},
                                static_cast<uint8_t>(original ^ 0x01), static_cast<uint8_t>(original + 8)}) {
      std::string corrupted = *message;
      corrupted[i] = static_cast<char>(value);
      auto back = DeserializeSchema(corrupted);  // must not crash or read out of bounds (ASan)
      if (!back.ok()) {
        ++refused;
        EXPECT_FALSE(back.status().message().empty());
      }
    }
  }
  EXPECT_GT(refused, 0);
}

TEST(SchemaMessageTest, RefusesRandomFlatbuffers) {
  std::mt19937 rng(42);
  for (int trial = 0; trial < 2000; ++trial) {
    const size_t length = 8 + rng() % 200;
    std::string message("\xff\xff\xff\xff", 4);
    const int32_t declared = static_cast<int32_t>(length);
    message.append(reinterpret_cast<const char*>(&declared), 4);
    for (size_t i = 0; i < length; ++i) message.push_back(static_cast<char>(rng() % 4 == 0 ? rng() % 256 : rng() % 16));
    auto back = DeserializeSchema(message);
    if (back.ok()) continue;  // random bytes can spell a valid empty schema; no crash is the point
    EXPECT_FALSE(back.status().message().empty());
  }
}

TEST(SchemaMessageTest, RefusesBadPrefixes) {
  EXPECT_TRUE(DeserializeSchema("").status().IsCorrupt());
  EXPECT_TRUE(DeserializeSchema(std::string("\xff\xff\xff\xff\0\0\0\0", 8)).status().IsCorrupt());  // end of stream
  auto negative = DeserializeSchema(std::string("\xff\xff\xff\xff\xf0\xff\xff\xff", 8));
  EXPECT_TRUE(negative.status().IsCorrupt());
  auto too_long = DeserializeSchema(std::string("\xff\xff\xff\xff\x40\0\0\0\0\0\0\0", 12));
  EXPECT_TRUE(too_long.status().IsCorrupt());
  EXPECT_NE(too_long.status().message().find("length 64 at byte 4"), std::string::npos) << too_long.status().ToString();
}

// Hand-built messages, for shapes SerializeSchema never writes.
struct RawOptions {
  int16_t version = 4;  // V5
  uint8_t header_type = 1;  // Schema
  int16_t endianness = 0;
};
using FieldMaker = std::function<std::vector<fb::Offset<void>>(fb::FlatBufferBuilder&)>;

std::string BuildRawMessage(const FieldMaker& make_fields, RawOptions options = {}) {
  fb::FlatBufferBuilder fbb;
  const auto fields = fbb.CreateVector(make_fields(fbb));
  auto start = fbb.StartTable();
  fbb.AddElement<int16_t>(kSchemaEndianness, options.endianness);
  fbb.AddOffset(kSchemaFields, fields);
  const fb::Offset<void> schema(fbb.EndTable(start));
  start = fbb.StartTable();
  fbb.AddElement<int16_t>(kMessageVersion, options.version);
  fbb.AddElement<uint8_t>(kMessageHeaderType, options.header_type);
  fbb.AddOffset(kMessageHeader, schema);
  fbb.Finish(fb::Offset<void>(fbb.EndTable(start)));
  std::string message("\xff\xff\xff\xff", 4);
  const int32_t length = static_cast<int32_t>(fbb.GetSize());
  message.append(reinterpret_cast<const char*>(&length), 4);
  message.append(reinterpret_cast<const char*>(fbb.GetBufferPointer()), fbb.GetSize());
  return message;
}

fb::Offset<void> RawField(fb::FlatBufferBuilder& fbb, const std::string& name, uint8_t type_tag,
                          std::vector<fb::Offset<void>> children = {}) {
  const auto children_vector = fbb.CreateVector(children);
  const auto type = fb::Offset<void>(fbb.EndTable(fbb.StartTable()));
  const auto name_string = fbb.CreateString(name);
  const auto start = fbb.StartTable();
  fbb.AddOffset(kFieldName, name_string);
  fbb.AddElement<uint8_t>(kFieldNullable, 1);
  fbb.AddElement<uint8_t>(kFieldTypeType, type_tag);
  fbb.AddOffset(kFieldType, type);
  fbb.AddOffset(kFieldChildren, children_vector);
  return fb::Offset<void>(fbb.EndTable(start));
}

fb::Offset<void> RawIntField(fb::FlatBufferBuilder& fbb, const std::string& name, int32_t bit_width) {
  auto start = fbb.StartTable();
  fbb.AddElement<int32_t>(kIntBitWidth, bit_width);
  fbb.AddElement<uint8_t>(kIntIsSigned, 1);
  const fb::Offset<void> type(fbb.EndTable(start));
  const auto name_string = fbb.CreateString(name);
  start = fbb.StartTable();
  fbb.AddOffset(kFieldName, name_string);
  fbb.AddElement<uint8_t>(kFieldTypeType, kTypeInt);
  fbb.AddOffset(kFieldType, type);
  return fb::Offset<void>(fbb.EndTable(start));
}

TEST(SchemaMessageTest, AcceptsAHandBuiltMessage) {
  auto back = DeserializeSchema(BuildRawMessage([](fb::FlatBufferBuilder& fbb) {
    return std::vector<fb::Offset<void>>{RawIntField(fbb, "x", 16)};
  }));
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_TRUE((*back)->Equals(Schema({F("x", int16(), false)})));
}

TEST(SchemaMessageTest, NamesTheFieldOfUnsupportedTypes) {
  for (const uint8_t tag : {uint8_t{99} /*from the future*/}) {
    auto back = DeserializeSchema(BuildRawMessage([tag](fb::FlatBufferBuilder& fbb) {
      auto leaf = RawIntField(fbb, "leaf", 32);
      auto odd = RawField(fbb, "odd", tag, {leaf});
      return std::vector<fb::Offset<void>>{RawField(fbb, "outer", kTypeStruct, {odd})};
    }));
    ASSERT_TRUE(back.status().IsNotImplemented()) << int{tag} << ": " << back.status().ToString();
    EXPECT_NE(back.status().message().find("'outer.odd'"), std::string::npos) << back.status().ToString();
  }
}

// Interval(unit): each of the three units reads as its type; other units are corrupt.
TEST(SchemaMessageTest, IntervalUnits) {
  auto message_with_unit = [](int16_t unit) {
    return BuildRawMessage([unit](fb::FlatBufferBuilder& fbb) {
      auto start = fbb.StartTable();
      fbb.AddElement<int16_t>(kIntervalUnitSlot, unit, /*default=*/-1);  // always stored
      const fb::Offset<void> type(fbb.EndTable(start));
      const auto name = fbb.CreateString("span");
      start = fbb.StartTable();
      fbb.AddOffset(kFieldName, name);
      fbb.AddElement<uint8_t>(kFieldNullable, 1);
      fbb.AddElement<uint8_t>(kFieldTypeType, kTypeInterval);
      fbb.AddOffset(kFieldType, type);
      return std::vector<fb::Offset<void>>{fb::Offset<void>(fbb.EndTable(start))};
    });
  };
  for (const auto& [unit, type] : {std::pair<int16_t, TypePtr>{kMonthDayNano, month_day_nano_interval()},
                                   {kYearMonth, year_month_interval()},
                                   {kDayTime, day_time_interval()}}) {
    auto back = DeserializeSchema(message_with_unit(unit));
    ASSERT_TRUE(back.ok()) << back.status().ToString();
    EXPECT_TRUE((*back)->Equals(Schema({F("span", type)}))) << (*back)->ToString();
  }
  auto corrupt = DeserializeSchema(message_with_unit(7));
  EXPECT_TRUE(corrupt.status().IsCorrupt());
  EXPECT_NE(corrupt.status().message().find("'span'"), std::string::npos) << corrupt.status().ToString();
}

TEST(SchemaMessageTest, RefusesOtherVersionsHeadersAndEndianness) {
  const FieldMaker one_field = [](fb::FlatBufferBuilder& fbb) {
    return std::vector<fb::Offset<void>>{RawIntField(fbb, "x", 32)};
  };
  EXPECT_TRUE(DeserializeSchema(BuildRawMessage(one_field, {.version = 3})).ok());  // V4
  EXPECT_TRUE(DeserializeSchema(BuildRawMessage(one_field, {.version = 2})).status().IsNotImplemented());
  EXPECT_TRUE(DeserializeSchema(BuildRawMessage(one_field, {.version = 5})).status().IsNotImplemented());
  EXPECT_TRUE(DeserializeSchema(BuildRawMessage(one_field, {.header_type = 3})).status().IsCorrupt());
  EXPECT_TRUE(DeserializeSchema(BuildRawMessage(one_field, {.endianness = 1})).status().IsNotImplemented());
  auto bad_width = DeserializeSchema(BuildRawMessage([](fb::FlatBufferBuilder& fbb) {
    return std::vector<fb::Offset<void>>{RawIntField(fbb, "x", 7)};
  }));
  EXPECT_TRUE(bad_width.status().IsCorrupt()) << bad_width.status().ToString();
}

TEST(SchemaMessageTest, RefusesBadOffsets) {
  std::string message = SerializeSchema(EveryTypeSchema()).ValueOrDie();
  // Root offset past the end of the flatbuffer.
  std::string bad_root = message;
  const uint32_t far = 1u << 20;
  std::memcpy(bad_root.data() + 8, &far, 4);
  auto back = DeserializeSchema(bad_root);
  EXPECT_TRUE(back.status().IsCorrupt()) << back.status().ToString();
  EXPECT_NE(back.status().message().find("byte 8"), std::string::npos) << back.status().ToString();
  // The root table's vtable offset pointing outside the buffer.
  uint32_t root = 0;
  std::memcpy(&root, message.data() + 8, 4);
  std::string bad_vtable = message;
  const int32_t outside = -(1 << 24);
  std::memcpy(bad_vtable.data() + 8 + root, &outside, 4);
  back = DeserializeSchema(bad_vtable);
  EXPECT_TRUE(back.status().IsCorrupt()) << back.status().ToString();
}

TEST(SchemaMessageTest, RefusesNestingBeyondTheLimit) {
  auto nested = [](int depth) {
    TypePtr type = int32();
    for (int i = 1; i < depth; ++i) type = list(type);
    return Schema({F("bomb", type)});
  };
  ExpectRoundTrip(nested(kMaxSchemaNestingDepth));
  auto message = SerializeSchema(nested(kMaxSchemaNestingDepth + 1));
  EXPECT_TRUE(message.status().IsLimitExceeded()) << message.status().ToString();

  // Lists nested `depth` fields deep, built by hand since SerializeSchema refuses them.
  auto raw_nested = [](int depth) {
    return BuildRawMessage([depth](fb::FlatBufferBuilder& fbb) {
      fb::Offset<void> level = RawIntField(fbb, "leaf", 32);
      for (int i = 1; i < depth; ++i) level = RawField(fbb, "l", kTypeList, {level});
      return std::vector<fb::Offset<void>>{level};
    });
  };
  EXPECT_TRUE(DeserializeSchema(raw_nested(kMaxSchemaNestingDepth)).ok());
  for (const int depth : {kMaxSchemaNestingDepth + 1, 100000}) {
    auto back = DeserializeSchema(raw_nested(depth));
    EXPECT_TRUE(back.status().IsLimitExceeded()) << depth << ": " << back.status().ToString();
  }
}

TEST(SchemaMessageTest, RefusesSharedSubtreeBombs) {
  // Each level's children vector holds 1000 references to the same field: 6 levels would
  // expand to 10^18 fields from a few kilobytes.
  auto back = DeserializeSchema(BuildRawMessage([](fb::FlatBufferBuilder& fbb) {
    fb::Offset<void> level = RawIntField(fbb, "leaf", 32);
    for (int depth = 0; depth < 6; ++depth) level = RawField(fbb, "s", kTypeStruct, std::vector<fb::Offset<void>>(1000, level));
    return std::vector<fb::Offset<void>>{level};
  }));
  EXPECT_TRUE(back.status().IsLimitExceeded()) << back.status().ToString();
}

// ---------------------------------------------------------------------------------------------
// Interop with apache-arrow (JavaScript), an implementation strata did not write.

std::filesystem::path SourceRoot() {
  const char* dir = std::getenv("STRATA_SOURCE_DIR");
  return dir != nullptr ? std::filesystem::path(dir)
                        : std::filesystem::path(__FILE__).parent_path().parent_path().parent_path().parent_path();
}

// The apache-arrow package: the source tree's node_modules, or $STRATA_NODE_MODULES.
std::filesystem::path ArrowJsDir() {
  if (const char* modules = std::getenv("STRATA_NODE_MODULES")) {
    if (std::filesystem::exists(std::filesystem::path(modules) / "apache-arrow")) {
      return std::filesystem::path(modules) / "apache-arrow";
    }
  }
  return SourceRoot() / "node_modules" / "apache-arrow";
}

// Skips (locally) or fails (with CI set) when node or apache-arrow is missing.
#define STRATA_REQUIRE_ARROW_JS()                                                                            \
  do {                                                                                                      \
    const bool have_node = std::system("node --version > /dev/null 2>&1") == 0;                             \
    const bool have_arrow = std::filesystem::exists(ArrowJsDir() / "Arrow.node.mjs");                       \
    if (!have_node || !have_arrow) {                                                                        \
      const std::string why = std::string(have_node ? "" : "node is not on PATH; ") +                       \
                              (have_arrow ? "" : "apache-arrow is missing at " + ArrowJsDir().string() +    \
                                                     " (npm ci, or set STRATA_NODE_MODULES)");              \
      if (::strata::testing::RunningUnderCi()) FAIL() << "CI is set and the Arrow JS peer is unavailable: " << why; \
      GTEST_SKIP() << "Arrow JS peer unavailable: " << why;                                                 \
    }                                                                                                       \
  } while (false)

// Runs the peer script; returns its exit code, with stdout and stderr in `output`.
int RunArrowPeer(const std::string& mode, const std::filesystem::path& file, std::string& output) {
  const std::filesystem::path script = SourceRoot() / "src/strata/ipc/testdata/arrow_schema_peer.mjs";
  const std::filesystem::path log = file.string() + ".log";
  const std::string command = "node '" + script.string() + "' '" + ArrowJsDir().string() + "' " + mode + " '" +
                              file.string() + "' > '" + log.string() + "' 2>&1";
  const int rc = std::system(command.c_str());
  std::ifstream in(log);
  std::stringstream text;
  text << in.rdbuf();
  output = text.str();
  std::filesystem::remove(log);
  return rc;
}

std::filesystem::path TempFile(const std::string& name) {
  return std::filesystem::temp_directory_path() / ("strata_ipc_" + std::to_string(::getpid()) + "_" + name);
}

TEST(SchemaMessageInteropTest, ApacheArrowJsReadsOurMessage) {
  STRATA_REQUIRE_ARROW_JS();
  const Schema schema(
      {
          F("null", null()), F("bool", boolean(), false), F("i8", int8()), F("u64", uint64()),
          F("f16", float16()), F("f64", float64()), F("dec", decimal128(15, 2)), F("dec256", decimal256(60, 10)),
          F("date32", date32()), F("date64", date64()), F("time_s", time32(TimeUnit::kSecond)),
          F("time_ns", time64(TimeUnit::kNano)), F("ts", timestamp(TimeUnit::kMicro)),
          F("ts_tz", timestamp(TimeUnit::kNano, "Europe/Paris")), F("dur", duration(TimeUnit::kMilli)),
          F("bin", binary()), F("str", utf8(), true, {{"k", "v"}}), F("large_bin", large_binary()),
          F("large_str", large_utf8()), F("bin_view", binary_view()), F("str_view", utf8_view()),
          F("fsb", fixed_size_binary(16)), F("list", list(F("item", int32(), false))),
          F("large_list", large_list(utf8())), F("fsl", fixed_size_list(float32(), 3)),
          F("struct", struct_({F("a", int64(), false), F("d", dictionary(int8(), utf8()))})),
          F("map", map(utf8(), int64(), true)), F("dict", dictionary(int32(), utf8(), true)),
      },
      {{"origin", "strata"}});
  auto message = SerializeSchema(schema);
  ASSERT_TRUE(message.ok()) << message.status().ToString();
  const std::filesystem::path file = TempFile("ours.arrows");
  {
    std::ofstream out(file, std::ios::binary);
    out << *message << std::string("\xff\xff\xff\xff\0\0\0\0", 8);  // end-of-stream marker
  }
  std::string output;
  const int rc = RunArrowPeer("read", file, output);
  std::filesystem::remove(file);
  ASSERT_EQ(rc, 0) << output;
  EXPECT_EQ(output,
            "null: Null\n"
            "bool: Bool not null\n"
            "i8: Int(bitWidth=8, signed=true)\n"
            "u64: Int(bitWidth=64, signed=false)\n"
            "f16: Float(HALF)\n"
            "f64: Float(DOUBLE)\n"
            "dec: Decimal(precision=15, scale=2, bitWidth=128)\n"
            "dec256: Decimal(precision=60, scale=10, bitWidth=256)\n"
            "date32: Date(DAY)\n"
            "date64: Date(MILLISECOND)\n"
            "time_s: Time(SECOND, bitWidth=32)\n"
            "time_ns: Time(NANOSECOND, bitWidth=64)\n"
            "ts: Timestamp(MICROSECOND, tz=none)\n"
            "ts_tz: Timestamp(NANOSECOND, tz=Europe/Paris)\n"
            "dur: Duration(MILLISECOND)\n"
            "bin: Binary\n"
            "str: Utf8\n"
            "  [k=v]\n"
            "large_bin: LargeBinary\n"
            "large_str: LargeUtf8\n"
            "bin_view: BinaryView\n"
            "str_view: Utf8View\n"
            "fsb: FixedSizeBinary(16)\n"
            "list: List\n"
            "  item: Int(bitWidth=32, signed=true) not null\n"
            "large_list: LargeList\n"
            "  item: Utf8\n"
            "fsl: FixedSizeList(3)\n"
            "  item: Float(SINGLE)\n"
            "struct: Struct\n"
            "  a: Int(bitWidth=64, signed=true) not null\n"
            "  d: Dictionary(id=0, ordered=false, indices=Int(bitWidth=8, signed=true), values=Utf8)\n"
            "map: Map(keysSorted=true)\n"
            "  entries: Struct not null\n"
            "    key: Utf8 not null\n"
            "    value: Int(bitWidth=64, signed=true)\n"
            "dict: Dictionary(id=1, ordered=true, indices=Int(bitWidth=32, signed=true), values=Utf8)\n"
            "  [origin=strata]\n");
}

TEST(SchemaMessageInteropTest, ReadsTheSchemaApacheArrowJsWrites) {
  STRATA_REQUIRE_ARROW_JS();
  const std::filesystem::path file = TempFile("theirs.arrows");
  std::string output;
  ASSERT_EQ(RunArrowPeer("write", file, output), 0) << output;
  std::ifstream in(file, std::ios::binary);
  const std::string stream((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::filesystem::remove(file);
  auto schema = DeserializeSchema(stream);
  ASSERT_TRUE(schema.ok()) << schema.status().ToString();

  const Schema expected(
      {
          F("null", null()), F("bool", boolean(), false),
          F("i8", int8()), F("i16", int16()), F("i32", int32()), F("i64", int64()),
          F("u8", uint8()), F("u16", uint16()), F("u32", uint32()), F("u64", uint64()),
          F("f16", float16()), F("f32", float32()), F("f64", float64()),
          F("dec128", decimal128(15, 2)), F("dec256", decimal256(60, 10)),
          F("date32", date32()), F("date64", date64()),
          F("time_s", time32(TimeUnit::kSecond)), F("time_ms", time32(TimeUnit::kMilli)),
          F("time_us", time64(TimeUnit::kMicro)), F("time_ns", time64(TimeUnit::kNano)),
          F("ts_naive", timestamp(TimeUnit::kMicro)), F("ts_utc", timestamp(TimeUnit::kNano, "UTC")),
          F("ts_ny", timestamp(TimeUnit::kSecond, "America/New_York")),
          F("dur_ms", duration(TimeUnit::kMilli)), F("dur_ns", duration(TimeUnit::kNano)),
          F("bin", binary()), F("str", utf8(), true, {{"k", "v"}}),
          F("large_bin", large_binary()), F("large_str", large_utf8()),
          F("bin_view", binary_view()), F("str_view", utf8_view()),
          F("fsb", fixed_size_binary(16)),
          F("list", list(F("item", int32(), false))),
          F("large_list", large_list(F("item", utf8()))),
          F("fsl", fixed_size_list(F("item", float32()), 3)),
          F("struct", struct_({F("a", int64(), false), F("b", list(utf8()))})),
          F("map", map(utf8(), int64(), /*keys_sorted=*/true)),
          F("dict", dictionary(int32(), utf8())),
          F("dict_ordered", dictionary(int16(), utf8(), /*ordered=*/true)),
      },
      {{"origin", "apache-arrow js"}});
  EXPECT_TRUE((*schema)->Equals(expected, /*check_metadata=*/true)) << "read:\n"
                                                                   << (*schema)->ToString() << "\nexpected:\n"
                                                                   << expected.ToString();
  // What Equals does not compare: the names of list items and map entries.
  EXPECT_EQ((*schema)->ToString(), expected.ToString());
}

}  // namespace
}  // namespace strata::ipc
