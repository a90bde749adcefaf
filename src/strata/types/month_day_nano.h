// MonthDayNano: one value of the month_day_nano_interval type (Arrow's
// Interval(MONTH_DAY_NANO)), and its 16-byte little-endian layout in an array's value buffer.
// The three fields are independent: a month is not a fixed number of days, nor a day a fixed
// number of nanoseconds (time zones), so the value is kept as given and has no total order.
#pragma once

#include <cstdint>
#include <cstring>

#include "strata/types/data_type.h"

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

// Interval(DAY_TIME): int32 days, then int32 milliseconds (8 bytes, little-endian).
struct DayTime {
  int32_t days = 0;
  int32_t milliseconds = 0;

  friend bool operator==(const DayTime&, const DayTime&) = default;
};
inline constexpr int kDayTimeBytes = 8;
static_assert(sizeof(DayTime) == kDayTimeBytes, "DayTime must match Arrow's layout");

inline DayTime LoadDayTime(const uint8_t* bytes) {
  DayTime value;
  std::memcpy(&value.days, bytes, 4);
  std::memcpy(&value.milliseconds, bytes + 4, 4);
  return value;
}
inline void StoreDayTime(const DayTime& value, uint8_t* bytes) {
  std::memcpy(bytes, &value.days, 4);
  std::memcpy(bytes + 4, &value.milliseconds, 4);
}

// Value `index` of a value buffer of any interval type (year_month: int32 months; day_time;
// month_day_nano), widened to MonthDayNano exactly (milliseconds * 10^6 fits an int64), so
// that one printer and one comparison serve all three.
inline MonthDayNano LoadIntervalAsMonthDayNano(TypeId id, const uint8_t* values, int64_t index) {
  switch (id) {
    case TypeId::kIntervalYearMonth: {
      int32_t months;
      std::memcpy(&months, values + index * 4, 4);
      return MonthDayNano{months, 0, 0};
    }
    case TypeId::kIntervalDayTime: {
      const DayTime value = LoadDayTime(values + index * kDayTimeBytes);
      return MonthDayNano{0, value.days, int64_t{value.milliseconds} * 1000000};
    }
    default: return LoadMonthDayNano(values + index * kMonthDayNanoBytes);
  }
}

}  // namespace strata
