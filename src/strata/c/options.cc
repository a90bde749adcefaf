#include "strata/c/options.h"

#include <charconv>

namespace strata::c_api {

namespace {

std::string_view Trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  return text;
}

}  // namespace

Result<OptionList> OptionList::Parse(const char* text, std::initializer_list<std::string_view> known) {
  OptionList list;
  if (text == nullptr) return list;
  std::string_view rest(text);
  while (!rest.empty()) {
    const size_t end = rest.find(';');
    const std::string_view segment = rest.substr(0, end);
    rest = end == std::string_view::npos ? std::string_view() : rest.substr(end + 1);
    if (Trim(segment).empty()) continue;
    const size_t equals = segment.find('=');
    if (equals == std::string_view::npos) {
      return Status::Invalid("option '{}' is not key=value", segment);
    }
    const std::string_view key = Trim(segment.substr(0, equals));
    if (key.empty()) return Status::Invalid("option '{}' has no key", segment);
    bool is_known = false;
    for (std::string_view k : known) is_known = is_known || k == key;
    if (!is_known) {
      std::string keys;
      for (std::string_view k : known) {
        if (!keys.empty()) keys += ", ";
        keys += k;
      }
      return Status::Invalid("unknown option '{}' (known: {})", key, keys);
    }
    if (list.Find(key) != nullptr) return Status::Invalid("option '{}' is given twice", key);
    list.entries_.push_back(Entry{std::string(key), std::string(segment.substr(equals + 1))});
  }
  return list;
}

OptionList::Entry* OptionList::Find(std::string_view key) {
  for (Entry& entry : entries_) {
    if (entry.key == key) return &entry;
  }
  return nullptr;
}

std::optional<std::string> OptionList::GetString(std::string_view key) {
  Entry* entry = Find(key);
  if (entry == nullptr) return std::nullopt;
  return entry->value;
}

Result<std::optional<int64_t>> OptionList::GetInt(std::string_view key, int64_t min, int64_t max) {
  std::optional<std::string> text = GetString(key);
  if (!text) return std::optional<int64_t>();
  int64_t value = 0;
  const char* first = text->data();
  const char* last = first + text->size();
  const auto [end, error] = std::from_chars(first, last, value);
  if (text->empty() || error != std::errc() || end != last) {
    return Status::Invalid("option '{}': '{}' is not an integer", key, *text);
  }
  if (value < min || value > max) {
    return Status::Invalid("option '{}': {} is out of range [{}, {}]", key, value, min, max);
  }
  return std::optional<int64_t>(value);
}

Result<std::optional<bool>> OptionList::GetBool(std::string_view key) {
  std::optional<std::string> text = GetString(key);
  if (!text) return std::optional<bool>();
  const std::string& v = *text;
  if (v == "yes" || v == "on" || v == "true" || v == "1") return std::optional<bool>(true);
  if (v == "no" || v == "off" || v == "false" || v == "0") return std::optional<bool>(false);
  return Status::Invalid("option '{}': '{}' is not yes|no (on|off, true|false, 1|0)", key, v);
}

Result<std::optional<std::string>> OptionList::GetDelimiter(std::string_view key) {
  std::optional<std::string> text = GetString(key);
  if (!text) return std::optional<std::string>();
  const std::string& v = *text;
  if (v == "comma") return std::optional<std::string>(",");
  if (v == "tab" || v == "\\t") return std::optional<std::string>("\t");
  if (v == "semicolon") return std::optional<std::string>(";");
  if (v == "pipe") return std::optional<std::string>("|");
  if (v == "space") return std::optional<std::string>(" ");
  if (!v.empty() && v.size() <= 4) return std::optional<std::string>(v);
  return Status::Invalid("option '{}': '{}' is not 1 to 4 bytes or comma|tab|semicolon|pipe|space", key, v);
}

Result<std::optional<std::vector<std::string>>> OptionList::GetList(std::string_view key) {
  std::optional<std::string> text = GetString(key);
  if (!text) return std::optional<std::vector<std::string>>();
  std::vector<std::string> names;
  std::string_view rest(*text);
  while (true) {
    const size_t comma = rest.find(',');
    const std::string_view name = rest.substr(0, comma);
    if (name.empty()) return Status::Invalid("option '{}': '{}' holds an empty name", key, *text);
    names.emplace_back(name);
    if (comma == std::string_view::npos) break;
    rest = rest.substr(comma + 1);
  }
  return std::optional<std::vector<std::string>>(std::move(names));
}

}  // namespace strata::c_api
