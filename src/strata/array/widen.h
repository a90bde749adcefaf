// Widen: lossless casts between column types, used when the files of one dataset disagree on
// a column's type (int32 in one file, int64 in another) and a scan must present one type.
// Only casts under which every value of the source type is exactly representable are offered.
#pragma once

#include "strata/array/array.h"
#include "strata/memory/memory_pool.h"
#include "strata/util/result.h"

namespace strata {

// True when every value of `from` is exactly representable in `to` and Widen supports the
// pair. Supported:
//   identical types;
//   intN -> intM, uintN -> uintM, uintN -> intM (M > N);
//   int8/16, uint8/16 -> float32; int8/16/32, uint8/16/32 -> float64;
//   float16 -> float32/float64, float32 -> float64;
//   string -> large_string, binary -> large_binary, (large_)string -> string_view,
//   (large_)binary -> binary_view;
//   date32 -> date64; timestamp (same time zone), duration, time32 -> time32, time64 -> time64,
//   time32 -> time64, from a coarser to a finer unit (values that overflow fail at Widen);
//   decimal128/256(p1, s) -> decimal128/256(p2, s) with p2 >= p1 (128 -> 256 sign-extends);
//   dictionary<v1> -> v2 (decoded; v1 widens to v2, v1 fixed-width or (large_)binary/string);
//   dictionary<i, v1> -> dictionary<i, v2> (the dictionary widened, indices shared);
//   list / large_list<a> -> list / large_list<b> and struct fields by position, when the
//   children widen and no non-nullable field becomes nullable-in-source.
bool CanWiden(const DataType& from, const DataType& to);

// `array` as type `to`. Invalid when CanWiden(array.type(), to) is false, or a value does not
// fit (a timestamp past the int64 range in a finer unit; a view data buffer over 2 GiB). The
// validity bitmap is shared where the layout allows (zero-copy), values are converted into
// buffers of the exact size.
Result<Array> Widen(const Array& array, const TypePtr& to, MemoryPool* pool);

}  // namespace strata
