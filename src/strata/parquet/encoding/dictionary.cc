#include "strata/parquet/encoding/dictionary.h"

#include <bit>
#include <cstring>
#include <limits>

namespace strata::parquet {

Result<std::unique_ptr<Dictionary>> Dictionary::MakeFixedWidth(MemoryPool* pool,
                                                               const uint8_t* page, int64_t size,
                                                               int64_t num_values,
                                                               int value_width,
                                                               int64_t base_offset) {
  if (value_width <= 0) return Status::Invalid("dictionary value width {} must be positive", value_width);
  if (num_values < 0 || num_values > size / value_width) {
    return Status::Corrupt("dictionary page at offset {} declares {} values of {} bytes but holds {} bytes",
                           base_offset, num_values, value_width, size);
  }
  std::unique_ptr<Dictionary> dict(new Dictionary(pool));
  dict->num_values_ = num_values;
  dict->value_width_ = value_width;
  const int64_t bytes = num_values * value_width;
  STRATA_RETURN_NOT_OK(dict->values_.Resize(bytes));
  if (bytes > 0) std::memcpy(dict->values_.mutable_data(), page, static_cast<size_t>(bytes));
  return dict;
}

Result<std::unique_ptr<Dictionary>> Dictionary::MakeByteArray(MemoryPool* pool, const uint8_t* page,
                                                              int64_t size, int64_t num_values,
                                                              int64_t base_offset) {
  // Every entry takes at least its 4-byte length, which bounds num_values before allocating.
  if (num_values < 0 || num_values > size / 4) {
    return Status::Corrupt("dictionary page at offset {} declares {} byte arrays but holds only {} bytes",
                           base_offset, num_values, size);
  }
  std::unique_ptr<Dictionary> dict(new Dictionary(pool));
  dict->num_values_ = num_values;
  dict->value_width_ = 0;
  // Validate every length, then copy the payloads (without the length prefixes) contiguously.
  int64_t pos = 0;
  int64_t payload = 0;
  for (int64_t i = 0; i < num_values; ++i) {
    if (size - pos < 4) {
      return Status::Corrupt("dictionary page at offset {}: length of entry {} is cut off",
                             base_offset + pos, i);
    }
    uint32_t length;
    std::memcpy(&length, page + pos, 4);
    if (static_cast<int64_t>(length) > size - pos - 4) {
      return Status::Corrupt("dictionary entry {} at offset {} declares {} bytes but only {} remain", i,
                             base_offset + pos, length, size - pos - 4);
    }
    pos += 4 + static_cast<int64_t>(length);
    payload += length;
  }
  STRATA_RETURN_NOT_OK(dict->values_.Resize(payload));
  STRATA_RETURN_NOT_OK(dict->views_.Resize(num_values * static_cast<int64_t>(sizeof(ByteArrayView))));
  auto* views = reinterpret_cast<ByteArrayView*>(dict->views_.mutable_data());
  uint8_t* out = dict->values_.mutable_data();
  pos = 0;
  int64_t out_pos = 0;
  for (int64_t i = 0; i < num_values; ++i) {
    uint32_t length;
    std::memcpy(&length, page + pos, 4);
    if (length != 0) std::memcpy(out + out_pos, page + pos + 4, length);
    views[i] = {out + out_pos, length};
    pos += 4 + static_cast<int64_t>(length);
    out_pos += length;
  }
  return dict;
}

namespace {

// A constant width turns each memcpy into one or two moves; a runtime width calls memmove
// per value (5.7% of a lineitem scan's profile before this).
template <size_t kWidth>
void GatherWidth(const uint8_t* dict, const int32_t* indices, int64_t n, uint8_t* out) {
  for (int64_t i = 0; i < n; ++i) {
    std::memcpy(out + static_cast<size_t>(i) * kWidth, dict + static_cast<size_t>(indices[i]) * kWidth, kWidth);
  }
}

}  // namespace

void Dictionary::GatherFixedBytes(const int32_t* indices, int64_t n, uint8_t* out) const {
  const uint8_t* dict = values_.data();
  switch (value_width_) {
    case 4: return GatherWidth<4>(dict, indices, n, out);
    case 8: return GatherWidth<8>(dict, indices, n, out);
    case 12: return GatherWidth<12>(dict, indices, n, out);
    case 16: return GatherWidth<16>(dict, indices, n, out);
    default: break;
  }
  const size_t width = static_cast<size_t>(value_width_);
  for (int64_t i = 0; i < n; ++i) {
    std::memcpy(out + i * width, dict + static_cast<size_t>(indices[i]) * width, width);
  }
}

void Dictionary::GatherViews(const int32_t* indices, int64_t n, ByteArrayView* out) const {
  if (value_width_ > 0) {
    const uint8_t* dict = values_.data();
    for (int64_t i = 0; i < n; ++i) {
      out[i] = {dict + static_cast<int64_t>(indices[i]) * value_width_, static_cast<uint32_t>(value_width_)};
    }
    return;
  }
  const ByteArrayView* dict_views = views();
  for (int64_t i = 0; i < n; ++i) out[i] = dict_views[indices[i]];
}

template <typename Offset>
Status Dictionary::GatherInto(const int32_t* indices, int64_t n, Offset* offsets_out,
                              ResizableBuffer* data) const {
  if (!is_byte_array()) {
    return Status::Invalid("GatherInto needs a BYTE_ARRAY dictionary; use GatherViews for FLBA");
  }
  const ByteArrayView* dict_views = views();
  int64_t total = 0;
  for (int64_t i = 0; i < n; ++i) total += dict_views[indices[i]].length;
  const int64_t start = data->size();
  if (start + total > static_cast<int64_t>(std::numeric_limits<Offset>::max())) {
    return Status::LimitExceeded("{} bytes of dictionary values do not fit {}-bit offsets",
                                 start + total, 8 * sizeof(Offset));
  }
  STRATA_RETURN_NOT_OK(data->Reserve(start + total));
  uint8_t* out = data->mutable_data();
  int64_t pos = start;
  for (int64_t i = 0; i < n; ++i) {
    const ByteArrayView& v = dict_views[indices[i]];
    if (v.length != 0) std::memcpy(out + pos, v.data, v.length);
    pos += v.length;
    offsets_out[i] = static_cast<Offset>(pos);
  }
  data->set_size(pos);
  return Status::OK();
}

template Status Dictionary::GatherInto(const int32_t*, int64_t, int32_t*, ResizableBuffer*) const;
template Status Dictionary::GatherInto(const int32_t*, int64_t, int64_t*, ResizableBuffer*) const;

// ---- DictionaryEncoder ------------------------------------------------------------------------

namespace {

// The table starts small (256 bytes): a writer holds one encoder per column.
constexpr int64_t kMinSlots = 64;
constexpr int32_t kEmptySlot = -1;  // memset 0xFF writes it
// The table is kept at most a quarter full (the fixed load factor; it doubles past it). At 1k
// distinct int64, a half-full table measured 144 M lookups/s and this 287 M/s: linear probing
// at 0.5 makes a third of the lookups probe twice, and each such mispredicted branch exposes the
// hash + load latency. The cost is 16-32 table bytes per entry instead of 8-16.
constexpr int64_t kSlotsPerEntry = 4;
// A dictionary page's uncompressed size is an i32 in the page header.
constexpr int64_t kMaxPlainSize = std::numeric_limits<int32_t>::max();

// 4- and 8-byte values: fold the high half down, then one multiply; the table takes the
// product's high bits, which every input bit reaches (Fibonacci hashing), so doubles such as
// 1.0, 2.0, 3.0 (all-zero low mantissa bits) still spread. Two full multiply-xorshift rounds,
// masked to the low bits, measured 112 M lookups/s against this one's 144 M/s (both half full,
// 1k distinct int64): the mixer's latency is exposed after every mispredicted probe.
inline uint64_t MixWord(uint64_t x) {
  constexpr uint64_t kMultiplier = 0x9e3779b97f4a7c15ULL;
  return (x ^ (x >> 32)) * kMultiplier;
}

// Two odd constants with well-spread bits (wyhash's first two, which it puts in the public domain).
constexpr uint64_t kSeed0 = 0xa0761d6478bd642fULL;
constexpr uint64_t kSeed1 = 0xe7037ed1a0b428dbULL;

// The 128-bit product folded to 64 bits: one instruction that mixes every bit of both inputs.
inline uint64_t MultiplyFold(uint64_t a, uint64_t b) {
  const unsigned __int128 product = static_cast<unsigned __int128>(a) * b;
  return static_cast<uint64_t>(product) ^ static_cast<uint64_t>(product >> 64);
}
inline uint64_t Load64(const uint8_t* p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  return v;
}
inline uint64_t Load32(const uint8_t* p) {
  uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}

// 64-bit hash of byte arrays and odd fixed widths (in the manner of wyhash): up to 16 bytes are
// read as two possibly overlapping words, so short strings cost two loads and two multiplies;
// longer ones take 16 bytes per round. The length is mixed in, so "a" and "a\0" differ.
uint64_t HashBytes(const uint8_t* data, uint64_t length) {
  uint64_t a = 0;
  uint64_t b = 0;
  uint64_t state = kSeed0;
  if (length <= 16) {
    if (length >= 8) {
      a = Load64(data);
      b = Load64(data + length - 8);
    } else if (length >= 4) {
      a = Load32(data);
      b = Load32(data + length - 4);
    } else if (length > 0) {
      a = (static_cast<uint64_t>(data[0]) << 16) | (static_cast<uint64_t>(data[length >> 1]) << 8) |
          data[length - 1];
    }
  } else {
    const uint8_t* p = data;
    uint64_t left = length;
    while (left > 16) {
      state = MultiplyFold(Load64(p) ^ kSeed1, Load64(p + 8) ^ state);
      p += 16;
      left -= 16;
    }
    a = Load64(p + left - 16);
    b = Load64(p + left - 8);
  }
  return MultiplyFold(kSeed1 ^ length, MultiplyFold(a ^ kSeed1, b ^ state));
}

}  // namespace

Result<std::unique_ptr<DictionaryEncoder>> DictionaryEncoder::Make(MemoryPool* pool,
                                                                   int value_width) {
  if (value_width < 0) {
    return Status::Invalid("dictionary encoder value width {} must be positive, or 0 for BYTE_ARRAY",
                           value_width);
  }
  std::unique_ptr<DictionaryEncoder> encoder(new DictionaryEncoder(pool, value_width));
  STRATA_RETURN_NOT_OK(encoder->RebuildTable(kMinSlots));
  return encoder;
}

int64_t DictionaryEncoder::plain_size() const {
  if (value_width_ > 0) return num_entries_ * value_width_;
  return 4 * num_entries_ + values_.size();
}

int DictionaryEncoder::index_bit_width() const {
  if (num_entries_ <= 1) return 0;
  return std::bit_width(static_cast<uint64_t>(num_entries_ - 1));
}

void DictionaryEncoder::Clear() {
  num_entries_ = 0;
  values_.Clear();
  hashes_.Clear();
  byte_array_entries_.Clear();
  // The table keeps its size: the next chunk of a column is usually like the last one.
  if (num_slots_ > 0) std::memset(slots(), 0xFF, static_cast<size_t>(num_slots_) * sizeof(int32_t));
}

void DictionaryEncoder::ReleaseHashTable() {
  table_.Release();
  num_slots_ = 0;  // EnsureTable rebuilds it from the entries if Put is called again
}

Status DictionaryEncoder::WritePlain(ResizableBuffer* out) const {
  const int64_t size = plain_size();
  STRATA_RETURN_NOT_OK(out->Reserve(out->size() + size));
  if (value_width_ > 0) {
    out->UnsafeAppend(values_.data(), size);
    return Status::OK();
  }
  const auto* entries = reinterpret_cast<const ByteArrayEntry*>(byte_array_entries_.data());
  for (int64_t i = 0; i < num_entries_; ++i) {
    out->UnsafeAppend(&entries[i].length, 4);  // little-endian, as the whole library assumes
    out->UnsafeAppend(values_.data() + entries[i].offset, entries[i].length);
  }
  return Status::OK();
}

uint64_t DictionaryEncoder::EntryHash(int64_t index) const {
  switch (value_width_) {
    case 0:
      return reinterpret_cast<const ByteArrayEntry*>(byte_array_entries_.data())[index].hash;
    case 4: {
      uint32_t value;
      std::memcpy(&value, values_.data() + 4 * index, 4);
      return MixWord(value);
    }
    case 8: return MixWord(Load64(values_.data() + 8 * index));
    default: return reinterpret_cast<const uint64_t*>(hashes_.data())[index];
  }
}

Status DictionaryEncoder::RebuildTable(int64_t num_slots) {
  // The table is derived from the entries, so the old one is freed before the new one is
  // allocated: never two tables at once. Until this succeeds, num_slots_ == 0 marks it missing.
  num_slots_ = 0;
  const int64_t bytes = num_slots * static_cast<int64_t>(sizeof(int32_t));
  STRATA_RETURN_NOT_OK(table_.ReserveDiscardingContents(bytes));
  table_.set_size(bytes);
  int32_t* table = slots();
  std::memset(table, 0xFF, static_cast<size_t>(bytes));
  const uint64_t mask = static_cast<uint64_t>(num_slots - 1);
  const int shift = 64 - std::countr_zero(static_cast<uint64_t>(num_slots));
  for (int64_t entry = 0; entry < num_entries_; ++entry) {
    uint64_t slot = EntryHash(entry) >> shift;
    while (table[slot] != kEmptySlot) slot = (slot + 1) & mask;
    table[slot] = static_cast<int32_t>(entry);
  }
  num_slots_ = num_slots;
  slot_shift_ = shift;
  return Status::OK();
}

Status DictionaryEncoder::EnsureTable() {
  if (num_slots_ > 0) return Status::OK();
  int64_t num_slots = kMinSlots;
  while (num_slots < kSlotsPerEntry * num_entries_) num_slots *= 2;
  return RebuildTable(num_slots);
}

Status DictionaryEncoder::CheckPlainSizeAfter(int64_t added_bytes) const {
  if (plain_size() + added_bytes > kMaxPlainSize) {
    return Status::LimitExceeded(
        "dictionary of {} entries ({} bytes PLAIN) cannot take a {}-byte entry: a dictionary page "
        "holds at most {} bytes",
        num_entries_, plain_size(), added_bytes, kMaxPlainSize);
  }
  return Status::OK();
}

Result<int64_t> DictionaryEncoder::SlotForNewEntry(uint64_t hash, int64_t slot) {
  // Short probe sequences, and always an empty slot to end them.
  if (kSlotsPerEntry * (num_entries_ + 1) <= num_slots_) return slot;
  STRATA_RETURN_NOT_OK(RebuildTable(2 * num_slots_));
  const int32_t* table = slots();
  const uint64_t mask = static_cast<uint64_t>(num_slots_ - 1);
  uint64_t new_slot = hash >> slot_shift_;
  while (table[new_slot] != kEmptySlot) new_slot = (new_slot + 1) & mask;
  return static_cast<int64_t>(new_slot);
}

Status DictionaryEncoder::InsertFixed(const uint8_t* value, uint64_t hash, int64_t slot) {
  // Everything that can fail comes before the entry is added, so a failed put adds nothing.
  STRATA_RETURN_NOT_OK(CheckPlainSizeAfter(value_width_));
  const bool caches_hash = value_width_ != 4 && value_width_ != 8;
  STRATA_RETURN_NOT_OK(values_.GrowForAppend(values_.size() + value_width_));
  if (caches_hash) STRATA_RETURN_NOT_OK(hashes_.GrowForAppend(hashes_.size() + 8));
  STRATA_ASSIGN_OR_RETURN(slot, SlotForNewEntry(hash, slot));
  values_.UnsafeAppend(value, value_width_);
  if (caches_hash) hashes_.UnsafeAppend(&hash, 8);
  slots()[slot] = static_cast<int32_t>(num_entries_++);
  return Status::OK();
}

Status DictionaryEncoder::InsertByteArray(const ByteArrayView& value, uint64_t hash, int64_t slot) {
  STRATA_RETURN_NOT_OK(CheckPlainSizeAfter(4 + static_cast<int64_t>(value.length)));
  STRATA_RETURN_NOT_OK(values_.GrowForAppend(values_.size() + value.length));
  constexpr int64_t kEntryBytes = sizeof(ByteArrayEntry);
  STRATA_RETURN_NOT_OK(byte_array_entries_.GrowForAppend(byte_array_entries_.size() + kEntryBytes));
  STRATA_ASSIGN_OR_RETURN(slot, SlotForNewEntry(hash, slot));
  // The arena is below 2^31 bytes (CheckPlainSizeAfter), so its offsets fit 32 bits.
  const ByteArrayEntry entry{hash, static_cast<uint32_t>(values_.size()), value.length};
  values_.UnsafeAppend(value.data, value.length);
  byte_array_entries_.UnsafeAppend(&entry, sizeof(entry));
  slots()[slot] = static_cast<int32_t>(num_entries_++);
  return Status::OK();
}

// The hot loops keep the table, entries and mask in locals (no member reloads, no virtual
// calls) and reload them only after an insert, which may move any of them.
template <typename Word>
Status DictionaryEncoder::PutWords(const uint8_t* values, int64_t count, int32_t* indices_out) {
  const int32_t* table = slots();
  const Word* entries = reinterpret_cast<const Word*>(values_.data());
  uint64_t mask = static_cast<uint64_t>(num_slots_ - 1);
  int shift = slot_shift_;
  for (int64_t i = 0; i < count; ++i) {
    Word value;
    std::memcpy(&value, values + i * static_cast<int64_t>(sizeof(Word)), sizeof(Word));
    const uint64_t hash = MixWord(value);
    uint64_t slot = hash >> shift;
    int32_t entry;
    while ((entry = table[slot]) != kEmptySlot && entries[entry] != value) slot = (slot + 1) & mask;
    if (entry == kEmptySlot) {
      entry = static_cast<int32_t>(num_entries_);
      STRATA_RETURN_NOT_OK(InsertFixed(values + i * static_cast<int64_t>(sizeof(Word)), hash,
                                       static_cast<int64_t>(slot)));
      table = slots();
      entries = reinterpret_cast<const Word*>(values_.data());
      mask = static_cast<uint64_t>(num_slots_ - 1);
      shift = slot_shift_;
    }
    indices_out[i] = entry;
  }
  return Status::OK();
}

Status DictionaryEncoder::PutGenericWidth(const uint8_t* values, int64_t count,
                                          int32_t* indices_out) {
  const size_t width = static_cast<size_t>(value_width_);
  const int32_t* table = slots();
  const uint8_t* entries = values_.data();
  const uint64_t* hashes = reinterpret_cast<const uint64_t*>(hashes_.data());
  uint64_t mask = static_cast<uint64_t>(num_slots_ - 1);
  int shift = slot_shift_;
  for (int64_t i = 0; i < count; ++i) {
    const uint8_t* value = values + static_cast<size_t>(i) * width;
    const uint64_t hash = HashBytes(value, width);
    uint64_t slot = hash >> shift;
    int32_t entry;
    while ((entry = table[slot]) != kEmptySlot &&
           (hashes[entry] != hash ||
            std::memcmp(entries + static_cast<size_t>(entry) * width, value, width) != 0)) {
      slot = (slot + 1) & mask;
    }
    if (entry == kEmptySlot) {
      entry = static_cast<int32_t>(num_entries_);
      STRATA_RETURN_NOT_OK(InsertFixed(value, hash, static_cast<int64_t>(slot)));
      table = slots();
      entries = values_.data();
      hashes = reinterpret_cast<const uint64_t*>(hashes_.data());
      mask = static_cast<uint64_t>(num_slots_ - 1);
      shift = slot_shift_;
    }
    indices_out[i] = entry;
  }
  return Status::OK();
}

Status DictionaryEncoder::PutFixed(const void* values, int64_t count, int32_t* indices_out) {
  if (value_width_ == 0) {
    return Status::Invalid("PutFixed on a BYTE_ARRAY dictionary encoder; use PutByteArrays");
  }
  if (count < 0) return Status::Invalid("dictionary encoder asked to put {} values", count);
  if (count == 0) return Status::OK();
  STRATA_RETURN_NOT_OK(EnsureTable());
  const auto* bytes = static_cast<const uint8_t*>(values);
  // One dispatch per call: constant widths turn the value load and compare into one move.
  switch (value_width_) {
    case 4: return PutWords<uint32_t>(bytes, count, indices_out);
    case 8: return PutWords<uint64_t>(bytes, count, indices_out);
    default: return PutGenericWidth(bytes, count, indices_out);
  }
}

Status DictionaryEncoder::PutByteArrays(const ByteArrayView* values, int64_t count,
                                        int32_t* indices_out) {
  if (value_width_ != 0) {
    return Status::Invalid(
        "PutByteArrays on a dictionary encoder of {}-byte fixed-width values; use PutFixed", value_width_);
  }
  if (count < 0) return Status::Invalid("dictionary encoder asked to put {} values", count);
  if (count == 0) return Status::OK();
  STRATA_RETURN_NOT_OK(EnsureTable());
  const int32_t* table = slots();
  const auto* entries = reinterpret_cast<const ByteArrayEntry*>(byte_array_entries_.data());
  const uint8_t* arena = values_.data();
  uint64_t mask = static_cast<uint64_t>(num_slots_ - 1);
  int shift = slot_shift_;
  for (int64_t i = 0; i < count; ++i) {
    const ByteArrayView& value = values[i];
    const uint64_t hash = HashBytes(value.data, value.length);
    uint64_t slot = hash >> shift;
    int32_t entry;
    // The cached hash rejects almost every other entry before its bytes are touched.
    while ((entry = table[slot]) != kEmptySlot) {
      const ByteArrayEntry& candidate = entries[entry];
      if (candidate.hash == hash && candidate.length == value.length &&
          (value.length == 0 || std::memcmp(arena + candidate.offset, value.data, value.length) == 0)) {
        break;
      }
      slot = (slot + 1) & mask;
    }
    if (entry == kEmptySlot) {
      entry = static_cast<int32_t>(num_entries_);
      STRATA_RETURN_NOT_OK(InsertByteArray(value, hash, static_cast<int64_t>(slot)));
      table = slots();
      entries = reinterpret_cast<const ByteArrayEntry*>(byte_array_entries_.data());
      arena = values_.data();
      mask = static_cast<uint64_t>(num_slots_ - 1);
      shift = slot_shift_;
    }
    indices_out[i] = entry;
  }
  return Status::OK();
}

}  // namespace strata::parquet
