// SNAPPY decompression a window at a time. The snappy library decodes a block only whole (its
// Sink API also keeps every output block until the end, since a copy may in principle reach
// back to any earlier byte), so a page of a wide row group would be held decompressed whole.
// Every snappy writer in use (the reference library, Rust's snap, Go's snappy, aircompressor)
// compresses 64 KiB fragments independently, so no copy reaches back more than 65,535 bytes:
// this decoder keeps the last 64 KiB of output as history and decodes the rest in slices.
// Reset() walks the block's elements first (tags only, no output), checking every length and
// offset, so the decode loop runs on validated input; a block with a copy that reaches past
// the history (valid, but from no writer we know) is NotImplemented, and the caller
// decompresses it whole instead. The input is a span, or pieces read through an InputReader
// into a 32 KiB window (a page streamed from its file, never held whole).
#include <algorithm>
#include <cstring>

#include "strata/codec/codec_internal.h"
#include "strata/memory/buffer.h"

namespace strata::codec::internal {
namespace {

constexpr int64_t kHistoryBytes = 64 << 10;  // the largest offset the decoder can serve
// Output decoded per refill: each refill first moves the 64 KiB of history to the front, so a
// larger slice moves fewer bytes per byte decoded (16 KiB: 4, 32 KiB: 2) for more memory.
constexpr int64_t kSliceBytes = 32 << 10;
constexpr int64_t kInputWindowBytes = 32 << 10;
constexpr int64_t kMaxCopyBytes = 64;        // the longest copy element
constexpr int64_t kSlackBytes = 16;          // room for the 8-byte copy loop's overrun
constexpr int64_t kMaxElementHead = 5;       // a tag and up to 4 operand bytes

inline uint32_t LoadLittleEndian(const uint8_t* p, int bytes) {
  uint32_t value = 0;
  for (int i = 0; i < bytes; ++i) value |= static_cast<uint32_t>(p[i]) << (8 * i);
  return value;
}

// One element: a literal of `length` bytes (offset 0), or a copy of `length` bytes from
// `offset` bytes back.
struct Element {
  int64_t length = 0;
  int64_t offset = 0;
};

// Parses the element whose tag is at p[0], with `available` bytes there; returns the bytes its
// tag and operands take (not a literal's bytes), 0 when they run past `available`.
inline int64_t ParseElement(const uint8_t* p, int64_t available, Element* element) {
  const uint8_t tag = p[0];
  switch (tag & 3) {
    case 0: {
      const int extra = (tag >> 2) >= 60 ? (tag >> 2) - 59 : 0;
      if (available < 1 + extra) return 0;
      element->length = (extra == 0 ? (tag >> 2) : LoadLittleEndian(p + 1, extra)) + int64_t{1};
      element->offset = 0;
      return 1 + extra;
    }
    case 1:
      if (available < 2) return 0;
      element->length = 4 + ((tag >> 2) & 7);
      element->offset = (static_cast<int64_t>(tag >> 5) << 8) | p[1];
      return 2;
    case 2:
      if (available < 3) return 0;
      element->length = 1 + (tag >> 2);
      element->offset = LoadLittleEndian(p + 1, 2);
      return 3;
    default:
      if (available < 5) return 0;
      element->length = 1 + (tag >> 2);
      element->offset = LoadLittleEndian(p + 1, 4);
      return 5;
  }
}

// The compressed input: a span, or a window over pieces an InputReader fills.
class InputCursor {
 public:
  explicit InputCursor(MemoryPool* pool) : window_(pool) {}

  void Start(std::span<const uint8_t> whole) {
    whole_ = whole;
    read_ = nullptr;
    size_ = static_cast<int64_t>(whole.size());
    Rewind();
  }
  Status Start(int64_t size, StreamingDecompressor::InputReader read) {
    if (window_.size() == 0) STRATA_RETURN_NOT_OK(window_.Resize(kInputWindowBytes));
    whole_ = {};
    read_ = std::move(read);
    size_ = size;
    Rewind();
    return Status::OK();
  }
  void Rewind() {
    position_ = 0;
    data_ = whole_.data();
    data_start_ = 0;
    data_end_ = read_ ? 0 : size_;
  }

  int64_t size() const { return size_; }
  int64_t position() const { return position_; }
  int64_t left() const { return size_ - position_; }
  // The bytes at the position in memory now (at least min(want, left()) of them).
  const uint8_t* here() const { return data_ + (position_ - data_start_); }
  int64_t here_size() const { return data_end_ - position_; }
  void Advance(int64_t n) { position_ += n; }

  // Makes at least min(want, left()) bytes at the position contiguous in memory.
  Status Ensure(int64_t want) {
    want = std::min(want, left());
    if (here_size() >= want) return Status::OK();
    const int64_t n = std::min(kInputWindowBytes, left());
    STRATA_RETURN_NOT_OK(read_(position_, {window_.mutable_data(), static_cast<size_t>(n)}));
    data_ = window_.data();
    data_start_ = position_;
    data_end_ = position_ + n;
    return Status::OK();
  }

  int64_t memory_size() const { return window_.capacity(); }

 private:
  ResizableBuffer window_;
  std::span<const uint8_t> whole_;
  StreamingDecompressor::InputReader read_;
  int64_t size_ = 0;
  int64_t position_ = 0;
  const uint8_t* data_ = nullptr;  // input bytes [data_start_, data_end_) are at data_
  int64_t data_start_ = 0;
  int64_t data_end_ = 0;
};

class SnappyStreamingDecompressor final : public StreamingDecompressor {
 public:
  explicit SnappyStreamingDecompressor(MemoryPool* pool) : buffer_(pool), input_(pool) {}

  Status Reset(std::span<const uint8_t> compressed_input) override {
    read_every_byte_ = false;  // in memory: nothing to read
    input_.Start(compressed_input);
    return Begin();
  }

  Status ResetWithReader(int64_t input_size, InputReader read, bool read_every_byte) override {
    validated_ = false;
    read_every_byte_ = read_every_byte;
    if (input_size < 0) return Status::Invalid("SNAPPY input of {} bytes", input_size);
    STRATA_RETURN_NOT_OK(input_.Start(input_size, std::move(read)));
    return Begin();
  }
  bool supports_input_reader() const override { return true; }
  int64_t declared_size() const override { return validated_ ? declared_ : -1; }

  Result<int64_t> Read(std::span<uint8_t> out) override {
    if (!validated_) return Status::Invalid("SNAPPY streaming decompressor read before a successful Reset()");
    int64_t written = 0;
    const auto wanted = static_cast<int64_t>(out.size());
    while (written < wanted) {
      if (served_ == filled_) {
        if (produced() == declared_) break;
        STRATA_RETURN_NOT_OK(Refill());
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
  int64_t memory_size() const override { return buffer_.capacity() + input_.memory_size(); }

 private:
  // Output decoded so far (served or not).
  int64_t produced() const { return decoded_before_ + filled_; }

  Status Begin() {
    total_out_ = 0;
    filled_ = served_ = 0;
    literal_left_ = 0;
    decoded_before_ = 0;
    STRATA_RETURN_NOT_OK(Validate());
    if (buffer_.size() == 0) {
      STRATA_RETURN_NOT_OK(buffer_.Resize(kHistoryBytes + kSliceBytes + kSlackBytes));
    }
    return Status::OK();
  }

  // Reads the length header at the input's start into declared_.
  Status ReadLengthHeader() {
    STRATA_RETURN_NOT_OK(input_.Ensure(kMaxElementHead));
    uint64_t declared = 0;
    const uint8_t* p = input_.here();
    const int64_t available = std::min<int64_t>(input_.here_size(), kMaxElementHead);
    for (int64_t i = 0;; ++i) {
      if (i == available) return Status::Corrupt("SNAPPY data of {} bytes has no valid length header", input_.size());
      declared |= static_cast<uint64_t>(p[i] & 0x7f) << (7 * i);
      if ((p[i] & 0x80) == 0) {
        input_.Advance(i + 1);
        break;
      }
    }
    if (declared > 0xffffffffu) return Status::Corrupt("SNAPPY length header declares {} bytes", declared);
    declared_ = static_cast<int64_t>(declared);
    return Status::OK();
  }

  // Checks the whole block without producing output: the length header, every element's
  // operands and literal bytes within the input, every copy within the output so far and the
  // history, and the elements' total equal to the header's length. Reads every input byte
  // once, in order; then rewinds to the first element.
  Status Validate() {
    validated_ = false;
    STRATA_RETURN_NOT_OK(ReadLengthHeader());
    elements_at_ = input_.position();
    int64_t out = 0;
    Element element;
    while (input_.left() > 0) {
      const int64_t element_at = input_.position();
      STRATA_RETURN_NOT_OK(input_.Ensure(kMaxElementHead));
      const int64_t head = ParseElement(input_.here(), std::min(input_.here_size(), kMaxElementHead), &element);
      if (head == 0) {
        return Status::Corrupt("SNAPPY data of {} bytes ends inside the element at byte {}", input_.size(), element_at);
      }
      input_.Advance(head);
      if (element.offset == 0) {
        if (element.length > input_.left()) {
          return Status::Corrupt("SNAPPY literal of {} bytes at byte {} runs past the end of the data ({} bytes)",
                                 element.length, element_at, input_.size());
        }
        if (!read_every_byte_) {
          input_.Advance(element.length);  // the next Ensure reads past it
        } else {
          for (int64_t left = element.length; left > 0;) {  // every byte read: the caller may check a CRC
            STRATA_RETURN_NOT_OK(input_.Ensure(1));
            const int64_t n = std::min(left, input_.here_size());
            input_.Advance(n);
            left -= n;
          }
        }
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
    input_.Rewind();
    input_.Advance(elements_at_);
    validated_ = true;
    return Status::OK();
  }

  // Decodes the next slice of output into the buffer, after the history kept from the last.
  // Runs on input Validate() accepted: lengths, offsets and the total are known good.
  Status Refill() {
    uint8_t* const base = buffer_.mutable_data();
    if (filled_ > kHistoryBytes) {
      // Keep the last kHistoryBytes as history at the front.
      std::memmove(base, base + filled_ - kHistoryBytes, static_cast<size_t>(kHistoryBytes));
      decoded_before_ += filled_ - kHistoryBytes;
      filled_ = served_ = kHistoryBytes;
    }
    const int64_t end = kHistoryBytes + kSliceBytes;
    if (literal_left_ > 0) STRATA_RETURN_NOT_OK(TakeLiteral(base, end));
    Element element;
    while (literal_left_ == 0 && input_.left() > 0 && end - filled_ >= kMaxCopyBytes) {
      if (input_.here_size() < kMaxElementHead) STRATA_RETURN_NOT_OK(input_.Ensure(kMaxElementHead));
      input_.Advance(ParseElement(input_.here(), std::min(input_.here_size(), kMaxElementHead), &element));
      if (element.offset == 0) {
        literal_left_ = element.length;
        STRATA_RETURN_NOT_OK(TakeLiteral(base, end));
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
    return Status::OK();
  }

  // Copies what fits before `end` of the current literal (literal_left_ bytes at the input's
  // position).
  Status TakeLiteral(uint8_t* base, int64_t end) {
    while (literal_left_ > 0 && filled_ < end) {
      STRATA_RETURN_NOT_OK(input_.Ensure(1));
      const int64_t n = std::min({literal_left_, end - filled_, input_.here_size()});
      std::memcpy(base + filled_, input_.here(), static_cast<size_t>(n));
      input_.Advance(n);
      literal_left_ -= n;
      filled_ += n;
    }
    return Status::OK();
  }

  ResizableBuffer buffer_;  // history, then the slice being served
  InputCursor input_;
  bool validated_ = false;
  bool read_every_byte_ = false;  // ResetWithReader's: the validation walk reads literals too
  int64_t declared_ = 0;         // the block's uncompressed length
  int64_t elements_at_ = 0;      // input position of the first element
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
