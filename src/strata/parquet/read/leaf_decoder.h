// LeafDecoder: the page-values half that both leaf readers share, ColumnReader for flat
// columns and NestedLeafReader for the leaves of nested fields: the chunk's dictionary page,
// one value decoder per encoding (made on first use), and the values step. Slots
// [slot, slot + count) of a batch, `non_null` of them valid (bits of `validity`; nullptr when
// all are), take the page's next `non_null` values, converted to the output type
// (ValueConversion) and spread over the valid slots. One implementation, so a value reads the
// same way flat or nested. The readers keep what truly differs: levels (flat columns have
// definition levels only; nested leaves keep every level for assembly), where dense
// fixed-width values come from (a flat reader may stream PLAIN pages through a window), and
// how byte-array bytes are placed (a flat batch ends before a range that does not fit; a
// nested one at the range's last row start that does, since its leaves end at one row).
#pragma once

#include <limits>

#include <cstdint>
#include <memory>
#include <string>

#include "strata/memory/buffer.h"
#include "strata/parquet/decimal_text.h"
#include "strata/parquet/encoding/dictionary.h"
#include "strata/parquet/encoding/level_decoder.h"
#include "strata/parquet/read/page_reader.h"
#include "strata/parquet/read/value_conversion.h"
#include "strata/parquet/read/value_decoder.h"

namespace strata::parquet {

// The bytes of a BYTE_ARRAY chunk's values, for sizing batches: SizeStatistics' exact count
// when the writer recorded it, else the chunk's uncompressed size (an overestimate for PLAIN
// by the 4-byte lengths; an underestimate for dictionary-encoded chunks).
struct ChunkValueBytes {
  int64_t bytes = 0;
  bool exact = false;
};
ChunkValueBytes EstimateChunkValueBytes(const ColumnMetaData& metadata);

class LeafDecoder {
 public:
  LeafDecoder(const ColumnDescriptor& column, MemoryPool* pool) : column_(column), pool_(pool), scratch_(pool) {}

  // Chooses the conversion from the column's physical type to `*output_type` (kDiscard for a
  // null-typed column). A decimal read as text is decoded as its raw bytes: `*output_type`
  // becomes their storage type, and decimal_text() turns each batch into text.
  // `slots_are_rows` says how messages number slots: as rows of the row group (flat columns,
  // counted from the `first_row` passed to DecodeFixedWidth) or as values of the batch (nested).
  Status Init(TypePtr* output_type, bool slots_are_rows);
  ValueConversion conversion() const { return conversion_; }
  int physical_width() const { return physical_width_; }
  int output_width() const { return output_width_; }
  DecimalTextConverter* decimal_text() const { return decimal_text_.get(); }

  // The chunk's dictionary page: Corrupt for a second one or one for a BOOLEAN column,
  // NotImplemented for an encoding other than PLAIN / PLAIN_DICTIONARY.
  Status SetDictionaryPage(const Page& page);
  // Shared: dictionary and view outputs hand its bytes to arrays that outlive the reader.
  const std::shared_ptr<Dictionary>& dictionary() const { return dictionary_; }

  // Makes the decoder of `encoding` current (made on first use) and sets it to the page's
  // `size` value bytes at `data` holding `num_values` values (nulls included). Without
  // `set_data` only the decoder is chosen (a reader decoding the page another way).
  Status StartPage(Encoding encoding, int64_t num_values, const uint8_t* data, int64_t size, int64_t offset,
                   bool set_data = true);
  ValueDecoder* decoder() const { return decoder_; }
  // No range of a page decodes more values than this: StartPage sizes the conversion scratch
  // to the smaller of it and the page.
  void set_max_range_values(int64_t values) { max_range_values_ = values; }

  // The conversions DecodeFixedWidth handles: booleans as bits and every fixed-width output.
  static bool IsFixedWidth(ValueConversion conversion);

  // Decodes into `values`, the batch's value buffer (bits for booleans). `read_dense(out, n)`
  // reads n dense physical values into `out` and returns a Status (the decoder's DecodeFixed,
  // or a reader's window); it is called once per range, inlined.
  template <typename ReadDense>
  Status DecodeFixedWidth(uint8_t* values, int64_t slot, int64_t count, int64_t non_null, const uint8_t* validity,
                          int64_t first_row, ReadDense&& read_dense);
  // The same, dense values from the current decoder.
  Status DecodeFixedWidth(uint8_t* values, int64_t slot, int64_t count, int64_t non_null, const uint8_t* validity,
                          int64_t first_row) {
    return DecodeFixedWidth(values, slot, count, non_null, validity, first_row,
                            [this](uint8_t* out, int64_t n) { return decoder_->DecodeFixed(out, n); });
  }

  // The page's next `non_null` byte-array values as views (into the page or the decoder's
  // scratch) in `views_buffer`, which is the reader's (a flat reader's pending slots refer to
  // it); `*total` gets the sum of their lengths. For kByteArrayDecimal the views become
  // decimals in their slots of `values` here, and `*total` is 0 (no bytes to place).
  Result<const ByteArrayView*> DecodeByteArrays(ResizableBuffer* views_buffer, uint8_t* values, int64_t slot,
                                                int64_t count, int64_t non_null, const uint8_t* validity,
                                                int64_t* total);

  int64_t memory_size() const {
    return scratch_.capacity() + (dictionary_ ? dictionary_->memory_size() : 0) +
           (converted_dictionary_ ? converted_dictionary_->memory_size() : 0) +
           (decimal_text_ ? decimal_text_->memory_size() : 0);
  }

 private:
  // The error for the `dense`-th value of a range, which did not convert.
  Status OutOfRange(const uint8_t* physical, int64_t dense, int64_t slot, int64_t count, const uint8_t* validity,
                    int64_t first_row) const;

  const ColumnDescriptor& column_;
  MemoryPool* pool_;
  ValueConversion conversion_ = ValueConversion::kCopy;
  int physical_width_ = 0;
  int output_width_ = 0;
  TypePtr output_type_;
  bool slots_are_rows_ = false;
  std::unique_ptr<DecimalTextConverter> decimal_text_;
  std::shared_ptr<Dictionary> dictionary_;
  std::unique_ptr<ValueDecoder> decoders_[11];  // by Encoding value
  ValueDecoder* decoder_ = nullptr;
  // The dictionary already converted to the output type (conversions that cannot fail), the
  // decoder of its pages, and whether the current page is one of them (read as kCopy).
  std::shared_ptr<Dictionary> converted_dictionary_;
  std::unique_ptr<ValueDecoder> converted_decoder_;
  bool page_converted_ = false;
  ResizableBuffer scratch_;  // physical values before conversion, sized per page
  int64_t max_range_values_ = std::numeric_limits<int64_t>::max();
};

template <typename ReadDense>
Status LeafDecoder::DecodeFixedWidth(uint8_t* values, int64_t slot, int64_t count, int64_t non_null,
                                     const uint8_t* validity, int64_t first_row, ReadDense&& read_dense) {
  if (conversion_ == ValueConversion::kBits) {
    STRATA_RETURN_NOT_OK(decoder_->DecodeBits(values, slot, non_null));
    if (non_null < count) SpreadBits(values, validity, slot, count, non_null);
    return Status::OK();
  }
  uint8_t* out = values + slot * output_width_;
  if (conversion_ == ValueConversion::kCopy || page_converted_) {
    STRATA_RETURN_NOT_OK(read_dense(out, non_null));
    SpreadValues(out, output_width_, validity, slot, count, non_null);
    return Status::OK();
  }
  // The physical values go to scratch first: their width differs from the output's.
  STRATA_RETURN_NOT_OK(scratch_.ReserveScratch(non_null * physical_width_));
  uint8_t* physical = scratch_.mutable_data();
  STRATA_RETURN_NOT_OK(read_dense(physical, non_null));
  int64_t bad = -1;
  switch (conversion_) {
    case ValueConversion::kInt96:
      bad = ConvertInt96(physical, non_null, output_type_->unit(), column_.int96_wrap, out);
      break;
    case ValueConversion::kInterval:
      bad = ConvertIntervals(physical, non_null, out);
      break;
    default:  // kNarrow, kSignExtend, kBigEndianDecimal
      ConvertFixedValues(conversion_, physical, physical_width_, non_null, out, output_width_);
      break;
  }
  if (bad >= 0) return OutOfRange(physical, bad, slot, count, validity, first_row);
  SpreadValues(out, output_width_, validity, slot, count, non_null);
  return Status::OK();
}

// Points `levels` at the data page's repetition (`repetition`) or definition levels, whose
// maximum is `max_level` (> 0): a v1 page's lead its values, which `*data` and `*size` then
// skip; a v2 page's lie apart.
Status StartPageLevels(const Page& page, bool repetition, int16_t max_level, LevelDecoder* levels,
                       const uint8_t** data, int64_t* size);

}  // namespace strata::parquet
