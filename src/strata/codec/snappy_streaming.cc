// SNAPPY decompression a window at a time. The snappy library decodes a block only whole (its
// Sink API also keeps every output block until the end, since a copy may in principle reach
// back to any earlier byte), so a page of a wide row group would be held decompressed whole.
// Every snappy writer in use (the reference library, Rust's snap, Go's snappy, aircompressor)
// compresses 64 KiB fragments independently, so no copy reaches back more than 65,535 bytes:
// this decoder keeps the last 64 KiB of output as history and decodes the rest in slices.
// Reset() walks the block's elements first (tags only, no output), checking every length and
// offset, so the decode loop runs on validated input; a block with a copy that reaches past
// the history (valid, but from no writer we know) is NotImplemented, and the caller
// decompresses it whole instead.
#include <algorithm>
#include <cstring>

#include "strata/codec/codec_internal.h"
#include "strata/memory/buffer.h"

namespace strata::codec::internal {
namespace {

constexpr int64_t kHistoryBytes = 64 << 10;  // the largest offset the decoder can serve
constexpr int64_t kSliceBytes = 64 << 10;    // output decoded per refill
constexpr int64_t kMaxCopyBytes = 64;        // the longest copy element
constexpr int64_t kSlackBytes = 16;          // room for the 8-byte copy loop's overrun

// Bytes after the tag that a literal's length takes (tag values 60..63), else 0.
inline int LiteralLengthBytes(uint8_t tag) { return (tag >> 2) >= 60 ? (tag >> 2) - 59 : 0; }

inline uint32_t LoadLittleEndian(const uint8_t* p, int bytes) {
  uint32_t value = 0;
  for (int i = 0; i < bytes; ++i) value |= static_cast<uint32_t>(p[i]) << (8 * i);
  return value;
}

// One decoded element: a literal of `length` bytes at input position `literal_at`, or a copy of
// `length` bytes from `offset` bytes back.
struct Element {
  int64_t length = 0;
  int64_t offset = 0;  // 0 for a literal
  int64_t literal_at = 0;
};

// Parses the element at input[*position]; advances *position past its tag and operands (not
// past a literal's bytes). False when the input ends inside the tag's operands.
inline bool ParseElement(std::span<const uint8_t> input, int64_t* position, Element* element) {
  const auto size = static_cast<int64_t>(input.size());
  const uint8_t tag = input[static_cast<size_t>(*position)];
  const uint8_t* operands = input.data() + *position + 1;
  const int64_t left = size - *position - 1;
  switch (tag & 3) {
    case 0: {
      const int extra = LiteralLengthBytes(tag);
      if (left < extra) return false;
      element->length = (extra == 0 ? (tag >> 2) : LoadLittleEndian(operands, extra)) + int64_t{1};
      element->offset = 0;
      *position += 1 + extra;
      element->literal_at = *position;
      return true;
    }
    case 1:
      if (left < 1) return false;
      element->length = 4 + ((tag >> 2) & 7);
      element->offset = (static_cast<int64_t>(tag >> 5) << 8) | operands[0];
      *position += 2;
      return true;
    case 2:
      if (left < 2) return false;
      element->length = 1 + (tag >> 2);
      element->offset = LoadLittleEndian(operands, 2);
      *position += 3;
      return true;
    default:
      if (left < 4) return false;
      element->length = 1 + (tag >> 2);
      element->offset = LoadLittleEndian(operands, 4);
      *position += 5;
      return true;
  }
}

class SnappyStreamingDecompressor final : public StreamingDecompressor {
 public:
  explicit SnappyStreamingDecompressor(MemoryPool* pool) : buffer_(pool) {}

  Status Reset(std::span<const uint8_t> compressed_input) override {
    input_ = compressed_input;
    total_out_ = 0;
    filled_ = served_ = 0;
    literal_left_ = 0;
    STRATA_RETURN_NOT_OK(Validate());
    if (buffer_.size() == 0) {
      STRATA_RETURN_NOT_OK(buffer_.Resize(kHistoryBytes + kSliceBytes + kSlackBytes));
    }
    return Status::OK();
  }

  Result<int64_t> Read(std::span<uint8_t> out) override {
    if (!validated_) return Status::Invalid("SNAPPY streaming decompressor read before a successful Reset()");
    int64_t written = 0;
    const auto wanted = static_cast<int64_t>(out.size());
    while (written < wanted) {
      if (served_ == filled_) {
        if (produced() == declared_) break;
        Refill();
      }
      const int64_t n = std::min(wanted - written, filled_ - served_);
      std::memcpy(out.data() + written, buffer_.data() + served_, static_cast<size_t>(n));
      served_ += n;
      written += n;
    }
    total_out_ += written;
    return written;
  }

  bool finished() const override { return validated_ && total_out_ == declared_; }
  int64_t memory_size() const override { return buffer_.capacity(); }

 private:
  // Output decoded so far (served or not).
  int64_t produced() const { return decoded_before_ + filled_; }

  // Checks the whole block without producing output: the length header, every element's
  // operands and literal bytes within the input, every copy within the output so far and the
  // history, and the elements' total equal to the header's length.
  Status Validate() {
    validated_ = false;
    const auto size = static_cast<int64_t>(input_.size());
    uint64_t declared = 0;
    int64_t position = 0;
    for (int shift = 0;; shift += 7) {
      if (position == size || shift > 28) {
        return Status::Corrupt("SNAPPY data of {} bytes has no valid length header", size);
      }
      const uint8_t byte = input_[static_cast<size_t>(position++)];
      declared |= static_cast<uint64_t>(byte & 0x7f) << shift;
      if ((byte & 0x80) == 0) break;
    }
    if (declared > 0xffffffffu) return Status::Corrupt("SNAPPY length header declares {} bytes", declared);
    declared_ = static_cast<int64_t>(declared);
    elements_at_ = position;
    int64_t out = 0;
    Element element;
    while (position < size) {
      const int64_t element_at = position;
      if (!ParseElement(input_, &position, &element)) {
        return Status::Corrupt("SNAPPY data of {} bytes ends inside the element at byte {}", size, element_at);
      }
      if (element.offset == 0) {
        if (element.length > size - position) {
          return Status::Corrupt("SNAPPY literal of {} bytes at byte {} runs past the end of the data ({} bytes)",
                                 element.length, element_at, size);
        }
        position += element.length;
      } else if (element.offset > out) {
        return Status::Corrupt("SNAPPY copy at byte {} reaches {} bytes back, before the start of the output ({})",
                               element_at, element.offset, out);
      } else if (element.offset > kHistoryBytes) {
        return Status::NotImplemented(
            "SNAPPY copy at byte {} reaches {} bytes back, past the {}-byte window of streaming decompression",
            element_at, element.offset, kHistoryBytes);
      }
      out += element.length;
      if (out > declared_) {
        return Status::Corrupt("SNAPPY data decodes to more than the {} bytes its header declares", declared_);
      }
    }
    if (out != declared_) {
      return Status::Corrupt("SNAPPY data decodes to {} bytes; its header declares {}", out, declared_);
    }
    position_ = elements_at_;
    decoded_before_ = 0;
    validated_ = true;
    return Status::OK();
  }

  // Decodes the next slice of output into the buffer, after the history kept from the last.
  // Runs on input Validate() accepted: lengths, offsets and the total are known good.
  void Refill() {
    uint8_t* const base = buffer_.mutable_data();
    if (filled_ > kHistoryBytes) {
      // Keep the last kHistoryBytes as history at the front.
      std::memmove(base, base + filled_ - kHistoryBytes, static_cast<size_t>(kHistoryBytes));
      decoded_before_ += filled_ - kHistoryBytes;
      filled_ = served_ = kHistoryBytes;
    }
    const int64_t end = kHistoryBytes + kSliceBytes;
    const auto size = static_cast<int64_t>(input_.size());
    if (literal_left_ > 0) filled_ += TakeLiteral(base, end);
    Element element;
    while (literal_left_ == 0 && position_ < size && end - filled_ >= kMaxCopyBytes) {
      ParseElement(input_, &position_, &element);
      if (element.offset == 0) {
        literal_left_ = element.length;
        filled_ += TakeLiteral(base, end);
        continue;
      }
      uint8_t* dst = base + filled_;
      const uint8_t* src = dst - element.offset;
      if (element.offset >= 8) {
        // 8 bytes at a time: each source word lies wholly before its destination. May write
        // up to 7 bytes past the copy, into the slack or bytes decoded next.
        for (int64_t i = 0; i < element.length; i += 8) std::memcpy(dst + i, src + i, 8);
      } else {
        for (int64_t i = 0; i < element.length; ++i) dst[i] = src[i];  // a repeating pattern
      }
      filled_ += element.length;
    }
  }

  // Copies what fits of the current literal (literal_left_ bytes at position_) before `end`.
  int64_t TakeLiteral(uint8_t* base, int64_t end) {
    const int64_t n = std::min(literal_left_, end - filled_);
    std::memcpy(base + filled_, input_.data() + position_, static_cast<size_t>(n));
    position_ += n;
    literal_left_ -= n;
    return n;
  }

  ResizableBuffer buffer_;  // history, then the slice being served
  std::span<const uint8_t> input_;
  bool validated_ = false;
  int64_t declared_ = 0;         // the block's uncompressed length
  int64_t elements_at_ = 0;      // input position of the first element
  int64_t position_ = 0;         // input position of the next element (or literal bytes)
  int64_t literal_left_ = 0;     // bytes of the current literal still to copy
  int64_t decoded_before_ = 0;   // output bytes dropped from the front of the buffer
  int64_t filled_ = 0;           // bytes of the buffer holding output
  int64_t served_ = 0;           // of which handed to Read()
};

}  // namespace

std::unique_ptr<StreamingDecompressor> MakeSnappyStreamingDecompressor(MemoryPool* pool) {
  return std::make_unique<SnappyStreamingDecompressor>(pool);
}

}  // namespace strata::codec::internal
