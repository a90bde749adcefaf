#include "strata/cli/row_format.h"

#include <cmath>
#include <cstring>
#include <optional>

#include "strata/array/pretty_print.h"
#include "strata/cli/value_format.h"

namespace strata::cli {
namespace {

FormatTimeUnit ToFormatUnit(TimeUnit unit) {
  switch (unit) {
    case TimeUnit::kSecond: return FormatTimeUnit::kSecond;
    case TimeUnit::kMilli: return FormatTimeUnit::kMilli;
    case TimeUnit::kMicro: return FormatTimeUnit::kMicro;
    case TimeUnit::kNano: return FormatTimeUnit::kNano;
  }
  return FormatTimeUnit::kSecond;
}

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

}  // namespace

void AppendHeader(const Schema& schema, RowFormat format, std::string* out) {
  if (format != RowFormat::kCsv) return;
  for (int f = 0; f < schema.num_fields(); ++f) {
    if (f) *out += ',';
    AppendCsvField(schema.field(f)->name(), out);
  }
  *out += '\n';
}

void AppendRows(const RecordBatch& batch, RowFormat format, std::string* out) {
  const Schema& schema = *batch.schema();
  for (int64_t row = 0; row < batch.num_rows(); ++row) {
    if (format == RowFormat::kJsonLines) *out += '{';
    for (int c = 0; c < batch.num_columns(); ++c) {
      const std::optional<Cell> cell = CellAt(batch.column(c), row);
      if (format == RowFormat::kCsv) {
        if (c) *out += ',';
        if (cell) AppendCsvField(cell->text, out);
        continue;
      }
      if (c) *out += ',';
      AppendJsonString(schema.field(c)->name(), out);
      *out += ':';
      if (!cell) {
        *out += "null";
      } else if (cell->is_number) {
        *out += cell->text;
      } else {
        AppendJsonString(cell->text, out);
      }
    }
    *out += format == RowFormat::kJsonLines ? "}\n" : "\n";
  }
}

}  // namespace strata::cli
