// A MemoryPool on mimalloc. Only in binaries that link strata_memory_mimalloc.
#pragma once

#include <memory>

#include "strata/memory/memory_pool.h"

namespace strata {
std::unique_ptr<MemoryPool> MakeMimallocMemoryPool();
}
