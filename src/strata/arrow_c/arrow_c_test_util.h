// Test support for the Arrow C layer: random arrays of any type built straight in the Arrow
// layout (nulls, several view data buffers, nested children), and release counting.
#pragma once

#include <algorithm>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "strata/array/array.h"
#include "strata/array/bitmap.h"
#include "strata/arrow_c/abi.h"
#include "strata/memory/buffer.h"

namespace strata::arrow_c::testing {

// One of every type strata has, nested ones included (for round trips).
inline std::vector<TypePtr> AllTypes() {
  auto kv = map(utf8(), int32(), /*keys_sorted=*/true);
  return {null(), boolean(), int8(), int16(), int32(), int64(), uint8(), uint16(), uint32(), uint64(), float16(),
          float32(), float64(), decimal32(9, 2), decimal64(18, -3), decimal128(38, 10), decimal128(5, -2),
          decimal256(76, 20), date32(), date64(),
          time32(TimeUnit::kSecond), time32(TimeUnit::kMilli), time64(TimeUnit::kMicro), time64(TimeUnit::kNano),
          timestamp(TimeUnit::kSecond), timestamp(TimeUnit::kMilli, "UTC"), timestamp(TimeUnit::kMicro, "+05:30"),
          timestamp(TimeUnit::kNano, "America/New_York"), duration(TimeUnit::kSecond), duration(TimeUnit::kNano),
          month_day_nano_interval(), list(month_day_nano_interval()), year_month_interval(), day_time_interval(),
          binary(), utf8(), large_binary(), large_utf8(), binary_view(), utf8_view(), fixed_size_binary(7),
          fixed_size_binary(0), list(int32()), large_list(utf8()), fixed_size_list(int16(), 3),
          fixed_size_list(float64(), 0), list(field("element", utf8_view(), false)),
          struct_({field("a", int64()), field("b", utf8(), false), field("c", boolean())}), kv,
          map(int32(), list(utf8())), dictionary(int8(), utf8()), dictionary(int32(), float64(), /*ordered=*/true),
          dictionary(uint16(), list(int8())),
          // Depth: list<struct<x: list<map<string, struct<d: dictionary>>>, y: fixed_size_list>>.
          list(struct_({field("x", list(map(utf8(), struct_({field("d", dictionary(int16(), large_utf8()))})))),
                        field("y", fixed_size_list(decimal128(10, 2), 2))})),
          large_list(large_list(list(binary_view()))),
          // Unions (type ids not 0..n-1), run-end encoded (each run-end width), list views.
          sparse_union({field("i", int32()), field("s", utf8())}, {5, 7}),
          dense_union({field("a", int16()), field("b", binary()), field("n", null())}, {10, 20, 127}),
          dense_union({field("l", list(dense_union({field("x", float64())}, {3})))}, {0}),
          run_end_encoded(int16(), utf8()), run_end_encoded(int32(), float64()),
          run_end_encoded(int64(), list(int8())),
          list_view(int32()), large_list_view(field("e", utf8(), false)),
          struct_({field("u", sparse_union({field("b", boolean())}, {1})), field("r", run_end_encoded(int32(), int64()))})};
}

class RandomArrays {
 public:
  RandomArrays(MemoryPool* pool, uint32_t seed) : pool_(pool), rng_(seed) {}

  ArrayDataPtr Make(const TypePtr& type, int64_t n, bool nullable = true) {
    if (type->id() == TypeId::kNull) return ArrayData::Make(type, n, {nullptr}, n);
    auto [validity, nulls] = nullable ? Validity(n) : std::pair<std::shared_ptr<Buffer>, int64_t>{nullptr, 0};
    std::vector<std::shared_ptr<Buffer>> buffers{validity};
    auto d = ArrayData::Make(type, n, {}, nulls);
    const TypeId id = type->id();
    switch (id) {
      case TypeId::kBoolean: {
        auto bits = Zeroed(bitmap::BytesForBits(n));
        for (int64_t i = 0; i < n; ++i) bitmap::SetBitTo(bits->mutable_data(), i, Coin(0.5));
        buffers.push_back(bits);
        break;
      }
      case TypeId::kBinary:
      case TypeId::kString: Strings<int32_t>(n, &buffers); break;
      case TypeId::kLargeBinary:
      case TypeId::kLargeString: Strings<int64_t>(n, &buffers); break;
      case TypeId::kBinaryView:
      case TypeId::kStringView: Views(n, &buffers); break;
      case TypeId::kList:
      case TypeId::kMap: d->children.push_back(ListChild<int32_t>(*type, n, &buffers)); break;
      case TypeId::kLargeList: d->children.push_back(ListChild<int64_t>(*type, n, &buffers)); break;
      case TypeId::kFixedSizeList: {
        const Field& f = *type->value_field();
        d->children.push_back(Make(f.type(), n * type->list_size(), f.nullable()));
        break;
      }
      case TypeId::kStruct:
        for (const FieldPtr& f : type->fields()) d->children.push_back(Make(f->type(), n, f->nullable()));
        break;
      case TypeId::kSparseUnion:
      case TypeId::kDenseUnion: {
        // No validity of its own: nulls come from the members.
        buffers[0] = nullptr;
        d->null_count = 0;
        const auto& codes = type->type_codes();
        const bool dense = id == TypeId::kDenseUnion;
        auto type_ids = Zeroed(n);
        auto offsets = Zeroed(n * 4);
        std::vector<int64_t> counts(codes.size(), 0);
        for (int64_t i = 0; i < n; ++i) {
          const size_t c = codes.empty() ? 0 : rng_() % codes.size();
          type_ids->mutable_data()[i] = static_cast<uint8_t>(codes[c]);
          offsets->mutable_data_as<int32_t>()[i] = static_cast<int32_t>(counts[c]++);
        }
        buffers.push_back(type_ids);
        if (dense) buffers.push_back(offsets);
        for (size_t c = 0; c < codes.size(); ++c) {
          const Field& f = *type->field(static_cast<int>(c));
          d->children.push_back(Make(f.type(), dense ? counts[c] : n, f.nullable()));
        }
        break;
      }
      case TypeId::kRunEndEncoded: {
        buffers[0] = nullptr;
        d->null_count = 0;
        // Runs of 1 to 4 values until n are covered.
        std::vector<int64_t> ends;
        for (int64_t end = 0; end < n;) {
          end = std::min<int64_t>(n, end + 1 + static_cast<int64_t>(rng_() % 4));
          ends.push_back(end);
        }
        const int width = type->run_end_type()->byte_width();
        auto end_values = Zeroed(static_cast<int64_t>(ends.size()) * width);
        for (size_t k = 0; k < ends.size(); ++k) {
          std::memcpy(end_values->mutable_data() + k * width, &ends[k], static_cast<size_t>(width));  // little-endian
        }
        const auto runs = static_cast<int64_t>(ends.size());
        d->children.push_back(ArrayData::Make(type->run_end_type(), runs, {nullptr, end_values}, 0));
        d->children.push_back(Make(type->encoded_value_type(), runs, type->field(1)->nullable()));
        break;
      }
      case TypeId::kListView:
      case TypeId::kLargeListView: {
        // Views in any order, overlapping, within a child of 2n elements.
        const int width = id == TypeId::kListView ? 4 : 8;
        const int64_t child_length = 2 * n;
        auto offsets = Zeroed(n * width);
        auto sizes = Zeroed(n * width);
        for (int64_t i = 0; i < n; ++i) {
          const int64_t offset = static_cast<int64_t>(rng_() % static_cast<uint64_t>(child_length + 1));
          const int64_t size = static_cast<int64_t>(rng_() % static_cast<uint64_t>(std::min<int64_t>(child_length - offset, 4) + 1));
          std::memcpy(offsets->mutable_data() + i * width, &offset, static_cast<size_t>(width));
          std::memcpy(sizes->mutable_data() + i * width, &size, static_cast<size_t>(width));
        }
        buffers.push_back(offsets);
        buffers.push_back(sizes);
        const Field& f = *type->value_field();
        d->children.push_back(Make(f.type(), child_length, f.nullable()));
        break;
      }
      case TypeId::kDictionary: {
        const int64_t size = 5;
        d->dictionary = Make(type->value_type(), size, true);
        const int width = type->index_type()->byte_width();
        auto indices = Zeroed(n * width);
        for (int64_t i = 0; i < n; ++i) {
          const uint64_t index = rng_() % size;
          std::memcpy(indices->mutable_data() + i * width, &index, static_cast<size_t>(width));  // little-endian
        }
        buffers.push_back(indices);
        break;
      }
      default: {
        const int width = type->byte_width();
        auto values = Zeroed(n * width);
        uint8_t* out = values->mutable_data();
        for (int64_t i = 0; i < n; ++i) {
          if (id == TypeId::kFloat32) {
            const float v = static_cast<float>(rng_() % 1000) / 8.0f;
            std::memcpy(out + i * 4, &v, 4);
          } else if (id == TypeId::kFloat64) {
            const double v = static_cast<double>(rng_() % 100000) / 16.0;
            std::memcpy(out + i * 8, &v, 8);
          } else if (id == TypeId::kFloat16) {
            const uint16_t v = static_cast<uint16_t>(rng_() % 0x3C00);
            std::memcpy(out + i * 2, &v, 2);
          } else {
            for (int b = 0; b < width; ++b) out[i * width + b] = static_cast<uint8_t>(rng_());
          }
        }
        buffers.push_back(values);
        break;
      }
    }
    d->buffers = std::move(buffers);
    return d;
  }

 private:
  bool Coin(double p) { return std::uniform_real_distribution<double>(0, 1)(rng_) < p; }

  // Never a NULL data pointer, even when empty (compare.cc memcmps zero-width values).
  std::shared_ptr<ResizableBuffer> Zeroed(int64_t size) {
    auto buffer = *AllocateBuffer(pool_, std::max<int64_t>(size, 1));
    std::memset(buffer->mutable_data(), 0, static_cast<size_t>(std::max<int64_t>(size, 1)));
    buffer->set_size(size);
    return buffer;
  }

  std::pair<std::shared_ptr<Buffer>, int64_t> Validity(int64_t n) {
    if (n == 0) return {nullptr, 0};
    auto bits = Zeroed(bitmap::BytesForBits(n));
    int64_t nulls = 0;
    for (int64_t i = 0; i < n; ++i) {
      const bool valid = !Coin(0.2);
      bitmap::SetBitTo(bits->mutable_data(), i, valid);
      nulls += valid ? 0 : 1;
    }
    return {bits, nulls};
  }

  std::string Text() {
    std::string s;
    const int len = static_cast<int>(rng_() % 24);
    for (int i = 0; i < len; ++i) {
      if (rng_() % 10 == 0) {
        s += "\xC3\xA9";  // two-byte UTF-8
      } else {
        s += static_cast<char>('a' + rng_() % 26);
      }
    }
    return s;
  }

  template <typename OffsetT>
  void Strings(int64_t n, std::vector<std::shared_ptr<Buffer>>* buffers) {
    std::string bytes;
    auto offsets = Zeroed((n + 1) * static_cast<int64_t>(sizeof(OffsetT)));
    auto* o = offsets->mutable_data_as<OffsetT>();
    for (int64_t i = 0; i < n; ++i) {
      bytes += Text();
      o[i + 1] = static_cast<OffsetT>(bytes.size());
    }
    auto data = Zeroed(static_cast<int64_t>(bytes.size()));
    if (!bytes.empty()) std::memcpy(data->mutable_data(), bytes.data(), bytes.size());
    buffers->push_back(offsets);
    buffers->push_back(data);
  }

  // Long values alternate between two data buffers, so imports see several.
  void Views(int64_t n, std::vector<std::shared_ptr<Buffer>>* buffers) {
    auto views = Zeroed(n * 16);
    std::string data[2];
    for (int64_t i = 0; i < n; ++i) {
      const std::string s = Text();
      uint8_t* v = views->mutable_data() + i * 16;
      const int32_t len = static_cast<int32_t>(s.size());
      std::memcpy(v, &len, 4);
      if (len <= 12) {
        std::memcpy(v + 4, s.data(), s.size());
      } else {
        const int32_t index = static_cast<int32_t>(i % 2);
        const int32_t offset = static_cast<int32_t>(data[index].size());
        std::memcpy(v + 4, s.data(), 4);
        std::memcpy(v + 8, &index, 4);
        std::memcpy(v + 12, &offset, 4);
        data[index] += s;
      }
    }
    buffers->push_back(views);
    for (const std::string& bytes : data) {
      auto buffer = Zeroed(static_cast<int64_t>(bytes.size()));
      if (!bytes.empty()) std::memcpy(buffer->mutable_data(), bytes.data(), bytes.size());
      buffers->push_back(buffer);
    }
  }

  template <typename OffsetT>
  ArrayDataPtr ListChild(const DataType& type, int64_t n, std::vector<std::shared_ptr<Buffer>>* buffers) {
    auto offsets = Zeroed((n + 1) * static_cast<int64_t>(sizeof(OffsetT)));
    auto* o = offsets->mutable_data_as<OffsetT>();
    for (int64_t i = 0; i < n; ++i) o[i + 1] = static_cast<OffsetT>(o[i] + static_cast<OffsetT>(rng_() % 4));
    buffers->push_back(offsets);
    const Field& f = *type.value_field();
    if (type.id() != TypeId::kMap) return Make(f.type(), o[n], f.nullable());
    // Map entries: never null, keys never null.
    const TypePtr& entries = f.type();
    auto child = ArrayData::Make(entries, o[n], {nullptr}, 0);
    child->children.push_back(Make(entries->field(0)->type(), o[n], false));
    child->children.push_back(Make(entries->field(1)->type(), o[n], entries->field(1)->nullable()));
    return child;
  }

  MemoryPool* pool_;
  std::mt19937 rng_;
};

// Wraps an ArrowArray's release so that tests can count the calls.
struct ReleaseCounter {
  static inline int calls = 0;
  static inline void (*original)(ArrowArray*) = nullptr;
  static void Release(ArrowArray* a) {
    ++calls;
    a->release = original;
    original(a);
  }
  static void Wrap(ArrowArray* a) {
    calls = 0;
    original = a->release;
    a->release = &Release;
  }
};

struct SchemaReleaseCounter {
  static inline int calls = 0;
  static inline void (*original)(ArrowSchema*) = nullptr;
  static void Release(ArrowSchema* s) {
    ++calls;
    s->release = original;
    original(s);
  }
  static void Wrap(ArrowSchema* s) {
    calls = 0;
    original = s->release;
    s->release = &Release;
  }
};

}  // namespace strata::arrow_c::testing
