// Expression: a filter as written (the --filter text or the C++ builder), before it is bound
// to a schema (bind.h). Columns are names or dotted paths; literals keep their spelling so
// that binding can read them as the column's type (a decimal as exactly its digits, a string
// as a date, time or timestamp for such a column).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "strata/expr/predicate.h"

namespace strata::expr {

struct Literal {
  enum class Kind : uint8_t { kBool, kInteger, kDecimal, kFloat, kString, kNull };
  Kind kind = Kind::kInteger;
  // kInteger / kDecimal / kFloat: the number as written ("-12", "3.25", "1e-3", "inf", "nan");
  // kString: the string's value (quotes and '' escapes removed); kBool: "true" / "false".
  std::string text;

  static Literal Bool(bool v);
  static Literal Integer(int64_t v);
  static Literal Decimal(std::string digits);  // "12.50"
  static Literal Float(double v);
  static Literal String(std::string v);
  static Literal Null();

  bool operator==(const Literal& other) const { return kind == other.kind && text == other.text; }
  // The literal as the parser reads it: 'it''s', -12, 2.5e3, true, null.
  std::string ToString() const;
};

class Expression;
using ExpressionPtr = std::shared_ptr<const Expression>;

class Expression {
 public:
  enum class Kind : uint8_t { kCompare, kIn, kIsNull, kAnd, kOr, kNot };

  Kind kind() const { return kind_; }
  // kCompare, kIn, kIsNull: the column path ("s.x" -> {"s", "x"}).
  const std::vector<std::string>& column() const { return column_; }
  CompareOp op() const { return op_; }
  // kCompare: one literal; kIn: the list.
  const std::vector<Literal>& literals() const { return literals_; }
  // kIn: NOT IN; kIsNull: IS NOT NULL.
  bool negated() const { return negated_; }
  // kAnd / kOr: two or more; kNot: one.
  const std::vector<ExpressionPtr>& children() const { return children_; }

  // The text form, parseable again by ParseFilter.
  std::string ToString() const;
  // Structural equality: same tree, columns, operators and literal spellings.
  bool Equals(const Expression& other) const;

  Expression(Kind kind, std::vector<std::string> column, CompareOp op, std::vector<Literal> literals, bool negated,
             std::vector<ExpressionPtr> children);

 private:
  Kind kind_;
  std::vector<std::string> column_;
  CompareOp op_;
  std::vector<Literal> literals_;
  bool negated_;
  std::vector<ExpressionPtr> children_;
};

// The C++ builder. And / Or of a single child return that child. Column names are taken
// whole (no dot splitting): Column("a.b") is a column
// named "a.b"; Path({"s", "x"}) is field x of struct s.
class ColumnRef {
 public:
  explicit ColumnRef(std::string name) : path_{std::move(name)} {}
  explicit ColumnRef(std::vector<std::string> path) : path_(std::move(path)) {}
  const std::vector<std::string>& path() const { return path_; }

 private:
  std::vector<std::string> path_;
};
inline ColumnRef Column(std::string name) { return ColumnRef(std::move(name)); }
inline ColumnRef Path(std::vector<std::string> path) { return ColumnRef(std::move(path)); }

ExpressionPtr Compare(const ColumnRef& column, CompareOp op, Literal literal);
ExpressionPtr Equal(const ColumnRef& column, Literal literal);
ExpressionPtr NotEqual(const ColumnRef& column, Literal literal);
ExpressionPtr Less(const ColumnRef& column, Literal literal);
ExpressionPtr LessEqual(const ColumnRef& column, Literal literal);
ExpressionPtr Greater(const ColumnRef& column, Literal literal);
ExpressionPtr GreaterEqual(const ColumnRef& column, Literal literal);
ExpressionPtr In(const ColumnRef& column, std::vector<Literal> list);
ExpressionPtr NotIn(const ColumnRef& column, std::vector<Literal> list);
ExpressionPtr IsNull(const ColumnRef& column);
ExpressionPtr IsNotNull(const ColumnRef& column);
ExpressionPtr And(std::vector<ExpressionPtr> children);
ExpressionPtr Or(std::vector<ExpressionPtr> children);
ExpressionPtr Not(ExpressionPtr child);

}  // namespace strata::expr
