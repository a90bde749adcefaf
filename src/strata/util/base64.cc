// Base64 encoding and strict decoding (RFC 4648 section 4).
#include "strata/util/base64.h"

#include <array>
#include <cstdint>

namespace strata {
namespace {

constexpr std::string_view kAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
constexpr uint8_t kNotInAlphabet = 0xFF;

constexpr std::array<uint8_t, 256> MakeDecodeTable() {
  std::array<uint8_t, 256> table{};
  for (auto& entry : table) entry = kNotInAlphabet;
  for (size_t i = 0; i < kAlphabet.size(); ++i) table[static_cast<uint8_t>(kAlphabet[i])] = static_cast<uint8_t>(i);
  return table;
}
constexpr std::array<uint8_t, 256> kDecodeTable = MakeDecodeTable();

}  // namespace

std::string Base64Encode(std::string_view bytes) {
  std::string out(static_cast<size_t>(Base64EncodedLength(static_cast<int64_t>(bytes.size()))), '\0');
  Base64EncodeTo(bytes, out.data());
  return out;
}

char* Base64EncodeTo(std::string_view bytes, char* out) {
  const auto* in = reinterpret_cast<const uint8_t*>(bytes.data());
  size_t i = 0;
  for (; i + 3 <= bytes.size(); i += 3) {
    const uint32_t group = (uint32_t{in[i]} << 16) | (uint32_t{in[i + 1]} << 8) | in[i + 2];
    *out++ = kAlphabet[(group >> 18) & 63];
    *out++ = kAlphabet[(group >> 12) & 63];
    *out++ = kAlphabet[(group >> 6) & 63];
    *out++ = kAlphabet[group & 63];
  }
  const size_t rest = bytes.size() - i;
  if (rest > 0) {
    uint32_t group = uint32_t{in[i]} << 16;
    if (rest == 2) group |= uint32_t{in[i + 1]} << 8;
    *out++ = kAlphabet[(group >> 18) & 63];
    *out++ = kAlphabet[(group >> 12) & 63];
    *out++ = rest == 2 ? kAlphabet[(group >> 6) & 63] : '=';
    *out++ = '=';
  }
  return out;
}

Result<std::string> Base64Decode(std::string_view text) {
  // Strip the padding first: at most two '=', and only when they complete a 4-character group.
  size_t data_chars = text.size();
  size_t padding = 0;
  while (data_chars > 0 && text[data_chars - 1] == '=' && padding < 2) {
    --data_chars;
    ++padding;
  }
  if (padding > 0 && text.size() % 4 != 0) {
    return Status::Invalid("base64: padding at offset {} does not complete a 4-character group (length {})",
                           data_chars, text.size());
  }
  if (data_chars % 4 == 1) {
    return Status::Invalid("base64: {} characters leave a lone character at offset {}", data_chars,
                           data_chars - 1);
  }
  if (padding > 0 && (data_chars % 4) + padding != 4) {
    return Status::Invalid("base64: {} padding characters after a group of {} at offset {}", padding,
                           data_chars % 4, data_chars);
  }

  std::string out;
  out.reserve(data_chars / 4 * 3 + 2);
  uint32_t group = 0;
  int bits = 0;
  for (size_t i = 0; i < data_chars; ++i) {
    const uint8_t value = kDecodeTable[static_cast<uint8_t>(text[i])];
    if (value == kNotInAlphabet) {
      return Status::Invalid("base64: character 0x{:02x} at offset {} is not in the alphabet",
                             static_cast<uint8_t>(text[i]), i);
    }
    group = (group << 6) | value;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(static_cast<char>((group >> bits) & 0xFF));
    }
  }
  // A partial group leaves 2 or 4 unused bits in its last character; a canonical encoder
  // writes them as zero, and anything else means the text was not base64 of these bytes.
  if ((group & ((1u << bits) - 1)) != 0) {
    return Status::Invalid("base64: the character at offset {} has non-zero padding bits", data_chars - 1);
  }
  return out;
}

}  // namespace strata
