#include "strata/parquet/encoding/delta_byte_array.h"

#include <algorithm>
#include <cstring>

namespace strata::parquet {

namespace {
constexpr int64_t kBatch = 256;
}  // namespace

Status DeltaByteArrayDecoder::SetData(const uint8_t* data, int64_t size, int64_t base_offset) {
  STRATA_RETURN_NOT_OK(prefixes_.SetData(data, size, base_offset));
  DeltaBinaryPackedDecoder<int32_t> probe = prefixes_;
  STRATA_ASSIGN_OR_RETURN(int64_t prefixes_end, probe.SkipToEnd());
  STRATA_RETURN_NOT_OK(
      suffixes_.SetData(data + prefixes_end, size - prefixes_end, base_offset + prefixes_end));
  if (suffixes_.total_values() != prefixes_.total_values()) {
    return Status::Corrupt("DELTA_BYTE_ARRAY at offset {} has {} prefix lengths but {} suffixes",
                           base_offset, prefixes_.total_values(), suffixes_.total_values());
  }
  base_offset_ = base_offset;
  values_.Clear();
  offsets_.Clear();
  last_.Clear();
  return Status::OK();
}

namespace {

// The next `want` prefix lengths and suffixes; Corrupt when either stream ends first.
Status DecodeLengths(DeltaBinaryPackedDecoder<int32_t>& prefix_decoder, DeltaLengthByteArrayDecoder& suffix_decoder,
                     int64_t want, int32_t* prefixes, ByteArrayView* suffixes, int64_t base_offset) {
  STRATA_ASSIGN_OR_RETURN(const int64_t np, prefix_decoder.Decode(prefixes, want));
  STRATA_ASSIGN_OR_RETURN(const int64_t ns, suffix_decoder.Decode(suffixes, want));
  if (np != want || ns != want) return Status::Corrupt("DELTA_BYTE_ARRAY at offset {} ends early", base_offset);
  return Status::OK();
}

}  // namespace

Result<int64_t> DeltaByteArrayDecoder::SizeValues(int64_t count) const {
  DeltaBinaryPackedDecoder<int32_t> prefixes = prefixes_;
  DeltaLengthByteArrayDecoder suffixes = suffixes_;
  int32_t prefix[kBatch];
  ByteArrayView suffix[kBatch];
  int64_t bytes = 0;
  int64_t previous = last_.size();
  const int64_t first_value = prefixes_.total_values() - prefixes_.values_left();
  for (int64_t done = 0; done < count;) {
    const int64_t want = std::min(kBatch, count - done);
    STRATA_RETURN_NOT_OK(DecodeLengths(prefixes, suffixes, want, prefix, suffix, base_offset_));
    for (int64_t i = 0; i < want; ++i) {
      if (prefix[i] < 0 || prefix[i] > previous) {
        return Status::Corrupt("DELTA_BYTE_ARRAY value {} at offset {}: prefix length {} but the previous value has {} bytes",
                               first_value + done + i, base_offset_, prefix[i], previous);
      }
      previous = prefix[i] + static_cast<int64_t>(suffix[i].length);
      bytes += previous;
    }
    done += want;
  }
  return bytes;
}

Result<int64_t> DeltaByteArrayDecoder::Decode(ByteArrayView* out, int64_t count) {
  const int64_t n_total = std::clamp<int64_t>(count, 0, values_left());
  // A first pass over the lengths (on copies of the two decoders) checks every prefix and
  // gives the exact bytes, so the values buffer is reserved once per call, never regrown.
  STRATA_ASSIGN_OR_RETURN(const int64_t bytes, SizeValues(n_total));
  values_.Clear();
  STRATA_RETURN_NOT_OK(values_.ReserveScratch(bytes));
  STRATA_RETURN_NOT_OK(offsets_.ReserveScratch((n_total + 1) * static_cast<int64_t>(sizeof(int64_t))));
  int64_t* offsets = reinterpret_cast<int64_t*>(offsets_.mutable_data());
  uint8_t* base = values_.mutable_data();
  // The previous value: the last one of the previous call, then each value of this one.
  const uint8_t* previous = last_.data();
  int32_t prefixes[kBatch];
  ByteArrayView suffixes[kBatch];
  int64_t pos = 0;
  for (int64_t done = 0; done < n_total;) {
    const int64_t want = std::min(kBatch, n_total - done);
    STRATA_RETURN_NOT_OK(DecodeLengths(prefixes_, suffixes_, want, prefixes, suffixes, base_offset_));
    for (int64_t i = 0; i < want; ++i) {
      if (prefixes[i] > 0) std::memmove(base + pos, previous, static_cast<size_t>(prefixes[i]));
      if (suffixes[i].length > 0) std::memcpy(base + pos + prefixes[i], suffixes[i].data, suffixes[i].length);
      offsets[done + i] = pos;
      previous = base + pos;
      pos += prefixes[i] + static_cast<int64_t>(suffixes[i].length);
    }
    done += want;
  }
  values_.set_size(pos);
  if (n_total > 0) {
    offsets[n_total] = pos;
    for (int64_t i = 0; i < n_total; ++i) {
      out[i] = {base + offsets[i], static_cast<uint32_t>(offsets[i + 1] - offsets[i])};
    }
    // Keep the last value for the next call's first prefix.
    const ByteArrayView& last = out[n_total - 1];
    last_.Clear();
    STRATA_RETURN_NOT_OK(last_.ReserveScratch(last.length));
    if (last.length != 0) last_.UnsafeAppend(last.data, last.length);
  }
  return n_total;
}

Result<int64_t> DeltaByteArrayDecoder::Skip(int64_t count) {
  // Values depend on their predecessors: skipping materialises them.
  return SkipByDecoding(this, count);
}

Status DeltaByteArrayEncode(MemoryPool* pool, const ByteArrayView* values, int64_t count,
                            ResizableBuffer* out) {
  DeltaBinaryPackedEncoder<int32_t> prefixes(pool);
  ResizableBuffer suffix_views(pool);
  STRATA_RETURN_NOT_OK(suffix_views.Resize(count * static_cast<int64_t>(sizeof(ByteArrayView))));
  auto* suffixes = reinterpret_cast<ByteArrayView*>(suffix_views.mutable_data());
  ByteArrayView prev{};
  for (int64_t i = 0; i < count; ++i) {
    const ByteArrayView& v = values[i];
    const uint32_t limit = std::min(prev.length, v.length);
    uint32_t prefix = 0;
    while (prefix < limit && prev.data[prefix] == v.data[prefix]) ++prefix;
    const int32_t p = static_cast<int32_t>(prefix);
    STRATA_RETURN_NOT_OK(prefixes.Put(&p, 1));
    suffixes[i] = {v.data + prefix, v.length - prefix};
    prev = v;
  }
  STRATA_RETURN_NOT_OK(prefixes.FlushTo(out));
  return DeltaLengthByteArrayEncode(pool, suffixes, count, out);
}

}  // namespace strata::parquet
