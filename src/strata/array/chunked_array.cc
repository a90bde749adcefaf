#include "strata/array/chunked_array.h"

#include <algorithm>

#include "strata/array/compare.h"
#include "strata/array/pretty_print.h"

namespace strata {

ChunkedArray::ChunkedArray(TypePtr type, std::vector<Array> chunks) : type_(std::move(type)), chunks_(std::move(chunks)) {
  for (const Array& c : chunks_) length_ += c.length();
}

Result<std::shared_ptr<ChunkedArray>> ChunkedArray::Make(TypePtr type, std::vector<Array> chunks) {
  for (size_t i = 0; i < chunks.size(); ++i) {
    if (!chunks[i].type()->Equals(*type)) {
      return Status::Invalid("chunk {} has type {}, expected {}", i, chunks[i].type()->ToString(), type->ToString());
    }
  }
  return std::make_shared<ChunkedArray>(std::move(type), std::move(chunks));
}

int64_t ChunkedArray::null_count() const {
  int64_t n = 0;
  for (const Array& c : chunks_) n += c.null_count();
  return n;
}

bool ChunkedArray::Equals(const ChunkedArray& other) const {
  if (!type_->Equals(*other.type_) || length_ != other.length_) return false;
  // Walk both chunk lists in step, comparing the overlapping pieces.
  size_t ai = 0, bi = 0;
  int64_t a_pos = 0, b_pos = 0;
  int64_t remaining = length_;
  while (remaining > 0) {
    while (chunks_[ai].length() == a_pos) ++ai, a_pos = 0;
    while (other.chunks_[bi].length() == b_pos) ++bi, b_pos = 0;
    const int64_t n = std::min(chunks_[ai].length() - a_pos, other.chunks_[bi].length() - b_pos);
    if (!ArrayRangeEquals(*chunks_[ai].data(), a_pos, *other.chunks_[bi].data(), b_pos, n)) return false;
    a_pos += n;
    b_pos += n;
    remaining -= n;
  }
  return true;
}

std::string ChunkedArray::ToString() const { return PrettyPrint(*this); }

}  // namespace strata
