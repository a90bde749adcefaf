// A MemoryPool on jemalloc. Only in binaries that link strata_memory_jemalloc: Debian's
// jemalloc also replaces malloc for the whole process, so it is kept out of the library.
#pragma once

#include <memory>

#include "strata/memory/memory_pool.h"

namespace strata {
std::unique_ptr<MemoryPool> MakeJemallocMemoryPool();
}
