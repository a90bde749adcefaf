// VariantMetadata: a validated view of a variant's metadata, the dictionary of field names
// that object values refer to by id (VariantEncoding.md, "Metadata encoding"). It sits at the
// bottom of the variant layer; values (variant_value.h) resolve their field ids through it.
#pragma once

#include <cstdint>
#include <string_view>

#include "strata/util/result.h"

namespace strata::variant {

class VariantMetadata {
 public:
  VariantMetadata() = default;

  // Validates `bytes` (version 1, offset widths, dictionary_size + 1 offsets that start at 0,
  // never decrease and end at the byte count, UTF-8 names) and returns a view of them: `bytes`
  // must outlive the view. Corrupt with the offending position otherwise. Allocates nothing,
  // whatever the bytes claim. Names the header calls sorted but that are not (sorted unique)
  // are taken as unsorted (sorted() false).
  static Result<VariantMetadata> Make(std::string_view bytes);

  // Number of names in the dictionary.
  uint32_t size() const { return size_; }
  bool sorted() const { return sorted_; }
  // Name `id` (id < size()), a view into the metadata bytes.
  std::string_view name(uint32_t id) const;
  // The id of `name`, or -1 when the dictionary does not hold it (binary search when sorted,
  // else the first match in a scan).
  int64_t Find(std::string_view name) const;
  std::string_view bytes() const { return bytes_; }

 private:
  uint32_t OffsetAt(uint32_t i) const;

  std::string_view bytes_;
  const uint8_t* offsets_ = nullptr;  // size_ + 1 little-endian offsets of offset_size_ bytes
  const char* strings_ = nullptr;
  uint32_t size_ = 0;
  int offset_size_ = 1;
  bool sorted_ = false;
};

// Reads an unsigned little-endian integer of `width` (1 to 4) bytes.
inline uint32_t ReadUnsigned(const uint8_t* p, int width) {
  uint32_t v = 0;
  for (int i = 0; i < width; ++i) v |= static_cast<uint32_t>(p[i]) << (8 * i);
  return v;
}

}  // namespace strata::variant
