# Every dependency comes from Debian packages (see scripts/install-deps). A dependency that an
# installed layer links must be found again by cmake/strataConfig.cmake.in as well.
find_package(PkgConfig REQUIRED)
find_package(Threads REQUIRED)
find_package(ZLIB REQUIRED)
pkg_check_modules(ZSTD REQUIRED IMPORTED_TARGET libzstd)
pkg_check_modules(LZ4 REQUIRED IMPORTED_TARGET liblz4)
pkg_check_modules(BROTLIDEC REQUIRED IMPORTED_TARGET libbrotlidec)
pkg_check_modules(BROTLIENC REQUIRED IMPORTED_TARGET libbrotlienc)
# xxHash64: the hash of Parquet Bloom filters (src/strata/parquet/stats/bloom_filter).
pkg_check_modules(XXHASH REQUIRED IMPORTED_TARGET libxxhash)
pkg_check_modules(JEMALLOC IMPORTED_TARGET jemalloc)
find_library(SNAPPY_LIBRARY snappy REQUIRED)
find_path(SNAPPY_INCLUDE_DIR snappy.h REQUIRED)
# A target rather than a path, so that the installed package finds snappy again on the
# consumer's machine (cmake/strataConfig.cmake.in does the same).
if(NOT TARGET Snappy::snappy)
  add_library(Snappy::snappy UNKNOWN IMPORTED)
  set_target_properties(Snappy::snappy PROPERTIES IMPORTED_LOCATION "${SNAPPY_LIBRARY}"
                                                  INTERFACE_INCLUDE_DIRECTORIES "${SNAPPY_INCLUDE_DIR}")
endif()
# LZO (Parquet codec 3): Debian's liblzo2-dev ships no CMake config; the same imported target
# is made again by cmake/strataConfig.cmake.in.
find_library(LZO2_LIBRARY lzo2 REQUIRED)
find_path(LZO2_INCLUDE_DIR lzo/lzo1x.h REQUIRED)
if(NOT TARGET Lzo::lzo2)
  add_library(Lzo::lzo2 UNKNOWN IMPORTED)
  set_target_properties(Lzo::lzo2 PROPERTIES IMPORTED_LOCATION "${LZO2_LIBRARY}"
                                             INTERFACE_INCLUDE_DIRECTORIES "${LZO2_INCLUDE_DIR}")
endif()
find_package(mimalloc CONFIG QUIET)
find_package(fmt REQUIRED)
# Arrow IPC metadata (src/strata/ipc) is FlatBuffers; Debian ships the runtime headers and a static library.
find_package(FlatBuffers CONFIG REQUIRED)
find_package(CLI11 CONFIG REQUIRED)
find_package(CURL)
if(STRATA_BUILD_TESTS)
  find_package(GTest REQUIRED)
endif()
if(STRATA_BUILD_BENCHMARKS)
  find_package(benchmark REQUIRED)
endif()
