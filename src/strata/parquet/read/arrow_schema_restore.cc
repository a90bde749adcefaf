// ARROW:schema restoration (arrow_schema_restore.h). Only restorations that keep the values
// are made: a timestamp's zone (Parquet keeps isAdjustedToUTC only), a duration stored as
// INT64, and a dictionary type. Dictionaries of strings come from the reader (read_dictionary); those of
// numbers and dates, which the reader does not dictionary-decode, are encoded here with their
// distinct values in ascending order, pandas' default order for categories. Parquet keeps no
// unused categories, nor the original order of the categories.
#include "strata/parquet/read/arrow_schema_restore.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "strata/array/array.h"
#include "strata/array/bitmap.h"
#include "strata/ipc/schema_message.h"
#include "strata/util/base64.h"

namespace strata::parquet {
namespace {

std::optional<std::string> FindKeyValue(const FileMetaData& md, std::string_view key) {
  if (!md.key_value_metadata) return std::nullopt;
  for (const auto& kv : *md.key_value_metadata) {
    if (kv.key == key) return kv.value.value_or("");
  }
  return std::nullopt;
}

bool Encodable(TypeId id) {
  return is_integer(id) || id == TypeId::kFloat32 || id == TypeId::kFloat64 || id == TypeId::kDate32 ||
         id == TypeId::kDate64 || id == TypeId::kTimestamp || id == TypeId::kDuration || id == TypeId::kTime32 ||
         id == TypeId::kTime64;
}

Array Retype(const Array& array, const TypePtr& type) {
  auto data = std::make_shared<ArrayData>(*array.data());
  data->type = type;
  return Array(data);
}

// The chunk's validity as a bitmap starting at bit 0 (shared when it already does).
Result<std::shared_ptr<Buffer>> ValidityAtZero(const Array& chunk, MemoryPool* pool) {
  if (chunk.null_bitmap_data() == nullptr || chunk.null_count() == 0) return std::shared_ptr<Buffer>();
  if (chunk.offset() == 0) return chunk.data()->buffers[0];
  STRATA_ASSIGN_OR_RETURN(auto bits, AllocateBuffer(pool, bitmap::BytesForBits(chunk.length())));
  bitmap::CopyBitmap(chunk.null_bitmap_data(), chunk.offset(), chunk.length(), bits->mutable_data(), 0);
  return std::shared_ptr<Buffer>(bits);
}

template <typename T>
bool IsNaN(T v) {
  if constexpr (std::is_floating_point_v<T>) return std::isnan(v);
  return false;
}

template <typename T>
Result<std::shared_ptr<ChunkedArray>> Encode(const ChunkedArray& column, const TypePtr& type, MemoryPool* pool) {
  std::vector<T> distinct;
  for (const Array& chunk : column.chunks()) {
    PrimitiveArray<T> values(chunk.data());
    for (int64_t i = 0; i < chunk.length(); ++i) {
      if (chunk.IsValid(i) && !IsNaN(values.Value(i))) distinct.push_back(values.Value(i));
    }
  }
  std::sort(distinct.begin(), distinct.end());
  distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
  const auto count = static_cast<int64_t>(distinct.size());
  STRATA_ASSIGN_OR_RETURN(auto dictionary_values, AllocateBuffer(pool, count * static_cast<int64_t>(sizeof(T))));
  if (count > 0) std::memcpy(dictionary_values->mutable_data(), distinct.data(), distinct.size() * sizeof(T));
  auto dictionary = ArrayData::Make(type->value_type(), count, {nullptr, dictionary_values}, 0);
  std::vector<Array> chunks;
  for (const Array& chunk : column.chunks()) {
    PrimitiveArray<T> values(chunk.data());
    STRATA_ASSIGN_OR_RETURN(auto indices, AllocateBuffer(pool, chunk.length() * 4));
    int32_t* out = indices->mutable_data_as<int32_t>();
    for (int64_t i = 0; i < chunk.length(); ++i) {
      const bool valid = chunk.IsValid(i);
      out[i] = valid ? static_cast<int32_t>(std::lower_bound(distinct.begin(), distinct.end(), values.Value(i)) -
                                            distinct.begin())
                     : 0;
      if (valid && out[i] >= count) out[i] = 0;  // NaN: no category (pandas has no NaN category)
    }
    STRATA_ASSIGN_OR_RETURN(std::shared_ptr<Buffer> validity, ValidityAtZero(chunk, pool));
    auto data = ArrayData::Make(type, chunk.length(), {validity, indices}, validity ? chunk.null_count() : 0);
    data->dictionary = dictionary;
    chunks.emplace_back(data);
  }
  return std::make_shared<ChunkedArray>(type, std::move(chunks));
}

Result<std::shared_ptr<ChunkedArray>> EncodeColumn(const ChunkedArray& column, const TypePtr& type, MemoryPool* pool) {
  switch (column.type()->id()) {
    case TypeId::kInt8: return Encode<int8_t>(column, type, pool);
    case TypeId::kInt16: return Encode<int16_t>(column, type, pool);
    case TypeId::kInt32:
    case TypeId::kDate32:
    case TypeId::kTime32: return Encode<int32_t>(column, type, pool);
    case TypeId::kInt64:
    case TypeId::kDate64:
    case TypeId::kTimestamp:
    case TypeId::kDuration:
    case TypeId::kTime64: return Encode<int64_t>(column, type, pool);
    case TypeId::kUInt8: return Encode<uint8_t>(column, type, pool);
    case TypeId::kUInt16: return Encode<uint16_t>(column, type, pool);
    case TypeId::kUInt32: return Encode<uint32_t>(column, type, pool);
    case TypeId::kUInt64: return Encode<uint64_t>(column, type, pool);
    case TypeId::kFloat32: return Encode<float>(column, type, pool);
    case TypeId::kFloat64: return Encode<double>(column, type, pool);
    default: return Status::NotImplemented("dictionary-encoding {} values", column.type()->ToString());
  }
}

}  // namespace

std::vector<FieldRestore> PlanArrowSchemaRestore(const FileMetaData& metadata, const Schema& schema) {
  std::vector<FieldRestore> plan(static_cast<size_t>(schema.num_fields()));
  const std::optional<std::string> encoded = FindKeyValue(metadata, "ARROW:schema");
  if (!encoded) return plan;
  Result<std::string> message = Base64Decode(*encoded);
  if (!message.ok()) return plan;
  Result<std::shared_ptr<Schema>> arrow = ipc::DeserializeSchema(*message);
  if (!arrow.ok() || (*arrow)->num_fields() != schema.num_fields()) return plan;
  for (int i = 0; i < schema.num_fields(); ++i) {
    const Field& parquet_field = *schema.field(i);
    const Field& arrow_field = *(*arrow)->field(i);
    if (parquet_field.name() != arrow_field.name()) return std::vector<FieldRestore>(plan.size());
    const DataType& pt = *parquet_field.type();
    const TypePtr& at = arrow_field.type();
    if (pt.Equals(*at)) continue;
    FieldRestore& r = plan[static_cast<size_t>(i)];
    if (at->id() == TypeId::kTimestamp && pt.id() == TypeId::kTimestamp && at->unit() == pt.unit()) {
      r.retype = at;
    } else if (at->id() == TypeId::kDuration && pt.id() == TypeId::kInt64) {
      r.retype = at;
    } else if (at->id() == TypeId::kDictionary && at->value_type()->Equals(pt)) {
      // int32 indices, as the reader's dictionaries have; the order flag from the schema.
      if (is_binary_like(pt.id())) {
        r.read_dictionary = true;
      } else if (Encodable(pt.id())) {
        r.encode = true;
      } else {
        continue;
      }
      r.retype = dictionary(int32(), parquet_field.type(), at->ordered());
    }
  }
  return plan;
}

std::shared_ptr<Schema> RestoredSchema(const Schema& schema, const std::vector<FieldRestore>& plan) {
  std::vector<FieldPtr> fields;
  for (int i = 0; i < schema.num_fields(); ++i) {
    FieldPtr field = schema.field(i);
    const auto k = static_cast<size_t>(i);
    if (k < plan.size() && plan[k].retype && !plan[k].encode) field = field->WithType(plan[k].retype);
    fields.push_back(std::move(field));
  }
  return std::make_shared<Schema>(std::move(fields), schema.metadata());
}

Result<std::shared_ptr<ChunkedArray>> RestoreColumn(const std::shared_ptr<ChunkedArray>& column,
                                                    const FieldRestore& restore, MemoryPool* pool) {
  if (!restore.retype) return column;
  if (restore.encode) return EncodeColumn(*column, restore.retype, pool);
  std::vector<Array> chunks;
  for (const Array& chunk : column->chunks()) chunks.push_back(Retype(chunk, restore.retype));
  return std::make_shared<ChunkedArray>(restore.retype, std::move(chunks));
}

}  // namespace strata::parquet
