#include "strata/expr/parser.h"

#include <gtest/gtest.h>

namespace strata::expr {
namespace {

ExpressionPtr MustParse(std::string_view text) {
  Result<ExpressionPtr> r = ParseFilter(text);
  EXPECT_TRUE(r.ok()) << text << ": " << r.status().ToString();
  return r.ok() ? *r : nullptr;
}

std::string ParseError(std::string_view text) {
  Result<ExpressionPtr> r = ParseFilter(text);
  EXPECT_FALSE(r.ok()) << text;
  return r.ok() ? "" : r.status().message();
}

void ExpectRoundTrip(std::string_view text) {
  const ExpressionPtr e = MustParse(text);
  ASSERT_NE(e, nullptr);
  const std::string printed = e->ToString();
  const ExpressionPtr again = MustParse(printed);
  ASSERT_NE(again, nullptr);
  EXPECT_TRUE(e->Equals(*again)) << text << " -> " << printed << " -> " << again->ToString();
  EXPECT_EQ(again->ToString(), printed);
}

TEST(ParserTest, Comparisons) {
  const struct {
    const char* text;
    CompareOp op;
  } cases[] = {{"a = 1", CompareOp::kEq},  {"a == 1", CompareOp::kEq}, {"a != 1", CompareOp::kNe},
               {"a <> 1", CompareOp::kNe}, {"a < 1", CompareOp::kLt},  {"a <= 1", CompareOp::kLe},
               {"a > 1", CompareOp::kGt},  {"a >= 1", CompareOp::kGe}, {"a>=1", CompareOp::kGe}};
  for (const auto& c : cases) {
    const ExpressionPtr e = MustParse(c.text);
    ASSERT_NE(e, nullptr);
    EXPECT_EQ(e->kind(), Expression::Kind::kCompare) << c.text;
    EXPECT_EQ(e->op(), c.op) << c.text;
    EXPECT_EQ(e->column(), std::vector<std::string>{"a"});
    ASSERT_EQ(e->literals().size(), 1u);
    EXPECT_EQ(e->literals()[0].kind, Literal::Kind::kInteger);
    EXPECT_EQ(e->literals()[0].text, "1");
  }
}

TEST(ParserTest, Literals) {
  const struct {
    const char* text;
    Literal::Kind kind;
    const char* value;
  } cases[] = {{"x = -12", Literal::Kind::kInteger, "-12"},
               {"x = +7", Literal::Kind::kInteger, "+7"},
               {"x = 3.25", Literal::Kind::kDecimal, "3.25"},
               {"x = -0.5", Literal::Kind::kDecimal, "-0.5"},
               {"x = 1e5", Literal::Kind::kFloat, "1e5"},
               {"x = 2.5E-3", Literal::Kind::kFloat, "2.5E-3"},
               {"x = inf", Literal::Kind::kFloat, "inf"},
               {"x = -INF", Literal::Kind::kFloat, "-inf"},
               {"x = NaN", Literal::Kind::kFloat, "nan"},
               {"x = 'it''s'", Literal::Kind::kString, "it's"},
               {"x = ''", Literal::Kind::kString, ""},
               {"x = 'a b, (c)'", Literal::Kind::kString, "a b, (c)"},
               {"x = TRUE", Literal::Kind::kBool, "true"},
               {"x = false", Literal::Kind::kBool, "false"},
               {"x = Null", Literal::Kind::kNull, "null"}};
  for (const auto& c : cases) {
    const ExpressionPtr e = MustParse(c.text);
    ASSERT_NE(e, nullptr);
    ASSERT_EQ(e->literals().size(), 1u);
    EXPECT_EQ(e->literals()[0].kind, c.kind) << c.text;
    EXPECT_EQ(e->literals()[0].text, c.value) << c.text;
  }
}

TEST(ParserTest, ColumnsAndQuotedNames) {
  ExpressionPtr e = MustParse("s.inner.x = 1");
  EXPECT_EQ(e->column(), (std::vector<std::string>{"s", "inner", "x"}));
  e = MustParse("\"my col\".\"a\"\"b\" IS NULL");
  EXPECT_EQ(e->column(), (std::vector<std::string>{"my col", "a\"b"}));
  EXPECT_EQ(e->kind(), Expression::Kind::kIsNull);
  EXPECT_FALSE(e->negated());
  e = MustParse("\"and\" = 1");
  EXPECT_EQ(e->column(), std::vector<std::string>{"and"});
  e = MustParse("_x9 is not null");
  EXPECT_TRUE(e->negated());
}

TEST(ParserTest, InLists) {
  ExpressionPtr e = MustParse("c IN ('a', 'b')");
  ASSERT_EQ(e->kind(), Expression::Kind::kIn);
  EXPECT_FALSE(e->negated());
  EXPECT_EQ(e->literals().size(), 2u);
  e = MustParse("c not in (1, -2.5, null)");
  ASSERT_EQ(e->kind(), Expression::Kind::kIn);
  EXPECT_TRUE(e->negated());
  ASSERT_EQ(e->literals().size(), 3u);
  EXPECT_EQ(e->literals()[2].kind, Literal::Kind::kNull);
}

TEST(ParserTest, PrecedenceAndGrouping) {
  // AND binds tighter than OR.
  ExpressionPtr e = MustParse("a = 1 OR b = 2 AND c = 3");
  ASSERT_EQ(e->kind(), Expression::Kind::kOr);
  ASSERT_EQ(e->children().size(), 2u);
  EXPECT_EQ(e->children()[0]->kind(), Expression::Kind::kCompare);
  EXPECT_EQ(e->children()[1]->kind(), Expression::Kind::kAnd);
  // NOT binds tighter than AND.
  e = MustParse("NOT a = 1 AND b = 2");
  ASSERT_EQ(e->kind(), Expression::Kind::kAnd);
  EXPECT_EQ(e->children()[0]->kind(), Expression::Kind::kNot);
  e = MustParse("not (a = 1 and b = 2)");
  ASSERT_EQ(e->kind(), Expression::Kind::kNot);
  EXPECT_EQ(e->children()[0]->kind(), Expression::Kind::kAnd);
  e = MustParse("NOT NOT a = 1");
  ASSERT_EQ(e->kind(), Expression::Kind::kNot);
  EXPECT_EQ(e->children()[0]->kind(), Expression::Kind::kNot);
  // Chains flatten.
  e = MustParse("a = 1 and b = 2 AND c = 3 And d = 4");
  ASSERT_EQ(e->kind(), Expression::Kind::kAnd);
  EXPECT_EQ(e->children().size(), 4u);
  e = MustParse("(a = 1 OR b = 2) AND c = 3");
  ASSERT_EQ(e->kind(), Expression::Kind::kAnd);
  EXPECT_EQ(e->children()[0]->kind(), Expression::Kind::kOr);
  e = MustParse("((a = 1))");
  EXPECT_EQ(e->kind(), Expression::Kind::kCompare);
}

TEST(ParserTest, Errors) {
  EXPECT_EQ(ParseError("l_shipdate >= )"), "filter: at 15: expected a literal after '>=', found ')'");
  EXPECT_EQ(ParseError("a = 1 AND b = 'abc"), "filter: at 15: unterminated string starting at 15");
  EXPECT_EQ(ParseError("a = 1 AND (b = 2 OR c = 3"),
            "filter: at 26: expected ')' to close '(' at 11, found the end of the filter");
  EXPECT_EQ(ParseError("a = 1 b = 2"), "filter: at 7: expected AND, OR or the end of the filter, found 'b'");
  EXPECT_EQ(ParseError("a = 1)"), "filter: at 6: expected AND, OR or the end of the filter, found ')'");
  EXPECT_EQ(ParseError(""), "filter: at 1: empty filter: expected an expression");
  EXPECT_NE(ParseError("a = foo").find("at 5: unknown keyword 'foo'"), std::string::npos);
  EXPECT_NE(ParseError("a LIKE 'x'").find("at 3: unknown keyword 'LIKE' after the column a"), std::string::npos);
  EXPECT_EQ(ParseError("a IS NOT 5"), "filter: at 10: expected NULL after IS NOT, found '5'");
  EXPECT_EQ(ParseError("a NOT 5"), "filter: at 7: expected IN after NOT, found '5'");
  EXPECT_EQ(ParseError("a IN 1"), "filter: at 6: expected '(' after IN, found '1'");
  EXPECT_EQ(ParseError("a IN (1 2)"), "filter: at 9: expected ',' or ')' to close '(' at 6, found '2'");
  EXPECT_EQ(ParseError("a IN ()"), "filter: at 7: expected a literal in the IN list, found ')'");
  EXPECT_EQ(ParseError("a = - 'x'"), "filter: at 7: expected a number after '-', found 'x'");
  EXPECT_EQ(ParseError("\"abc = 1"), "filter: at 1: unterminated quoted name starting at 1");
  EXPECT_EQ(ParseError("a = 1 AND"), "filter: at 10: expected a column name or '(', found the end of the filter");
  EXPECT_EQ(ParseError("a = 1.x"), "filter: at 7: expected digits after the decimal point in '1.'");
  EXPECT_EQ(ParseError("a = 1e"), "filter: at 7: expected exponent digits in '1e'");
  EXPECT_EQ(ParseError("a = 12abc"), "filter: at 7: unexpected 'a' after the number '12'");
  EXPECT_EQ(ParseError("a = 1 ; b"), "filter: at 7: unexpected character ';'");
  EXPECT_NE(ParseError("null = 1").find("at 1: expected a column name, found the keyword 'null'"), std::string::npos);
  // Nesting is bounded (hostile input must not exhaust the stack); ordinary depths parse.
  EXPECT_NE(ParseError(std::string(500, '(') + "a = 1" + std::string(500, ')')).find("nested deeper than 200"),
            std::string::npos);
  std::string nots;
  for (int i = 0; i < 400; ++i) nots += "NOT ";
  EXPECT_NE(ParseError(nots + "a = 1").find("nested deeper than 200"), std::string::npos);
  EXPECT_TRUE(ParseFilter(std::string(150, '(') + "a = 1" + std::string(150, ')')).ok());
  EXPECT_EQ(ParseError("a.= 1"), "filter: at 3: expected a column name or '(', found '='");
}

TEST(ParserTest, RoundTrips) {
  const char* const texts[] = {
      "a = 1",
      "a == -1 AND b <> 'x''y'",
      "a = 1 OR b = 2 AND c = 3",
      "(a = 1 OR b = 2) AND c = 3",
      "NOT (a = 1 AND b = 2) OR NOT c IS NULL",
      "NOT NOT x >= 2.50",
      "s.x IN (1, 2, 3) AND \"weird name\".\"q\"\"\" NOT IN ('a', null)",
      "x < 1e-3 OR x > +2.5E10 OR x = -inf OR x != nan",
      "\"and\" = true AND \"Or\" = false AND \"select\" IS NOT NULL",
      "a = 1 AND (b = 2 AND c = 3)",
      "a = 1 OR (b = 2 OR (c = 3 AND d = 4))",
  };
  for (const char* text : texts) ExpectRoundTrip(text);
}

TEST(ParserTest, BuilderToStringParses) {
  const ExpressionPtr built = And({GreaterEqual(Column("l_shipdate"), Literal::String("1998-09-02")),
                                   Or({Equal(Path({"s", "x"}), Literal::Float(3.0)),
                                       NotIn(Column("a.b"), {Literal::Integer(-5), Literal::Decimal("1.50")}),
                                       Not(IsNull(Column("n")))}),
                                   Less(Column("f"), Literal::Float(0.1)), NotEqual(Column("b"), Literal::Bool(true)),
                                   LessEqual(Column("z"), Literal::Null()), Greater(Column("i"), Literal::Integer(0)),
                                   IsNotNull(Column("k")), In(Column("q"), {Literal::Float(-1e300)})});
  const ExpressionPtr parsed = MustParse(built->ToString());
  ASSERT_NE(parsed, nullptr);
  EXPECT_TRUE(built->Equals(*parsed)) << built->ToString() << "\n" << parsed->ToString();
  EXPECT_EQ(Literal::Float(3.0).text, "3e0");
  EXPECT_EQ(Equal(Column("a.b"), Literal::Integer(1))->ToString(), "\"a.b\" = 1");
  // A single child is that child.
  const ExpressionPtr one = Equal(Column("x"), Literal::Integer(1));
  EXPECT_EQ(And({one}), one);
  EXPECT_EQ(Or({one}), one);
}

}  // namespace
}  // namespace strata::expr
