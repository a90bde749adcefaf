// AppendByteArraysAtSlots copies each value exactly: every length a short-value copy handles (and past
// it), values packed back to back so that a copy running one byte long or short would show,
// with and without nulls.
#include "strata/parquet/read/value_conversion.h"

#include <gtest/gtest.h>

#include <cstring>

#include <string>
#include <vector>

namespace strata::parquet {
namespace {

TEST(AppendByteArraysAtSlotsTest, CopiesEveryLengthExactly) {
  std::string source;
  std::vector<ByteArrayView> views;
  std::vector<uint32_t> lengths;
  for (uint32_t length = 0; length <= 70; ++length) lengths.push_back(length);
  for (uint32_t length = 70; length-- > 0;) lengths.push_back(length);
  for (uint32_t length : lengths) {
    for (uint32_t k = 0; k < length; ++k) source.push_back(static_cast<char>('a' + (source.size() * 7 + k) % 26));
  }
  size_t at = 0;
  for (uint32_t length : lengths) {
    views.push_back({reinterpret_cast<const uint8_t*>(source.data()) + at, length});
    at += length;
  }
  const auto count = static_cast<int64_t>(views.size());
  // Every other slot null: the valid slots take the dense views in order.
  std::vector<uint8_t> validity(static_cast<size_t>((2 * count + 7) / 8), 0);
  for (int64_t i = 0; i < count; ++i) validity[static_cast<size_t>((2 * i) >> 3)] |= uint8_t(1u << ((2 * i) & 7));
  for (const bool with_nulls : {false, true}) {
    const int64_t slots = with_nulls ? 2 * count : count;
    ResizableBuffer data(SystemMemoryPool());
    ASSERT_TRUE(data.Resize(static_cast<int64_t>(source.size()) + 64).ok());
    std::memset(data.mutable_data(), 0xEE, source.size() + 64);
    data.set_size(0);
    std::vector<int32_t> offsets(static_cast<size_t>(slots + 1), 0);
    AppendByteArraysAtSlots(views.data(), with_nulls ? validity.data() : nullptr, 0, slots, count, /*large_offsets=*/false,
                            reinterpret_cast<uint8_t*>(offsets.data()), &data);
    const int64_t position = data.size();
    ASSERT_EQ(position, static_cast<int64_t>(source.size()));
    EXPECT_EQ(std::string(reinterpret_cast<const char*>(data.data()), static_cast<size_t>(position)), source);
    EXPECT_EQ(data.data()[position], 0xEE);  // nothing written past the last value
    int64_t end = 0;
    for (int64_t i = 0; i < slots; ++i) {
      const bool valid = !with_nulls || i % 2 == 0;
      if (valid) end += views[static_cast<size_t>(with_nulls ? i / 2 : i)].length;
      ASSERT_EQ(offsets[static_cast<size_t>(i + 1)], end) << i;
    }
  }
}

}  // namespace
}  // namespace strata::parquet
