// SelectValues32/64 against a per-bit reference: every density from none to all selected,
// bit offsets 0..15, lengths around the 8-, 16- and 64-element group edges, inputs and outputs
// that end exactly at their allocation (an access past them trips AddressSanitizer).
#include "strata/array/select_values.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <random>
#include <vector>

namespace strata {
namespace {

template <typename T, typename Select>
void CheckAgainstReference(Select select) {
  std::mt19937_64 random(42);
  const std::vector<int64_t> lengths = {0, 1, 7, 8, 9, 15, 16, 17, 63, 64, 65, 127, 128, 129, 1000};
  for (double density : {0.0, 0.05, 0.5, 0.9, 0.99, 1.0}) {
    std::bernoulli_distribution bit(density);
    for (int64_t offset = 0; offset < 16; ++offset) {
      for (int64_t n : lengths) {
        // Exactly sized heap blocks, so ASan sees any access past the range.
        const int64_t bitmap_bytes = (offset + n + 7) / 8;
        auto bits = std::make_unique<uint8_t[]>(static_cast<size_t>(bitmap_bytes));
        std::fill_n(bits.get(), bitmap_bytes, uint8_t{0});
        auto values = std::make_unique<T[]>(static_cast<size_t>(n));
        std::vector<T> expected;
        for (int64_t i = 0; i < n; ++i) {
          values[i] = static_cast<T>(random());
          if (bit(random)) {
            bits[(offset + i) / 8] |= static_cast<uint8_t>(1u << ((offset + i) % 8));
            expected.push_back(values[i]);
          }
        }
        // Room for exactly the selected values: the function must not store past them.
        const auto selected = static_cast<int64_t>(expected.size());
        auto out = std::make_unique<T[]>(static_cast<size_t>(std::max<int64_t>(selected, 1)));
        const int64_t count = select(values.get(), bits.get(), offset, n, out.get());
        ASSERT_EQ(count, selected) << "n " << n << " offset " << offset;
        for (int64_t i = 0; i < count; ++i) {
          ASSERT_EQ(out[i], expected[static_cast<size_t>(i)]) << "n " << n << " offset " << offset << " at " << i;
        }
      }
    }
  }
}

TEST(SelectValuesTest, ThirtyTwoBitValuesMatchTheReference) { CheckAgainstReference<uint32_t>(SelectValues32); }

TEST(SelectValuesTest, SixtyFourBitValuesMatchTheReference) { CheckAgainstReference<uint64_t>(SelectValues64); }

}  // namespace
}  // namespace strata
