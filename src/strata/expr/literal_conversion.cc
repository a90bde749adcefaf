// Exact decimal reading and the rounding rules of comparisons on integer-valued domains.
#include "strata/expr/literal_conversion.h"

#include <string>

namespace strata::expr {

namespace {

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

}  // namespace

Result<ScaledNumber> ParseScaledNumber(std::string_view text, int32_t scale) {
  size_t pos = 0;
  bool negative = false;
  if (pos < text.size() && (text[pos] == '+' || text[pos] == '-')) negative = text[pos++] == '-';
  std::string digits;  // integer and fraction digits, leading zeros dropped
  int64_t fraction_digits = 0;
  bool any_digit = false;
  for (; pos < text.size() && IsDigit(text[pos]); ++pos) {
    any_digit = true;
    if (!digits.empty() || text[pos] != '0') digits.push_back(text[pos]);
  }
  if (pos < text.size() && text[pos] == '.') {
    ++pos;
    for (; pos < text.size() && IsDigit(text[pos]); ++pos) {
      any_digit = true;
      ++fraction_digits;
      if (!digits.empty() || text[pos] != '0') digits.push_back(text[pos]);
    }
  }
  int64_t exponent = 0;
  if (any_digit && pos < text.size() && (text[pos] == 'e' || text[pos] == 'E')) {
    ++pos;
    bool exponent_negative = false;
    if (pos < text.size() && (text[pos] == '+' || text[pos] == '-')) exponent_negative = text[pos++] == '-';
    if (pos >= text.size() || !IsDigit(text[pos])) return Status::Invalid("'{}' is not a number", text);
    for (; pos < text.size() && IsDigit(text[pos]); ++pos) {
      // Saturate: past a million digits of shift every value is 0 or saturated anyway.
      if (exponent < 1000000) exponent = exponent * 10 + (text[pos] - '0');
    }
    if (exponent_negative) exponent = -exponent;
  }
  if (!any_digit || pos != text.size()) return Status::Invalid("'{}' is not a number", text);

  ScaledNumber out;
  if (digits.empty()) return out;  // zero, exact
  // value = digits * 10^shift
  const int64_t shift = exponent - fraction_digits + scale;
  const int64_t length = static_cast<int64_t>(digits.size());
  const int64_t integer_digits = length + shift;  // digits left of the point after scaling
  __int128 magnitude = 0;
  if (integer_digits > 38) {
    magnitude = kSaturated;
  } else {
    for (int64_t i = 0; i < integer_digits; ++i) {
      magnitude = magnitude * 10 + (i < length ? digits[static_cast<size_t>(i)] - '0' : 0);
    }
    for (int64_t i = std::max<int64_t>(integer_digits, 0); i < length; ++i) {
      if (digits[static_cast<size_t>(i)] != '0') out.exact = false;
    }
  }
  // floor of a negative inexact value is one further from zero.
  out.floor = negative ? -magnitude - (out.exact ? 0 : 1) : magnitude;
  return out;
}

FoldedComparison FoldIntegerComparison(CompareOp op, const ScaledNumber& r, __int128 lo, __int128 hi) {
  using Kind = FoldedComparison::Kind;
  const __int128 f = r.floor;
  switch (op) {
    case CompareOp::kEq:
      if (!r.exact || f < lo || f > hi) return {Kind::kFalse};
      return {Kind::kCompare, CompareOp::kEq, f};
    case CompareOp::kNe:
      if (!r.exact || f < lo || f > hi) return {Kind::kNotNull};
      return {Kind::kCompare, CompareOp::kNe, f};
    case CompareOp::kLt:
    case CompareOp::kLe: {
      // x <= k for the largest integer k the comparison admits.
      const __int128 k = (op == CompareOp::kLt && r.exact) ? f - 1 : f;
      if (k >= hi) return {Kind::kNotNull};
      if (k < lo) return {Kind::kFalse};
      if (r.exact) return {Kind::kCompare, op, f};
      return {Kind::kCompare, CompareOp::kLe, k};
    }
    case CompareOp::kGt:
    case CompareOp::kGe: {
      // x >= k for the smallest integer k the comparison admits.
      const __int128 k = (op == CompareOp::kGe && r.exact) ? f : f + 1;
      if (k <= lo) return {Kind::kNotNull};
      if (k > hi) return {Kind::kFalse};
      if (r.exact) return {Kind::kCompare, op, f};
      return {Kind::kCompare, CompareOp::kGe, k};
    }
  }
  return {Kind::kFalse};
}

}  // namespace strata::expr
