#include "strata/parquet/thrift/parquet_types.h"

#include <gtest/gtest.h>

#include <random>

namespace strata::parquet {
namespace {

using thrift::WireType;

const uint8_t* U8(const std::string& s) { return reinterpret_cast<const uint8_t*>(s.data()); }

Statistics FullStatistics(int seed) {
  Statistics s;
  s.max = "max" + std::to_string(seed);
  s.min = std::string("\0\1min", 5);
  s.null_count = 7 + seed;
  s.distinct_count = 1000;
  s.max_value = std::string(40, 'M');  // longer than SSO
  s.min_value = "a";
  s.is_max_value_exact = true;
  s.is_min_value_exact = false;
  s.nan_count = 3;
  return s;
}

ColumnChunk FullColumnChunk(int column, int row_group) {
  ColumnChunk chunk;
  chunk.file_path = "part-0.parquet";
  chunk.file_offset = 4 + column;
  ColumnMetaData& md = chunk.meta_data.emplace();
  md.type = PhysicalType::kByteArray;
  md.encodings = {Encoding::kPlain, Encoding::kRleDictionary, Encoding::kRle};
  md.path_in_schema = {"a", "b", "col" + std::to_string(column)};
  md.codec = CompressionCodec::kZstd;
  md.num_values = 1000 + row_group;
  md.total_uncompressed_size = 5000;
  md.total_compressed_size = 2500;
  md.key_value_metadata = std::vector<KeyValue>{{"k", "v"}, {"only_key", std::nullopt}};
  md.data_page_offset = 100;
  md.index_page_offset = 90;
  md.dictionary_page_offset = 50;
  md.statistics = FullStatistics(column);
  md.encoding_stats = std::vector<PageEncodingStats>{{PageType::kDictionaryPage, Encoding::kPlain, 1},
                                                     {PageType::kDataPage, Encoding::kRleDictionary, 4}};
  md.bloom_filter_offset = 9000;
  md.bloom_filter_length = 1024;
  md.size_statistics = SizeStatistics{12345, std::vector<int64_t>{10, 0}, std::vector<int64_t>{1, 2, 3}};
  GeospatialStatistics geo;
  geo.bbox = BoundingBox{-1.5, 2.5, -3, 4, 0.0, 10.0, -1.0, 1.0};
  geo.geospatial_types = std::vector<int32_t>{1, 3, 1001};
  md.geospatial_statistics = geo;
  chunk.offset_index_offset = 20000;
  chunk.offset_index_length = 40;
  chunk.column_index_offset = 19000;
  chunk.column_index_length = 60;
  ColumnCryptoMetaData& crypto = chunk.crypto_metadata.emplace();
  crypto.kind = ColumnCryptoMetaData::Kind::kColumnKey;
  crypto.path_in_schema = md.path_in_schema;
  crypto.key_metadata = "key-id-7";
  chunk.encrypted_column_metadata = std::string("\xff\x00\x01", 3);
  return chunk;
}

FileMetaData FullFileMetaData(int num_columns, int num_row_groups) {
  FileMetaData md;
  md.version = 2;
  SchemaElement root;
  root.name = "schema";
  root.num_children = num_columns;
  md.schema.push_back(root);
  for (int c = 0; c < num_columns; ++c) {
    SchemaElement leaf;
    leaf.type = PhysicalType::kFixedLenByteArray;
    leaf.type_length = 16;
    leaf.repetition_type = FieldRepetitionType::kOptional;
    leaf.name = "col" + std::to_string(c);
    leaf.converted_type = ConvertedType::kDecimal;
    leaf.scale = 2;
    leaf.precision = 30;
    leaf.field_id = c + 1;
    LogicalType& lt = leaf.logical_type.emplace();
    lt.kind = LogicalType::Kind::kDecimal;
    lt.scale = 2;
    lt.precision = 30;
    leaf.vector_length = 3;
    md.schema.push_back(leaf);
  }
  md.num_rows = 1000LL * num_row_groups;
  for (int r = 0; r < num_row_groups; ++r) {
    RowGroup rg;
    for (int c = 0; c < num_columns; ++c) rg.columns.push_back(FullColumnChunk(c, r));
    rg.total_byte_size = 123456789012LL;
    rg.num_rows = 1000;
    rg.sorting_columns = std::vector<SortingColumn>{{0, true, false}, {2, false, true}};
    rg.file_offset = 4;
    rg.total_compressed_size = 99;
    rg.ordinal = static_cast<int16_t>(r);
    md.row_groups.push_back(std::move(rg));
  }
  md.key_value_metadata = std::vector<KeyValue>{{"ARROW:schema", std::string(500, 'x')}};
  md.created_by = "strata version 0.1.0";
  md.column_orders = std::vector<ColumnOrder>(num_columns);
  if (num_columns > 1) md.column_orders->at(1).kind = ColumnOrder::Kind::kIeee754TotalOrder;
  EncryptionAlgorithm& alg = md.encryption_algorithm.emplace();
  alg.kind = EncryptionAlgorithm::Kind::kAesGcmCtrV1;
  alg.aad_prefix = "prefix";
  alg.aad_file_unique = "unique";
  alg.supply_aad_prefix = true;
  md.footer_signing_key_metadata = "signing-key";
  return md;
}

TEST(ParquetTypesTest, FileMetaDataRoundTripWithEveryField) {
  const FileMetaData original = FullFileMetaData(3, 2);
  std::string bytes;
  SerializeFileMetaData(original, &bytes);
  FileMetaData decoded;
  auto consumed = DeserializeFileMetaData(U8(bytes), bytes.size(), &decoded);
  ASSERT_TRUE(consumed.ok()) << consumed.status().ToString();
  EXPECT_EQ(*consumed, bytes.size());
  EXPECT_EQ(decoded, original);
  // Decoding is deterministic: re-encoding yields the same bytes.
  std::string again;
  SerializeFileMetaData(decoded, &again);
  EXPECT_EQ(again, bytes);
}

TEST(ParquetTypesTest, EveryLogicalTypeRoundTrips) {
  using Kind = LogicalType::Kind;
  std::vector<LogicalType> types;
  for (Kind kind : {Kind::kString, Kind::kMap, Kind::kList, Kind::kEnum, Kind::kDate, Kind::kNull, Kind::kJson,
                    Kind::kBson, Kind::kUuid, Kind::kFloat16, Kind::kVector}) {
    LogicalType t;
    t.kind = kind;
    types.push_back(t);
  }
  auto make = [](LogicalType::Kind kind) {
    LogicalType t;
    t.kind = kind;
    return t;
  };
  LogicalType decimal = make(Kind::kDecimal);
  decimal.scale = 3;
  decimal.precision = 18;
  LogicalType time = make(Kind::kTime);
  time.is_adjusted_to_utc = true;
  time.unit = TimeUnit::kNanos;
  LogicalType timestamp = make(Kind::kTimestamp);
  timestamp.unit = TimeUnit::kMillis;
  LogicalType integer = make(Kind::kInteger);
  integer.bit_width = 16;
  LogicalType variant = make(Kind::kVariant);
  variant.specification_version = 1;
  LogicalType geometry = make(Kind::kGeometry);
  geometry.crs = "EPSG:4326";
  LogicalType geography = make(Kind::kGeography);
  geography.crs = "OGC:CRS84";
  geography.algorithm = EdgeInterpolationAlgorithm::kKarney;
  types.insert(types.end(), {decimal, time, timestamp, integer, variant, geometry, geography});
  for (const LogicalType& t : types) {
    std::string bytes;
    CompactWriter writer(&bytes);
    Encode(writer, t);
    CompactReader reader(U8(bytes), bytes.size());
    LogicalType decoded;
    ASSERT_TRUE(Decode(reader, &decoded).ok()) << LogicalTypeToString(t);
    EXPECT_EQ(decoded, t) << LogicalTypeToString(t);
    EXPECT_EQ(reader.remaining(), 0u);
  }
  EXPECT_EQ(LogicalTypeToString(decimal), "DECIMAL(18,3)");
  EXPECT_EQ(LogicalTypeToString(timestamp), "TIMESTAMP(MILLIS,local)");
  EXPECT_EQ(LogicalTypeToString(integer), "INT(16,unsigned)");
}

TEST(ParquetTypesTest, UnknownLogicalTypeMemberIsKeptNotRejected) {
  // LogicalType { 42: SomeFutureType { 1: i32 7 } }
  std::string bytes;
  CompactWriter w(&bytes);
  w.WriteStructBegin();
  w.WriteFieldBegin(WireType::kStruct, 42);
  w.WriteStructBegin();
  w.WriteI32Field(1, 7);
  w.WriteStructEnd();
  w.WriteStructEnd();
  CompactReader reader(U8(bytes), bytes.size());
  LogicalType decoded;
  ASSERT_TRUE(Decode(reader, &decoded).ok());
  EXPECT_EQ(decoded.kind, LogicalType::Kind::kUnrecognized);
  EXPECT_EQ(decoded.unrecognized_field_id, 42);
  EXPECT_EQ(LogicalTypeToString(decoded), "UNKNOWN(field 42)");
  EXPECT_EQ(reader.remaining(), 0u);
}

TEST(ParquetTypesTest, UnknownFieldsAreSkipped) {
  // KeyValue with extra fields of several types before, between and after the known ones.
  std::string bytes;
  CompactWriter w(&bytes);
  w.WriteStructBegin();
  w.WriteFieldBegin(WireType::kList, 0);  // field id 0 (long form) nobody uses
  w.WriteListBegin(WireType::kBinary, 2);
  w.WriteBinary("x");
  w.WriteBinary("y");
  w.WriteBinaryField(1, "the key");
  w.WriteDoubleField(5, 1.0);
  w.WriteBinaryField(2, "the value");
  w.WriteFieldBegin(WireType::kStruct, 99);
  w.WriteStructBegin();
  w.WriteBoolField(1, true);
  w.WriteStructEnd();
  w.WriteFieldBegin(WireType::kMap, 100);
  w.WriteMapBegin(WireType::kI32, WireType::kBinary, 1);
  w.WriteI32(1);
  w.WriteBinary("z");
  w.WriteStructEnd();
  CompactReader reader(U8(bytes), bytes.size());
  KeyValue kv;
  ASSERT_TRUE(Decode(reader, &kv).ok());
  EXPECT_EQ(kv.key, "the key");
  EXPECT_EQ(kv.value, "the value");
  EXPECT_EQ(reader.remaining(), 0u);
}

TEST(ParquetTypesTest, MissingRequiredFieldIsCorruptAndNamed) {
  FileMetaData md = FullFileMetaData(1, 1);
  std::string bytes;
  CompactWriter w(&bytes);
  w.WriteStructBegin();
  w.WriteI32Field(1, 1);
  w.WriteI64Field(3, 10);  // no schema (2), no row_groups (4)
  w.WriteStructEnd();
  FileMetaData decoded;
  auto result = DeserializeFileMetaData(U8(bytes), bytes.size(), &decoded);
  ASSERT_FALSE(result.ok());
  EXPECT_TRUE(result.status().IsCorrupt());
  EXPECT_NE(result.status().message().find("'schema'"), std::string::npos) << result.status().message();
  EXPECT_NE(result.status().message().find("FileMetaData"), std::string::npos) << result.status().message();
}

TEST(ParquetTypesTest, WrongWireTypeIsCorrupt) {
  std::string bytes;
  CompactWriter w(&bytes);
  w.WriteStructBegin();
  w.WriteBinaryField(1, "not an int");  // DictionaryPageHeader.num_values is i32
  w.WriteI32Field(2, 0);
  w.WriteStructEnd();
  CompactReader reader(U8(bytes), bytes.size());
  DictionaryPageHeader header;
  Status st = Decode(reader, &header);
  // Skipped like Thrift's generated code does, so the required field is missing.
  ASSERT_TRUE(st.IsCorrupt());
  EXPECT_NE(st.message().find("DictionaryPageHeader"), std::string::npos) << st.message();
  EXPECT_NE(st.message().find("'num_values'"), std::string::npos) << st.message();

  // An optional field of the wrong type is absent, and the fields after it still decode.
  std::string stats_bytes;
  CompactWriter ws(&stats_bytes);
  ws.WriteStructBegin();
  ws.WriteBinaryField(3, "not a count");  // null_count is i64
  ws.WriteFieldBegin(WireType::kList, 4);  // distinct_count is i64
  ws.WriteListBegin(WireType::kI32, 2);
  ws.WriteI32(1);
  ws.WriteI32(2);
  ws.WriteBinaryField(5, "max");
  ws.WriteFieldBegin(WireType::kList, 6);  // min_value is binary
  ws.WriteListBegin(WireType::kDouble, 1);
  ws.WriteDouble(1.0);
  ws.WriteStructEnd();
  CompactReader rs(U8(stats_bytes), stats_bytes.size());
  Statistics stats;
  ASSERT_TRUE(Decode(rs, &stats).ok());
  EXPECT_FALSE(stats.null_count.has_value());
  EXPECT_FALSE(stats.distinct_count.has_value());
  EXPECT_EQ(stats.max_value, "max");
  EXPECT_FALSE(stats.min_value.has_value());
  EXPECT_EQ(rs.remaining(), 0u);

  // A list of the wrong element type is skipped whole.
  std::string idx_bytes;
  CompactWriter wi(&idx_bytes);
  wi.WriteStructBegin();
  wi.WriteFieldBegin(WireType::kList, 1);
  wi.WriteListBegin(WireType::kBinary, 2);  // page_locations are structs
  wi.WriteBinary("a");
  wi.WriteBinary("b");
  wi.WriteStructEnd();
  OffsetIndex index;
  EXPECT_TRUE(DeserializeOffsetIndex(U8(idx_bytes), idx_bytes.size(), &index).status().IsCorrupt());
}

TEST(ParquetTypesTest, PageHeadersRoundTrip) {
  PageHeader v1;
  v1.type = PageType::kDataPage;
  v1.uncompressed_page_size = 1 << 20;
  v1.compressed_page_size = 12345;
  v1.crc = -559038737;
  v1.data_page_header = DataPageHeader{100, Encoding::kDeltaBinaryPacked, Encoding::kRle, Encoding::kBitPacked,
                                       FullStatistics(1)};
  v1.index_page_header = IndexPageHeader{};
  v1.dictionary_page_header = DictionaryPageHeader{50, Encoding::kPlainDictionary, true};
  v1.data_page_header_v2 = DataPageHeaderV2{100, 3, 90, Encoding::kByteStreamSplit, 12, 7, false, FullStatistics(2)};
  std::string bytes;
  SerializePageHeader(v1, &bytes);
  const size_t header_size = bytes.size();
  bytes += "page data follows";
  PageHeader decoded;
  auto consumed = DeserializePageHeader(U8(bytes), bytes.size(), &decoded);
  ASSERT_TRUE(consumed.ok()) << consumed.status().ToString();
  EXPECT_EQ(*consumed, header_size);
  EXPECT_EQ(decoded, v1);

  // is_compressed defaults to true when absent.
  std::string v2_bytes;
  CompactWriter w(&v2_bytes);
  w.WriteStructBegin();
  w.WriteI32Field(1, static_cast<int32_t>(PageType::kDataPageV2));
  w.WriteI32Field(2, 10);
  w.WriteI32Field(3, 10);
  w.WriteFieldBegin(WireType::kStruct, 8);
  w.WriteStructBegin();
  for (int16_t id = 1; id <= 6; ++id) w.WriteI32Field(id, 1);
  w.WriteStructEnd();
  w.WriteStructEnd();
  ASSERT_TRUE(DeserializePageHeader(U8(v2_bytes), v2_bytes.size(), &decoded).ok());
  ASSERT_TRUE(decoded.data_page_header_v2.has_value());
  EXPECT_TRUE(decoded.data_page_header_v2->is_compressed);
}

TEST(ParquetTypesTest, TruncatedPageHeaderIsCorrupt) {
  PageHeader header;
  header.type = PageType::kDictionaryPage;
  header.uncompressed_page_size = 100;
  header.compressed_page_size = 80;
  header.dictionary_page_header = DictionaryPageHeader{10, Encoding::kPlain, std::nullopt};
  std::string bytes;
  SerializePageHeader(header, &bytes);
  for (size_t cut = 0; cut < bytes.size(); ++cut) {
    PageHeader decoded;
    auto result = DeserializePageHeader(U8(bytes), cut, &decoded, 4096);
    ASSERT_FALSE(result.ok()) << cut;
    EXPECT_TRUE(result.status().IsCorrupt());
  }
}

TEST(ParquetTypesTest, PageIndexRoundTrips) {
  ColumnIndex ci;
  ci.null_pages = {false, true, false};
  ci.min_values = {"a", "", std::string(100, 'q')};
  ci.max_values = {"b", "", "zz"};
  ci.boundary_order = BoundaryOrder::kAscending;
  ci.null_counts = std::vector<int64_t>{0, 50, 1};
  ci.repetition_level_histograms = std::vector<int64_t>{1, 2, 3, 4, 5, 6};
  ci.definition_level_histograms = std::vector<int64_t>{6, 5, 4, 3, 2, 1};
  ci.nan_counts = std::vector<int64_t>{0, 0, 9};
  std::string bytes;
  SerializeColumnIndex(ci, &bytes);
  ColumnIndex ci2;
  auto consumed = DeserializeColumnIndex(U8(bytes), bytes.size(), &ci2);
  ASSERT_TRUE(consumed.ok()) << consumed.status().ToString();
  EXPECT_EQ(*consumed, bytes.size());
  EXPECT_EQ(ci2, ci);

  OffsetIndex oi;
  for (int i = 0; i < 40; ++i) oi.page_locations.push_back({4 + 1000LL * i, 1000, 100LL * i});
  oi.unencoded_byte_array_data_bytes = std::vector<int64_t>(40, 77);
  bytes.clear();
  SerializeOffsetIndex(oi, &bytes);
  OffsetIndex oi2;
  consumed = DeserializeOffsetIndex(U8(bytes), bytes.size(), &oi2);
  ASSERT_TRUE(consumed.ok()) << consumed.status().ToString();
  EXPECT_EQ(oi2, oi);
}

TEST(ParquetTypesTest, BloomFilterHeaderAndCryptoRoundTrip) {
  BloomFilterHeader bf{.num_bytes = 4096, .algorithm = 1, .hash = 1, .compression = 1};
  std::string bytes;
  SerializeBloomFilterHeader(bf, &bytes);
  BloomFilterHeader bf2;
  ASSERT_TRUE(DeserializeBloomFilterHeader(U8(bytes), bytes.size(), &bf2).ok());
  EXPECT_EQ(bf2, bf);

  FileCryptoMetaData crypto;
  crypto.encryption_algorithm.kind = EncryptionAlgorithm::Kind::kAesGcmV1;
  crypto.encryption_algorithm.aad_file_unique = "abc";
  crypto.key_metadata = "kms";
  bytes.clear();
  SerializeFileCryptoMetaData(crypto, &bytes);
  FileCryptoMetaData crypto2;
  ASSERT_TRUE(DeserializeFileCryptoMetaData(U8(bytes), bytes.size(), &crypto2).ok());
  EXPECT_EQ(crypto2, crypto);
  EXPECT_EQ(EncryptionAlgorithmName(crypto2.encryption_algorithm), "AES_GCM_V1");
}

TEST(ParquetTypesTest, SelectiveDecodeKeepsOnlyChosenColumns) {
  const FileMetaData full = FullFileMetaData(10, 3);
  std::string bytes;
  SerializeFileMetaData(full, &bytes);
  FileMetaDataDecodeOptions options;
  options.column_indices = std::vector<int>{7, 2, 7};  // unsorted, duplicated
  FileMetaData selected;
  auto consumed = DeserializeFileMetaData(U8(bytes), bytes.size(), &selected, options);
  ASSERT_TRUE(consumed.ok()) << consumed.status().ToString();
  EXPECT_EQ(*consumed, bytes.size());
  ASSERT_TRUE(selected.selected_columns.has_value());
  EXPECT_EQ(*selected.selected_columns, (std::vector<int>{2, 7}));
  ASSERT_EQ(selected.row_groups.size(), 3u);
  for (size_t r = 0; r < 3; ++r) {
    ASSERT_EQ(selected.row_groups[r].columns.size(), 2u);
    EXPECT_EQ(selected.row_groups[r].columns[0], full.row_groups[r].columns[2]);
    EXPECT_EQ(selected.row_groups[r].columns[1], full.row_groups[r].columns[7]);
    EXPECT_EQ(selected.row_groups[r].num_rows, full.row_groups[r].num_rows);
  }
  EXPECT_EQ(selected.schema, full.schema);

  options.column_indices = std::vector<int>{10};
  auto out_of_range = DeserializeFileMetaData(U8(bytes), bytes.size(), &selected, options);
  ASSERT_FALSE(out_of_range.ok());
  EXPECT_TRUE(out_of_range.status().IsInvalid());
  options.column_indices = std::vector<int>{-1};
  EXPECT_TRUE(DeserializeFileMetaData(U8(bytes), bytes.size(), &selected, options).status().IsInvalid());
}

TEST(ParquetTypesTest, HostileListCountsDoNotAllocate) {
  // FileMetaData whose schema list claims 2^31-1 elements in a few bytes.
  std::string bytes;
  CompactWriter w(&bytes);
  w.WriteStructBegin();
  w.WriteI32Field(1, 1);
  w.WriteFieldBegin(WireType::kList, 2);
  w.WriteListBegin(WireType::kStruct, std::numeric_limits<int32_t>::max());
  bytes += std::string(8, '\0');
  FileMetaData decoded;
  auto result = DeserializeFileMetaData(U8(bytes), bytes.size(), &decoded, {}, 777);
  ASSERT_FALSE(result.ok());
  EXPECT_TRUE(result.status().IsCorrupt());
  EXPECT_NE(result.status().message().find("FileMetaData.schema"), std::string::npos) << result.status().message();
}

// Random byte flips of a serialized footer: decoding either succeeds or fails with Corrupt or
// Invalid, never crashes (run under ASan/UBSan in the sanitizer build).
TEST(ParquetTypesTest, RandomMutationsNeverCrash) {
  const FileMetaData md = FullFileMetaData(4, 2);
  std::string bytes;
  SerializeFileMetaData(md, &bytes);
  std::mt19937 rng(7);
  for (int trial = 0; trial < 3000; ++trial) {
    std::string mutated = bytes;
    const int flips = 1 + static_cast<int>(rng() % 4);
    for (int i = 0; i < flips; ++i) mutated[rng() % mutated.size()] = static_cast<char>(rng());
    FileMetaData decoded;
    auto result = DeserializeFileMetaData(U8(mutated), mutated.size(), &decoded);
    if (!result.ok()) {
      EXPECT_TRUE(result.status().IsCorrupt()) << result.status().ToString();
    }
  }
}

}  // namespace
}  // namespace strata::parquet
