// Dictionary pages (PLAIN-encoded entries) and the gather that turns dictionary indices (from
// RleBitPackedDecoder::DecodeIndices) into values. The dictionary copies what it needs out of
// the page, so the page buffer can be released once the dictionary is built.
// The write side, DictionaryEncoder, maps a column chunk's values to entry indices (for
// RleBitPackedEncoder) and writes the dictionary page's PLAIN body.
#pragma once

#include <cstdint>
#include <memory>

#include "strata/parquet/encoding/byte_array.h"
#include "strata/util/result.h"

namespace strata::parquet {

class Dictionary {
 public:
  // `num_values` PLAIN values of `value_width` bytes (INT32, INT64, INT96, FLOAT, DOUBLE, FLBA).
  // Corrupt when the page holds fewer bytes than num_values * value_width.
  static Result<std::unique_ptr<Dictionary>> MakeFixedWidth(MemoryPool* pool, const uint8_t* page,
                                                            int64_t size, int64_t num_values,
                                                            int value_width,
                                                            int64_t base_offset = 0);
  // `num_values` PLAIN BYTE_ARRAY values. Every length is checked against the page.
  static Result<std::unique_ptr<Dictionary>> MakeByteArray(MemoryPool* pool, const uint8_t* page,
                                                           int64_t size, int64_t num_values,
                                                           int64_t base_offset = 0);

  // Entries in the dictionary.
  int64_t size() const { return num_values_; }
  bool is_byte_array() const { return value_width_ == 0; }
  // Bytes per entry for fixed-width dictionaries; 0 for BYTE_ARRAY.
  int value_width() const { return value_width_; }
  // BYTE_ARRAY: the entries' bytes together (without lengths).
  int64_t byte_array_bytes() const { return is_byte_array() ? values_.size() : 0; }
  // Fixed-width entries back to back.
  const uint8_t* fixed_values() const { return values_.data(); }
  // BYTE_ARRAY entries, pointing into memory owned by this dictionary.
  const ByteArrayView* views() const {
    return reinterpret_cast<const ByteArrayView*>(views_.data());
  }
  // Pool bytes held.
  int64_t memory_size() const { return values_.capacity() + views_.capacity(); }

  // The gathers below require every index in indices[0, n) to be in [0, size()):
  // RleBitPackedDecoder::DecodeIndices guarantees it, once per batch.

  // out[i] = entry indices[i], for fixed-width dictionaries with sizeof(T) == value_width().
  template <typename T>
  void Gather(const int32_t* indices, int64_t n, T* out) const {
    const T* dict = reinterpret_cast<const T*>(values_.data());
    for (int64_t i = 0; i < n; ++i) out[i] = dict[indices[i]];
  }
  // Any fixed width (INT96, FLBA): value_width() bytes per output value.
  void GatherFixedBytes(const int32_t* indices, int64_t n, uint8_t* out) const;
  // BYTE_ARRAY (or FLBA) as views into the dictionary, valid while it lives.
  void GatherViews(const int32_t* indices, int64_t n, ByteArrayView* out) const;
  // BYTE_ARRAY appended to offsets + data: one pass sums lengths, one exact Reserve, one copy.
  // offsets_out[i] is the end offset of value i.
  template <typename Offset>
  Status GatherInto(const int32_t* indices, int64_t n, Offset* offsets_out,
                    ResizableBuffer* data) const;

 private:
  explicit Dictionary(MemoryPool* pool) : values_(pool), views_(pool) {}

  int64_t num_values_ = 0;
  int value_width_ = 0;
  ResizableBuffer values_;  // fixed-width entries, or the BYTE_ARRAY payload bytes
  ResizableBuffer views_;   // ByteArrayView per BYTE_ARRAY entry
};

// Builds one column chunk's dictionary: each value put gets the index of its entry, new values
// becoming entries in first-seen order. An open-addressing hash table finds the entries: linear
// probing over a power of two of int32 entry indices, at most a quarter full (doubling past it),
// first slot from a hash's high bits. Fixed-width values are compared by their bytes, so floats
// round-trip bit for bit (-0.0 and 0.0 are two entries, NaNs with equal bits one). BYTE_ARRAY
// entries are copied into one arena, addressed by offset, with their hash cached so growing the
// table never rehashes bytes. No allocation per value: buffers grow by doubling (the final
// entry count is unknown) and Clear() keeps them for the next chunk.
// A dictionary page's PLAIN body is at most 2^31 - 1 bytes (the page header's i32): a put that
// would pass it is LimitExceeded. After any error the entries put so far stay valid, the refused
// value is not an entry, and the encoder stays usable.
class DictionaryEncoder {
 public:
  // value_width: bytes of one fixed-width value (4 INT32/FLOAT, 8 INT64/DOUBLE, 12 INT96,
  // FIXED_LEN_BYTE_ARRAY's width); 0 for BYTE_ARRAY. Hash table and entries come from `pool`.
  static Result<std::unique_ptr<DictionaryEncoder>> Make(MemoryPool* pool, int value_width);

  // Looks up each of `count` values (inserting the new ones) and writes its index to
  // indices_out[0, count). `values` holds count * value_width bytes; it is copied from, never
  // kept. On error, indices_out holds the indices of the values before the refused one.
  // Invalid on a BYTE_ARRAY encoder. Fixed-width values are compared by their bytes (so
  // -0.0 and 0.0 are two entries, and NaNs with the same bits one: values round-trip bit for bit).
  Status PutFixed(const void* values, int64_t count, int32_t* indices_out);
  // The same for BYTE_ARRAY values; the bytes of new entries are copied. Invalid on a
  // fixed-width encoder.
  Status PutByteArrays(const ByteArrayView* values, int64_t count, int32_t* indices_out);

  int64_t num_entries() const { return num_entries_; }
  int value_width() const { return value_width_; }
  // Bytes of the PLAIN dictionary page body: value_width * entries, or sum(4 + length).
  int64_t plain_size() const;
  // Appends the entries, PLAIN-encoded in index order, to `out` (one exact reservation).
  Status WritePlain(ResizableBuffer* out) const;
  // Bit width of the RLE_DICTIONARY indices of data pages: ceil(log2(num_entries)), 0 for one
  // entry or none.
  int index_bit_width() const;

  // Empties the dictionary for the next column chunk; keeps every buffer's capacity (and the
  // table's size, so a chunk like the last one allocates nothing).
  void Clear();
  // Frees the lookup table, keeping the entries: for a writer that stops adding values (its
  // dictionary passed its byte limit) but still writes the dictionary page. A later Put
  // rebuilds the table.
  void ReleaseHashTable();
  // Pool bytes held (table, entries, byte-array arena).
  int64_t memory_size() const {
    return table_.capacity() + values_.capacity() + hashes_.capacity() +
           byte_array_entries_.capacity();
  }

 private:
  // One BYTE_ARRAY entry: where its bytes are in the arena, and their hash. Offsets fit 32 bits
  // because the page body is at most 2^31 - 1 bytes.
  struct ByteArrayEntry {
    uint64_t hash;
    uint32_t offset;
    uint32_t length;
  };

  DictionaryEncoder(MemoryPool* pool, int value_width)
      : value_width_(value_width),
        table_(pool),
        values_(pool),
        hashes_(pool),
        byte_array_entries_(pool) {}

  template <typename Word>
  Status PutWords(const uint8_t* values, int64_t count, int32_t* indices_out);
  Status PutGenericWidth(const uint8_t* values, int64_t count, int32_t* indices_out);

  // Cold paths of the Put loops: append entry num_entries_ (its value or bytes, and hash),
  // then place it in `slot` or, when the table would pass a quarter full, rebuild it twice as big.
  Status InsertFixed(const uint8_t* value, uint64_t hash, int64_t slot);
  Status InsertByteArray(const ByteArrayView& value, uint64_t hash, int64_t slot);
  Status CheckPlainSizeAfter(int64_t added_bytes) const;
  // The slot for a new entry whose probe ended at `slot`: the same one, or its slot in a table
  // doubled first when one more entry would pass a quarter full.
  Result<int64_t> SlotForNewEntry(uint64_t hash, int64_t slot);
  // Resizes the table to `num_slots` (discarding the old one first: it is derived from the
  // entries) and reinserts every entry from its value or cached hash.
  Status RebuildTable(int64_t num_slots);
  // Rebuilds a table lost to a failed rebuild (num_slots_ == 0).
  Status EnsureTable();
  uint64_t EntryHash(int64_t index) const;
  int32_t* slots() { return reinterpret_cast<int32_t*>(table_.mutable_data()); }

  int value_width_;
  int64_t num_entries_ = 0;
  int64_t num_slots_ = 0;  // 0 after a failed rebuild: the next Put rebuilds first
  int slot_shift_ = 64;    // a hash's first slot is its top log2(num_slots_) bits
  ResizableBuffer table_;  // int32 entry index per slot, -1 when empty
  ResizableBuffer values_;  // fixed-width entries back to back, or the BYTE_ARRAY arena
  ResizableBuffer hashes_;  // uint64 hash per entry of a width other than 4 and 8
  ResizableBuffer byte_array_entries_;  // ByteArrayEntry per BYTE_ARRAY entry
};

}  // namespace strata::parquet
