#include "strata/parquet/encoding/dictionary.h"

#include <cstring>
#include <limits>

namespace strata::parquet {

Result<std::unique_ptr<Dictionary>> Dictionary::MakeFixedWidth(MemoryPool* pool,
                                                               const uint8_t* page, int64_t size,
                                                               int64_t num_values,
                                                               int value_width,
                                                               int64_t base_offset) {
  if (value_width <= 0) return Status::Invalid("dictionary value width {} must be positive", value_width);
  if (num_values < 0 || num_values > size / value_width) {
    return Status::Corrupt("dictionary page at offset {} declares {} values of {} bytes but holds {} bytes",
                           base_offset, num_values, value_width, size);
  }
  std::unique_ptr<Dictionary> dict(new Dictionary(pool));
  dict->num_values_ = num_values;
  dict->value_width_ = value_width;
  const int64_t bytes = num_values * value_width;
  STRATA_RETURN_NOT_OK(dict->values_.Resize(bytes));
  if (bytes > 0) std::memcpy(dict->values_.mutable_data(), page, static_cast<size_t>(bytes));
  return dict;
}

Result<std::unique_ptr<Dictionary>> Dictionary::MakeByteArray(MemoryPool* pool, const uint8_t* page,
                                                              int64_t size, int64_t num_values,
                                                              int64_t base_offset) {
  // Every entry takes at least its 4-byte length, which bounds num_values before allocating.
  if (num_values < 0 || num_values > size / 4) {
    return Status::Corrupt("dictionary page at offset {} declares {} byte arrays but holds only {} bytes",
                           base_offset, num_values, size);
  }
  std::unique_ptr<Dictionary> dict(new Dictionary(pool));
  dict->num_values_ = num_values;
  dict->value_width_ = 0;
  // Validate every length, then copy the payloads (without the length prefixes) contiguously.
  int64_t pos = 0;
  int64_t payload = 0;
  for (int64_t i = 0; i < num_values; ++i) {
    if (size - pos < 4) {
      return Status::Corrupt("dictionary page at offset {}: length of entry {} is cut off",
                             base_offset + pos, i);
    }
    uint32_t length;
    std::memcpy(&length, page + pos, 4);
    if (static_cast<int64_t>(length) > size - pos - 4) {
      return Status::Corrupt("dictionary entry {} at offset {} declares {} bytes but only {} remain", i,
                             base_offset + pos, length, size - pos - 4);
    }
    pos += 4 + static_cast<int64_t>(length);
    payload += length;
  }
  STRATA_RETURN_NOT_OK(dict->values_.Resize(payload));
  STRATA_RETURN_NOT_OK(dict->views_.Resize(num_values * static_cast<int64_t>(sizeof(ByteArrayView))));
  auto* views = reinterpret_cast<ByteArrayView*>(dict->views_.mutable_data());
  uint8_t* out = dict->values_.mutable_data();
  pos = 0;
  int64_t out_pos = 0;
  for (int64_t i = 0; i < num_values; ++i) {
    uint32_t length;
    std::memcpy(&length, page + pos, 4);
    if (length != 0) std::memcpy(out + out_pos, page + pos + 4, length);
    views[i] = {out + out_pos, length};
    pos += 4 + static_cast<int64_t>(length);
    out_pos += length;
  }
  return dict;
}

namespace {

// A constant width turns each memcpy into one or two moves; a runtime width calls memmove
// per value (5.7% of a lineitem scan's profile before this).
template <size_t kWidth>
void GatherWidth(const uint8_t* dict, const int32_t* indices, int64_t n, uint8_t* out) {
  for (int64_t i = 0; i < n; ++i) {
    std::memcpy(out + static_cast<size_t>(i) * kWidth, dict + static_cast<size_t>(indices[i]) * kWidth, kWidth);
  }
}

}  // namespace

void Dictionary::GatherFixedBytes(const int32_t* indices, int64_t n, uint8_t* out) const {
  const uint8_t* dict = values_.data();
  switch (value_width_) {
    case 4: return GatherWidth<4>(dict, indices, n, out);
    case 8: return GatherWidth<8>(dict, indices, n, out);
    case 12: return GatherWidth<12>(dict, indices, n, out);
    case 16: return GatherWidth<16>(dict, indices, n, out);
    default: break;
  }
  const size_t width = static_cast<size_t>(value_width_);
  for (int64_t i = 0; i < n; ++i) {
    std::memcpy(out + i * width, dict + static_cast<size_t>(indices[i]) * width, width);
  }
}

void Dictionary::GatherViews(const int32_t* indices, int64_t n, ByteArrayView* out) const {
  if (value_width_ > 0) {
    const uint8_t* dict = values_.data();
    for (int64_t i = 0; i < n; ++i) {
      out[i] = {dict + static_cast<int64_t>(indices[i]) * value_width_, static_cast<uint32_t>(value_width_)};
    }
    return;
  }
  const ByteArrayView* dict_views = views();
  for (int64_t i = 0; i < n; ++i) out[i] = dict_views[indices[i]];
}

template <typename Offset>
Status Dictionary::GatherInto(const int32_t* indices, int64_t n, Offset* offsets_out,
                              ResizableBuffer* data) const {
  if (!is_byte_array()) {
    return Status::Invalid("GatherInto needs a BYTE_ARRAY dictionary; use GatherViews for FLBA");
  }
  const ByteArrayView* dict_views = views();
  int64_t total = 0;
  for (int64_t i = 0; i < n; ++i) total += dict_views[indices[i]].length;
  const int64_t start = data->size();
  if (start + total > static_cast<int64_t>(std::numeric_limits<Offset>::max())) {
    return Status::LimitExceeded("{} bytes of dictionary values do not fit {}-bit offsets",
                                 start + total, 8 * sizeof(Offset));
  }
  STRATA_RETURN_NOT_OK(data->Reserve(start + total));
  uint8_t* out = data->mutable_data();
  int64_t pos = start;
  for (int64_t i = 0; i < n; ++i) {
    const ByteArrayView& v = dict_views[indices[i]];
    if (v.length != 0) std::memcpy(out + pos, v.data, v.length);
    pos += v.length;
    offsets_out[i] = static_cast<Offset>(pos);
  }
  data->set_size(pos);
  return Status::OK();
}

template Status Dictionary::GatherInto(const int32_t*, int64_t, int32_t*, ResizableBuffer*) const;
template Status Dictionary::GatherInto(const int32_t*, int64_t, int64_t*, ResizableBuffer*) const;

}  // namespace strata::parquet
