#include "strata/ipc/array_loader.h"

#include <algorithm>
#include <cstring>
#include <limits>

#include "strata/array/bitmap.h"
#include "strata/ipc/byte_swap.h"

namespace strata::ipc {

using namespace format;  // NOLINT: the format's names
using bitmap::BytesForBits;

namespace {

alignas(64) const uint8_t kZeros[64] = {};

std::shared_ptr<Buffer> EmptyBuffer() { return std::make_shared<Buffer>(kZeros, 0); }

// A compressed buffer may state a few KiB more than its array needs (writers that pad).
constexpr int64_t kSlack = 4096;

bool Multiply(int64_t a, int64_t b, int64_t* out) { return !__builtin_mul_overflow(a, b, out); }

}  // namespace

Result<RecordBatchTable> ParseRecordBatchTable(const IpcMessage& message, const fb::Table* table) {
  FlatbufferReader& reader = *message.reader;
  RecordBatchTable batch;
  STRATA_ASSIGN_OR_RETURN(batch.length, reader.Scalar<int64_t>(table, kRecordBatchLength, 0, "RecordBatch.length"));
  if (batch.length < 0) {
    return Status::Corrupt("{}: the record batch at byte {} has length {}", message.label, message.offset, batch.length);
  }
  STRATA_ASSIGN_OR_RETURN(batch.nodes, reader.Structs<FieldNode>(table, kRecordBatchNodes, "RecordBatch.nodes"));
  STRATA_ASSIGN_OR_RETURN(batch.buffers,
                          reader.Structs<BufferSpec>(table, kRecordBatchBuffers, "RecordBatch.buffers"));
  STRATA_ASSIGN_OR_RETURN(batch.variadic_counts, reader.Structs<int64_t>(table, kRecordBatchVariadicBufferCounts,
                                                                          "RecordBatch.variadicBufferCounts"));
  STRATA_ASSIGN_OR_RETURN(const fb::Table* compression,
                          reader.Table(table, kRecordBatchCompression, "RecordBatch.compression"));
  if (compression != nullptr) {
    STRATA_ASSIGN_OR_RETURN(int8_t codec, reader.Scalar<int8_t>(compression, kBodyCompressionCodec,
                                                                kCompressionLz4Frame, "BodyCompression.codec"));
    STRATA_ASSIGN_OR_RETURN(int8_t method, reader.Scalar<int8_t>(compression, kBodyCompressionMethod,
                                                                 kBodyCompressionBuffer, "BodyCompression.method"));
    if (method != kBodyCompressionBuffer) {
      return Status::NotImplemented("{}: the record batch at byte {} uses body compression method {}", message.label,
                                    message.offset, method);
    }
    if (codec == kCompressionLz4Frame) {
      batch.compression = IpcCompression::kLz4Frame;
    } else if (codec == kCompressionZstd) {
      batch.compression = IpcCompression::kZstd;
    } else {
      return Status::Corrupt("{}: the record batch at byte {} has compression codec {}", message.label,
                             message.offset, codec);
    }
  }
  return batch;
}

Status ArrayLoader::Corrupt(const std::string& path, const std::string& what) const {
  return Status::Corrupt("{}: record batch at byte {}, column '{}': {}", message_.label, message_.offset, path, what);
}

Result<FieldNode> ArrayLoader::NextNode(const std::string& path) {
  if (next_node_ >= batch_.nodes.size()) {
    return Corrupt(path, fmt::format("the batch has {} field nodes, more are needed", batch_.nodes.size()));
  }
  const FieldNode node = batch_.nodes[next_node_++];
  if (node.length < 0 || node.null_count < 0 || node.null_count > node.length) {
    return Corrupt(path, fmt::format("field node #{} has length {} and null count {}", next_node_ - 1, node.length,
                                     node.null_count));
  }
  return node;
}

Result<std::shared_ptr<Buffer>> ArrayLoader::NextBuffer(const std::string& path, const char* what,
                                                        int64_t known_size, int64_t data_bound, int64_t align) {
  if (next_buffer_ >= batch_.buffers.size()) {
    return Corrupt(path, fmt::format("the batch has {} buffers, more are needed ({})", batch_.buffers.size(), what));
  }
  const size_t index = next_buffer_++;
  const BufferSpec spec = batch_.buffers[index];
  const int64_t body_size = message_.body == nullptr ? 0 : message_.body->size();
  if (spec.offset < 0 || spec.length < 0 || spec.offset > body_size || spec.length > body_size - spec.offset) {
    return Corrupt(path, fmt::format("buffer #{} ({}) at [{}, +{}) lies outside the {}-byte body", index, what,
                                     spec.offset, spec.length, body_size));
  }
  if (spec.length == 0) return EmptyBuffer();
  int64_t offset = spec.offset, length = spec.length;
  if (codec_ != nullptr) {
    if (length < 8) {
      return Corrupt(path, fmt::format("compressed buffer #{} ({}) has {} bytes, less than its length prefix", index,
                                       what, length));
    }
    int64_t uncompressed = 0;
    std::memcpy(&uncompressed, message_.body->data() + offset, 8);
    offset += 8;
    length -= 8;
    if (uncompressed != -1) {
      const int64_t bound = known_size >= 0 ? known_size + kSlack : data_bound;
      if (uncompressed < 0 || uncompressed > bound) {
        return Corrupt(path, fmt::format("compressed buffer #{} ({}) states {} uncompressed bytes; at most {} can be "
                                         "needed",
                                         index, what, uncompressed, bound));
      }
      STRATA_ASSIGN_OR_RETURN(auto output, AllocateBuffer(pool_, uncompressed));
      Status status = codec_->Decompress({message_.body->data() + offset, static_cast<size_t>(length)},
                                         {output->mutable_data(), static_cast<size_t>(uncompressed)});
      if (!status.ok()) {
        return Corrupt(path, fmt::format("buffer #{} ({}): {}", index, what, status.message()));
      }
      return std::shared_ptr<Buffer>(std::move(output));
    }
  }
  const uint8_t* data = message_.body->data() + offset;
  if (reinterpret_cast<uintptr_t>(data) % static_cast<uintptr_t>(align) != 0) {
    // Misaligned for its values (a writer that did not align): copied, never read in place.
    STRATA_ASSIGN_OR_RETURN(auto copy, AllocateBuffer(pool_, length));
    std::memcpy(copy->mutable_data(), data, static_cast<size_t>(length));
    return std::shared_ptr<Buffer>(std::move(copy));
  }
  return Buffer::Slice(message_.body, offset, length);
}

Result<ArrayDataPtr> ArrayLoader::Load(const Field& field, const std::string& path, int depth) {
  const TypePtr& type = field.type();
  const TypeId id = type->id();
  STRATA_ASSIGN_OR_RETURN(FieldNode node, NextNode(path));
  const int64_t length = node.length;
  if (id == TypeId::kNull) {
    return ArrayData::Make(type, length, {nullptr}, length);
  }
  // Unions and run-end encoded arrays have no validity bitmap since metadata V5; V4 writers
  // still gave them the buffer, which must then state no nulls.
  const bool own_validity = !(is_union(id) || id == TypeId::kRunEndEncoded);
  std::shared_ptr<Buffer> validity;
  if (own_validity || message_.version < kMetadataV5) {
    STRATA_ASSIGN_OR_RETURN(validity, NextBuffer(path, "validity", BytesForBits(length), 0, 1));
  }
  if (!own_validity && node.null_count != 0) {
    return Status::NotImplemented("{}: record batch at byte {}, column '{}': a {} with {} nulls of its own (a "
                                  "pre-1.0 validity bitmap), which strata does not read",
                                  message_.label, message_.offset, path, type->ToString(), node.null_count);
  }
  if (node.null_count == 0) {
    validity = nullptr;
  } else if (validity->size() < BytesForBits(length)) {
    return Corrupt(path, fmt::format("the validity bitmap has {} bytes for {} values", validity->size(), length));
  }
  std::vector<std::shared_ptr<Buffer>> buffers{std::move(validity)};
  std::vector<ArrayDataPtr> children;
  auto child = [&](int i) -> Status {
    const FieldPtr& child_field = type->fields()[static_cast<size_t>(i)];
    STRATA_ASSIGN_OR_RETURN(auto data, Load(*child_field, path + "." + child_field->name(), depth + 1));
    children.push_back(std::move(data));
    return Status::OK();
  };
  // `swap`: how a big-endian body's elements turn native (none for bytes and bit-packed values).
  auto fixed = [&](int64_t width, const char* what, std::optional<SwapLayout> swap = SwapLayout::kWhole) -> Status {
    int64_t size = 0;
    if (!Multiply(length, width, &size)) return Corrupt(path, fmt::format("length {} overflows", length));
    // Read with the value width's alignment (8 at most; fixed_size_binary(0) needs none).
    STRATA_ASSIGN_OR_RETURN(auto values, NextBuffer(path, what, size, 0, std::clamp<int64_t>(width, 1, 8)));
    if (big_endian_ && swap && width > 1) {
      STRATA_ASSIGN_OR_RETURN(values, ByteSwapped(*values, *swap, width, length, pool_));
    }
    buffers.push_back(std::move(values));
    return Status::OK();
  };
  // Offsets, then returns the last one (the data they cover), 0 when there are none.
  auto offsets = [&](int64_t width) -> Result<int64_t> {
    int64_t size = 0;
    if (length == std::numeric_limits<int64_t>::max() || !Multiply(length + 1, width, &size)) {
      return Corrupt(path, fmt::format("length {} overflows", length));
    }
    STRATA_ASSIGN_OR_RETURN(auto buffer, NextBuffer(path, "offsets", size, 0, width));
    if (big_endian_) {
      STRATA_ASSIGN_OR_RETURN(buffer, ByteSwapped(*buffer, SwapLayout::kWhole, width, length + 1, pool_));
    }
    if (buffer->size() == 0 && length == 0) {
      STRATA_ASSIGN_OR_RETURN(auto zero, AllocateBuffer(pool_, width));  // strata reads offsets[0]
      std::memset(zero->mutable_data(), 0, static_cast<size_t>(width));
      buffer = std::move(zero);
    }
    if (buffer->size() < size) {
      return Corrupt(path, fmt::format("the offsets buffer has {} bytes for {} values", buffer->size(), length));
    }
    const int64_t last = width == 4 ? buffer->data_as<int32_t>()[length] : buffer->data_as<int64_t>()[length];
    buffers.push_back(std::move(buffer));
    return std::max<int64_t>(last, 0);
  };

  switch (id) {
    case TypeId::kBoolean: {
      STRATA_ASSIGN_OR_RETURN(auto values, NextBuffer(path, "values", BytesForBits(length), 0, 1));
      buffers.push_back(std::move(values));
      break;
    }
    case TypeId::kBinary:
    case TypeId::kString:
    case TypeId::kLargeBinary:
    case TypeId::kLargeString: {
      STRATA_ASSIGN_OR_RETURN(int64_t last, offsets(is_binary_like(id) ? 4 : 8));
      STRATA_ASSIGN_OR_RETURN(auto data, NextBuffer(path, "data", -1, last + kSlack, 1));
      buffers.push_back(std::move(data));
      break;
    }
    case TypeId::kBinaryView:
    case TypeId::kStringView: {
      STRATA_RETURN_NOT_OK(fixed(16, "views", SwapLayout::kViews));
      if (next_variadic_ >= batch_.variadic_counts.size()) {
        return Corrupt(path, "the batch lacks the variadic buffer count of this view column");
      }
      const int64_t count = batch_.variadic_counts[next_variadic_++];
      if (count < 0 || count > static_cast<int64_t>(batch_.buffers.size() - next_buffer_)) {
        return Corrupt(path, fmt::format("{} data buffers are announced, {} remain in the batch", count,
                                         batch_.buffers.size() - next_buffer_));
      }
      // What the views reference in each data buffer bounds its decompressed size.
      std::vector<int64_t> bounds(static_cast<size_t>(count), kSlack);
      const Buffer& views = *buffers[1];
      if (codec_ != nullptr && views.size() >= length * 16) {
        for (int64_t i = 0; i < length; ++i) {
          int32_t view[4];
          std::memcpy(view, views.data() + 16 * i, 16);
          if (view[0] > 12 && view[2] >= 0 && view[2] < count && view[3] >= 0) {
            int64_t& bound = bounds[static_cast<size_t>(view[2])];
            bound = std::max<int64_t>(bound, int64_t{view[3]} + view[0] + kSlack);
          }
        }
      }
      for (int64_t i = 0; i < count; ++i) {
        STRATA_ASSIGN_OR_RETURN(auto data, NextBuffer(path, "view data", -1, bounds[static_cast<size_t>(i)], 1));
        buffers.push_back(std::move(data));
      }
      break;
    }
    case TypeId::kList:
    case TypeId::kMap:
    case TypeId::kLargeList:
      STRATA_RETURN_NOT_OK(offsets(id == TypeId::kLargeList ? 8 : 4).status());
      STRATA_RETURN_NOT_OK(child(0));
      break;
    case TypeId::kFixedSizeList:
      STRATA_RETURN_NOT_OK(child(0));
      break;
    case TypeId::kStruct:
      for (int i = 0; i < type->num_fields(); ++i) STRATA_RETURN_NOT_OK(child(i));
      break;
    case TypeId::kSparseUnion:
    case TypeId::kDenseUnion:
      STRATA_RETURN_NOT_OK(fixed(1, "type ids", std::nullopt));
      if (id == TypeId::kDenseUnion) STRATA_RETURN_NOT_OK(fixed(4, "offsets"));
      for (int i = 0; i < type->num_fields(); ++i) STRATA_RETURN_NOT_OK(child(i));
      break;
    case TypeId::kRunEndEncoded:
      STRATA_RETURN_NOT_OK(child(0));
      STRATA_RETURN_NOT_OK(child(1));
      break;
    case TypeId::kListView:
    case TypeId::kLargeListView: {
      const int64_t width = id == TypeId::kListView ? 4 : 8;
      STRATA_RETURN_NOT_OK(fixed(width, "offsets"));
      STRATA_RETURN_NOT_OK(fixed(width, "sizes"));
      STRATA_RETURN_NOT_OK(child(0));
      break;
    }
    case TypeId::kDictionary: {
      STRATA_RETURN_NOT_OK(fixed(type->index_type()->byte_width(), "indices"));
      auto data = ArrayData::Make(type, length, std::move(buffers), node.null_count);
      const auto id_entry = ids_.find(&field);
      if (id_entry == ids_.end()) return Corrupt(path, "the schema gives this dictionary field no id");
      const auto dictionary = dictionaries_.find(id_entry->second);
      if (dictionary == dictionaries_.end()) {
        return Corrupt(path, fmt::format("no dictionary with id {} was read before this batch", id_entry->second));
      }
      data->dictionary = dictionary->second;
      return data;
    }
    default:
      if (is_primitive_fixed_width(id)) {
        std::optional<SwapLayout> swap = SwapLayout::kWhole;
        if (id == TypeId::kFixedSizeBinary) swap = std::nullopt;
        if (id == TypeId::kIntervalDayTime) swap = SwapLayout::kDayTime;
        if (id == TypeId::kIntervalMonthDayNano) swap = SwapLayout::kMonthDayNano;
        STRATA_RETURN_NOT_OK(fixed(type->byte_width(), "values", swap));
        break;
      }
      return Status::NotImplemented("{}: column '{}' has type {}, which strata cannot read from IPC", message_.label,
                                    path, type->ToString());
  }
  auto data = ArrayData::Make(type, length, std::move(buffers), node.null_count);
  data->children = std::move(children);
  return data;
}

}  // namespace strata::ipc
