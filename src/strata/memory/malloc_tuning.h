// Process-wide glibc malloc settings for programs that move data in bulk (the CLI, and the
// benchmarks that should measure what the CLI runs).
#pragma once

namespace strata {

// By default glibc serves blocks above 128 KiB with fresh mmap()s and returns them (and the
// heap's free top) to the kernel on free(): a scan that allocates each batch's buffers anew,
// or a writer made per file, then pays a page fault and zeroing for every 4 KiB it touches
// again (~15% of a lineitem scan in the kernel; on this project's VMs a writer benchmark ran
// 3.5 or 34 ms per file depending on whether the heap had been trimmed in between). This keeps
// blocks of up to 64 MiB in the heap and trims only past 128 MiB of free top. The pool's own
// figures are unchanged by it; blocks of 8 MiB and more are mapped by the system pool itself
// (LargeBlockCache). A no-op where malloc is not glibc's.
void KeepFreedMemoryForReuse();

// Every thread allocates from glibc's main arena instead of an arena of its own. Memory freed
// in one arena serves only the threads of that arena, so with decoding and encoding moving
// between pool workers each arena grows to its own peak. For a program that allocates little
// per second (convert of lineitem: 19,000 allocations in 2 s at 2 threads) the shared lock
// costs nothing measurable and peak RSS drops (lineitem convert at 2 threads: 119 -> 107 MiB,
// same time); a scan, which allocates per batch, measured 8% slower with it. Call it before
// any other thread allocates. A no-op where malloc is not glibc's.
void UseOneMallocArena();

}  // namespace strata
