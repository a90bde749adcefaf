#include "strata/csv/json_value_writer.h"

#include "strata/util/json_writer.h"

#include <vector>

namespace strata::csv {
namespace {

using formats::FormatOptions;
using formats::IsNullAt;
using formats::JsonForm;
using formats::Values;

// A node as the base type, so that it converts to Result in one step.
template <typename T, typename... Args>
std::unique_ptr<JsonNode> NewNode(Args&&... args) {
  return std::make_unique<T>(std::forward<Args>(args)...);
}

Status WriteRaw(std::string_view text, CellBlock* out) {
  STRATA_RETURN_NOT_OK(out->EnsureBytes(static_cast<int64_t>(text.size())));
  char* p = out->cursor();
  std::memcpy(p, text.data(), text.size());
  out->Advance(p + text.size());
  return Status::OK();
}

Status WriteValue(const JsonNode& node, const ArrayData& data, int64_t index, CellBlock* out) {
  if (IsNullAt(data, index)) return WriteRaw("null", out);
  return node.Write(data, index, out);
}

template <typename Format>
class ScalarNode final : public JsonNode {
 public:
  explicit ScalarNode(const FormatOptions& options) : options_(options) {}
  Status Write(const ArrayData& data, int64_t index, CellBlock* out) const override {
    const Format format(data, options_);
    STRATA_RETURN_NOT_OK(out->EnsureBytes(format.MaxChars(index) + 2));
    bool quoted = Format::kJson == JsonForm::kQuoted;
    if constexpr (Format::kJson == JsonForm::kFloat) quoted = !format.IsFinite(index);
    char* p = out->cursor();
    if (quoted) *p++ = '"';
    p = format.Write(index, p);
    if (quoted) *p++ = '"';
    out->Advance(p);
    return Status::OK();
  }

 private:
  FormatOptions options_;
};

template <typename Bytes>
class StringNode final : public JsonNode {
 public:
  Status Write(const ArrayData& data, int64_t index, CellBlock* out) const override {
    const std::string_view text = Bytes(data).Get(index);
    STRATA_RETURN_NOT_OK(out->EnsureBytes(MaxJsonStringLength(static_cast<int64_t>(text.size()))));
    out->Advance(WriteJsonString(text, out->cursor()));
    return Status::OK();
  }
};

// Writes elements [begin, end) of `child` (logical indices) as a JSON array.
Status WriteArray(const JsonNode& values, const ArrayData& child, int64_t begin, int64_t end, CellBlock* out) {
  STRATA_RETURN_NOT_OK(WriteRaw("[", out));
  for (int64_t k = begin; k < end; ++k) {
    if (k > begin) STRATA_RETURN_NOT_OK(WriteRaw(",", out));
    STRATA_RETURN_NOT_OK(WriteValue(values, child, child.offset + k, out));
  }
  return WriteRaw("]", out);
}

template <typename OffsetT>
class ListNode final : public JsonNode {
 public:
  explicit ListNode(std::unique_ptr<JsonNode> values) : values_(std::move(values)) {}
  Status Write(const ArrayData& data, int64_t index, CellBlock* out) const override {
    const OffsetT* offsets = Values<OffsetT>(data, 1);
    return WriteArray(*values_, *data.children[0], offsets[index], offsets[index + 1], out);
  }

 private:
  std::unique_ptr<JsonNode> values_;
};

class FixedSizeListNode final : public JsonNode {
 public:
  explicit FixedSizeListNode(std::unique_ptr<JsonNode> values) : values_(std::move(values)) {}
  Status Write(const ArrayData& data, int64_t index, CellBlock* out) const override {
    const int64_t size = data.type->list_size();
    return WriteArray(*values_, *data.children[0], index * size, (index + 1) * size, out);
  }

 private:
  std::unique_ptr<JsonNode> values_;
};

class StructNode final : public JsonNode {
 public:
  StructNode(std::vector<std::string> keys, std::vector<std::unique_ptr<JsonNode>> fields)
      : keys_(std::move(keys)), fields_(std::move(fields)) {}
  Status Write(const ArrayData& data, int64_t index, CellBlock* out) const override {
    STRATA_RETURN_NOT_OK(WriteRaw("{", out));
    for (size_t f = 0; f < fields_.size(); ++f) {
      if (f > 0) STRATA_RETURN_NOT_OK(WriteRaw(",", out));
      STRATA_RETURN_NOT_OK(WriteRaw(keys_[f], out));
      const ArrayData& child = *data.children[f];
      // A struct's offset applies to its children directly.
      STRATA_RETURN_NOT_OK(WriteValue(*fields_[f], child, child.offset + index, out));
    }
    return WriteRaw("}", out);
  }

 private:
  std::vector<std::string> keys_;  // "name": as JSON
  std::vector<std::unique_ptr<JsonNode>> fields_;
};

class MapNode final : public JsonNode {
 public:
  MapNode(std::unique_ptr<JsonNode> keys, std::unique_ptr<JsonNode> items)
      : keys_(std::move(keys)), items_(std::move(items)) {}
  Status Write(const ArrayData& data, int64_t index, CellBlock* out) const override {
    const int32_t* offsets = Values<int32_t>(data, 1);
    const ArrayData& entries = *data.children[0];
    const ArrayData& keys = *entries.children[0];
    const ArrayData& items = *entries.children[1];
    STRATA_RETURN_NOT_OK(WriteRaw("{", out));
    for (int64_t k = offsets[index]; k < offsets[index + 1]; ++k) {
      if (k > offsets[index]) STRATA_RETURN_NOT_OK(WriteRaw(",", out));
      const int64_t entry = entries.offset + k;
      const int64_t start = out->cursor_offset();
      STRATA_RETURN_NOT_OK(WriteValue(*keys_, keys, keys.offset + entry, out));
      // JSON object keys are strings: any other key becomes the string of its JSON.
      if (out->text()[start] != '"') STRATA_RETURN_NOT_OK(out->QuoteInPlace(start, out->cursor(), '"', true));
      STRATA_RETURN_NOT_OK(WriteRaw(":", out));
      STRATA_RETURN_NOT_OK(WriteValue(*items_, items, items.offset + entry, out));
    }
    return WriteRaw("}", out);
  }

 private:
  std::unique_ptr<JsonNode> keys_;
  std::unique_ptr<JsonNode> items_;
};

template <typename Index>
class DictionaryNode final : public JsonNode {
 public:
  DictionaryNode(std::string name, std::unique_ptr<JsonNode> values) : name_(std::move(name)), values_(std::move(values)) {}
  Status Write(const ArrayData& data, int64_t index, CellBlock* out) const override {
    const auto value = static_cast<int64_t>(Values<Index>(data, 1)[index]);
    if (data.dictionary == nullptr || value < 0 || value >= data.dictionary->length) {
      return Status::Invalid("column '{}': dictionary index {} is out of range", name_, value);
    }
    return WriteValue(*values_, *data.dictionary, data.dictionary->offset + value, out);
  }

 private:
  std::string name_;
  std::unique_ptr<JsonNode> values_;
};

class NullNode final : public JsonNode {
 public:
  Status Write(const ArrayData&, int64_t, CellBlock* out) const override { return WriteRaw("null", out); }
};

template <typename Format>
Result<std::unique_ptr<JsonNode>> Scalar(const FormatOptions& options) {
  return NewNode<ScalarNode<Format>>(options);
}

template <typename Index>
std::unique_ptr<JsonNode> Dictionary(std::string name, std::unique_ptr<JsonNode> values) {
  return NewNode<DictionaryNode<Index>>(std::move(name), std::move(values));
}

}  // namespace

Result<std::unique_ptr<JsonNode>> MakeJsonNode(const std::string& name, const TypePtr& type,
                                               const FormatOptions& options) {
  using namespace formats;  // NOLINT: the Format types below
  const TypeId id = type->id();
  const bool binary = id == TypeId::kBinary || id == TypeId::kLargeBinary || id == TypeId::kBinaryView ||
                      id == TypeId::kFixedSizeBinary;
  if (binary && options.binary == WriteOptions::BinaryValues::kRefuse) {
    return Status::NotImplemented("column '{}': its {} values are refused (WriteOptions::binary)", name,
                                  type->ToString());
  }
  switch (id) {
    case TypeId::kNull: return NewNode<NullNode>();
    case TypeId::kBoolean: return Scalar<BooleanFormat>(options);
    case TypeId::kInt8: return Scalar<IntegerFormat<int8_t>>(options);
    case TypeId::kInt16: return Scalar<IntegerFormat<int16_t>>(options);
    case TypeId::kInt32: return Scalar<IntegerFormat<int32_t>>(options);
    case TypeId::kInt64:
    case TypeId::kDuration: return Scalar<IntegerFormat<int64_t>>(options);
    case TypeId::kUInt8: return Scalar<IntegerFormat<uint8_t>>(options);
    case TypeId::kUInt16: return Scalar<IntegerFormat<uint16_t>>(options);
    case TypeId::kUInt32: return Scalar<IntegerFormat<uint32_t>>(options);
    case TypeId::kUInt64: return Scalar<IntegerFormat<uint64_t>>(options);
    case TypeId::kFloat16: return Scalar<HalfFormat>(options);
    case TypeId::kFloat32: return Scalar<FloatFormat<float>>(options);
    case TypeId::kFloat64: return Scalar<FloatFormat<double>>(options);
    case TypeId::kDecimal32: return Scalar<DecimalFormat<4>>(options);
    case TypeId::kDecimal64: return Scalar<DecimalFormat<8>>(options);
    case TypeId::kDecimal128: return Scalar<DecimalFormat<16>>(options);
    case TypeId::kDecimal256: return Scalar<DecimalFormat<32>>(options);
    case TypeId::kDate32: return Scalar<DateFormat<int32_t>>(options);
    case TypeId::kDate64: return Scalar<DateFormat<int64_t>>(options);
    case TypeId::kTime32: return Scalar<TimeFormat<int32_t>>(options);
    case TypeId::kTime64: return Scalar<TimeFormat<int64_t>>(options);
    case TypeId::kTimestamp: return Scalar<TimestampFormat>(options);
    case TypeId::kIntervalYearMonth:
    case TypeId::kIntervalDayTime:
    case TypeId::kIntervalMonthDayNano: return Scalar<IntervalFormat>(options);
    case TypeId::kString: return NewNode<StringNode<OffsetBytes<int32_t>>>();
    case TypeId::kLargeString: return NewNode<StringNode<OffsetBytes<int64_t>>>();
    case TypeId::kStringView: return NewNode<StringNode<ViewBytes>>();
    case TypeId::kBinary: return Scalar<BinaryFormat<OffsetBytes<int32_t>>>(options);
    case TypeId::kLargeBinary: return Scalar<BinaryFormat<OffsetBytes<int64_t>>>(options);
    case TypeId::kBinaryView: return Scalar<BinaryFormat<ViewBytes>>(options);
    case TypeId::kFixedSizeBinary: return Scalar<BinaryFormat<FixedBytes>>(options);
    case TypeId::kList:
    case TypeId::kLargeList:
    case TypeId::kFixedSizeList: {
      STRATA_ASSIGN_OR_RETURN(auto values, MakeJsonNode(name, type->list_value_type(), options));
      if (id == TypeId::kList) return NewNode<ListNode<int32_t>>(std::move(values));
      if (id == TypeId::kLargeList) return NewNode<ListNode<int64_t>>(std::move(values));
      return NewNode<FixedSizeListNode>(std::move(values));
    }
    case TypeId::kStruct: {
      std::vector<std::string> keys;
      std::vector<std::unique_ptr<JsonNode>> fields;
      for (const FieldPtr& field : type->fields()) {
        std::string key(static_cast<size_t>(MaxJsonStringLength(static_cast<int64_t>(field->name().size()))),
                        '\0');
        key.resize(static_cast<size_t>(WriteJsonString(field->name(), key.data()) - key.data()));
        keys.push_back(key + ":");
        STRATA_ASSIGN_OR_RETURN(auto node, MakeJsonNode(name, field->type(), options));
        fields.push_back(std::move(node));
      }
      return NewNode<StructNode>(std::move(keys), std::move(fields));
    }
    case TypeId::kMap: {
      STRATA_ASSIGN_OR_RETURN(auto keys, MakeJsonNode(name, type->key_type(), options));
      STRATA_ASSIGN_OR_RETURN(auto items, MakeJsonNode(name, type->item_type(), options));
      return NewNode<MapNode>(std::move(keys), std::move(items));
    }
    case TypeId::kDictionary: {
      STRATA_ASSIGN_OR_RETURN(auto values, MakeJsonNode(name, type->value_type(), options));
      switch (type->index_type()->id()) {
        case TypeId::kInt8: return Dictionary<int8_t>(name, std::move(values));
        case TypeId::kInt16: return Dictionary<int16_t>(name, std::move(values));
        case TypeId::kInt32: return Dictionary<int32_t>(name, std::move(values));
        case TypeId::kInt64: return Dictionary<int64_t>(name, std::move(values));
        case TypeId::kUInt8: return Dictionary<uint8_t>(name, std::move(values));
        case TypeId::kUInt16: return Dictionary<uint16_t>(name, std::move(values));
        case TypeId::kUInt32: return Dictionary<uint32_t>(name, std::move(values));
        case TypeId::kUInt64: return Dictionary<uint64_t>(name, std::move(values));
        default: break;
      }
      return Status::Invalid("column '{}': dictionary index type {} is not an integer", name,
                             type->index_type()->ToString());
    }
    default: break;
  }
  return Status::NotImplemented("column '{}': no JSON form for type {}", name, type->ToString());
}

}  // namespace strata::csv
