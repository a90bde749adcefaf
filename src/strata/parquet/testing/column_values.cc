#include "strata/parquet/testing/column_values.h"

#include <algorithm>

#include <fmt/format.h>

namespace strata::parquet::testing {
namespace {

std::string Printable(std::string_view bytes) {
  std::string out;
  for (size_t i = 0; i < bytes.size() && i < 24; ++i) {
    const auto c = static_cast<unsigned char>(bytes[i]);
    out += (c >= 0x20 && c < 0x7f) ? std::string(1, static_cast<char>(c)) : fmt::format("\\x{:02x}", c);
  }
  if (bytes.size() > 24) out += fmt::format("... ({} bytes)", bytes.size());
  return out;
}

bool ValidAt(const std::vector<bool>& validity, size_t row) { return validity.empty() || validity[row]; }

template <typename T>
ColumnValues FromVector(PhysicalType type, const std::vector<T>& values, const std::vector<bool>& validity) {
  ColumnValues out(type);
  out.Reserve(static_cast<int64_t>(values.size()));
  for (size_t i = 0; i < values.size(); ++i) {
    if (ValidAt(validity, i)) {
      out.Append<T>(values[i]);
    } else {
      out.AppendNull();
    }
  }
  return out;
}

}  // namespace

ColumnValues::ColumnValues(PhysicalType type, int32_t type_length) : type_(type) {
  switch (type) {
    case PhysicalType::kBoolean:
      value_width_ = 1;
      break;
    case PhysicalType::kByteArray:
      value_width_ = 0;
      offsets_.push_back(0);
      break;
    case PhysicalType::kFixedLenByteArray:
      type_length_ = type_length;
      value_width_ = type_length;
      break;
    default:
      value_width_ = PhysicalTypeByteWidth(type);
      break;
  }
}

ColumnValues ColumnValues::Booleans(const std::vector<bool>& values, const std::vector<bool>& validity) {
  ColumnValues out(PhysicalType::kBoolean);
  out.Reserve(static_cast<int64_t>(values.size()));
  for (size_t i = 0; i < values.size(); ++i) {
    if (ValidAt(validity, i)) {
      out.AppendBool(values[i]);
    } else {
      out.AppendNull();
    }
  }
  return out;
}

ColumnValues ColumnValues::Int32s(const std::vector<int32_t>& values, const std::vector<bool>& validity) {
  return FromVector(PhysicalType::kInt32, values, validity);
}
ColumnValues ColumnValues::Int64s(const std::vector<int64_t>& values, const std::vector<bool>& validity) {
  return FromVector(PhysicalType::kInt64, values, validity);
}
ColumnValues ColumnValues::Floats(const std::vector<float>& values, const std::vector<bool>& validity) {
  return FromVector(PhysicalType::kFloat, values, validity);
}
ColumnValues ColumnValues::Doubles(const std::vector<double>& values, const std::vector<bool>& validity) {
  return FromVector(PhysicalType::kDouble, values, validity);
}

ColumnValues ColumnValues::ByteArrays(const std::vector<std::string>& values, const std::vector<bool>& validity) {
  ColumnValues out(PhysicalType::kByteArray);
  int64_t bytes = 0;
  for (const auto& v : values) bytes += static_cast<int64_t>(v.size());
  out.Reserve(static_cast<int64_t>(values.size()), bytes);
  for (size_t i = 0; i < values.size(); ++i) {
    if (ValidAt(validity, i)) {
      out.AppendBytes(values[i]);
    } else {
      out.AppendNull();
    }
  }
  return out;
}

ColumnValues ColumnValues::FixedLenByteArrays(int32_t width, const std::vector<std::string>& values,
                                              const std::vector<bool>& validity) {
  ColumnValues out(PhysicalType::kFixedLenByteArray, width);
  out.Reserve(static_cast<int64_t>(values.size()));
  for (size_t i = 0; i < values.size(); ++i) {
    if (ValidAt(validity, i)) {
      out.AppendBytes(values[i]);
    } else {
      out.AppendNull();
    }
  }
  return out;
}

void ColumnValues::AppendBool(bool value) {
  const uint8_t byte = value ? 1 : 0;
  AppendFixed(&byte, 1);
}

void ColumnValues::AppendFixed(const void* bytes, int64_t size) {
  // A mismatched width is a bug in the test; keep the layout consistent (pad or cut) so the
  // builder's checks, not memory errors, report it.
  const size_t start = bytes_.size();
  bytes_.resize(start + static_cast<size_t>(value_width_), '\0');
  std::memcpy(bytes_.data() + start, bytes, static_cast<size_t>(std::min<int64_t>(size, value_width_)));
  validity_.push_back(1);
}

void ColumnValues::AppendBytes(std::string_view bytes) {
  if (type_ != PhysicalType::kByteArray) {
    if (static_cast<int64_t>(bytes.size()) != value_width_) mismatched_width_ = true;
    AppendFixed(bytes.data(), static_cast<int64_t>(bytes.size()));
    return;
  }
  bytes_.append(bytes);
  offsets_.push_back(static_cast<int64_t>(bytes_.size()));
  validity_.push_back(1);
}

void ColumnValues::AppendNull() {
  if (type_ == PhysicalType::kByteArray) {
    offsets_.push_back(static_cast<int64_t>(bytes_.size()));
  } else {
    bytes_.resize(bytes_.size() + static_cast<size_t>(value_width_), '\0');
  }
  validity_.push_back(0);
  ++null_count_;
}

void ColumnValues::Reserve(int64_t rows, int64_t bytes) {
  validity_.reserve(static_cast<size_t>(rows));
  if (type_ == PhysicalType::kByteArray) {
    offsets_.reserve(static_cast<size_t>(rows) + 1);
    bytes_.reserve(static_cast<size_t>(bytes));
  } else {
    bytes_.reserve(static_cast<size_t>(rows * value_width_));
  }
}

std::string_view ColumnValues::Bytes(int64_t row) const {
  if (!IsValid(row)) return {};
  if (type_ == PhysicalType::kByteArray) {
    const auto begin = static_cast<size_t>(offsets_[static_cast<size_t>(row)]);
    const auto end = static_cast<size_t>(offsets_[static_cast<size_t>(row) + 1]);
    return std::string_view(bytes_).substr(begin, end - begin);
  }
  return std::string_view(bytes_).substr(static_cast<size_t>(row * value_width_), static_cast<size_t>(value_width_));
}

int64_t ColumnValues::ValueBytes(int64_t begin, int64_t end) const {
  if (type_ == PhysicalType::kByteArray) {
    return offsets_[static_cast<size_t>(end)] - offsets_[static_cast<size_t>(begin)];
  }
  int64_t valid = 0;
  for (int64_t i = begin; i < end; ++i) valid += validity_[static_cast<size_t>(i)];
  return valid * value_width_;
}

Status ColumnValues::CheckEquals(const Array& actual, int64_t first_row) const {
  const int64_t n = actual.length();
  if (first_row < 0 || first_row + n > num_rows()) {
    return Status::Invalid("{} rows read at row {}, but the column has {} rows", n, first_row, num_rows());
  }
  const TypeId id = actual.type_id();
  for (int64_t i = 0; i < n; ++i) {
    const int64_t row = first_row + i;
    if (actual.IsValid(i) != IsValid(row)) {
      return Status::Invalid("row {}: expected {}, read {}", row, IsValid(row) ? "a value" : "null",
                             actual.IsValid(i) ? "a value" : "null");
    }
  }
  auto mismatch = [&](int64_t i, std::string_view read) {
    return Status::Invalid("row {} ({} of the batch): expected '{}', read '{}'", first_row + i, i,
                           Printable(Bytes(first_row + i)), Printable(read));
  };
  if (id == TypeId::kBoolean) {
    const BooleanArray array(actual);
    for (int64_t i = 0; i < n; ++i) {
      if (actual.IsValid(i) && array.Value(i) != BoolValue(first_row + i)) {
        return mismatch(i, array.Value(i) ? "\x01" : std::string_view("\0", 1));
      }
    }
    return Status::OK();
  }
  if (is_binary_like(id) || is_large_binary_like(id)) {
    if (type_ != PhysicalType::kByteArray) return Status::Invalid("a {} array for a fixed-width column", actual.type()->ToString());
    for (int64_t i = 0; i < n; ++i) {
      if (!actual.IsValid(i)) continue;
      const std::string_view read =
          is_binary_like(id) ? StringArray(actual).GetView(i) : LargeBinaryArray(actual).GetView(i);
      if (read != Bytes(first_row + i)) return mismatch(i, read);
    }
    return Status::OK();
  }
  if (is_primitive_fixed_width(id) && actual.type()->byte_width() == value_width_) {
    const uint8_t* values = actual.data()->buffers[1]->data() + actual.offset() * value_width_;
    for (int64_t i = 0; i < n; ++i) {
      if (!actual.IsValid(i)) continue;
      const std::string_view read(reinterpret_cast<const char*>(values + i * value_width_),
                                  static_cast<size_t>(value_width_));
      if (read != Bytes(first_row + i)) return mismatch(i, read);
    }
    return Status::OK();
  }
  return Status::NotImplemented("comparing {} values with a {} array", PhysicalTypeName(type_),
                                actual.type()->ToString());
}

}  // namespace strata::parquet::testing
