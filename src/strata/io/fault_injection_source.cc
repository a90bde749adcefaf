#include "strata/io/fault_injection_source.h"

#include <algorithm>
#include <cstring>

namespace strata {

FaultInjectionSource::FaultInjectionSource(std::shared_ptr<RandomAccessSource> inner, std::vector<Fault> faults)
    : inner_(std::move(inner)), faults_(std::move(faults)) {}

FaultInjectionSource::FaultInjectionSource(std::shared_ptr<RandomAccessSource> inner, RandomFaultOptions options)
    : inner_(std::move(inner)), random_(true), random_options_(options), rng_(options.seed) {}

Result<int64_t> FaultInjectionSource::Size() {
  STRATA_ASSIGN_OR_RETURN(int64_t size, inner_->Size());
  for (const Fault& fault : faults_) {
    if (fault.kind == Fault::Kind::kTruncate) size = std::min(size, std::max<int64_t>(fault.offset, 0));
  }
  return size;
}

FaultInjectionSource::ReadPlan FaultInjectionSource::Plan(int64_t offset, int64_t length) {
  ReadPlan plan;
  std::lock_guard<std::mutex> lock(mutex_);
  if (random_) {
    std::uniform_real_distribution<double> chance(0.0, 1.0);
    if (chance(rng_) < random_options_.fail_probability) {
      ++faults_injected_;
      plan.error = Status::IOError("injected fault: read of {} bytes at offset {} of '{}' failed", length, offset,
                                   inner_->name());
      return plan;
    }
    if (length > 0 && chance(rng_) < random_options_.corrupt_probability) {
      Fault flip;
      flip.kind = Fault::Kind::kCorrupt;
      flip.offset = offset + static_cast<int64_t>(rng_() % static_cast<uint64_t>(length));
      flip.mask = static_cast<uint8_t>(1 + rng_() % 255);
      plan.corruptions.push_back(flip);
    }
  } else {
    const int64_t end = offset + length;
    for (const Fault& fault : faults_) {
      const bool overlaps = fault.offset < end && offset < fault.offset + fault.length;
      if (fault.kind == Fault::Kind::kFail && overlaps) {
        ++faults_injected_;
        plan.error = Status::IOError("injected fault: read of {} bytes at offset {} of '{}' touches offset {}",
                                     length, offset, inner_->name(), fault.offset);
        return plan;
      }
      if (fault.kind == Fault::Kind::kTruncate && end > fault.offset) {
        ++faults_injected_;
        plan.error = Status::IOError("read of {} bytes at offset {} is outside '{}' ({} bytes after truncation)",
                                     length, offset, inner_->name(), fault.offset);
        return plan;
      }
      if (fault.kind == Fault::Kind::kCorrupt && overlaps && fault.mask != 0) plan.corruptions.push_back(fault);
    }
  }
  if (!plan.corruptions.empty()) ++reads_corrupted_;
  return plan;
}

void FaultInjectionSource::ApplyCorruptions(const std::vector<Fault>& corruptions, int64_t offset, int64_t length,
                                            uint8_t* out) {
  for (const Fault& fault : corruptions) {
    const int64_t begin = std::max(offset, fault.offset);
    const int64_t end = std::min(offset + length, fault.offset + fault.length);
    for (int64_t i = begin; i < end; ++i) out[i - offset] ^= fault.mask;
  }
}

Status FaultInjectionSource::ReadAt(int64_t offset, int64_t length, uint8_t* out) {
  ReadPlan plan = Plan(offset, length);
  STRATA_RETURN_NOT_OK(plan.error);
  STRATA_RETURN_NOT_OK(inner_->ReadAt(offset, length, out));
  ApplyCorruptions(plan.corruptions, offset, length, out);
  return Status::OK();
}

Result<std::shared_ptr<Buffer>> FaultInjectionSource::ReadBufferAt(int64_t offset, int64_t length, MemoryPool* pool) {
  ReadPlan plan = Plan(offset, length);
  STRATA_RETURN_NOT_OK(plan.error);
  STRATA_ASSIGN_OR_RETURN(auto buffer, inner_->ReadBufferAt(offset, length, pool));
  if (plan.corruptions.empty()) return buffer;
  // The inner bytes may be shared (memory sources, mappings): flip a private copy.
  STRATA_ASSIGN_OR_RETURN(auto copy, AllocateBuffer(pool, length));
  if (length > 0) std::memcpy(copy->mutable_data(), buffer->data(), static_cast<size_t>(length));
  ApplyCorruptions(plan.corruptions, offset, length, copy->mutable_data());
  return std::shared_ptr<Buffer>(std::move(copy));
}

int64_t FaultInjectionSource::faults_injected() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return faults_injected_;
}

int64_t FaultInjectionSource::reads_corrupted() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return reads_corrupted_;
}

}  // namespace strata
