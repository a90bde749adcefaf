// ColumnValues: the values of one flat column, as a test or benchmark states them before
// TestFileBuilder encodes them into pages, and what the values read back are compared with.
// One entry per row; a null row's value is not stored. Test support, not library code: the
// storage is plain std containers, sized for the tests' data (hundreds of MB at most).
#pragma once

#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "strata/array/array.h"
#include "strata/parquet/encoding/encoding.h"
#include "strata/util/status.h"

namespace strata::parquet::testing {

class ColumnValues {
 public:
  // An empty column of `type`; `type_length` is the FIXED_LEN_BYTE_ARRAY width (ignored
  // otherwise). INT96 is stored as 12 raw bytes per value.
  explicit ColumnValues(PhysicalType type, int32_t type_length = 0);

  // Whole columns from vectors; `validity` (one entry per row, true = valid) may be empty,
  // meaning no nulls. A null row's entry in `values` is ignored.
  static ColumnValues Booleans(const std::vector<bool>& values, const std::vector<bool>& validity = {});
  static ColumnValues Int32s(const std::vector<int32_t>& values, const std::vector<bool>& validity = {});
  static ColumnValues Int64s(const std::vector<int64_t>& values, const std::vector<bool>& validity = {});
  static ColumnValues Floats(const std::vector<float>& values, const std::vector<bool>& validity = {});
  static ColumnValues Doubles(const std::vector<double>& values, const std::vector<bool>& validity = {});
  static ColumnValues ByteArrays(const std::vector<std::string>& values, const std::vector<bool>& validity = {});
  // Every valid value must be exactly `width` bytes (checked by the builder).
  static ColumnValues FixedLenByteArrays(int32_t width, const std::vector<std::string>& values,
                                         const std::vector<bool>& validity = {});

  // Appending row by row (generators of large data). The value's type must match the column:
  // AppendFixed takes value_width() bytes, AppendBytes is for BYTE_ARRAY and FLBA.
  template <typename T>
  void Append(T value) {
    static_assert(std::is_arithmetic_v<T>);
    AppendFixed(&value, sizeof(T));
  }
  void AppendBool(bool value);
  void AppendFixed(const void* bytes, int64_t size);
  void AppendBytes(std::string_view bytes);
  void AppendNull();
  // Capacity for `rows` rows and `bytes` bytes of values.
  void Reserve(int64_t rows, int64_t bytes = 0);

  PhysicalType physical_type() const { return type_; }
  int32_t type_length() const { return type_length_; }
  // Bytes of one fixed-width value (BOOLEAN: 1 byte per value here); 0 for BYTE_ARRAY.
  int value_width() const { return value_width_; }
  int64_t num_rows() const { return static_cast<int64_t>(validity_.size()); }
  int64_t null_count() const { return null_count_; }
  // True when a FIXED_LEN_BYTE_ARRAY value of another width was appended (the builder refuses
  // such a column).
  bool mismatched_width() const { return mismatched_width_; }

  bool IsValid(int64_t row) const { return validity_[static_cast<size_t>(row)] != 0; }
  // Fixed-width bytes (and booleans, one byte 0/1) of a row; undefined for a null row.
  const uint8_t* FixedValue(int64_t row) const {
    return reinterpret_cast<const uint8_t*>(bytes_.data()) + row * value_width_;
  }
  // The bytes of any row (fixed-width rows as their value_width() bytes); empty for null rows.
  std::string_view Bytes(int64_t row) const;
  bool BoolValue(int64_t row) const { return FixedValue(row)[0] != 0; }
  template <typename T>
  T Value(int64_t row) const {
    T out;
    std::memcpy(&out, FixedValue(row), sizeof(T));
    return out;
  }
  // Sum of the byte lengths of the valid values in rows [begin, end) (what SizeStatistics'
  // unencoded_byte_array_data_bytes counts for BYTE_ARRAY).
  int64_t ValueBytes(int64_t begin, int64_t end) const;

  // Compares rows [first_row, first_row + actual.length()) with an array read back. The
  // array's type may be any that keeps the physical bytes (int32, date32, int64, timestamps,
  // float, double, fixed_size_binary, binary/string and their large forms, boolean). Invalid,
  // naming the first row that differs, when they do not match.
  Status CheckEquals(const Array& actual, int64_t first_row) const;

  // The leaf of a list column (ColumnOptions::list): one entry per level entry, each with its
  // levels. Repetition 0 starts a row; definition 0 is a null list, 1 an empty list, 2 a null
  // element, 3 an element (which must be the entry's only valid kind: AppendNull the others).
  // `rows` is a row's elements, std::nullopt for a null list; an element may be null.
  template <typename T>
  static ColumnValues ListOf(PhysicalType type, const std::vector<std::optional<std::vector<std::optional<T>>>>& rows);
  void SetListLevels(std::vector<int16_t> repetition, std::vector<int16_t> definition) {
    repetition_levels_ = std::move(repetition);
    definition_levels_ = std::move(definition);
  }
  bool has_list_levels() const { return !repetition_levels_.empty(); }
  const std::vector<int16_t>& repetition_levels() const { return repetition_levels_; }
  const std::vector<int16_t>& definition_levels() const { return definition_levels_; }

 private:
  PhysicalType type_;
  int32_t type_length_ = 0;
  int value_width_ = 0;
  int64_t null_count_ = 0;
  bool mismatched_width_ = false;
  std::vector<uint8_t> validity_;  // one byte per row
  // Fixed-width: value_width_ bytes per row (null rows zero-filled). BYTE_ARRAY: the valid
  // values back to back, with offsets_[row]..offsets_[row + 1].
  std::string bytes_;
  std::vector<int64_t> offsets_;
  std::vector<int16_t> repetition_levels_, definition_levels_;  // list columns only
};

template <typename T>
ColumnValues ColumnValues::ListOf(PhysicalType type,
                                  const std::vector<std::optional<std::vector<std::optional<T>>>>& rows) {
  ColumnValues out(type);
  std::vector<int16_t> repetition, definition;
  auto entry = [&](int16_t rep, int16_t def) {
    repetition.push_back(rep);
    definition.push_back(def);
  };
  for (const auto& row : rows) {
    if (!row || row->empty()) {
      entry(0, row ? 1 : 0);
      out.AppendNull();
      continue;
    }
    for (size_t i = 0; i < row->size(); ++i) {
      const auto& element = (*row)[i];
      entry(i == 0 ? 0 : 1, element ? 3 : 2);
      if (!element) {
        out.AppendNull();
      } else if constexpr (std::is_arithmetic_v<T>) {
        out.Append(*element);
      } else {
        out.AppendBytes(*element);
      }
    }
  }
  out.SetListLevels(std::move(repetition), std::move(definition));
  return out;
}

}  // namespace strata::parquet::testing
