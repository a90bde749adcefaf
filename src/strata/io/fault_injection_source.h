// FaultInjectionSource: a RandomAccessSource wrapper that makes reads fail, makes the file look
// cut short, or flips bytes, at chosen offsets or at random from a seed. Tests put it between a
// reader and a real file to check that every fault becomes a clean error (or, for flipped
// bytes, an error or data of the right shape), with nothing leaked.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <random>
#include <string>
#include <vector>

#include "strata/io/random_access_source.h"

namespace strata {

struct Fault {
  enum class Kind {
    kFail,      // a read touching [offset, offset + length) returns IOError
    kTruncate,  // the source ends at `offset`: Size() says so, reads past it are IOError
    kCorrupt,   // bytes in [offset, offset + length) read back XORed with `mask`
  };
  Kind kind = Kind::kFail;
  int64_t offset = 0;
  int64_t length = 1;  // bytes affected (kFail, kCorrupt); ignored by kTruncate
  uint8_t mask = 0xFF;  // kCorrupt; a zero mask changes nothing
};

struct RandomFaultOptions {
  uint64_t seed = 0;
  // Chance that a read fails with IOError.
  double fail_probability = 0;
  // Chance that a read has one byte in its range flipped (by a random non-zero mask).
  double corrupt_probability = 0;
};

class FaultInjectionSource final : public RandomAccessSource {
 public:
  // Faults at fixed places. A read affected by several faults sees all of them.
  FaultInjectionSource(std::shared_ptr<RandomAccessSource> inner, std::vector<Fault> faults);
  // Faults drawn per read from `options.seed`: the same sequence of reads sees the same faults.
  FaultInjectionSource(std::shared_ptr<RandomAccessSource> inner, RandomFaultOptions options);

  Result<int64_t> Size() override;
  Status ReadAt(int64_t offset, int64_t length, uint8_t* out) override;
  // Zero-copy from the inner source when the range is untouched; a copy from `pool` with the
  // flipped bytes when it is corrupted.
  Result<std::shared_ptr<Buffer>> ReadBufferAt(int64_t offset, int64_t length, MemoryPool* pool) override;
  bool read_buffers_keepable() const override { return inner_->read_buffers_keepable(); }
  const std::string& name() const override { return inner_->name(); }
  int64_t read_count() const override { return inner_->read_count(); }

  // How many reads failed and how many had bytes flipped so far.
  int64_t faults_injected() const;
  int64_t reads_corrupted() const;

 private:
  // The fault this read meets, decided once per read: an error, or the corruptions to apply.
  struct ReadPlan {
    Status error;
    std::vector<Fault> corruptions;
  };
  ReadPlan Plan(int64_t offset, int64_t length);
  static void ApplyCorruptions(const std::vector<Fault>& corruptions, int64_t offset, int64_t length, uint8_t* out);

  std::shared_ptr<RandomAccessSource> inner_;
  std::vector<Fault> faults_;
  bool random_ = false;
  RandomFaultOptions random_options_;
  mutable std::mutex mutex_;  // the generator and counters: sources may be read from many threads
  std::mt19937_64 rng_;
  int64_t faults_injected_ = 0;
  int64_t reads_corrupted_ = 0;
};

}  // namespace strata
