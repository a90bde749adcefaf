// Test support: reading Arrow's integration JSON without exceptions. Accessors that name the
// context in every error, and the value decoders (hex, half floats, decimal integers) the
// schema and column readers share. Internal to integration_json.
#pragma once

#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "strata/memory/buffer.h"
#include "strata/types/data_type.h"
#include "strata/util/result.h"

namespace strata::ipc::integration_json {

using Json = nlohmann::json;

// Nesting deeper than this is refused (bounds the recursion on odd input).
inline constexpr int kMaxDepth = 64;
// Larger element counts are refused before anything is allocated for them.
inline constexpr int64_t kMaxCount = int64_t{1} << 31;

// ---------------------------------------------------------------------------------------------
// JSON access helpers: never throw, always name the context.

inline const Json* Member(const Json& object, const char* key) {
  if (!object.is_object()) return nullptr;
  auto it = object.find(key);
  return it == object.end() ? nullptr : &*it;
}

inline Result<const Json*> Required(const Json& object, const char* key, const std::string& ctx) {
  const Json* v = Member(object, key);
  if (v == nullptr) return Status::Invalid("{}: missing \"{}\"", ctx, key);
  return v;
}

inline Result<std::string> GetString(const Json& v, const std::string& ctx) {
  if (!v.is_string()) return Status::Invalid("{}: expected a string, got {}", ctx, v.type_name());
  return v.get<std::string>();
}

inline Result<bool> GetBool(const Json& v, const std::string& ctx) {
  if (!v.is_boolean()) return Status::Invalid("{}: expected a boolean, got {}", ctx, v.type_name());
  return v.get<bool>();
}

template <typename T>
inline Result<T> ParseIntegerText(std::string_view text, const std::string& ctx) {
  T value{};
  const char* begin = text.data();
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(begin, end, value);
  if (ec != std::errc() || ptr != end || text.empty()) {
    return Status::Invalid("{}: \"{}\" is not an integer of the expected range", ctx, text);
  }
  return value;
}

// An integer given as a JSON number or a decimal string (Arrow writes 64-bit values as strings).
template <typename T>
inline Result<T> GetInteger(const Json& v, const std::string& ctx) {
  if (v.is_string()) return ParseIntegerText<T>(v.get_ref<const std::string&>(), ctx);
  if (v.is_number_unsigned()) {
    const uint64_t u = v.get<uint64_t>();
    if (u > static_cast<uint64_t>(std::numeric_limits<T>::max())) {
      return Status::Invalid("{}: {} is out of range", ctx, u);
    }
    return static_cast<T>(u);
  }
  if (v.is_number_integer()) {
    const int64_t s = v.get<int64_t>();
    if constexpr (std::is_signed_v<T>) {
      if (s < static_cast<int64_t>(std::numeric_limits<T>::min()) ||
          s > static_cast<int64_t>(std::numeric_limits<T>::max())) {
        return Status::Invalid("{}: {} is out of range", ctx, s);
      }
    } else {
      if (s < 0 || static_cast<uint64_t>(s) > static_cast<uint64_t>(std::numeric_limits<T>::max())) {
        return Status::Invalid("{}: {} is out of range", ctx, s);
      }
    }
    return static_cast<T>(s);
  }
  return Status::Invalid("{}: expected an integer, got {}", ctx, v.type_name());
}

inline Result<double> GetDouble(const Json& v, const std::string& ctx) {
  if (v.is_number()) return v.get<double>();
  if (v.is_string()) {
    const std::string& s = v.get_ref<const std::string&>();
    if (s == "NaN" || s == "nan") return std::numeric_limits<double>::quiet_NaN();
    if (s == "Infinity" || s == "inf") return std::numeric_limits<double>::infinity();
    if (s == "-Infinity" || s == "-inf") return -std::numeric_limits<double>::infinity();
  }
  return Status::Invalid("{}: expected a number, got {}", ctx, v.dump());
}

inline Result<const Json*> GetArray(const Json& object, const char* key, const std::string& ctx) {
  STRATA_ASSIGN_OR_RETURN(const Json* v, Required(object, key, ctx));
  if (!v->is_array()) return Status::Invalid("{}: \"{}\" must be an array, got {}", ctx, key, v->type_name());
  return v;
}

// An array member of exactly `n` elements.
inline Result<const Json*> GetSizedArray(const Json& object, const char* key, int64_t n, const std::string& ctx) {
  STRATA_ASSIGN_OR_RETURN(const Json* v, GetArray(object, key, ctx));
  if (static_cast<int64_t>(v->size()) != n) {
    return Status::Invalid("{}: \"{}\" has {} entries, expected {}", ctx, key, v->size(), n);
  }
  return v;
}

inline Result<std::string> HexDecode(const std::string& hex, const std::string& ctx) {
  if (hex.size() % 2 != 0) return Status::Invalid("{}: hex string of odd length {}", ctx, hex.size());
  auto nibble = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  std::string out(hex.size() / 2, '\0');
  for (size_t i = 0; i < out.size(); ++i) {
    const int hi = nibble(hex[2 * i]);
    const int lo = nibble(hex[2 * i + 1]);
    if (hi < 0 || lo < 0) return Status::Invalid("{}: \"{}\" is not hex", ctx, hex);
    out[i] = static_cast<char>((hi << 4) | lo);
  }
  return out;
}

// IEEE half-precision bits of `value`, rounded to nearest even.
inline uint16_t DoubleToHalfBits(double value) {
  const float f = static_cast<float>(value);
  uint32_t x;
  std::memcpy(&x, &f, 4);
  const uint16_t sign = static_cast<uint16_t>((x >> 16) & 0x8000u);
  const uint32_t abs = x & 0x7fffffffu;
  if (abs >= 0x7f800000u) {  // inf or nan
    return static_cast<uint16_t>(sign | 0x7c00u | (abs > 0x7f800000u ? 0x200u : 0u));
  }
  if (abs >= 0x477ff000u) return static_cast<uint16_t>(sign | 0x7c00u);  // overflows to inf
  if (abs < 0x38800000u) {  // subnormal half (or zero)
    const int shift = 113 - static_cast<int>(abs >> 23);
    if (shift > 24) return sign;
    const uint32_t mantissa = (abs & 0x7fffffu) | 0x800000u;
    const uint32_t half = mantissa >> (shift + 13);
    const uint32_t rem = mantissa & ((1u << (shift + 13)) - 1);
    const uint32_t mid = 1u << (shift + 12);
    uint32_t r = half;
    if (rem > mid || (rem == mid && (half & 1u))) ++r;
    return static_cast<uint16_t>(sign | r);
  }
  uint32_t h = ((abs - 0x38000000u) >> 13);
  const uint32_t rem = abs & 0x1fffu;
  if (rem > 0x1000u || (rem == 0x1000u && (h & 1u))) ++h;
  return static_cast<uint16_t>(sign | h);
}

// The little-endian two's complement of a decimal integer string, in `width` bytes (16 or 32).
inline Status ParseDecimalInteger(const std::string& text, int width, uint8_t* out, const std::string& ctx) {
  if (width == 4) {  // decimal32: parsed as 64 bits, then range-checked
    int64_t wide = 0;
    STRATA_RETURN_NOT_OK(ParseDecimalInteger(text, 8, reinterpret_cast<uint8_t*>(&wide), ctx));
    if (wide < INT32_MIN || wide > INT32_MAX) {
      return Status::Invalid("{}: \"{}\" does not fit in 32 signed bits", ctx, text);
    }
    const auto narrow = static_cast<int32_t>(wide);
    std::memcpy(out, &narrow, 4);
    return Status::OK();
  }
  const int limbs = width / 8;
  uint64_t v[4] = {0, 0, 0, 0};
  size_t pos = 0;
  bool negative = false;
  if (pos < text.size() && (text[pos] == '-' || text[pos] == '+')) negative = text[pos++] == '-';
  if (pos == text.size()) return Status::Invalid("{}: \"{}\" is not a decimal integer", ctx, text);
  for (; pos < text.size(); ++pos) {
    const char c = text[pos];
    if (c < '0' || c > '9') return Status::Invalid("{}: \"{}\" is not a decimal integer", ctx, text);
    unsigned __int128 carry = static_cast<unsigned>(c - '0');
    for (int i = 0; i < limbs; ++i) {
      const unsigned __int128 t = static_cast<unsigned __int128>(v[i]) * 10 + carry;
      v[i] = static_cast<uint64_t>(t);
      carry = t >> 64;
    }
    if (carry != 0) return Status::Invalid("{}: \"{}\" does not fit in {} bits", ctx, text, width * 8);
  }
  // The magnitude must fit the signed range: below 2^(bits-1), or equal to it when negative.
  const bool top_bit = (v[limbs - 1] >> 63) != 0;
  if (top_bit) {
    bool exactly_min = v[limbs - 1] == (uint64_t{1} << 63);
    for (int i = 0; i < limbs - 1; ++i) exactly_min = exactly_min && v[i] == 0;
    if (!(negative && exactly_min)) {
      return Status::Invalid("{}: \"{}\" does not fit in {} signed bits", ctx, text, width * 8);
    }
  }
  if (negative) {
    uint64_t carry = 1;
    for (int i = 0; i < limbs; ++i) {
      const uint64_t inv = ~v[i];
      v[i] = inv + carry;
      carry = (carry != 0 && v[i] == 0) ? 1 : 0;
    }
  }
  std::memcpy(out, v, static_cast<size_t>(width));  // little-endian host (x86-64, aarch64)
  return Status::OK();
}

inline Result<std::shared_ptr<ResizableBuffer>> ZeroedBuffer(MemoryPool* pool, int64_t size) {
  STRATA_ASSIGN_OR_RETURN(auto buffer, AllocateBuffer(pool, size));
  if (size > 0) std::memset(buffer->mutable_data(), 0, static_cast<size_t>(size));
  return buffer;
}

inline std::string JoinPath(const std::string& parent, const std::string& name) {
  return parent.empty() ? name : parent + "." + name;
}

inline std::string_view UnitJsonName(TimeUnit unit) {
  switch (unit) {
    case TimeUnit::kSecond: return "SECOND";
    case TimeUnit::kMilli: return "MILLISECOND";
    case TimeUnit::kMicro: return "MICROSECOND";
    case TimeUnit::kNano: return "NANOSECOND";
  }
  return "?";
}

inline Result<TimeUnit> ParseUnit(const Json& type, const std::string& ctx) {
  STRATA_ASSIGN_OR_RETURN(const Json* u, Required(type, "unit", ctx));
  STRATA_ASSIGN_OR_RETURN(std::string unit, GetString(*u, ctx + " unit"));
  for (TimeUnit t : {TimeUnit::kSecond, TimeUnit::kMilli, TimeUnit::kMicro, TimeUnit::kNano}) {
    if (unit == UnitJsonName(t)) return t;
  }
  return Status::Invalid("{}: unknown time unit \"{}\"", ctx, unit);
}

}  // namespace strata::ipc::integration_json
