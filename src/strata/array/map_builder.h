// MapBuilder: map<key, item> as Arrow lays it out: int32 offsets over a non-null
// struct<key, value> "entries" child. Rows count maps. Per map: Append(), then append each
// entry's key to key_builder() and its item to item_builder() (equal counts).
#pragma once

#include "strata/array/array_builder.h"

namespace strata {

class MapBuilder : public ArrayBuilder {
 public:
  static Result<std::unique_ptr<MapBuilder>> Make(TypePtr type, MemoryPool* pool);
  MapBuilder(TypePtr type, std::unique_ptr<ArrayBuilder> key_builder, std::unique_ptr<ArrayBuilder> item_builder,
             MemoryPool* pool);

  ArrayBuilder* key_builder() const { return children_[0].get(); }
  ArrayBuilder* item_builder() const { return children_[1].get(); }

  // Starts a new map (valid or null); its entries are the keys/items appended until the
  // next Append / AppendNull.
  Status Append(bool is_valid = true);
  Status Reserve(int64_t additional_rows) override;
  Status AppendNulls(int64_t n) override;
  Status AppendEmptyValues(int64_t n) override;
  // Fails when keys and items differ in count, or a key is null.
  Result<ArrayDataPtr> Finish() override;
  void Reset() override;
  int64_t memory_size() const override;

 private:
  Status AppendStarts(int64_t n, bool valid);
  int32_t* offsets() const { return reinterpret_cast<int32_t*>(offsets_->mutable_data()); }

  std::shared_ptr<ResizableBuffer> offsets_;  // start offsets; Finish adds the closing one
};

}  // namespace strata
