#include "strata/variant/variant_json.h"

#include <charconv>
#include <cstring>
#include <cmath>

#include <fmt/format.h>

#include "strata/array/value_text.h"
#include "strata/util/base64.h"
#include "strata/util/json_writer.h"

namespace strata::variant {
namespace {

class VariantJsonWriter {
 public:
  VariantJsonWriter(const VariantMetadata& metadata, std::string* out, const JsonOptions& options)
      : metadata_(metadata), out_(out), limit_(static_cast<int64_t>(out->size()) + options.max_output_bytes) {}

  Status Write(const VariantValue& value, int depth) {
    if (depth > kMaxVariantDepth) return Status::LimitExceeded("variant nested deeper than {}", kMaxVariantDepth);
    if (static_cast<int64_t>(out_->size()) > limit_) {
      return Status::LimitExceeded("variant JSON text longer than {} bytes", limit_);
    }
    switch (value.basic_type()) {
      case BasicType::kShortString: return WriteString(value.string());
      case BasicType::kObject: return WriteObject(value, depth);
      case BasicType::kArray: return WriteArray(value, depth);
      case BasicType::kPrimitive: return WritePrimitive(value);
    }
    return Status::OK();
  }

 private:
  Status WriteString(std::string_view text) {
    AppendJsonString(text, out_);
    return Status::OK();
  }

  Status WriteObject(const VariantValue& value, int depth) {
    *out_ += '{';
    for (uint32_t i = 0; i < value.num_elements(); ++i) {
      const uint32_t id = value.field_id(i);
      if (id >= metadata_.size()) {
        return Status::Corrupt("variant object refers to field id {} of a dictionary of {}", id, metadata_.size());
      }
      if (i) *out_ += ',';
      STRATA_RETURN_NOT_OK(WriteString(metadata_.name(id)));
      *out_ += ':';
      STRATA_ASSIGN_OR_RETURN(const VariantValue child, value.child(i));
      STRATA_RETURN_NOT_OK(Write(child, depth + 1));
    }
    *out_ += '}';
    return Status::OK();
  }

  Status WriteArray(const VariantValue& value, int depth) {
    *out_ += '[';
    for (uint32_t i = 0; i < value.num_elements(); ++i) {
      if (i) *out_ += ',';
      STRATA_ASSIGN_OR_RETURN(const VariantValue child, value.child(i));
      STRATA_RETURN_NOT_OK(Write(child, depth + 1));
    }
    *out_ += ']';
    return Status::OK();
  }

  template <typename F>
  void Quoted(size_t max_chars, F&& write) {
    const size_t start = out_->size();
    out_->resize(start + max_chars + 2);
    char* p = out_->data() + start;
    *p++ = '"';
    p = write(p);
    *p++ = '"';
    out_->resize(static_cast<size_t>(p - out_->data()));
  }

  void WriteFloating(double v, bool is_float) {
    if (std::isnan(v)) {
      *out_ += "\"NaN\"";
      return;
    }
    if (std::isinf(v)) {
      *out_ += v > 0 ? "\"Infinity\"" : "\"-Infinity\"";
      return;
    }
    char buffer[64];
    const auto result = is_float ? std::to_chars(buffer, buffer + sizeof(buffer), static_cast<float>(v))
                                 : std::to_chars(buffer, buffer + sizeof(buffer), v);
    out_->append(buffer, result.ptr);
  }

  void WriteTimestamp(int64_t v, TimeUnit unit, bool utc) {
    Quoted(value_text::kMaxTimestampChars + 6, [&](char* p) {
      p = value_text::WriteTimestamp(v, unit, p);
      if (utc) {
        std::memcpy(p, "+00:00", 6);
        p += 6;
      }
      return p;
    });
  }

  Status WritePrimitive(const VariantValue& value) {
    switch (value.primitive_type()) {
      case PrimitiveType::kNull: *out_ += "null"; return Status::OK();
      case PrimitiveType::kTrue: *out_ += "true"; return Status::OK();
      case PrimitiveType::kFalse: *out_ += "false"; return Status::OK();
      case PrimitiveType::kInt8:
      case PrimitiveType::kInt16:
      case PrimitiveType::kInt32:
      case PrimitiveType::kInt64: {
        char buffer[24];
        out_->append(buffer, std::to_chars(buffer, buffer + sizeof(buffer), value.integer()).ptr);
        return Status::OK();
      }
      case PrimitiveType::kDouble: WriteFloating(value.float64(), false); return Status::OK();
      case PrimitiveType::kFloat: WriteFloating(value.float32(), true); return Status::OK();
      case PrimitiveType::kDecimal4:
      case PrimitiveType::kDecimal8:
      case PrimitiveType::kDecimal16: {
        if (value.scale() > 38) return Status::Corrupt("variant decimal has scale {}, above 38", value.scale());
        value_text::DecimalDigits digits;
        value_text::ToDecimalDigits(value.unscaled(), &digits);
        const size_t start = out_->size();
        out_->resize(start + static_cast<size_t>(value_text::DecimalTextLength(digits, value.scale())));
        value_text::WriteDecimal(digits, value.scale(), out_->data() + start);
        return Status::OK();
      }
      case PrimitiveType::kDate:
        Quoted(value_text::kMaxDateChars, [&](char* p) { return value_text::WriteDate(value.integer(), p); });
        return Status::OK();
      case PrimitiveType::kTimeNtzMicros:
        Quoted(value_text::kMaxTimeChars,
               [&](char* p) { return value_text::WriteTimeOfDay(value.integer(), TimeUnit::kMicro, p); });
        return Status::OK();
      case PrimitiveType::kTimestampMicros: WriteTimestamp(value.integer(), TimeUnit::kMicro, true); return Status::OK();
      case PrimitiveType::kTimestampNtzMicros: WriteTimestamp(value.integer(), TimeUnit::kMicro, false); return Status::OK();
      case PrimitiveType::kTimestampNanos: WriteTimestamp(value.integer(), TimeUnit::kNano, true); return Status::OK();
      case PrimitiveType::kTimestampNtzNanos: WriteTimestamp(value.integer(), TimeUnit::kNano, false); return Status::OK();
      case PrimitiveType::kBinary: {
        const std::string_view bytes = value.string();
        Quoted(static_cast<size_t>(Base64EncodedLength(static_cast<int64_t>(bytes.size()))),
               [&](char* p) { return Base64EncodeTo(bytes, p); });
        return Status::OK();
      }
      case PrimitiveType::kString: return WriteString(value.string());
      case PrimitiveType::kUuid: {
        static constexpr char kHex[] = "0123456789abcdef";
        Quoted(36, [&](char* p) {
          const uint8_t* b = value.uuid();
          for (int i = 0; i < 16; ++i) {
            if (i == 4 || i == 6 || i == 8 || i == 10) *p++ = '-';
            *p++ = kHex[b[i] >> 4];
            *p++ = kHex[b[i] & 15];
          }
          return p;
        });
        return Status::OK();
      }
    }
    return Status::Corrupt("variant value has unknown primitive type {}", static_cast<int>(value.primitive_type()));
  }

  const VariantMetadata& metadata_;
  std::string* out_;
  int64_t limit_;
};

}  // namespace

Status AppendVariantJson(const VariantMetadata& metadata, const VariantValue& value, std::string* out,
                         const JsonOptions& options) {
  VariantJsonWriter writer(metadata, out, options);
  return writer.Write(value, 0);
}

Status AppendVariantJson(std::string_view metadata, std::string_view value, std::string* out, const JsonOptions& options) {
  STRATA_ASSIGN_OR_RETURN(const VariantMetadata m, VariantMetadata::Make(metadata));
  STRATA_ASSIGN_OR_RETURN(const VariantValue v, VariantValue::Make(value));
  if (v.bytes().size() != value.size()) {
    return Status::Corrupt("variant value of {} bytes is followed by {} more", v.bytes().size(), value.size() - v.bytes().size());
  }
  return AppendVariantJson(m, v, out, options);
}

}  // namespace strata::variant
