#include "strata/cli/csv_cli_options.h"

#include <algorithm>
#include <cctype>

#include <fmt/format.h>

#include "strata/types/schema.h"

namespace strata::cli {
namespace {

constexpr const char* kTypeList =
    "int8..int64, uint8..uint64, float32, float64, bool, string, binary, date32, timestamp[us], "
    "timestamp[us,UTC], time64[us], decimal(p,s)";

std::string_view Trim(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) text.remove_prefix(1);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.remove_suffix(1);
  return text;
}

std::string LowerNoSpaces(std::string_view text) {
  std::string out;
  for (const char c : text) {
    if (!std::isspace(static_cast<unsigned char>(c))) out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return out;
}

// Splits at `separator` outside [] and (); the pieces keep their spaces.
std::vector<std::string_view> SplitOutsideBrackets(std::string_view text, char separator) {
  std::vector<std::string_view> pieces;
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '[' || c == '(') ++depth;
    if ((c == ']' || c == ')') && depth > 0) --depth;
    if (c == separator && depth == 0) {
      pieces.push_back(text.substr(start, i - start));
      start = i + 1;
    }
  }
  pieces.push_back(text.substr(start));
  return pieces;
}

std::optional<TimeUnit> ParseUnit(std::string_view unit) {
  if (unit == "s") return TimeUnit::kSecond;
  if (unit == "ms") return TimeUnit::kMilli;
  if (unit == "us") return TimeUnit::kMicro;
  if (unit == "ns") return TimeUnit::kNano;
  return std::nullopt;
}

// Strict decimal digits to int (no sign, no spaces, at most 5 digits).
std::optional<int> ParseSmallInt(std::string_view digits) {
  if (digits.empty() || digits.size() > 5) return std::nullopt;
  int value = 0;
  for (const char c : digits) {
    if (c < '0' || c > '9') return std::nullopt;
    value = value * 10 + (c - '0');
  }
  return value;
}

// "name[args]" or "name(args)": the name and the text between the brackets; the brackets
// must close at the end.
bool SplitParameters(std::string_view text, char open, char close, std::string_view* name, std::string_view* args) {
  const size_t at = text.find(open);
  if (at == std::string_view::npos || text.back() != close) return false;
  *name = text.substr(0, at);
  *args = text.substr(at + 1, text.size() - at - 2);
  return true;
}

Status UnknownType(std::string_view text) {
  return Status::Invalid("unknown type '{}' (types: {})", text, kTypeList);
}

Result<TypePtr> ParseTimestamp(std::string_view original, std::string_view args) {
  // args in lower case without spaces: "us", "us,utc", "us,tz=utc". The zone keeps the user's
  // spelling, so take it from the original text.
  const size_t comma = args.find(',');
  const auto unit = ParseUnit(args.substr(0, comma));
  if (!unit) return Status::Invalid("type '{}': the unit must be s, ms, us or ns", original);
  if (comma == std::string_view::npos) return timestamp(*unit);
  std::string_view zone = Trim(original.substr(original.find(',') + 1));
  zone.remove_suffix(1);  // the closing bracket
  zone = Trim(zone);
  if (zone.size() > 3 && LowerNoSpaces(zone.substr(0, 3)) == "tz=") zone = Trim(zone.substr(3));
  if (zone.empty()) return Status::Invalid("type '{}': the time zone is empty", original);
  const std::string lower = LowerNoSpaces(zone);
  return timestamp(*unit, lower == "utc" || lower == "z" ? std::string("UTC") : std::string(zone));
}

Result<TypePtr> ParseDecimal(std::string_view original, std::string_view name, std::string_view args) {
  const size_t comma = args.find(',');
  const auto precision = ParseSmallInt(args.substr(0, comma));
  const auto scale = comma == std::string_view::npos ? std::optional<int>(0) : ParseSmallInt(args.substr(comma + 1));
  if (!precision || !scale) return Status::Invalid("type '{}': write decimal(precision,scale), e.g. decimal(10,2)", original);
  if (*precision < 1 || *precision > 76) {
    return Status::Invalid("type '{}': the precision must be 1 to 76, not {}", original, *precision);
  }
  if (*scale > *precision) {
    return Status::Invalid("type '{}': the scale {} is larger than the precision {}", original, *scale, *precision);
  }
  if (name == "decimal128" && *precision > 38) {
    return Status::Invalid("type '{}': decimal128 holds at most 38 digits (use decimal256)", original);
  }
  if (name == "decimal256" || *precision > 38) return decimal256(*precision, *scale);
  return decimal128(*precision, *scale);
}

}  // namespace

Result<TypePtr> ParseTypeName(std::string_view text) {
  const std::string_view original = Trim(text);
  const std::string t = LowerNoSpaces(original);
  if (t.empty()) return Status::Invalid("a type is missing (types: {})", kTypeList);
  if (t == "int8") return int8();
  if (t == "int16") return int16();
  if (t == "int32") return int32();
  if (t == "int64") return int64();
  if (t == "uint8") return uint8();
  if (t == "uint16") return uint16();
  if (t == "uint32") return uint32();
  if (t == "uint64") return uint64();
  if (t == "float32" || t == "float") return float32();
  if (t == "float64" || t == "double") return float64();
  if (t == "bool" || t == "boolean") return boolean();
  if (t == "string" || t == "utf8" || t == "str" || t == "text") return utf8();
  if (t == "large_string" || t == "large_utf8") return large_utf8();
  if (t == "binary") return binary();
  if (t == "large_binary") return large_binary();
  if (t == "date32" || t == "date" || t == "date32[day]") return date32();
  if (t == "timestamp") return timestamp(TimeUnit::kMicro);
  if (t == "timestamptz") return timestamp(TimeUnit::kMicro, "UTC");
  if (t == "time" || t == "time64") return time64(TimeUnit::kMicro);
  std::string_view name, args;
  if (SplitParameters(t, '[', ']', &name, &args)) {
    if (name == "timestamp") return ParseTimestamp(original, args);
    if (name == "time64" || name == "time32" || name == "time") {
      const auto unit = ParseUnit(args);
      const bool is32 = unit && (*unit == TimeUnit::kSecond || *unit == TimeUnit::kMilli);
      if (!unit || (name == "time32" && !is32) || (name == "time64" && is32)) {
        return Status::Invalid("type '{}': time32 takes s or ms, time64 us or ns", original);
      }
      return is32 ? time32(*unit) : time64(*unit);
    }
  }
  if (SplitParameters(t, '(', ')', &name, &args) &&
      (name == "decimal" || name == "decimal128" || name == "decimal256" || name == "numeric")) {
    return ParseDecimal(original, name, args);
  }
  return UnknownType(original);
}

Result<std::vector<ColumnTypeSpec>> ParseSchemaSpec(std::string_view text) {
  if (Trim(text).empty()) return Status::Invalid("--schema is empty (write 'name:type,name:type')");
  std::vector<ColumnTypeSpec> columns;
  for (const std::string_view piece : SplitOutsideBrackets(text, ',')) {
    // The name ends at the last ':' outside brackets (a zone like +05:30 sits inside them).
    const std::vector<std::string_view> parts = SplitOutsideBrackets(piece, ':');
    if (parts.size() < 2) {
      return Status::Invalid("--schema: '{}' is not name:type (write 'name:type,name:type')", Trim(piece));
    }
    const std::string_view type_text = parts.back();
    std::string_view name = piece.substr(0, piece.size() - type_text.size() - 1);
    name = Trim(name);
    if (name.empty()) return Status::Invalid("--schema: '{}' has no column name", Trim(piece));
    auto type = ParseTypeName(type_text);
    if (!type.ok()) return Status::Invalid("--schema column '{}': {}", name, type.status().message());
    for (const auto& column : columns) {
      if (column.name == name) return Status::Invalid("--schema: column '{}' is given twice", name);
    }
    columns.push_back({std::string(name), *type});
  }
  return columns;
}

Result<char> ParseCharOption(std::string_view option, std::string_view value, bool allow_none) {
  if (value == "\\t" || value == "tab" || value == "\t") return '\t';
  if (value == "\\\\") return '\\';  // --escape '\\' as a shell user may write it
  if (allow_none && (value == "none" || value.empty())) return '\0';
  if (value.size() == 1 && value[0] != '\n' && value[0] != '\r') return value[0];
  return Status::Invalid("{} takes one character (or \\t, tab{}), not '{}'", option, allow_none ? ", none" : "", value);
}

std::string CsvCliOptions::FirstGivenCsvOption() const {
  for (const CLI::Option* option : csv_only) {
    if (option->count() > 0) return option->get_name();
  }
  return "";
}

void AddCsvOptions(CLI::App* sub, CsvCliOptions* o) {
  sub->add_option("--input-format", o->input_format, "auto (by extension, default), csv, tsv, parquet, ipc (Arrow IPC file, or stream from a pipe) or arrows (IPC stream)")
      ->check(CLI::IsMember({"auto", "csv", "tsv", "parquet", "ipc", "arrow", "arrows"}))
      ->group("CSV input");
  auto& only = o->csv_only;
  only.push_back(sub->add_option("--delimiter", o->delimiter, "CSV field separator (\\t or tab for tabs; default: detect)"));
  only.push_back(sub->add_flag("--no-header", o->no_header, "The CSV's first line is data (columns f0, f1, ...)"));
  only.push_back(sub->add_option("--null", o->nulls, "A CSV null spelling, repeatable; replaces the defaults "
                                                      "('', NULL, null, NA, N/A)")
                     ->allow_extra_args(false));
  only.push_back(sub->add_option("--schema", o->schema,
                                 "CSV column types: 'name:type,...' (all columns in order, or some by name)"));
  only.push_back(sub->add_flag("--all-strings", o->all_strings, "Read every CSV column as text, infer nothing"));
  only.push_back(sub->add_option("--skip-rows", o->skip_rows, "CSV lines to skip before the header")
                     ->check(CLI::NonNegativeNumber));
  only.push_back(sub->add_flag("--infer-whole-file", o->infer_whole_file,
                               "Infer CSV types from every row (reads the file twice)"));
  only.push_back(sub->add_option("--sample-bytes", o->sample_bytes, "CSV bytes the dialect and types are inferred from")
                     ->check(CLI::PositiveNumber));
  only.push_back(sub->add_option("--ragged", o->ragged, "CSV rows with a wrong field count: error (default), fill, skip")
                     ->check(CLI::IsMember({"error", "fill", "skip"})));
  only.push_back(sub->add_option("--quote", o->quote, "CSV quote character, or none (default: detect)"));
  only.push_back(sub->add_option("--escape", o->escape, "CSV escape character, or none (default: detect)"));
  only.push_back(sub->add_option("--comment", o->comment, "Skip CSV lines starting with this character"));
  for (CLI::Option* option : only) option->group("CSV input");
}

Result<csv::CsvReadOptions> MakeCsvReadOptions(const CsvCliOptions& cli, bool tsv) {
  csv::CsvReadOptions options;
  if (!cli.delimiter.empty()) {
    STRATA_ASSIGN_OR_RETURN(options.parse.delimiter, ParseCharOption("--delimiter", cli.delimiter, false));
  } else if (tsv) {
    options.parse.delimiter = '\t';
  }
  if (!cli.quote.empty()) {
    STRATA_ASSIGN_OR_RETURN(options.parse.quote, ParseCharOption("--quote", cli.quote, true));
  }
  if (!cli.escape.empty()) {
    STRATA_ASSIGN_OR_RETURN(options.parse.escape, ParseCharOption("--escape", cli.escape, true));
  }
  if (!cli.comment.empty()) {
    STRATA_ASSIGN_OR_RETURN(options.parse.comment, ParseCharOption("--comment", cli.comment, true));
  }
  if (cli.no_header) options.parse.header = false;
  options.parse.skip_rows = cli.skip_rows;
  if (cli.ragged == "fill") options.parse.ragged_rows = csv::RaggedRows::kFill;
  if (cli.ragged == "skip") options.parse.ragged_rows = csv::RaggedRows::kSkip;
  if (!cli.nulls.empty()) options.convert.null_values = cli.nulls;
  options.convert.all_strings = cli.all_strings;
  if (cli.sample_bytes > 0) options.read.sample_bytes = cli.sample_bytes;
  options.read.infer_whole_file = cli.infer_whole_file;
  if (!cli.schema.empty()) STRATA_RETURN_NOT_OK(ParseSchemaSpec(cli.schema).status());  // fail before opening
  STRATA_RETURN_NOT_OK(options.Validate());
  return options;
}

Status ApplySchemaSpec(const std::vector<ColumnTypeSpec>& spec, const std::vector<std::string>& header_names,
                       bool has_header, const std::string& input, csv::CsvReadOptions* options) {
  auto whole_schema = [&] {
    std::vector<FieldPtr> fields;
    for (const auto& column : spec) fields.push_back(field(column.name, column.type));
    options->convert.schema = schema(std::move(fields));
    options->convert.column_types.clear();
  };
  bool named_in_order = spec.size() == header_names.size();
  for (size_t i = 0; named_in_order && i < spec.size(); ++i) named_in_order = spec[i].name == header_names[i];
  if (named_in_order || (!has_header && spec.size() == header_names.size())) {
    whole_schema();
    return Status::OK();
  }
  for (const auto& column : spec) {
    if (std::find(header_names.begin(), header_names.end(), column.name) == header_names.end()) {
      std::string names;
      for (const auto& name : header_names) names += (names.empty() ? "" : ", ") + name;
      if (!has_header) {
        return Status::Invalid("--schema names {} column{}, but '{}' has no header and {} columns ({}): name every "
                               "column in order, or use those names",
                               spec.size(), spec.size() == 1 ? "" : "s", input, header_names.size(), names);
      }
      return Status::Invalid("--schema: '{}' has no column '{}' (its columns: {})", input, column.name, names);
    }
  }
  options->convert.schema = nullptr;
  options->convert.column_types.clear();
  for (const auto& column : spec) options->convert.column_types.emplace_back(column.name, column.type);
  return Status::OK();
}

}  // namespace strata::cli
