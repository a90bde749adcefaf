// The Arrow IPC schema message: an encapsulated IPC message (continuation marker 0xFFFFFFFF,
// int32 little-endian metadata length, a FlatBuffers `Message` whose header is a `Schema`,
// zero padding to a multiple of 8). The Parquet writer stores its base64 under the
// `ARROW:schema` key, and readers use it to restore types Parquet cannot express. First piece
// of the ipc layer (IPC files and streams come later); sits on types and util.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "strata/types/schema.h"
#include "strata/util/result.h"

namespace strata::ipc {

// Fields nested deeper than this (a top-level field is depth 1) are refused, as Arrow C++ does:
// it bounds the reader's recursion on hostile input (and the writer does not write what
// readers would refuse).
inline constexpr int kMaxSchemaNestingDepth = 64;

// The encapsulated IPC message holding `schema`: `Message { version: V5, header: Schema,
// bodyLength: 0 }` with the fields (names, nullability, children, field key-value metadata),
// the schema's key-value metadata and endianness Little. Dictionary fields carry a
// DictionaryEncoding whose ids are assigned depth-first (pre-order) from 0. The returned bytes
// are a multiple of 8 long. NotImplemented for a dictionary whose values are a dictionary;
// LimitExceeded for fields nested deeper than kMaxSchemaNestingDepth.
Result<std::string> SerializeSchema(const Schema& schema);

// The reverse, for any V4 or V5 schema message, with or without the continuation marker
// (writers before Arrow 0.15 omitted it). `message` may be followed by more bytes (the rest of
// an IPC stream): only the first message is read. Every byte is verified before it is used.
// Errors: NotImplemented names the field for types strata lacks (interval, union, run-end
// encoded, list views, 32/64-bit decimals, unknown future types), for big-endian schemas and
// for other metadata versions; Corrupt, with the byte offset, for malformed bytes; LimitExceeded
// for nesting deeper than kMaxSchemaNestingDepth or subtrees shared so often that the schema
// would be far larger than its message.
Result<std::shared_ptr<Schema>> DeserializeSchema(std::string_view message);

}  // namespace strata::ipc
