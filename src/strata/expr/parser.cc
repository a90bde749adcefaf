// ParseFilter: a recursive-descent parser over a small hand-written lexer. Positions in
// messages are 1-based characters of the filter text.
#include "strata/expr/parser.h"

#include <fmt/format.h>

namespace strata::expr {

namespace {

struct Token {
  enum class Kind { kEnd, kWord, kQuotedName, kString, kNumber, kSymbol };
  Kind kind = Kind::kEnd;
  std::string text;  // words and symbols as written, names and strings unquoted
  size_t position = 0;  // 0-based index of the first character
};

bool IsWordStart(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool IsDigit(char c) { return c >= '0' && c <= '9'; }

bool KeywordIs(const Token& token, std::string_view keyword) {
  if (token.kind != Token::Kind::kWord || token.text.size() != keyword.size()) return false;
  for (size_t i = 0; i < keyword.size(); ++i) {
    char c = token.text[i];
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    if (c != keyword[i]) return false;
  }
  return true;
}

std::string Describe(const Token& token) {
  switch (token.kind) {
    case Token::Kind::kEnd: return "the end of the filter";
    case Token::Kind::kQuotedName: return fmt::format("\"{}\"", token.text);
    case Token::Kind::kString: return fmt::format("'{}'", token.text);
    default: return fmt::format("'{}'", token.text);
  }
}

class Parser {
 public:
  explicit Parser(std::string_view text) : text_(text) {}

  Result<ExpressionPtr> Parse() {
    STRATA_RETURN_NOT_OK(Advance());
    if (current_.kind == Token::Kind::kEnd) return Error(current_, "empty filter: expected an expression");
    STRATA_ASSIGN_OR_RETURN(ExpressionPtr expression, ParseOr());
    if (current_.kind != Token::Kind::kEnd) {
      return Error(current_, fmt::format("expected AND, OR or the end of the filter, found {}", Describe(current_)));
    }
    return expression;
  }

 private:
  Status Error(const Token& at, const std::string& message) const { return ErrorAt(at.position, message); }
  Status ErrorAt(size_t position, const std::string& message) const {
    return Status::Invalid("filter: at {}: {}", position + 1, message);
  }

  // Reads the next token into current_.
  Status Advance() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t' || text_[pos_] == '\n' ||
                                   text_[pos_] == '\r')) {
      ++pos_;
    }
    current_ = Token{};
    current_.position = pos_;
    if (pos_ >= text_.size()) return Status::OK();
    const char c = text_[pos_];
    if (IsWordStart(c)) {
      const size_t start = pos_;
      while (pos_ < text_.size() && (IsWordStart(text_[pos_]) || IsDigit(text_[pos_]))) ++pos_;
      current_.kind = Token::Kind::kWord;
      current_.text = std::string(text_.substr(start, pos_ - start));
      return Status::OK();
    }
    if (c == '"' || c == '\'') return ReadQuoted(c);
    if (IsDigit(c) || (c == '.' && pos_ + 1 < text_.size() && IsDigit(text_[pos_ + 1]))) return ReadNumber();
    // Two-character operators first.
    static const char* const kSymbols[] = {"==", "!=", "<>", "<=", ">=", "=", "<", ">", "(", ")", ",", ".", "-", "+"};
    for (const char* symbol : kSymbols) {
      const std::string_view s(symbol);
      if (text_.substr(pos_, s.size()) == s) {
        current_.kind = Token::Kind::kSymbol;
        current_.text = std::string(s);
        pos_ += s.size();
        return Status::OK();
      }
    }
    return ErrorAt(pos_, fmt::format("unexpected character '{}'", c));
  }

  // 'string' or "name"; a doubled quote stands for one.
  Status ReadQuoted(char quote) {
    const size_t start = pos_++;
    std::string value;
    while (true) {
      if (pos_ >= text_.size()) {
        return ErrorAt(start, fmt::format("unterminated {} starting at {}", quote == '\'' ? "string" : "quoted name",
                                          start + 1));
      }
      const char c = text_[pos_++];
      if (c == quote) {
        if (pos_ < text_.size() && text_[pos_] == quote) {
          value.push_back(quote);
          ++pos_;
          continue;
        }
        break;
      }
      value.push_back(c);
    }
    current_.kind = quote == '\'' ? Token::Kind::kString : Token::Kind::kQuotedName;
    current_.text = std::move(value);
    if (current_.kind == Token::Kind::kQuotedName && current_.text.empty()) {
      return ErrorAt(start, "empty quoted name");
    }
    return Status::OK();
  }

  // digits [. digits] [e [+-] digits]; the sign is a separate token.
  Status ReadNumber() {
    const size_t start = pos_;
    while (pos_ < text_.size() && IsDigit(text_[pos_])) ++pos_;
    if (pos_ < text_.size() && text_[pos_] == '.') {
      ++pos_;
      if (pos_ >= text_.size() || !IsDigit(text_[pos_])) {
        return ErrorAt(pos_, fmt::format("expected digits after the decimal point in '{}'",
                                         text_.substr(start, pos_ - start)));
      }
      while (pos_ < text_.size() && IsDigit(text_[pos_])) ++pos_;
    }
    if (pos_ < text_.size() && (text_[pos_] == 'e' || text_[pos_] == 'E')) {
      ++pos_;
      if (pos_ < text_.size() && (text_[pos_] == '+' || text_[pos_] == '-')) ++pos_;
      if (pos_ >= text_.size() || !IsDigit(text_[pos_])) {
        return ErrorAt(pos_, fmt::format("expected exponent digits in '{}'", text_.substr(start, pos_ - start)));
      }
      while (pos_ < text_.size() && IsDigit(text_[pos_])) ++pos_;
    }
    if (pos_ < text_.size() && (IsWordStart(text_[pos_]))) {
      return ErrorAt(pos_, fmt::format("unexpected '{}' after the number '{}'", text_[pos_],
                                       text_.substr(start, pos_ - start)));
    }
    current_.kind = Token::Kind::kNumber;
    current_.text = std::string(text_.substr(start, pos_ - start));
    return Status::OK();
  }

  bool AtSymbol(std::string_view symbol) const {
    return current_.kind == Token::Kind::kSymbol && current_.text == symbol;
  }

  Result<ExpressionPtr> ParseOr() {
    std::vector<ExpressionPtr> children;
    STRATA_ASSIGN_OR_RETURN(ExpressionPtr first, ParseAnd());
    children.push_back(std::move(first));
    while (KeywordIs(current_, "or")) {
      STRATA_RETURN_NOT_OK(Advance());
      STRATA_ASSIGN_OR_RETURN(ExpressionPtr next, ParseAnd());
      children.push_back(std::move(next));
    }
    return Or(std::move(children));
  }

  Result<ExpressionPtr> ParseAnd() {
    std::vector<ExpressionPtr> children;
    STRATA_ASSIGN_OR_RETURN(ExpressionPtr first, ParseNot());
    children.push_back(std::move(first));
    while (KeywordIs(current_, "and")) {
      STRATA_RETURN_NOT_OK(Advance());
      STRATA_ASSIGN_OR_RETURN(ExpressionPtr next, ParseNot());
      children.push_back(std::move(next));
    }
    return And(std::move(children));
  }

  Result<ExpressionPtr> ParseNot() {
    // Recursion depth is bounded so that hostile input cannot exhaust the stack.
    if (++depth_ > kMaxDepth) {
      return Error(current_, fmt::format("filter nested deeper than {} levels", kMaxDepth));
    }
    Result<ExpressionPtr> out = Status::Invalid("unreachable");
    if (KeywordIs(current_, "not")) {
      Status st = Advance();
      if (!st.ok()) return st;
      Result<ExpressionPtr> child = ParseNot();
      out = child.ok() ? Result<ExpressionPtr>(Not(*child)) : child;
    } else {
      out = ParsePrimary();
    }
    --depth_;
    return out;
  }

  Result<ExpressionPtr> ParsePrimary() {
    if (AtSymbol("(")) {
      const Token open = current_;
      STRATA_RETURN_NOT_OK(Advance());
      STRATA_ASSIGN_OR_RETURN(ExpressionPtr inner, ParseOr());
      if (!AtSymbol(")")) {
        return Error(current_, fmt::format("expected ')' to close '(' at {}, found {}", open.position + 1,
                                           Describe(current_)));
      }
      STRATA_RETURN_NOT_OK(Advance());
      return inner;
    }
    STRATA_ASSIGN_OR_RETURN(std::vector<std::string> column, ParseColumn());
    const ColumnRef ref(column);
    if (current_.kind == Token::Kind::kSymbol) {
      static const std::pair<const char*, CompareOp> kOps[] = {
          {"=", CompareOp::kEq},  {"==", CompareOp::kEq}, {"!=", CompareOp::kNe}, {"<>", CompareOp::kNe},
          {"<", CompareOp::kLt},  {"<=", CompareOp::kLe}, {">", CompareOp::kGt},  {">=", CompareOp::kGe}};
      for (const auto& [symbol, op] : kOps) {
        if (current_.text != symbol) continue;
        const std::string after = fmt::format("after '{}'", symbol);
        STRATA_RETURN_NOT_OK(Advance());
        STRATA_ASSIGN_OR_RETURN(Literal literal, ParseLiteral(after));
        return Compare(ref, op, std::move(literal));
      }
    }
    bool negated = false;
    if (KeywordIs(current_, "not")) {
      negated = true;
      STRATA_RETURN_NOT_OK(Advance());
      if (!KeywordIs(current_, "in")) return Error(current_, fmt::format("expected IN after NOT, found {}",
                                                                         Describe(current_)));
    }
    if (KeywordIs(current_, "in")) {
      STRATA_RETURN_NOT_OK(Advance());
      STRATA_ASSIGN_OR_RETURN(std::vector<Literal> list, ParseList());
      return negated ? NotIn(ref, std::move(list)) : In(ref, std::move(list));
    }
    if (KeywordIs(current_, "is")) {
      STRATA_RETURN_NOT_OK(Advance());
      bool is_not = false;
      if (KeywordIs(current_, "not")) {
        is_not = true;
        STRATA_RETURN_NOT_OK(Advance());
      }
      if (!KeywordIs(current_, "null")) {
        return Error(current_, fmt::format("expected NULL after IS{}, found {}", is_not ? " NOT" : "",
                                           Describe(current_)));
      }
      STRATA_RETURN_NOT_OK(Advance());
      return is_not ? IsNotNull(ref) : IsNull(ref);
    }
    const std::string what = current_.kind == Token::Kind::kWord ? "unknown keyword " + Describe(current_)
                                                                 : "found " + Describe(current_);
    return Error(current_, fmt::format("{} after the column {}: expected a comparison (=, !=, <, <=, >, >=), "
                                       "IN, NOT IN or IS [NOT] NULL",
                                       what, ColumnText(column)));
  }

  static std::string ColumnText(const std::vector<std::string>& column) {
    std::string out;
    for (size_t i = 0; i < column.size(); ++i) out += (i > 0 ? "." : "") + column[i];
    return out;
  }

  Result<std::vector<std::string>> ParseColumn() {
    std::vector<std::string> path;
    while (true) {
      const bool plain = current_.kind == Token::Kind::kWord;
      if (plain) {
        static const char* const kReserved[] = {"and", "or", "not", "in", "is", "null", "true", "false"};
        for (const char* keyword : kReserved) {
          if (KeywordIs(current_, keyword)) {
            return Error(current_, fmt::format("expected a column name, found the keyword {} (quote a column "
                                               "of that name: \"{}\")",
                                               Describe(current_), current_.text));
          }
        }
      }
      if (!plain && current_.kind != Token::Kind::kQuotedName) {
        return Error(current_, fmt::format("expected a column name or '(', found {}", Describe(current_)));
      }
      path.push_back(current_.text);
      STRATA_RETURN_NOT_OK(Advance());
      if (!AtSymbol(".")) return path;
      STRATA_RETURN_NOT_OK(Advance());
    }
  }

  Result<std::vector<Literal>> ParseList() {
    if (!AtSymbol("(")) return Error(current_, fmt::format("expected '(' after IN, found {}", Describe(current_)));
    const Token open = current_;
    STRATA_RETURN_NOT_OK(Advance());
    std::vector<Literal> list;
    while (true) {
      STRATA_ASSIGN_OR_RETURN(Literal literal, ParseLiteral(list.empty() ? "in the IN list" : "after ','"));
      list.push_back(std::move(literal));
      if (AtSymbol(",")) {
        STRATA_RETURN_NOT_OK(Advance());
        continue;
      }
      if (AtSymbol(")")) break;
      return Error(current_, fmt::format("expected ',' or ')' to close '(' at {}, found {}", open.position + 1,
                                         Describe(current_)));
    }
    STRATA_RETURN_NOT_OK(Advance());
    return list;
  }

  // `where` completes "expected a literal ...".
  Result<Literal> ParseLiteral(const std::string& where) {
    std::string sign;
    const Token first = current_;
    if (AtSymbol("-") || AtSymbol("+")) {
      sign = current_.text;
      STRATA_RETURN_NOT_OK(Advance());
      const bool number_follows = current_.kind == Token::Kind::kNumber || KeywordIs(current_, "inf") ||
                                  KeywordIs(current_, "nan");
      if (!number_follows) {
        return Error(current_, fmt::format("expected a number after '{}', found {}", sign, Describe(current_)));
      }
    }
    switch (current_.kind) {
      case Token::Kind::kNumber: {
        const std::string& t = current_.text;
        Literal literal;
        literal.kind = t.find_first_of("eE") != std::string::npos ? Literal::Kind::kFloat
                       : t.find('.') != std::string::npos        ? Literal::Kind::kDecimal
                                                                 : Literal::Kind::kInteger;
        literal.text = sign + t;
        STRATA_RETURN_NOT_OK(Advance());
        return literal;
      }
      case Token::Kind::kString: {
        Literal literal = Literal::String(current_.text);
        STRATA_RETURN_NOT_OK(Advance());
        return literal;
      }
      case Token::Kind::kWord: {
        Literal literal;
        if (KeywordIs(current_, "inf") || KeywordIs(current_, "nan")) {
          literal = Literal{Literal::Kind::kFloat, sign + (KeywordIs(current_, "inf") ? "inf" : "nan")};
        } else if (KeywordIs(current_, "true") || KeywordIs(current_, "false")) {
          literal = Literal::Bool(KeywordIs(current_, "true"));
        } else if (KeywordIs(current_, "null")) {
          literal = Literal::Null();
        } else {
          return Error(current_, fmt::format("unknown keyword {}: expected a literal {} (a number, a 'string', "
                                             "true, false or null)",
                                             Describe(current_), where));
        }
        STRATA_RETURN_NOT_OK(Advance());
        return literal;
      }
      default:
        (void)first;
        return Error(current_, fmt::format("expected a literal {}, found {}", where, Describe(current_)));
    }
  }

  static constexpr int kMaxDepth = 200;

  std::string_view text_;
  size_t pos_ = 0;
  Token current_;
  int depth_ = 0;
};

}  // namespace

Result<ExpressionPtr> ParseFilter(std::string_view text) { return Parser(text).Parse(); }

}  // namespace strata::expr
