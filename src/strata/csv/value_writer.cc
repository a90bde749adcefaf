#include "strata/csv/value_writer.h"

#include <algorithm>
#include <charconv>
#include <cmath>

#include "strata/array/bitmap.h"
#include "strata/array/value_text.h"
#include "strata/csv/json_value_writer.h"
#include "strata/csv/value_formats.h"

namespace strata::csv {

// ---- quoting -----------------------------------------------------------------------------------

namespace {

// Characters that the text of numbers, booleans, dates, times, hex and base64 may contain.
bool InPlainAlphabet(char c) {
  const auto byte = static_cast<unsigned char>(c);
  return (byte >= '0' && byte <= '9') || (byte >= 'a' && byte <= 'z') || (byte >= 'A' && byte <= 'Z') || c == '+' ||
         c == '-' || c == '.' || c == '/' || c == ':' || c == '=';
}

bool IsBlank(char c) { return c == ' ' || c == '\t'; }

}  // namespace

CellQuoting::CellQuoting(const WriteOptions& options)
    : quote_(options.quote),
      delimiter_(static_cast<unsigned char>(options.delimiter)),
      quote_byte_(static_cast<unsigned char>(options.quote)),
      null_value_(options.null_value) {
  max_lookalike_size_ = std::max<size_t>(4, null_value_.size());
  for (const char c : {options.delimiter, options.quote, '\r', '\n'}) special_[static_cast<unsigned char>(c)] = true;
  scan_plain_cells_ = InPlainAlphabet(options.delimiter) || InPlainAlphabet(options.quote);
  if (!null_value_.empty()) {
    bool plain = true;
    for (const char c : null_value_) plain = plain && InPlainAlphabet(c);
    compare_plain_cells_ = plain;  // "NA" or "0" could be a value's text
  }
  check_plain_cells_ = scan_plain_cells_ || compare_plain_cells_;
}

bool CellQuoting::IsNullLookalike(std::string_view text) const {
  if (text == null_value_) return true;
  if (text.size() < 2 || text.size() > 4) return false;
  return text == "NULL" || text == "null" || text == "NA" || text == "N/A";
}

namespace {

// Non-zero when a byte of `word` is `byte`: the bytes equal to it become zero, and a zero byte
// is the one whose subtraction borrows into its high bit where the byte had none.
uint64_t MatchBytes(uint64_t word, uint64_t byte) {
  constexpr uint64_t kOnes = 0x0101010101010101ULL;
  const uint64_t x = word ^ (kOnes * byte);
  return (x - kOnes) & ~x & (kOnes << 7);
}

}  // namespace

bool CellQuoting::NeedsQuotes(std::string_view text) const {
  if (text.empty() || IsBlank(text.front()) || IsBlank(text.back())) return true;
  // Eight bytes per step against the four special bytes: 1.3x faster than a table lookup per
  // byte on 100-byte strings (the same on 9-byte ones).
  size_t i = 0;
  for (; i + 8 <= text.size(); i += 8) {
    uint64_t word;
    std::memcpy(&word, text.data() + i, 8);
    if ((MatchBytes(word, delimiter_) | MatchBytes(word, quote_byte_) | MatchBytes(word, '\n') |
         MatchBytes(word, '\r')) != 0) {
      return true;
    }
  }
  for (; i < text.size(); ++i) {
    if (special_[static_cast<unsigned char>(text[i])]) return true;
  }
  return text.size() <= max_lookalike_size_ && IsNullLookalike(text);
}

bool CellQuoting::PlainCellNeedsQuotes(std::string_view text) const {
  if (compare_plain_cells_ && text == null_value_) return true;
  if (!scan_plain_cells_) return false;
  for (const char c : text) {
    if (special_[static_cast<unsigned char>(c)]) return true;
  }
  return false;
}

int64_t CellQuoting::QuotedLength(std::string_view text) const {
  int64_t length = static_cast<int64_t>(text.size()) + 2;
  for (const char c : text) length += c == quote_;
  return length;
}

char* CellQuoting::WriteQuoted(std::string_view text, char* out) const {
  *out++ = quote_;
  for (const char c : text) {
    *out++ = c;
    if (c == quote_) *out++ = quote_;
  }
  *out++ = quote_;
  return out;
}

Status CellBlock::QuoteInPlace(int64_t start, const char* end, char quote, bool json_escape) {
  const int64_t end_offset = end - text();
  int64_t extra = 2;
  for (const char* p = text() + start; p < end; ++p) extra += *p == quote || (json_escape && *p == '\\');
  Advance(end);
  STRATA_RETURN_NOT_OK(EnsureBytes(extra));  // may move the text
  char* base = reinterpret_cast<char*>(text_.mutable_data());
  // Back to front, so every byte moves once and none is overwritten before it is read.
  char* write = base + end_offset + extra;
  *--write = quote;
  for (int64_t k = end_offset; k-- > start;) {
    const char c = base[k];
    *--write = c;
    if (c == quote || (json_escape && c == '\\')) *--write = json_escape ? '\\' : quote;
  }
  *--write = quote;
  Advance(base + end_offset + extra);
  return Status::OK();
}

namespace formats {

char* WriteShortestHalf(uint16_t bits, char* out) {
  const float value = value_text::HalfToFloat(bits);
  char candidate[32];
  // A half has 11 significant bits, so 5 significant digits always identify it.
  for (int precision = 0; precision < 5; ++precision) {
    const char* end = std::to_chars(candidate, candidate + sizeof(candidate), value, std::chars_format::scientific,
                                    precision).ptr;
    double parsed = 0;
    std::from_chars(candidate, end, parsed);
    if (value_text::DoubleToHalf(parsed) != bits) continue;
    // The float nearest the candidate, in to_chars' shortest layout (0.1 rather than 1e-01),
    // if that text still reads back as the same half.
    float nearest = 0;
    std::from_chars(candidate, end, nearest);
    char* laid_out = std::to_chars(out, out + 32, nearest).ptr;
    std::from_chars(out, laid_out, parsed);
    if (value_text::DoubleToHalf(parsed) == bits) return laid_out;
    std::memcpy(out, candidate, static_cast<size_t>(end - candidate));
    return out + (end - candidate);
  }
  return std::to_chars(out, out + 32, value).ptr;  // the exact value: always reads back
}

}  // namespace formats

namespace {

using formats::IsNullAt;

// ---- cells of each type ------------------------------------------------------------------------

// Fixed-width and other non-text values: Format writes the text, never longer than
// MaxChars(i); quoting is checked only when the dialect makes it possible, or always for a
// Format whose text may hold spaces (a space delimiter, or one in the null value, could
// match them).
template <typename Format>
constexpr bool kHasSpaces = requires { requires Format::kHasSpaces; };

template <typename Format>
class PlainCells final : public ValueWriter {
 public:
  PlainCells(const formats::FormatOptions& options, const CellQuoting* quoting)
      : options_(options), quoting_(quoting) {}

  Status Append(const ArrayData& data, int64_t offset, int64_t length, CellBlock* cells) override {
    STRATA_RETURN_NOT_OK(cells->ReserveCells(length));
    const Format format(data, options_);
    const uint8_t* validity = data.validity_data();
    const bool check = kHasSpaces<Format> || quoting_->check_plain_cells();
    const int64_t begin = data.offset + offset;
    for (int64_t i = begin; i < begin + length; ++i) {
      if (validity != nullptr && !bitmap::GetBit(validity, i)) {
        STRATA_RETURN_NOT_OK(cells->AppendCell(quoting_->null_value()));
        continue;
      }
      STRATA_RETURN_NOT_OK(cells->EnsureBytes(format.MaxChars(i)));
      char* start = cells->cursor();
      char* end = format.Write(i, start);
      const std::string_view text(start, static_cast<size_t>(end - start));
      if (__builtin_expect(check, 0) &&
          (kHasSpaces<Format> ? quoting_->NeedsQuotes(text) : quoting_->PlainCellNeedsQuotes(text))) {
        STRATA_RETURN_NOT_OK(cells->EndCellQuoted(end, quoting_->quote()));
      } else {
        cells->EndCell(end);
      }
    }
    return Status::OK();
  }

 private:
  formats::FormatOptions options_;
  const CellQuoting* quoting_;
};

// Strings as they are, quoted where CellQuoting says.
template <typename Bytes>
class TextCells final : public ValueWriter {
 public:
  explicit TextCells(const CellQuoting* quoting) : quoting_(quoting) {}

  Status Append(const ArrayData& data, int64_t offset, int64_t length, CellBlock* cells) override {
    STRATA_RETURN_NOT_OK(cells->ReserveCells(length));
    const Bytes bytes(data);
    const uint8_t* validity = data.validity_data();
    const int64_t begin = data.offset + offset;
    for (int64_t i = begin; i < begin + length; ++i) {
      if (validity != nullptr && !bitmap::GetBit(validity, i)) {
        STRATA_RETURN_NOT_OK(cells->AppendCell(quoting_->null_value()));
        continue;
      }
      const std::string_view text = bytes.Get(i);
      if (!quoting_->NeedsQuotes(text)) {
        STRATA_RETURN_NOT_OK(cells->AppendCell(text));
        continue;
      }
      STRATA_RETURN_NOT_OK(cells->EnsureBytes(quoting_->QuotedLength(text)));
      cells->EndCell(quoting_->WriteQuoted(text, cells->cursor()));
    }
    return Status::OK();
  }

 private:
  const CellQuoting* quoting_;
};

class NullCells final : public ValueWriter {
 public:
  explicit NullCells(const CellQuoting* quoting) : quoting_(quoting) {}
  Status Append(const ArrayData&, int64_t, int64_t length, CellBlock* cells) override {
    STRATA_RETURN_NOT_OK(cells->ReserveCells(length));
    for (int64_t i = 0; i < length; ++i) STRATA_RETURN_NOT_OK(cells->AppendCell(quoting_->null_value()));
    return Status::OK();
  }

 private:
  const CellQuoting* quoting_;
};

// Dictionary-encoded values: each row's cell is its dictionary value's, written by the value
// type's writer.
template <typename Index>
class DictionaryCells final : public ValueWriter {
 public:
  DictionaryCells(std::string name, std::unique_ptr<ValueWriter> values, const CellQuoting* quoting)
      : name_(std::move(name)), values_(std::move(values)), quoting_(quoting) {}

  Status Append(const ArrayData& data, int64_t offset, int64_t length, CellBlock* cells) override {
    STRATA_RETURN_NOT_OK(cells->ReserveCells(length));
    if (data.dictionary == nullptr) return Status::Invalid("column '{}': dictionary array without a dictionary", name_);
    const ArrayData& dictionary = *data.dictionary;
    const Index* indices = formats::Values<Index>(data, 1);
    const uint8_t* validity = data.validity_data();
    const int64_t begin = data.offset + offset;
    for (int64_t i = begin; i < begin + length; ++i) {
      if (validity != nullptr && !bitmap::GetBit(validity, i)) {
        STRATA_RETURN_NOT_OK(cells->AppendCell(quoting_->null_value()));
        continue;
      }
      const auto index = static_cast<int64_t>(indices[i]);
      if (index < 0 || index >= dictionary.length) {
        return Status::Invalid("column '{}': row {} has dictionary index {}, the dictionary {} values", name_,
                               i - data.offset, index, dictionary.length);
      }
      STRATA_RETURN_NOT_OK(values_->Append(dictionary, index, 1, cells));
    }
    return Status::OK();
  }

 private:
  std::string name_;
  std::unique_ptr<ValueWriter> values_;
  const CellQuoting* quoting_;
};

// list, struct and map values as JSON, quoted as CSV requires.
class JsonCells final : public ValueWriter {
 public:
  JsonCells(std::unique_ptr<JsonNode> node, const CellQuoting* quoting) : node_(std::move(node)), quoting_(quoting) {}

  Status Append(const ArrayData& data, int64_t offset, int64_t length, CellBlock* cells) override {
    STRATA_RETURN_NOT_OK(cells->ReserveCells(length));
    const int64_t begin = data.offset + offset;
    for (int64_t i = begin; i < begin + length; ++i) {
      if (IsNullAt(data, i)) {
        STRATA_RETURN_NOT_OK(cells->AppendCell(quoting_->null_value()));
        continue;
      }
      const int64_t start = cells->cursor_offset();
      STRATA_RETURN_NOT_OK(node_->Write(data, i, cells));
      const char* end = cells->cursor();
      if (quoting_->NeedsQuotes(std::string_view(cells->text() + start, static_cast<size_t>(end - cells->text() - start)))) {
        STRATA_RETURN_NOT_OK(cells->EndCellQuoted(end, quoting_->quote()));
      } else {
        cells->EndCell(end);
      }
    }
    return Status::OK();
  }

 private:
  std::unique_ptr<JsonNode> node_;
  const CellQuoting* quoting_;
};

// A writer as the base type, so that it converts to Result in one step.
template <typename T, typename... Args>
std::unique_ptr<ValueWriter> NewWriter(Args&&... args) {
  return std::make_unique<T>(std::forward<Args>(args)...);
}

template <template <typename> class Writer, typename... Args>
Result<std::unique_ptr<ValueWriter>> ForIndexType(TypeId index, Args&&... args) {
  switch (index) {
    case TypeId::kInt8: return NewWriter<Writer<int8_t>>(std::forward<Args>(args)...);
    case TypeId::kInt16: return NewWriter<Writer<int16_t>>(std::forward<Args>(args)...);
    case TypeId::kInt32: return NewWriter<Writer<int32_t>>(std::forward<Args>(args)...);
    case TypeId::kInt64: return NewWriter<Writer<int64_t>>(std::forward<Args>(args)...);
    case TypeId::kUInt8: return NewWriter<Writer<uint8_t>>(std::forward<Args>(args)...);
    case TypeId::kUInt16: return NewWriter<Writer<uint16_t>>(std::forward<Args>(args)...);
    case TypeId::kUInt32: return NewWriter<Writer<uint32_t>>(std::forward<Args>(args)...);
    case TypeId::kUInt64: return NewWriter<Writer<uint64_t>>(std::forward<Args>(args)...);
    default: return Status::Invalid("dictionary index type {} is not an integer", TypeIdName(index));
  }
}

template <typename Format>
std::unique_ptr<ValueWriter> Plain(const formats::FormatOptions& options, const CellQuoting* quoting) {
  return std::make_unique<PlainCells<Format>>(options, quoting);
}

}  // namespace

Result<std::unique_ptr<ValueWriter>> MakeValueWriter(const std::string& name, const TypePtr& type,
                                                     const WriteOptions& options, const CellQuoting* quoting) {
  using namespace formats;  // NOLINT: the Format types below
  const FormatOptions format_options{options.binary};
  const TypeId id = type->id();
  if (is_nested(id)) {
    if (options.nested == WriteOptions::NestedValues::kRefuse) {
      return Status::NotImplemented("column '{}' of type {}: nested values are refused (WriteOptions::nested)", name,
                                    type->ToString());
    }
    STRATA_ASSIGN_OR_RETURN(auto node, MakeJsonNode(name, type, format_options));
    return NewWriter<JsonCells>(std::move(node), quoting);
  }
  const bool binary = id == TypeId::kBinary || id == TypeId::kLargeBinary || id == TypeId::kBinaryView ||
                      id == TypeId::kFixedSizeBinary;
  if (binary && options.binary == WriteOptions::BinaryValues::kRefuse) {
    return Status::NotImplemented("column '{}' of type {}: binary values are refused (WriteOptions::binary)", name,
                                  type->ToString());
  }
  switch (id) {
    case TypeId::kNull: return NewWriter<NullCells>(quoting);
    case TypeId::kBoolean: return Plain<BooleanFormat>(format_options, quoting);
    case TypeId::kInt8: return Plain<IntegerFormat<int8_t>>(format_options, quoting);
    case TypeId::kInt16: return Plain<IntegerFormat<int16_t>>(format_options, quoting);
    case TypeId::kInt32: return Plain<IntegerFormat<int32_t>>(format_options, quoting);
    case TypeId::kInt64: return Plain<IntegerFormat<int64_t>>(format_options, quoting);
    case TypeId::kUInt8: return Plain<IntegerFormat<uint8_t>>(format_options, quoting);
    case TypeId::kUInt16: return Plain<IntegerFormat<uint16_t>>(format_options, quoting);
    case TypeId::kUInt32: return Plain<IntegerFormat<uint32_t>>(format_options, quoting);
    case TypeId::kUInt64: return Plain<IntegerFormat<uint64_t>>(format_options, quoting);
    case TypeId::kDuration: return Plain<IntegerFormat<int64_t>>(format_options, quoting);
    case TypeId::kFloat16: return Plain<HalfFormat>(format_options, quoting);
    case TypeId::kFloat32: return Plain<FloatFormat<float>>(format_options, quoting);
    case TypeId::kFloat64: return Plain<FloatFormat<double>>(format_options, quoting);
    case TypeId::kDecimal32: return Plain<DecimalFormat<4>>(format_options, quoting);
    case TypeId::kDecimal64: return Plain<DecimalFormat<8>>(format_options, quoting);
    case TypeId::kDecimal128: return Plain<DecimalFormat<16>>(format_options, quoting);
    case TypeId::kDecimal256: return Plain<DecimalFormat<32>>(format_options, quoting);
    case TypeId::kDate32: return Plain<DateFormat<int32_t>>(format_options, quoting);
    case TypeId::kDate64: return Plain<DateFormat<int64_t>>(format_options, quoting);
    case TypeId::kTime32: return Plain<TimeFormat<int32_t>>(format_options, quoting);
    case TypeId::kTime64: return Plain<TimeFormat<int64_t>>(format_options, quoting);
    case TypeId::kTimestamp: return Plain<TimestampFormat>(format_options, quoting);
    case TypeId::kIntervalYearMonth:
    case TypeId::kIntervalDayTime:
    case TypeId::kIntervalMonthDayNano: return Plain<IntervalFormat>(format_options, quoting);
    case TypeId::kString: return NewWriter<TextCells<OffsetBytes<int32_t>>>(quoting);
    case TypeId::kLargeString: return NewWriter<TextCells<OffsetBytes<int64_t>>>(quoting);
    case TypeId::kStringView: return NewWriter<TextCells<ViewBytes>>(quoting);
    case TypeId::kBinary: return Plain<BinaryFormat<OffsetBytes<int32_t>>>(format_options, quoting);
    case TypeId::kLargeBinary: return Plain<BinaryFormat<OffsetBytes<int64_t>>>(format_options, quoting);
    case TypeId::kBinaryView: return Plain<BinaryFormat<ViewBytes>>(format_options, quoting);
    case TypeId::kFixedSizeBinary: return Plain<BinaryFormat<FixedBytes>>(format_options, quoting);
    case TypeId::kDictionary: {
      STRATA_ASSIGN_OR_RETURN(auto values, MakeValueWriter(name, type->value_type(), options, quoting));
      return ForIndexType<DictionaryCells>(type->index_type()->id(), name, std::move(values), quoting);
    }
    default: break;
  }
  return Status::NotImplemented("column '{}': no CSV form for type {}", name, type->ToString());
}

}  // namespace strata::csv
