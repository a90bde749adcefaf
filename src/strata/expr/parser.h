// The --filter text form:
//   expr       := or
//   or         := and ( OR and )*
//   and        := not ( AND not )*
//   not        := NOT not | primary
//   primary    := '(' expr ')' | column cmp literal | column [NOT] IN '(' literal (',' literal)* ')'
//               | column IS [NOT] NULL
//   cmp        := = | == | != | <> | < | <= | > | >=
//   column     := name ( '.' name )*      name: [A-Za-z_][A-Za-z0-9_]* or "double-quoted" ("" escapes ")
//   literal    := [-|+] integer | [-|+] decimal | [-|+] float (1e5, 2.5E-3, inf, nan) | 'string' ('' escapes ')
//               | true | false | null
// Keywords are case-insensitive. Errors give the position (1-based character) and what was
// expected: "filter: at 18: expected a literal after '>=', found ')'".
#pragma once

#include <string_view>

#include "strata/expr/expression.h"
#include "strata/util/result.h"

namespace strata::expr {

Result<ExpressionPtr> ParseFilter(std::string_view text);

}  // namespace strata::expr
