// Content-defined page boundaries: a gear hash over levels and values. See
// content_defined_chunker.h.
#include "strata/parquet/write/content_defined_chunker.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>

#include "strata/array/bitmap.h"

namespace strata::parquet {
namespace {

// The gear table: 256 well-mixed 64-bit constants, one per byte value, from splitmix64 with a
// fixed seed ("STRATACD"). Changing it moves every boundary, so it is part of the format of
// the pages strata writes (not of the files: readers never see it).
constexpr std::array<uint64_t, 256> MakeGearTable(uint64_t seed) {
  std::array<uint64_t, 256> table{};
  uint64_t state = seed;
  for (uint64_t& entry : table) {
    state += 0x9E3779B97F4A7C15ULL;
    uint64_t z = state;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    entry = z ^ (z >> 31);
  }
  return table;
}
constexpr std::array<uint64_t, 256> kGear = MakeGearTable(0x5354524154414344ULL);

// Elements gathered at a time: the gatherer's scratch stays small whatever the batch.
constexpr int64_t kPieceElements = 4096;

uint64_t MaskFor(const ContentDefinedChunking& options) {
  // A gear hash's top bits are zero with probability 2^-bits at each byte: past the minimum, a
  // boundary comes after 2^bits bytes on average. Half the span to the maximum keeps forced
  // cuts rare (e^-2 to e^-4 of chunks at the defaults' 18 bits).
  const auto span = static_cast<uint64_t>(std::max<int64_t>(2, (options.max_chunk_bytes - options.min_chunk_bytes) / 2));
  const int bits = std::clamp(static_cast<int>(std::bit_width(span)) - 1 - options.norm_level, 1, 63);
  return ~uint64_t{0} << (64 - bits);
}

}  // namespace

ContentDefinedChunker::ContentDefinedChunker(const WriterColumn& column, const ContentDefinedChunking& options,
                                             MemoryPool* pool)
    : column_(column),
      min_bytes_(options.min_chunk_bytes),
      max_bytes_(options.max_chunk_bytes),
      mask_(MaskFor(options)),
      gatherer_(column, pool),
      boundaries_(pool),
      dictionary_values_(pool) {}

void ContentDefinedChunker::Reset() {
  hash_ = 0;
  chunk_bytes_ = 0;
  matched_ = false;
}

int64_t ContentDefinedChunker::memory_size() const {
  return gatherer_.memory_size() + boundaries_.capacity() + dictionary_values_.capacity();
}

inline void ContentDefinedChunker::RollBytes(const uint8_t* data, int64_t length) {
  uint64_t hash = hash_;
  bool matched = false;
  for (int64_t i = 0; i < length; ++i) {
    hash = (hash << 1) + kGear[data[i]];
    matched |= (hash & mask_) == 0;
  }
  hash_ = hash;
  matched_ = matched_ || matched;
  chunk_bytes_ += length;
}

Status ContentDefinedChunker::PrepareDictionary(const ArrayDataPtr& dictionary) {
  if (dictionary == nullptr) {
    return Status::Invalid("column '{}': a dictionary array without its dictionary", column_.dotted_path);
  }
  if (dictionary == dictionary_) return Status::OK();
  GatheredValues values;
  STRATA_RETURN_NOT_OK(gatherer_.Gather(*dictionary, 0, dictionary->length, &values));
  if (values.count != dictionary->length) {
    return Status::Invalid("column '{}': dictionaries with null values are not supported", column_.dotted_path);
  }
  // Copied: the gatherer's scratch is reused for the indices.
  if (column_.physical_type == PhysicalType::kByteArray) {
    const int64_t bytes = values.count * static_cast<int64_t>(sizeof(ByteArrayView));
    STRATA_RETURN_NOT_OK(dictionary_values_.ReserveDiscardingContents(bytes));
    if (bytes > 0) std::memcpy(dictionary_values_.mutable_data(), values.views, static_cast<size_t>(bytes));
  } else {
    const int64_t bytes = values.count * gatherer_.value_width();
    STRATA_RETURN_NOT_OK(dictionary_values_.ReserveDiscardingContents(bytes));
    if (bytes > 0) std::memcpy(dictionary_values_.mutable_data(), values.fixed, static_cast<size_t>(bytes));
  }
  dictionary_ = dictionary;
  dictionary_length_ = values.count;
  return Status::OK();
}

Status ContentDefinedChunker::GatherPiece(const ShreddedLeaf& leaf) {
  while (range_ < leaf.ranges.size() && element_ >= leaf.ranges[range_].second) {
    if (++range_ < leaf.ranges.size()) element_ = leaf.ranges[range_].first;
  }
  if (range_ >= leaf.ranges.size()) {
    return Status::Invalid("column '{}': the levels reference more values than the array holds", column_.dotted_path);
  }
  piece_end_ = std::min(element_ + kPieceElements, leaf.ranges[range_].second);
  piece_value_ = 0;
  if (dictionary_ != nullptr) {
    int64_t count;
    return gatherer_.GatherIndices(*leaf.values, element_, piece_end_, dictionary_length_, &piece_indices_, &count);
  }
  return gatherer_.Gather(*leaf.values, element_, piece_end_, &piece_);
}

Status ContentDefinedChunker::RollValueOfElement(const ShreddedLeaf& leaf, bool non_null, bool hashing) {
  if (element_ >= piece_end_) STRATA_RETURN_NOT_OK(GatherPiece(leaf));
  ++element_;
  if (!non_null) return Status::OK();
  const int64_t v = piece_value_++;
  const PhysicalType type = column_.physical_type;
  const uint8_t* data;
  int64_t length;
  uint8_t byte;
  if (type == PhysicalType::kBoolean) {
    byte = bitmap::GetBit(piece_.bits, piece_.bit_offset + v) ? 1 : 0;
    data = &byte;
    length = 1;
  } else if (type == PhysicalType::kByteArray) {
    const ByteArrayView value = dictionary_ != nullptr
                                    ? dictionary_values_.data_as<ByteArrayView>()[piece_indices_[v]]
                                    : piece_.views[v];
    data = value.data;
    length = value.length;
  } else {
    length = gatherer_.value_width();
    data = dictionary_ != nullptr ? dictionary_values_.data() + piece_indices_[v] * length : piece_.fixed + v * length;
  }
  if (hashing) {
    RollBytes(data, length);
  } else {
    chunk_bytes_ += length;
  }
  return Status::OK();
}

Status ContentDefinedChunker::FindBoundariesFlat(const ShreddedLeaf& leaf, const uint8_t* validity) {
  // One level per element: definition level 1 and a value where `validity` says so (or
  // everywhere without it), else 0. The rolling state lives in locals for the loop (stored
  // back at the end), so the compiler keeps it in registers rather than reloading members
  // through `this` at every byte.
  const int64_t level_length = column_.max_definition_level > 0 ? 2 : 0;
  const uint8_t present[2] = {static_cast<uint8_t>(column_.max_definition_level), 0};
  const uint8_t absent[2] = {0, 0};
  const int width = gatherer_.value_width();
  const bool byte_array = column_.physical_type == PhysicalType::kByteArray;
  const int64_t validity_offset = leaf.values->offset;
  const uint64_t mask = mask_;
  uint64_t hash = hash_;
  int64_t chunk_bytes = chunk_bytes_;
  bool matched = matched_;
  auto roll = [&](const uint8_t* data, int64_t length) {
    for (int64_t i = 0; i < length; ++i) {
      hash = (hash << 1) + kGear[data[i]];
      matched |= (hash & mask) == 0;
    }
  };
  int64_t level = 0;
  Status status;
  for (const auto& [begin, end] : leaf.ranges) {
    for (int64_t at = begin; at < end && status.ok(); at += kPieceElements) {
      const int64_t count = std::min(kPieceElements, end - at);
      status = gatherer_.Gather(*leaf.values, at, at + count, &piece_);  // the non-null values
      if (!status.ok()) break;
      int64_t v = 0;
      for (int64_t e = at; e < at + count; ++e, ++level) {
        const bool valid = validity == nullptr || bitmap::GetBit(validity, validity_offset + e);
        const int64_t value_length = !valid ? 0 : byte_array ? piece_.views[v].length : width;
        if (chunk_bytes < min_bytes_) {
          // Below the minimum no boundary can fall and nothing is hashed: count whole levels.
          chunk_bytes += level_length + value_length;
          v += valid;
          continue;
        }
        if (chunk_bytes >= max_bytes_ || matched) {
          status = boundaries_.Append(&level, 8);
          if (!status.ok()) break;
          matched = false;
          chunk_bytes = level_length + value_length;  // the new chunk's first level, below the minimum
          v += valid;
          continue;
        }
        if (level_length > 0) roll(valid ? present : absent, 2);
        if (valid) {
          roll(byte_array ? piece_.views[v].data : piece_.fixed + v * width, value_length);
          ++v;
        }
        chunk_bytes += level_length + value_length;
      }
    }
  }
  hash_ = hash;
  chunk_bytes_ = chunk_bytes;
  matched_ = matched;
  return status;
}

Result<std::span<const int64_t>> ContentDefinedChunker::FindBoundaries(const ShreddedLeaf& leaf) {
  const int64_t n = leaf.num_levels;
  boundaries_.Clear();
  const bool dictionary_input = leaf.values != nullptr && leaf.values->type->id() == TypeId::kDictionary;
  if (dictionary_input) {
    STRATA_RETURN_NOT_OK(PrepareDictionary(leaf.values->dictionary));
  } else {
    dictionary_ = nullptr;
  }
  range_ = 0;
  element_ = leaf.ranges.empty() ? 0 : leaf.ranges[0].first;
  piece_end_ = element_;
  const int16_t max_def = column_.max_definition_level;
  const int16_t slot = leaf.value_slot_definition_level;
  // A top-level optional leaf without materialised levels: its levels are its validity bits.
  const ArrayData* values = leaf.values.get();
  // The bitmap itself, not null_count (which may be unknown): bits of a bitmap without nulls are all set.
  const uint8_t* validity = values != nullptr ? values->validity_data() : nullptr;
  // A flat leaf whose levels are its validity bits, values as they are: the same walk without
  // per-level dispatch (the levels' bytes are known from the bits).
  if (leaf.rep_levels == nullptr && leaf.def_levels == nullptr && !dictionary_input && values != nullptr &&
      column_.physical_type != PhysicalType::kBoolean) {
    STRATA_RETURN_NOT_OK(FindBoundariesFlat(leaf, validity));
    return std::span<const int64_t>(boundaries_.data_as<int64_t>(), static_cast<size_t>(boundaries_.size() / 8));
  }
  for (int64_t i = 0; i < n; ++i) {
    const int16_t rep = leaf.rep_levels != nullptr ? leaf.rep_levels[i] : 0;
    if (rep == 0 && (chunk_bytes_ >= max_bytes_ || (matched_ && chunk_bytes_ >= min_bytes_))) {
      STRATA_RETURN_NOT_OK(boundaries_.Append(&i, 8));
      chunk_bytes_ = 0;
      matched_ = false;
    }
    int16_t def = max_def;
    if (leaf.def_levels != nullptr) {
      def = leaf.def_levels[i];
    } else if (max_def > 0) {
      // Element i of the leaf is level i.
      const int64_t element = leaf.ranges.empty() ? i : leaf.ranges[0].first + i;
      def = validity == nullptr || bitmap::GetBit(validity, values->offset + element) ? max_def : 0;
    }
    // Levels as the page stores them, little-endian.
    uint8_t level_bytes[4];
    int level_length = 0;
    if (max_def > 0) {
      std::memcpy(level_bytes, &def, 2);
      level_length = 2;
    }
    if (column_.max_repetition_level > 0) {
      std::memcpy(level_bytes + level_length, &rep, 2);
      level_length += 2;
    }
    // Below the minimum no boundary can fall: the level's bytes are counted, not hashed (the
    // hash's window is 64 bytes, so starting it at the minimum costs no stability).
    const bool hashing = chunk_bytes_ >= min_bytes_;
    if (level_length > 0) {
      if (hashing) {
        RollBytes(level_bytes, level_length);
      } else {
        chunk_bytes_ += level_length;
      }
    }
    if (def >= slot && values != nullptr) STRATA_RETURN_NOT_OK(RollValueOfElement(leaf, def == max_def, hashing));
  }
  return std::span<const int64_t>(boundaries_.data_as<int64_t>(), static_cast<size_t>(boundaries_.size() / 8));
}

}  // namespace strata::parquet
