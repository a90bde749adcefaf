// Byte sizes as people write them ("512MiB", "1.5G", "64k", "4096"), for limits given on the
// command line and in option strings, and back to text for messages.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "strata/util/result.h"

namespace strata {

// A number (integer or decimal) and an optional unit: B, K/KiB, M/MiB, G/GiB, T/TiB (powers of
// 1024; a bare K, M, G or T too, as sort -S and JVM flags read them) or KB, MB, GB, TB (powers
// of 1000). Case-insensitive, spaces allowed between number and unit. Invalid or negative
// text, or a size past 2^63 bytes, is an error naming `what`.
Result<int64_t> ParseByteSize(std::string_view text, std::string_view what = "size");

// "512 MiB", "1.5 GiB", "4096 bytes": the largest binary unit that keeps one or more whole units.
std::string FormatByteSize(int64_t bytes);

}  // namespace strata
