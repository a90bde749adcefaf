// The scan summary (SCAN-SUMMARY.md), the line every comparison with the peers rests on: each
// type's count, nulls, min and max rules, NaN and -0.0, slices, several batches, nested and
// null columns, views, dictionaries, and the parallel fold giving the same line.
#include "strata/cli/scan_summary.h"

#include <cmath>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "strata/array/bitmap.h"
#include "strata/cli/value_format.h"
#include "strata/exec/process_pool.h"

namespace strata::cli {
namespace {

MemoryPool* Pool() { return SystemMemoryPool(); }

template <typename T>
std::shared_ptr<Buffer> Bytes(const std::vector<T>& values) {
  auto buffer = *AllocateBuffer(Pool(), static_cast<int64_t>(values.size() * sizeof(T)));
  if (!values.empty()) std::memcpy(buffer->mutable_data(), values.data(), values.size() * sizeof(T));
  return buffer;
}

// A validity bitmap with bit i = valid[i], and the null count.
std::pair<std::shared_ptr<Buffer>, int64_t> Validity(const std::vector<bool>& valid) {
  auto bits = *AllocateBuffer(Pool(), bitmap::BytesForBits(static_cast<int64_t>(valid.size())));
  std::memset(bits->mutable_data(), 0, static_cast<size_t>(bits->size()));
  int64_t nulls = 0;
  for (size_t i = 0; i < valid.size(); ++i) {
    if (valid[i]) bitmap::SetBit(bits->mutable_data(), static_cast<int64_t>(i));
    else ++nulls;
  }
  return {nulls ? std::shared_ptr<Buffer>(std::move(bits)) : nullptr, nulls};
}

template <typename T>
ArrayDataPtr Fixed(TypePtr type, const std::vector<std::optional<T>>& values) {
  std::vector<T> raw;
  std::vector<bool> valid;
  for (const auto& v : values) {
    raw.push_back(v.value_or(T{}));
    valid.push_back(v.has_value());
  }
  auto [bits, nulls] = Validity(valid);
  return ArrayData::Make(std::move(type), static_cast<int64_t>(values.size()), {bits, Bytes(raw)}, nulls);
}

ArrayDataPtr Strings(TypePtr type, const std::vector<std::optional<std::string>>& values) {
  std::vector<int32_t> offsets{0};
  std::string data;
  std::vector<bool> valid;
  for (const auto& v : values) {
    if (v) data += *v;
    offsets.push_back(static_cast<int32_t>(data.size()));
    valid.push_back(v.has_value());
  }
  auto [bits, nulls] = Validity(valid);
  return ArrayData::Make(std::move(type), static_cast<int64_t>(values.size()),
                         {bits, Bytes(offsets), Bytes(std::vector<char>(data.begin(), data.end()))}, nulls);
}

// string_view: values up to 12 bytes inline, longer ones in data buffer 0 (or 1 for odd rows).
ArrayDataPtr Views(const std::vector<std::optional<std::string>>& values) {
  std::vector<uint8_t> views(16 * values.size(), 0);
  std::string data[2];
  std::vector<bool> valid;
  for (size_t i = 0; i < values.size(); ++i) {
    valid.push_back(values[i].has_value());
    if (!values[i]) continue;
    const std::string& v = *values[i];
    const int32_t length = static_cast<int32_t>(v.size());
    std::memcpy(&views[16 * i], &length, 4);
    if (length <= 12) {
      std::memcpy(&views[16 * i + 4], v.data(), v.size());
    } else {
      const int32_t buffer = static_cast<int32_t>(i % 2);
      const int32_t offset = static_cast<int32_t>(data[buffer].size());
      std::memcpy(&views[16 * i + 4], v.data(), 4);
      std::memcpy(&views[16 * i + 8], &buffer, 4);
      std::memcpy(&views[16 * i + 12], &offset, 4);
      data[buffer] += v;
    }
  }
  auto [bits, nulls] = Validity(valid);
  return ArrayData::Make(utf8_view(), static_cast<int64_t>(values.size()),
                         {bits, Bytes(views), Bytes(std::vector<char>(data[0].begin(), data[0].end())),
                          Bytes(std::vector<char>(data[1].begin(), data[1].end()))},
                         nulls);
}

std::string Summarise(const std::vector<std::pair<std::string, std::vector<ArrayDataPtr>>>& columns,
                      int threads = 1) {
  std::vector<FieldPtr> fields;
  for (const auto& [name, batches] : columns) fields.push_back(field(name, batches.front()->type));
  auto s = schema(fields);
  ScanSummary summary(*s);
  for (size_t b = 0; b < columns.front().second.size(); ++b) {
    std::vector<Array> arrays;
    for (const auto& column : columns) arrays.emplace_back(column.second[b]);
    const int64_t rows = arrays.front().length();
    summary.Add(RecordBatch(s, rows, std::move(arrays)), exec::ProcessExecutor(threads));
  }
  return summary.ToJson();
}

std::string One(const ArrayDataPtr& data) { return Summarise({{"c", {data}}}); }

std::string Column(const std::string& type, const std::string& count, int nulls, const std::string& min,
                   const std::string& max) {
  return "{\"name\":\"c\",\"type\":\"" + type + "\",\"count\":" + count + ",\"nulls\":" + std::to_string(nulls) +
         ",\"min\":" + min + ",\"max\":" + max + "}";
}
std::string Line(int rows, const std::string& column) {
  return "{\"rows\":" + std::to_string(rows) + ",\"columns\":[" + column + "]}";
}
std::string Q(const std::string& text) { return "\"" + text + "\""; }

TEST(ScanSummaryTest, IntegersAcrossBatchesAndSlices) {
  auto a = Fixed<int64_t>(int64(), {5, std::nullopt, -3, 9});
  auto b = Fixed<int64_t>(int64(), {100, -200, 7});
  // The slice leaves out 100 and -200: they must not count.
  EXPECT_EQ(Summarise({{"c", {a, b->Slice(2, 1)}}}), Line(5, Column("int64", "4", 1, Q("-3"), Q("9"))));
  EXPECT_EQ(One(Fixed<uint64_t>(uint64(), {18446744073709551615ull, 1})),
            Line(2, Column("uint64", "2", 0, Q("1"), Q("18446744073709551615"))));
  EXPECT_EQ(One(Fixed<int8_t>(int8(), {-128, 127})), Line(2, Column("int8", "2", 0, Q("-128"), Q("127"))));
}

TEST(ScanSummaryTest, FloatsLeaveNaNOutAndWriteZeroAsZero) {
  const double nan = std::nan("");
  EXPECT_EQ(One(Fixed<double>(float64(), {nan, -0.0, 0.1, std::nullopt, 1e21})),
            Line(5, Column("float64", "4", 1, Q("0"), Q("1e+21"))));
  EXPECT_EQ(One(Fixed<double>(float64(), {nan, nan})), Line(2, Column("float64", "2", 0, Q("NaN"), Q("NaN"))));
  EXPECT_EQ(One(Fixed<double>(float64(), {-0.0})), Line(1, Column("float64", "1", 0, Q("0"), Q("0"))));
  EXPECT_EQ(One(Fixed<float>(float32(), {3.4028235e38f, -1.5f})),
            Line(2, Column("float32", "2", 0, Q("-1.5"), Q("3.4028235e+38"))));
  EXPECT_EQ(One(Fixed<double>(float64(), {std::nullopt})), Line(1, Column("float64", "0", 1, "null", "null")));
}

TEST(ScanSummaryTest, TemporalDecimalBoolean) {
  EXPECT_EQ(One(Fixed<int32_t>(date32(), {0, -719162, 19000})),
            Line(3, Column("date", "3", 0, Q("0001-01-01"), Q("2022-01-08"))));
  EXPECT_EQ(One(Fixed<int64_t>(timestamp(TimeUnit::kMilli, "UTC"), {-1, 1235865600000})),
            Line(2, Column("timestamp[ms]", "2", 0, Q("1969-12-31T23:59:59.999"), Q("2009-03-01T00:00:00"))));
  EXPECT_EQ(One(Fixed<int64_t>(time64(TimeUnit::kMicro), {1, 86399999999})),
            Line(2, Column("time[us]", "2", 0, Q("00:00:00.000001"), Q("23:59:59.999999"))));
  EXPECT_EQ(One(Fixed<__int128>(decimal128(10, 2), {-1250, 7})),
            Line(2, Column("decimal(10,2)", "2", 0, Q("-12.50"), Q("0.07"))));
  // Without nulls, values that fit 64 bits take their low halves' min and max; one that does
  // not (either sign) sends the batch to the 128-bit comparison.
  const __int128 wide = static_cast<__int128>(1) << 70;  // 1180591620717411303424
  EXPECT_EQ(One(Fixed<__int128>(decimal128(38, 0), {5, INT64_MIN, 7, INT64_MAX, -3})),
            Line(5, Column("decimal(38,0)", "5", 0, Q("-9223372036854775808"), Q("9223372036854775807"))));
  EXPECT_EQ(One(Fixed<__int128>(decimal128(38, 0), {5, wide, -3})),
            Line(3, Column("decimal(38,0)", "3", 0, Q("-3"), Q("1180591620717411303424"))));
  EXPECT_EQ(One(Fixed<__int128>(decimal128(38, 0), {5, -wide, INT64_MAX})),
            Line(3, Column("decimal(38,0)", "3", 0, Q("-1180591620717411303424"), Q("9223372036854775807"))));
  EXPECT_EQ(One(Fixed<__int128>(decimal128(38, 0), {static_cast<__int128>(UINT64_MAX), 1})),
            Line(2, Column("decimal(38,0)", "2", 0, Q("1"), Q("18446744073709551615"))));
  auto [bits, nulls] = Validity({true, false, true});
  auto values = *AllocateBuffer(Pool(), 1);
  values->mutable_data()[0] = 0b001;  // true, (null), false
  EXPECT_EQ(One(ArrayData::Make(boolean(), 3, {bits, std::move(values)}, nulls)),
            Line(3, Column("bool", "2", 1, Q("false"), Q("true"))));
}

TEST(ScanSummaryTest, StringsBinaryAndViewsCompareBytewise) {
  // Bytewise: "b~" < "b\xC3\xA9" (0x7E < 0xC3), "B" < "b".
  EXPECT_EQ(One(Strings(utf8(), {"b~", std::nullopt, "b\xC3\xA9", "B", ""})),
            Line(5, Column("string", "4", 1, Q(""), Q("b\xC3\xA9"))));
  EXPECT_EQ(One(Strings(binary(), {"ab", "ab"})),
            Line(2, Column("binary", "2", 0,
                           Q("len=2;sha256=fb8e20fc2e4c3f248c60c39bd652f3c1347298bb977b8b4d5903b85055620603"),
                           Q("len=2;sha256=fb8e20fc2e4c3f248c60c39bd652f3c1347298bb977b8b4d5903b85055620603"))));
  // Inline (<= 12 bytes) and out-of-line values in two data buffers.
  auto views = Views({"short", "a much longer value", std::nullopt, "zzzz longer than twelve", "aaa"});
  EXPECT_EQ(One(views), Line(5, Column("string", "4", 1, Q("a much longer value"), Q("zzzz longer than twelve"))));
  EXPECT_EQ(One(views->Slice(3, 2)), Line(2, Column("string", "2", 0, Q("aaa"), Q("zzzz longer than twelve"))));
}

TEST(ScanSummaryTest, DictionariesAreSummarisedByTheValuesTheyUse) {
  // Values: "zebra" (unused: it must not be the max), null, "apple", "mango".
  auto values = Strings(utf8(), {"zebra", std::nullopt, "apple", "mango"});
  auto column = Fixed<int8_t>(dictionary(int8(), utf8()), {3, 2, std::nullopt, 1, 2});
  column->dictionary = values;
  // A valid index to a null value is a null too.
  EXPECT_EQ(One(column), Line(5, Column("string", "3", 2, Q("apple"), Q("mango"))));
  EXPECT_EQ(One(column->Slice(0, 1)), Line(1, Column("string", "1", 0, Q("mango"), Q("mango"))));
}

TEST(ScanSummaryTest, NestedAndNullColumnsAreCountedOnly) {
  auto values = Fixed<int32_t>(int32(), {1, 2, 3});
  auto [bits, nulls] = Validity({true, false, true});
  auto lists = ArrayData::Make(list(int32()), 3, {bits, Bytes(std::vector<int32_t>{0, 2, 2, 3})}, nulls);
  lists->children.push_back(values);
  EXPECT_EQ(One(lists), Line(3, Column("nested", "null", 1, "null", "null")));
  EXPECT_EQ(One(ArrayData::Make(null(), 4, {nullptr}, 4)), Line(4, Column("null", "0", 4, "null", "null")));
}

// Intervals summarise as binary, by the 12 bytes Parquet INTERVAL stores (little-endian
// unsigned months, days, milliseconds); a value INTERVAL cannot hold leaves min and max out.
TEST(ScanSummaryTest, IntervalsCompareByTheirParquetBytes) {
  struct Interval {
    int32_t months, days;
    int64_t nanoseconds;
  };
  auto parquet_bytes = [](uint32_t months, uint32_t days, uint32_t millis) {
    const uint32_t parts[3] = {months, days, millis};
    return std::string(reinterpret_cast<const char*>(parts), sizeof(parts));
  };
  // Bytewise, months' low byte decides first: 256 months (00 01 ..) sorts before 1 month.
  auto intervals = Fixed<Interval>(month_day_nano_interval(), {Interval{1, 2, 3000000}, std::nullopt,
                                                               Interval{256, 0, 0}, Interval{1, 2, 4000000}});
  EXPECT_EQ(One(intervals), Line(4, Column("binary", "3", 1, Q(FormatBinaryDigest(parquet_bytes(256, 0, 0))),
                                          Q(FormatBinaryDigest(parquet_bytes(1, 2, 4))))));
  auto without_parquet_form =
      Fixed<Interval>(month_day_nano_interval(), {Interval{1, 2, 3}, std::nullopt, Interval{-5, 0, 0}});
  EXPECT_EQ(One(without_parquet_form), Line(3, Column("binary", "2", 1, "null", "null")));
}

// year_month and day_time intervals are summarised by the INTERVAL bytes they map onto (the
// other parts zero), as month_day_nano is; decimal32 and decimal64 by their unscaled value.
TEST(ScanSummaryTest, NarrowIntervalsAndDecimals) {
  auto parquet_bytes = [](uint32_t months, uint32_t days, uint32_t millis) {
    const uint32_t parts[3] = {months, days, millis};
    return std::string(reinterpret_cast<const char*>(parts), sizeof(parts));
  };
  auto months = Fixed<int32_t>(year_month_interval(), {3, std::nullopt, 256, 1});
  EXPECT_EQ(One(months), Line(4, Column("binary", "3", 1, Q(FormatBinaryDigest(parquet_bytes(256, 0, 0))),
                                       Q(FormatBinaryDigest(parquet_bytes(3, 0, 0))))));
  auto negative_months = Fixed<int32_t>(year_month_interval(), {3, -1});
  EXPECT_EQ(One(negative_months), Line(2, Column("binary", "2", 0, "null", "null")));
  struct DayTimeValue {
    int32_t days, milliseconds;
  };
  auto day_time = Fixed<DayTimeValue>(day_time_interval(), {DayTimeValue{2, 5}, std::nullopt, DayTimeValue{1, 9}});
  EXPECT_EQ(One(day_time), Line(3, Column("binary", "2", 1, Q(FormatBinaryDigest(parquet_bytes(0, 1, 9))),
                                         Q(FormatBinaryDigest(parquet_bytes(0, 2, 5))))));
  auto d32 = Fixed<int32_t>(decimal32(9, 2), {-1250, std::nullopt, 5, 300});
  EXPECT_EQ(One(d32), Line(4, Column("decimal(9,2)", "3", 1, Q("-12.50"), Q("3.00"))));
  auto d64 = Fixed<int64_t>(decimal64(18, 3), {INT64_MAX / 100, -7});
  EXPECT_EQ(One(d64), Line(2, Column("decimal(18,3)", "2", 0, Q("-0.007"), Q("92233720368547.758"))));
}

// A union is counted (a slot is null when its member's value is), without min or max; a
// run-end encoded column is summarised by its logical values, as its value type.
TEST(ScanSummaryTest, UnionsAndRunEndEncoded) {
  auto ints = Fixed<int32_t>(int32(), {4, std::nullopt, -2});
  auto dense = ArrayData::Make(dense_union({field("i", int32()), field("n", null())}, {3, 9}), 4,
                               {nullptr, Bytes(std::vector<int8_t>{3, 3, 9, 3}), Bytes(std::vector<int32_t>{0, 1, 0, 2})},
                               0);
  dense->children = {ints, ArrayData::Make(null(), 1, {nullptr}, 1)};
  EXPECT_EQ(One(dense), Line(4, Column("union", "2", 2, "null", "null")));

  // Runs [0, 2) = 7, [2, 5) = null, [5, 6) = -1; sliced to logical [1, 6): 7, null x3, -1.
  auto values = Fixed<int32_t>(int32(), {7, std::nullopt, -1});
  auto ree = ArrayData::Make(run_end_encoded(int16(), int32()), 6, {nullptr}, 0);
  ree->children = {ArrayData::Make(int16(), 3, {nullptr, Bytes(std::vector<int16_t>{2, 5, 6})}, 0), values};
  EXPECT_EQ(One(ree), Line(6, Column("int32", "3", 3, Q("-1"), Q("7"))));
  EXPECT_EQ(One(ree->Slice(2, 3)), Line(3, Column("int32", "0", 3, "null", "null")));
  EXPECT_EQ(One(ree->Slice(1, 2)), Line(2, Column("int32", "1", 1, Q("7"), Q("7"))));
}

TEST(ScanSummaryTest, ParallelFoldGivesTheSameLine) {
  std::vector<std::pair<std::string, std::vector<ArrayDataPtr>>> columns;
  for (int c = 0; c < 6; ++c) {
    std::vector<ArrayDataPtr> batches;
    for (int b = 0; b < 5; ++b) {
      batches.push_back(Fixed<int64_t>(int64(), {c * 100 + b, std::nullopt, -(c + b)}));
    }
    columns.push_back({"c" + std::to_string(c), batches});
  }
  EXPECT_EQ(Summarise(columns, 4), Summarise(columns, 1));
}

// Strings whose first 8 bytes tie (the summary compares 8-byte keys first), embedded zero
// bytes, and prefixes of each other.
TEST(ScanSummaryTest, StringsTiedOnTheirFirstEightBytesCompareBytewise) {
  using namespace std::string_literals;
  const std::vector<std::optional<std::string>> values = {
      "abcdefgh"s, "abcdefghi"s, "abcdefgg~"s, "b"s, "a\0"s, std::nullopt, "abcdefgh\0"s, "ab"s};
  EXPECT_EQ(One(Strings(utf8(), values)), Line(8, Column("string", "7", 1, Q("a\\u0000"), Q("b"))));
  const std::vector<std::optional<std::string>> tied = {"abcdefghij"s, "abcdefghia"s, "abcdefghiz"s, "abcdefgh"s};
  EXPECT_EQ(One(Strings(utf8(), tied)), Line(4, Column("string", "4", 0, Q("abcdefgh"), Q("abcdefghiz"))));
  EXPECT_EQ(One(Views(tied)), Line(4, Column("string", "4", 0, Q("abcdefgh"), Q("abcdefghiz"))));
}

// Thousands of strings with extremes anywhere, long shared prefixes and repeated extremes (the
// prefix keys tie), nulls, empty values, values at the data buffer's very end and slices: the
// summary's keyed comparison gives the min and max of a plain comparison of every value.
TEST(ScanSummaryTest, StringExtremesAcrossBlocksMatchAPlainComparison) {
  uint64_t state = 12345;
  auto next = [&state] {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<uint32_t>(state >> 33);
  };
  for (int round = 0; round < 20; ++round) {
    const int n = 300 + static_cast<int>(next() % 2500);
    std::vector<std::optional<std::string>> values;
    for (int i = 0; i < n; ++i) {
      const uint32_t kind = next() % 10;
      if (kind == 0 || (i % 512 == 0 && round % 2 == 0)) {
        values.emplace_back(std::nullopt);
      } else if (kind < 4) {
        // A low-cardinality set whose members share long prefixes ("COLLECT COD"-like).
        static const char* kSet[] = {"MMMMMMMM", "MMMMMMMMA", "MMMMMMMMAB", "MMMMMMMMABCDEFGHIJ", "MMMMMMM", ""};
        values.emplace_back(kSet[next() % 6]);
      } else {
        std::string v(next() % 20, 'a');
        for (char& c : v) c = static_cast<char>('A' + next() % 26);
        values.emplace_back(std::move(v));
      }
    }
    const int64_t begin = round % 3 == 0 ? static_cast<int64_t>(next() % 100) : 0;
    const int64_t length = n - begin - (round % 4 == 0 ? static_cast<int64_t>(next() % 100) : 0);
    std::optional<std::string> lo, hi;
    int nulls = 0;
    for (int64_t i = begin; i < begin + length; ++i) {
      if (!values[static_cast<size_t>(i)]) {
        ++nulls;
        continue;
      }
      const std::string& v = *values[static_cast<size_t>(i)];
      if (!lo || v < *lo) lo = v;
      if (!hi || v > *hi) hi = v;
    }
    ASSERT_TRUE(lo.has_value());
    ArrayDataPtr data = Strings(utf8(), values);
    if (begin != 0 || length != n) data = data->Slice(begin, length);
    EXPECT_EQ(One(data), Line(static_cast<int>(length), Column("string", std::to_string(length - nulls), nulls,
                                                                  Q(*lo), Q(*hi))))
        << "round " << round;
  }
}

// Batches of short values without nulls take a packed comparison: zero bytes inside values,
// empty values, a value that only a trailing zero byte tells apart, a longer value at the
// very end (the batch falls back) and slices agree with a plain comparison.
TEST(ScanSummaryTest, ShortStringsWithoutNullsMatchAPlainComparison) {
  using namespace std::string_literals;
  uint64_t state = 99;
  auto next = [&state] {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<uint32_t>(state >> 33);
  };
  const std::vector<std::string> alphabet = {"A"s, "A\0"s, "\0"s, ""s, "AIR"s, "REG AIR"s, "TRUCK"s, "\xFF\xFF"s,
                                             "Z\0\0\0\0\0\0"s, "ZZZZZZZ"s};
  for (int round = 0; round < 30; ++round) {
    const int n = 1 + static_cast<int>(next() % 3000);
    std::vector<std::optional<std::string>> values;
    for (int i = 0; i < n; ++i) values.emplace_back(alphabet[next() % (2 + round % 9)]);
    if (round % 5 == 4) values.back() = "longer than seven"s;
    const int64_t begin = round % 3 == 0 ? static_cast<int64_t>(next() % static_cast<uint32_t>(n)) : 0;
    const int64_t length = n - begin;
    std::string lo = *values[static_cast<size_t>(begin)], hi = lo;
    for (int64_t i = begin; i < n; ++i) {
      lo = std::min(lo, *values[static_cast<size_t>(i)]);
      hi = std::max(hi, *values[static_cast<size_t>(i)]);
    }
    ArrayDataPtr data = Strings(binary(), values);
    if (begin != 0) data = data->Slice(begin, length);
    std::vector<std::optional<std::string>> extremes = {lo, hi};
    // The expected line: the same extremes summarised on their own (formatting as binary does).
    const std::string expected = One(Strings(binary(), extremes));
    const std::string line = One(data);
    EXPECT_EQ(line.substr(line.find("\"min\"")), expected.substr(expected.find("\"min\""))) << "round " << round;
    EXPECT_NE(line.find("\"count\":" + std::to_string(length) + ","), std::string::npos) << line;
  }
}

// Partial summaries (one per thread in a parallel scan) merged in any order give the line of
// one summary over every batch, for each kind of column.
TEST(ScanSummaryTest, MergedPartialsGiveTheSameLine) {
  using namespace std::string_literals;
  const double nan = std::nan("");
  std::vector<std::pair<std::string, std::vector<ArrayDataPtr>>> columns = {
      {"i", {Fixed<int32_t>(int32(), {5, std::nullopt}), Fixed<int32_t>(int32(), {-7, 9}),
             Fixed<int32_t>(int32(), {std::nullopt, std::nullopt})}},
      {"u", {Fixed<uint64_t>(uint64(), {1, 2}), Fixed<uint64_t>(uint64(), {~uint64_t{0}, 0}),
             Fixed<uint64_t>(uint64(), {std::nullopt, 7})}},
      {"f", {Fixed<double>(float64(), {nan, -0.0}), Fixed<double>(float64(), {0.0, 2.5}),
             Fixed<double>(float64(), {-1e300, std::nullopt})}},
      {"s", {Strings(utf8(), {"m"s, std::nullopt}), Strings(utf8(), {"abcdefghz"s, "abcdefgh"s}),
             Strings(utf8(), {"zz"s, ""s})}},
      {"v", {Views({"a long value past twelve"s, "b"s}), Views({std::nullopt, "a"s}), Views({"c"s, "a long"s})}},
      {"d", {Fixed<int32_t>(date32(), {1, 2}), Fixed<int32_t>(date32(), {-5, std::nullopt}),
             Fixed<int32_t>(date32(), {40000, 3})}},
  };
  std::vector<FieldPtr> fields;
  for (const auto& [name, batches] : columns) fields.push_back(field(name, batches.front()->type));
  auto s = schema(fields);
  auto add_batch = [&](ScanSummary* summary, size_t b) {
    std::vector<Array> arrays;
    for (const auto& column : columns) arrays.emplace_back(column.second[b]);
    const int64_t rows = arrays.front().length();
    summary->Add(RecordBatch(s, rows, std::move(arrays)));
  };
  ScanSummary whole(*s);
  for (size_t b = 0; b < 3; ++b) add_batch(&whole, b);
  for (const std::vector<size_t>& order : {std::vector<size_t>{0, 1, 2}, {2, 1, 0}, {1, 2, 0}}) {
    ScanSummary merged(*s);
    merged.Merge(ScanSummary(*s));  // an empty partial changes nothing
    for (size_t b : order) {
      ScanSummary partial(*s);
      add_batch(&partial, b);
      merged.Merge(partial);
    }
    EXPECT_EQ(merged.ToJson(), whole.ToJson());
    EXPECT_EQ(merged.ToText(), whole.ToText());
  }
}

}  // namespace
}  // namespace strata::cli
