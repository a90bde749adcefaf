// Keyword arguments of strata.write_parquet, write_csv and read_csv as strata's option
// structs. Unknown keywords and bad values are ValueError (strata.InvalidInput) naming them.
#pragma once

#include "strata/csv/reader.h"
#include "strata/csv/write_options.h"
#include "strata/parquet/encryption/decryption_options.h"
#include "strata/parquet/schema.h"
#include "strata/parquet/write/writer_options.h"
#include "strata_py.h"

namespace strata::python {

// codec, level, row_group_rows, row_group_bytes, page_bytes, page_rows, page_version (1|2),
// dictionary (bool), encoding (str, or {column: str}), bloom_filter ([columns]), statistics
// (bool), threads: the options of `strata convert`, with its defaults. Encryption: footer_key,
// column_keys ({column: key}), plaintext_footer, encryption_algorithm ("AES_GCM_V1" |
// "AES_GCM_CTR_V1"), aad_prefix, store_aad_prefix.
parquet::WriterOptions ParquetWriterOptionsFromKwargs(const py::dict& kwargs);

// storage_options as fsspec/s3fs users write them, for s3:// paths: endpoint_url, region (or
// region_name), key, secret, token (or aws_access_key_id, ...), anon, profile, client_kwargs
// ({endpoint_url, region_name}), path_style, part_size, max_parts_in_flight, verify. None: the
// environment's settings (AWS_ENDPOINT_URL, AWS_ACCESS_KEY_ID, ~/.aws, ...).
s3::S3Options S3OptionsFromStorageOptions(const py::object& storage_options);

// footer_key, column_keys ({column: key}), aad_prefix: what opens an encrypted file; nullptr
// when none is given. Keys are bytes (or str, taken as its UTF-8 bytes), 16, 24 or 32 of them.
std::shared_ptr<const parquet::FileDecryptionOptions> DecryptionOptionsFromKwargs(const py::dict& kwargs);
// int96_unit ("ns" default: a value outside years 1677-2262 fails; "us"; "ms"), from the same
// keyword arguments as DecryptionOptionsFromKwargs.
parquet::SchemaOptions SchemaOptionsFromKwargs(const py::dict& kwargs);

// delimiter, header (True|False|None = detect), null ([spellings]), all_strings, schema
// ({column: type name} or "name:type,..."), columns ([names]), skip_rows, quote, escape, comment,
// ragged ("error"|"fill"|"skip"), infer_whole_file, sample_bytes, batch_rows, threads.
// `header_names` is consulted for a "name:type" schema (see ApplySchema in csv.cc).
csv::CsvReadOptions CsvReadOptionsFromKwargs(const py::dict& kwargs, std::string* schema_text);
// delimiter, header (bool), null (str), quote, line_ending.
csv::WriteOptions CsvWriteOptionsFromKwargs(const py::dict& kwargs);

}  // namespace strata::python
