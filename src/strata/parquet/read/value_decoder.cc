#include "strata/parquet/read/value_decoder.h"

#include <algorithm>
#include <cstring>
#include <vector>

#include "strata/memory/buffer.h"
#include "strata/parquet/encoding/alp.h"
#include "strata/parquet/encoding/byte_stream_split.h"
#include "strata/parquet/encoding/delta_binary_packed.h"
#include "strata/parquet/encoding/delta_byte_array.h"
#include "strata/parquet/encoding/delta_length_byte_array.h"
#include "strata/parquet/encoding/plain.h"
#include "strata/parquet/encoding/rle_bit_packed.h"

namespace strata::parquet {

Status ValueDecoder::DecodeFixed(uint8_t*, int64_t) {
  return Status::Invalid("this encoding does not decode fixed-width values");
}
Status ValueDecoder::DecodeBits(uint8_t*, int64_t, int64_t) {
  return Status::Invalid("this encoding does not decode booleans");
}
Status ValueDecoder::DecodeViews(ByteArrayView*, int64_t) {
  return Status::Invalid("this encoding does not decode byte arrays");
}

int PhysicalValueWidth(PhysicalType type, int32_t type_length) {
  switch (type) {
    case PhysicalType::kInt32:
    case PhysicalType::kFloat: return 4;
    case PhysicalType::kInt64:
    case PhysicalType::kDouble: return 8;
    case PhysicalType::kInt96: return 12;
    case PhysicalType::kFixedLenByteArray: return type_length;
    default: return 0;
  }
}

namespace {

Status ExpectCount(Result<int64_t> got, int64_t wanted, const char* what) {
  if (!got.ok()) return got.status();
  if (*got != wanted) {
    return Status::Corrupt("{}: page holds {} values where {} were expected", what, *got, wanted);
  }
  return Status::OK();
}

// Fixed-width decoders that take the value width in SetData and decode raw bytes: PLAIN and
// BYTE_STREAM_SPLIT.
template <typename Decoder>
class RawFixedValueDecoder final : public ValueDecoder {
 public:
  RawFixedValueDecoder(int width, const char* name) : width_(width), name_(name) {}
  Status SetData(int64_t, const uint8_t* data, int64_t size, int64_t file_offset) override {
    return decoder_.SetData(data, size, width_, file_offset);
  }
  Status DecodeFixed(uint8_t* out, int64_t count) override {
    return ExpectCount(decoder_.DecodeRaw(out, count), count, name_);
  }

 private:
  int width_;
  const char* name_;
  Decoder decoder_;
};

class PlainBooleanValueDecoder final : public ValueDecoder {
 public:
  Status SetData(int64_t, const uint8_t* data, int64_t size, int64_t) override {
    decoder_.SetData(data, size);
    return Status::OK();
  }
  Status DecodeBits(uint8_t* bitmap, int64_t bit_offset, int64_t count) override {
    return ExpectCount(decoder_.DecodeBits(bitmap, bit_offset, count), count, "PLAIN BOOLEAN");
  }

 private:
  PlainBooleanDecoder decoder_;
};

class PlainByteArrayValueDecoder final : public ValueDecoder {
 public:
  Status SetData(int64_t, const uint8_t* data, int64_t size, int64_t file_offset) override {
    decoder_.SetData(data, size, file_offset);
    return Status::OK();
  }
  Status DecodeViews(ByteArrayView* out, int64_t count) override {
    return ExpectCount(decoder_.Decode(out, count), count, "PLAIN BYTE_ARRAY");
  }

 private:
  PlainByteArrayDecoder decoder_;
};

// RLE-encoded booleans (data pages v1 and v2): a 4-byte length, then the RLE/bit-packed
// hybrid at bit width 1.
class RleBooleanValueDecoder final : public ValueDecoder {
 public:
  explicit RleBooleanValueDecoder(MemoryPool* pool) : scratch_(pool) {}
  Status SetData(int64_t, const uint8_t* data, int64_t size, int64_t file_offset) override {
    auto consumed = decoder_.ResetWithLengthPrefix(data, size, 1, file_offset);
    return consumed.status();
  }
  Status DecodeBits(uint8_t* bitmap, int64_t bit_offset, int64_t count) override {
    STRATA_RETURN_NOT_OK(scratch_.ReserveScratch(count));
    scratch_.set_size(count);
    uint8_t* values = scratch_.mutable_data();
    STRATA_RETURN_NOT_OK(ExpectCount(decoder_.Decode(values, count), count, "RLE BOOLEAN"));
    for (int64_t i = 0; i < count; ++i) {
      const int64_t bit = bit_offset + i;
      const uint8_t mask = static_cast<uint8_t>(1u << (bit & 7));
      bitmap[bit >> 3] = values[i] ? (bitmap[bit >> 3] | mask) : (bitmap[bit >> 3] & ~mask);
    }
    return Status::OK();
  }

 private:
  RleBitPackedDecoder decoder_;
  ResizableBuffer scratch_;
};

// RLE_DICTIONARY / PLAIN_DICTIONARY: a bit-width byte, then indices; values are gathered
// from the column chunk's dictionary. Indices are bounds-checked per batch by the RLE decoder.
class DictionaryValueDecoder final : public ValueDecoder {
 public:
  DictionaryValueDecoder(const Dictionary* dictionary, MemoryPool* pool) : dictionary_(dictionary), indices_(pool) {}
  Status SetData(int64_t num_values, const uint8_t* data, int64_t size, int64_t file_offset) override {
    // Sized once per page for its largest range (all its values, levels included, when ranges
    // are not bounded), so batches never grow it: a 100,000-value page read in batches of
    // 8,192 rows needs 32 KiB of indices, not 400 KiB (times 500 columns of a wide table).
    STRATA_RETURN_NOT_OK(
        indices_.ReserveScratch(std::min(num_values, largest_range_) * static_cast<int64_t>(sizeof(int32_t))));
    return decoder_.ResetForDictionaryIndices(data, size, file_offset);
  }
  Status DecodeFixed(uint8_t* out, int64_t count) override {
    STRATA_ASSIGN_OR_RETURN(const int32_t* indices, Indices(count));
    dictionary_->GatherFixedBytes(indices, count, out);
    return Status::OK();
  }
  Status DecodeViews(ByteArrayView* out, int64_t count) override {
    STRATA_ASSIGN_OR_RETURN(const int32_t* indices, Indices(count));
    dictionary_->GatherViews(indices, count, out);
    return Status::OK();
  }

 private:
  Result<const int32_t*> Indices(int64_t count) {
    STRATA_RETURN_NOT_OK(indices_.ReserveScratch(count * static_cast<int64_t>(sizeof(int32_t))));
    indices_.set_size(count * static_cast<int64_t>(sizeof(int32_t)));
    auto* indices = indices_.mutable_data_as<int32_t>();
    STRATA_RETURN_NOT_OK(ExpectCount(decoder_.DecodeIndices(indices, count, dictionary_->size()), count,
                                     "dictionary indices"));
    return indices;
  }

  const Dictionary* dictionary_;
  RleBitPackedDecoder decoder_;
  ResizableBuffer indices_;
};

template <typename T>
class DeltaBinaryPackedValueDecoder final : public ValueDecoder {
 public:
  Status SetData(int64_t, const uint8_t* data, int64_t size, int64_t file_offset) override {
    return decoder_.SetData(data, size, file_offset);
  }
  Status DecodeFixed(uint8_t* out, int64_t count) override {
    return ExpectCount(decoder_.Decode(reinterpret_cast<T*>(out), count), count, "DELTA_BINARY_PACKED");
  }

 private:
  DeltaBinaryPackedDecoder<T> decoder_;
};

class DeltaLengthByteArrayValueDecoder final : public ValueDecoder {
 public:
  Status SetData(int64_t, const uint8_t* data, int64_t size, int64_t file_offset) override {
    return decoder_.SetData(data, size, file_offset);
  }
  Status DecodeViews(ByteArrayView* out, int64_t count) override {
    return ExpectCount(decoder_.Decode(out, count), count, "DELTA_LENGTH_BYTE_ARRAY");
  }

 private:
  DeltaLengthByteArrayDecoder decoder_;
};

// DELTA_BYTE_ARRAY, for BYTE_ARRAY (views) and FIXED_LEN_BYTE_ARRAY (copied out at the width).
class DeltaByteArrayValueDecoder final : public ValueDecoder {
 public:
  DeltaByteArrayValueDecoder(int width, MemoryPool* pool) : width_(width), decoder_(pool), views_(pool) {}
  Status SetData(int64_t, const uint8_t* data, int64_t size, int64_t file_offset) override {
    return decoder_.SetData(data, size, file_offset);
  }
  Status DecodeViews(ByteArrayView* out, int64_t count) override {
    return ExpectCount(decoder_.Decode(out, count), count, "DELTA_BYTE_ARRAY");
  }
  Status DecodeFixed(uint8_t* out, int64_t count) override {
    STRATA_RETURN_NOT_OK(views_.ReserveScratch(count * static_cast<int64_t>(sizeof(ByteArrayView))));
    auto* views = views_.mutable_data_as<ByteArrayView>();
    STRATA_RETURN_NOT_OK(DecodeViews(views, count));
    for (int64_t i = 0; i < count; ++i) {
      if (views[i].length != static_cast<uint32_t>(width_)) {
        return Status::Corrupt("DELTA_BYTE_ARRAY value of {} bytes in a FIXED_LEN_BYTE_ARRAY({}) column",
                               views[i].length, width_);
      }
      std::memcpy(out + i * width_, views[i].data, static_cast<size_t>(width_));
    }
    return Status::OK();
  }

 private:
  int width_;
  DeltaByteArrayDecoder decoder_;
  ResizableBuffer views_;
};

// ALP (FLOAT, DOUBLE). The page header's num_elements counts the non-null values; it may not
// exceed the values the page's levels leave room for.
template <typename T>
class AlpValueDecoder final : public ValueDecoder {
 public:
  explicit AlpValueDecoder(MemoryPool* pool) : decoder_(pool) {}
  Status SetData(int64_t num_values, const uint8_t* data, int64_t size, int64_t file_offset) override {
    STRATA_RETURN_NOT_OK(decoder_.SetData(data, size, file_offset));
    if (decoder_.total_values() > num_values) {
      return Status::Corrupt("ALP page at offset {}: header declares {} values but the page has {}", file_offset,
                             decoder_.total_values(), num_values);
    }
    return Status::OK();
  }
  Status DecodeFixed(uint8_t* out, int64_t count) override {
    return ExpectCount(decoder_.Decode(reinterpret_cast<T*>(out), count), count, "ALP");
  }

 private:
  AlpDecoder<T> decoder_;
};

}  // namespace

Result<std::unique_ptr<ValueDecoder>> MakeValueDecoder(Encoding encoding, PhysicalType physical_type,
                                                       int32_t type_length, const Dictionary* dictionary,
                                                       MemoryPool* pool) {
  const int width = PhysicalValueWidth(physical_type, type_length);
  switch (encoding) {
    case Encoding::kPlain:
      if (physical_type == PhysicalType::kBoolean) return std::unique_ptr<ValueDecoder>(new PlainBooleanValueDecoder());
      if (physical_type == PhysicalType::kByteArray) return std::unique_ptr<ValueDecoder>(new PlainByteArrayValueDecoder());
      return std::unique_ptr<ValueDecoder>(new RawFixedValueDecoder<PlainFixedDecoder>(width, "PLAIN"));
    case Encoding::kRle:
      if (physical_type == PhysicalType::kBoolean) return std::unique_ptr<ValueDecoder>(new RleBooleanValueDecoder(pool));
      break;
    case Encoding::kPlainDictionary:
    case Encoding::kRleDictionary:
      if (dictionary == nullptr) return Status::Corrupt("a dictionary-encoded data page comes before any dictionary page");
      if (physical_type == PhysicalType::kBoolean) break;
      return std::unique_ptr<ValueDecoder>(new DictionaryValueDecoder(dictionary, pool));
    case Encoding::kDeltaBinaryPacked:
      if (physical_type == PhysicalType::kInt32) return std::unique_ptr<ValueDecoder>(new DeltaBinaryPackedValueDecoder<int32_t>());
      if (physical_type == PhysicalType::kInt64) return std::unique_ptr<ValueDecoder>(new DeltaBinaryPackedValueDecoder<int64_t>());
      break;
    case Encoding::kDeltaLengthByteArray:
      if (physical_type == PhysicalType::kByteArray) return std::unique_ptr<ValueDecoder>(new DeltaLengthByteArrayValueDecoder());
      break;
    case Encoding::kDeltaByteArray:
      if (physical_type == PhysicalType::kByteArray || physical_type == PhysicalType::kFixedLenByteArray) {
        return std::unique_ptr<ValueDecoder>(new DeltaByteArrayValueDecoder(width, pool));
      }
      break;
    case Encoding::kByteStreamSplit:
      if (width > 0 && physical_type != PhysicalType::kInt96) {
        return std::unique_ptr<ValueDecoder>(new RawFixedValueDecoder<ByteStreamSplitDecoder>(width, "BYTE_STREAM_SPLIT"));
      }
      break;
    case Encoding::kAlp:
      if (physical_type == PhysicalType::kFloat) return std::unique_ptr<ValueDecoder>(new AlpValueDecoder<float>(pool));
      if (physical_type == PhysicalType::kDouble) return std::unique_ptr<ValueDecoder>(new AlpValueDecoder<double>(pool));
      break;
    default:
      break;
  }
  return Status::NotImplemented("{} encoding for {} values", EncodingName(encoding), PhysicalTypeName(physical_type));
}

}  // namespace strata::parquet
