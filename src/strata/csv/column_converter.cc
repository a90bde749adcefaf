#include "strata/csv/column_converter.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <string>

#include "strata/array/bitmap.h"
#include "strata/util/utf8.h"
#include "strata/csv/value_parsing.h"
#include "strata/memory/buffer.h"

namespace strata::csv {

namespace {

// Why a value does not fit its column's type (kOk: it does).
enum class Issue : uint8_t {
  kOk,
  kSyntax,
  kOutOfRange,
  kLeadingZeros,
  kInexactDouble,
  kBelowUnit,
  kZoneInNaive,
  kNaiveInZoned,
  kScale,
  kPrecision,
  kNotNull,
};

constexpr double kMaxExactDouble = 9007199254740992.0;  // 2^53
constexpr int64_t kMaxExactInteger = int64_t{1} << 53;

// The validity bitmap, allocated (all valid) at the first null only: columns without nulls
// get none, and the bitmap is never resized.
class LazyValidity {
 public:
  LazyValidity(MemoryPool* pool, int64_t length) : pool_(pool), length_(length) {}

  Status SetNull(int64_t row) {
    if (bits_ == nullptr) STRATA_RETURN_NOT_OK(Allocate());
    bitmap::ClearBit(bits_, row);
    ++null_count_;
    return Status::OK();
  }
  std::shared_ptr<Buffer> buffer() const { return buffer_; }
  int64_t null_count() const { return null_count_; }

 private:
  Status Allocate() {
    const int64_t bytes = bitmap::BytesForBits(length_);
    STRATA_ASSIGN_OR_RETURN(buffer_, AllocateBuffer(pool_, bytes));
    bits_ = buffer_->mutable_data();
    std::memset(bits_, 0xFF, static_cast<size_t>(bytes));
    if (length_ % 8 != 0) bits_[bytes - 1] = static_cast<uint8_t>((1u << (length_ % 8)) - 1);  // padding clear
    return Status::OK();
  }

  MemoryPool* pool_;
  int64_t length_;
  std::shared_ptr<ResizableBuffer> buffer_;
  uint8_t* bits_ = nullptr;
  int64_t null_count_ = 0;
};

// The value as an error message shows it: quoted, at most ~60 bytes (cut on a character
// boundary), control bytes and bytes of invalid UTF-8 as \xNN.
std::string QuoteValue(std::string_view text) {
  constexpr size_t kMaxShown = 57;
  size_t shown = text.size();
  const bool cut = shown > kMaxShown + 3;
  if (cut) {
    shown = kMaxShown;
    while (shown > 0 && (static_cast<uint8_t>(text[shown]) & 0xC0) == 0x80) --shown;
  }
  const std::string_view part = text.substr(0, shown);
  const bool valid = ValidateUtf8(part);
  std::string out = "'";
  for (const char ch : part) {
    const auto c = static_cast<uint8_t>(ch);
    if (c < 0x20 || c == 0x7F || (!valid && c >= 0x80)) {
      out += fmt::format("\\x{:02x}", c);
    } else {
      out += ch;
    }
  }
  out += cut ? "'..." : "'";
  return out;
}

template <int kWords>
struct DecimalWords {
  uint64_t words[kWords];
};

// One column's conversion: dispatches on the type once (Run), then a loop over the rows
// per type with the value parser inlined.
class ColumnConversion {
 public:
  ColumnConversion(const ParsedRows& rows, int column, const TypePtr& type, const ConvertOptions& options,
                   const ColumnContext& context, MemoryPool* pool)
      : rows_(rows),
        column_(column),
        type_(type),
        options_(options),
        context_(context),
        pool_(pool),
        nulls_(options.null_values),
        syntax_(context.type_was_inferred ? NumberSyntax::kStrict : NumberSyntax::kLenient) {}

  Result<Array> Run();

 private:
  // Null in a column of a non-string type: missing, empty (quoted or not) or spelled null.
  bool IsNull(FieldKind kind, std::string_view text) const {
    return kind == FieldKind::kMissing || text.empty() || (kind == FieldKind::kPlain && nulls_.Contains(text));
  }
  // Null in a string or binary column: a quoted empty field is the empty string.
  bool IsStringNull(FieldKind kind, std::string_view text) const {
    return kind == FieldKind::kMissing || (kind == FieldKind::kPlain && nulls_.Contains(text));
  }

  template <typename T, typename Parse>
  Result<Array> FixedWidth(Parse parse);
  template <typename T>
  Result<Array> SignedIntegers();
  template <typename T>
  Result<Array> UnsignedIntegers();
  template <typename T>
  Result<Array> Floats();
  template <int kWords>
  Result<Array> Decimals();
  template <typename T>
  Result<Array> Times();
  Result<Array> Timestamps();
  Result<Array> Booleans();
  Result<Array> Nulls();
  template <typename Offset>
  Result<Array> Strings();
  Result<Array> Views();
  Result<Array> Dictionary();

  Issue IntegerIssue(std::string_view text) const;
  Issue FloatIssue(std::string_view text) const;
  bool validate_utf8() const { return options_.validate_utf8; }

  std::string Location(int64_t row) const;
  [[gnu::cold]] Status ValueError(int64_t row, Issue issue) const;
  [[gnu::cold]] Status Utf8Error(int64_t row, std::string_view text) const;
  Result<Array> Finish(int64_t length, const LazyValidity& validity, std::shared_ptr<Buffer> values) const {
    return Array(ArrayData::Make(type_, length, {validity.buffer(), std::move(values)}, validity.null_count()));
  }

  const ParsedRows& rows_;
  const int column_;
  const TypePtr& type_;
  const ConvertOptions& options_;
  const ColumnContext& context_;
  MemoryPool* pool_;
  const SpellingSet nulls_;
  const NumberSyntax syntax_;
};

Result<Array> ColumnConversion::Run() {
  switch (type_->id()) {
    case TypeId::kNull: return Nulls();
    case TypeId::kBoolean: return Booleans();
    case TypeId::kInt8: return SignedIntegers<int8_t>();
    case TypeId::kInt16: return SignedIntegers<int16_t>();
    case TypeId::kInt32: return SignedIntegers<int32_t>();
    case TypeId::kInt64: return SignedIntegers<int64_t>();
    case TypeId::kUInt8: return UnsignedIntegers<uint8_t>();
    case TypeId::kUInt16: return UnsignedIntegers<uint16_t>();
    case TypeId::kUInt32: return UnsignedIntegers<uint32_t>();
    case TypeId::kUInt64: return UnsignedIntegers<uint64_t>();
    case TypeId::kFloat32: return Floats<float>();
    case TypeId::kFloat64: return Floats<double>();
    case TypeId::kDecimal128: return Decimals<2>();
    case TypeId::kDecimal256: return Decimals<4>();
    case TypeId::kDate32:
      return FixedWidth<int32_t>([](std::string_view text, int32_t* out) {
        return ParseDate(text, out) ? Issue::kOk : Issue::kSyntax;
      });
    case TypeId::kDate64:
      return FixedWidth<int64_t>([](std::string_view text, int64_t* out) {
        int32_t days;
        if (!ParseDate(text, &days)) return Issue::kSyntax;
        *out = int64_t{days} * 86400000;
        return Issue::kOk;
      });
    case TypeId::kTime32: return Times<int32_t>();
    case TypeId::kTime64: return Times<int64_t>();
    case TypeId::kTimestamp: return Timestamps();
    case TypeId::kString:
    case TypeId::kBinary: return Strings<int32_t>();
    case TypeId::kLargeString:
    case TypeId::kLargeBinary: return Strings<int64_t>();
    case TypeId::kStringView:
    case TypeId::kBinaryView: return Views();
    case TypeId::kDictionary:
      if (type_->index_type()->id() == TypeId::kInt32 && is_binary_like(type_->value_type()->id())) {
        return Dictionary();
      }
      break;
    default: break;
  }
  return Status::NotImplemented("CSV column '{}' (#{}): reading values as {} is not supported", context_.name,
                                context_.index + 1, type_->ToString());
}

template <typename T, typename Parse>
Result<Array> ColumnConversion::FixedWidth(Parse parse) {
  const int64_t length = rows_.num_rows();
  STRATA_ASSIGN_OR_RETURN(auto values, AllocateBuffer(pool_, length * static_cast<int64_t>(sizeof(T))));
  T* out = values->template mutable_data_as<T>();
  LazyValidity validity(pool_, length);
  for (int64_t row = 0; row < length; ++row) {
    const FieldKind kind = rows_.Kind(row, column_);
    const std::string_view text = rows_.Field(row, column_);
    if (IsNull(kind, text)) {
      out[row] = T{};
      STRATA_RETURN_NOT_OK(validity.SetNull(row));
      continue;
    }
    const Issue issue = parse(text, &out[row]);
    if (__builtin_expect(issue != Issue::kOk, 0)) return ValueError(row, issue);
  }
  return Finish(length, validity, std::move(values));
}

Issue ColumnConversion::IntegerIssue(std::string_view text) const {
  if (!LooksLikeInteger(text)) return Issue::kSyntax;
  const size_t first = text[0] == '+' || text[0] == '-' ? 1 : 0;
  const bool leading_zero = text.size() > first + 1 && text[first] == '0';
  return syntax_ == NumberSyntax::kStrict && leading_zero ? Issue::kLeadingZeros : Issue::kOutOfRange;
}

Issue ColumnConversion::FloatIssue(std::string_view text) const {
  double value;
  if (syntax_ == NumberSyntax::kStrict && ParseFloat64(text, &value, NumberSyntax::kLenient)) {
    return Issue::kLeadingZeros;
  }
  return Issue::kSyntax;
}

template <typename T>
Result<Array> ColumnConversion::SignedIntegers() {
  return FixedWidth<T>([this](std::string_view text, T* out) {
    int64_t value;
    if (!ParseInt64(text, &value, syntax_)) return IntegerIssue(text);
    if (value < std::numeric_limits<T>::min() || value > std::numeric_limits<T>::max()) return Issue::kOutOfRange;
    *out = static_cast<T>(value);
    return Issue::kOk;
  });
}

template <typename T>
Result<Array> ColumnConversion::UnsignedIntegers() {
  return FixedWidth<T>([this](std::string_view text, T* out) {
    uint64_t value;
    if (!ParseUInt64(text, &value, syntax_)) return IntegerIssue(text);
    if (value > std::numeric_limits<T>::max()) return Issue::kOutOfRange;
    *out = static_cast<T>(value);
    return Issue::kOk;
  });
}

template <typename T>
Result<Array> ColumnConversion::Floats() {
  return FixedWidth<T>([this](std::string_view text, T* out) {
    bool parsed;
    if constexpr (sizeof(T) == 8) {
      parsed = ParseFloat64(text, out, syntax_);
    } else {
      parsed = ParseFloat32(text, out, syntax_);
    }
    if (!parsed) return FloatIssue(text);
    // As inference: an integer a double cannot hold exactly is not silently rounded.
    if (syntax_ == NumberSyntax::kStrict && std::fabs(static_cast<double>(*out)) >= kMaxExactDouble &&
        LooksLikeInteger(text)) {
      int64_t integer;  // 2^53 + 1 rounds to 2^53: decide on the text
      if (!ParseInt64(text, &integer) || integer > kMaxExactInteger || integer < -kMaxExactInteger) {
        return Issue::kInexactDouble;
      }
    }
    return Issue::kOk;
  });
}

template <int kWords>
Result<Array> ColumnConversion::Decimals() {
  const int32_t precision = type_->precision();
  const int32_t scale = type_->scale();
  return FixedWidth<DecimalWords<kWords>>([precision, scale](std::string_view text, DecimalWords<kWords>* out) {
    switch (ParseDecimal(text, precision, scale, kWords, out->words)) {
      case DecimalStatus::kOk: return Issue::kOk;
      case DecimalStatus::kSyntax: return Issue::kSyntax;
      case DecimalStatus::kLosesDigits: return Issue::kScale;
      case DecimalStatus::kTooManyDigits: return Issue::kPrecision;
    }
    return Issue::kSyntax;
  });
}

template <typename T>
Result<Array> ColumnConversion::Times() {
  const TimeUnit unit = type_->unit();
  return FixedWidth<T>([unit](std::string_view text, T* out) {
    TimeOfDay time;
    if (!ParseTime(text, &time)) return Issue::kSyntax;
    int64_t value;
    if (!TimeToUnit(time.nanos, unit, &value)) return Issue::kBelowUnit;
    *out = static_cast<T>(value);
    return Issue::kOk;
  });
}

Result<Array> ColumnConversion::Timestamps() {
  const TimeUnit unit = type_->unit();
  const bool zoned = !type_->timezone().empty();
  // A naive value in a zoned column is taken as UTC, unless the type was inferred from
  // zoned values only (inference would have made a mixed column a string).
  const bool naive_is_utc = !context_.type_was_inferred;
  return FixedWidth<int64_t>([unit, zoned, naive_is_utc](std::string_view text, int64_t* out) {
    TimestampValue value;
    if (!ParseTimestamp(text, &value)) return Issue::kSyntax;
    // A zoned value in a naive column is refused: which wall clock would it be?
    if (value.has_zone != zoned && (value.has_zone || !naive_is_utc)) {
      return value.has_zone ? Issue::kZoneInNaive : Issue::kNaiveInZoned;
    }
    if (TimestampToUnit(value, unit, out)) return Issue::kOk;
    int64_t unused;
    return TimeToUnit(value.nanos, unit, &unused) ? Issue::kOutOfRange : Issue::kBelowUnit;
  });
}

Result<Array> ColumnConversion::Booleans() {
  const int64_t length = rows_.num_rows();
  const SpellingSet trues(options_.true_values);
  const SpellingSet falses(options_.false_values);
  const int64_t bytes = bitmap::BytesForBits(length);
  STRATA_ASSIGN_OR_RETURN(auto values, AllocateBuffer(pool_, bytes));
  uint8_t* bits = values->mutable_data();
  if (bytes > 0) std::memset(bits, 0, static_cast<size_t>(bytes));
  LazyValidity validity(pool_, length);
  for (int64_t row = 0; row < length; ++row) {
    const FieldKind kind = rows_.Kind(row, column_);
    const std::string_view text = rows_.Field(row, column_);
    if (IsNull(kind, text)) {
      STRATA_RETURN_NOT_OK(validity.SetNull(row));
    } else if (trues.Contains(text)) {
      bitmap::SetBit(bits, row);
    } else if (!falses.Contains(text)) {
      return ValueError(row, Issue::kSyntax);
    }
  }
  return Finish(length, validity, std::move(values));
}

Result<Array> ColumnConversion::Nulls() {
  const int64_t length = rows_.num_rows();
  for (int64_t row = 0; row < length; ++row) {
    if (!IsNull(rows_.Kind(row, column_), rows_.Field(row, column_))) return ValueError(row, Issue::kNotNull);
  }
  return Array(ArrayData::Make(type_, length, {nullptr}, length));
}

template <typename Offset>
Result<Array> ColumnConversion::Strings() {
  const int64_t length = rows_.num_rows();
  const bool validate = is_string(type_->id()) && validate_utf8();
  // Exact but for the bytes of null spellings, which are not copied.
  const int64_t data_size = rows_.ColumnDataSize(column_);
  if (data_size > std::numeric_limits<Offset>::max()) {
    return Status::LimitExceeded("CSV column '{}' (#{}): {} bytes of text in one block do not fit {} (use a large_ type)",
                                 context_.name, context_.index + 1, data_size, type_->ToString());
  }
  STRATA_ASSIGN_OR_RETURN(auto offsets_buffer, AllocateBuffer(pool_, (length + 1) * static_cast<int64_t>(sizeof(Offset))));
  STRATA_ASSIGN_OR_RETURN(auto data_buffer, AllocateBuffer(pool_, data_size));
  Offset* offsets = offsets_buffer->template mutable_data_as<Offset>();
  uint8_t* data = data_buffer->mutable_data();
  LazyValidity validity(pool_, length);
  int64_t position = 0;
  offsets[0] = 0;
  for (int64_t row = 0; row < length; ++row) {
    const FieldKind kind = rows_.Kind(row, column_);
    const std::string_view text = rows_.Field(row, column_);
    if (IsStringNull(kind, text)) {
      STRATA_RETURN_NOT_OK(validity.SetNull(row));
    } else {
      if (validate && !ValidateUtf8(text)) return Utf8Error(row, text);
      if (!text.empty()) std::memcpy(data + position, text.data(), text.size());
      position += static_cast<int64_t>(text.size());
    }
    offsets[row + 1] = static_cast<Offset>(position);
  }
  data_buffer->set_size(position);
  return Array(ArrayData::Make(type_, length, {validity.buffer(), std::move(offsets_buffer), std::move(data_buffer)},
                               validity.null_count()));
}

Result<Array> ColumnConversion::Views() {
  const int64_t length = rows_.num_rows();
  const bool validate = is_string(type_->id()) && validate_utf8();
  // Only values longer than the inline 12 bytes go to the data buffer: size it exactly.
  int64_t long_bytes = 0;
  for (int64_t row = 0; row < length; ++row) {
    const size_t size = rows_.Field(row, column_).size();
    if (size > static_cast<size_t>(view_layout::kInlineSize)) long_bytes += static_cast<int64_t>(size);
  }
  if (long_bytes > std::numeric_limits<int32_t>::max()) {
    return Status::LimitExceeded("CSV column '{}' (#{}): {} bytes of text in one block do not fit one view buffer",
                                 context_.name, context_.index + 1, long_bytes);
  }
  STRATA_ASSIGN_OR_RETURN(auto views_buffer, AllocateBuffer(pool_, length * view_layout::kViewSize));
  std::shared_ptr<ResizableBuffer> data_buffer;
  if (long_bytes > 0) {
    STRATA_ASSIGN_OR_RETURN(data_buffer, AllocateBuffer(pool_, long_bytes));
  }
  uint8_t* views = views_buffer->mutable_data();
  LazyValidity validity(pool_, length);
  int32_t position = 0;
  for (int64_t row = 0; row < length; ++row) {
    uint8_t* view = views + row * view_layout::kViewSize;
    std::memset(view, 0, view_layout::kViewSize);
    const FieldKind kind = rows_.Kind(row, column_);
    const std::string_view text = rows_.Field(row, column_);
    if (IsStringNull(kind, text)) {
      STRATA_RETURN_NOT_OK(validity.SetNull(row));
      continue;
    }
    if (validate && !ValidateUtf8(text)) return Utf8Error(row, text);
    const auto size = static_cast<int32_t>(text.size());
    std::memcpy(view, &size, 4);
    if (size <= view_layout::kInlineSize) {
      if (size > 0) std::memcpy(view + 4, text.data(), text.size());
    } else {
      const int32_t buffer_index = 0;
      std::memcpy(view + 4, text.data(), view_layout::kPrefixSize);
      std::memcpy(view + 8, &buffer_index, 4);
      std::memcpy(view + 12, &position, 4);
      std::memcpy(data_buffer->mutable_data() + position, text.data(), text.size());
      position += size;
    }
  }
  std::vector<std::shared_ptr<Buffer>> buffers = {validity.buffer(), std::move(views_buffer)};
  if (data_buffer) buffers.push_back(std::move(data_buffer));
  return Array(ArrayData::Make(type_, length, std::move(buffers), validity.null_count()));
}

// 64-bit hash of a field's bytes, 8 at a time (for the dictionary's open addressing).
uint64_t HashBytes(std::string_view text) {
  uint64_t hash = 0x9E3779B97F4A7C15ull ^ text.size();
  size_t i = 0;
  for (; i + 8 <= text.size(); i += 8) {
    uint64_t word;
    std::memcpy(&word, text.data() + i, 8);
    hash = (hash ^ word) * 0xBF58476D1CE4E5B9ull;
    hash ^= hash >> 31;
  }
  uint64_t tail = 0;
  if (i < text.size()) std::memcpy(&tail, text.data() + i, text.size() - i);
  hash = (hash ^ tail) * 0x94D049BB133111EBull;
  return hash ^ (hash >> 29);
}

Result<Array> ColumnConversion::Dictionary() {
  const int64_t length = rows_.num_rows();
  const TypePtr& value_type = type_->value_type();
  const bool validate = is_string(value_type->id()) && validate_utf8();
  const int64_t data_size = rows_.ColumnDataSize(column_);
  if (data_size > std::numeric_limits<int32_t>::max()) {
    return Status::LimitExceeded("CSV column '{}' (#{}): {} bytes of text in one block do not fit {}", context_.name,
                                 context_.index + 1, data_size, type_->ToString());
  }
  // Every buffer at its bound (each value distinct); the hash table at twice the rows.
  int64_t slots = 16;
  while (slots < 2 * length) slots *= 2;
  STRATA_ASSIGN_OR_RETURN(auto indices_buffer, AllocateBuffer(pool_, length * 4));
  STRATA_ASSIGN_OR_RETURN(auto offsets_buffer, AllocateBuffer(pool_, (length + 1) * 4));
  STRATA_ASSIGN_OR_RETURN(auto data_buffer, AllocateBuffer(pool_, data_size));
  STRATA_ASSIGN_OR_RETURN(auto table_buffer, AllocateBuffer(pool_, slots * 4));
  auto* indices = indices_buffer->mutable_data_as<int32_t>();
  auto* offsets = offsets_buffer->mutable_data_as<int32_t>();
  uint8_t* data = data_buffer->mutable_data();
  auto* table = table_buffer->mutable_data_as<int32_t>();
  std::memset(table, 0xFF, static_cast<size_t>(slots) * 4);  // -1: empty slot
  const auto mask = static_cast<uint64_t>(slots - 1);
  LazyValidity validity(pool_, length);
  int32_t distinct = 0;
  offsets[0] = 0;
  for (int64_t row = 0; row < length; ++row) {
    const FieldKind kind = rows_.Kind(row, column_);
    const std::string_view text = rows_.Field(row, column_);
    if (IsStringNull(kind, text)) {
      indices[row] = 0;
      STRATA_RETURN_NOT_OK(validity.SetNull(row));
      continue;
    }
    uint64_t slot = HashBytes(text) & mask;
    for (;;) {
      const int32_t index = table[slot];
      if (index < 0) break;
      const std::string_view known(reinterpret_cast<const char*>(data) + offsets[index],
                                   static_cast<size_t>(offsets[index + 1] - offsets[index]));
      if (known == text) break;
      slot = (slot + 1) & mask;
    }
    if (table[slot] < 0) {
      if (validate && !ValidateUtf8(text)) return Utf8Error(row, text);
      if (!text.empty()) std::memcpy(data + offsets[distinct], text.data(), text.size());
      offsets[distinct + 1] = offsets[distinct] + static_cast<int32_t>(text.size());
      table[slot] = distinct++;
    }
    indices[row] = table[slot];
  }
  // The dictionary keeps only what it holds (its bound was every row distinct).
  offsets_buffer->set_size((int64_t{distinct} + 1) * 4);
  data_buffer->set_size(offsets[distinct]);
  STRATA_RETURN_NOT_OK(offsets_buffer->ShrinkToFit());
  STRATA_RETURN_NOT_OK(data_buffer->ShrinkToFit());
  auto dictionary = ArrayData::Make(value_type, distinct, {nullptr, std::move(offsets_buffer), std::move(data_buffer)}, 0);
  auto result = ArrayData::Make(type_, length, {validity.buffer(), std::move(indices_buffer)}, validity.null_count());
  result->dictionary = std::move(dictionary);
  return Array(std::move(result));
}

std::string ColumnConversion::Location(int64_t row) const {
  const std::string where = fmt::format("line {}, column '{}' (#{})", rows_.Line(row), context_.name, context_.index + 1);
  return context_.file.empty() ? where : fmt::format("{}: {}", context_.file, where);
}

Status ColumnConversion::ValueError(int64_t row, Issue issue) const {
  const std::string type = type_->ToString();
  std::string why;
  switch (issue) {
    case Issue::kOk:
    case Issue::kSyntax: why = fmt::format("is not a valid {}", type); break;
    case Issue::kOutOfRange: why = fmt::format("is out of the range of {}", type); break;
    case Issue::kLeadingZeros: why = fmt::format("has leading zeros, which {} would drop", type); break;
    case Issue::kInexactDouble: why = fmt::format("is an integer beyond 2^53, which {} cannot hold exactly", type); break;
    case Issue::kBelowUnit: why = fmt::format("has digits below the unit of {}, which would be lost", type); break;
    case Issue::kZoneInNaive:
      why = fmt::format("has a time zone, but {} is naive (give the column a zoned type, e.g. timestamp[{}, tz=UTC])",
                        type, TimeUnitName(type_->unit()));
      break;
    case Issue::kNaiveInZoned: why = fmt::format("has no time zone, but the column's type is {}", type); break;
    case Issue::kScale: why = fmt::format("has non-zero digits below the scale of {}", type); break;
    case Issue::kPrecision: why = fmt::format("has more digits than the precision of {}", type); break;
    case Issue::kNotNull: why = fmt::format("is not null, but the column's type is {}", type); break;
  }
  std::string message =
      fmt::format("{}: {} {}", Location(row), QuoteValue(rows_.Field(row, column_)), why);
  if (context_.type_was_inferred) {
    const std::string sample = context_.sample_bytes > 0 ? fmt::format("the first {} bytes", context_.sample_bytes)
                                                         : std::string("a sample");
    message += fmt::format(
        "; the type {} was inferred from {}: give the column a type (--schema '{}:string'), a larger sample "
        "(--sample-bytes), or --infer-whole-file",
        type, sample, context_.name);
  }
  return Status(StatusCode::kInvalid, std::move(message));
}

Status ColumnConversion::Utf8Error(int64_t row, std::string_view text) const {
  const int64_t offset = FindInvalidUtf8(reinterpret_cast<const uint8_t*>(text.data()), static_cast<int64_t>(text.size()));
  return Status::Invalid("{}: {} is not valid UTF-8 (byte {} of the field) and the column's type is {}; read it as "
                         "binary (--schema '{}:binary') or turn UTF-8 validation off",
                         Location(row), QuoteValue(text), offset, type_->ToString(), context_.name);
}

}  // namespace

Result<Array> ConvertColumn(const ParsedRows& rows, int column, const TypePtr& type, const ConvertOptions& options,
                            const ColumnContext& context, MemoryPool* pool) {
  if (type == nullptr) return Status::Invalid("CSV column '{}' (#{}) is given no type", context.name, context.index + 1);
  if (column < 0 || column >= rows.num_columns()) {
    return Status::Invalid("CSV column #{} does not exist: the rows have {} columns", column + 1, rows.num_columns());
  }
  return ColumnConversion(rows, column, type, options, context, pool).Run();
}

}  // namespace strata::csv
