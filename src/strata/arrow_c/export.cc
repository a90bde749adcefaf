#include "strata/arrow_c/export.h"

#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "strata/array/validate.h"

namespace strata::arrow_c {

namespace {

char UnitChar(TimeUnit unit) {
  switch (unit) {
    case TimeUnit::kSecond: return 's';
    case TimeUnit::kMilli: return 'm';
    case TimeUnit::kMicro: return 'u';
    case TimeUnit::kNano: return 'n';
  }
  return '?';
}

// int32 pair count, then per pair int32 key length, key bytes, int32 value length, value
// bytes, in native byte order (the spec's encoding).
std::string EncodeMetadata(const KeyValueMetadata& metadata) {
  std::string out;
  auto put_int = [&out](size_t n) {
    const int32_t v = static_cast<int32_t>(n);
    out.append(reinterpret_cast<const char*>(&v), sizeof(v));
  };
  put_int(metadata.size());
  for (const auto& [key, value] : metadata.pairs()) {
    put_int(key.size());
    out += key;
    put_int(value.size());
    out += value;
  }
  return out;
}

// ---- ArrowSchema ---------------------------------------------------------------------------

struct SchemaPrivate {
  std::string format;
  std::string name;
  std::string metadata;  // empty: no metadata (exported as NULL)
  std::vector<ArrowSchema> children;
  std::vector<ArrowSchema*> child_pointers;
  ArrowSchema dictionary{};
};

void ReleaseSchema(ArrowSchema* schema) {
  if (schema == nullptr || schema->release == nullptr) return;
  auto* priv = static_cast<SchemaPrivate*>(schema->private_data);
  // Children moved out by the consumer have release == NULL and are skipped.
  for (ArrowSchema* child : priv->child_pointers) {
    if (child->release != nullptr) child->release(child);
  }
  if (priv->dictionary.release != nullptr) priv->dictionary.release(&priv->dictionary);
  delete priv;
  schema->release = nullptr;
  schema->private_data = nullptr;
}

constexpr int kMaxDepth = 256;

// The node's own fields; children and dictionary are filled after, so a failure there can
// release what was made through the normal release callback.
Status FillSchema(const DataType& type, const std::string& name, const KeyValueMetadata* metadata, bool nullable,
                  ArrowSchema* out, int depth) {
  if (depth > kMaxDepth) return Status::LimitExceeded("type nests deeper than {} levels", kMaxDepth);
  STRATA_ASSIGN_OR_RETURN(std::string format, FormatString(type));
  auto priv = std::make_unique<SchemaPrivate>();
  priv->format = std::move(format);
  priv->name = name;
  if (metadata != nullptr && !metadata->empty()) priv->metadata = EncodeMetadata(*metadata);

  int64_t flags = nullable ? ARROW_FLAG_NULLABLE : 0;
  if (type.id() == TypeId::kDictionary && type.ordered()) flags |= ARROW_FLAG_DICTIONARY_ORDERED;
  if (type.id() == TypeId::kMap && type.keys_sorted()) flags |= ARROW_FLAG_MAP_KEYS_SORTED;

  const size_t n = type.id() == TypeId::kDictionary ? 0 : type.fields().size();
  priv->children.resize(n);  // zero-initialised: release == NULL until filled
  for (ArrowSchema& child : priv->children) priv->child_pointers.push_back(&child);

  out->format = priv->format.c_str();
  out->name = priv->name.c_str();
  out->metadata = priv->metadata.empty() ? nullptr : priv->metadata.data();
  out->flags = flags;
  out->n_children = static_cast<int64_t>(n);
  out->children = n == 0 ? nullptr : priv->child_pointers.data();
  out->dictionary = nullptr;
  out->release = &ReleaseSchema;
  out->private_data = priv.get();
  SchemaPrivate* p = priv.release();

  Status status;
  for (size_t i = 0; i < n && status.ok(); ++i) {
    const Field& f = *type.fields()[i];
    status = FillSchema(*f.type(), f.name(), &f.metadata(), f.nullable(), &p->children[i], depth + 1);
  }
  if (status.ok() && type.id() == TypeId::kDictionary) {
    status = FillSchema(*type.value_type(), "", nullptr, true, &p->dictionary, depth + 1);
    if (status.ok()) out->dictionary = &p->dictionary;
  }
  if (!status.ok()) ReleaseSchema(out);
  return status;
}

// ---- ArrowArray ----------------------------------------------------------------------------

struct ArrayPrivate {
  ArrayDataPtr data;  // keeps every buffer alive until release
  std::vector<const void*> buffers;
  std::vector<int64_t> variadic_sizes;  // views: the data buffer sizes, exported last
  std::vector<ArrowArray> children;
  std::vector<ArrowArray*> child_pointers;
  ArrowArray dictionary{};
};

void ReleaseArray(ArrowArray* array) {
  if (array == nullptr || array->release == nullptr) return;
  auto* priv = static_cast<ArrayPrivate*>(array->private_data);
  for (ArrowArray* child : priv->child_pointers) {
    if (child->release != nullptr) child->release(child);
  }
  if (priv->dictionary.release != nullptr) priv->dictionary.release(&priv->dictionary);
  delete priv;
  array->release = nullptr;
  array->private_data = nullptr;
}

// Some consumers read offsets[0] of an empty array; strata may leave such buffers out.
alignas(64) const uint8_t kZeros[64] = {};


Status FillArray(const ArrayDataPtr& data, ArrowArray* out, int depth) {
  if (depth > kMaxDepth) return Status::LimitExceeded("array nests deeper than {} levels", kMaxDepth);
  const ArrayData& d = *data;
  if (d.type == nullptr) return Status::Invalid("cannot export an array without a type");
  const TypeId id = d.type->id();
  const size_t expected = ExpectedBufferCount(id);
  if (is_view(id) ? d.buffers.size() < expected : d.buffers.size() != expected) {
    return Status::Invalid("cannot export {} array with {} buffers (the layout has {})", d.type->ToString(),
                           d.buffers.size(), expected);
  }
  const size_t num_children = id == TypeId::kDictionary ? 0 : d.children.size();
  if (id == TypeId::kDictionary && d.dictionary == nullptr) {
    return Status::Invalid("cannot export a dictionary array without its dictionary");
  }

  auto priv = std::make_unique<ArrayPrivate>();
  priv->data = data;
  if (id != TypeId::kNull) {
    // Unions and run-end encoded arrays have no validity buffer in the C interface: their
    // buffers start with the type ids (run-end encoded: none at all).
    const size_t first = is_union(id) || id == TypeId::kRunEndEncoded ? 1 : 0;
    for (size_t i = first; i < d.buffers.size(); ++i) {
      const auto& buffer = d.buffers[i];
      const void* ptr = buffer ? static_cast<const void*>(buffer->data()) : nullptr;
      if (ptr == nullptr && (i > 0 || first > 0) && d.length == 0 && d.offset < 7) ptr = kZeros;
      priv->buffers.push_back(ptr);
    }
    if (is_view(id)) {
      for (size_t i = 2; i < d.buffers.size(); ++i) {
        priv->variadic_sizes.push_back(d.buffers[i] ? d.buffers[i]->size() : 0);
      }
      priv->buffers.push_back(priv->variadic_sizes.data());
    }
  }
  priv->children.resize(num_children);
  for (ArrowArray& child : priv->children) priv->child_pointers.push_back(&child);

  out->length = d.length;
  out->null_count = d.GetNullCount();
  out->offset = d.offset;
  out->n_buffers = static_cast<int64_t>(priv->buffers.size());
  out->n_children = static_cast<int64_t>(num_children);
  out->buffers = priv->buffers.empty() ? nullptr : priv->buffers.data();
  out->children = num_children == 0 ? nullptr : priv->child_pointers.data();
  out->dictionary = nullptr;
  out->release = &ReleaseArray;
  out->private_data = priv.get();
  ArrayPrivate* p = priv.release();

  Status status;
  for (size_t i = 0; i < num_children && status.ok(); ++i) {
    if (d.children[i] == nullptr) {
      status = Status::Invalid("cannot export {} array: child {} is missing", d.type->ToString(), i);
    } else {
      status = FillArray(d.children[i], &p->children[i], depth + 1);
    }
  }
  if (status.ok() && id == TypeId::kDictionary) {
    status = FillArray(d.dictionary, &p->dictionary, depth + 1);
    if (status.ok()) out->dictionary = &p->dictionary;
  }
  if (!status.ok()) ReleaseArray(out);
  return status;
}

}  // namespace

Result<std::string> FormatString(const DataType& type) {
  switch (type.id()) {
    case TypeId::kNull: return std::string("n");
    case TypeId::kBoolean: return std::string("b");
    case TypeId::kInt8: return std::string("c");
    case TypeId::kUInt8: return std::string("C");
    case TypeId::kInt16: return std::string("s");
    case TypeId::kUInt16: return std::string("S");
    case TypeId::kInt32: return std::string("i");
    case TypeId::kUInt32: return std::string("I");
    case TypeId::kInt64: return std::string("l");
    case TypeId::kUInt64: return std::string("L");
    case TypeId::kFloat16: return std::string("e");
    case TypeId::kFloat32: return std::string("f");
    case TypeId::kFloat64: return std::string("g");
    case TypeId::kBinary: return std::string("z");
    case TypeId::kLargeBinary: return std::string("Z");
    case TypeId::kString: return std::string("u");
    case TypeId::kLargeString: return std::string("U");
    case TypeId::kBinaryView: return std::string("vz");
    case TypeId::kStringView: return std::string("vu");
    case TypeId::kFixedSizeBinary: return fmt::format("w:{}", type.byte_width());
    case TypeId::kDecimal32: return fmt::format("d:{},{},32", type.precision(), type.scale());
    case TypeId::kDecimal64: return fmt::format("d:{},{},64", type.precision(), type.scale());
    case TypeId::kDecimal128: return fmt::format("d:{},{}", type.precision(), type.scale());
    case TypeId::kDecimal256: return fmt::format("d:{},{},256", type.precision(), type.scale());
    case TypeId::kDate32: return std::string("tdD");
    case TypeId::kDate64: return std::string("tdm");
    case TypeId::kTime32:
    case TypeId::kTime64: return fmt::format("tt{}", UnitChar(type.unit()));
    case TypeId::kTimestamp: return fmt::format("ts{}:{}", UnitChar(type.unit()), type.timezone());
    case TypeId::kDuration: return fmt::format("tD{}", UnitChar(type.unit()));
    case TypeId::kIntervalYearMonth: return std::string("tiM");
    case TypeId::kIntervalDayTime: return std::string("tiD");
    case TypeId::kIntervalMonthDayNano: return std::string("tin");
    case TypeId::kList: return std::string("+l");
    case TypeId::kLargeList: return std::string("+L");
    case TypeId::kFixedSizeList: return fmt::format("+w:{}", type.list_size());
    case TypeId::kStruct: return std::string("+s");
    case TypeId::kMap: return std::string("+m");
    case TypeId::kSparseUnion:
    case TypeId::kDenseUnion: {
      std::string format = type.id() == TypeId::kDenseUnion ? "+ud:" : "+us:";
      for (size_t i = 0; i < type.type_codes().size(); ++i) {
        if (i > 0) format += ',';
        format += std::to_string(type.type_codes()[i]);
      }
      return format;
    }
    case TypeId::kRunEndEncoded: return std::string("+r");
    case TypeId::kListView: return std::string("+vl");
    case TypeId::kLargeListView: return std::string("+vL");
    case TypeId::kDictionary:
      if (type.index_type() == nullptr || !is_integer(type.index_type()->id())) {
        return Status::Invalid("dictionary index type is not an integer");
      }
      return FormatString(*type.index_type());
  }
  return Status::NotImplemented("no Arrow C format for type {}", type.ToString());
}

Status ExportType(const DataType& type, ArrowSchema* out) {
  return FillSchema(type, "", nullptr, true, out, 0);
}

Status ExportField(const Field& field, ArrowSchema* out) {
  return FillSchema(*field.type(), field.name(), &field.metadata(), field.nullable(), out, 0);
}

Status ExportSchema(const Schema& schema, ArrowSchema* out) {
  return FillSchema(*struct_(schema.fields()), "", &schema.metadata(), false, out, 0);
}

Status ExportArray(const Array& array, ArrowArray* out, ArrowSchema* out_schema) {
  if (array.data() == nullptr) return Status::Invalid("cannot export an empty Array handle");
  if (out_schema != nullptr) STRATA_RETURN_NOT_OK(ExportType(*array.type(), out_schema));
  Status status = FillArray(array.data(), out, 0);
  if (!status.ok() && out_schema != nullptr) ReleaseSchema(out_schema);
  return status;
}

Status ExportRecordBatch(const RecordBatch& batch, ArrowArray* out, ArrowSchema* out_schema) {
  std::vector<ArrayDataPtr> columns;
  columns.reserve(batch.columns().size());
  for (const Array& column : batch.columns()) columns.push_back(column.data());
  auto data = ArrayData::Make(struct_(batch.schema()->fields()), batch.num_rows(), {nullptr}, 0);
  data->children = std::move(columns);
  if (out_schema != nullptr) STRATA_RETURN_NOT_OK(ExportSchema(*batch.schema(), out_schema));
  Status status = FillArray(data, out, 0);
  if (!status.ok() && out_schema != nullptr) ReleaseSchema(out_schema);
  return status;
}

}  // namespace strata::arrow_c
