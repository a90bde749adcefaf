// Test helpers (GoogleTest) that compare what two reads of one file return when their output
// options differ: string and binary values by value, whatever their layout (offsets, large
// offsets, views, dictionary), everything else exactly.
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "strata/array/array.h"
#include "strata/array/table.h"
#include "strata/array/validate.h"

namespace strata::parquet::testing {

using OptionalStrings = std::vector<std::optional<std::string>>;

// The values of a string-like array (string, binary, large or view, or a dictionary of them).
inline OptionalStrings StringValues(const Array& array) {
  const auto value = [](const Array& values, int64_t i) -> std::string {
    switch (values.type_id()) {
      case TypeId::kString:
      case TypeId::kBinary: return StringArray(values).GetString(i);
      case TypeId::kLargeString:
      case TypeId::kLargeBinary: return LargeStringArray(values).GetString(i);
      case TypeId::kStringView:
      case TypeId::kBinaryView: return BinaryViewArray(values).GetString(i);
      default: ADD_FAILURE() << "not a string-like type: " << values.type()->ToString(); return "";
    }
  };
  OptionalStrings out;
  for (int64_t i = 0; i < array.length(); ++i) {
    if (array.IsNull(i)) {
      out.push_back(std::nullopt);
    } else if (array.type_id() == TypeId::kDictionary) {
      const DictionaryArray dictionary(array);
      out.push_back(value(dictionary.dictionary(), dictionary.GetValueIndex(i)));
    } else {
      out.push_back(value(array, i));
    }
  }
  return out;
}

// `got` holds `want`'s values chunk by chunk, every chunk valid: where `want` has a string or
// binary chunk, `got`'s is in a layout `string_layout` accepts and holds the same values;
// other chunks are equal. Returns how many string chunks were compared.
inline int64_t ExpectSameValues(const Table& want, const Table& got, const std::function<bool(TypeId)>& string_layout) {
  int64_t string_chunks = 0;
  EXPECT_EQ(got.num_columns(), want.num_columns());
  for (int f = 0; f < want.num_columns() && f < got.num_columns(); ++f) {
    const auto& w_column = want.column(f);
    const auto& g_column = got.column(f);
    EXPECT_EQ(g_column->num_chunks(), w_column->num_chunks()) << "field " << f;
    for (int k = 0; k < w_column->num_chunks() && k < g_column->num_chunks(); ++k) {
      const Array& w = w_column->chunk(k);
      const Array& g = g_column->chunk(k);
      const Status valid = ValidateFull(*g.data());
      EXPECT_TRUE(valid.ok()) << "field " << f << ": " << valid.ToString();
      if (w.type_id() == TypeId::kString || w.type_id() == TypeId::kBinary) {
        EXPECT_TRUE(string_layout(g.type_id())) << "field " << f << ": " << g.type()->ToString();
        EXPECT_EQ(StringValues(g), StringValues(w)) << "field " << f << ", chunk " << k;
        ++string_chunks;
      } else {
        EXPECT_TRUE(g.Equals(w)) << "field " << f << ", chunk " << k;
      }
    }
  }
  return string_chunks;
}

}  // namespace strata::parquet::testing
