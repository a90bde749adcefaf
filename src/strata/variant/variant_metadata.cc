#include "strata/variant/variant_metadata.h"

#include "strata/util/utf8.h"

namespace strata::variant {

Result<VariantMetadata> VariantMetadata::Make(std::string_view bytes) {
  if (bytes.empty()) return Status::Corrupt("variant metadata is empty (it needs at least a header byte)");
  const auto* p = reinterpret_cast<const uint8_t*>(bytes.data());
  const uint8_t header = p[0];
  const int version = header & 0x0f;
  if (version != 1) return Status::Corrupt("variant metadata has version {}; only version 1 is defined", version);
  VariantMetadata m;
  m.bytes_ = bytes;
  m.sorted_ = (header >> 4) & 1;
  m.offset_size_ = ((header >> 6) & 3) + 1;
  const uint64_t width = static_cast<uint64_t>(m.offset_size_);
  if (bytes.size() < 1 + width) {
    return Status::Corrupt("variant metadata of {} bytes ends inside its dictionary size", bytes.size());
  }
  m.size_ = ReadUnsigned(p + 1, m.offset_size_);
  // 64-bit arithmetic: size_ + 1 offsets of up to 4 bytes cannot overflow it.
  const uint64_t offsets_end = 1 + width + (static_cast<uint64_t>(m.size_) + 1) * width;
  if (offsets_end > bytes.size()) {
    return Status::Corrupt("variant metadata of {} bytes declares {} names, whose offsets need {} bytes", bytes.size(),
                           m.size_, offsets_end);
  }
  m.offsets_ = p + 1 + width;
  m.strings_ = bytes.data() + offsets_end;
  const uint64_t string_bytes = bytes.size() - offsets_end;
  if (m.OffsetAt(0) != 0) return Status::Corrupt("variant metadata's first name offset is {}, not 0", m.OffsetAt(0));
  uint32_t previous = 0;
  for (uint32_t i = 1; i <= m.size_; ++i) {
    const uint32_t offset = m.OffsetAt(i);
    if (offset < previous || offset > string_bytes) {
      return Status::Corrupt("variant metadata: name offset {} is {} (previous {}, {} bytes of names)", i, offset,
                             previous, string_bytes);
    }
    previous = offset;
  }
  if (previous != string_bytes) {
    return Status::Corrupt("variant metadata: names end at {} but {} bytes follow the offsets", previous, string_bytes);
  }
  if (!ValidateUtf8(reinterpret_cast<const uint8_t*>(m.strings_), static_cast<int64_t>(string_bytes))) {
    return Status::Corrupt("variant metadata holds a name that is not valid UTF-8");
  }
  if (m.sorted_) {
    // A dictionary marked sorted that is not (DuckDB 1.5.2's writer) is read as unsorted:
    // names are then found by a scan. DuckDB, parquet-wasm and hyparquet read such files.
    for (uint32_t i = 1; i < m.size_ && m.sorted_; ++i) m.sorted_ = m.name(i - 1) < m.name(i);
  }
  return m;
}

uint32_t VariantMetadata::OffsetAt(uint32_t i) const {
  return ReadUnsigned(offsets_ + static_cast<size_t>(i) * static_cast<size_t>(offset_size_), offset_size_);
}

std::string_view VariantMetadata::name(uint32_t id) const {
  const uint32_t begin = OffsetAt(id);
  return {strings_ + begin, OffsetAt(id + 1) - begin};
}

int64_t VariantMetadata::Find(std::string_view name) const {
  if (sorted_) {
    uint32_t low = 0, high = size_;
    while (low < high) {
      const uint32_t mid = low + (high - low) / 2;
      const std::string_view candidate = this->name(mid);
      if (candidate == name) return mid;
      if (candidate < name) {
        low = mid + 1;
      } else {
        high = mid;
      }
    }
    return -1;
  }
  for (uint32_t i = 0; i < size_; ++i) {
    if (this->name(i) == name) return i;
  }
  return -1;
}

}  // namespace strata::variant
