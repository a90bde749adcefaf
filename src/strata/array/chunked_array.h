// ChunkedArray: one logical column made of several arrays of the same type (a table column
// read row group by row group, batch by batch).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "strata/array/array.h"

namespace strata {

class ChunkedArray {
 public:
  // All chunks must have `type` (checked by Make).
  ChunkedArray(TypePtr type, std::vector<Array> chunks);
  static Result<std::shared_ptr<ChunkedArray>> Make(TypePtr type, std::vector<Array> chunks);

  const TypePtr& type() const { return type_; }
  const std::vector<Array>& chunks() const { return chunks_; }
  int num_chunks() const { return static_cast<int>(chunks_.size()); }
  const Array& chunk(int i) const { return chunks_[static_cast<size_t>(i)]; }
  int64_t length() const { return length_; }
  int64_t null_count() const;

  // Value-wise: equal types and values, whatever the chunk boundaries.
  bool Equals(const ChunkedArray& other) const;
  std::string ToString() const;

 private:
  TypePtr type_;
  std::vector<Array> chunks_;
  int64_t length_ = 0;
};

}  // namespace strata
