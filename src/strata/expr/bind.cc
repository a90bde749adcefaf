// Bind: resolves columns, pushes NOT down to the leaves, and converts every literal into the
// column's value domain, folding comparisons that the domain decides on its own.
#include "strata/expr/bind.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>

#include <fmt/format.h>

#include "strata/expr/literal_conversion.h"
#include "strata/expr/temporal_literals.h"

namespace strata::expr {

namespace {

struct ResolvedColumn {
  std::vector<int> path;
  std::string name;  // dotted
  TypePtr type;      // dictionary value type for dictionary columns
};

std::string JoinNames(const std::vector<std::string>& names, size_t limit = 40) {
  std::string out;
  for (size_t i = 0; i < names.size() && i < limit; ++i) out += (i > 0 ? ", " : "") + names[i];
  if (names.size() > limit) out += fmt::format(", ... ({} more)", names.size() - limit);
  return out;
}

std::vector<std::string> FieldNames(const std::vector<FieldPtr>& fields) {
  std::vector<std::string> names;
  names.reserve(fields.size());
  for (const FieldPtr& f : fields) names.push_back(f->name());
  return names;
}

TypePtr ValueTypeOf(const TypePtr& type) {
  return type->id() == TypeId::kDictionary ? type->value_type() : type;
}

Result<ResolvedColumn> Resolve(const std::vector<std::string>& column, const Schema& schema) {
  if (column.empty()) return Status::Invalid("filter: a comparison without a column");
  std::string dotted;
  for (size_t i = 0; i < column.size(); ++i) dotted += (i > 0 ? "." : "") + column[i];
  ResolvedColumn out;
  out.name = dotted;
  // A top-level field whose name contains dots wins over a struct path of the same spelling.
  if (column.size() > 1) {
    const int whole = schema.GetFieldIndex(dotted);
    if (whole >= 0) {
      out.path = {whole};
      out.type = ValueTypeOf(schema.field(whole)->type());
      return out;
    }
  }
  const int top = schema.GetFieldIndex(column[0]);
  if (top < 0) {
    return Status::Invalid("filter: no column \"{}\" in the schema; columns: {}", column[0],
                           JoinNames(FieldNames(schema.fields())));
  }
  out.path = {top};
  TypePtr type = ValueTypeOf(schema.field(top)->type());
  std::string walked = column[0];
  for (size_t i = 1; i < column.size(); ++i) {
    if (type->id() != TypeId::kStruct) {
      return Status::Invalid("filter: column \"{}\": \"{}\" is {}, not a struct", dotted, walked, type->ToString());
    }
    int member = -1;
    for (int m = 0; m < type->num_fields(); ++m) {
      if (type->field(m)->name() == column[i]) {
        member = m;
        break;
      }
    }
    if (member < 0) {
      return Status::Invalid("filter: no field \"{}\" in struct column \"{}\"; fields: {}", column[i], walked,
                             JoinNames(FieldNames(type->fields())));
    }
    out.path.push_back(member);
    walked += "." + column[i];
    type = ValueTypeOf(type->field(member)->type());
  }
  out.type = type;
  return out;
}

CompareOp Negate(CompareOp op) {
  switch (op) {
    case CompareOp::kEq: return CompareOp::kNe;
    case CompareOp::kNe: return CompareOp::kEq;
    case CompareOp::kLt: return CompareOp::kGe;
    case CompareOp::kLe: return CompareOp::kGt;
    case CompareOp::kGt: return CompareOp::kLe;
    case CompareOp::kGe: return CompareOp::kLt;
  }
  return op;
}

// One comparison after conversion: a constant answer for non-null rows, or a leaf value.
struct Converted {
  enum class Kind : uint8_t { kFalse, kNotNull, kCompare };
  Kind kind = Kind::kCompare;
  CompareOp op = CompareOp::kEq;
  Value value;

  static Converted False() { return Converted{Kind::kFalse, CompareOp::kEq, Value{}}; }
  static Converted NotNull() { return Converted{Kind::kNotNull, CompareOp::kEq, Value{}}; }
};

// Integer-valued domains: their bounds and how a result becomes a Value.
struct IntegerDomain {
  __int128 lo = 0;
  __int128 hi = 0;
  Value::Kind kind = Value::Kind::kInt;
  int32_t scale = 0;  // decimals: literals are read at this scale
};

template <typename T>
IntegerDomain DomainOf(Value::Kind kind = Value::Kind::kInt) {
  return {std::numeric_limits<T>::min(), std::numeric_limits<T>::max(), kind, 0};
}

Value MakeValue(const IntegerDomain& domain, __int128 v) {
  switch (domain.kind) {
    case Value::Kind::kUInt: return Value::UInt(static_cast<uint64_t>(v));
    case Value::Kind::kDecimal: return Value::Decimal(v);
    default: return Value::Int(static_cast<int64_t>(v));
  }
}

bool IsInfOrNaN(const Literal& literal) {
  if (literal.kind != Literal::Kind::kFloat) return false;
  std::string_view t = literal.text;
  if (!t.empty() && (t[0] == '+' || t[0] == '-')) t.remove_prefix(1);
  return t == "inf" || t == "nan";
}

class LiteralConverter {
 public:
  explicit LiteralConverter(const ResolvedColumn& column) : column_(column) {}

  // Checks that the column's type can be compared at all.
  Status CheckComparable() const {
    const TypeId id = column_.type->id();
    if (id == TypeId::kDecimal256) {
      return Status::Invalid("filter: column \"{}\": filters on decimal256 columns are not supported", column_.name);
    }
    if (is_nested(id) || id == TypeId::kDictionary) {
      return Status::Invalid("filter: column \"{}\" is {}: a nested column cannot be compared with a value",
                             column_.name, column_.type->ToString());
    }
    return Status::OK();
  }

  Result<Converted> Convert(CompareOp op, const Literal& literal) const {
    const TypeId id = column_.type->id();
    if (id == TypeId::kNull) return Converted::False();
    if (id == TypeId::kBoolean) return ConvertBool(op, literal);
    if (is_floating(id)) return ConvertFloat(op, literal);
    if (is_binary_like(id) || is_large_binary_like(id) || is_view(id) || id == TypeId::kFixedSizeBinary) {
      return ConvertBytes(op, literal);
    }
    IntegerDomain domain;
    switch (id) {
      case TypeId::kInt8: domain = DomainOf<int8_t>(); break;
      case TypeId::kInt16: domain = DomainOf<int16_t>(); break;
      case TypeId::kInt32: domain = DomainOf<int32_t>(); break;
      case TypeId::kInt64: domain = DomainOf<int64_t>(); break;
      case TypeId::kUInt8: domain = DomainOf<uint8_t>(Value::Kind::kUInt); break;
      case TypeId::kUInt16: domain = DomainOf<uint16_t>(Value::Kind::kUInt); break;
      case TypeId::kUInt32: domain = DomainOf<uint32_t>(Value::Kind::kUInt); break;
      case TypeId::kUInt64: domain = DomainOf<uint64_t>(Value::Kind::kUInt); break;
      case TypeId::kDate32:
      case TypeId::kTime32: domain = DomainOf<int32_t>(); break;
      case TypeId::kDate64:
      case TypeId::kTime64:
      case TypeId::kTimestamp:
      case TypeId::kDuration: domain = DomainOf<int64_t>(); break;
      case TypeId::kDecimal128: {
        __int128 limit = 1;
        for (int32_t i = 0; i < column_.type->precision(); ++i) limit *= 10;
        domain = {-(limit - 1), limit - 1, Value::Kind::kDecimal, column_.type->scale()};
        break;
      }
      default:
        return Status::Invalid("filter: column \"{}\" of type {} cannot be compared with a value", column_.name,
                               column_.type->ToString());
    }
    STRATA_ASSIGN_OR_RETURN(ScaledNumber number, ReadScaled(literal));
    const FoldedComparison folded = FoldIntegerComparison(op, number, domain.lo, domain.hi);
    switch (folded.kind) {
      case FoldedComparison::Kind::kFalse: return Converted::False();
      case FoldedComparison::Kind::kNotNull: return Converted::NotNull();
      case FoldedComparison::Kind::kCompare: break;
    }
    return Converted{Converted::Kind::kCompare, folded.op, MakeValue(domain, folded.value)};
  }

 private:
  Status Refuse(const Literal& literal, std::string_view expected) const {
    return Status::Invalid("filter: column \"{}\" of type {}: cannot compare with {} (expected {})", column_.name,
                           column_.type->ToString(), literal.ToString(), expected);
  }
  Status Wrap(const Status& status) const {
    return Status::Invalid("filter: column \"{}\" of type {}: {}", column_.name, column_.type->ToString(),
                           status.message());
  }

  // The literal as floor + exactness in the domain's unit (integer-valued domains).
  Result<ScaledNumber> ReadScaled(const Literal& literal) const {
    const TypeId id = column_.type->id();
    const bool temporal = is_temporal(id);
    if (literal.kind == Literal::Kind::kString && temporal && id != TypeId::kDuration) {
      Result<ScaledNumber> parsed = Status::Invalid("unreachable");
      switch (id) {
        case TypeId::kDate32: parsed = ParseTimestampLiteral(literal.text, kNanosPerDay); break;
        case TypeId::kDate64: parsed = ParseTimestampLiteral(literal.text, 1000000); break;
        case TypeId::kTimestamp: parsed = ParseTimestampLiteral(literal.text, NanosPerUnit(column_.type->unit())); break;
        default: parsed = ParseTimeLiteral(literal.text, NanosPerUnit(column_.type->unit())); break;
      }
      if (!parsed.ok()) return Wrap(parsed.status());
      return *parsed;
    }
    const bool number = literal.kind == Literal::Kind::kInteger || literal.kind == Literal::Kind::kDecimal ||
                        literal.kind == Literal::Kind::kFloat;
    if (!number) {
      if (id == TypeId::kDate32 || id == TypeId::kDate64) return Refuse(literal, "a 'YYYY-MM-DD' date or an integer");
      if (id == TypeId::kTimestamp) return Refuse(literal, "a 'YYYY-MM-DD HH:MM:SS' timestamp or an integer");
      if (id == TypeId::kTime32 || id == TypeId::kTime64) return Refuse(literal, "an 'HH:MM:SS' time or an integer");
      return Refuse(literal, is_decimal(id) ? "a number" : "an integer");
    }
    if (is_decimal(id) && literal.kind == Literal::Kind::kFloat) {
      return Refuse(literal, "an integer or decimal literal (floats are inexact)");
    }
    if (IsInfOrNaN(literal)) {
      // NaN sorts above +inf; against an integer domain both are beyond every value.
      return ScaledNumber{literal.text[0] == '-' ? -kSaturated : kSaturated, true};
    }
    const int32_t scale = is_decimal(id) ? column_.type->scale() : 0;
    Result<ScaledNumber> parsed = ParseScaledNumber(literal.text, scale);
    if (!parsed.ok()) return Wrap(parsed.status());
    return *parsed;
  }

  Result<Converted> ConvertBool(CompareOp op, const Literal& literal) const {
    if (literal.kind != Literal::Kind::kBool) return Refuse(literal, "true or false");
    return Converted{Converted::Kind::kCompare, op, Value::Bool(literal.text == "true")};
  }

  Result<Converted> ConvertFloat(CompareOp op, const Literal& literal) const {
    const bool number = literal.kind == Literal::Kind::kInteger || literal.kind == Literal::Kind::kDecimal ||
                        literal.kind == Literal::Kind::kFloat;
    if (!number) return Refuse(literal, "a number");
    double v = std::strtod(literal.text.c_str(), nullptr);
    if (std::isnan(v)) v = std::numeric_limits<double>::quiet_NaN();  // drop the sign of -nan
    if (v == 0) v = 0.0;  // -0.0 equals +0.0; keep one spelling
    // A float32 column holds the literal as float32 rounds it (0.1 matches 0.1f), as an
    // engine casting the constant to the column type would.
    if (column_.type->id() == TypeId::kFloat32 && std::isfinite(v) &&
        std::fabs(v) <= std::numeric_limits<float>::max()) {
      v = static_cast<double>(static_cast<float>(v));
    }
    return Converted{Converted::Kind::kCompare, op, Value::Double(v)};
  }

  Result<Converted> ConvertBytes(CompareOp op, const Literal& literal) const {
    if (literal.kind != Literal::Kind::kString) return Refuse(literal, "a 'string' literal");
    if (column_.type->id() == TypeId::kFixedSizeBinary &&
        static_cast<int64_t>(literal.text.size()) != column_.type->byte_width()) {
      // Another length never equals; the order is still defined.
      if (op == CompareOp::kEq) return Converted::False();
      if (op == CompareOp::kNe) return Converted::NotNull();
    }
    return Converted{Converted::Kind::kCompare, op, Value::Bytes(literal.text)};
  }

  const ResolvedColumn& column_;
};

Leaf MakeLeafFor(const ResolvedColumn& column, Leaf::Kind kind) {
  Leaf leaf;
  leaf.kind = kind;
  leaf.path = column.path;
  leaf.column = column.name;
  leaf.type = column.type;
  return leaf;
}

PredicatePtr NotNullLeaf(const ResolvedColumn& column) {
  return Predicate::MakeLeaf(MakeLeafFor(column, Leaf::Kind::kIsNotNull));
}

Result<PredicatePtr> BindCompare(const Expression& e, const Schema& schema, bool negate) {
  STRATA_ASSIGN_OR_RETURN(ResolvedColumn column, Resolve(e.column(), schema));
  LiteralConverter converter(column);
  STRATA_RETURN_NOT_OK(converter.CheckComparable());
  if (e.literals().size() != 1) return Status::Invalid("filter: comparison of \"{}\" without one literal", column.name);
  const Literal& literal = e.literals()[0];
  // Never true, negated or not (x = null and x != null are both null).
  if (literal.kind == Literal::Kind::kNull) return Predicate::Constant(false);
  const CompareOp op = negate ? Negate(e.op()) : e.op();
  STRATA_ASSIGN_OR_RETURN(Converted converted, converter.Convert(op, literal));
  switch (converted.kind) {
    case Converted::Kind::kFalse: return Predicate::Constant(false);
    case Converted::Kind::kNotNull: return NotNullLeaf(column);
    case Converted::Kind::kCompare: break;
  }
  Leaf leaf = MakeLeafFor(column, Leaf::Kind::kCompare);
  leaf.op = converted.op;
  leaf.values.push_back(std::move(converted.value));
  return Predicate::MakeLeaf(std::move(leaf));
}

Result<PredicatePtr> BindIn(const Expression& e, const Schema& schema, bool negate) {
  STRATA_ASSIGN_OR_RETURN(ResolvedColumn column, Resolve(e.column(), schema));
  LiteralConverter converter(column);
  STRATA_RETURN_NOT_OK(converter.CheckComparable());
  const bool not_in = e.negated() != negate;
  std::vector<Value> values;
  for (const Literal& literal : e.literals()) {
    if (literal.kind == Literal::Kind::kNull) {
      // x IN (..., null) is null rather than false when x is not listed: the null drops out.
      // x NOT IN (..., null) is never true.
      if (not_in) return Predicate::Constant(false);
      continue;
    }
    STRATA_ASSIGN_OR_RETURN(Converted converted, converter.Convert(CompareOp::kEq, literal));
    // A value the column cannot hold matches nothing (IN) and excludes nothing (NOT IN).
    if (converted.kind == Converted::Kind::kCompare) values.push_back(std::move(converted.value));
  }
  if (column.type->id() == TypeId::kNull) return Predicate::Constant(false);
  std::sort(values.begin(), values.end(), [](const Value& a, const Value& b) { return a.Compare(b) < 0; });
  values.erase(std::unique(values.begin(), values.end(),
                           [](const Value& a, const Value& b) { return a.Compare(b) == 0; }),
               values.end());
  if (values.empty()) return not_in ? NotNullLeaf(column) : Predicate::Constant(false);
  Leaf leaf = MakeLeafFor(column, not_in ? Leaf::Kind::kNotIn : Leaf::Kind::kIn);
  leaf.values = std::move(values);
  return Predicate::MakeLeaf(std::move(leaf));
}

Result<PredicatePtr> BindNode(const Expression& e, const Schema& schema, bool negate) {
  switch (e.kind()) {
    case Expression::Kind::kAnd:
    case Expression::Kind::kOr: {
      std::vector<PredicatePtr> children;
      children.reserve(e.children().size());
      for (const ExpressionPtr& child : e.children()) {
        STRATA_ASSIGN_OR_RETURN(PredicatePtr bound, BindNode(*child, schema, negate));
        children.push_back(std::move(bound));
      }
      // De Morgan: NOT (a AND b) = NOT a OR NOT b.
      const bool is_and = (e.kind() == Expression::Kind::kAnd) != negate;
      return is_and ? Predicate::And(std::move(children)) : Predicate::Or(std::move(children));
    }
    case Expression::Kind::kNot:
      if (e.children().size() != 1) return Status::Invalid("filter: NOT needs exactly one operand");
      return BindNode(*e.children()[0], schema, !negate);
    case Expression::Kind::kIsNull: {
      STRATA_ASSIGN_OR_RETURN(ResolvedColumn column, Resolve(e.column(), schema));
      const bool not_null = e.negated() != negate;
      // A null-typed column is null in every row.
      if (column.type->id() == TypeId::kNull) return Predicate::Constant(!not_null);
      return Predicate::MakeLeaf(MakeLeafFor(column, not_null ? Leaf::Kind::kIsNotNull : Leaf::Kind::kIsNull));
    }
    case Expression::Kind::kCompare: return BindCompare(e, schema, negate);
    case Expression::Kind::kIn: return BindIn(e, schema, negate);
  }
  return Status::Invalid("filter: unknown expression kind");
}

}  // namespace

Result<PredicatePtr> Bind(const Expression& expression, const Schema& schema) {
  return BindNode(expression, schema, /*negate=*/false);
}

}  // namespace strata::expr
