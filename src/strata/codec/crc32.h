// CRC-32 as Parquet's page checksum uses it: the ISO-HDLC polynomial (0x04C11DB7, reflected),
// the one gzip, PNG and zlib's crc32() compute. Computed over a page's bytes after its
// header, compressed (and encrypted) as they are stored.
#pragma once

#include <cstdint>
#include <span>

namespace strata::codec {

// CRC-32 of `data`. `seed` is the CRC of the bytes before `data`, so a checksum can be
// computed piecewise: Crc32(b, Crc32(a)) == Crc32(a followed by b). Crc32({}) == 0.
uint32_t Crc32(std::span<const uint8_t> data, uint32_t seed = 0);

}  // namespace strata::codec
