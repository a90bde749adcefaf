// The option strings of the C API (strata.h): "key=value;key=value", parsed strictly into a
// small map, and the typed readers of its values. Internal to the strata_c layer.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "strata/util/result.h"

namespace strata::c_api {

// The pairs of an option string, checked against the keys a function knows.
class OptionList {
 public:
  // Splits `text` (NULL or "" = no options) at ';'. Empty segments are skipped; a segment
  // without '=', an empty key, a key not in `known` or a key given twice is Invalid. Keys are
  // trimmed of spaces, values kept as written.
  static Result<OptionList> Parse(const char* text, std::initializer_list<std::string_view> known);

  // The value of `key`, if given.
  std::optional<std::string> GetString(std::string_view key);
  // An integer in [min, max].
  Result<std::optional<int64_t>> GetInt(std::string_view key, int64_t min, int64_t max);
  // yes|no, on|off, true|false, 1|0.
  Result<std::optional<bool>> GetBool(std::string_view key);
  // A delimiter of 1 to 4 bytes, or comma|tab|semicolon|pipe|space.
  Result<std::optional<std::string>> GetDelimiter(std::string_view key);
  // A comma-separated list of non-empty names.
  Result<std::optional<std::vector<std::string>>> GetList(std::string_view key);

 private:
  struct Entry {
    std::string key;
    std::string value;
  };
  Entry* Find(std::string_view key);
  std::vector<Entry> entries_;
};

}  // namespace strata::c_api
