// ArrowArray -> strata ArrayData, zero-copy (import.h).
#include "strata/arrow_c/import.h"

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "strata/array/bitmap.h"
#include "strata/array/validate.h"

namespace strata::arrow_c {

namespace {

constexpr int kMaxDepth = 64;

// Stands in for an empty buffer the producer left NULL: strata code may read offsets[0] of
// an empty array, or expect every buffer but validity to be present.
alignas(64) const uint8_t kZeros[64] = {};

std::shared_ptr<Buffer> EmptyBuffer() { return std::make_shared<Buffer>(kZeros, 0); }

// Owns the moved root ArrowArray; its release runs when the last imported buffer is gone.
struct ImportedArray {
  ArrowArray array{};
  ~ImportedArray() {
    if (array.release != nullptr) array.release(&array);
  }
};

// A view of producer memory that keeps the whole import alive.
class ImportedBuffer final : public Buffer {
 public:
  ImportedBuffer(const void* data, int64_t size, std::shared_ptr<ImportedArray> owner)
      : Buffer(static_cast<const uint8_t*>(data), size), owner_(std::move(owner)) {}

 private:
  std::shared_ptr<ImportedArray> owner_;
};

// Buffer count per type in the C interface (views: at least this, plus one per data buffer).
int64_t CBufferCount(TypeId id) {
  switch (id) {
    case TypeId::kNull:
    case TypeId::kRunEndEncoded: return 0;
    case TypeId::kSparseUnion: return 1;  // type ids (no validity)
    case TypeId::kDenseUnion: return 2;   // type ids, offsets
    case TypeId::kListView:
    case TypeId::kLargeListView: return 3;
    case TypeId::kFixedSizeList:
    case TypeId::kStruct: return 1;
    case TypeId::kBinary:
    case TypeId::kString:
    case TypeId::kLargeBinary:
    case TypeId::kLargeString:
    case TypeId::kBinaryView:
    case TypeId::kStringView: return 3;
    default: return 2;
  }
}

int64_t ChildCount(const DataType& type) {
  if (type.id() == TypeId::kStruct || is_union(type.id()) || type.id() == TypeId::kRunEndEncoded) {
    return type.num_fields();
  }
  return is_nested(type.id()) || is_list_view(type.id()) ? 1 : 0;
}

class Importer {
 public:
  explicit Importer(std::shared_ptr<ImportedArray> owner) : owner_(std::move(owner)) {}

  Result<ArrayDataPtr> Import(const ArrowArray* a, const TypePtr& type, const std::string& path, int depth);

 private:
  // Producer memory of `size` bytes as buffer `index`; a NULL pointer is allowed only for
  // an empty buffer (not for validity, handled apart). `align` is the value width the buffer is read with.
  Result<std::shared_ptr<Buffer>> Wrap(const ArrowArray* a, const std::string& path, int64_t index, const char* what,
                                       int64_t size, int64_t align) {
    const void* ptr = a->buffers[index];
    if (ptr == nullptr) {
      if (size > 0) {
        return Status::Invalid("{}: buffer {} ({}) is null, but {} bytes are needed for offset {} + length {}", path,
                               index, what, size, a->offset, a->length);
      }
      return EmptyBuffer();
    }
    // strata reads values through typed pointers: a misaligned buffer would be UB.
    if (align > 1 && reinterpret_cast<uintptr_t>(ptr) % static_cast<uintptr_t>(align) != 0) {
      return Status::Invalid("{}: buffer {} ({}) at {} is not aligned to {} bytes", path, index, what, ptr, align);
    }
    return std::shared_ptr<Buffer>(std::make_shared<ImportedBuffer>(ptr, size, owner_));
  }

  // elements * width with an overflow check.
  static Result<int64_t> Bytes(const std::string& path, int64_t elements, int64_t width) {
    int64_t n;
    if (__builtin_mul_overflow(elements, width, &n)) {
      return Status::Invalid("{}: {} elements of {} bytes overflow a 64-bit size", path, elements, width);
    }
    return n;
  }

  // Offsets buffer and the size of what its last offset points into.
  template <typename OffsetT>
  Status ImportOffsets(const ArrowArray* a, const std::string& path, int64_t end, ArrayData* d, int64_t* last) {
    *last = 0;
    if (a->length == 0) {
      d->buffers.push_back(EmptyBuffer());
      return Status::OK();
    }
    STRATA_ASSIGN_OR_RETURN(int64_t size, Bytes(path, end + 1, sizeof(OffsetT)));
    STRATA_ASSIGN_OR_RETURN(auto offsets, Wrap(a, path, 1, "offsets", size, sizeof(OffsetT)));
    *last = static_cast<int64_t>(offsets->data_as<OffsetT>()[end]);
    if (*last < 0) return Status::Invalid("{}: last offset {} is negative", path, *last);
    d->buffers.push_back(std::move(offsets));
    return Status::OK();
  }

  Status ImportViews(const ArrowArray* a, const std::string& path, int64_t end, ArrayData* d);

  std::shared_ptr<ImportedArray> owner_;
};

Status Importer::ImportViews(const ArrowArray* a, const std::string& path, int64_t end, ArrayData* d) {
  STRATA_ASSIGN_OR_RETURN(int64_t views_size, Bytes(path, end, 16));
  STRATA_ASSIGN_OR_RETURN(auto views, Wrap(a, path, 1, "views", views_size, 8));
  d->buffers.push_back(std::move(views));
  // The last buffer holds one int64 size per variadic data buffer.
  const int64_t num_data = a->n_buffers - 3;
  const void* sizes_ptr = a->buffers[a->n_buffers - 1];
  if (num_data > 0 && sizes_ptr == nullptr) {
    return Status::Invalid("{}: {} data buffers but the variadic sizes buffer is null", path, num_data);
  }
  if (sizes_ptr != nullptr && reinterpret_cast<uintptr_t>(sizes_ptr) % 8 != 0) {
    return Status::Invalid("{}: the variadic sizes buffer is not aligned to 8 bytes", path);
  }
  const auto* sizes = static_cast<const int64_t*>(sizes_ptr);
  for (int64_t i = 0; i < num_data; ++i) {
    if (sizes[i] < 0) return Status::Invalid("{}: data buffer {} has a size of {}", path, i, sizes[i]);
    STRATA_ASSIGN_OR_RETURN(auto data, Wrap(a, path, 2 + i, "view data", sizes[i], 1));
    d->buffers.push_back(std::move(data));
  }
  return Status::OK();
}

Result<ArrayDataPtr> Importer::Import(const ArrowArray* a, const TypePtr& type, const std::string& path, int depth) {
  if (depth > kMaxDepth) return Status::Invalid("{}: arrays nest deeper than {} levels", path, kMaxDepth);
  if (a == nullptr) return Status::Invalid("{}: array is null", path);
  if (a->release == nullptr) return Status::Invalid("{}: array is released", path);
  const TypeId id = type->id();
  const std::string ts = type->ToString();
  if (a->length < 0) return Status::Invalid("{} ({}): negative length {}", path, ts, a->length);
  if (a->offset < 0) return Status::Invalid("{} ({}): negative offset {}", path, ts, a->offset);
  if (a->offset > std::numeric_limits<int64_t>::max() - a->length - 1) {
    return Status::Invalid("{} ({}): offset {} + length {} overflows", path, ts, a->offset, a->length);
  }
  if (a->null_count < -1 || a->null_count > a->length) {
    return Status::Invalid("{} ({}): null_count {} for length {}", path, ts, a->null_count, a->length);
  }
  const int64_t want_buffers = CBufferCount(id);
  if (is_view(id) ? a->n_buffers < want_buffers : a->n_buffers != want_buffers) {
    return Status::Invalid("{} ({}): {} buffers, the layout needs {}{}", path, ts, a->n_buffers,
                           is_view(id) ? "at least " : "", want_buffers);
  }
  if (a->n_buffers > 0 && a->buffers == nullptr) {
    return Status::Invalid("{} ({}): {} buffers but the buffers pointer is null", path, ts, a->n_buffers);
  }
  const int64_t want_children = ChildCount(*type);
  if (a->n_children != want_children) {
    return Status::Invalid("{} ({}): {} children, the type has {}", path, ts, a->n_children, want_children);
  }
  if (a->n_children > 0 && a->children == nullptr) {
    return Status::Invalid("{} ({}): {} children but the children pointer is null", path, ts, a->n_children);
  }
  if ((id == TypeId::kDictionary) != (a->dictionary != nullptr)) {
    return Status::Invalid("{} ({}): {}", path, ts,
                           id == TypeId::kDictionary ? "the dictionary is missing" : "a dictionary on a non-dictionary array");
  }

  auto d = std::make_shared<ArrayData>();
  d->type = type;
  d->length = a->length;
  // An empty array's offset points at nothing: drop it so that no buffer needs bytes.
  d->offset = a->length == 0 ? 0 : a->offset;
  d->null_count = a->null_count < 0 ? kUnknownNullCount : a->null_count;
  const int64_t end = d->offset + d->length;

  if (id == TypeId::kNull) {
    d->buffers.push_back(nullptr);
    if (d->null_count == kUnknownNullCount) d->null_count = d->length;
    return d;
  }
  if (is_union(id) || id == TypeId::kRunEndEncoded) {
    // No validity buffer: a slot is null when its child's value is.
    if (a->null_count > 0) {
      return Status::Invalid("{} ({}): null_count is {}, but this type counts no nulls of its own", path, ts,
                             a->null_count);
    }
    d->null_count = 0;
    d->buffers.push_back(nullptr);
    if (is_union(id)) {
      STRATA_ASSIGN_OR_RETURN(auto type_ids, Wrap(a, path, 0, "type ids", end, 1));
      d->buffers.push_back(std::move(type_ids));
      if (id == TypeId::kDenseUnion) {
        STRATA_ASSIGN_OR_RETURN(int64_t size, Bytes(path, end, 4));
        STRATA_ASSIGN_OR_RETURN(auto offsets, Wrap(a, path, 1, "offsets", size, 4));
        d->buffers.push_back(std::move(offsets));
      }
    }
  } else if (a->buffers[0] == nullptr) {  // validity: NULL means no nulls
    if (a->null_count > 0) {
      return Status::Invalid("{} ({}): null_count is {} but the validity buffer is null", path, ts, a->null_count);
    }
    d->null_count = 0;
    d->buffers.push_back(nullptr);
  } else {
    STRATA_ASSIGN_OR_RETURN(auto validity, Wrap(a, path, 0, "validity", bitmap::BytesForBits(end), 1));
    d->buffers.push_back(std::move(validity));
  }

  switch (id) {
    case TypeId::kBoolean: {
      STRATA_ASSIGN_OR_RETURN(auto values, Wrap(a, path, 1, "values", bitmap::BytesForBits(end), 1));
      d->buffers.push_back(std::move(values));
      break;
    }
    case TypeId::kBinary:
    case TypeId::kString:
    case TypeId::kLargeBinary:
    case TypeId::kLargeString: {
      int64_t data_size;
      if (is_binary_like(id)) {
        STRATA_RETURN_NOT_OK(ImportOffsets<int32_t>(a, path, end, d.get(), &data_size));
      } else {
        STRATA_RETURN_NOT_OK(ImportOffsets<int64_t>(a, path, end, d.get(), &data_size));
      }
      STRATA_ASSIGN_OR_RETURN(auto data, Wrap(a, path, 2, "data", data_size, 1));
      d->buffers.push_back(std::move(data));
      break;
    }
    case TypeId::kBinaryView:
    case TypeId::kStringView: STRATA_RETURN_NOT_OK(ImportViews(a, path, end, d.get())); break;
    case TypeId::kList:
    case TypeId::kLargeList:
    case TypeId::kMap: {
      int64_t unused;
      if (id == TypeId::kLargeList) {
        STRATA_RETURN_NOT_OK(ImportOffsets<int64_t>(a, path, end, d.get(), &unused));
      } else {
        STRATA_RETURN_NOT_OK(ImportOffsets<int32_t>(a, path, end, d.get(), &unused));
      }
      break;
    }
    case TypeId::kFixedSizeList:
    case TypeId::kStruct:
    case TypeId::kSparseUnion:
    case TypeId::kDenseUnion:
    case TypeId::kRunEndEncoded: break;
    case TypeId::kListView:
    case TypeId::kLargeListView: {
      const int64_t width = id == TypeId::kListView ? 4 : 8;
      STRATA_ASSIGN_OR_RETURN(int64_t size, Bytes(path, end, width));
      STRATA_ASSIGN_OR_RETURN(auto offsets, Wrap(a, path, 1, "offsets", size, width));
      STRATA_ASSIGN_OR_RETURN(auto sizes, Wrap(a, path, 2, "sizes", size, width));
      d->buffers.push_back(std::move(offsets));
      d->buffers.push_back(std::move(sizes));
      break;
    }
    case TypeId::kDictionary:
    default: {
      const TypePtr& value_type = id == TypeId::kDictionary ? type->index_type() : type;
      const int64_t width = value_type->byte_width();
      STRATA_ASSIGN_OR_RETURN(int64_t size, Bytes(path, end, width));
      const int64_t align = id == TypeId::kFixedSizeBinary ? 1 : std::min<int64_t>(width, 8);
      STRATA_ASSIGN_OR_RETURN(auto values, Wrap(a, path, 1, "values", size, align));
      d->buffers.push_back(std::move(values));
      break;
    }
  }

  for (int64_t i = 0; i < a->n_children; ++i) {
    const Field& f = *type->field(static_cast<int>(i));
    STRATA_ASSIGN_OR_RETURN(auto child, Import(a->children[i], f.type(), path + "." + f.name(), depth + 1));
    d->children.push_back(std::move(child));
  }
  if (id == TypeId::kDictionary) {
    STRATA_ASSIGN_OR_RETURN(d->dictionary, Import(a->dictionary, type->value_type(), path + ".dictionary", depth + 1));
  }
  return d;
}

// Moves the producer's struct into a shared owner (the caller's copy is marked released).
std::shared_ptr<ImportedArray> TakeOwnership(ArrowArray* array) {
  auto owner = std::make_shared<ImportedArray>();
  owner->array = *array;
  array->release = nullptr;
  return owner;
}

void ReleaseIfLive(ArrowArray* array) {
  if (array != nullptr && array->release != nullptr) array->release(array);
}

}  // namespace

Result<Array> ImportArray(ArrowArray* array, const TypePtr& type) {
  if (array == nullptr) return Status::Invalid("array: ArrowArray pointer is null");
  if (array->release == nullptr) return Status::Invalid("array: ArrowArray is released");
  std::shared_ptr<ImportedArray> owner = TakeOwnership(array);
  if (type == nullptr) return Status::Invalid("array: no type given");
  Importer importer(owner);
  STRATA_ASSIGN_OR_RETURN(ArrayDataPtr data, importer.Import(&owner->array, type, "array", 0));
  owner.reset();  // from here the buffers alone keep the producer's memory
  ValidateOptions options;
  options.check_utf8 = true;
  Status status = ValidateFull(*data, options);
  if (!status.ok()) return Status::Invalid("imported {}", status.message());
  return Array(std::move(data));
}

Result<Array> ImportArray(ArrowArray* array, ArrowSchema* schema) {
  Result<TypePtr> type = ImportType(schema);
  if (!type.ok()) {
    ReleaseIfLive(array);
    return type.status();
  }
  return ImportArray(array, *type);
}

Result<std::shared_ptr<RecordBatch>> ImportRecordBatch(ArrowArray* array, const SchemaPtr& schema) {
  if (schema == nullptr) {
    ReleaseIfLive(array);
    return Status::Invalid("record batch: no schema given");
  }
  STRATA_ASSIGN_OR_RETURN(Array root, ImportArray(array, struct_(schema->fields())));
  if (root.null_count() != 0) {
    return Status::Invalid("record batch: the struct array has {} nulls at the top level", root.null_count());
  }
  StructArray rows(root);
  std::vector<Array> columns;
  columns.reserve(static_cast<size_t>(rows.num_fields()));
  for (int i = 0; i < rows.num_fields(); ++i) columns.push_back(rows.field(i));
  return RecordBatch::Make(schema, root.length(), std::move(columns));
}

Result<std::shared_ptr<RecordBatch>> ImportRecordBatch(ArrowArray* array, ArrowSchema* schema) {
  Result<SchemaPtr> imported = ImportSchema(schema);
  if (!imported.ok()) {
    ReleaseIfLive(array);
    return imported.status();
  }
  return ImportRecordBatch(array, *imported);
}

}  // namespace strata::arrow_c
