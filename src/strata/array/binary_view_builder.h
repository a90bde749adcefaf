// BinaryViewBuilder: binary_view / string_view arrays (Arrow's 16-byte views). Values of up
// to 12 bytes live inline in the view; longer ones go to a data buffer the view points to
// by (buffer index, offset). Rows count views; ReserveData counts out-of-line bytes.
//
// One growable data buffer serves until its offsets would pass 2^31 - 1; views store
// indices and offsets, not pointers, so the buffer may move when it grows.
#pragma once

#include <string_view>
#include <vector>

#include "strata/array/array.h"
#include "strata/array/array_builder.h"

namespace strata {

class BinaryViewBuilder : public ArrayBuilder {
 public:
  // `type` is binary_view or string_view.
  BinaryViewBuilder(TypePtr type, MemoryPool* pool);

  Status Append(std::string_view value);
  // Precondition: length() < capacity(); values longer than 12 bytes must fit in the
  // reserved data capacity (ReserveData). No allocation.
  void UnsafeAppend(std::string_view value);
  Status AppendValues(const std::string_view* values, int64_t n, const uint8_t* validity = nullptr,
                      int64_t validity_offset = 0);

  // Makes room for `additional_bytes` more out-of-line bytes (only values over 12 bytes
  // count) in the current data buffer, exactly.
  Status ReserveData(int64_t additional_bytes);
  // Out-of-line bytes appended to the current data buffer.
  int64_t data_length() const { return data_->size(); }

  Status Reserve(int64_t additional_rows) override;
  Status AppendNulls(int64_t n) override;
  Status AppendEmptyValues(int64_t n) override;
  Result<ArrayDataPtr> Finish() override;
  // Keeps the capacity of the views and current data buffer; drops filled data buffers.
  void Reset() override;
  int64_t memory_size() const override;

 private:
  Status GrowRows(int64_t min_rows);
  // Makes room for n out-of-line bytes, starting a new data buffer past the offset limit.
  Status PrepareData(int64_t n);
  uint8_t* view(int64_t row) const { return views_->mutable_data() + row * view_layout::kViewSize; }

  std::shared_ptr<ResizableBuffer> views_;
  std::shared_ptr<ResizableBuffer> data_;           // the buffer being filled
  std::vector<std::shared_ptr<Buffer>> full_data_;  // filled buffers, indices 0..n-1
};

}  // namespace strata
