// ColumnTypeInferrer: the type of one CSV column from the fields seen in a sample (or the
// whole file), for the reader to hand to the column converters. Kinds form a lattice, not a
// fixed order of attempts:
//   null < boolean
//   null < int64 < float64   (only while every integer is exact as a double: |v| <= 2^53)
//   null < date32 < timestamp[unit]
//   null < timestamp[unit, tz=UTC]   (values with 'Z' or an offset)
//   null < time64[unit]
// and any two kinds without a common upper bound make the column utf8 (binary when its bytes
// are not UTF-8 and ConvertOptions::validate_utf8 is off). Units are microseconds unless a
// value has non-zero digits below the microsecond, then nanoseconds. With all_strings every
// column is utf8 (binary only when validate_utf8 is off and some field is not UTF-8: a utf8
// array must hold UTF-8).
#pragma once

#include <cstdint>

#include "strata/csv/parsed_rows.h"
#include "strata/csv/read_options.h"
#include "strata/csv/value_parsing.h"
#include "strata/types/data_type.h"

namespace strata::csv {

class ColumnTypeInferrer {
 public:
  // Keeps a reference to `options` (its spellings), which must outlive the inferrer.
  explicit ColumnTypeInferrer(const ConvertOptions& options);

  // Looks at field `column` of every row of `rows`. Fields: kMissing and unquoted null
  // spellings are nulls; a quoted field is typed by its text like an unquoted one ("42"
  // is an int64), except a quoted empty field, which is an empty string and makes the
  // column utf8. Once the column is utf8 the remaining fields are skipped (with
  // validate_utf8 off they are still checked for UTF-8, to tell utf8 from binary).
  void Observe(const ParsedRows& rows, int column);

  // The type so far: null until a non-null value is seen.
  TypePtr type() const;
  // Fields observed, null or not, over every Observe() call.
  int64_t values_seen() const { return values_seen_; }
  // True when more fields cannot change type() any more (utf8 with validation on, binary).
  bool settled() const { return group_ == Group::kString && (validate_utf8_ || invalid_utf8_); }

 private:
  // The family of kinds seen so far: once one is chosen, only its parsers run and a field
  // that fails them makes the column a string.
  enum class Group : uint8_t { kNone, kBoolean, kNumber, kDateTime, kTime, kString };
  // Kinds within a family, as bits.
  static constexpr uint8_t kInt = 1, kFloat = 2, kDate = 4, kNaive = 8, kZoned = 16;

  void ObserveText(std::string_view text);
  bool ObserveNumber(std::string_view text);
  bool ObserveDateTime(std::string_view text);
  bool ObserveTime(std::string_view text);
  void BecomeString() { group_ = Group::kString; }
  void ObserveStringBytes(std::string_view text);

  SpellingSet nulls_;
  SpellingSet trues_;
  SpellingSet falses_;
  bool all_strings_;
  bool validate_utf8_;

  Group group_ = Group::kNone;
  uint8_t kinds_ = 0;
  bool needs_nanos_ = false;        // a timestamp or time with digits below the microsecond
  bool beyond_nanos_range_ = false;  // a timestamp outside what int64 nanoseconds can hold
  bool inexact_as_double_ = false;   // an integer with |v| > 2^53
  bool invalid_utf8_ = false;
  int64_t values_seen_ = 0;
};

}  // namespace strata::csv
