#include "strata/csv/type_inference.h"

#include "strata/util/utf8.h"

namespace strata::csv {

namespace {
constexpr int64_t kMaxExactInteger = int64_t{1} << 53;
// Seconds that int64 nanoseconds reach on either side of the epoch (about 1677 .. 2262).
constexpr int64_t kMinNanosSeconds = -9223372036;
constexpr int64_t kMaxNanosSeconds = 9223372035;
}  // namespace

ColumnTypeInferrer::ColumnTypeInferrer(const ConvertOptions& options)
    : nulls_(options.null_values),
      trues_(options.true_values),
      falses_(options.false_values),
      all_strings_(options.all_strings),
      validate_utf8_(options.validate_utf8) {
  if (all_strings_) group_ = Group::kString;
}

void ColumnTypeInferrer::Observe(const ParsedRows& rows, int column) {
  const int64_t num_rows = rows.num_rows();
  values_seen_ += num_rows;
  if (settled()) return;
  int64_t row = 0;
  // Until the column is a string: classify every non-null field.
  for (; row < num_rows && group_ != Group::kString; ++row) {
    const FieldKind kind = rows.Kind(row, column);
    if (kind == FieldKind::kMissing) continue;
    const std::string_view text = rows.Field(row, column);
    if (kind == FieldKind::kPlain && nulls_.Contains(text)) continue;
    if (text.empty()) {  // quoted: an empty string value
      BecomeString();
      break;
    }
    ObserveText(text);
    if (group_ == Group::kString) break;
  }
  if (validate_utf8_) return;
  // A string column without validation: binary as soon as some field is not UTF-8, from
  // the field that made the column a string on.
  for (; row < num_rows && !invalid_utf8_; ++row) {
    if (rows.Kind(row, column) != FieldKind::kMissing) ObserveStringBytes(rows.Field(row, column));
  }
}

void ColumnTypeInferrer::ObserveStringBytes(std::string_view text) {
  if (!ValidateUtf8(text)) invalid_utf8_ = true;
}

void ColumnTypeInferrer::ObserveText(std::string_view text) {
  switch (group_) {
    case Group::kNone: {
      // Cheapest tests first; the first one that fits picks the family.
      if (trues_.Contains(text) || falses_.Contains(text)) {
        group_ = Group::kBoolean;
        return;
      }
      if (text.size() >= 10 && text[4] == '-' && ObserveDateTime(text)) {
        group_ = Group::kDateTime;
        return;
      }
      if (text.size() >= 8 && text[2] == ':' && ObserveTime(text)) {
        group_ = Group::kTime;
        return;
      }
      if (ObserveNumber(text)) {
        group_ = Group::kNumber;
        return;
      }
      BecomeString();
      return;
    }
    case Group::kBoolean:
      if (!trues_.Contains(text) && !falses_.Contains(text)) BecomeString();
      return;
    case Group::kNumber:
      if (!ObserveNumber(text)) BecomeString();
      return;
    case Group::kDateTime:
      if (!ObserveDateTime(text)) BecomeString();
      return;
    case Group::kTime:
      if (!ObserveTime(text)) BecomeString();
      return;
    case Group::kString:
      return;
  }
}

bool ColumnTypeInferrer::ObserveNumber(std::string_view text) {
  int64_t integer;
  if (ParseInt64(text, &integer, NumberSyntax::kStrict)) {
    if (integer > kMaxExactInteger || integer < -kMaxExactInteger) inexact_as_double_ = true;
    kinds_ |= kInt;
  } else {
    // An integer too big for int64, or with leading zeros, is text: never a float.
    double real;
    if (LooksLikeInteger(text) || !ParseFloat64(text, &real, NumberSyntax::kStrict)) return false;
    kinds_ |= kFloat;
  }
  // int64 + float64 -> float64 only when every integer is exact as a double.
  return !((kinds_ & kFloat) && inexact_as_double_);
}

bool ColumnTypeInferrer::ObserveDateTime(std::string_view text) {
  TimestampValue value;
  if (!ParseTimestamp(text, &value)) return false;
  kinds_ |= !value.has_time ? kDate : value.has_zone ? kZoned : kNaive;
  if (NeedsNanoseconds(value.nanos)) needs_nanos_ = true;
  if (value.seconds < kMinNanosSeconds || value.seconds > kMaxNanosSeconds) beyond_nanos_range_ = true;
  // Zoned instants do not mix with naive dates or timestamps, and nanoseconds must fit.
  if ((kinds_ & kZoned) && (kinds_ & (kDate | kNaive))) return false;
  return !(needs_nanos_ && beyond_nanos_range_);
}

bool ColumnTypeInferrer::ObserveTime(std::string_view text) {
  TimeOfDay value;
  if (!ParseTime(text, &value)) return false;
  if (NeedsNanoseconds(value.nanos)) needs_nanos_ = true;
  return true;
}

TypePtr ColumnTypeInferrer::type() const {
  const TimeUnit unit = needs_nanos_ ? TimeUnit::kNano : TimeUnit::kMicro;
  switch (group_) {
    case Group::kNone: return null();
    case Group::kBoolean: return boolean();
    case Group::kNumber: return (kinds_ & kFloat) ? float64() : int64();
    case Group::kDateTime:
      if (kinds_ & kZoned) return timestamp(unit, "UTC");
      return (kinds_ & kNaive) ? timestamp(unit) : date32();
    case Group::kTime: return time64(unit);
    case Group::kString: return invalid_utf8_ ? binary() : utf8();
  }
  return utf8();
}

}  // namespace strata::csv
