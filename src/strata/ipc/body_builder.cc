#include "strata/ipc/body_builder.h"

#include <algorithm>
#include <cstring>

#include "strata/array/array.h"
#include "strata/array/bitmap.h"

namespace strata::ipc {
namespace {

namespace fb = format::fb;
using bitmap::BytesForBits;
using bitmap::CopyBitmap;

// Every buffer starts 64-byte aligned in the body (the format asks for 8; 64 matches the
// pools' alignment, so a mapped file's buffers are as aligned as allocated ones).
constexpr int64_t kBodyAlignment = 64;
alignas(64) constexpr uint8_t kZeros[64] = {};

int64_t PadToAlignment(int64_t n) { return (n + kBodyAlignment - 1) / kBodyAlignment * kBodyAlignment; }

}  // namespace

void BodyBuilder::Reset() {
  nodes_.clear();
  buffers_.clear();
  pieces_.clear();
  variadic_counts_.clear();
  scratch_used_ = 0;
  body_length_ = 0;
  uncompressed_bytes_ = 0;
  stored_bytes_ = 0;
}

Result<ResizableBuffer*> BodyBuilder::NextScratch() {
  if (scratch_used_ == scratch_.size()) {
    STRATA_ASSIGN_OR_RETURN(auto buffer, ResizableBuffer::Make(pool_));
    scratch_.push_back(std::move(buffer));
  }
  ResizableBuffer* scratch = scratch_[scratch_used_++].get();
  scratch->Clear();
  return scratch;
}

void BodyBuilder::AddEmpty() { buffers_.push_back({body_length_, 0}); }

Status BodyBuilder::AddBytes(const uint8_t* data, int64_t size, std::shared_ptr<Buffer> keep_alive, Swap swap) {
  if (size == 0) {
    AddEmpty();
    return Status::OK();
  }
  if (big_endian_ && swap.width > 1) {
    STRATA_ASSIGN_OR_RETURN(ResizableBuffer * swapped, NextScratch());
    STRATA_RETURN_NOT_OK(swapped->Resize(size));
    std::memcpy(swapped->mutable_data(), data, static_cast<size_t>(size));
    SwapInPlace(swapped->mutable_data(), swap.layout, swap.width, size / swap.width, /*to_native=*/false);
    data = swapped->data();
    keep_alive = nullptr;
  }
  uncompressed_bytes_ += size;
  Piece piece{data, size, 0, false, std::move(keep_alive)};
  if (codec_ != nullptr) {
    STRATA_ASSIGN_OR_RETURN(ResizableBuffer * compressed, NextScratch());
    STRATA_RETURN_NOT_OK(codec_->Compress({data, static_cast<size_t>(size)}, compressed));
    piece.has_prefix = true;
    if (compressed->size() < size) {
      piece.prefix = size;
      piece.data = compressed->data();
      piece.size = compressed->size();
    } else {
      piece.prefix = -1;  // not worth it: stored as is after the -1 marker
    }
  }
  const int64_t stored = piece.size + (piece.has_prefix ? 8 : 0);
  buffers_.push_back({body_length_, stored});
  stored_bytes_ += stored;
  body_length_ += PadToAlignment(stored);
  pieces_.push_back(std::move(piece));
  return Status::OK();
}

Status BodyBuilder::AddBuffer(std::shared_ptr<Buffer> buffer, int64_t offset, int64_t size, Swap swap) {
  if (size == 0) {
    AddEmpty();
    return Status::OK();
  }
  if (buffer == nullptr || offset < 0 || offset + size > buffer->size()) {
    return Status::Invalid("a buffer of {} bytes is too small for bytes [{}, {})",
                           buffer == nullptr ? 0 : buffer->size(), offset, offset + size);
  }
  const uint8_t* data = buffer->data() + offset;
  return AddBytes(data, size, std::move(buffer), swap);
}

Status BodyBuilder::AddBitmap(const std::shared_ptr<Buffer>& buffer, int64_t bit_offset, int64_t length) {
  if (bit_offset % 8 == 0) return AddBuffer(buffer, bit_offset / 8, BytesForBits(length));
  if (buffer == nullptr || BytesForBits(bit_offset + length) > buffer->size()) {
    return Status::Invalid("a bitmap of {} bytes is too small for bits [{}, {})", buffer == nullptr ? 0 : buffer->size(),
                           bit_offset, bit_offset + length);
  }
  STRATA_ASSIGN_OR_RETURN(ResizableBuffer * shifted, NextScratch());
  STRATA_RETURN_NOT_OK(shifted->ResizeZeroed(BytesForBits(length)));
  CopyBitmap(buffer->data(), bit_offset, length, shifted->mutable_data(), 0);
  return AddBytes(shifted->data(), shifted->size(), nullptr);
}

template <typename Offset>
Result<std::pair<int64_t, int64_t>> BodyBuilder::AddOffsets(const ArrayData& data, const std::string& path) {
  const std::shared_ptr<Buffer>& buffer = data.buffers[1];
  const int64_t needed = (data.offset + data.length + 1) * static_cast<int64_t>(sizeof(Offset));
  if (buffer == nullptr || buffer->size() < needed) {
    if (data.length == 0) {  // an empty array may come without offsets
      AddEmpty();
      return std::pair<int64_t, int64_t>{0, 0};
    }
    return Status::Invalid("column '{}': the offsets buffer has {} bytes, {} needed", path,
                           buffer == nullptr ? 0 : buffer->size(), needed);
  }
  const Offset* offsets = buffer->data_as<Offset>() + data.offset;
  const int64_t first = offsets[0], last = offsets[data.length];
  if (first == 0) {
    STRATA_RETURN_NOT_OK(AddBuffer(buffer, data.offset * static_cast<int64_t>(sizeof(Offset)),
                                   (data.length + 1) * static_cast<int64_t>(sizeof(Offset)),
                                   {SwapLayout::kWhole, sizeof(Offset)}));
  } else {
    STRATA_ASSIGN_OR_RETURN(ResizableBuffer * rebased, NextScratch());
    STRATA_RETURN_NOT_OK(rebased->Resize((data.length + 1) * static_cast<int64_t>(sizeof(Offset))));
    Offset* out = rebased->mutable_data_as<Offset>();
    for (int64_t i = 0; i <= data.length; ++i) out[i] = static_cast<Offset>(offsets[i] - first);
    STRATA_RETURN_NOT_OK(AddBytes(rebased->data(), rebased->size(), nullptr, {SwapLayout::kWhole, sizeof(Offset)}));
  }
  return std::pair<int64_t, int64_t>{first, last};
}

Status BodyBuilder::AddArray(const ArrayData& data, const std::string& path) {
  const DataType& type = *data.type;
  const TypeId id = type.id();
  const int64_t null_count = id == TypeId::kNull ? data.length : data.GetNullCount();
  nodes_.push_back({data.length, null_count});
  if (id == TypeId::kNull) return Status::OK();  // no buffers
  // Metadata V5: unions and run-end encoded arrays have no validity buffer (nor nulls of their
  // own: their null count is 0).
  if (is_union(id) || id == TypeId::kRunEndEncoded) return AddUnionOrRunEnds(data, path);

  if (null_count == 0) {
    AddEmpty();
  } else {
    STRATA_RETURN_NOT_OK(AddBitmap(data.buffers[0], data.offset, data.length));
  }
  auto child_path = [&](int i) { return path + "." + type.fields()[static_cast<size_t>(i)]->name(); };

  switch (id) {
    case TypeId::kBoolean:
      return AddBitmap(data.buffers[1], data.offset, data.length);
    case TypeId::kBinary:
    case TypeId::kString: {
      STRATA_ASSIGN_OR_RETURN(auto range, AddOffsets<int32_t>(data, path));
      return AddBuffer(data.buffers[2], range.first, range.second - range.first);
    }
    case TypeId::kLargeBinary:
    case TypeId::kLargeString: {
      STRATA_ASSIGN_OR_RETURN(auto range, AddOffsets<int64_t>(data, path));
      return AddBuffer(data.buffers[2], range.first, range.second - range.first);
    }
    case TypeId::kBinaryView:
    case TypeId::kStringView: {
      // Views keep pointing at their data buffers by index and offset: those go whole.
      STRATA_RETURN_NOT_OK(AddBuffer(data.buffers[1], data.offset * 16, data.length * 16, {SwapLayout::kViews, 16}));
      variadic_counts_.push_back(static_cast<int64_t>(data.buffers.size()) - 2);
      for (size_t i = 2; i < data.buffers.size(); ++i) {
        const auto& buffer = data.buffers[i];
        STRATA_RETURN_NOT_OK(AddBuffer(buffer, 0, buffer == nullptr ? 0 : buffer->size()));
      }
      return Status::OK();
    }
    case TypeId::kList:
    case TypeId::kMap: {
      STRATA_ASSIGN_OR_RETURN(auto range, AddOffsets<int32_t>(data, path));
      return AddArray(*data.children[0]->Slice(range.first, range.second - range.first), child_path(0));
    }
    case TypeId::kLargeList: {
      STRATA_ASSIGN_OR_RETURN(auto range, AddOffsets<int64_t>(data, path));
      return AddArray(*data.children[0]->Slice(range.first, range.second - range.first), child_path(0));
    }
    case TypeId::kFixedSizeList: {
      const int64_t size = type.list_size();
      return AddArray(*data.children[0]->Slice(data.offset * size, data.length * size), child_path(0));
    }
    case TypeId::kStruct:
      for (int i = 0; i < type.num_fields(); ++i) {
        STRATA_RETURN_NOT_OK(AddArray(*data.children[static_cast<size_t>(i)]->Slice(data.offset, data.length),
                                      child_path(i)));
      }
      return Status::OK();
    case TypeId::kDictionary: {
      const int64_t width = type.index_type()->byte_width();
      return AddBuffer(data.buffers[1], data.offset * width, data.length * width, {SwapLayout::kWhole, width});
    }
    case TypeId::kListView:
    case TypeId::kLargeListView: {
      // Views index the whole child, which goes as it is (offsets are not rebased).
      const int64_t width = id == TypeId::kListView ? 4 : 8;
      STRATA_RETURN_NOT_OK(AddBuffer(data.buffers[1], data.offset * width, data.length * width, {SwapLayout::kWhole, width}));
      STRATA_RETURN_NOT_OK(AddBuffer(data.buffers[2], data.offset * width, data.length * width, {SwapLayout::kWhole, width}));
      return AddArray(*data.children[0], child_path(0));
    }
    default:
      if (is_primitive_fixed_width(id)) {
        const int64_t width = type.byte_width();
        Swap swap{SwapLayout::kWhole, width};
        if (id == TypeId::kFixedSizeBinary) swap.width = 0;  // bytes
        if (id == TypeId::kIntervalDayTime) swap.layout = SwapLayout::kDayTime;
        if (id == TypeId::kIntervalMonthDayNano) swap.layout = SwapLayout::kMonthDayNano;
        return AddBuffer(data.buffers[1], data.offset * width, data.length * width, swap);
      }
      return Status::NotImplemented("column '{}': type {} cannot be written to Arrow IPC", path, type.ToString());
  }
}

Status BodyBuilder::AddUnionOrRunEnds(const ArrayData& data, const std::string& path) {
  const DataType& type = *data.type;
  nodes_.back().null_count = 0;
  auto child_path = [&](int i) { return path + "." + type.fields()[static_cast<size_t>(i)]->name(); };
  if (type.id() == TypeId::kRunEndEncoded) {
    // IPC has no offsets: a slice is written as the runs it touches, their ends rebased to it.
    const RunEndEncodedArray ree(std::make_shared<ArrayData>(data));
    if (data.offset == 0) {  // runs past the length are legal, and kept
      STRATA_RETURN_NOT_OK(AddArray(*data.children[0], child_path(0)));
      return AddArray(*data.children[1], child_path(1));
    }
    const int64_t first = data.length == 0 ? 0 : ree.PhysicalIndex(0);
    const int64_t runs = data.length == 0 ? 0 : ree.PhysicalIndex(data.length - 1) + 1 - first;
    if (runs < 0 || first + runs > ree.values().length) {
      return Status::Invalid("column '{}': the run ends of {} do not increase", path, type.ToString());
    }
    const DataType& end_type = *ree.run_ends().type;
    const int64_t width = end_type.byte_width();
    STRATA_ASSIGN_OR_RETURN(auto ends, AllocateBuffer(pool_, runs * width));
    for (int64_t k = 0; k < runs; ++k) {
      const int64_t end = std::min(ree.RunEnd(first + k), data.offset + data.length) - data.offset;
      if (width == 2) ends->mutable_data_as<int16_t>()[k] = static_cast<int16_t>(end);
      if (width == 4) ends->mutable_data_as<int32_t>()[k] = static_cast<int32_t>(end);
      if (width == 8) ends->mutable_data_as<int64_t>()[k] = end;
    }
    auto rebased = ArrayData::Make(ree.run_ends().type, runs, {nullptr, std::shared_ptr<Buffer>(std::move(ends))}, 0);
    STRATA_RETURN_NOT_OK(AddArray(*rebased, child_path(0)));
    return AddArray(*data.children[1]->Slice(first, runs), child_path(1));
  }
  STRATA_RETURN_NOT_OK(AddBuffer(data.buffers[1], data.offset, data.length));
  if (type.id() == TypeId::kDenseUnion) {
    // Dense offsets index each member whole: the members go as they are.
    STRATA_RETURN_NOT_OK(AddBuffer(data.buffers[2], data.offset * 4, data.length * 4, {SwapLayout::kWhole, 4}));
    for (int i = 0; i < type.num_fields(); ++i) {
      STRATA_RETURN_NOT_OK(AddArray(*data.children[static_cast<size_t>(i)], child_path(i)));
    }
    return Status::OK();
  }
  for (int i = 0; i < type.num_fields(); ++i) {
    STRATA_RETURN_NOT_OK(
        AddArray(*data.children[static_cast<size_t>(i)]->Slice(data.offset, data.length), child_path(i)));
  }
  return Status::OK();
}

fb::Offset<void> BodyBuilder::AddRecordBatchTable(fb::FlatBufferBuilder& fbb, int64_t length) const {
  // Vectors of structs: FlatBuffers stores them as the raw little-endian structs.
  const auto nodes = fbb.CreateVectorOfStructs(nodes_.data(), nodes_.size());
  const auto buffers = fbb.CreateVectorOfStructs(buffers_.data(), buffers_.size());
  fb::Offset<fb::Vector<int64_t>> variadic;
  if (!variadic_counts_.empty()) variadic = fbb.CreateVector(variadic_counts_);
  fb::Offset<void> compression;
  if (codec_ != nullptr) {
    const fb::uoffset_t start = fbb.StartTable();
    fbb.AddElement<int8_t>(format::kBodyCompressionCodec, codec_->compression() == IpcCompression::kZstd
                                                              ? format::kCompressionZstd
                                                              : format::kCompressionLz4Frame,
                           -1);  // -1: never equal to the default, so always written
    fbb.AddElement<int8_t>(format::kBodyCompressionMethod, format::kBodyCompressionBuffer, -1);
    compression = fb::Offset<void>(fbb.EndTable(start));
  }
  const fb::uoffset_t start = fbb.StartTable();
  fbb.AddElement<int64_t>(format::kRecordBatchLength, length, -1);
  fbb.AddOffset(format::kRecordBatchNodes, nodes);
  fbb.AddOffset(format::kRecordBatchBuffers, buffers);
  fbb.AddOffset(format::kRecordBatchCompression, compression);
  fbb.AddOffset(format::kRecordBatchVariadicBufferCounts, variadic);
  return fb::Offset<void>(fbb.EndTable(start));
}

Status BodyBuilder::WriteTo(OutputSink* sink) const {
  int64_t written = 0;
  for (const Piece& piece : pieces_) {
    int64_t stored = piece.size;
    if (piece.has_prefix) {
      STRATA_RETURN_NOT_OK(sink->Write(&piece.prefix, 8));
      stored += 8;
    }
    STRATA_RETURN_NOT_OK(sink->Write(piece.data, piece.size));
    const int64_t padding = PadToAlignment(stored) - stored;
    if (padding > 0) STRATA_RETURN_NOT_OK(sink->Write(kZeros, padding));
    written += stored + padding;
  }
  if (written != body_length_) return Status::Invalid("IPC body: wrote {} bytes, laid out {}", written, body_length_);
  return Status::OK();
}

}  // namespace strata::ipc
