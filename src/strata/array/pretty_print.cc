#include "strata/array/pretty_print.h"

#include <cmath>
#include <cstring>

#include <fmt/format.h>

#include "strata/array/array.h"
#include "strata/array/chunked_array.h"
#include "strata/array/record_batch.h"
#include "strata/array/table.h"
#include "strata/array/value_text.h"

namespace strata {

namespace {

template <typename T>
T Load(const ArrayData& d, int64_t i) {
  T v;
  std::memcpy(&v, d.buffers[1]->data() + (d.offset + i) * static_cast<int64_t>(sizeof(T)), sizeof(T));
  return v;
}

bool IsNullAt(const ArrayData& d, int64_t i) {
  if (d.type->id() == TypeId::kNull) return true;
  const uint8_t* bits = d.validity_data();
  return bits != nullptr && !bitmap::GetBit(bits, d.offset + i);
}

int FractionDigits(TimeUnit unit) {
  switch (unit) {
    case TimeUnit::kSecond: return 0;
    case TimeUnit::kMilli: return 3;
    case TimeUnit::kMicro: return 6;
    case TimeUnit::kNano: return 9;
  }
  return 0;
}

void AppendDate(int64_t days, std::string* out) {
  char text[value_text::kMaxDateChars];
  out->append(text, value_text::WriteDate(days, text));
}

// HH:MM:SS[.fraction] for `units` of `unit` into the day. A negative time (some writers
// store times before midnight so) is '-' then its magnitude, never a sign on every field.
void AppendTimeOfDay(int64_t units, TimeUnit unit, std::string* out) {
  const auto per_second = static_cast<uint64_t>(value_text::UnitsPerSecond(unit));
  if (units < 0) out->push_back('-');
  const uint64_t magnitude = units < 0 ? 0 - static_cast<uint64_t>(units) : static_cast<uint64_t>(units);
  const uint64_t seconds = magnitude / per_second;
  fmt::format_to(std::back_inserter(*out), "{:02}:{:02}:{:02}", seconds / 3600, seconds / 60 % 60, seconds % 60);
  if (per_second > 1) fmt::format_to(std::back_inserter(*out), ".{:0{}}", magnitude % per_second, FractionDigits(unit));
}

void AppendTimestamp(int64_t value, TimeUnit unit, std::string* out) {
  const int64_t per_day = value_text::UnitsPerSecond(unit) * 86400;
  const int64_t days = value_text::FloorDiv(value, per_day);
  AppendDate(days, out);
  out->push_back(' ');
  AppendTimeOfDay(value - days * per_day, unit, out);
}

// Little-endian two's-complement integer of `bytes` bytes (16 or 32), printed with `scale`.
void AppendDecimal(const uint8_t* bytes, int width, int32_t scale, std::string* out) {
  value_text::DecimalDigits digits;
  value_text::ToDecimalDigits(bytes, width, &digits);
  const size_t at = out->size();
  const auto length = static_cast<size_t>(value_text::DecimalTextLength(digits, scale));
  out->resize(at + length);
  char* end = value_text::WriteDecimal(digits, scale, out->data() + at);
  out->resize(static_cast<size_t>(end - out->data()));
}

void AppendQuoted(std::string_view s, std::string* out) {
  out->push_back('"');
  for (char c : s) {
    switch (c) {
      case '"': out->append("\\\""); break;
      case '\\': out->append("\\\\"); break;
      case '\n': out->append("\\n"); break;
      case '\t': out->append("\\t"); break;
      case '\r': out->append("\\r"); break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          fmt::format_to(std::back_inserter(*out), "\\x{:02x}", static_cast<unsigned char>(c));
        } else {
          out->push_back(c);
        }
    }
  }
  out->push_back('"');
}

void AppendHex(std::string_view s, std::string* out) {
  static constexpr char kDigits[] = "0123456789ABCDEF";
  for (char c : s) {
    const auto b = static_cast<unsigned char>(c);
    out->push_back(kDigits[b >> 4]);
    out->push_back(kDigits[b & 15]);
  }
}


class Printer {
 public:
  explicit Printer(const PrettyPrintOptions& options) : options_(options) {}

  // [v, v, ...] for elements [start, start + length) of d.
  void AppendRange(const ArrayData& d, int64_t start, int64_t length, std::string* out) const {
    out->push_back('[');
    const int64_t limit = options_.max_rows;
    const bool elide = limit > 0 && length > limit;
    const int64_t head = elide ? limit - limit / 2 : length;
    const int64_t tail = elide ? limit / 2 : 0;
    for (int64_t i = 0; i < head; ++i) {
      if (i > 0) out->append(", ");
      AppendValue(d, start + i, out);
    }
    if (elide) {
      out->append(", ...");
      for (int64_t i = length - tail; i < length; ++i) {
        out->append(", ");
        AppendValue(d, start + i, out);
      }
    }
    out->push_back(']');
  }

  void AppendValue(const ArrayData& d, int64_t i, std::string* out) const {
    if (IsNullAt(d, i)) {
      out->append("null");
      return;
    }
    auto it = std::back_inserter(*out);
    const DataType& type = *d.type;
    switch (type.id()) {
      case TypeId::kNull: out->append("null"); break;
      case TypeId::kBoolean: out->append(bitmap::GetBit(d.buffers[1]->data(), d.offset + i) ? "true" : "false"); break;
      case TypeId::kInt8: fmt::format_to(it, "{}", Load<int8_t>(d, i)); break;
      case TypeId::kInt16: fmt::format_to(it, "{}", Load<int16_t>(d, i)); break;
      case TypeId::kInt32: fmt::format_to(it, "{}", Load<int32_t>(d, i)); break;
      case TypeId::kInt64: fmt::format_to(it, "{}", Load<int64_t>(d, i)); break;
      case TypeId::kUInt8: fmt::format_to(it, "{}", Load<uint8_t>(d, i)); break;
      case TypeId::kUInt16: fmt::format_to(it, "{}", Load<uint16_t>(d, i)); break;
      case TypeId::kUInt32: fmt::format_to(it, "{}", Load<uint32_t>(d, i)); break;
      case TypeId::kUInt64: fmt::format_to(it, "{}", Load<uint64_t>(d, i)); break;
      case TypeId::kFloat16: fmt::format_to(it, "{}", value_text::HalfToFloat(Load<uint16_t>(d, i))); break;
      case TypeId::kFloat32: fmt::format_to(it, "{}", Load<float>(d, i)); break;
      case TypeId::kFloat64: fmt::format_to(it, "{}", Load<double>(d, i)); break;
      case TypeId::kDecimal32:
      case TypeId::kDecimal64:
      case TypeId::kDecimal128:
      case TypeId::kDecimal256: {
        const int width = type.byte_width();
        AppendDecimal(d.buffers[1]->data() + (d.offset + i) * width, width, type.scale(), out);
        break;
      }
      case TypeId::kDate32: AppendDate(Load<int32_t>(d, i), out); break;
      case TypeId::kDate64: AppendDate(value_text::FloorDiv(Load<int64_t>(d, i), 86400000), out); break;
      case TypeId::kTime32: AppendTimeOfDay(Load<int32_t>(d, i), type.unit(), out); break;
      case TypeId::kTime64: AppendTimeOfDay(Load<int64_t>(d, i), type.unit(), out); break;
      case TypeId::kTimestamp: AppendTimestamp(Load<int64_t>(d, i), type.unit(), out); break;
      case TypeId::kDuration: fmt::format_to(it, "{}", Load<int64_t>(d, i)); break;
      case TypeId::kIntervalYearMonth:
      case TypeId::kIntervalDayTime:
      case TypeId::kIntervalMonthDayNano: {
        const MonthDayNano value = LoadIntervalAsMonthDayNano(type.id(), d.buffers[1]->data(), d.offset + i);
        char text[value_text::kMaxIntervalChars];
        out->append(text, value_text::WriteMonthDayNano(value, text));
        break;
      }
      case TypeId::kString: AppendQuoted(BinaryValueAt<int32_t>(d, i), out); break;
      case TypeId::kLargeString: AppendQuoted(BinaryValueAt<int64_t>(d, i), out); break;
      case TypeId::kStringView: AppendQuoted(ViewValueAt(d, i), out); break;
      case TypeId::kBinary: AppendHex(BinaryValueAt<int32_t>(d, i), out); break;
      case TypeId::kLargeBinary: AppendHex(BinaryValueAt<int64_t>(d, i), out); break;
      case TypeId::kBinaryView: AppendHex(ViewValueAt(d, i), out); break;
      case TypeId::kFixedSizeBinary: {
        const int width = type.byte_width();
        AppendHex({d.buffers[1]->data_as<char>() + (d.offset + i) * width, static_cast<size_t>(width)}, out);
        break;
      }
      case TypeId::kList: {
        const int32_t* offsets = d.buffers[1]->data_as<int32_t>() + d.offset;
        AppendRange(*d.children[0], offsets[i], offsets[i + 1] - offsets[i], out);
        break;
      }
      case TypeId::kLargeList: {
        const int64_t* offsets = d.buffers[1]->data_as<int64_t>() + d.offset;
        AppendRange(*d.children[0], offsets[i], offsets[i + 1] - offsets[i], out);
        break;
      }
      case TypeId::kFixedSizeList: {
        const int64_t size = type.list_size();
        AppendRange(*d.children[0], (d.offset + i) * size, size, out);
        break;
      }
      case TypeId::kStruct: {
        out->push_back('{');
        for (size_t c = 0; c < d.children.size(); ++c) {
          if (c > 0) out->append(", ");
          out->append(type.field(static_cast<int>(c))->name());
          out->append(": ");
          AppendValue(*d.children[c], d.offset + i, out);
        }
        out->push_back('}');
        break;
      }
      case TypeId::kMap: {
        const int32_t* offsets = d.buffers[1]->data_as<int32_t>() + d.offset;
        const ArrayData& entries = *d.children[0];
        out->push_back('{');
        for (int32_t e = offsets[i]; e < offsets[i + 1]; ++e) {
          if (e > offsets[i]) out->append(", ");
          AppendValue(*entries.children[0], entries.offset + e, out);
          out->append(": ");
          AppendValue(*entries.children[1], entries.offset + e, out);
        }
        out->push_back('}');
        break;
      }
      case TypeId::kDictionary: {
        DictionaryArray dict(std::make_shared<ArrayData>(d));
        AppendValue(*d.dictionary, dict.GetValueIndex(i), out);
        break;
      }
      case TypeId::kSparseUnion:
      case TypeId::kDenseUnion: {
        // The member's value, after its type id: 5: 42, 7: "a", 7: null.
        const UnionArray u(std::make_shared<ArrayData>(d));
        fmt::format_to(it, "{}: ", int{u.type_code(i)});
        const int c = u.child_index(i);
        if (c < 0) {
          out->append("<invalid type id>");
        } else {
          AppendValue(u.child(c), u.value_offset(i), out);
        }
        break;
      }
      case TypeId::kRunEndEncoded: {
        const RunEndEncodedArray ree(std::make_shared<ArrayData>(d));
        AppendValue(ree.values(), ree.PhysicalIndex(i), out);
        break;
      }
      case TypeId::kListView: {
        const ListViewArray<int32_t> view(std::make_shared<ArrayData>(d));
        AppendRange(view.values(), view.value_offset(i), view.value_length(i), out);
        break;
      }
      case TypeId::kLargeListView: {
        const ListViewArray<int64_t> view(std::make_shared<ArrayData>(d));
        AppendRange(view.values(), view.value_offset(i), view.value_length(i), out);
        break;
      }
    }
  }

 private:
  const PrettyPrintOptions& options_;
};

void AppendColumns(const Schema& schema, std::string* out) {
  out->append(schema.ToString());
  out->append("\n----");
}

}  // namespace

std::string PrettyPrint(const Array& array, const PrettyPrintOptions& options) {
  std::string out;
  Printer(options).AppendRange(*array.data(), 0, array.length(), &out);
  return out;
}

std::string PrettyPrint(const ChunkedArray& array, const PrettyPrintOptions& options) {
  std::string out = "[";
  for (int c = 0; c < array.num_chunks(); ++c) {
    if (c > 0) out.append(", ");
    Printer(options).AppendRange(*array.chunk(c).data(), 0, array.chunk(c).length(), &out);
  }
  out.push_back(']');
  return out;
}

std::string PrettyPrint(const RecordBatch& batch, const PrettyPrintOptions& options) {
  std::string out;
  AppendColumns(*batch.schema(), &out);
  for (int i = 0; i < batch.num_columns(); ++i) {
    out.append("\n");
    out.append(batch.schema()->field(i)->name());
    out.append(": ");
    out.append(PrettyPrint(batch.column(i), options));
  }
  return out;
}

std::string PrettyPrint(const Table& table, const PrettyPrintOptions& options) {
  std::string out;
  AppendColumns(*table.schema(), &out);
  for (int i = 0; i < table.num_columns(); ++i) {
    out.append("\n");
    out.append(table.schema()->field(i)->name());
    out.append(": ");
    out.append(PrettyPrint(*table.column(i), options));
  }
  return out;
}

std::string Array::ToString() const { return PrettyPrint(*this); }

}  // namespace strata
