// The keyword-argument mapping of the module's writers and readers (options.h). The names and
// defaults are those of `strata convert` (cli/convert_command.cc) and the C API's option
// strings; the checks are strict: a misspelt option is an error, not ignored.
#include "options.h"

#include "strata/csv/option_text.h"
#include "strata/types/type_names.h"
#include "strata/codec/codec_names.h"
#include "strata/exec/process_pool.h"
#include "strata/parquet/encoding/encoding_names.h"

namespace strata::python {
namespace {

void CheckKnown(const py::dict& kwargs, std::initializer_list<const char*> known, const char* function) {
  for (const auto& item : kwargs) {
    const std::string key = py::str(item.first);
    bool ok = false;
    for (const char* k : known) ok = ok || key == k;
    if (!ok) {
      std::string names;
      for (const char* k : known) names += std::string(names.empty() ? "" : ", ") + k;
      ThrowInvalid(fmt::format("{}: unknown option '{}' (known: {})", function, key, names));
    }
  }
}

py::object Get(const py::dict& kwargs, const char* key) {
  if (!kwargs.contains(key)) return py::none();
  return kwargs[key];
}

int64_t Int(const py::object& value, const char* key, int64_t min, int64_t max) {
  if (!py::isinstance<py::int_>(value) || py::isinstance<py::bool_>(value)) {
    ThrowInvalid(fmt::format("option '{}': {} is not an integer", key, py::repr(value).cast<std::string>()));
  }
  const int64_t v = value.cast<int64_t>();
  if (v < min || v > max) ThrowInvalid(fmt::format("option '{}': {} is out of range [{}, {}]", key, v, min, max));
  return v;
}

bool Bool(const py::object& value, const char* key) {
  if (!py::isinstance<py::bool_>(value)) {
    ThrowInvalid(fmt::format("option '{}': {} is not True or False", key, py::repr(value).cast<std::string>()));
  }
  return value.cast<bool>();
}

std::string Str(const py::object& value, const char* key) {
  if (!py::isinstance<py::str>(value)) {
    ThrowInvalid(fmt::format("option '{}': {} is not a string", key, py::repr(value).cast<std::string>()));
  }
  return value.cast<std::string>();
}

std::vector<std::string> StrList(const py::object& value, const char* key) {
  if (py::isinstance<py::str>(value)) return {value.cast<std::string>()};
  std::vector<std::string> out;
  if (!py::isinstance<py::list>(value) && !py::isinstance<py::tuple>(value)) {
    ThrowInvalid(fmt::format("option '{}': {} is not a list of strings", key, py::repr(value).cast<std::string>()));
  }
  for (const py::handle item : value) out.push_back(Str(py::reinterpret_borrow<py::object>(item), key));
  return out;
}

// The shared parsers (codec/codec_names.h, parquet/encoding/encoding_names.h), as ValueErrors.
codec::CompressionCodec ParseCodec(const std::string& name) {
  auto codec = codec::CodecFromName(name);
  if (!codec.ok()) ThrowInvalid(codec.status().WithContext("option 'codec'").message());
  return *codec;
}

parquet::Encoding ParseEncoding(const std::string& name) {
  auto encoding = parquet::EncodingFromName(name);
  if (!encoding.ok()) ThrowInvalid(encoding.status().WithContext("option 'encoding'").message());
  return *encoding;
}

constexpr int64_t kMaxCount = int64_t{1} << 50;
constexpr int64_t kMaxThreads = 1 << 16;

char CharOption(const py::object& value, const char* key, bool allow_none) {
  return ValueOrThrow(csv::ParseCharOption(key, Str(value, key), allow_none));
}

// A key or an AAD prefix: bytes as they are, str as its UTF-8 bytes. Never echoed in messages.
std::string Secret(const py::object& value, const std::string& key) {
  if (py::isinstance<py::bytes>(value)) return value.cast<std::string>();
  if (py::isinstance<py::str>(value)) return value.cast<std::string>();
  ThrowInvalid(fmt::format("option '{}': a key is bytes or str, not {}", key,
                           py::str(py::type::of(value).attr("__name__")).cast<std::string>()));
}

std::map<std::string, std::string> ColumnKeys(const py::object& value) {
  if (!py::isinstance<py::dict>(value)) ThrowInvalid("option 'column_keys': a dict of column path to key");
  std::map<std::string, std::string> keys;
  for (const auto& item : value.cast<py::dict>()) {
    const std::string column = Str(py::reinterpret_borrow<py::object>(item.first), "column_keys");
    if (column.empty()) ThrowInvalid("option 'column_keys': a column path is empty");
    keys[column] = Secret(py::reinterpret_borrow<py::object>(item.second), "column_keys['" + column + "']");
  }
  return keys;
}

}  // namespace

s3::S3Options S3OptionsFromStorageOptions(const py::object& storage_options) {
  s3::S3Options out;
  if (storage_options.is_none()) return out;
  if (!py::isinstance<py::dict>(storage_options)) {
    ThrowInvalid(fmt::format("storage_options: {} is not a dict", py::repr(storage_options).cast<std::string>()));
  }
  py::dict options = storage_options.cast<py::dict>();
  // s3fs spells the endpoint and region inside client_kwargs; both spellings are taken.
  if (options.contains("client_kwargs")) {
    py::dict merged;
    for (const auto& item : options) merged[item.first] = item.second;
    const py::object client = options["client_kwargs"];
    if (!py::isinstance<py::dict>(client)) ThrowInvalid("storage_options: 'client_kwargs' is not a dict");
    for (const auto& item : client.cast<py::dict>()) merged[item.first] = item.second;
    merged.attr("pop")("client_kwargs");
    options = merged;
  }
  CheckKnown(options,
             {"endpoint_url", "region", "region_name", "key", "aws_access_key_id", "secret", "aws_secret_access_key",
              "token", "aws_session_token", "anon", "profile", "path_style", "part_size", "max_parts_in_flight",
              "verify"},
             "storage_options");
  py::object v;
  auto either = [&](const char* a, const char* b) {
    py::object first = Get(options, a);
    return first.is_none() ? Get(options, b) : first;
  };
  if (!(v = Get(options, "endpoint_url")).is_none()) out.endpoint_url = Str(v, "endpoint_url");
  if (!(v = either("region", "region_name")).is_none()) out.region = Str(v, "region");
  if (!(v = either("key", "aws_access_key_id")).is_none()) out.access_key_id = Str(v, "key");
  if (!(v = either("secret", "aws_secret_access_key")).is_none()) out.secret_access_key = Str(v, "secret");
  if (!(v = either("token", "aws_session_token")).is_none()) out.session_token = Str(v, "token");
  if (!(v = Get(options, "anon")).is_none()) out.anonymous = Bool(v, "anon");
  if (!(v = Get(options, "profile")).is_none()) out.profile = Str(v, "profile");
  if (!(v = Get(options, "path_style")).is_none()) out.path_style = Bool(v, "path_style");
  if (!(v = Get(options, "part_size")).is_none()) out.part_size = Int(v, "part_size", 1, kMaxCount);
  if (!(v = Get(options, "max_parts_in_flight")).is_none()) {
    out.max_parts_in_flight = static_cast<int>(Int(v, "max_parts_in_flight", 1, 64));
  }
  if (!(v = Get(options, "verify")).is_none()) out.http.verify_tls = Bool(v, "verify");
  CheckStatus(out.Validate());
  return out;
}

parquet::WriterOptions ParquetWriterOptionsFromKwargs(const py::dict& kwargs) {
  CheckKnown(kwargs,
             {"codec", "level", "row_group_rows", "row_group_bytes", "page_bytes", "page_rows", "page_version",
              "dictionary", "encoding", "bloom_filter", "statistics", "threads", "content_defined_chunking",
              "footer_key", "column_keys",
              "plaintext_footer", "encryption_algorithm", "aad_prefix", "store_aad_prefix", "storage_options"},
             "write_parquet");
  parquet::WriterOptions options;
  py::object v;
  options.file.s3 = S3OptionsFromStorageOptions(Get(kwargs, "storage_options"));
  if (!(v = Get(kwargs, "codec")).is_none()) options.columns.codec = ParseCodec(Str(v, "codec"));
  if (!(v = Get(kwargs, "level")).is_none()) options.columns.compression_level = static_cast<int>(Int(v, "level", -(1 << 20), 1 << 20));
  if (!(v = Get(kwargs, "row_group_rows")).is_none()) options.file.max_row_group_rows = Int(v, "row_group_rows", 1, kMaxCount);
  if (!(v = Get(kwargs, "row_group_bytes")).is_none()) options.file.max_row_group_bytes = Int(v, "row_group_bytes", 1, kMaxCount);
  if (!(v = Get(kwargs, "page_bytes")).is_none()) options.file.data_page_bytes = Int(v, "page_bytes", 1, kMaxCount);
  if (!(v = Get(kwargs, "page_rows")).is_none()) options.file.data_page_rows = Int(v, "page_rows", 1, kMaxCount);
  if (!(v = Get(kwargs, "page_version")).is_none()) {
    options.file.page_version = Int(v, "page_version", 1, 2) == 2 ? parquet::DataPageVersion::kV2 : parquet::DataPageVersion::kV1;
  }
  if (!(v = Get(kwargs, "dictionary")).is_none()) options.columns.dictionary = Bool(v, "dictionary");
  if (!(v = Get(kwargs, "statistics")).is_none()) options.columns.statistics = Bool(v, "statistics");
  // As pyarrow's use_content_defined_chunking: True (Arrow's defaults) or a dict of
  // min_chunk_size, max_chunk_size (bytes) and norm_level.
  if (!(v = Get(kwargs, "content_defined_chunking")).is_none()) {
    parquet::ContentDefinedChunking& cdc = options.columns.content_defined_chunking;
    if (py::isinstance<py::dict>(v)) {
      const auto spec = v.cast<py::dict>();
      CheckKnown(spec, {"min_chunk_size", "max_chunk_size", "norm_level"}, "content_defined_chunking");
      cdc.enabled = true;
      py::object x;
      if (!(x = Get(spec, "min_chunk_size")).is_none()) cdc.min_chunk_bytes = Int(x, "min_chunk_size", 1, kMaxCount);
      if (!(x = Get(spec, "max_chunk_size")).is_none()) cdc.max_chunk_bytes = Int(x, "max_chunk_size", 1, kMaxCount);
      if (!(x = Get(spec, "norm_level")).is_none()) cdc.norm_level = static_cast<int>(Int(x, "norm_level", -8, 8));
    } else {
      cdc.enabled = Bool(v, "content_defined_chunking");
    }
  }
  // The process's pool, every core by default (as convert's --threads).
  const int64_t write_threads = (v = Get(kwargs, "threads")).is_none() ? 0 : Int(v, "threads", 0, kMaxThreads);
  options.file.executor = exec::ProcessExecutor(static_cast<int>(write_threads));
  // Per-column settings start from the defaults chosen above (as convert's --encoding col=...).
  auto column = [&](const std::string& path) -> parquet::ColumnWriteOptions& {
    auto [it, inserted] = options.column_overrides.try_emplace(path, options.columns);
    return it->second;
  };
  if (!(v = Get(kwargs, "encoding")).is_none()) {
    if (py::isinstance<py::str>(v)) {
      options.columns.encoding = ParseEncoding(v.cast<std::string>());
      if (options.columns.encoding != parquet::Encoding::kRleDictionary) options.columns.dictionary = false;
    } else if (py::isinstance<py::dict>(v)) {
      for (const auto& item : v.cast<py::dict>()) {
        const std::string name = Str(py::reinterpret_borrow<py::object>(item.first), "encoding");
        if (name.empty()) ThrowInvalid("option 'encoding': a column name is empty");
        parquet::ColumnWriteOptions& o = column(name);
        o.encoding = ParseEncoding(Str(py::reinterpret_borrow<py::object>(item.second), "encoding"));
        if (o.encoding != parquet::Encoding::kRleDictionary) o.dictionary = false;
      }
    } else {
      ThrowInvalid(fmt::format("option 'encoding': {} is not a string or a dict of column to encoding",
                               py::repr(v).cast<std::string>()));
    }
  }
  if (!(v = Get(kwargs, "bloom_filter")).is_none()) {
    for (const std::string& path : StrList(v, "bloom_filter")) column(path).bloom_filter = true;
  }
  if (!(v = Get(kwargs, "footer_key")).is_none()) {
    parquet::FileEncryptionOptions encryption;
    encryption.footer_key = Secret(v, "footer_key");
    if (!(v = Get(kwargs, "column_keys")).is_none()) {
      for (auto& [path, key] : ColumnKeys(v)) encryption.column_keys[path] = {std::move(key), std::nullopt};
    }
    if (!(v = Get(kwargs, "plaintext_footer")).is_none()) encryption.plaintext_footer = Bool(v, "plaintext_footer");
    if (!(v = Get(kwargs, "encryption_algorithm")).is_none()) {
      const std::string algorithm = Str(v, "encryption_algorithm");
      if (algorithm != "AES_GCM_V1" && algorithm != "AES_GCM_CTR_V1") {
        ThrowInvalid(fmt::format("option 'encryption_algorithm': '{}' is not AES_GCM_V1 or AES_GCM_CTR_V1", algorithm));
      }
      encryption.ctr_pages = algorithm == "AES_GCM_CTR_V1";
    }
    if (!(v = Get(kwargs, "aad_prefix")).is_none()) encryption.aad_prefix = Secret(v, "aad_prefix");
    if (!(v = Get(kwargs, "store_aad_prefix")).is_none()) encryption.store_aad_prefix = Bool(v, "store_aad_prefix");
    options.file.encryption = std::move(encryption);
  } else {
    for (const char* key : {"column_keys", "plaintext_footer", "encryption_algorithm", "aad_prefix", "store_aad_prefix"}) {
      if (!Get(kwargs, key).is_none()) ThrowInvalid(fmt::format("option '{}': encrypting needs footer_key", key));
    }
  }
  CheckStatus(options.Validate());
  return options;
}

parquet::SchemaOptions SchemaOptionsFromKwargs(const py::dict& kwargs) {
  parquet::SchemaOptions options;
  const py::object v = Get(kwargs, "int96_unit");
  if (v.is_none()) return options;
  const std::string unit = Str(v, "int96_unit");
  if (unit == "ns") options.int96_unit = TimeUnit::kNano;
  else if (unit == "us") options.int96_unit = TimeUnit::kMicro;
  else if (unit == "ms") options.int96_unit = TimeUnit::kMilli;
  else ThrowInvalid(fmt::format("option 'int96_unit': '{}' is not ns, us or ms", unit));
  return options;
}

std::shared_ptr<const parquet::FileDecryptionOptions> DecryptionOptionsFromKwargs(const py::dict& kwargs) {
  CheckKnown(kwargs,
             {"footer_key", "column_keys", "aad_prefix", "int96_unit", "storage_options", "restore_arrow_schema",
              "row_number"},
             "ParquetFile");
  py::object v;
  auto options = std::make_shared<parquet::FileDecryptionOptions>();
  if (!(v = Get(kwargs, "footer_key")).is_none()) options->footer_key = Secret(v, "footer_key");
  if (!(v = Get(kwargs, "column_keys")).is_none()) options->column_keys = ColumnKeys(v);
  if (!(v = Get(kwargs, "aad_prefix")).is_none()) options->aad_prefix = Secret(v, "aad_prefix");
  if (options->empty()) return nullptr;
  CheckStatus(options->Validate());
  return options;
}

csv::CsvReadOptions CsvReadOptionsFromKwargs(const py::dict& kwargs, std::string* schema_text) {
  CheckKnown(kwargs,
             {"delimiter", "header", "null", "all_strings", "schema", "columns", "skip_rows", "quote", "escape",
              "comment", "ragged", "max_bad_rows", "infer_whole_file", "sample_bytes", "batch_rows", "threads",
              "storage_options"},
             "read_csv");
  csv::CsvReadOptions out;
  py::object v;
  out.s3 = S3OptionsFromStorageOptions(Get(kwargs, "storage_options"));
  if (!(v = Get(kwargs, "delimiter")).is_none()) {
    out.parse.delimiter = ValueOrThrow(csv::ParseDelimiterOption("delimiter", Str(v, "delimiter")));
  }
  if (!(v = Get(kwargs, "header")).is_none()) out.parse.header = Bool(v, "header");
  if (!(v = Get(kwargs, "null")).is_none()) out.convert.null_values = StrList(v, "null");
  if (!(v = Get(kwargs, "all_strings")).is_none()) out.convert.all_strings = Bool(v, "all_strings");
  if (!(v = Get(kwargs, "columns")).is_none()) out.convert.include_columns = StrList(v, "columns");
  if (!(v = Get(kwargs, "skip_rows")).is_none()) out.parse.skip_rows = Int(v, "skip_rows", 0, kMaxCount);
  if (!(v = Get(kwargs, "quote")).is_none()) out.parse.quote = CharOption(v, "quote", true);
  if (!(v = Get(kwargs, "escape")).is_none()) out.parse.escape = CharOption(v, "escape", true);
  if (!(v = Get(kwargs, "comment")).is_none()) out.parse.comment = CharOption(v, "comment", true);
  if (!(v = Get(kwargs, "ragged")).is_none()) {
    const std::string r = Str(v, "ragged");
    if (r == "error") out.parse.ragged_rows = csv::RaggedRows::kError;
    else if (r == "fill") out.parse.ragged_rows = csv::RaggedRows::kFill;
    else if (r == "skip") out.parse.ragged_rows = csv::RaggedRows::kSkip;
    else if (r == "salvage") out.parse.ragged_rows = csv::RaggedRows::kSalvage;
    else ThrowInvalid(fmt::format("option 'ragged': '{}' is not error, fill, skip or salvage", r));
  }
  if (!(v = Get(kwargs, "max_bad_rows")).is_none()) out.parse.max_bad_rows = Int(v, "max_bad_rows", 0, kMaxCount);
  if (!(v = Get(kwargs, "infer_whole_file")).is_none()) out.read.infer_whole_file = Bool(v, "infer_whole_file");
  if (!(v = Get(kwargs, "sample_bytes")).is_none()) out.read.sample_bytes = Int(v, "sample_bytes", 1, kMaxCount);
  if (!(v = Get(kwargs, "batch_rows")).is_none()) out.read.batch_rows = Int(v, "batch_rows", 1, kMaxCount);
  // The process's pool, every core by default.
  const int64_t read_threads = (v = Get(kwargs, "threads")).is_none() ? 0 : Int(v, "threads", 0, kMaxThreads);
  out.read.executor = exec::ProcessExecutor(static_cast<int>(read_threads));
  if (!(v = Get(kwargs, "schema")).is_none()) {
    if (py::isinstance<py::str>(v)) {
      *schema_text = v.cast<std::string>();
    } else if (py::isinstance<py::dict>(v)) {
      // {column: type name}: per-column types by name.
      for (const auto& item : v.cast<py::dict>()) {
        const std::string name = Str(py::reinterpret_borrow<py::object>(item.first), "schema");
        const std::string type_name = Str(py::reinterpret_borrow<py::object>(item.second), "schema");
        Result<TypePtr> type = ParseTypeName(type_name);
        if (!type.ok()) ThrowInvalid(fmt::format("option 'schema': column '{}': {}", name, type.status().message()));
        out.convert.column_types.emplace_back(name, *type);
      }
    } else {
      ThrowInvalid(fmt::format("option 'schema': {} is not a dict of column to type name or a 'name:type,...' string",
                               py::repr(v).cast<std::string>()));
    }
  }
  CheckStatus(out.Validate());
  return out;
}

csv::WriteOptions CsvWriteOptionsFromKwargs(const py::dict& kwargs) {
  CheckKnown(kwargs, {"delimiter", "header", "null", "quote", "line_ending", "storage_options"}, "write_csv");
  csv::WriteOptions out;
  py::object v;
  out.s3 = S3OptionsFromStorageOptions(Get(kwargs, "storage_options"));
  if (!(v = Get(kwargs, "delimiter")).is_none()) out.delimiter = CharOption(v, "delimiter", false);
  if (!(v = Get(kwargs, "header")).is_none()) out.header = Bool(v, "header");
  if (!(v = Get(kwargs, "null")).is_none()) out.null_value = Str(v, "null");
  if (!(v = Get(kwargs, "quote")).is_none()) out.quote = CharOption(v, "quote", false);
  if (!(v = Get(kwargs, "line_ending")).is_none()) out.line_ending = Str(v, "line_ending");
  CheckStatus(out.Validate());
  return out;
}

}  // namespace strata::python
