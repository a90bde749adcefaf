// Reading date, time and timestamp strings exactly: 'YYYY-MM-DD', 'HH:MM[:SS[.fraction]]',
// 'YYYY-MM-DD[ T]HH:MM[:SS[.fraction]][Z|+HH:MM|-HH:MM]'. Used by Bind; exposed for tests.
#pragma once

#include <cstdint>
#include <string_view>

#include "strata/expr/literal_conversion.h"
#include "strata/types/data_type.h"
#include "strata/util/result.h"

namespace strata::expr {

// Days since 1970-01-01 of a proleptic Gregorian date (no range check).
int64_t DaysFromCivil(int64_t year, int month, int day);

// Nanoseconds per unit for the targets below.
inline constexpr int64_t kNanosPerDay = 86400LL * 1000000000LL;
// Nanoseconds in one `unit` (a timestamp, time or duration column's), for the targets below.
int64_t NanosPerUnit(TimeUnit unit);

// A date or timestamp string as floor(instant / unit_nanos) since the epoch, exact when the
// instant is a whole number of units. A date alone means midnight UTC; no offset means UTC.
// Invalid (with the reason) for malformed text or out-of-range fields.
Result<ScaledNumber> ParseTimestampLiteral(std::string_view text, int64_t unit_nanos);

// A time of day as floor(time / unit_nanos) since midnight.
Result<ScaledNumber> ParseTimeLiteral(std::string_view text, int64_t unit_nanos);

}  // namespace strata::expr
