#include "strata/memory/mimalloc_memory_pool.h"

#include <mimalloc.h>

namespace strata {
namespace {

class MimallocPool final : public MemoryPool {
 public:
  std::string_view backend_name() const override { return "mimalloc"; }

 protected:
  uint8_t* AllocateAligned(int64_t size) override {
    return static_cast<uint8_t*>(mi_malloc_aligned(static_cast<size_t>(size), kAlignment));
  }
  uint8_t* ReallocateAligned(uint8_t* ptr, int64_t, int64_t new_size) override {
    return static_cast<uint8_t*>(mi_realloc_aligned(ptr, static_cast<size_t>(new_size), kAlignment));
  }
  void FreeAligned(uint8_t* ptr, int64_t) override { mi_free(ptr); }
};

}  // namespace

std::unique_ptr<MemoryPool> MakeMimallocMemoryPool() { return std::make_unique<MimallocPool>(); }

}  // namespace strata
