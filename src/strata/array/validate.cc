#include "strata/array/validate.h"

#include <limits>
#include <string>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "strata/array/array.h"
#include "strata/util/utf8.h"

namespace strata {

size_t ExpectedBufferCount(TypeId id) {
  switch (id) {
    case TypeId::kNull:
    case TypeId::kFixedSizeList:
    case TypeId::kStruct: return 1;
    case TypeId::kBinary:
    case TypeId::kString:
    case TypeId::kLargeBinary:
    case TypeId::kLargeString: return 3;
    case TypeId::kRunEndEncoded: return 1;  // [nullptr]
    case TypeId::kDenseUnion:               // [nullptr, type ids, offsets]
    case TypeId::kListView:
    case TypeId::kLargeListView: return 3;  // [validity, offsets, sizes]
    default: return 2;  // fixed width, boolean, lists, map, dictionary, sparse union; views: at least 2
  }
}

namespace {

class Validator {
 public:
  explicit Validator(const ValidateOptions& options) : options_(options) {}

  Status Validate(const ArrayData& d, const std::string& path);

 private:
  template <typename... Args>
  Status Fail(const std::string& path, const ArrayData& d, fmt::format_string<Args...> f, Args&&... args) {
    return Status::Corrupt("{} ({}): {}", path, d.type->ToString(), fmt::format(f, std::forward<Args>(args)...));
  }

  int64_t BufferSize(const ArrayData& d, size_t i) const {
    return i < d.buffers.size() && d.buffers[i] != nullptr ? d.buffers[i]->size() : 0;
  }

  // Buffer i must hold at least `needed` bytes (units / width spelled out in the message).
  Status CheckBufferSize(const ArrayData& d, const std::string& path, size_t i, const char* what, int64_t elements,
                         int64_t width) {
    int64_t needed;
    if (__builtin_mul_overflow(elements, width, &needed)) {
      return Fail(path, d, "{} elements of {} bytes overflow a 64-bit size", elements, width);
    }
    if (needed > 0 && (i >= d.buffers.size() || d.buffers[i] == nullptr)) {
      return Fail(path, d, "{} buffer is missing, {} bytes needed", what, needed);
    }
    if (BufferSize(d, i) < needed) {
      return Fail(path, d, "{} buffer holds {} bytes, needs {} (offset {} + length {}, {} bytes each)", what,
                  BufferSize(d, i), needed, d.offset, d.length, width);
    }
    return Status::OK();
  }

  Status CheckNullCount(const ArrayData& d, const std::string& path);
  template <typename OffsetT>
  Status CheckOffsets(const ArrayData& d, const std::string& path, int64_t target_size, const char* target);
  template <typename OffsetT>
  Status CheckUtf8Offsets(const ArrayData& d, const std::string& path);
  Status CheckViews(const ArrayData& d, const std::string& path);
  Status CheckChild(const ArrayData& d, const std::string& path, size_t i, const Field& field, int64_t min_length);
  Status CheckDictionary(const ArrayData& d, const std::string& path);
  Status CheckUnion(const ArrayData& d, const std::string& path);
  Status CheckRunEndEncoded(const ArrayData& d, const std::string& path);
  template <typename OffsetT>
  Status CheckListView(const ArrayData& d, const std::string& path);

  const ValidateOptions& options_;
};


bool IsValidAt(const ArrayData& d, int64_t i) {
  const uint8_t* bits = d.validity_data();
  return bits == nullptr || bitmap::GetBit(bits, d.offset + i);
}

Status Validator::CheckNullCount(const ArrayData& d, const std::string& path) {
  const int64_t actual = d.validity_data() ? d.length - bitmap::CountSetBits(d.validity_data(), d.offset, d.length) : 0;
  if (d.null_count != kUnknownNullCount && d.null_count != actual) {
    return Fail(path, d, "null_count is {} but the validity bitmap has {} nulls", d.null_count, actual);
  }
  return Status::OK();
}

template <typename OffsetT>
Status Validator::CheckOffsets(const ArrayData& d, const std::string& path, int64_t target_size, const char* target) {
  if (d.length == 0 && BufferSize(d, 1) == 0) return Status::OK();  // an empty array may omit its offsets
  STRATA_RETURN_NOT_OK(CheckBufferSize(d, path, 1, "offsets", d.offset + d.length + 1, sizeof(OffsetT)));
  const OffsetT* offsets = d.buffers[1]->data_as<OffsetT>() + d.offset;
  if (offsets[0] < 0) return Fail(path, d, "first offset {} is negative", static_cast<int64_t>(offsets[0]));
  for (int64_t i = 0; i < d.length; ++i) {
    if (offsets[i + 1] < offsets[i]) {
      return Fail(path, d, "offsets decrease at row {}: {} then {}", i, static_cast<int64_t>(offsets[i]),
                  static_cast<int64_t>(offsets[i + 1]));
    }
  }
  if (static_cast<int64_t>(offsets[d.length]) > target_size) {
    return Fail(path, d, "last offset {} is past the end of the {} ({})", static_cast<int64_t>(offsets[d.length]),
                target, target_size);
  }
  return Status::OK();
}

template <typename OffsetT>
Status Validator::CheckUtf8Offsets(const ArrayData& d, const std::string& path) {
  if (d.length == 0) return Status::OK();
  const OffsetT* offsets = d.buffers[1]->data_as<OffsetT>() + d.offset;
  const uint8_t* data = d.buffers[2] ? d.buffers[2]->data() : nullptr;
  // Fast path: the whole value range at once, then no value may start inside a sequence.
  // If that fails (maybe only a null slot's bytes are bad), check the valid values one by one.
  const int64_t begin = offsets[0];
  const int64_t end = offsets[d.length];
  bool ok = ValidateUtf8(data + begin, end - begin);
  for (int64_t i = 1; ok && i < d.length; ++i) {
    if (offsets[i] < end && (data[offsets[i]] & 0xC0) == 0x80) ok = false;
  }
  if (ok) return Status::OK();
  for (int64_t i = 0; i < d.length; ++i) {
    if (!IsValidAt(d, i)) continue;
    const int64_t at = FindInvalidUtf8(data + offsets[i], offsets[i + 1] - offsets[i]);
    if (at >= 0) return Fail(path, d, "row {} is not valid UTF-8 (byte {} of the value)", i, at);
  }
  return Status::OK();
}

Status Validator::CheckViews(const ArrayData& d, const std::string& path) {
  STRATA_RETURN_NOT_OK(CheckBufferSize(d, path, 1, "views", d.offset + d.length, view_layout::kViewSize));
  if (d.length == 0) return Status::OK();
  const int64_t num_data = static_cast<int64_t>(d.buffers.size()) - 2;
  for (int64_t b = 0; b < num_data; ++b) {
    if (d.buffers[2 + static_cast<size_t>(b)] == nullptr) return Fail(path, d, "data buffer {} is missing", b);
  }
  const uint8_t* views = d.buffers[1]->data() + d.offset * view_layout::kViewSize;
  const bool check_utf8 = options_.check_utf8 && d.type->id() == TypeId::kStringView;
  for (int64_t i = 0; i < d.length; ++i) {
    if (!IsValidAt(d, i)) continue;
    const uint8_t* view = views + i * view_layout::kViewSize;
    const int32_t n = view_layout::Length(view);
    if (n < 0) return Fail(path, d, "row {} has negative length {}", i, n);
    const uint8_t* value;
    if (n <= view_layout::kInlineSize) {
      value = view + 4;
    } else {
      const int32_t index = view_layout::BufferIndex(view);
      const int32_t offset = view_layout::Offset(view);
      if (index < 0 || index >= num_data) {
        return Fail(path, d, "row {} refers to data buffer {}, but there are {}", i, index, num_data);
      }
      const Buffer& data = *d.buffers[2 + static_cast<size_t>(index)];
      if (offset < 0 || static_cast<int64_t>(offset) + n > data.size()) {
        return Fail(path, d, "row {} spans bytes [{}, {}) of data buffer {} of {} bytes", i, offset,
                    static_cast<int64_t>(offset) + n, index, data.size());
      }
      value = data.data() + offset;
      if (std::memcmp(value, view + 4, view_layout::kPrefixSize) != 0) {
        return Fail(path, d, "row {}: the view's prefix does not match its data", i);
      }
    }
    if (check_utf8) {
      const int64_t at = FindInvalidUtf8(value, n);
      if (at >= 0) return Fail(path, d, "row {} is not valid UTF-8 (byte {} of the value)", i, at);
    }
  }
  return Status::OK();
}

Status Validator::CheckChild(const ArrayData& d, const std::string& path, size_t i, const Field& field,
                             int64_t min_length) {
  const ArrayDataPtr& child = d.children[i];
  const std::string child_path = fmt::format("{}.{}", path, field.name());
  if (child == nullptr) return Fail(path, d, "child '{}' is missing", field.name());
  if (child->type == nullptr || !child->type->Equals(*field.type())) {
    return Fail(path, d, "child '{}' has type {}, the type says {}", field.name(),
                child->type ? child->type->ToString() : "null", field.type()->ToString());
  }
  if (child->length < min_length) {
    return Fail(path, d, "child '{}' has {} elements, needs at least {}", field.name(), child->length, min_length);
  }
  return Validate(*child, child_path);
}

Status Validator::CheckDictionary(const ArrayData& d, const std::string& path) {
  const TypePtr& index_type = d.type->index_type();
  if (index_type == nullptr || !is_integer(index_type->id())) return Fail(path, d, "index type is not an integer");
  STRATA_RETURN_NOT_OK(CheckBufferSize(d, path, 1, "indices", d.offset + d.length, index_type->byte_width()));
  if (d.dictionary == nullptr) return Fail(path, d, "dictionary is missing");
  if (d.dictionary->type == nullptr || !d.dictionary->type->Equals(*d.type->value_type())) {
    return Fail(path, d, "dictionary has type {}, the type says {}",
                d.dictionary->type ? d.dictionary->type->ToString() : "null", d.type->value_type()->ToString());
  }
  STRATA_RETURN_NOT_OK(Validate(*d.dictionary, path + ".dictionary"));
  auto view = std::make_shared<ArrayData>(d);
  DictionaryArray indices(view);
  const int64_t size = d.dictionary->length;
  for (int64_t i = 0; i < d.length; ++i) {
    if (!IsValidAt(d, i)) continue;
    const int64_t index = indices.GetValueIndex(i);
    if (index < 0 || index >= size) {
      return Fail(path, d, "row {} has index {}, outside a dictionary of {} values", i, index, size);
    }
  }
  return Status::OK();
}

// Type ids name a member; sparse children are as long as the union, dense offsets index their
// child. A union has no validity bitmap and counts no nulls of its own.
Status Validator::CheckUnion(const ArrayData& d, const std::string& path) {
  if (d.buffers[0] != nullptr) return Fail(path, d, "a union has no validity bitmap, but one is given");
  if (d.null_count != 0 && d.null_count != kUnknownNullCount) {
    return Fail(path, d, "null_count is {}; a union counts no nulls of its own", d.null_count);
  }
  const bool dense = d.type->id() == TypeId::kDenseUnion;
  for (size_t c = 0; c < d.children.size(); ++c) {
    STRATA_RETURN_NOT_OK(CheckChild(d, path, c, *d.type->field(static_cast<int>(c)), dense ? 0 : d.offset + d.length));
  }
  STRATA_RETURN_NOT_OK(CheckBufferSize(d, path, 1, "type ids", d.offset + d.length, 1));
  if (dense) STRATA_RETURN_NOT_OK(CheckBufferSize(d, path, 2, "offsets", d.offset + d.length, 4));
  if (d.length == 0) return Status::OK();
  UnionArray array(std::make_shared<ArrayData>(d));
  for (int64_t i = 0; i < d.length; ++i) {
    const int c = array.child_index(i);
    if (c < 0) {
      return Fail(path, d, "row {} has type id {}, which names no member (the type's ids: {})", i,
                  int{array.type_code(i)}, fmt::join(d.type->type_codes(), ", "));
    }
    if (dense) {
      const int64_t offset = array.value_offset(i);
      const int64_t child_length = d.children[static_cast<size_t>(c)]->length;
      if (offset < 0 || offset >= child_length) {
        return Fail(path, d, "row {} has offset {} into member '{}', which has {} values", i, offset,
                    d.type->field(c)->name(), child_length);
      }
    }
  }
  return Status::OK();
}

// Run ends are positive and strictly increase, there is one value per run, and the last run
// reaches the end of the logical range.
Status Validator::CheckRunEndEncoded(const ArrayData& d, const std::string& path) {
  if (d.buffers[0] != nullptr) return Fail(path, d, "a run-end encoded array has no validity bitmap, but one is given");
  if (d.null_count != 0 && d.null_count != kUnknownNullCount) {
    return Fail(path, d, "null_count is {}; a run-end encoded array counts no nulls of its own", d.null_count);
  }
  STRATA_RETURN_NOT_OK(CheckChild(d, path, 0, *d.type->field(0), 0));
  STRATA_RETURN_NOT_OK(CheckChild(d, path, 1, *d.type->field(1), 0));
  const ArrayData& ends = *d.children[0];
  if (ends.GetNullCount() != 0) return Fail(path, d, "the run ends hold {} nulls", ends.GetNullCount());
  if (d.children[1]->length != ends.length) {
    return Fail(path, d, "{} run ends but {} values", ends.length, d.children[1]->length);
  }
  const TypeId end_type = ends.type->id();
  const int64_t max_end = end_type == TypeId::kInt16   ? INT16_MAX
                          : end_type == TypeId::kInt32 ? INT32_MAX
                                                       : std::numeric_limits<int64_t>::max();
  if (d.offset + d.length > max_end) {
    return Fail(path, d, "offset {} + length {} passes the largest {} run end", d.offset, d.length,
                ends.type->ToString());
  }
  if (d.length == 0) return Status::OK();
  if (ends.length == 0) return Fail(path, d, "{} logical values but no runs", d.length);
  RunEndEncodedArray array(std::make_shared<ArrayData>(d));
  int64_t previous = 0;
  for (int64_t k = 0; k < ends.length; ++k) {
    const int64_t end = array.RunEnd(k);
    if (end <= 0) return Fail(path, d, "run end {} is {}, run ends must be positive", k, end);
    if (k > 0 && end <= previous) {
      return Fail(path, d, "run ends must strictly increase: run end {} is {} after {}", k, end, previous);
    }
    previous = end;
  }
  if (previous < d.offset + d.length) {
    return Fail(path, d, "the last run ends at {}, before offset {} + length {}", previous, d.offset, d.length);
  }
  return Status::OK();
}

// Each valid view [offset, offset + size) lies within the child; views may overlap and come in
// any order.
template <typename OffsetT>
Status Validator::CheckListView(const ArrayData& d, const std::string& path) {
  STRATA_RETURN_NOT_OK(CheckChild(d, path, 0, *d.type->value_field(), 0));
  STRATA_RETURN_NOT_OK(CheckBufferSize(d, path, 1, "offsets", d.offset + d.length, sizeof(OffsetT)));
  STRATA_RETURN_NOT_OK(CheckBufferSize(d, path, 2, "sizes", d.offset + d.length, sizeof(OffsetT)));
  if (d.length == 0) return Status::OK();
  const OffsetT* offsets = d.buffers[1]->data_as<OffsetT>() + d.offset;
  const OffsetT* sizes = d.buffers[2]->data_as<OffsetT>() + d.offset;
  const int64_t child_length = d.children[0]->length;
  for (int64_t i = 0; i < d.length; ++i) {
    if (!IsValidAt(d, i)) continue;
    const int64_t offset = offsets[i], size = sizes[i];
    if (offset < 0 || size < 0 || offset > child_length || size > child_length - offset) {
      return Fail(path, d, "row {} views child elements [{}, {}) of a child of {}", i, offset, offset + size,
                  child_length);
    }
  }
  return Status::OK();
}

Status Validator::Validate(const ArrayData& d, const std::string& path) {
  if (d.type == nullptr) return Status::Corrupt("{}: array has no type", path);
  if (d.length < 0) return Fail(path, d, "negative length {}", d.length);
  if (d.offset < 0) return Fail(path, d, "negative offset {}", d.offset);
  if (d.offset > std::numeric_limits<int64_t>::max() - d.length - 1) {
    return Fail(path, d, "offset {} + length {} overflows", d.offset, d.length);
  }
  const TypeId id = d.type->id();
  const size_t expected = ExpectedBufferCount(id);
  if (is_view(id) ? d.buffers.size() < expected : d.buffers.size() != expected) {
    return Fail(path, d, "{} buffers, the layout needs {}{}", d.buffers.size(), is_view(id) ? "at least " : "",
                expected);
  }
  if (id == TypeId::kNull) {
    if (d.buffers[0] != nullptr) return Fail(path, d, "null arrays have no validity buffer");
    if (d.null_count != kUnknownNullCount && d.null_count != d.length) {
      return Fail(path, d, "null_count is {}, must equal the length {}", d.null_count, d.length);
    }
    return Status::OK();
  }
  if (d.buffers[0] != nullptr) {
    const int64_t needed = bitmap::BytesForBits(d.offset + d.length);
    if (d.buffers[0]->size() < needed) {
      return Fail(path, d, "validity bitmap holds {} bytes, needs {} for offset {} + length {}", d.buffers[0]->size(),
                  needed, d.offset, d.length);
    }
  }
  STRATA_RETURN_NOT_OK(CheckNullCount(d, path));
  const size_t expected_children = id == TypeId::kStruct || is_union(id) || id == TypeId::kRunEndEncoded
                                       ? static_cast<size_t>(d.type->num_fields())
                                       : (is_nested(id) || is_list_view(id) ? 1 : 0);
  if (d.children.size() != expected_children) {
    return Fail(path, d, "{} children, the layout needs {}", d.children.size(), expected_children);
  }

  switch (id) {
    case TypeId::kBoolean: {
      const int64_t needed = bitmap::BytesForBits(d.offset + d.length);
      if (needed > 0 && BufferSize(d, 1) < needed) {
        return Fail(path, d, "values bitmap holds {} bytes, needs {}", BufferSize(d, 1), needed);
      }
      return Status::OK();
    }
    case TypeId::kBinary:
    case TypeId::kString:
      STRATA_RETURN_NOT_OK(CheckOffsets<int32_t>(d, path, BufferSize(d, 2), "data buffer"));
      if (options_.check_utf8 && id == TypeId::kString) return CheckUtf8Offsets<int32_t>(d, path);
      return Status::OK();
    case TypeId::kLargeBinary:
    case TypeId::kLargeString:
      STRATA_RETURN_NOT_OK(CheckOffsets<int64_t>(d, path, BufferSize(d, 2), "data buffer"));
      if (options_.check_utf8 && id == TypeId::kLargeString) return CheckUtf8Offsets<int64_t>(d, path);
      return Status::OK();
    case TypeId::kBinaryView:
    case TypeId::kStringView: return CheckViews(d, path);
    case TypeId::kList:
    case TypeId::kLargeList:
    case TypeId::kMap: {
      const ArrayDataPtr& child = d.children[0];
      const int64_t child_length = child ? child->length : 0;
      if (id == TypeId::kLargeList) {
        STRATA_RETURN_NOT_OK(CheckOffsets<int64_t>(d, path, child_length, "child array"));
      } else {
        STRATA_RETURN_NOT_OK(CheckOffsets<int32_t>(d, path, child_length, "child array"));
      }
      if (id == TypeId::kMap && child != nullptr) {
        if (child->GetNullCount() != 0) return Fail(path, d, "map entries hold {} nulls", child->GetNullCount());
        if (child->children.size() == 2 && child->children[0] != nullptr && child->children[0]->GetNullCount() != 0) {
          return Fail(path, d, "map keys hold {} nulls", child->children[0]->GetNullCount());
        }
      }
      return CheckChild(d, path, 0, *d.type->value_field(), 0);
    }
    case TypeId::kFixedSizeList: {
      int64_t needed;
      if (__builtin_mul_overflow(d.offset + d.length, static_cast<int64_t>(d.type->list_size()), &needed)) {
        return Fail(path, d, "child length overflows");
      }
      return CheckChild(d, path, 0, *d.type->value_field(), needed);
    }
    case TypeId::kStruct:
      for (size_t i = 0; i < d.children.size(); ++i) {
        STRATA_RETURN_NOT_OK(CheckChild(d, path, i, *d.type->field(static_cast<int>(i)), d.offset + d.length));
      }
      return Status::OK();
    case TypeId::kDictionary: return CheckDictionary(d, path);
    case TypeId::kSparseUnion:
    case TypeId::kDenseUnion: return CheckUnion(d, path);
    case TypeId::kRunEndEncoded: return CheckRunEndEncoded(d, path);
    case TypeId::kListView: return CheckListView<int32_t>(d, path);
    case TypeId::kLargeListView: return CheckListView<int64_t>(d, path);
    default:
      // Fixed-width values: integers, floats, decimals, temporal, fixed_size_binary.
      return CheckBufferSize(d, path, 1, "values", d.offset + d.length, d.type->byte_width());
  }
}

}  // namespace

Status ValidateFull(const ArrayData& data, const ValidateOptions& options) {
  return Validator(options).Validate(data, "array");
}

}  // namespace strata
