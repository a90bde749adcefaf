// Date, time and timestamp literal parsing with strict field validation.
#include "strata/expr/temporal_literals.h"

#include <string>

namespace strata::expr {

int64_t NanosPerUnit(TimeUnit unit) {
  switch (unit) {
    case TimeUnit::kSecond: return 1000000000;
    case TimeUnit::kMilli: return 1000000;
    case TimeUnit::kMicro: return 1000;
    case TimeUnit::kNano: return 1;
  }
  return 1;
}

namespace {

bool IsLeapYear(int64_t year) { return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0; }

int DaysInMonth(int64_t year, int month) {
  static const int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return month == 2 && IsLeapYear(year) ? 29 : kDays[month - 1];
}

// A cursor over the literal with fixed-width digit reads.
class Reader {
 public:
  explicit Reader(std::string_view text) : text_(text) {}
  bool AtEnd() const { return pos_ >= text_.size(); }
  char Peek() const { return AtEnd() ? '\0' : text_[pos_]; }
  bool Consume(char c) {
    if (Peek() != c) return false;
    ++pos_;
    return true;
  }
  // Exactly `width` digits.
  bool Digits(int width, int64_t* out) {
    int64_t v = 0;
    for (int i = 0; i < width; ++i) {
      const char c = Peek();
      if (c < '0' || c > '9') return false;
      v = v * 10 + (c - '0');
      ++pos_;
    }
    *out = v;
    return true;
  }
  // One or more digits, returned as text.
  std::string_view DigitRun() {
    const size_t start = pos_;
    while (Peek() >= '0' && Peek() <= '9') ++pos_;
    return text_.substr(start, pos_ - start);
  }

 private:
  std::string_view text_;
  size_t pos_ = 0;
};

const char* const kMonthNames[] = {"January", "February", "March",     "April",   "May",      "June",
                                   "July",    "August",   "September", "October", "November", "December"};

Status ReadDate(Reader& r, std::string_view text, int64_t* days) {
  int64_t year = 0, month = 0, day = 0;
  if (!r.Digits(4, &year) || !r.Consume('-') || !r.Digits(2, &month) || !r.Consume('-') || !r.Digits(2, &day)) {
    return Status::Invalid("'{}' is not a date (expected YYYY-MM-DD)", text);
  }
  if (month < 1 || month > 12) return Status::Invalid("'{}': month {} is not in 1-12", text, month);
  const int max_day = DaysInMonth(year, static_cast<int>(month));
  if (day < 1 || day > max_day) {
    return Status::Invalid("'{}': day {} is not in 1-{} ({} {})", text, day, max_day, kMonthNames[month - 1], year);
  }
  *days = DaysFromCivil(year, static_cast<int>(month), static_cast<int>(day));
  return Status::OK();
}

// HH:MM[:SS[.fraction]] as nanoseconds; `sub_nanos` is set when digits past nanoseconds are
// nonzero.
Status ReadTime(Reader& r, std::string_view text, __int128* nanos, bool* sub_nanos) {
  int64_t hour = 0, minute = 0, second = 0;
  if (!r.Digits(2, &hour) || !r.Consume(':') || !r.Digits(2, &minute)) {
    return Status::Invalid("'{}' is not a time (expected HH:MM[:SS[.fraction]])", text);
  }
  if (r.Consume(':')) {
    if (!r.Digits(2, &second)) return Status::Invalid("'{}': expected two digits of seconds", text);
  }
  if (hour > 23) return Status::Invalid("'{}': hour {} is not in 0-23", text, hour);
  if (minute > 59) return Status::Invalid("'{}': minute {} is not in 0-59", text, minute);
  if (second > 59) return Status::Invalid("'{}': second {} is not in 0-59", text, second);
  int64_t fraction = 0;
  *sub_nanos = false;
  if (r.Consume('.')) {
    const std::string_view digits = r.DigitRun();
    if (digits.empty()) return Status::Invalid("'{}': expected digits after '.'", text);
    for (size_t i = 0; i < 9; ++i) fraction = fraction * 10 + (i < digits.size() ? digits[i] - '0' : 0);
    for (size_t i = 9; i < digits.size(); ++i) *sub_nanos = *sub_nanos || digits[i] != '0';
  }
  *nanos = static_cast<__int128>((hour * 60 + minute) * 60 + second) * 1000000000 + fraction;
  return Status::OK();
}

ScaledNumber ToUnit(__int128 nanos, bool sub_nanos, int64_t unit_nanos) {
  // Floor division (nanos may be negative before 1970).
  __int128 q = nanos / unit_nanos;
  const __int128 rem = nanos % unit_nanos;
  if (rem < 0) --q;
  return ScaledNumber{q, rem == 0 && !sub_nanos};
}

}  // namespace

int64_t DaysFromCivil(int64_t year, int month, int day) {
  // Count from 0000-03-01 so that the leap day ends a year; 400-year cycles have 146097 days.
  const int64_t y = year - (month <= 2 ? 1 : 0);
  const int64_t cycle = (y >= 0 ? y : y - 399) / 400;
  const int64_t year_of_cycle = y - cycle * 400;
  const int64_t month_from_march = month > 2 ? month - 3 : month + 9;
  const int64_t day_of_year = (153 * month_from_march + 2) / 5 + day - 1;
  const int64_t day_of_cycle = year_of_cycle * 365 + year_of_cycle / 4 - year_of_cycle / 100 + day_of_year;
  constexpr int64_t kDaysFrom0000To1970 = 719468;
  return cycle * 146097 + day_of_cycle - kDaysFrom0000To1970;
}

Result<ScaledNumber> ParseTimestampLiteral(std::string_view text, int64_t unit_nanos) {
  Reader r(text);
  int64_t days = 0;
  STRATA_RETURN_NOT_OK(ReadDate(r, text, &days));
  __int128 nanos = static_cast<__int128>(days) * kNanosPerDay;
  bool sub_nanos = false;
  if (r.Consume('T') || r.Consume(' ') || r.Consume('t')) {
    __int128 time = 0;
    STRATA_RETURN_NOT_OK(ReadTime(r, text, &time, &sub_nanos));
    nanos += time;
    if (r.Consume('Z') || r.Consume('z')) {
      // UTC
    } else if (r.Peek() == '+' || r.Peek() == '-') {
      const bool behind = r.Peek() == '-';
      r.Consume(r.Peek());
      int64_t hours = 0, minutes = 0;
      if (!r.Digits(2, &hours)) return Status::Invalid("'{}': expected an offset +HH:MM", text);
      if (r.Consume(':')) {
        if (!r.Digits(2, &minutes)) return Status::Invalid("'{}': expected an offset +HH:MM", text);
      } else {
        r.Digits(2, &minutes);  // +HHMM and +HH
      }
      if (hours > 18 || minutes > 59) return Status::Invalid("'{}': offset out of range", text);
      // Local time = UTC + offset, so UTC = local - offset.
      const __int128 offset = static_cast<__int128>(hours * 60 + minutes) * 60 * 1000000000;
      nanos += behind ? offset : -offset;
    }
  }
  if (!r.AtEnd()) return Status::Invalid("'{}': unexpected text after the date/time", text);
  return ToUnit(nanos, sub_nanos, unit_nanos);
}

Result<ScaledNumber> ParseTimeLiteral(std::string_view text, int64_t unit_nanos) {
  Reader r(text);
  __int128 nanos = 0;
  bool sub_nanos = false;
  STRATA_RETURN_NOT_OK(ReadTime(r, text, &nanos, &sub_nanos));
  if (!r.AtEnd()) return Status::Invalid("'{}': unexpected text after the time", text);
  return ToUnit(nanos, sub_nanos, unit_nanos);
}

}  // namespace strata::expr
