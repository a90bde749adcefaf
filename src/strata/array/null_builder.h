// NullBuilder: arrays of the null type hold no buffers, only a length (all slots null).
#pragma once

#include "strata/array/array_builder.h"

namespace strata {

class NullBuilder : public ArrayBuilder {
 public:
  explicit NullBuilder(MemoryPool* pool) : ArrayBuilder(null(), pool) {}

  Status Reserve(int64_t additional_rows) override { return Status::OK(); }
  Status AppendNulls(int64_t n) override {
    if (n > 0) {
      length_ += n;
      null_count_ += n;
    }
    return Status::OK();
  }
  // Every value of the null type is null.
  Status AppendEmptyValues(int64_t n) override { return AppendNulls(n); }
  Result<ArrayDataPtr> Finish() override {
    auto out = ArrayData::Make(type_, length_, {nullptr}, length_);
    ResetAfterFinish();
    return out;
  }
};

}  // namespace strata
