// Value and CompareOp: the column-domain values a bound predicate compares against.
#include <cmath>
#include <cstring>

#include <fmt/format.h>

#include "strata/expr/predicate.h"

namespace strata::expr {

const char* CompareOpSymbol(CompareOp op) {
  switch (op) {
    case CompareOp::kEq: return "=";
    case CompareOp::kNe: return "!=";
    case CompareOp::kLt: return "<";
    case CompareOp::kLe: return "<=";
    case CompareOp::kGt: return ">";
    case CompareOp::kGe: return ">=";
  }
  return "?";
}

Value Value::Bool(bool v) {
  Value out;
  out.kind = Kind::kBool;
  out.b = v;
  return out;
}

Value Value::Int(int64_t v) {
  Value out;
  out.kind = Kind::kInt;
  out.i = v;
  return out;
}

Value Value::UInt(uint64_t v) {
  Value out;
  out.kind = Kind::kUInt;
  out.u = v;
  return out;
}

Value Value::Double(double v) {
  Value out;
  out.kind = Kind::kDouble;
  out.d = v;
  return out;
}

Value Value::Decimal(__int128 unscaled) {
  Value out;
  out.kind = Kind::kDecimal;
  out.dec = unscaled;
  return out;
}

Value Value::Bytes(std::string v) {
  Value out;
  out.kind = Kind::kBytes;
  out.bytes = std::move(v);
  return out;
}

namespace {

template <typename T>
int Order(const T& a, const T& b) {
  return a < b ? -1 : (b < a ? 1 : 0);
}

// NaN sorts after everything and equals itself (DuckDB, PostgreSQL); -0.0 == +0.0 falls out
// of the IEEE comparisons.
int OrderDouble(double a, double b) {
  const bool a_nan = std::isnan(a);
  const bool b_nan = std::isnan(b);
  if (a_nan || b_nan) return a_nan == b_nan ? 0 : (a_nan ? 1 : -1);
  return Order(a, b);
}

int OrderBytes(const std::string& a, const std::string& b) {
  const size_t common = std::min(a.size(), b.size());
  // memcmp compares as unsigned char, the order binary statistics use.
  const int c = common == 0 ? 0 : std::memcmp(a.data(), b.data(), common);
  if (c != 0) return c < 0 ? -1 : 1;
  return Order(a.size(), b.size());
}

std::string Int128ToString(__int128 v) {
  if (v == 0) return "0";
  const bool negative = v < 0;
  // The unsigned magnitude, so that the most negative value does not overflow.
  unsigned __int128 magnitude = negative ? -static_cast<unsigned __int128>(v) : static_cast<unsigned __int128>(v);
  std::string digits;
  while (magnitude != 0) {
    digits.push_back(static_cast<char>('0' + static_cast<int>(magnitude % 10)));
    magnitude /= 10;
  }
  if (negative) digits.push_back('-');
  return std::string(digits.rbegin(), digits.rend());
}

std::string QuoteBytes(const std::string& bytes) {
  std::string out = "\"";
  for (const char c : bytes) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out.push_back('\\');
      out.push_back(c);
    } else if (u < 0x20 || u == 0x7f) {
      out += fmt::format("\\x{:02x}", u);
    } else {
      out.push_back(c);
    }
  }
  out.push_back('"');
  return out;
}

}  // namespace

int Value::Compare(const Value& other) const {
  switch (kind) {
    case Kind::kBool: return Order(b, other.b);
    case Kind::kInt: return Order(i, other.i);
    case Kind::kUInt: return Order(u, other.u);
    case Kind::kDouble: return OrderDouble(d, other.d);
    case Kind::kDecimal: return Order(dec, other.dec);
    case Kind::kBytes: return OrderBytes(bytes, other.bytes);
  }
  return 0;
}

std::string Value::ToString() const {
  switch (kind) {
    case Kind::kBool: return b ? "true" : "false";
    case Kind::kInt: return std::to_string(i);
    case Kind::kUInt: return std::to_string(u);
    case Kind::kDouble:
      if (std::isnan(d)) return "nan";
      return fmt::format("{}", d);
    case Kind::kDecimal: return Int128ToString(dec);
    case Kind::kBytes: return QuoteBytes(bytes);
  }
  return "?";
}

}  // namespace strata::expr
