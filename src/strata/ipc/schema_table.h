// The Schema table and key-value metadata of Arrow IPC metadata, shared by the schema message
// (schema_message.h), the IPC writer and readers and the file footer. Internal to the ipc layer.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>

#include "strata/ipc/flatbuffer_format.h"
#include "strata/ipc/flatbuffer_reader.h"
#include "strata/types/schema.h"
#include "strata/util/result.h"

namespace strata::ipc::format {

// The dictionary id of every dictionary-encoded field of a schema, by field (the Field objects
// of that schema, nested ones included).
using DictionaryIds = std::unordered_map<const Field*, int64_t>;

// Adds a Schema table for `schema` to `fbb`. Dictionary fields get ids depth-first (pre-order)
// from 0, recorded in *ids when it is not null. `big_endian`: the bodies that follow are.
Result<fb::Offset<void>> AddSchemaTable(fb::FlatBufferBuilder& fbb, const Schema& schema, DictionaryIds* ids,
                                        bool big_endian = false);

// The schema of a Schema table (`table` verified by `reader`); the dictionary fields' ids from
// the file are recorded in *ids when it is not null. With `big_endian` null a big-endian
// schema is refused (NotImplemented); otherwise *big_endian says whether it is one.
Result<SchemaPtr> ParseSchemaTable(FlatbufferReader& reader, const fb::Table* table, DictionaryIds* ids,
                                   bool* big_endian = nullptr);

// A [KeyValue] vector, or a null offset (not written) for empty metadata, as Arrow C++ does.
fb::Offset<void> AddKeyValues(fb::FlatBufferBuilder& fbb, const KeyValueMetadata& metadata);
Result<KeyValueMetadata> ParseKeyValues(FlatbufferReader& reader, const fb::Table* table, fb::voffset_t slot,
                                        std::string_view what);

// Finishes `fbb` with a Message { version V5, header, bodyLength } and returns the
// encapsulated metadata: continuation marker, int32 length, the flatbuffer, zero padding up to
// where the body that follows starts at a multiple of `alignment` (8 or 64) of the output, the
// message itself being written at `start_position`.
Result<std::string> FinishMessage(fb::FlatBufferBuilder& fbb, uint8_t header_type, fb::Offset<void> header,
                                  int64_t body_length, int64_t alignment = 8, int64_t start_position = 0);

}  // namespace strata::ipc::format
