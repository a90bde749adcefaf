// Expression: the unbound filter tree, its builder functions and its text form.
#include "strata/expr/expression.h"

#include <cmath>

#include <fmt/format.h>

namespace strata::expr {

namespace {

bool IsPlainName(const std::string& name) {
  if (name.empty()) return false;
  const auto alpha = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; };
  if (!alpha(name[0])) return false;
  for (const char c : name) {
    if (!alpha(c) && !(c >= '0' && c <= '9')) return false;
  }
  // Words the parser reads as keywords must be quoted to stay column names.
  static const char* const kKeywords[] = {"and", "or", "not", "in", "is", "null", "true", "false", "inf", "nan"};
  std::string lower;
  for (const char c : name) lower.push_back(static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c));
  for (const char* keyword : kKeywords) {
    if (lower == keyword) return false;
  }
  return true;
}

std::string QuoteName(const std::string& name) {
  if (IsPlainName(name)) return name;
  std::string out = "\"";
  for (const char c : name) {
    if (c == '"') out.push_back('"');
    out.push_back(c);
  }
  return out + "\"";
}

std::string ColumnToString(const std::vector<std::string>& path) {
  std::string out;
  for (size_t i = 0; i < path.size(); ++i) {
    if (i > 0) out.push_back('.');
    out += QuoteName(path[i]);
  }
  return out;
}

// Children that are AND / OR get parentheses, so the text parses back to the same tree
// whatever the precedence.
std::string ChildToString(const Expression& child) {
  const bool compound = child.kind() == Expression::Kind::kAnd || child.kind() == Expression::Kind::kOr;
  if (!compound) return child.ToString();
  std::string out = "(";
  out += child.ToString();
  out += ")";
  return out;
}

ExpressionPtr MakeCombination(Expression::Kind kind, std::vector<ExpressionPtr> children) {
  if (children.size() == 1) return std::move(children[0]);
  return std::make_shared<const Expression>(kind, std::vector<std::string>{}, CompareOp::kEq, std::vector<Literal>{},
                                            false, std::move(children));
}

}  // namespace

Literal Literal::Bool(bool v) { return Literal{Kind::kBool, v ? "true" : "false"}; }

Literal Literal::Integer(int64_t v) { return Literal{Kind::kInteger, std::to_string(v)}; }

Literal Literal::Decimal(std::string digits) { return Literal{Kind::kDecimal, std::move(digits)}; }

Literal Literal::Float(double v) {
  if (std::isnan(v)) return Literal{Kind::kFloat, "nan"};
  if (std::isinf(v)) return Literal{Kind::kFloat, v < 0 ? "-inf" : "inf"};
  // Shortest round-trip digits; an exponent keeps it a float literal when re-parsed ("3e0",
  // not the integer "3").
  std::string text = fmt::format("{}", v);
  if (text.find_first_of("eE") == std::string::npos) text += "e0";
  return Literal{Kind::kFloat, std::move(text)};
}

Literal Literal::String(std::string v) { return Literal{Kind::kString, std::move(v)}; }

Literal Literal::Null() { return Literal{Kind::kNull, "null"}; }

std::string Literal::ToString() const {
  switch (kind) {
    case Kind::kString: {
      std::string out = "'";
      for (const char c : text) {
        if (c == '\'') out.push_back('\'');
        out.push_back(c);
      }
      return out + "'";
    }
    case Kind::kNull: return "null";
    default: return text;
  }
}

Expression::Expression(Kind kind, std::vector<std::string> column, CompareOp op, std::vector<Literal> literals,
                       bool negated, std::vector<ExpressionPtr> children)
    : kind_(kind),
      column_(std::move(column)),
      op_(op),
      literals_(std::move(literals)),
      negated_(negated),
      children_(std::move(children)) {}

std::string Expression::ToString() const {
  switch (kind_) {
    case Kind::kCompare:
      return fmt::format("{} {} {}", ColumnToString(column_), CompareOpSymbol(op_),
                         literals_.empty() ? "null" : literals_[0].ToString());
    case Kind::kIn: {
      std::string out = ColumnToString(column_) + (negated_ ? " NOT IN (" : " IN (");
      for (size_t i = 0; i < literals_.size(); ++i) {
        if (i > 0) out += ", ";
        out += literals_[i].ToString();
      }
      return out + ")";
    }
    case Kind::kIsNull: return ColumnToString(column_) + (negated_ ? " IS NOT NULL" : " IS NULL");
    case Kind::kNot: {
      std::string out = "NOT ";
      out += children_.empty() ? std::string("?") : ChildToString(*children_[0]);
      return out;
    }
    case Kind::kAnd:
    case Kind::kOr: {
      std::string out;
      for (size_t i = 0; i < children_.size(); ++i) {
        if (i > 0) out += kind_ == Kind::kAnd ? " AND " : " OR ";
        out += ChildToString(*children_[i]);
      }
      return out;
    }
  }
  return "?";
}

bool Expression::Equals(const Expression& other) const {
  if (kind_ != other.kind_ || column_ != other.column_ || literals_ != other.literals_ ||
      children_.size() != other.children_.size()) {
    return false;
  }
  if (kind_ == Kind::kCompare && op_ != other.op_) return false;
  if ((kind_ == Kind::kIn || kind_ == Kind::kIsNull) && negated_ != other.negated_) return false;
  for (size_t i = 0; i < children_.size(); ++i) {
    if (!children_[i]->Equals(*other.children_[i])) return false;
  }
  return true;
}

ExpressionPtr Compare(const ColumnRef& column, CompareOp op, Literal literal) {
  return std::make_shared<const Expression>(Expression::Kind::kCompare, column.path(), op,
                                            std::vector<Literal>{std::move(literal)}, false,
                                            std::vector<ExpressionPtr>{});
}
ExpressionPtr Equal(const ColumnRef& column, Literal literal) {
  return Compare(column, CompareOp::kEq, std::move(literal));
}
ExpressionPtr NotEqual(const ColumnRef& column, Literal literal) {
  return Compare(column, CompareOp::kNe, std::move(literal));
}
ExpressionPtr Less(const ColumnRef& column, Literal literal) {
  return Compare(column, CompareOp::kLt, std::move(literal));
}
ExpressionPtr LessEqual(const ColumnRef& column, Literal literal) {
  return Compare(column, CompareOp::kLe, std::move(literal));
}
ExpressionPtr Greater(const ColumnRef& column, Literal literal) {
  return Compare(column, CompareOp::kGt, std::move(literal));
}
ExpressionPtr GreaterEqual(const ColumnRef& column, Literal literal) {
  return Compare(column, CompareOp::kGe, std::move(literal));
}

ExpressionPtr In(const ColumnRef& column, std::vector<Literal> list) {
  return std::make_shared<const Expression>(Expression::Kind::kIn, column.path(), CompareOp::kEq, std::move(list),
                                            false, std::vector<ExpressionPtr>{});
}
ExpressionPtr NotIn(const ColumnRef& column, std::vector<Literal> list) {
  return std::make_shared<const Expression>(Expression::Kind::kIn, column.path(), CompareOp::kEq, std::move(list),
                                            true, std::vector<ExpressionPtr>{});
}

ExpressionPtr IsNull(const ColumnRef& column) {
  return std::make_shared<const Expression>(Expression::Kind::kIsNull, column.path(), CompareOp::kEq,
                                            std::vector<Literal>{}, false, std::vector<ExpressionPtr>{});
}
ExpressionPtr IsNotNull(const ColumnRef& column) {
  return std::make_shared<const Expression>(Expression::Kind::kIsNull, column.path(), CompareOp::kEq,
                                            std::vector<Literal>{}, true, std::vector<ExpressionPtr>{});
}

ExpressionPtr And(std::vector<ExpressionPtr> children) {
  return MakeCombination(Expression::Kind::kAnd, std::move(children));
}
ExpressionPtr Or(std::vector<ExpressionPtr> children) {
  return MakeCombination(Expression::Kind::kOr, std::move(children));
}

ExpressionPtr Not(ExpressionPtr child) {
  return std::make_shared<const Expression>(Expression::Kind::kNot, std::vector<std::string>{}, CompareOp::kEq,
                                            std::vector<Literal>{}, false,
                                            std::vector<ExpressionPtr>{std::move(child)});
}

}  // namespace strata::expr
