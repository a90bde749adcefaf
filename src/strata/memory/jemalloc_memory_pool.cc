#include "strata/memory/jemalloc_memory_pool.h"

#include <jemalloc/jemalloc.h>

namespace strata {
namespace {

class JemallocPool final : public MemoryPool {
 public:
  std::string_view backend_name() const override { return "jemalloc"; }

 protected:
  uint8_t* AllocateAligned(int64_t size) override {
    return static_cast<uint8_t*>(mallocx(static_cast<size_t>(size), MALLOCX_ALIGN(kAlignment)));
  }
  uint8_t* ReallocateAligned(uint8_t* ptr, int64_t, int64_t new_size) override {
    return static_cast<uint8_t*>(rallocx(ptr, static_cast<size_t>(new_size), MALLOCX_ALIGN(kAlignment)));
  }
  void FreeAligned(uint8_t* ptr, int64_t size) override {
    sdallocx(ptr, static_cast<size_t>(size), MALLOCX_ALIGN(kAlignment));
  }
};

}  // namespace

std::unique_ptr<MemoryPool> MakeJemallocMemoryPool() { return std::make_unique<JemallocPool>(); }

}  // namespace strata
