// Reading the body of a record batch or dictionary batch: the RecordBatch table's nodes and
// buffers, checked against the body and the schema, turned into ArrayData that slices the
// body (or holds decompressed copies). Internal to the ipc layer.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "strata/array/array_data.h"
#include "strata/ipc/body_compression.h"
#include "strata/ipc/ipc_message.h"
#include "strata/ipc/schema_table.h"
#include "strata/util/result.h"

namespace strata::ipc {

// Message.fbs: table RecordBatch, read and checked (counts bounded by the metadata size).
struct RecordBatchTable {
  int64_t length = 0;
  std::vector<format::FieldNode> nodes;
  std::vector<format::BufferSpec> buffers;
  std::optional<IpcCompression> compression;
  std::vector<int64_t> variadic_counts;
};
Result<RecordBatchTable> ParseRecordBatchTable(const IpcMessage& message, const format::fb::Table* table);

// The dictionaries read so far, by id.
using DictionaryMemo = std::unordered_map<int64_t, ArrayDataPtr>;

class ArrayLoader {
 public:
  // `codec`: the reader's codec for the batch's compression (null when uncompressed).
  // `big_endian`: the schema says the body is big-endian; its values are byte-swapped to native
  // on load (copies; bitmaps, bytes and type ids stay as they are).
  ArrayLoader(const IpcMessage& message, const RecordBatchTable& batch, BodyCodec* codec,
              const format::DictionaryIds& ids, const DictionaryMemo& dictionaries, MemoryPool* pool,
              bool big_endian = false)
      : message_(message), batch_(batch), codec_(codec), ids_(ids), dictionaries_(dictionaries), pool_(pool),
        big_endian_(big_endian) {}

  // The next column, of `field`'s type (a dictionary field takes its values from the memo).
  Result<ArrayDataPtr> Load(const Field& field) { return Load(field, field.name(), 0); }

 private:
  Result<ArrayDataPtr> Load(const Field& field, const std::string& path, int depth);
  Result<format::FieldNode> NextNode(const std::string& path);
  // The next buffer; `known_size` is the size the array needs (-1 when it depends on other
  // buffers: `data_bound` then caps a decompressed size). `align` is the value width.
  Result<std::shared_ptr<Buffer>> NextBuffer(const std::string& path, const char* what, int64_t known_size,
                                             int64_t data_bound, int64_t align);
  Status Corrupt(const std::string& path, const std::string& what) const;

  const IpcMessage& message_;
  const RecordBatchTable& batch_;
  BodyCodec* codec_;
  const format::DictionaryIds& ids_;
  const DictionaryMemo& dictionaries_;
  MemoryPool* pool_;
  bool big_endian_;
  size_t next_node_ = 0;
  size_t next_buffer_ = 0;
  size_t next_variadic_ = 0;
};

}  // namespace strata::ipc
