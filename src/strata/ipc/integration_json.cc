#include "strata/ipc/integration_json.h"

#include <charconv>
#include <cmath>
#include <cstring>
#include <exception>
#include <limits>
#include <set>
#include <utility>

#include "strata/array/bitmap.h"
#include "strata/array/validate.h"
#include "strata/codec/decompressing_input_stream.h"
#include "strata/ipc/integration_json_schema.h"
#include "strata/ipc/integration_json_util.h"
#include "strata/memory/buffer.h"
#include "strata/types/month_day_nano.h"

namespace strata::ipc {
namespace {

using namespace integration_json;  // NOLINT: the reader's own helpers

// ---------------------------------------------------------------------------------------------
// Columns

class ColumnConverter {
 public:
  ColumnConverter(MemoryPool* pool, const std::map<int64_t, FieldNode>& value_nodes,
                  std::map<int64_t, const Json*> dictionary_json)
      : pool_(pool), value_nodes_(value_nodes), dictionary_json_(std::move(dictionary_json)) {}

  // The dictionary values of `id`, converted on first use (dictionaries may hold
  // dictionary-encoded fields of other ids).
  Result<ArrayDataPtr> Dictionary(int64_t id, const std::string& ctx) {
    if (auto it = built_.find(id); it != built_.end()) return it->second;
    auto node = value_nodes_.find(id);
    if (node == value_nodes_.end()) return Status::Invalid("{}: dictionary id {} is not in the schema", ctx, id);
    auto js = dictionary_json_.find(id);
    if (js == dictionary_json_.end()) {
      return Status::Invalid("{}: dictionary id {} has no entry in \"dictionaries\"", ctx, id);
    }
    if (!in_progress_.insert(id).second) return Status::Invalid("{}: dictionary id {} refers to itself", ctx, id);
    const std::string dctx = "dictionary " + std::to_string(id);
    STRATA_ASSIGN_OR_RETURN(const Json* data, Required(*js->second, "data", dctx));
    STRATA_ASSIGN_OR_RETURN(const Json* count_json, Required(*data, "count", dctx));
    STRATA_ASSIGN_OR_RETURN(int64_t count, GetInteger<int64_t>(*count_json, dctx + " count"));
    STRATA_ASSIGN_OR_RETURN(const Json* columns, GetSizedArray(*data, "columns", 1, dctx));
    STRATA_ASSIGN_OR_RETURN(ArrayDataPtr values, Convert((*columns)[0], node->second, 0, /*check_name=*/false));
    if (values->length != count) {
      return Status::Invalid("{}: count {} but its column has {} values", dctx, count, values->length);
    }
    in_progress_.erase(id);
    built_[id] = values;
    return values;
  }

  const std::map<int64_t, ArrayDataPtr>& built() const { return built_; }

  Result<ArrayDataPtr> Convert(const Json& col, const FieldNode& node, int depth, bool check_name = true) {
    const std::string& ctx = node.path;
    if (depth > kMaxDepth) return Status::LimitExceeded("{}: columns nested deeper than {}", ctx, kMaxDepth);
    if (!col.is_object()) return Status::Invalid("{}: a column must be an object", ctx);
    if (check_name) {
      if (const Json* n = Member(col, "name"); n != nullptr && n->is_string() &&
                                              n->get_ref<const std::string&>() != node.field->name()) {
        return Status::Invalid("{}: column is named \"{}\", the schema says \"{}\"", ctx,
                               n->get_ref<const std::string&>(), node.field->name());
      }
    }
    STRATA_ASSIGN_OR_RETURN(const Json* count_json, Required(col, "count", ctx));
    STRATA_ASSIGN_OR_RETURN(int64_t count, GetInteger<int64_t>(*count_json, ctx + " count"));
    if (count < 0 || count > kMaxCount) return Status::Invalid("{}: count {} out of range", ctx, count);

    if (node.dict_id >= 0) {
      // The indices, then the dictionary the id names.
      const TypePtr& dict_type = node.field->type();
      STRATA_ASSIGN_OR_RETURN(ArrayDataPtr indices, ConvertValues(col, dict_type->index_type(), node, count, depth));
      STRATA_ASSIGN_OR_RETURN(ArrayDataPtr dictionary, Dictionary(node.dict_id, ctx));
      indices->type = dict_type;
      indices->dictionary = std::move(dictionary);
      return indices;
    }
    return ConvertValues(col, node.value_type, node, count, depth);
  }

 private:
  // Validity bitmap from VALIDITY (nullptr when absent or all valid), and the null count.
  Status Validity(const Json& col, int64_t count, const std::string& ctx, std::shared_ptr<Buffer>* out,
                  int64_t* null_count) {
    *out = nullptr;
    *null_count = 0;
    const Json* v = Member(col, "VALIDITY");
    if (v == nullptr) return Status::OK();  // every slot valid
    if (!v->is_array() || static_cast<int64_t>(v->size()) != count) {
      return Status::Invalid("{}: VALIDITY must be an array of {} entries", ctx, count);
    }
    STRATA_ASSIGN_OR_RETURN(auto bits, ZeroedBuffer(pool_, bitmap::BytesForBits(count)));
    for (int64_t i = 0; i < count; ++i) {
      const Json& e = (*v)[static_cast<size_t>(i)];
      bool valid;
      if (e.is_boolean()) {
        valid = e.get<bool>();
      } else {
        STRATA_ASSIGN_OR_RETURN(int flag, GetInteger<int>(e, ctx + " VALIDITY"));
        if (flag != 0 && flag != 1) return Status::Invalid("{}: VALIDITY entry {} is {}", ctx, i, flag);
        valid = flag == 1;
      }
      if (valid) {
        bitmap::SetBit(bits->mutable_data(), i);
      } else {
        ++*null_count;
      }
    }
    if (*null_count > 0) *out = std::move(bits);
    return Status::OK();
  }

  template <typename T>
  Result<std::shared_ptr<Buffer>> IntegerValues(const Json& data, int64_t count, const std::string& ctx) {
    STRATA_ASSIGN_OR_RETURN(auto buffer, ZeroedBuffer(pool_, count * static_cast<int64_t>(sizeof(T))));
    T* out = buffer->template mutable_data_as<T>();
    for (int64_t i = 0; i < count; ++i) {
      STRATA_ASSIGN_OR_RETURN(out[i], GetInteger<T>(data[static_cast<size_t>(i)], ctx + " DATA"));
    }
    return std::shared_ptr<Buffer>(std::move(buffer));
  }

  template <typename OffsetT>
  Result<std::shared_ptr<Buffer>> Offsets(const Json& col, int64_t count, const std::string& ctx,
                                          std::vector<int64_t>* values) {
    const Json* o = Member(col, "OFFSET");
    values->assign(static_cast<size_t>(count) + 1, 0);
    STRATA_ASSIGN_OR_RETURN(auto buffer, ZeroedBuffer(pool_, (count + 1) * static_cast<int64_t>(sizeof(OffsetT))));
    if (o == nullptr && count == 0) return std::shared_ptr<Buffer>(std::move(buffer));  // [0]
    if (o == nullptr || !o->is_array() || static_cast<int64_t>(o->size()) != count + 1) {
      return Status::Invalid("{}: OFFSET must be an array of {} entries", ctx, count + 1);
    }
    OffsetT* out = buffer->template mutable_data_as<OffsetT>();
    for (int64_t i = 0; i <= count; ++i) {
      STRATA_ASSIGN_OR_RETURN(out[i], GetInteger<OffsetT>((*o)[static_cast<size_t>(i)], ctx + " OFFSET"));
      if (out[i] < 0 || (i > 0 && out[i] < out[i - 1])) {
        return Status::Invalid("{}: OFFSET entry {} is {} (offsets must be non-negative and non-decreasing)",
                               ctx, i, static_cast<int64_t>(out[i]));
      }
      (*values)[static_cast<size_t>(i)] = out[i];
    }
    return std::shared_ptr<Buffer>(std::move(buffer));
  }

  template <typename OffsetT>
  Result<ArrayDataPtr> BinaryLike(const Json& col, const TypePtr& type, int64_t count, const std::string& ctx,
                                  std::shared_ptr<Buffer> validity, int64_t null_count) {
    std::vector<int64_t> offsets;
    STRATA_ASSIGN_OR_RETURN(auto offset_buffer, Offsets<OffsetT>(col, count, ctx, &offsets));
    const bool hex = !is_string(type->id());
    const Json* data = nullptr;
    if (count > 0 || Member(col, "DATA") != nullptr) {
      STRATA_ASSIGN_OR_RETURN(data, GetSizedArray(col, "DATA", count, ctx));
    }
    const int64_t total = offsets.back();
    if (total > kMaxCount * 4) return Status::Invalid("{}: {} bytes of values", ctx, total);
    STRATA_ASSIGN_OR_RETURN(auto bytes, ZeroedBuffer(pool_, total));
    for (int64_t i = 0; i < count; ++i) {
      STRATA_ASSIGN_OR_RETURN(std::string value, GetString((*data)[static_cast<size_t>(i)], ctx + " DATA"));
      if (hex) { STRATA_ASSIGN_OR_RETURN(value, HexDecode(value, ctx + " DATA")); }
      const int64_t begin = offsets[static_cast<size_t>(i)];
      const int64_t length = offsets[static_cast<size_t>(i) + 1] - begin;
      if (length != static_cast<int64_t>(value.size())) {
        return Status::Invalid("{}: value {} is {} bytes but its offsets span {}", ctx, i, value.size(), length);
      }
      if (length > 0) std::memcpy(bytes->mutable_data() + begin, value.data(), value.size());
    }
    return ArrayData::Make(type, count, {std::move(validity), std::move(offset_buffer), std::move(bytes)}, null_count);
  }

  Result<ArrayDataPtr> Views(const Json& col, const TypePtr& type, int64_t count, const std::string& ctx,
                             std::shared_ptr<Buffer> validity, int64_t null_count) {
    const bool hex = type->id() == TypeId::kBinaryView;
    std::vector<std::shared_ptr<Buffer>> buffers = {std::move(validity), nullptr};
    if (const Json* vb = Member(col, "VARIADIC_DATA_BUFFERS")) {
      if (!vb->is_array()) return Status::Invalid("{}: VARIADIC_DATA_BUFFERS must be an array", ctx);
      for (const Json& b : *vb) {
        STRATA_ASSIGN_OR_RETURN(std::string text, GetString(b, ctx + " VARIADIC_DATA_BUFFERS"));
        STRATA_ASSIGN_OR_RETURN(std::string bytes, HexDecode(text, ctx + " VARIADIC_DATA_BUFFERS"));
        STRATA_ASSIGN_OR_RETURN(auto buffer, ZeroedBuffer(pool_, static_cast<int64_t>(bytes.size())));
        if (!bytes.empty()) std::memcpy(buffer->mutable_data(), bytes.data(), bytes.size());
        buffers.push_back(std::move(buffer));
      }
    }
    STRATA_ASSIGN_OR_RETURN(const Json* views, GetSizedArray(col, "VIEWS", count, ctx));
    STRATA_ASSIGN_OR_RETURN(auto view_buffer, ZeroedBuffer(pool_, count * view_layout::kViewSize));
    for (int64_t i = 0; i < count; ++i) {
      const Json& v = (*views)[static_cast<size_t>(i)];
      uint8_t* out = view_buffer->mutable_data() + i * view_layout::kViewSize;
      const std::string vctx = ctx + " VIEWS[" + std::to_string(i) + "]";
      STRATA_ASSIGN_OR_RETURN(const Json* size_json, Required(v, "SIZE", vctx));
      STRATA_ASSIGN_OR_RETURN(int32_t size, GetInteger<int32_t>(*size_json, vctx + " SIZE"));
      if (size < 0) return Status::Invalid("{}: negative SIZE", vctx);
      std::memcpy(out, &size, 4);
      if (const Json* inlined = Member(v, "INLINED")) {
        STRATA_ASSIGN_OR_RETURN(std::string value, GetString(*inlined, vctx + " INLINED"));
        if (hex) { STRATA_ASSIGN_OR_RETURN(value, HexDecode(value, vctx + " INLINED")); }
        if (static_cast<int64_t>(value.size()) != size || size > view_layout::kInlineSize) {
          return Status::Invalid("{}: INLINED value of {} bytes with SIZE {}", vctx, value.size(), size);
        }
        if (size > 0) std::memcpy(out + 4, value.data(), value.size());
        continue;
      }
      if (size <= view_layout::kInlineSize) return Status::Invalid("{}: SIZE {} but no INLINED value", vctx, size);
      STRATA_ASSIGN_OR_RETURN(const Json* prefix_json, Required(v, "PREFIX_HEX", vctx));
      STRATA_ASSIGN_OR_RETURN(std::string prefix_hex, GetString(*prefix_json, vctx + " PREFIX_HEX"));
      STRATA_ASSIGN_OR_RETURN(std::string prefix, HexDecode(prefix_hex, vctx + " PREFIX_HEX"));
      if (prefix.size() != view_layout::kPrefixSize) return Status::Invalid("{}: PREFIX_HEX is not 4 bytes", vctx);
      STRATA_ASSIGN_OR_RETURN(const Json* index_json, Required(v, "BUFFER_INDEX", vctx));
      STRATA_ASSIGN_OR_RETURN(int32_t index, GetInteger<int32_t>(*index_json, vctx + " BUFFER_INDEX"));
      STRATA_ASSIGN_OR_RETURN(const Json* offset_json, Required(v, "OFFSET", vctx));
      STRATA_ASSIGN_OR_RETURN(int32_t offset, GetInteger<int32_t>(*offset_json, vctx + " OFFSET"));
      std::memcpy(out + 4, prefix.data(), 4);
      std::memcpy(out + 8, &index, 4);
      std::memcpy(out + 12, &offset, 4);
    }
    buffers[1] = std::move(view_buffer);
    return ArrayData::Make(type, count, std::move(buffers), null_count);
  }

  // DAY_TIME values are {"days", "milliseconds"} objects, MONTH_DAY_NANO ones {"months", "days",
  // "nanoseconds"}.
  Result<ArrayDataPtr> Intervals(const Json& col, const TypePtr& type, int64_t count, const std::string& ctx,
                                 std::shared_ptr<Buffer> validity, int64_t null_count) {
    const Json* data = nullptr;
    static const Json kEmpty = Json::array();
    if (count == 0 && Member(col, "DATA") == nullptr) {
      data = &kEmpty;
    } else {
      STRATA_ASSIGN_OR_RETURN(data, GetSizedArray(col, "DATA", count, ctx));
    }
    const int64_t width = type->byte_width();
    STRATA_ASSIGN_OR_RETURN(auto buffer, ZeroedBuffer(pool_, count * width));
    for (int64_t i = 0; i < count; ++i) {
      const Json& e = (*data)[static_cast<size_t>(i)];
      const std::string vctx = fmt::format("{} DATA[{}]", ctx, i);
      uint8_t* out = buffer->mutable_data() + i * width;
      STRATA_ASSIGN_OR_RETURN(const Json* days_json, Required(e, "days", vctx));
      STRATA_ASSIGN_OR_RETURN(int32_t days, GetInteger<int32_t>(*days_json, vctx + " days"));
      if (type->id() == TypeId::kIntervalDayTime) {
        STRATA_ASSIGN_OR_RETURN(const Json* ms_json, Required(e, "milliseconds", vctx));
        STRATA_ASSIGN_OR_RETURN(int32_t milliseconds, GetInteger<int32_t>(*ms_json, vctx + " milliseconds"));
        StoreDayTime(DayTime{days, milliseconds}, out);
        continue;
      }
      STRATA_ASSIGN_OR_RETURN(const Json* months_json, Required(e, "months", vctx));
      STRATA_ASSIGN_OR_RETURN(int32_t months, GetInteger<int32_t>(*months_json, vctx + " months"));
      STRATA_ASSIGN_OR_RETURN(const Json* nanos_json, Required(e, "nanoseconds", vctx));
      STRATA_ASSIGN_OR_RETURN(int64_t nanoseconds, GetInteger<int64_t>(*nanos_json, vctx + " nanoseconds"));
      StoreMonthDayNano(MonthDayNano{months, days, nanoseconds}, out);
    }
    return ArrayData::Make(type, count, {std::move(validity), std::move(buffer)}, null_count);
  }

  Result<ArrayDataPtr> ConvertValues(const Json& col, const TypePtr& type, const FieldNode& node, int64_t count,
                                     int depth) {
    const std::string& ctx = node.path;
    const TypeId id = type->id();
    if (id == TypeId::kNull) return ArrayData::Make(type, count, {nullptr}, count);
    std::shared_ptr<Buffer> validity;
    int64_t null_count = 0;
    STRATA_RETURN_NOT_OK(Validity(col, count, ctx, &validity, &null_count));

    auto data_array = [&]() -> Result<const Json*> {
      if (count == 0 && Member(col, "DATA") == nullptr) {
        static const Json kEmpty = Json::array();
        return &kEmpty;
      }
      return GetSizedArray(col, "DATA", count, ctx);
    };

    switch (id) {
      case TypeId::kBoolean: {
        STRATA_ASSIGN_OR_RETURN(const Json* data, data_array());
        STRATA_ASSIGN_OR_RETURN(auto bits, ZeroedBuffer(pool_, bitmap::BytesForBits(count)));
        for (int64_t i = 0; i < count; ++i) {
          const Json& e = (*data)[static_cast<size_t>(i)];
          bool value;
          if (e.is_boolean()) {
            value = e.get<bool>();
          } else {
            STRATA_ASSIGN_OR_RETURN(int v, GetInteger<int>(e, ctx + " DATA"));
            value = v != 0;
          }
          if (value) bitmap::SetBit(bits->mutable_data(), i);
        }
        return ArrayData::Make(type, count, {std::move(validity), std::move(bits)}, null_count);
      }
      case TypeId::kInt8:
      case TypeId::kInt16:
      case TypeId::kInt32:
      case TypeId::kInt64:
      case TypeId::kIntervalYearMonth:
      case TypeId::kUInt8:
      case TypeId::kUInt16:
      case TypeId::kUInt32:
      case TypeId::kUInt64:
      case TypeId::kDate32:
      case TypeId::kDate64:
      case TypeId::kTime32:
      case TypeId::kTime64:
      case TypeId::kTimestamp:
      case TypeId::kDuration: {
        STRATA_ASSIGN_OR_RETURN(const Json* data, data_array());
        Result<std::shared_ptr<Buffer>> values = Status::Invalid("unreachable");
        switch (id) {
          case TypeId::kInt8: values = IntegerValues<int8_t>(*data, count, ctx); break;
          case TypeId::kInt16: values = IntegerValues<int16_t>(*data, count, ctx); break;
          case TypeId::kInt32:
          case TypeId::kIntervalYearMonth:
          case TypeId::kDate32:
          case TypeId::kTime32: values = IntegerValues<int32_t>(*data, count, ctx); break;
          case TypeId::kUInt8: values = IntegerValues<uint8_t>(*data, count, ctx); break;
          case TypeId::kUInt16: values = IntegerValues<uint16_t>(*data, count, ctx); break;
          case TypeId::kUInt32: values = IntegerValues<uint32_t>(*data, count, ctx); break;
          case TypeId::kUInt64: values = IntegerValues<uint64_t>(*data, count, ctx); break;
          default: values = IntegerValues<int64_t>(*data, count, ctx); break;
        }
        STRATA_RETURN_NOT_OK(values.status());
        return ArrayData::Make(type, count, {std::move(validity), std::move(values).MoveValueUnsafe()}, null_count);
      }
      case TypeId::kFloat16:
      case TypeId::kFloat32:
      case TypeId::kFloat64: {
        STRATA_ASSIGN_OR_RETURN(const Json* data, data_array());
        const int width = type->byte_width();
        STRATA_ASSIGN_OR_RETURN(auto buffer, ZeroedBuffer(pool_, count * width));
        for (int64_t i = 0; i < count; ++i) {
          STRATA_ASSIGN_OR_RETURN(double v, GetDouble((*data)[static_cast<size_t>(i)], ctx + " DATA"));
          if (id == TypeId::kFloat64) {
            buffer->mutable_data_as<double>()[i] = v;
          } else if (id == TypeId::kFloat32) {
            buffer->mutable_data_as<float>()[i] = static_cast<float>(v);
          } else {
            buffer->mutable_data_as<uint16_t>()[i] = DoubleToHalfBits(v);
          }
        }
        return ArrayData::Make(type, count, {std::move(validity), std::move(buffer)}, null_count);
      }
      case TypeId::kIntervalDayTime:
      case TypeId::kIntervalMonthDayNano: return Intervals(col, type, count, ctx, std::move(validity), null_count);
      case TypeId::kDecimal32:
      case TypeId::kDecimal64:
      case TypeId::kDecimal128:
      case TypeId::kDecimal256: {
        STRATA_ASSIGN_OR_RETURN(const Json* data, data_array());
        const int width = type->byte_width();
        STRATA_ASSIGN_OR_RETURN(auto buffer, ZeroedBuffer(pool_, count * width));
        for (int64_t i = 0; i < count; ++i) {
          const Json& e = (*data)[static_cast<size_t>(i)];
          std::string text;
          if (e.is_number_integer()) {
            text = e.dump();
          } else {
            STRATA_ASSIGN_OR_RETURN(text, GetString(e, ctx + " DATA"));
          }
          STRATA_RETURN_NOT_OK(ParseDecimalInteger(text, width, buffer->mutable_data() + i * width, ctx + " DATA"));
        }
        return ArrayData::Make(type, count, {std::move(validity), std::move(buffer)}, null_count);
      }
      case TypeId::kFixedSizeBinary: {
        STRATA_ASSIGN_OR_RETURN(const Json* data, data_array());
        const int64_t width = type->byte_width();
        STRATA_ASSIGN_OR_RETURN(auto buffer, ZeroedBuffer(pool_, count * width));
        for (int64_t i = 0; i < count; ++i) {
          STRATA_ASSIGN_OR_RETURN(std::string text, GetString((*data)[static_cast<size_t>(i)], ctx + " DATA"));
          STRATA_ASSIGN_OR_RETURN(std::string bytes, HexDecode(text, ctx + " DATA"));
          if (static_cast<int64_t>(bytes.size()) != width) {
            return Status::Invalid("{}: value {} is {} bytes, the type says {}", ctx, i, bytes.size(), width);
          }
          if (width > 0) std::memcpy(buffer->mutable_data() + i * width, bytes.data(), bytes.size());
        }
        return ArrayData::Make(type, count, {std::move(validity), std::move(buffer)}, null_count);
      }
      case TypeId::kBinary:
      case TypeId::kString:
        return BinaryLike<int32_t>(col, type, count, ctx, std::move(validity), null_count);
      case TypeId::kLargeBinary:
      case TypeId::kLargeString:
        return BinaryLike<int64_t>(col, type, count, ctx, std::move(validity), null_count);
      case TypeId::kBinaryView:
      case TypeId::kStringView:
        return Views(col, type, count, ctx, std::move(validity), null_count);
      case TypeId::kList:
      case TypeId::kMap:
      case TypeId::kLargeList: {
        std::vector<int64_t> offsets;
        std::shared_ptr<Buffer> offset_buffer;
        if (id == TypeId::kLargeList) {
          STRATA_ASSIGN_OR_RETURN(offset_buffer, Offsets<int64_t>(col, count, ctx, &offsets));
        } else {
          STRATA_ASSIGN_OR_RETURN(offset_buffer, Offsets<int32_t>(col, count, ctx, &offsets));
        }
        STRATA_ASSIGN_OR_RETURN(auto children, Children(col, node, depth));
        if (children[0]->length < offsets.back()) {
          return Status::Invalid("{}: offsets reach {} but the child has {} values", ctx, offsets.back(),
                                 children[0]->length);
        }
        auto out = ArrayData::Make(type, count, {std::move(validity), std::move(offset_buffer)}, null_count);
        out->children = std::move(children);
        return out;
      }
      case TypeId::kFixedSizeList: {
        STRATA_ASSIGN_OR_RETURN(auto children, Children(col, node, depth));
        if (children[0]->length != count * type->list_size()) {
          return Status::Invalid("{}: {} lists of {} need {} child values, got {}", ctx, count, type->list_size(),
                                 count * type->list_size(), children[0]->length);
        }
        auto out = ArrayData::Make(type, count, {std::move(validity)}, null_count);
        out->children = std::move(children);
        return out;
      }
      case TypeId::kStruct: {
        STRATA_ASSIGN_OR_RETURN(auto children, Children(col, node, depth));
        for (const auto& c : children) {
          if (c->length != count) {
            return Status::Invalid("{}: struct of {} rows has a child of {}", ctx, count, c->length);
          }
        }
        auto out = ArrayData::Make(type, count, {std::move(validity)}, null_count);
        out->children = std::move(children);
        return out;
      }
      case TypeId::kSparseUnion:
      case TypeId::kDenseUnion: {
        // TYPE_ID (and, dense, OFFSET) then the members; no validity of the union's own.
        STRATA_ASSIGN_OR_RETURN(const Json* ids, GetSizedArray(col, "TYPE_ID", count, ctx));
        STRATA_ASSIGN_OR_RETURN(auto type_ids, IntegerValues<int8_t>(*ids, count, ctx + " TYPE_ID"));
        std::vector<std::shared_ptr<Buffer>> buffers{nullptr, std::move(type_ids)};
        if (id == TypeId::kDenseUnion) {
          STRATA_ASSIGN_OR_RETURN(const Json* offsets, GetSizedArray(col, "OFFSET", count, ctx));
          STRATA_ASSIGN_OR_RETURN(auto offset_buffer, IntegerValues<int32_t>(*offsets, count, ctx + " OFFSET"));
          buffers.push_back(std::move(offset_buffer));
        }
        STRATA_ASSIGN_OR_RETURN(auto children, Children(col, node, depth));
        auto out = ArrayData::Make(type, count, std::move(buffers), 0);
        out->children = std::move(children);
        return out;
      }
      case TypeId::kRunEndEncoded: {
        STRATA_ASSIGN_OR_RETURN(auto children, Children(col, node, depth));
        auto out = ArrayData::Make(type, count, {nullptr}, 0);
        out->children = std::move(children);
        return out;
      }
      case TypeId::kListView:
      case TypeId::kLargeListView: {
        const bool large = id == TypeId::kLargeListView;
        STRATA_ASSIGN_OR_RETURN(const Json* offsets, GetSizedArray(col, "OFFSET", count, ctx));
        STRATA_ASSIGN_OR_RETURN(const Json* sizes, GetSizedArray(col, "SIZE", count, ctx));
        Result<std::shared_ptr<Buffer>> offset_buffer = large ? IntegerValues<int64_t>(*offsets, count, ctx + " OFFSET")
                                                              : IntegerValues<int32_t>(*offsets, count, ctx + " OFFSET");
        STRATA_RETURN_NOT_OK(offset_buffer.status());
        Result<std::shared_ptr<Buffer>> size_buffer = large ? IntegerValues<int64_t>(*sizes, count, ctx + " SIZE")
                                                            : IntegerValues<int32_t>(*sizes, count, ctx + " SIZE");
        STRATA_RETURN_NOT_OK(size_buffer.status());
        STRATA_ASSIGN_OR_RETURN(auto children, Children(col, node, depth));
        auto out = ArrayData::Make(type, count,
                                   {std::move(validity), std::move(offset_buffer).MoveValueUnsafe(),
                                    std::move(size_buffer).MoveValueUnsafe()},
                                   null_count);
        out->children = std::move(children);
        return out;
      }
      default:
        return Status::NotImplemented("{}: type {} in integration JSON", ctx, type->ToString());
    }
  }

  Result<std::vector<ArrayDataPtr>> Children(const Json& col, const FieldNode& node, int depth) {
    STRATA_ASSIGN_OR_RETURN(const Json* children,
                            GetSizedArray(col, "children", static_cast<int64_t>(node.children.size()), node.path));
    std::vector<ArrayDataPtr> out;
    for (size_t i = 0; i < node.children.size(); ++i) {
      STRATA_ASSIGN_OR_RETURN(ArrayDataPtr child, Convert((*children)[i], node.children[i], depth + 1));
      out.push_back(std::move(child));
    }
    return out;
  }

  MemoryPool* pool_;
  const std::map<int64_t, FieldNode>& value_nodes_;
  std::map<int64_t, const Json*> dictionary_json_;
  std::map<int64_t, ArrayDataPtr> built_;
  std::set<int64_t> in_progress_;
};

Result<IntegrationFile> ParseDocument(const Json& doc, MemoryPool* pool, const std::string& name) {
  if (!doc.is_object()) return Status::Invalid("{}: the document must be a JSON object", name);
  IntegrationFile out;
  SchemaParser parser;
  STRATA_ASSIGN_OR_RETURN(const Json* schema_json, Required(doc, "schema", name));
  STRATA_ASSIGN_OR_RETURN(const Json* fields_json, GetArray(*schema_json, "fields", name + " schema"));
  std::vector<FieldNode> nodes;
  std::vector<FieldPtr> fields;
  for (size_t i = 0; i < fields_json->size(); ++i) {
    STRATA_ASSIGN_OR_RETURN(FieldNode node, parser.ParseField((*fields_json)[i], "", {static_cast<int>(i)}, 1));
    fields.push_back(node.field);
    nodes.push_back(std::move(node));
  }
  KeyValueMetadata metadata;
  if (const Json* m = Member(*schema_json, "metadata")) {
    STRATA_ASSIGN_OR_RETURN(metadata, ParseMetadata(*m, name + " schema"));
  }
  out.schema = schema(std::move(fields), std::move(metadata));
  out.dictionary_fields = parser.dictionary_fields();

  std::map<int64_t, const Json*> dictionary_json;
  if (const Json* dicts = Member(doc, "dictionaries"); dicts != nullptr && !dicts->is_null()) {
    if (!dicts->is_array()) return Status::Invalid("{}: \"dictionaries\" must be an array", name);
    for (const Json& d : *dicts) {
      STRATA_ASSIGN_OR_RETURN(const Json* id_json, Required(d, "id", name + " dictionaries"));
      STRATA_ASSIGN_OR_RETURN(int64_t id, GetInteger<int64_t>(*id_json, name + " dictionary id"));
      if (const Json* delta = Member(d, "isDelta"); delta != nullptr && delta->is_boolean() && delta->get<bool>()) {
        return Status::NotImplemented("{}: dictionary {} is a delta (isDelta), not supported here", name, id);
      }
      if (!dictionary_json.emplace(id, &d).second) {
        return Status::Invalid("{}: dictionary id {} appears twice in \"dictionaries\"", name, id);
      }
    }
  }
  ColumnConverter converter(pool, parser.value_nodes(), dictionary_json);
  for (const auto& [id, d] : dictionary_json) {
    if (parser.value_nodes().count(id) == 0) {
      return Status::Invalid("{}: dictionary id {} is used by no field of the schema", name, id);
    }
    STRATA_ASSIGN_OR_RETURN(ArrayDataPtr values, converter.Dictionary(id, name));
    STRATA_RETURN_NOT_OK(ValidateFull(*values, {.check_utf8 = true})
                             .WithContext(fmt::format("{}: dictionary {}", name, id)));
  }
  out.dictionaries = converter.built();

  STRATA_ASSIGN_OR_RETURN(const Json* batches, GetArray(doc, "batches", name));
  for (size_t b = 0; b < batches->size(); ++b) {
    const Json& batch = (*batches)[b];
    const std::string bctx = fmt::format("{}: batch {}", name, b);
    STRATA_ASSIGN_OR_RETURN(const Json* count_json, Required(batch, "count", bctx));
    STRATA_ASSIGN_OR_RETURN(int64_t count, GetInteger<int64_t>(*count_json, bctx + " count"));
    STRATA_ASSIGN_OR_RETURN(const Json* columns,
                            GetSizedArray(batch, "columns", static_cast<int64_t>(nodes.size()), bctx));
    std::vector<Array> arrays;
    for (size_t c = 0; c < nodes.size(); ++c) {
      auto column = converter.Convert((*columns)[c], nodes[c], 1);
      if (!column.ok()) return column.status().WithContext(bctx);
      STRATA_RETURN_NOT_OK(ValidateFull(**column, {.check_utf8 = true})
                               .WithContext(fmt::format("{} column '{}'", bctx, nodes[c].path)));
      arrays.emplace_back(std::move(column).MoveValueUnsafe());
    }
    auto record_batch = RecordBatch::Make(out.schema, count, std::move(arrays));
    if (!record_batch.ok()) return record_batch.status().WithContext(bctx);
    out.batches.push_back(std::move(record_batch).MoveValueUnsafe());
  }
  return out;
}

}  // namespace

Result<IntegrationFile> ParseIntegrationJson(std::string_view json_text, MemoryPool* pool, std::string_view name) {
  const std::string label(name);
  try {
    Json doc = Json::parse(json_text.begin(), json_text.end(), nullptr, /*allow_exceptions=*/false);
    if (doc.is_discarded()) return Status::Invalid("{}: not valid JSON", label);
    return ParseDocument(doc, pool, label);
  } catch (const std::exception& e) {  // the helpers check types first; this is a backstop
    return Status::Invalid("{}: {}", label, e.what());
  }
}

Result<IntegrationFile> ReadIntegrationJson(const std::string& path_or_gz, MemoryPool* pool) {
  STRATA_ASSIGN_OR_RETURN(auto input, codec::OpenInputStream(path_or_gz, pool));
  std::string text;
  std::vector<uint8_t> chunk(1 << 16);
  while (true) {
    STRATA_ASSIGN_OR_RETURN(int64_t n, input->Read(chunk));
    if (n == 0) break;
    text.append(reinterpret_cast<const char*>(chunk.data()), static_cast<size_t>(n));
  }
  return ParseIntegrationJson(text, pool, path_or_gz);
}

}  // namespace strata::ipc
