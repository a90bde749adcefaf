#include "strata/memory/memory_charge.h"

namespace strata {

Result<MemoryCharge> MemoryCharge::Make(MemoryPool* pool, int64_t bytes) {
  MemoryCharge charge(pool);
  STRATA_RETURN_NOT_OK(charge.Grow(bytes));
  return charge;
}

MemoryCharge& MemoryCharge::operator=(MemoryCharge&& other) noexcept {
  if (this != &other) {
    Release();
    pool_ = other.pool_;
    bytes_ = other.bytes_;
    other.bytes_ = 0;
  }
  return *this;
}

Status MemoryCharge::Grow(int64_t delta) {
  if (delta < 0) return Status::Invalid("memory charge cannot grow by {} bytes", delta);
  if (pool_ != nullptr) STRATA_RETURN_NOT_OK(pool_->Charge(delta));
  bytes_ += delta;
  return Status::OK();
}

Status MemoryCharge::Resize(int64_t total) {
  if (total < 0) return Status::Invalid("memory charge cannot be {} bytes", total);
  if (total >= bytes_) return Grow(total - bytes_);
  if (pool_ != nullptr) pool_->ReleaseCharge(bytes_ - total);
  bytes_ = total;
  return Status::OK();
}

void MemoryCharge::Release() {
  if (pool_ != nullptr) pool_->ReleaseCharge(bytes_);
  bytes_ = 0;
}

}  // namespace strata
