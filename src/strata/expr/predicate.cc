// Predicate: construction with constant folding, traversal, rewriting and printing.
#include "strata/expr/predicate.h"

#include <algorithm>

namespace strata::expr {

namespace {

// A decimal's unscaled value printed at its scale ("1250" at scale 2 -> "12.50"), so that
// messages show the number the user wrote.
std::string DecimalToString(__int128 unscaled, int32_t scale) {
  std::string digits = Value::Decimal(unscaled).ToString();
  if (scale <= 0) return scale == 0 ? digits : digits + std::string(static_cast<size_t>(-scale), '0');
  const bool negative = !digits.empty() && digits[0] == '-';
  if (negative) digits.erase(0, 1);
  if (digits.size() <= static_cast<size_t>(scale)) {
    digits.insert(0, static_cast<size_t>(scale) - digits.size() + 1, '0');
  }
  digits.insert(digits.size() - static_cast<size_t>(scale), 1, '.');
  if (negative) digits.insert(0, 1, '-');
  return digits;
}

std::string LeafValueToString(const Leaf& leaf, const Value& value) {
  if (value.kind == Value::Kind::kDecimal && leaf.type != nullptr && is_decimal(leaf.type->id())) {
    return DecimalToString(value.dec, leaf.type->scale());
  }
  return value.ToString();
}

// And and Or fold the same way with the roles of true and false swapped.
PredicatePtr Combine(Predicate::Kind kind, std::vector<PredicatePtr> children) {
  const Predicate::Kind absorbing = kind == Predicate::Kind::kAnd ? Predicate::Kind::kFalse : Predicate::Kind::kTrue;
  const Predicate::Kind neutral = kind == Predicate::Kind::kAnd ? Predicate::Kind::kTrue : Predicate::Kind::kFalse;
  std::vector<PredicatePtr> flat;
  flat.reserve(children.size());
  for (PredicatePtr& child : children) {
    if (child == nullptr || child->kind() == neutral) continue;
    if (child->kind() == absorbing) return Predicate::Constant(absorbing == Predicate::Kind::kTrue);
    if (child->kind() == kind) {
      // Children were folded when built, so one level of flattening suffices.
      flat.insert(flat.end(), child->children().begin(), child->children().end());
    } else {
      flat.push_back(std::move(child));
    }
  }
  if (flat.empty()) return Predicate::Constant(neutral == Predicate::Kind::kTrue);
  if (flat.size() == 1) return flat[0];
  return std::make_shared<const Predicate>(kind, std::move(flat), Leaf{});
}

}  // namespace

std::string Leaf::ToString() const {
  std::string out = "(" + column;
  switch (kind) {
    case Kind::kCompare:
      out += " ";
      out += CompareOpSymbol(op);
      out += " ";
      out += values.empty() ? "?" : LeafValueToString(*this, values[0]);
      break;
    case Kind::kIn:
    case Kind::kNotIn: {
      out += kind == Kind::kIn ? " IN (" : " NOT IN (";
      for (size_t i = 0; i < values.size(); ++i) {
        if (i > 0) out += ", ";
        out += LeafValueToString(*this, values[i]);
      }
      out += ")";
      break;
    }
    case Kind::kIsNull: out += " IS NULL"; break;
    case Kind::kIsNotNull: out += " IS NOT NULL"; break;
  }
  return out + ")";
}

PredicatePtr Predicate::And(std::vector<PredicatePtr> children) { return Combine(Kind::kAnd, std::move(children)); }

PredicatePtr Predicate::Or(std::vector<PredicatePtr> children) { return Combine(Kind::kOr, std::move(children)); }

PredicatePtr Predicate::MakeLeaf(Leaf leaf) {
  return std::make_shared<const Predicate>(Kind::kLeaf, std::vector<PredicatePtr>{}, std::move(leaf));
}

PredicatePtr Predicate::Constant(bool value) {
  // Shared singletons: constants are common results of folding.
  static const PredicatePtr kTrueNode =
      std::make_shared<const Predicate>(Kind::kTrue, std::vector<PredicatePtr>{}, Leaf{});
  static const PredicatePtr kFalseNode =
      std::make_shared<const Predicate>(Kind::kFalse, std::vector<PredicatePtr>{}, Leaf{});
  return value ? kTrueNode : kFalseNode;
}

void Predicate::ForEachLeaf(const std::function<void(const Leaf&)>& fn) const {
  if (kind_ == Kind::kLeaf) {
    fn(leaf_);
    return;
  }
  for (const PredicatePtr& child : children_) child->ForEachLeaf(fn);
}

std::vector<int> Predicate::ReferencedFields() const {
  std::vector<int> fields;
  ForEachLeaf([&](const Leaf& leaf) {
    if (!leaf.path.empty()) fields.push_back(leaf.path[0]);
  });
  std::sort(fields.begin(), fields.end());
  fields.erase(std::unique(fields.begin(), fields.end()), fields.end());
  return fields;
}

std::string Predicate::ToString() const {
  switch (kind_) {
    case Kind::kTrue: return "true";
    case Kind::kFalse: return "false";
    case Kind::kLeaf: return leaf_.ToString();
    case Kind::kAnd:
    case Kind::kOr: {
      std::string out = "(";
      for (size_t i = 0; i < children_.size(); ++i) {
        if (i > 0) out += kind_ == Kind::kAnd ? " AND " : " OR ";
        out += children_[i]->ToString();
      }
      return out + ")";
    }
  }
  return "?";
}

bool MayMatch(const Predicate& predicate, const std::function<bool(const Leaf&)>& leaf_may_match) {
  switch (predicate.kind()) {
    case Predicate::Kind::kTrue: return true;
    case Predicate::Kind::kFalse: return false;
    case Predicate::Kind::kLeaf: return leaf_may_match(predicate.leaf());
    case Predicate::Kind::kAnd:
      for (const PredicatePtr& child : predicate.children()) {
        if (!MayMatch(*child, leaf_may_match)) return false;
      }
      return true;
    case Predicate::Kind::kOr:
      for (const PredicatePtr& child : predicate.children()) {
        if (MayMatch(*child, leaf_may_match)) return true;
      }
      return false;
  }
  return true;
}

PredicatePtr ReplaceLeaves(const PredicatePtr& predicate,
                           const std::function<std::optional<bool>(const Leaf&)>& known) {
  switch (predicate->kind()) {
    case Predicate::Kind::kTrue:
    case Predicate::Kind::kFalse: return predicate;
    case Predicate::Kind::kLeaf: {
      const std::optional<bool> value = known(predicate->leaf());
      return value.has_value() ? Predicate::Constant(*value) : predicate;
    }
    case Predicate::Kind::kAnd:
    case Predicate::Kind::kOr: {
      std::vector<PredicatePtr> children;
      children.reserve(predicate->children().size());
      for (const PredicatePtr& child : predicate->children()) children.push_back(ReplaceLeaves(child, known));
      return predicate->kind() == Predicate::Kind::kAnd ? Predicate::And(std::move(children))
                                                        : Predicate::Or(std::move(children));
    }
  }
  return predicate;
}

PredicatePtr RemapFields(const PredicatePtr& predicate, const std::vector<int>& field_map) {
  switch (predicate->kind()) {
    case Predicate::Kind::kTrue:
    case Predicate::Kind::kFalse: return predicate;
    case Predicate::Kind::kLeaf: {
      Leaf leaf = predicate->leaf();
      if (!leaf.path.empty() && leaf.path[0] >= 0 && static_cast<size_t>(leaf.path[0]) < field_map.size()) {
        leaf.path[0] = field_map[static_cast<size_t>(leaf.path[0])];
      }
      return Predicate::MakeLeaf(std::move(leaf));
    }
    case Predicate::Kind::kAnd:
    case Predicate::Kind::kOr: {
      std::vector<PredicatePtr> children;
      children.reserve(predicate->children().size());
      for (const PredicatePtr& child : predicate->children()) children.push_back(RemapFields(child, field_map));
      return predicate->kind() == Predicate::Kind::kAnd ? Predicate::And(std::move(children))
                                                        : Predicate::Or(std::move(children));
    }
  }
  return predicate;
}

}  // namespace strata::expr
