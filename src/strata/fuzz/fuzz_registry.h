// The fuzz targets the folders register with strata_add_fuzz_target() in their CMakeLists, by
// name: the table behind RegisteredTargets() is generated from those calls at configure time
// (fuzz_registry.cc.in), so the regression test replays exactly the targets that are built.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

namespace strata::fuzz {

struct RegisteredTarget {
  const char* name;  // NAME of STRATA_FUZZ_TARGET(NAME), also regressions/NAME/
  int (*function)(const uint8_t* data, size_t size);
};

// Every registered target, in the order the folders registered them; the array is static.
std::span<const RegisteredTarget> RegisteredTargets();

}  // namespace strata::fuzz
