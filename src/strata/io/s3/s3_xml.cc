#include "strata/io/s3/s3_xml.h"

#include <charconv>

#include <fmt/format.h>

namespace strata::s3 {
namespace {

void AppendUtf8(uint32_t code, std::string* out) {
  if (code < 0x80) {
    *out += static_cast<char>(code);
  } else if (code < 0x800) {
    *out += static_cast<char>(0xC0 | (code >> 6));
    *out += static_cast<char>(0x80 | (code & 0x3F));
  } else if (code < 0x10000) {
    *out += static_cast<char>(0xE0 | (code >> 12));
    *out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
    *out += static_cast<char>(0x80 | (code & 0x3F));
  } else {
    *out += static_cast<char>(0xF0 | (code >> 18));
    *out += static_cast<char>(0x80 | ((code >> 12) & 0x3F));
    *out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
    *out += static_cast<char>(0x80 | (code & 0x3F));
  }
}

}  // namespace

std::vector<std::string_view> XmlElements(std::string_view xml, std::string_view tag) {
  std::vector<std::string_view> out;
  const std::string open = fmt::format("<{}>", tag);
  const std::string close = fmt::format("</{}>", tag);
  size_t at = 0;
  while ((at = xml.find(open, at)) != std::string_view::npos) {
    const size_t begin = at + open.size();
    const size_t end = xml.find(close, begin);
    if (end == std::string_view::npos) break;
    out.push_back(xml.substr(begin, end - begin));
    at = end + close.size();
  }
  return out;
}

std::string XmlFirst(std::string_view xml, std::string_view tag) {
  const auto elements = XmlElements(xml, tag);
  return elements.empty() ? "" : XmlUnescape(elements.front());
}

std::string XmlUnescape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '&') {
      out += text[i];
      continue;
    }
    const size_t semicolon = text.find(';', i);
    if (semicolon == std::string_view::npos || semicolon - i > 10) {
      out += '&';
      continue;
    }
    const std::string_view name = text.substr(i + 1, semicolon - i - 1);
    char single = 0;
    if (name == "amp") single = '&';
    if (name == "lt") single = '<';
    if (name == "gt") single = '>';
    if (name == "quot") single = '"';
    if (name == "apos") single = '\'';
    if (single != 0) {
      out += single;
      i = semicolon;
      continue;
    }
    uint32_t code = 0;
    const bool hex = name.size() > 2 && name[0] == '#' && (name[1] == 'x' || name[1] == 'X');
    const std::string_view digits = hex ? name.substr(2) : name.substr(name.empty() ? 0 : 1);
    if (!name.empty() && name[0] == '#' && !digits.empty()) {
      const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), code, hex ? 16 : 10);
      if (error == std::errc() && end == digits.data() + digits.size() && code <= 0x10FFFF) {
        AppendUtf8(code, &out);
        i = semicolon;
        continue;
      }
    }
    out += '&';  // not a reference we know: kept as written
  }
  return out;
}

std::string XmlEscape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default: out += c;
    }
  }
  return out;
}

}  // namespace strata::s3
