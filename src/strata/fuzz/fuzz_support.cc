#include "strata/fuzz/fuzz_target.h"

#include <cstdio>
#include <cstdlib>
#include <string>

namespace strata::fuzz {
namespace {

std::string& CurrentInputName() {
  static std::string name;
  return name;
}

}  // namespace

void SetCurrentInputName(std::string_view name) { CurrentInputName() = std::string(name); }

void Fail(const char* file, int line, const char* condition, std::string_view detail) {
  std::fprintf(stderr, "strata fuzz check failed at %s:%d: %s\n", file, line, condition);
  if (!detail.empty()) std::fprintf(stderr, "  %.*s\n", static_cast<int>(detail.size()), detail.data());
  if (!CurrentInputName().empty()) std::fprintf(stderr, "  input: %s\n", CurrentInputName().c_str());
  std::abort();
}

FuzzPool::FuzzPool() : pool_(MakeSystemMemoryPool()) { pool_->set_limit(kPoolLimitBytes); }

FuzzPool::~FuzzPool() {
  const int64_t leaked = pool_->bytes_in_use();
  if (leaked != 0) {
    const std::string detail = std::to_string(leaked) + " bytes still in use";
    Fail(__FILE__, __LINE__, "pool->bytes_in_use() == 0", detail);
  }
}

void CheckError(const Status& status, const char* what) {
  if (status.ok()) return;
  if (status.IsOutOfMemory()) {
    const std::string detail = std::string(what) + ": " + status.ToString();
    Fail(__FILE__, __LINE__, "allocation within the fuzz pool limit", detail);
  }
  if (status.message().empty()) Fail(__FILE__, __LINE__, "error with a message", what);
}

}  // namespace strata::fuzz
