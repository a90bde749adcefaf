# Fails when a library source reaches for the process's thread pool (exec/process_pool.h):
# only the edges choose parallelism. Run by the test process_pool_edges_only:
#   cmake -DSTRATA_SOURCE_DIR=<checkout> -P check_process_pool_edges.cmake
file(GLOB_RECURSE sources RELATIVE ${STRATA_SOURCE_DIR}
     ${STRATA_SOURCE_DIR}/src/strata/*.h ${STRATA_SOURCE_DIR}/src/strata/*.cc)
set(offenders "")
foreach(source IN LISTS sources)
  # The edges: the CLI, the C API, tests, benchmarks, fuzz targets, and the pool's own files.
  if(source MATCHES "^src/strata/(cli|c|fuzz|testing)/" OR source MATCHES "_(test|benchmark|fuzz)\\.cc$"
     OR source MATCHES "^src/strata/exec/process_pool\\.(h|cc)$" OR source MATCHES "/testing/")
    continue()
  endif()
  file(STRINGS ${STRATA_SOURCE_DIR}/${source} hits REGEX "#include \"strata/exec/process_pool\\.h\"|(ProcessThreadPool|ProcessExecutor|DefaultThreadPool)\\(")
  if(hits)
    list(APPEND offenders "${source}: ${hits}")
  endif()
endforeach()
if(offenders)
  list(JOIN offenders "\n  " text)
  message(FATAL_ERROR "library sources reach for the process's thread pool (take an exec::Executor through the options instead):\n  ${text}")
endif()
list(LENGTH sources checked)
message(STATUS "no library source reaches for the process's thread pool (${checked} sources looked at)")
