#include "strata/parquet/read/leaf_decoder.h"

#include <algorithm>

#include <fmt/format.h>

namespace strata::parquet {

ChunkValueBytes EstimateChunkValueBytes(const ColumnMetaData& metadata) {
  const auto& size_stats = metadata.size_statistics;
  if (size_stats && size_stats->unencoded_byte_array_data_bytes) {
    return {std::max<int64_t>(*size_stats->unencoded_byte_array_data_bytes, 0), true};
  }
  return {std::max<int64_t>(metadata.total_uncompressed_size, 0), false};
}

Status LeafDecoder::Init(TypePtr* output_type, bool slots_are_rows) {
  slots_are_rows_ = slots_are_rows;
  physical_width_ = PhysicalValueWidth(column_.physical_type, column_.type_length);
  if ((*output_type)->id() == TypeId::kNull) {
    conversion_ = ValueConversion::kDiscard;
  } else {
    STRATA_ASSIGN_OR_RETURN(conversion_, ChooseValueConversion(column_, **output_type));
    if (conversion_ == ValueConversion::kDecimalText) {
      decimal_text_ = std::make_unique<DecimalTextConverter>(column_, *output_type, pool_);
      *output_type = DecimalTextStorageType(column_, **output_type);
      STRATA_ASSIGN_OR_RETURN(conversion_, ChooseValueConversion(column_, **output_type));
    }
  }
  output_type_ = *output_type;
  output_width_ = output_type_->byte_width();
  return Status::OK();
}

Status LeafDecoder::SetDictionaryPage(const Page& page) {
  const int64_t offset = page.file_offset;
  if (dictionary_) return Status::Corrupt("a second dictionary page at offset {}", offset);
  if (page.encoding != Encoding::kPlain && page.encoding != Encoding::kPlainDictionary) {
    return Status::NotImplemented("dictionary page at offset {} uses {} encoding", offset, EncodingName(page.encoding));
  }
  const auto* data = page.values.data();
  const auto size = static_cast<int64_t>(page.values.size());
  if (column_.physical_type == PhysicalType::kByteArray) {
    STRATA_ASSIGN_OR_RETURN(dictionary_, Dictionary::MakeByteArray(pool_, data, size, page.num_values, offset));
    return Status::OK();
  }
  if (physical_width_ > 0) {
    STRATA_ASSIGN_OR_RETURN(dictionary_,
                            Dictionary::MakeFixedWidth(pool_, data, size, page.num_values, physical_width_, offset));
    // Conversions that cannot fail (decimals widened to 16 or 32 bytes) are applied to the
    // dictionary once, so its pages gather output values directly instead of gathering
    // physical ones and converting every value (lineitem has three such decimal columns).
    if (conversion_ == ValueConversion::kSignExtend || conversion_ == ValueConversion::kBigEndianDecimal) {
      ResizableBuffer converted(pool_);
      STRATA_RETURN_NOT_OK(converted.Resize(page.num_values * output_width_));
      ConvertFixedValues(conversion_, data, physical_width_, page.num_values, converted.mutable_data(), output_width_);
      STRATA_ASSIGN_OR_RETURN(converted_dictionary_,
                              Dictionary::MakeFixedWidth(pool_, converted.data(), converted.size(), page.num_values,
                                                         output_width_, offset));
    }
    return Status::OK();
  }
  return Status::Corrupt("dictionary page at offset {} for a BOOLEAN column", offset);
}

Status LeafDecoder::StartPage(Encoding encoding, int64_t num_values, const uint8_t* data, int64_t size,
                              int64_t offset, bool set_data) {
  const auto index = static_cast<size_t>(encoding);
  if (index >= std::size(decoders_)) {
    return Status::NotImplemented("page at offset {} uses unknown encoding {}", offset, static_cast<int>(encoding));
  }
  page_converted_ = converted_dictionary_ != nullptr &&
                    (encoding == Encoding::kPlainDictionary || encoding == Encoding::kRleDictionary);
  if (page_converted_) {
    if (!converted_decoder_) {
      STRATA_ASSIGN_OR_RETURN(converted_decoder_, MakeValueDecoder(encoding, column_.physical_type, column_.type_length,
                                                                   converted_dictionary_.get(), pool_));
    }
    decoder_ = converted_decoder_.get();
  } else {
    if (!decoders_[index]) {
      STRATA_ASSIGN_OR_RETURN(decoders_[index], MakeValueDecoder(encoding, column_.physical_type, column_.type_length,
                                                                 dictionary_.get(), pool_));
    }
    decoder_ = decoders_[index].get();
  }
  if (!set_data) return Status::OK();
  decoder_->set_largest_range(max_range_values_);
  STRATA_RETURN_NOT_OK(decoder_->SetData(num_values, data, size, offset));
  // Conversion scratch for the page's largest range at once (the page's values, or fewer
  // when batches are smaller), so ranges never grow it; a larger page frees the old block first.
  if (IsFixedWidth(conversion_) && conversion_ != ValueConversion::kCopy && conversion_ != ValueConversion::kBits &&
      !page_converted_) {
    STRATA_RETURN_NOT_OK(scratch_.ReserveScratch(std::min(num_values, max_range_values_) * physical_width_));
  }
  return Status::OK();
}

bool LeafDecoder::IsFixedWidth(ValueConversion conversion) {
  switch (conversion) {
    case ValueConversion::kBits:
    case ValueConversion::kCopy:
    case ValueConversion::kInt96:
    case ValueConversion::kInterval:
    case ValueConversion::kNarrow:
    case ValueConversion::kSignExtend:
    case ValueConversion::kBigEndianDecimal:
      return true;
    default:
      return false;
  }
}

Result<const ByteArrayView*> LeafDecoder::DecodeByteArrays(ResizableBuffer* views_buffer, uint8_t* values,
                                                           int64_t slot, int64_t count, int64_t non_null,
                                                           const uint8_t* validity, int64_t* total) {
  STRATA_RETURN_NOT_OK(views_buffer->ReserveScratch(non_null * static_cast<int64_t>(sizeof(ByteArrayView))));
  auto* views = views_buffer->mutable_data_as<ByteArrayView>();
  STRATA_RETURN_NOT_OK(decoder_->DecodeViews(views, non_null));
  *total = 0;
  if (conversion_ == ValueConversion::kByteArrayDecimal) {
    STRATA_RETURN_NOT_OK(ConvertByteArrayDecimals(views, validity, slot, count, values + slot * output_width_,
                                                  output_width_, *output_type_));
    return views;
  }
  int64_t bytes = 0;
  for (int64_t i = 0; i < non_null; ++i) bytes += views[i].length;
  *total = bytes;
  return views;
}

Status LeafDecoder::OutOfRange(const uint8_t* physical, int64_t dense, int64_t slot, int64_t count,
                               const uint8_t* validity, int64_t first_row) const {
  const int64_t at = SlotOfDenseValue(validity, slot, count, dense);
  const std::string where = slots_are_rows_ ? fmt::format("row {} of the row group", first_row + at)
                                            : fmt::format("value {} of the batch", at);
  const uint8_t* value = physical + dense * physical_width_;
  if (conversion_ == ValueConversion::kInterval) return IntervalOutOfRange(value, where);
  return Int96OutOfRange(value, output_type_->unit(), where);
}

Status StartPageLevels(const Page& page, bool repetition, int16_t max_level, LevelDecoder* levels,
                       const uint8_t** data, int64_t* size) {
  if (page.type == PageType::kDataPage) {
    const Encoding encoding = repetition ? page.repetition_level_encoding : page.definition_level_encoding;
    STRATA_ASSIGN_OR_RETURN(const int64_t used,
                            levels->SetDataV1(encoding, max_level, page.num_values, *data, *size, page.file_offset));
    *data += used;
    *size -= used;
    return Status::OK();
  }
  const std::span<const uint8_t> bytes = repetition ? page.repetition_levels : page.definition_levels;
  return levels->SetDataV2(max_level, page.num_values, bytes.data(), static_cast<int64_t>(bytes.size()),
                           page.file_offset);
}

}  // namespace strata::parquet
