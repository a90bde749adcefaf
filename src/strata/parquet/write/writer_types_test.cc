// Every strata type the writer maps to Parquet: the schema element it writes (physical,
// logical and converted types) and the values strata's reader gets back.
#include <cstring>

#include <gtest/gtest.h>

#include "strata/array/binary_builder.h"
#include "strata/parquet/testing/random_arrays.h"
#include "strata/parquet/write/writer_schema.h"
#include "strata/parquet/write/writer_test_util.h"

namespace strata::parquet {
namespace {

using testing::OpenBuffer;
using testing::RandomArray;
using testing::ReadBuffer;
using testing::WriteToBuffer;
using Kind = LogicalType::Kind;
using ArrowUnit = ::strata::TimeUnit;

MemoryPool* Pool() { return SystemMemoryPool(); }

struct MappingCase {
  TypePtr type;
  PhysicalType physical;
  std::optional<Kind> logical;
  std::optional<ConvertedType> converted;
  int32_t type_length = 0;
};

TEST(WriterSchemaTest, EveryLeafTypeMapsToItsParquetForm) {
  const std::vector<MappingCase> cases = {
      {boolean(), PhysicalType::kBoolean, std::nullopt, std::nullopt},
      {int8(), PhysicalType::kInt32, Kind::kInteger, ConvertedType::kInt8},
      {int16(), PhysicalType::kInt32, Kind::kInteger, ConvertedType::kInt16},
      {int32(), PhysicalType::kInt32, std::nullopt, std::nullopt},
      {int64(), PhysicalType::kInt64, std::nullopt, std::nullopt},
      {uint8(), PhysicalType::kInt32, Kind::kInteger, ConvertedType::kUint8},
      {uint16(), PhysicalType::kInt32, Kind::kInteger, ConvertedType::kUint16},
      {uint32(), PhysicalType::kInt32, Kind::kInteger, ConvertedType::kUint32},
      {uint64(), PhysicalType::kInt64, Kind::kInteger, ConvertedType::kUint64},
      {float16(), PhysicalType::kFixedLenByteArray, Kind::kFloat16, std::nullopt, 2},
      {float32(), PhysicalType::kFloat, std::nullopt, std::nullopt},
      {float64(), PhysicalType::kDouble, std::nullopt, std::nullopt},
      {decimal128(9, 2), PhysicalType::kInt32, Kind::kDecimal, ConvertedType::kDecimal},
      {decimal128(18, 2), PhysicalType::kInt64, Kind::kDecimal, ConvertedType::kDecimal},
      {decimal128(19, 2), PhysicalType::kFixedLenByteArray, Kind::kDecimal, ConvertedType::kDecimal, 9},
      {decimal128(38, 2), PhysicalType::kFixedLenByteArray, Kind::kDecimal, ConvertedType::kDecimal, 16},
      {decimal256(76, 2), PhysicalType::kFixedLenByteArray, Kind::kDecimal, ConvertedType::kDecimal, 32},
      {date32(), PhysicalType::kInt32, Kind::kDate, ConvertedType::kDate},
      {date64(), PhysicalType::kInt32, Kind::kDate, ConvertedType::kDate},
      {time32(ArrowUnit::kSecond), PhysicalType::kInt32, Kind::kTime, ConvertedType::kTimeMillis},
      {time32(ArrowUnit::kMilli), PhysicalType::kInt32, Kind::kTime, ConvertedType::kTimeMillis},
      {time64(ArrowUnit::kMicro), PhysicalType::kInt64, Kind::kTime, ConvertedType::kTimeMicros},
      {time64(ArrowUnit::kNano), PhysicalType::kInt64, Kind::kTime, std::nullopt},
      {timestamp(ArrowUnit::kMilli), PhysicalType::kInt64, Kind::kTimestamp, std::nullopt},
      {timestamp(ArrowUnit::kMilli, "UTC"), PhysicalType::kInt64, Kind::kTimestamp, ConvertedType::kTimestampMillis},
      {timestamp(ArrowUnit::kMicro, "Europe/Paris"), PhysicalType::kInt64, Kind::kTimestamp,
       ConvertedType::kTimestampMicros},
      {timestamp(ArrowUnit::kNano, "UTC"), PhysicalType::kInt64, Kind::kTimestamp, std::nullopt},
      {duration(ArrowUnit::kMicro), PhysicalType::kInt64, std::nullopt, std::nullopt},
      {utf8(), PhysicalType::kByteArray, Kind::kString, ConvertedType::kUtf8},
      {large_utf8(), PhysicalType::kByteArray, Kind::kString, ConvertedType::kUtf8},
      {utf8_view(), PhysicalType::kByteArray, Kind::kString, ConvertedType::kUtf8},
      {binary(), PhysicalType::kByteArray, std::nullopt, std::nullopt},
      {large_binary(), PhysicalType::kByteArray, std::nullopt, std::nullopt},
      {binary_view(), PhysicalType::kByteArray, std::nullopt, std::nullopt},
      {fixed_size_binary(16), PhysicalType::kFixedLenByteArray, std::nullopt, std::nullopt, 16},
      {null(), PhysicalType::kInt32, Kind::kNull, std::nullopt},
      {dictionary(int32(), utf8()), PhysicalType::kByteArray, Kind::kString, ConvertedType::kUtf8},
  };
  for (const MappingCase& c : cases) {
    auto schema = std::make_shared<Schema>(std::vector<FieldPtr>{std::make_shared<Field>("v", c.type)});
    auto mapped = MakeWriterSchema(schema, WriterOptions{});
    ASSERT_TRUE(mapped.ok()) << c.type->ToString() << ": " << mapped.status().ToString();
    ASSERT_EQ(mapped->elements.size(), 2u);
    const SchemaElement& e = mapped->elements[1];
    EXPECT_EQ(e.type, c.physical) << c.type->ToString();
    EXPECT_EQ(e.logical_type.has_value(), c.logical.has_value()) << c.type->ToString();
    if (c.logical && e.logical_type) {
      EXPECT_EQ(e.logical_type->kind, *c.logical) << c.type->ToString();
    }
    EXPECT_EQ(e.converted_type, c.converted) << c.type->ToString();
    if (c.type_length > 0) {
      EXPECT_EQ(e.type_length, c.type_length) << c.type->ToString();
    }
    EXPECT_EQ(e.repetition_type, FieldRepetitionType::kOptional);
  }
  // Time zones set isAdjustedToUTC; integers carry width and sign.
  auto schema = std::make_shared<Schema>(std::vector<FieldPtr>{
      std::make_shared<Field>("local", timestamp(ArrowUnit::kMicro)),
      std::make_shared<Field>("zoned", timestamp(ArrowUnit::kMicro, "Asia/Tokyo")),
      std::make_shared<Field>("u16", uint16(), false)});
  auto mapped = MakeWriterSchema(schema, WriterOptions{});
  ASSERT_TRUE(mapped.ok());
  EXPECT_FALSE(mapped->elements[1].logical_type->is_adjusted_to_utc);
  EXPECT_TRUE(mapped->elements[2].logical_type->is_adjusted_to_utc);
  EXPECT_EQ(mapped->elements[3].logical_type->bit_width, 16);
  EXPECT_FALSE(mapped->elements[3].logical_type->is_signed);
  EXPECT_EQ(mapped->elements[3].repetition_type, FieldRepetitionType::kRequired);
}

TEST(WriterSchemaTest, NestedShapesAreThreeLevelListsAndMaps) {
  auto schema = std::make_shared<Schema>(std::vector<FieldPtr>{
      std::make_shared<Field>("l", list(std::make_shared<Field>("item", int32(), false))),
      std::make_shared<Field>("m", map(utf8(), int64()), false),
  });
  auto mapped = MakeWriterSchema(schema, WriterOptions{});
  ASSERT_TRUE(mapped.ok()) << mapped.status().ToString();
  std::vector<std::string> names;
  for (const SchemaElement& e : mapped->elements) names.push_back(e.name);
  EXPECT_EQ(names, (std::vector<std::string>{"schema", "l", "list", "element", "m", "key_value", "key", "value"}));
  EXPECT_EQ(mapped->elements[1].converted_type, ConvertedType::kList);
  EXPECT_EQ(mapped->elements[2].repetition_type, FieldRepetitionType::kRepeated);
  EXPECT_EQ(mapped->elements[3].repetition_type, FieldRepetitionType::kRequired);
  EXPECT_EQ(mapped->elements[4].converted_type, ConvertedType::kMap);
  EXPECT_EQ(mapped->elements[4].repetition_type, FieldRepetitionType::kRequired);
  EXPECT_EQ(mapped->elements[6].repetition_type, FieldRepetitionType::kRequired);
  ASSERT_EQ(mapped->columns.size(), 3u);
  EXPECT_EQ(mapped->columns[0].dotted_path, "l.list.element");
  EXPECT_EQ(mapped->columns[0].max_definition_level, 2);
  EXPECT_EQ(mapped->columns[0].max_repetition_level, 1);
  EXPECT_EQ(mapped->columns[1].dotted_path, "m.key_value.key");
  EXPECT_EQ(mapped->columns[1].max_definition_level, 1);
  EXPECT_EQ(mapped->columns[2].max_definition_level, 2);
}

// Types strata's reader returns as written.
class IdenticalRoundTripTest : public ::testing::TestWithParam<int> {};

const std::vector<TypePtr>& IdenticalTypes() {
  static const std::vector<TypePtr> types = {
      int8(), int16(), uint8(), uint16(), uint32(), uint64(), float16(), decimal128(5, 2), decimal128(15, 3),
      decimal128(30, 4), decimal128(38, 0), decimal256(50, 5), date32(), time32(ArrowUnit::kMilli),
      time64(ArrowUnit::kMicro), time64(ArrowUnit::kNano), timestamp(ArrowUnit::kMilli), timestamp(ArrowUnit::kMicro, "UTC"),
      timestamp(ArrowUnit::kNano, "UTC"), fixed_size_binary(16), null(), boolean(), utf8(), binary(),
      list(decimal128(20, 2)), struct_({std::make_shared<Field>("f16", float16())}),
      map(int32(), fixed_size_binary(3)),
  };
  return types;
}

TEST_P(IdenticalRoundTripTest, ValuesAndTypesComeBackAsWritten) {
  const TypePtr& type = IdenticalTypes()[static_cast<size_t>(GetParam())];
  for (bool nullable : {true, false}) {
    if (!nullable && type->id() == TypeId::kNull) continue;
    auto schema = std::make_shared<Schema>(std::vector<FieldPtr>{std::make_shared<Field>("v", type, nullable)});
    auto batch = testing::RandomBatch(schema, 3000, 7, Pool());
    ASSERT_TRUE(batch.ok()) << batch.status().ToString();
    for (bool dictionary : {true, false}) {
      WriterOptions options;
      options.columns.dictionary = dictionary;
      options.file.data_page_rows = 1000;
      auto file = WriteToBuffer(schema, {*batch}, options, Pool());
      ASSERT_TRUE(file.ok()) << type->ToString() << ": " << file.status().ToString();
      auto table = ReadBuffer(*file, Pool());
      ASSERT_TRUE(table.ok()) << type->ToString() << ": " << table.status().ToString();
      auto expected = Table::FromRecordBatches(schema, {*batch});
      EXPECT_TRUE((*table)->Equals(**expected)) << type->ToString() << " nullable=" << nullable
                                                << " dictionary=" << dictionary << "\n"
                                                << (*table)->ToString().substr(0, 600);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Types, IdenticalRoundTripTest, ::testing::Range(0, 27));

// The same buffers under another type.
Array Retyped(const Array& array, TypePtr type) {
  auto data = std::make_shared<ArrayData>(*array.data());
  data->type = std::move(type);
  return Array(std::move(data));
}

// Reads back one column written from `values` (nullable) in its Parquet form: without the
// ARROW:schema's restoration (arrow_schema_batches_test reads it with).
Result<Array> WriteAndReadColumn(const Array& values, const WriterOptions& options = {},
                                 const BatchReadOptions& read = {}) {
  auto schema = std::make_shared<Schema>(std::vector<FieldPtr>{std::make_shared<Field>("v", values.type())});
  STRATA_ASSIGN_OR_RETURN(auto batch, RecordBatch::Make(schema, values.length(), {values}));
  STRATA_ASSIGN_OR_RETURN(auto file, WriteToBuffer(schema, {batch}, options, Pool()));
  FileReaderOptions parquet_form;
  parquet_form.restore_arrow_schema = false;
  STRATA_ASSIGN_OR_RETURN(auto reader, FileReader::Open(MakeBufferSource(file, "written.parquet"), Pool(), parquet_form));
  STRATA_ASSIGN_OR_RETURN(auto table, reader->ReadTable(read));
  if (table->column(0)->num_chunks() != 1) return Status::Invalid("expected one chunk");
  return table->column(0)->chunk(0);
}

// Int64-backed values transformed element-wise into `type` (nulls kept).
template <typename In, typename Out, typename Fn>
Array Transformed(const Array& input, TypePtr type, Fn fn) {
  auto data = std::make_shared<ArrayData>(*input.data());
  auto values = *AllocateBuffer(Pool(), input.length() * static_cast<int64_t>(sizeof(Out)));
  const In* in = input.data()->buffers[1]->data_as<In>() + input.offset();
  for (int64_t i = 0; i < input.length(); ++i) values->mutable_data_as<Out>()[i] = fn(in[i]);
  data->buffers[1] = std::move(values);
  data->offset = 0;
  data->type = std::move(type);
  if (input.offset() != 0) data->buffers[0] = nullptr;  // not used with offsets in these tests
  return Array(std::move(data));
}

TEST(WriterTypesTest, TypesParquetCannotExpressReadBackAsTheirParquetForm) {
  auto make = [](const TypePtr& type) { return *RandomArray(type, 2000, 11, Pool()); };
  {
    Array in = make(date64());
    auto out = WriteAndReadColumn(in);
    ASSERT_TRUE(out.ok()) << out.status().ToString();
    EXPECT_TRUE(out->Equals(Transformed<int64_t, int32_t>(in, date32(), [](int64_t ms) {
      return static_cast<int32_t>(ms / 86400000);
    })));
  }
  {
    Array in = make(time32(ArrowUnit::kSecond));
    auto out = WriteAndReadColumn(in);
    ASSERT_TRUE(out.ok());
    EXPECT_TRUE(out->Equals(Transformed<int32_t, int32_t>(in, time32(ArrowUnit::kMilli), [](int32_t s) { return s * 1000; })));
  }
  {
    Array in = make(timestamp(ArrowUnit::kSecond));
    auto out = WriteAndReadColumn(in);
    ASSERT_TRUE(out.ok());
    EXPECT_TRUE(out->Equals(
        Transformed<int64_t, int64_t>(in, timestamp(ArrowUnit::kMilli), [](int64_t s) { return s * 1000; })));
  }
  {
    Array in = make(timestamp(ArrowUnit::kMicro, "America/New_York"));
    auto out = WriteAndReadColumn(in);
    ASSERT_TRUE(out.ok());
    EXPECT_TRUE(out->Equals(Retyped(in, timestamp(ArrowUnit::kMicro, "UTC"))));
  }
  {
    Array in = make(duration(ArrowUnit::kNano));
    auto out = WriteAndReadColumn(in);
    ASSERT_TRUE(out.ok());
    EXPECT_TRUE(out->Equals(Retyped(in, int64())));
  }
  {
    Array in = make(large_utf8());
    BatchReadOptions large;
    large.large_binary = true;
    auto out = WriteAndReadColumn(in, {}, large);
    ASSERT_TRUE(out.ok());
    EXPECT_TRUE(out->Equals(in));
  }
  {
    Array in = make(utf8_view());
    BatchReadOptions views;
    views.string_views = true;
    auto out = WriteAndReadColumn(in, {}, views);
    ASSERT_TRUE(out.ok()) << out.status().ToString();
    EXPECT_TRUE(out->Equals(in)) << out->ToString().substr(0, 500);
  }
  {
    // INT96 only when asked; it reads back as timestamp[ns].
    Array in = make(timestamp(ArrowUnit::kNano));
    WriterOptions int96;
    int96.file.int96_timestamps = true;
    auto out = WriteAndReadColumn(in, int96);
    ASSERT_TRUE(out.ok()) << out.status().ToString();
    EXPECT_TRUE(out->Equals(in));
    Array micros = make(timestamp(ArrowUnit::kMicro));
    out = WriteAndReadColumn(micros, int96);
    ASSERT_TRUE(out.ok());
    EXPECT_TRUE(out->Equals(Transformed<int64_t, int64_t>(micros, timestamp(ArrowUnit::kNano), [](int64_t us) {
      return us * 1000;
    })));
  }
}

TEST(WriterTypesTest, DictionaryArraysWriteTheirValues) {
  testing::RandomArrayOptions small;
  small.distinct_values = 12;
  Array in = *RandomArray(dictionary(int16(), utf8()), 5000, 3, Pool(), small);
  // Expected: the dictionary decoded.
  const ArrayData& data = *in.data();
  const Array values(data.dictionary);
  StringArray dictionary_view(values.data());
  StringBuilder builder(utf8(), Pool());
  const auto* indices = data.buffers[1]->data_as<int16_t>();
  for (int64_t i = 0; i < in.length(); ++i) {
    ASSERT_TRUE((in.IsNull(i) ? builder.AppendNull() : builder.Append(dictionary_view.GetView(indices[i]))).ok());
  }
  Array expected(*builder.Finish());
  for (bool dictionary : {true, false}) {
    WriterOptions options;
    options.columns.dictionary = dictionary;
    options.columns.dictionary_page_bytes = 64;  // fall back after a few entries
    auto out = WriteAndReadColumn(in, options);
    ASSERT_TRUE(out.ok()) << out.status().ToString();
    EXPECT_TRUE(out->Equals(expected));
  }
}

TEST(WriterTypesTest, NonNullableColumnsWithNullsAreRefused) {
  Array in = *RandomArray(int64(), 100, 1, Pool());
  auto schema = std::make_shared<Schema>(std::vector<FieldPtr>{std::make_shared<Field>("id", int64(), false)});
  RecordBatch batch(schema, 100, {in});
  auto file = WriteToBuffer(schema, {std::make_shared<RecordBatch>(batch)}, {}, Pool());
  ASSERT_FALSE(file.ok());
  EXPECT_NE(file.status().message().find("id"), std::string::npos) << file.status().ToString();
}

}  // namespace
}  // namespace strata::parquet
