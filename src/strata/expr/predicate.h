// Predicate: a filter bound to a schema. Columns are resolved to field paths, literals are
// converted into the column's value domain, and NOT is pushed down to the leaves (exact under
// SQL's three-valued logic: NOT (x < 5) is x >= 5, null either way), so the tree above the
// leaves is only AND and OR. That makes every consumer simple: a row, a row group or a page
// matches when the tree of leaf answers says so, and "null" can be read as "false" at any
// leaf (WHERE keeps only true rows, and AND/OR are monotone).
//
// Format-neutral: the Parquet reader (row-group statistics, page index, Bloom filters,
// dictionaries), datasets (hive partitions) and row-level evaluation all read this one form.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "strata/types/data_type.h"
#include "strata/types/schema.h"

namespace strata::expr {

enum class CompareOp : uint8_t { kEq, kNe, kLt, kLe, kGt, kGe };
// "=", "!=", "<", "<=", ">", ">=".
const char* CompareOpSymbol(CompareOp op);

// A value in a column's domain, width-agnostic so that one predicate applies to int32 and
// int64 files alike (datasets widen):
//   kBool:     boolean
//   kInt:      signed integers; date32 (days), date64 (ms), time32/time64, timestamp and
//              duration (in the column type's unit)
//   kUInt:     unsigned integers
//   kDouble:   float16, float32, float64. Ordering as DuckDB and PostgreSQL define it: NaN
//              equals NaN and is greater than every other value; -0.0 equals +0.0.
//   kDecimal:  decimal128 as its unscaled 128-bit integer at the column's scale
//   kBytes:    string, binary (any offsets or views), fixed_size_binary: compared bytewise
//              as unsigned bytes, shorter prefix first
struct Value {
  enum class Kind : uint8_t { kBool, kInt, kUInt, kDouble, kDecimal, kBytes };
  Kind kind = Kind::kInt;
  bool b = false;
  int64_t i = 0;
  uint64_t u = 0;
  double d = 0;
  __int128 dec = 0;
  std::string bytes;

  static Value Bool(bool v);
  static Value Int(int64_t v);
  static Value UInt(uint64_t v);
  static Value Double(double v);
  static Value Decimal(__int128 unscaled);
  static Value Bytes(std::string v);

  // The column domain's order (both of the same kind): -1, 0, 1.
  int Compare(const Value& other) const;
  bool operator==(const Value& other) const { return kind == other.kind && Compare(other) == 0; }
  // For messages and --stats output.
  std::string ToString() const;
};

// One comparison of one column.
struct Leaf {
  enum class Kind : uint8_t {
    kCompare,    // column <op> values[0]
    kIn,         // column IN (values); values sorted ascending, unique, non-empty
    kNotIn,      // column NOT IN (values): true for non-null values not in the list
    kIsNull,
    kIsNotNull,
  };
  Kind kind = Kind::kCompare;
  CompareOp op = CompareOp::kEq;
  // Top-level field index in the bound schema, then child indices through structs
  // ("a.b.c" -> {index of a, index of b in a, index of c in b}).
  std::vector<int> path;
  // The dotted name as the user wrote it resolved ("l_shipdate", "s.x"), for messages.
  std::string column;
  // The column's type in the bound schema; a dictionary column's value type (dictionary
  // arrays are compared through their values).
  TypePtr type;
  std::vector<Value> values;

  std::string ToString() const;
};

// A node of the bound tree: AND / OR of children, a leaf, or a constant (what folding left:
// e.g. int8_col < 1000 becomes IS NOT NULL, int_col = 3.5 becomes false).
class Predicate;
using PredicatePtr = std::shared_ptr<const Predicate>;

class Predicate {
 public:
  enum class Kind : uint8_t { kAnd, kOr, kLeaf, kTrue, kFalse };

  static PredicatePtr And(std::vector<PredicatePtr> children);  // folds constants, flattens
  static PredicatePtr Or(std::vector<PredicatePtr> children);   // folds constants, flattens
  static PredicatePtr MakeLeaf(Leaf leaf);
  static PredicatePtr Constant(bool value);

  Kind kind() const { return kind_; }
  const std::vector<PredicatePtr>& children() const { return children_; }
  const Leaf& leaf() const { return leaf_; }  // kLeaf only

  // Every leaf, depth first.
  void ForEachLeaf(const std::function<void(const Leaf&)>& fn) const;
  // Top-level field indices the leaves read, ascending, unique.
  std::vector<int> ReferencedFields() const;
  // SQL-like text, fully parenthesised: ((l_shipdate >= 10471) AND (l_returnflag = "R")).
  std::string ToString() const;

  Predicate(Kind kind, std::vector<PredicatePtr> children, Leaf leaf)
      : kind_(kind), children_(std::move(children)), leaf_(std::move(leaf)) {}

 private:
  Kind kind_;
  std::vector<PredicatePtr> children_;
  Leaf leaf_;
};

// May some row of a unit (a row group, a page, a file) satisfy `predicate`, given an answer
// per leaf? `leaf_may_match` returns false only when no row of the unit can satisfy that leaf.
// False only when the predicate certainly selects no row.
bool MayMatch(const Predicate& predicate, const std::function<bool(const Leaf&)>& leaf_may_match);

// The predicate with some leaves replaced by constants (`known` returns their value, or
// nullopt to keep the leaf), folded. Datasets use it for partition columns (a file's
// partition value is constant) and for columns a file lacks (all null: IS NULL is true, every
// other leaf false).
PredicatePtr ReplaceLeaves(const PredicatePtr& predicate,
                           const std::function<std::optional<bool>(const Leaf&)>& known);

// The predicate with each leaf's top-level field index i replaced by field_map[i] (a file's
// schema ordering its fields differently from the dataset's). Every referenced index must map
// to a non-negative one.
PredicatePtr RemapFields(const PredicatePtr& predicate, const std::vector<int>& field_map);

}  // namespace strata::expr
