// MonthDayNano: one value of the month_day_nano_interval type (Arrow's
// Interval(MONTH_DAY_NANO)), and its 16-byte little-endian layout in an array's value buffer.
// The three fields are independent: a month is not a fixed number of days, nor a day a fixed
// number of nanoseconds (time zones), so the value is kept as given and has no total order.
#pragma once

#include <cstdint>
#include <cstring>

namespace strata {

struct MonthDayNano {
  int32_t months = 0;
  int32_t days = 0;
  int64_t nanoseconds = 0;

  friend bool operator==(const MonthDayNano&, const MonthDayNano&) = default;
};

// Bytes per value in the value buffer: months at 0, days at 4, nanoseconds at 8.
inline constexpr int kMonthDayNanoBytes = 16;
static_assert(sizeof(MonthDayNano) == kMonthDayNanoBytes, "MonthDayNano must match Arrow's layout");

// Reads / writes one value at `bytes` (no alignment needed; little-endian hosts only, as the
// rest of strata's buffers).
inline MonthDayNano LoadMonthDayNano(const uint8_t* bytes) {
  MonthDayNano value;
  std::memcpy(&value.months, bytes, 4);
  std::memcpy(&value.days, bytes + 4, 4);
  std::memcpy(&value.nanoseconds, bytes + 8, 8);
  return value;
}
inline void StoreMonthDayNano(const MonthDayNano& value, uint8_t* bytes) {
  std::memcpy(bytes, &value.months, 4);
  std::memcpy(bytes + 4, &value.days, 4);
  std::memcpy(bytes + 8, &value.nanoseconds, 8);
}

}  // namespace strata
