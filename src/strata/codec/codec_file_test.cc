// Real pages from parquet-testing: every page of files written by other engines decodes to
// exactly its declared size, and stored page CRCs match Crc32. The page headers are read by
// a minimal Thrift compact-protocol walker kept here on purpose: the codec layer must not
// depend on parquet/, and these tests only need four fields of a PageHeader.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <optional>

#include "strata/codec/codec.h"
#include "strata/codec/crc32.h"
#include "strata/testing/test_data.h"

namespace strata::codec {
namespace {

struct PageInfo {
  int32_t type = -1;  // 0 data, 1 index, 2 dictionary, 3 data v2
  int32_t uncompressed_size = -1;
  int32_t compressed_size = -1;
  std::optional<uint32_t> crc;
  int32_t v2_levels_bytes = 0;  // v2: definition + repetition level bytes, never compressed
  bool v2_is_compressed = true;
};

class CompactReader {
 public:
  CompactReader(const uint8_t* p, const uint8_t* end) : p_(p), end_(end) {}
  bool ok() const { return ok_; }
  const uint8_t* position() const { return p_; }

  uint64_t Varint() {
    uint64_t v = 0;
    for (int shift = 0; shift < 64 && ok_; shift += 7) {
      const uint8_t b = Byte();
      v |= uint64_t{b & 0x7fu} << shift;
      if ((b & 0x80) == 0) return v;
    }
    ok_ = false;
    return 0;
  }
  int64_t Zigzag() {
    const uint64_t v = Varint();
    return static_cast<int64_t>(v >> 1) ^ -static_cast<int64_t>(v & 1);
  }
  uint8_t Byte() {
    if (p_ >= end_) {
      ok_ = false;
      return 0;
    }
    return *p_++;
  }
  void SkipBytes(uint64_t n) {
    if (n > static_cast<uint64_t>(end_ - p_)) ok_ = false;
    else p_ += n;
  }

  // Calls on_field(id, type) for each field; it returns false to have the value skipped.
  template <typename OnField>
  void Struct(OnField on_field, int depth = 0) {
    int16_t last_id = 0;
    while (ok_) {
      const uint8_t header = Byte();
      if (header == 0) return;
      const int type = header & 0x0f;
      const int delta = header >> 4;
      const int16_t id = delta != 0 ? static_cast<int16_t>(last_id + delta) : static_cast<int16_t>(Zigzag());
      last_id = id;
      if (!on_field(id, type)) Skip(type, depth);
    }
  }

  void Skip(int type, int depth) {
    if (depth > 16) {
      ok_ = false;
      return;
    }
    switch (type) {
      case 1: case 2: return;  // booleans live in the field header
      case 3: Byte(); return;
      case 4: case 5: case 6: Varint(); return;
      case 7: SkipBytes(8); return;
      case 8: SkipBytes(Varint()); return;
      case 9: case 10: {
        const uint8_t h = Byte();
        uint64_t size = h >> 4;
        if (size == 15) size = Varint();
        const int element = h & 0x0f;
        for (uint64_t i = 0; i < size && ok_; ++i) {
          if (element == 1 || element == 2) Byte();
          else Skip(element, depth + 1);
        }
        return;
      }
      case 11: {
        const uint64_t size = Varint();
        if (size == 0) return;
        const uint8_t kv = Byte();
        for (uint64_t i = 0; i < size && ok_; ++i) {
          Skip(kv >> 4, depth + 1);
          Skip(kv & 0x0f, depth + 1);
        }
        return;
      }
      case 12: Struct([](int16_t, int) { return false; }, depth + 1); return;
      default: ok_ = false;
    }
  }

 private:
  const uint8_t* p_;
  const uint8_t* end_;
  bool ok_ = true;
};

std::optional<PageInfo> ReadPageHeader(CompactReader* reader) {
  PageInfo page;
  int32_t def_bytes = 0;
  int32_t rep_bytes = 0;
  reader->Struct([&](int16_t id, int type) {
    if (type == 5 && id >= 1 && id <= 4) {
      const int32_t v = static_cast<int32_t>(reader->Zigzag());
      if (id == 1) page.type = v;
      if (id == 2) page.uncompressed_size = v;
      if (id == 3) page.compressed_size = v;
      if (id == 4) page.crc = static_cast<uint32_t>(v);
      return true;
    }
    if (id == 8 && type == 12) {  // DataPageHeaderV2
      reader->Struct([&](int16_t v2_id, int v2_type) {
        if (v2_type == 5 && (v2_id == 5 || v2_id == 6)) {
          (v2_id == 5 ? def_bytes : rep_bytes) = static_cast<int32_t>(reader->Zigzag());
          return true;
        }
        if (v2_id == 7 && (v2_type == 1 || v2_type == 2)) {
          page.v2_is_compressed = v2_type == 1;
          return true;
        }
        return false;
      }, 1);
      return true;
    }
    return false;
  });
  if (!reader->ok() || page.type < 0 || page.type > 3 || page.compressed_size < 0 || page.uncompressed_size < 0) {
    return std::nullopt;
  }
  page.v2_levels_bytes = def_bytes + rep_bytes;
  return page;
}

std::vector<uint8_t> ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), {});
}

struct FileStats {
  int pages = 0;
  int checksummed = 0;
  int checksum_mismatches = 0;
  int64_t walked_to = 0;  // offset where the walk stopped
  int64_t data_end = 0;   // offset where the footer begins
};

// Walks the pages from offset 4 up to the footer, stepping over other Thrift structs between
// them, and decodes each with `codec`.
FileStats DecodeAllPages(const std::string& name, CompressionCodec type) {
  const auto file = ReadFile(testing::ParquetTestingFile("data/" + name));
  FileStats stats;
  EXPECT_GT(file.size(), 12u) << name;
  if (file.size() <= 12) return stats;
  uint32_t footer_length;
  std::memcpy(&footer_length, file.data() + file.size() - 8, 4);
  const uint8_t* end = file.data() + file.size() - 8 - footer_length;
  auto pool = MakeSystemMemoryPool();
  auto codec = *MakeCodec(type, pool.get());
  auto uncompressed = *MakeCodec(CompressionCodec::kUncompressed, pool.get());
  const uint8_t* p = file.data() + 4;
  while (p < end) {
    CompactReader reader(p, end);
    auto page = ReadPageHeader(&reader);
    if (!page) {
      // Old writers put the ColumnMetaData after each chunk's pages; page indexes come after
      // all chunks. Step over any such Thrift struct and go on.
      CompactReader skipper(p, end);
      skipper.Struct([](int16_t, int) { return false; });
      if (!skipper.ok()) break;
      p = skipper.position();
      continue;
    }
    if (page->compressed_size > end - reader.position()) break;
    const uint8_t* body = reader.position();
    std::span<const uint8_t> stored(body, static_cast<size_t>(page->compressed_size));
    if (page->crc) {
      ++stats.checksummed;
      if (Crc32(stored) != *page->crc) ++stats.checksum_mismatches;
    }
    std::vector<uint8_t> out(static_cast<size_t>(page->uncompressed_size));
    std::span<uint8_t> out_span(out);
    // v2 pages keep their levels uncompressed in front of the (maybe compressed) values.
    const size_t levels = static_cast<size_t>(page->type == 3 ? page->v2_levels_bytes : 0);
    Codec* values_codec = page->type == 3 && !page->v2_is_compressed ? uncompressed.get() : codec.get();
    auto n = values_codec->Decompress(stored.subspan(levels), out_span.subspan(levels));
    EXPECT_TRUE(n.ok()) << name << " page at offset " << (p - file.data()) << ": " << n.status().ToString();
    if (n.ok()) {
      EXPECT_EQ(*n + static_cast<int64_t>(levels), page->uncompressed_size) << name << " page at " << (p - file.data());
    }
    ++stats.pages;
    p = body + page->compressed_size;
  }
  stats.walked_to = p - file.data();
  stats.data_end = end - file.data();
  return stats;
}

struct FileCase {
  const char* name;
  CompressionCodec codec;
};

class ParquetTestingPagesTest : public ::testing::TestWithParam<FileCase> {};

TEST_P(ParquetTestingPagesTest, EveryPageDecodesToItsDeclaredSize) {
  STRATA_REQUIRE_PARQUET_TESTING();
  const FileStats stats = DecodeAllPages(GetParam().name, GetParam().codec);
  EXPECT_GT(stats.pages, 0) << GetParam().name;
  EXPECT_EQ(stats.walked_to, stats.data_end) << GetParam().name << ": the walk stopped early";
  RecordProperty("pages", stats.pages);
}

INSTANTIATE_TEST_SUITE_P(
    Files, ParquetTestingPagesTest,
    ::testing::Values(FileCase{"hadoop_lz4_compressed.parquet", CompressionCodec::kLz4},
                      FileCase{"non_hadoop_lz4_compressed.parquet", CompressionCodec::kLz4},
                      FileCase{"lz4_raw_compressed.parquet", CompressionCodec::kLz4Raw},
                      FileCase{"lz4_raw_compressed_larger.parquet", CompressionCodec::kLz4Raw},
                      FileCase{"concatenated_gzip_members.parquet", CompressionCodec::kGzip},
                      FileCase{"byte_stream_split.zstd.parquet", CompressionCodec::kZstd},
                      FileCase{"alltypes_plain.snappy.parquet", CompressionCodec::kSnappy},
                      FileCase{"datapage_v2.snappy.parquet", CompressionCodec::kSnappy},
                      FileCase{"nested_lists.snappy.parquet", CompressionCodec::kSnappy}),
    [](const auto& info) {
      std::string name = info.param.name;
      name = name.substr(0, name.find(".parquet"));
      for (char& c : name) {
        if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
      }
      return name;
    });

TEST(ParquetTestingChecksumTest, StoredPageChecksumsMatch) {
  STRATA_REQUIRE_PARQUET_TESTING();
  for (FileCase file : {FileCase{"datapage_v1-snappy-compressed-checksum.parquet", CompressionCodec::kSnappy},
                        FileCase{"datapage_v1-uncompressed-checksum.parquet", CompressionCodec::kUncompressed},
                        FileCase{"plain-dict-uncompressed-checksum.parquet", CompressionCodec::kUncompressed},
                        FileCase{"rle-dict-snappy-checksum.parquet", CompressionCodec::kSnappy}}) {
    const FileStats stats = DecodeAllPages(file.name, file.codec);
    EXPECT_GT(stats.checksummed, 0) << file.name;
    RecordProperty(file.name, stats.checksummed);
    EXPECT_EQ(stats.checksum_mismatches, 0) << file.name;
  }
}

TEST(ParquetTestingChecksumTest, CorruptPageIsCaughtByItsChecksum) {
  STRATA_REQUIRE_PARQUET_TESTING();
  const FileStats stats = DecodeAllPages("datapage_v1-corrupt-checksum.parquet", CompressionCodec::kUncompressed);
  EXPECT_GT(stats.checksummed, 0);
  EXPECT_GT(stats.checksum_mismatches, 0);
}

}  // namespace
}  // namespace strata::codec
