#include "strata/cli/row_format.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <optional>

#include <fmt/format.h>

#include "strata/array/pretty_print.h"
#include "strata/util/utf8.h"
#include "strata/cli/value_format.h"
#include "strata/util/json_writer.h"
#include "strata/variant/variant_extension.h"
#include "strata/variant/variant_json.h"

namespace strata::cli {
namespace {

struct Cell {
  std::string text;
  bool is_number = false;  // written bare in JSON
};

template <typename T>
T Load(const ArrayData& a, int64_t i) {
  T v;
  std::memcpy(&v, a.buffers[1]->data() + (a.offset + i) * static_cast<int64_t>(sizeof(T)), sizeof(T));
  return v;
}

std::string Hex(const uint8_t* data, int64_t size) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  out.reserve(static_cast<size_t>(size) * 2);
  for (int64_t i = 0; i < size; ++i) {
    out += kDigits[data[i] >> 4];
    out += kDigits[data[i] & 15];
  }
  return out;
}

std::string FloatCell(double v, bool is_float32, bool* is_number) {
  *is_number = std::isfinite(v);
  return is_float32 ? FormatFloat32(static_cast<float>(v)) : FormatFloat64(v);
}

// The cell at row `i`, or nullopt for a null.
std::optional<Cell> CellAt(const Array& array, int64_t i) {
  if (array.IsNull(i)) return std::nullopt;
  const ArrayData& a = *array.data();
  const DataType& type = *a.type;
  Cell c;
  switch (type.id()) {
    case TypeId::kBoolean: {
      const int64_t bit = a.offset + i;
      c.text = ((a.buffers[1]->data()[bit >> 3] >> (bit & 7)) & 1) ? "true" : "false";
      c.is_number = true;  // JSON literal
      return c;
    }
    case TypeId::kInt8: c.text = std::to_string(Load<int8_t>(a, i)); c.is_number = true; return c;
    case TypeId::kInt16: c.text = std::to_string(Load<int16_t>(a, i)); c.is_number = true; return c;
    case TypeId::kInt32: c.text = std::to_string(Load<int32_t>(a, i)); c.is_number = true; return c;
    case TypeId::kInt64: c.text = std::to_string(Load<int64_t>(a, i)); c.is_number = true; return c;
    case TypeId::kUInt8: c.text = std::to_string(Load<uint8_t>(a, i)); c.is_number = true; return c;
    case TypeId::kUInt16: c.text = std::to_string(Load<uint16_t>(a, i)); c.is_number = true; return c;
    case TypeId::kUInt32: c.text = std::to_string(Load<uint32_t>(a, i)); c.is_number = true; return c;
    case TypeId::kUInt64: c.text = std::to_string(Load<uint64_t>(a, i)); c.is_number = true; return c;
    case TypeId::kFloat16: c.text = FloatCell(Float16ToFloat32(Load<uint16_t>(a, i)), true, &c.is_number); return c;
    case TypeId::kFloat32: c.text = FloatCell(Load<float>(a, i), true, &c.is_number); return c;
    case TypeId::kFloat64: c.text = FloatCell(Load<double>(a, i), false, &c.is_number); return c;
    case TypeId::kDecimal32: c.text = FormatDecimal128(Load<int32_t>(a, i), type.scale()); return c;
    case TypeId::kDecimal64: c.text = FormatDecimal128(Load<int64_t>(a, i), type.scale()); return c;
    case TypeId::kDecimal128: c.text = FormatDecimal128(Load<__int128>(a, i), type.scale()); return c;
    case TypeId::kDecimal256: {
      uint8_t big_endian[32];
      const uint8_t* le = a.buffers[1]->data() + (a.offset + i) * 32;
      for (int k = 0; k < 32; ++k) big_endian[k] = le[31 - k];
      c.text = FormatDecimalBigEndian(big_endian, 32, type.scale());
      return c;
    }
    case TypeId::kDate32: c.text = FormatDate(Load<int32_t>(a, i)); return c;
    case TypeId::kTimestamp: c.text = FormatTimestamp(Load<int64_t>(a, i), ToFormatUnit(type.unit())); return c;
    case TypeId::kTime32: c.text = FormatTime(Load<int32_t>(a, i), ToFormatUnit(type.unit())); return c;
    case TypeId::kTime64: c.text = FormatTime(Load<int64_t>(a, i), ToFormatUnit(type.unit())); return c;
    case TypeId::kString:
    case TypeId::kBinary:
    case TypeId::kLargeString:
    case TypeId::kLargeBinary: {
      const bool large = is_large_binary_like(type.id());
      const int64_t k = a.offset + i;
      const int64_t begin = large ? a.buffers[1]->data_as<int64_t>()[k] : a.buffers[1]->data_as<int32_t>()[k];
      const int64_t end = large ? a.buffers[1]->data_as<int64_t>()[k + 1] : a.buffers[1]->data_as<int32_t>()[k + 1];
      const uint8_t* bytes = a.buffers[2] ? a.buffers[2]->data() + begin : nullptr;
      c.text = is_string(type.id()) ? std::string(reinterpret_cast<const char*>(bytes), static_cast<size_t>(end - begin))
                                    : Hex(bytes, end - begin);
      return c;
    }
    case TypeId::kFixedSizeBinary:
      c.text = Hex(a.buffers[1]->data() + (a.offset + i) * type.byte_width(), type.byte_width());
      return c;
    case TypeId::kDictionary: {
      // The value the index points to, as a column of the values' type shows it (restored
      // pandas Categoricals read as dictionaries print like the strings they hold).
      int64_t index = 0;
      switch (type.index_type()->id()) {
        case TypeId::kInt8: index = Load<int8_t>(a, i); break;
        case TypeId::kInt16: index = Load<int16_t>(a, i); break;
        case TypeId::kInt32: index = Load<int32_t>(a, i); break;
        case TypeId::kInt64: index = Load<int64_t>(a, i); break;
        case TypeId::kUInt8: index = Load<uint8_t>(a, i); break;
        case TypeId::kUInt16: index = Load<uint16_t>(a, i); break;
        case TypeId::kUInt32: index = Load<uint32_t>(a, i); break;
        case TypeId::kUInt64: index = static_cast<int64_t>(Load<uint64_t>(a, i)); break;
        default: index = -1;
      }
      if (a.dictionary == nullptr || index < 0 || index >= a.dictionary->length) {
        c.text = fmt::format("invalid dictionary index {}", index);
        return c;
      }
      return CellAt(Array(a.dictionary), index);
    }
    default: {
      // Nested and the rest: the pretty printer's notation of this one value.
      PrettyPrintOptions options;
      options.max_rows = int64_t{1} << 20;  // the whole value, however long its lists
      std::string text = PrettyPrint(array.Slice(i, 1), options);
      if (text.size() >= 2 && text.front() == '[' && text.back() == ']') text = text.substr(1, text.size() - 2);
      c.text = std::move(text);
      return c;
    }
  }
}

// A variant (the arrow.parquet.variant extension) as its JSON text, written bare in JSON; a
// value that does not decode shows its error as a string.
std::optional<Cell> VariantCellAt(const Array& array, int64_t i) {
  if (array.IsNull(i)) return std::nullopt;
  const ArrayData& a = *array.data();
  const auto text_of = [&](const ArrayData& child, int64_t k) -> std::optional<std::string_view> {
    const int64_t j = child.offset + k;
    const uint8_t* bits = child.validity_data();
    if (bits != nullptr && !((bits[j >> 3] >> (j & 7)) & 1)) return std::nullopt;
    const int32_t* offsets = child.buffers[1]->data_as<int32_t>() + j;
    const char* data = child.buffers[2] ? reinterpret_cast<const char*>(child.buffers[2]->data()) : "";
    return std::string_view(data + offsets[0], static_cast<size_t>(offsets[1] - offsets[0]));
  };
  const int64_t k = a.offset + i;
  const auto metadata = text_of(*a.children[0], k);
  const auto value = text_of(*a.children[1], k);
  Cell c;
  const Status st = metadata && value ? variant::AppendVariantJson(*metadata, *value, &c.text)
                                      : Status::Corrupt("a variant without {}", metadata ? "value" : "metadata");
  if (!st.ok()) {
    c.text = "invalid variant: " + st.ToString();
    return c;
  }
  c.is_number = true;  // JSON text, written as it is
  return c;
}

bool IsVariantColumn(const Field& field, const Array& array) {
  const ArrayData& a = *array.data();
  return variant::IsVariantField(field) && a.type->id() == TypeId::kStruct && a.children.size() == 2 &&
         a.type->field(0)->name() == "metadata" && is_binary_like(a.children[0]->type->id()) &&
         is_binary_like(a.children[1]->type->id());
}

// The cell of column `c`: variants as JSON, everything else as CellAt writes it.
std::optional<Cell> ColumnCellAt(const Schema& schema, const RecordBatch& batch, int c, int64_t row) {
  const Array& column = batch.column(c);
  if (IsVariantColumn(*schema.field(c), column)) return VariantCellAt(column, row);
  return CellAt(column, row);
}

// Whether a variant sits anywhere inside `field` (a struct member, a list element, ...).
bool ContainsVariant(const Field& field) {
  if (variant::IsVariantField(field)) return true;
  const auto& children = field.type()->fields();
  return std::any_of(children.begin(), children.end(), [](const FieldPtr& child) { return ContainsVariant(*child); });
}

void AppendCellJson(const std::optional<Cell>& cell, std::string* out) {
  if (!cell) *out += "null";
  else if (cell->is_number) *out += cell->text;
  else AppendJsonString(cell->text, out);
}

// Value `i` of `array` (the values of `field`) as JSON, for a column with a variant inside:
// structs as objects, lists as arrays, maps as arrays of {"key", "value"} objects, variants as
// their JSON, everything else as its cell. Other nested columns keep their notation.
void AppendNestedJson(const Field& field, const Array& array, int64_t i, std::string* out) {
  if (array.IsNull(i)) {
    *out += "null";
    return;
  }
  if (IsVariantColumn(field, array)) {
    AppendCellJson(VariantCellAt(array, i), out);
    return;
  }
  const ArrayData& a = *array.data();
  const DataType& type = *a.type;
  const int64_t k = a.offset + i;
  switch (type.id()) {
    case TypeId::kStruct: {
      *out += '{';
      for (int m = 0; m < type.num_fields(); ++m) {
        if (m) *out += ',';
        AppendJsonString(type.field(m)->name(), out);
        *out += ':';
        AppendNestedJson(*type.field(m), Array(a.children[static_cast<size_t>(m)]), k, out);
      }
      *out += '}';
      return;
    }
    case TypeId::kList:
    case TypeId::kLargeList:
    case TypeId::kFixedSizeList:
    case TypeId::kMap: {
      int64_t begin = 0, end = 0;
      if (type.id() == TypeId::kFixedSizeList) {
        begin = k * type.list_size();
        end = begin + type.list_size();
      } else if (type.id() == TypeId::kLargeList) {
        begin = a.buffers[1]->data_as<int64_t>()[k];
        end = a.buffers[1]->data_as<int64_t>()[k + 1];
      } else {
        begin = a.buffers[1]->data_as<int32_t>()[k];
        end = a.buffers[1]->data_as<int32_t>()[k + 1];
      }
      const Field& element = *type.value_field();
      const Array values(a.children[0]);
      *out += '[';
      for (int64_t e = begin; e < end; ++e) {
        if (e > begin) *out += ',';
        AppendNestedJson(element, values, e, out);
      }
      *out += ']';
      return;
    }
    default:
      AppendCellJson(CellAt(array, i), out);
  }
}

void AppendCsvField(const std::string& text, std::string* out) {
  if (text.find_first_of(",\"\n\r") == std::string::npos && !text.empty()) {
    *out += text;
    return;
  }
  *out += '"';  // quoted (an empty string is "" so it differs from a null)
  for (char ch : text) {
    if (ch == '"') *out += '"';
    *out += ch;
  }
  *out += '"';
}

void AppendCsvHeader(const Schema& schema, std::string* out) {
  for (int f = 0; f < schema.num_fields(); ++f) {
    if (f) *out += ',';
    AppendCsvField(schema.field(f)->name(), out);
  }
  *out += '\n';
}

void AppendCsvRow(const RecordBatch& batch, int64_t row, std::string* out) {
  for (int c = 0; c < batch.num_columns(); ++c) {
    if (c) *out += ',';
    const std::optional<Cell> cell = ColumnCellAt(*batch.schema(), batch, c, row);
    if (cell) AppendCsvField(cell->text, out);
  }
  *out += '\n';
}

// {"name":value,...} without a line end. Strings go through AppendJsonString, which makes
// any bytes valid UTF-8 JSON (util/json_writer.h).
void AppendJsonObject(const RecordBatch& batch, int64_t row, std::string* out) {
  const Schema& schema = *batch.schema();
  *out += '{';
  for (int c = 0; c < batch.num_columns(); ++c) {
    if (c) *out += ',';
    AppendJsonString(schema.field(c)->name(), out);
    *out += ':';
    const Field& field = *schema.field(c);
    if (!variant::IsVariantField(field) && ContainsVariant(field)) {
      AppendNestedJson(field, batch.column(c), row, out);  // the variants inside as JSON too
      continue;
    }
    AppendCellJson(ColumnCellAt(schema, batch, c, row), out);
  }
  *out += '}';
}

// Display columns of a code point on a terminal: 0 for combining marks and zero-width
// characters, 2 for East Asian wide and fullwidth forms and emoji, else 1. The ranges are
// the large blocks of Unicode's East_Asian_Width W/F, enough to keep CJK text aligned.
int CodePointWidth(uint32_t cp) {
  if ((cp >= 0x0300 && cp <= 0x036f) || (cp >= 0x200b && cp <= 0x200f) || (cp >= 0xfe00 && cp <= 0xfe0f)) return 0;
  if ((cp >= 0x1100 && cp <= 0x115f) || (cp >= 0x2e80 && cp <= 0xa4cf && cp != 0x303f) ||
      (cp >= 0xac00 && cp <= 0xd7a3) || (cp >= 0xf900 && cp <= 0xfaff) || (cp >= 0xfe30 && cp <= 0xfe4f) ||
      (cp >= 0xff00 && cp <= 0xff60) || (cp >= 0xffe0 && cp <= 0xffe6) || (cp >= 0x1f300 && cp <= 0x1f64f) ||
      (cp >= 0x1f900 && cp <= 0x1f9ff) || (cp >= 0x20000 && cp <= 0x3fffd)) {
    return 2;
  }
  return 1;
}

uint32_t DecodeCodePoint(const uint8_t* p, int length) {
  if (length == 1) return p[0];
  uint32_t cp = p[0] & (0x7f >> length);
  for (int k = 1; k < length; ++k) cp = (cp << 6) | (p[k] & 0x3f);
  return cp;
}

bool IsNumeric(TypeId id) { return is_integer(id) || is_floating(id) || is_decimal(id); }

constexpr std::string_view kEllipsis = "\u2026";
constexpr std::string_view kReplacement = "\ufffd";

void AppendRule(const std::vector<int>& widths, std::string_view left, std::string_view middle,
                std::string_view right, std::string* out) {
  *out += left;
  for (size_t c = 0; c < widths.size(); ++c) {
    if (c) *out += middle;
    for (int i = 0; i < widths[c] + 2; ++i) *out += "\u2500";  // ─
  }
  *out += right;
  *out += '\n';
}

void AppendPadded(std::string_view text, int width, int column_width, bool right, std::string* out) {
  const auto pad = static_cast<size_t>(std::max(0, column_width - width));
  if (right) out->append(pad, ' ');
  *out += text;
  if (!right) out->append(pad, ' ');
}

}  // namespace

int AppendDisplayText(std::string_view text, int max_width, std::string* out) {
  const size_t start = out->size();
  // Where the text is cut if it turns out too wide: the last point that leaves a column for "…".
  size_t cut_size = start;
  int cut_width = 0;
  int width = 0;
  const auto* p = reinterpret_cast<const uint8_t*>(text.data());
  const uint8_t* const end = p + text.size();
  char escape[8];
  while (p < end) {
    std::string_view piece;
    int piece_width = 1;
    const int length = Utf8SequenceLength(p, end - p);
    const uint32_t cp = length == 0 ? 0xfffd : DecodeCodePoint(p, length);
    if (length == 0) {
      piece = kReplacement;
    } else if (cp < 0x20 || cp == 0x7f || (cp >= 0x80 && cp < 0xa0)) {
      // Control characters would break the grid (a line feed) or steer the terminal.
      const char* named = cp == '\n' ? "\\n" : cp == '\t' ? "\\t" : cp == '\r' ? "\\r" : nullptr;
      const int n = named ? std::snprintf(escape, sizeof(escape), "%s", named)
                          : std::snprintf(escape, sizeof(escape), cp < 0x80 ? "\\x%02x" : "\\u%04x", cp);
      piece = std::string_view(escape, static_cast<size_t>(n));
      piece_width = n;
    } else {
      piece = std::string_view(reinterpret_cast<const char*>(p), static_cast<size_t>(length));
      piece_width = CodePointWidth(cp);
    }
    p += length == 0 ? 1 : length;
    if (width + piece_width > max_width) {
      out->resize(cut_size);
      *out += kEllipsis;
      return cut_width + 1;
    }
    *out += piece;
    width += piece_width;
    if (width <= max_width - 1) {
      cut_size = out->size();
      cut_width = width;
    }
  }
  return width;
}

RowWriter::RowWriter(const Schema& schema, RowFormat format, int max_cell_width)
    : schema_(schema), format_(format), max_cell_width_(std::max(1, max_cell_width)) {
  if (format_ != RowFormat::kTable) return;
  for (int f = 0; f < schema_.num_fields(); ++f) {
    std::string name;
    widths_.push_back(AppendDisplayText(schema_.field(f)->name(), max_cell_width_, &name));
    right_align_.push_back(IsNumeric(schema_.field(f)->type()->id()));
  }
}

void RowWriter::OpenTable(std::string* out) {
  AppendRule(widths_, "\u250c", "\u252c", "\u2510", out);  // ┌ ┬ ┐
  *out += "\u2502";                                        // │
  for (int f = 0; f < schema_.num_fields(); ++f) {
    // Names centred over their columns, as DuckDB does.
    std::string name;
    const int width = AppendDisplayText(schema_.field(f)->name(), max_cell_width_, &name);
    const int left = (widths_[static_cast<size_t>(f)] - width) / 2;
    out->append(static_cast<size_t>(left) + 1, ' ');
    AppendPadded(name, width, widths_[static_cast<size_t>(f)] - left, false, out);
    *out += " \u2502";
  }
  *out += '\n';
  AppendRule(widths_, "\u251c", "\u253c", "\u2524", out);  // ├ ┼ ┤
}

void RowWriter::Append(const RecordBatch& batch, std::string* out) {
  const int64_t rows = batch.num_rows();
  switch (format_) {
    case RowFormat::kCsv:
      if (!started_) AppendCsvHeader(schema_, out);
      started_ = true;
      for (int64_t row = 0; row < rows; ++row) AppendCsvRow(batch, row, out);
      return;
    case RowFormat::kJsonLines:
      for (int64_t row = 0; row < rows; ++row) {
        AppendJsonObject(batch, row, out);
        *out += '\n';
      }
      return;
    case RowFormat::kJson:
      for (int64_t row = 0; row < rows; ++row) {
        *out += started_ ? ",\n" : "[\n";
        started_ = true;
        AppendJsonObject(batch, row, out);
      }
      return;
    case RowFormat::kTable:
      break;
  }
  const int columns = batch.num_columns();
  if (rows == 0 || columns == 0) return;
  // This batch's cells, column by column, and the widths they need.
  std::vector<std::string> cells(static_cast<size_t>(rows * columns));
  std::vector<int> cell_widths(cells.size());
  std::vector<int> needed = widths_;
  for (int c = 0; c < columns; ++c) {
    for (int64_t row = 0; row < rows; ++row) {
      const size_t k = static_cast<size_t>(c * rows + row);
      const std::optional<Cell> cell = ColumnCellAt(schema_, batch, c, row);
      cell_widths[k] = AppendDisplayText(cell ? std::string_view(cell->text) : "NULL", max_cell_width_, &cells[k]);
      needed[static_cast<size_t>(c)] = std::max(needed[static_cast<size_t>(c)], cell_widths[k]);
    }
  }
  if (!started_) {
    widths_ = needed;
    OpenTable(out);
    started_ = true;
  } else if (!std::equal(needed.begin(), needed.end(), widths_.begin(), std::less_equal<>())) {
    // A wider column: this box ends and one with the wider layout begins.
    AppendRule(widths_, "\u2514", "\u2534", "\u2518", out);
    for (size_t c = 0; c < widths_.size(); ++c) widths_[c] = std::max(widths_[c], needed[c]);
    OpenTable(out);
  }
  for (int64_t row = 0; row < rows; ++row) {
    *out += "\u2502";
    for (int c = 0; c < columns; ++c) {
      const size_t k = static_cast<size_t>(c * rows + row);
      *out += ' ';
      AppendPadded(cells[k], cell_widths[k], widths_[static_cast<size_t>(c)], right_align_[static_cast<size_t>(c)], out);
      *out += " \u2502";
    }
    *out += '\n';
  }
}

void RowWriter::Finish(std::string* out) {
  switch (format_) {
    case RowFormat::kCsv:
      if (!started_) AppendCsvHeader(schema_, out);
      started_ = true;
      return;
    case RowFormat::kJsonLines: return;
    case RowFormat::kJson: *out += started_ ? "\n]\n" : "[]\n"; return;
    case RowFormat::kTable:
      if (schema_.num_fields() == 0) return;
      if (!started_) OpenTable(out);
      AppendRule(widths_, "\u2514", "\u2534", "\u2518", out);  // └ ┴ ┘
      started_ = true;
      return;
  }
}

}  // namespace strata::cli
