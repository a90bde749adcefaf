#include "strata/parquet/testing/random_arrays.h"

#include <cstring>
#include <random>

#include "strata/array/bitmap.h"

namespace strata::parquet::testing {
namespace {

class Generator {
 public:
  Generator(uint64_t seed, MemoryPool* pool, const RandomArrayOptions& options)
      : random_(seed), pool_(pool), options_(options) {}

  Result<ArrayDataPtr> Make(const TypePtr& type, int64_t length, bool nullable) {
    std::shared_ptr<Buffer> validity;
    int64_t nulls = 0;
    if (nullable && options_.null_fraction > 0 && type->id() != TypeId::kNull) {
      STRATA_ASSIGN_OR_RETURN(auto bits, AllocateBuffer(pool_, bitmap::BytesForBits(length)));
      std::memset(bits->mutable_data(), 0, static_cast<size_t>(bits->size()));
      std::bernoulli_distribution is_null(options_.null_fraction);
      for (int64_t i = 0; i < length; ++i) {
        if (is_null(random_)) {
          ++nulls;
        } else {
          bitmap::SetBit(bits->mutable_data(), i);
        }
      }
      validity = std::move(bits);
    }
    const uint8_t* valid = validity != nullptr ? validity->data() : nullptr;
    auto is_valid = [valid](int64_t i) { return valid == nullptr || bitmap::GetBit(valid, i); };
    auto data = std::make_shared<ArrayData>();
    data->type = type;
    data->length = length;
    data->null_count = nulls;
    data->buffers.push_back(validity);
    switch (type->id()) {
      case TypeId::kNull:
        data->null_count = length;
        data->buffers = {nullptr};
        return data;
      case TypeId::kBoolean: {
        STRATA_ASSIGN_OR_RETURN(auto bits, AllocateBuffer(pool_, bitmap::BytesForBits(length) + 1));
        for (int64_t i = 0; i < bits->size(); ++i) bits->mutable_data()[i] = static_cast<uint8_t>(Next());
        data->buffers.push_back(std::move(bits));
        return data;
      }
      case TypeId::kBinary:
      case TypeId::kString:
        return Strings<int32_t>(std::move(data), length, is_valid);
      case TypeId::kLargeBinary:
      case TypeId::kLargeString:
        return Strings<int64_t>(std::move(data), length, is_valid);
      case TypeId::kBinaryView:
      case TypeId::kStringView:
        return Views(std::move(data), length);
      case TypeId::kList:
        return List<int32_t>(std::move(data), length, is_valid);
      case TypeId::kLargeList:
      case TypeId::kMap:
        if (type->id() == TypeId::kMap) return List<int32_t>(std::move(data), length, is_valid);
        return List<int64_t>(std::move(data), length, is_valid);
      case TypeId::kFixedSizeList: {
        const FieldPtr& item = type->value_field();
        STRATA_ASSIGN_OR_RETURN(auto child, Make(item->type(), length * type->list_size(), item->nullable()));
        data->children.push_back(std::move(child));
        return data;
      }
      case TypeId::kStruct:
        for (const FieldPtr& field : type->fields()) {
          STRATA_ASSIGN_OR_RETURN(auto child, Make(field->type(), length, field->nullable()));
          data->children.push_back(std::move(child));
        }
        return data;
      case TypeId::kDictionary: {
        const int64_t entries = std::max<int64_t>(1, options_.distinct_values > 0 ? options_.distinct_values : 16);
        RandomArrayOptions saved = options_;
        options_.distinct_values = 0;
        auto dictionary = Make(type->value_type(), entries, false);
        options_ = saved;
        STRATA_RETURN_NOT_OK(dictionary.status());
        const int width = type->index_type()->byte_width();
        STRATA_ASSIGN_OR_RETURN(auto indices, AllocateBuffer(pool_, length * width));
        for (int64_t i = 0; i < length; ++i) {
          const int64_t index = static_cast<int64_t>(Next() % static_cast<uint64_t>(entries));
          std::memcpy(indices->mutable_data() + i * width, &index, static_cast<size_t>(width));  // little-endian
        }
        data->buffers.push_back(std::move(indices));
        data->dictionary = std::move(*dictionary);
        return data;
      }
      default:
        break;
    }
    if (!is_primitive_fixed_width(type->id())) {
      return Status::NotImplemented("RandomArray: {}", type->ToString());
    }
    const int width = type->byte_width();
    STRATA_ASSIGN_OR_RETURN(auto values, AllocateBuffer(pool_, length * width));
    uint8_t* out = values->mutable_data();
    for (int64_t i = 0; i < length; ++i) FillValue(*type, out + i * width);
    data->buffers.push_back(std::move(values));
    return data;
  }

 private:
  uint64_t Next() { return random_(); }
  // A draw from the value domain: small when distinct_values bounds it.
  uint64_t Draw() {
    return options_.distinct_values > 0 ? Next() % static_cast<uint64_t>(options_.distinct_values) : Next();
  }

  void FillValue(const DataType& type, uint8_t* out) {
    const uint64_t r = Draw();
    switch (type.id()) {
      case TypeId::kFloat16: {
        // Finite halves only (exponent below 31), so values compare equal after a round trip.
        const auto bits = static_cast<uint16_t>((r & 0x83FF) | (((r >> 16) % 31) << 10));
        std::memcpy(out, &bits, 2);
        return;
      }
      case TypeId::kFloat32: {
        const float v = static_cast<float>(static_cast<int64_t>(r % 2000001) - 1000000) / 64.0f;
        std::memcpy(out, &v, 4);
        return;
      }
      case TypeId::kFloat64: {
        const double v = static_cast<double>(static_cast<int64_t>(r % 200000001) - 100000000) / 1024.0;
        std::memcpy(out, &v, 8);
        return;
      }
      case TypeId::kDecimal128:
      case TypeId::kDecimal256: {
        // |value| < 10^min(precision, 18), sign-extended to the full width.
        int64_t bound = 1;
        for (int d = 0; d < std::min(type.precision(), 18); ++d) bound *= 10;
        const int64_t v = static_cast<int64_t>(r % static_cast<uint64_t>(2 * bound - 1)) - (bound - 1);
        const int width = type.byte_width();
        std::memset(out, v < 0 ? 0xFF : 0, static_cast<size_t>(width));
        std::memcpy(out, &v, 8);
        return;
      }
      case TypeId::kDate64: {
        const int64_t v = (static_cast<int64_t>(r % 40000) - 20000) * 86400000;
        std::memcpy(out, &v, 8);
        return;
      }
      case TypeId::kTime32: {
        const int32_t day = type.unit() == ::strata::TimeUnit::kSecond ? 86400 : 86400000;
        const auto v = static_cast<int32_t>(r % static_cast<uint64_t>(day));
        std::memcpy(out, &v, 4);
        return;
      }
      case TypeId::kTime64: {
        const int64_t day = type.unit() == ::strata::TimeUnit::kMicro ? int64_t{86400000000} : int64_t{86400000000000};
        const auto v = static_cast<int64_t>(r % static_cast<uint64_t>(day));
        std::memcpy(out, &v, 8);
        return;
      }
      case TypeId::kTimestamp: {
        // Within +-100 years of the epoch at any unit (INT96 and unit conversions stay exact).
        const int64_t seconds = static_cast<int64_t>(r % 6311520000) - 3155760000;
        int64_t v = seconds;
        switch (type.unit()) {
          case ::strata::TimeUnit::kSecond: break;
          case ::strata::TimeUnit::kMilli: v = v * 1000 + static_cast<int64_t>((r >> 40) % 1000); break;
          case ::strata::TimeUnit::kMicro: v = v * 1000000 + static_cast<int64_t>((r >> 30) % 1000000); break;
          case ::strata::TimeUnit::kNano: v = v * 1000000000 + static_cast<int64_t>((r >> 20) % 1000000000); break;
        }
        std::memcpy(out, &v, 8);
        return;
      }
      default: {
        const int width = type.byte_width();
        uint64_t bits = r;
        for (int b = 0; b < width; ++b) {
          if (b % 8 == 0 && b > 0) bits = Draw();
          out[b] = static_cast<uint8_t>(bits >> (8 * (b % 8)));
        }
        return;
      }
    }
  }

  // A string of 0..max_string_length printable ASCII characters (valid UTF-8).
  void RandomText(std::string* out) {
    uint64_t r = Draw();
    const int length = static_cast<int>(r % static_cast<uint64_t>(options_.max_string_length + 1));
    out->clear();
    std::mt19937_64 local(r);
    for (int i = 0; i < length; ++i) out->push_back(static_cast<char>('a' + local() % 26));
  }

  template <typename Offset, typename IsValid>
  Result<ArrayDataPtr> Strings(ArrayDataPtr data, int64_t length, IsValid is_valid) {
    STRATA_ASSIGN_OR_RETURN(auto offsets, AllocateBuffer(pool_, (length + 1) * static_cast<int64_t>(sizeof(Offset))));
    auto bytes = std::make_shared<ResizableBuffer>(pool_);
    auto* o = offsets->template mutable_data_as<Offset>();
    o[0] = 0;
    std::string text;
    for (int64_t i = 0; i < length; ++i) {
      if (is_valid(i)) {
        RandomText(&text);
        STRATA_RETURN_NOT_OK(bytes->Append(text.data(), static_cast<int64_t>(text.size())));
      }
      o[i + 1] = static_cast<Offset>(bytes->size());
    }
    data->buffers.push_back(std::move(offsets));
    data->buffers.push_back(std::move(bytes));
    return data;
  }

  Result<ArrayDataPtr> Views(ArrayDataPtr data, int64_t length) {
    STRATA_ASSIGN_OR_RETURN(auto views, AllocateBuffer(pool_, length * 16));
    auto bytes = std::make_shared<ResizableBuffer>(pool_);
    std::string text;
    std::vector<std::pair<int64_t, std::string>> long_values;
    for (int64_t i = 0; i < length; ++i) {
      RandomText(&text);
      uint8_t* view = views->mutable_data() + i * 16;
      std::memset(view, 0, 16);
      const auto n = static_cast<int32_t>(text.size());
      std::memcpy(view, &n, 4);
      if (n <= 12) {
        std::memcpy(view + 4, text.data(), text.size());
      } else {
        const auto offset = static_cast<int32_t>(bytes->size());
        std::memcpy(view + 4, text.data(), 4);
        const int32_t buffer_index = 0;
        std::memcpy(view + 8, &buffer_index, 4);
        std::memcpy(view + 12, &offset, 4);
        STRATA_RETURN_NOT_OK(bytes->Append(text.data(), n));
      }
    }
    data->buffers.push_back(std::move(views));
    data->buffers.push_back(std::move(bytes));
    return data;
  }

  template <typename Offset, typename IsValid>
  Result<ArrayDataPtr> List(ArrayDataPtr data, int64_t length, IsValid is_valid) {
    STRATA_ASSIGN_OR_RETURN(auto offsets, AllocateBuffer(pool_, (length + 1) * static_cast<int64_t>(sizeof(Offset))));
    auto* o = offsets->template mutable_data_as<Offset>();
    o[0] = 0;
    for (int64_t i = 0; i < length; ++i) {
      const int64_t n = is_valid(i) ? static_cast<int64_t>(Next() % static_cast<uint64_t>(options_.max_list_length + 1)) : 0;
      o[i + 1] = static_cast<Offset>(o[i] + n);
    }
    const FieldPtr& item = data->type->value_field();
    if (data->type->id() == TypeId::kMap) {
      // Entries: a non-null struct of a non-null key and a value.
      const DataType& entries = *item->type();
      auto child = std::make_shared<ArrayData>();
      child->type = item->type();
      child->length = o[length];
      child->null_count = 0;
      child->buffers = {nullptr};
      STRATA_ASSIGN_OR_RETURN(auto keys, Make(entries.field(0)->type(), o[length], false));
      STRATA_ASSIGN_OR_RETURN(auto values, Make(entries.field(1)->type(), o[length], entries.field(1)->nullable()));
      child->children = {std::move(keys), std::move(values)};
      data->children.push_back(std::move(child));
    } else {
      STRATA_ASSIGN_OR_RETURN(auto child, Make(item->type(), o[length], item->nullable()));
      data->children.push_back(std::move(child));
    }
    data->buffers.push_back(std::move(offsets));
    return data;
  }

  std::mt19937_64 random_;
  MemoryPool* pool_;
  RandomArrayOptions options_;
};

}  // namespace

Result<Array> RandomArray(const TypePtr& type, int64_t length, uint64_t seed, MemoryPool* pool,
                          const RandomArrayOptions& options) {
  Generator generator(seed, pool, options);
  STRATA_ASSIGN_OR_RETURN(auto data, generator.Make(type, length, true));
  return Array(std::move(data));
}

Result<std::shared_ptr<RecordBatch>> RandomBatch(const std::shared_ptr<Schema>& schema, int64_t rows, uint64_t seed,
                                                 MemoryPool* pool, const RandomArrayOptions& options) {
  std::vector<Array> columns;
  for (int i = 0; i < schema->num_fields(); ++i) {
    Generator generator(seed * 1000003 + static_cast<uint64_t>(i), pool, options);
    STRATA_ASSIGN_OR_RETURN(auto data, generator.Make(schema->field(i)->type(), rows, schema->field(i)->nullable()));
    columns.emplace_back(std::move(data));
  }
  return RecordBatch::Make(schema, rows, std::move(columns));
}

}  // namespace strata::parquet::testing
