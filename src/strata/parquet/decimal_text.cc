#include "strata/parquet/decimal_text.h"

#include <cstring>
#include <limits>

#include "strata/util/bit_util.h"

namespace strata::parquet {
namespace {

constexpr uint32_t kChunk = 1000000000;  // 10^9: the largest power of ten under 2^32
constexpr int kChunkDigits = 9;

// Decimal digits of a `length`-byte magnitude, at most: 8 * length * log10(2) < 2.41 * length.
int64_t DigitsBound(int64_t length) { return (length * 241 + 99) / 100 + 1; }

int32_t ScaleOf(const ColumnDescriptor& column) {
  const SchemaElement& e = *column.element;
  if (e.logical_type && e.logical_type->kind == LogicalType::Kind::kDecimal) return e.logical_type->scale;
  return e.scale.value_or(0);
}

}  // namespace

bool IsDecimalTextColumn(const ColumnDescriptor& column) {
  return column.type && column.type->id() == TypeId::kString &&
         column.field_metadata.Get(kDecimalTextMetadataKey).has_value();
}

TypePtr DecimalTextStorageType(const ColumnDescriptor& column, const DataType& text_type) {
  if (column.physical_type == PhysicalType::kFixedLenByteArray) return fixed_size_binary(column.type_length);
  return text_type.id() == TypeId::kLargeString ? large_binary() : binary();
}

int64_t DecimalTextBound(int64_t length, int32_t scale) { return DigitsBound(length) + 3 + scale; }

int64_t FormatDecimalText(const uint8_t* bytes, int64_t length, int32_t scale, uint32_t* limbs, char* out) {
  const bool negative = length > 0 && (bytes[0] & 0x80) != 0;
  const uint8_t fill = negative ? 0xff : 0x00;
  // Little-endian 32-bit limbs of the sign-extended value.
  const int64_t num_limbs = (length + 3) / 4;
  for (int64_t k = 0; k < num_limbs; ++k) {
    uint32_t limb = 0;
    for (int j = 0; j < 4; ++j) {
      const int64_t index = length - 1 - (4 * k + j);
      limb |= static_cast<uint32_t>(index >= 0 ? bytes[index] : fill) << (8 * j);
    }
    limbs[k] = limb;
  }
  if (negative) {
    // Two's complement negation: the magnitude fits the same limbs (even that of -2^(8n-1)).
    uint64_t carry = 1;
    for (int64_t k = 0; k < num_limbs; ++k) {
      const uint64_t sum = static_cast<uint64_t>(~limbs[k]) + carry;
      limbs[k] = static_cast<uint32_t>(sum);
      carry = sum >> 32;
    }
  }
  int64_t top = num_limbs;
  while (top > 0 && limbs[top - 1] == 0) --top;

  // Digits, least significant first, written backwards from the end of `out`'s room: each
  // division of the whole number by 10^9 yields nine digits.
  char* const end = out + DecimalTextBound(length, scale);
  char* digit = end;
  while (top > 0) {
    uint64_t remainder = 0;
    for (int64_t k = top - 1; k >= 0; --k) {
      const uint64_t current = (remainder << 32) | limbs[k];
      limbs[k] = static_cast<uint32_t>(current / kChunk);
      remainder = current % kChunk;
    }
    while (top > 0 && limbs[top - 1] == 0) --top;
    if (top > 0) {
      for (int i = 0; i < kChunkDigits; ++i, remainder /= 10) *--digit = static_cast<char>('0' + remainder % 10);
    } else {
      do {
        *--digit = static_cast<char>('0' + remainder % 10);
        remainder /= 10;
      } while (remainder != 0);
    }
  }
  if (digit == end) *--digit = '0';
  const int64_t num_digits = end - digit;

  // The text goes to the front of `out`. The digits sit at its end, after at least 3 + scale
  // bytes of room, so every copy below moves them left past bytes already read (memmove).
  char* text = out;
  if (negative) *text++ = '-';
  if (scale == 0) {
    std::memmove(text, digit, static_cast<size_t>(num_digits));
    text += num_digits;
  } else if (num_digits > scale) {
    const int64_t whole = num_digits - scale;
    std::memmove(text, digit, static_cast<size_t>(whole));
    text += whole;
    *text++ = '.';
    std::memmove(text, digit + whole, static_cast<size_t>(scale));
    text += scale;
  } else {
    const int64_t zeros = scale - num_digits;
    // "0." and the zeros end at most at end - num_digits - 0: the digits are not overwritten
    // before they move, since text + 2 + zeros <= out + 3 + scale - num_digits <= digit.
    *text++ = '0';
    *text++ = '.';
    std::memset(text, '0', static_cast<size_t>(zeros));
    text += zeros;
    std::memmove(text, digit, static_cast<size_t>(num_digits));
    text += num_digits;
  }
  return text - out;
}

DecimalTextConverter::DecimalTextConverter(const ColumnDescriptor& column, TypePtr text_type, MemoryPool* pool)
    : scale_(ScaleOf(column)), text_type_(std::move(text_type)), pool_(pool), limbs_(pool) {}

Result<ArrayDataPtr> DecimalTextConverter::Convert(const ArrayData& storage) {
  const bool large_text = text_type_->id() == TypeId::kLargeString;
  if (storage.type->id() == TypeId::kLargeBinary) {
    return large_text ? ConvertWithOffsets<int64_t, int64_t>(storage) : ConvertWithOffsets<int32_t, int64_t>(storage);
  }
  return large_text ? ConvertWithOffsets<int64_t, int32_t>(storage) : ConvertWithOffsets<int32_t, int32_t>(storage);
}

template <typename TextOffset, typename StorageOffset>
Result<ArrayDataPtr> DecimalTextConverter::ConvertWithOffsets(const ArrayData& storage) {
  if (storage.offset != 0) return Status::Invalid("decimal text conversion of a sliced array");
  const int64_t length = storage.length;
  const uint8_t* validity = storage.validity_data();
  const bool fixed = storage.type->id() == TypeId::kFixedSizeBinary;
  const int width = fixed ? storage.type->byte_width() : 0;
  const StorageOffset* offsets = fixed ? nullptr : storage.buffers[1]->data_as<StorageOffset>();
  const uint8_t* values = fixed ? storage.buffers[1]->data() : storage.buffers[2]->data();
  auto value_at = [&](int64_t i, int64_t* size) -> const uint8_t* {
    if (fixed) {
      *size = width;
      return values + i * width;
    }
    *size = static_cast<int64_t>(offsets[i + 1] - offsets[i]);
    return values + offsets[i];
  };

  // One pass for the room the text needs at most, so the data buffer is allocated once.
  int64_t bound = 0;
  int64_t widest = 0;
  for (int64_t i = 0; i < length; ++i) {
    if (validity && !bit_util::GetBit(validity, i)) continue;
    int64_t size = 0;
    value_at(i, &size);
    bound += DecimalTextBound(size, scale_);
    widest = std::max(widest, size);
  }
  if (bound > std::numeric_limits<TextOffset>::max()) {
    return Status::LimitExceeded("{} values of decimal text may take {} bytes, above 32-bit offsets; read with "
                                 "large_binary", length, bound);
  }
  STRATA_RETURN_NOT_OK(limbs_.ReserveScratch((widest + 3) / 4 * static_cast<int64_t>(sizeof(uint32_t))));
  auto* limbs = reinterpret_cast<uint32_t*>(limbs_.mutable_data());
  STRATA_ASSIGN_OR_RETURN(auto text_offsets,
                          AllocateBuffer(pool_, (length + 1) * static_cast<int64_t>(sizeof(TextOffset))));
  STRATA_ASSIGN_OR_RETURN(auto text, AllocateBuffer(pool_, bound));
  auto* out_offsets = text_offsets->mutable_data_as<TextOffset>();
  auto* out = reinterpret_cast<char*>(text->mutable_data());
  int64_t position = 0;
  out_offsets[0] = 0;
  for (int64_t i = 0; i < length; ++i) {
    if (!validity || bit_util::GetBit(validity, i)) {
      int64_t size = 0;
      const uint8_t* value = value_at(i, &size);
      position += FormatDecimalText(value, size, scale_, limbs, out + position);
    }
    out_offsets[i + 1] = static_cast<TextOffset>(position);
  }
  STRATA_RETURN_NOT_OK(text->Resize(position));
  std::shared_ptr<Buffer> validity_buffer = storage.buffers.empty() ? nullptr : storage.buffers[0];
  return ArrayData::Make(text_type_, length, {std::move(validity_buffer), std::move(text_offsets), std::move(text)},
                         storage.null_count);
}

}  // namespace strata::parquet
