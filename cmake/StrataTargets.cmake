include(GoogleTest)
# strata_add_layer(NAME SOURCES ... DEPS ...): one static library per layer, so a layer can be
# built and tested on its own. Static libraries do not enforce the direction of dependencies
# (cli -> c -> dataset -> parquet/csv -> ... -> memory -> util); the test `layering`
# (scripts/check-layers) does, from the includes and the matrix in cmake/layers.txt.
function(strata_add_layer name)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPS" ${ARGN})
  add_library(strata_${name} STATIC ${ARG_SOURCES})
  # Installed, the headers are in <prefix>/include (INCLUDES DESTINATION, cmake/StrataInstall.cmake).
  target_include_directories(strata_${name} PUBLIC $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/src>)
  target_compile_features(strata_${name} PUBLIC cxx_std_20)
  target_link_libraries(strata_${name} PUBLIC ${ARG_DEPS})
  # Every layer; cmake/StrataInstall.cmake installs those the library (strata_c) links.
  set_property(GLOBAL APPEND PROPERTY STRATA_LAYERS ${name})
endfunction()

# strata_add_test(NAME SOURCES ... DEPS ...): a GoogleTest binary registered with CTest.
function(strata_add_test name)
  if(NOT STRATA_BUILD_TESTS)
    return()
  endif()
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPS;LABELS" ${ARGN})
  add_executable(${name} ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE ${ARG_DEPS} strata_testing GTest::gtest GTest::gtest_main)
  # Test code is compiled for build speed, the library it tests for its own tree's speed
  # (STRATA_TEST_COMPILE_OPTIONS, set in the top-level CMakeLists.txt).
  target_compile_options(${name} PRIVATE ${STRATA_TEST_COMPILE_OPTIONS})
  set(props ENVIRONMENT "STRATA_SOURCE_DIR=${PROJECT_SOURCE_DIR}")
  if(ARG_LABELS)
    list(APPEND props LABELS "${ARG_LABELS}")
    # `cmake --build B --target strata_tsan_tests` builds every test labelled tsan, which is
    # what scripts/test runs under ThreadSanitizer: the label is the only list.
    if("tsan" IN_LIST ARG_LABELS)
      if(NOT TARGET strata_tsan_tests)
        add_custom_target(strata_tsan_tests)
      endif()
      add_dependencies(strata_tsan_tests ${name})
    endif()
  endif()
  gtest_discover_tests(${name} DISCOVERY_TIMEOUT 60 PROPERTIES ${props})
endfunction()

# strata_test_timeout(TEST SECONDS): TEST's time limit, SECONDS being what it may take in a
# release build; sanitized binaries run several times slower, so there the limit is 4x.
# (ctest --timeout sets only the limit of tests that have none of their own.)
function(strata_test_timeout test seconds)
  if(STRATA_SANITIZE OR STRATA_TSAN)
    math(EXPR seconds "${seconds} * 4")
  endif()
  set_tests_properties(${test} PROPERTIES TIMEOUT ${seconds})
endfunction()

# strata_add_benchmark(NAME SOURCES ... DEPS ...): built with the project, run on demand.
function(strata_add_benchmark name)
  if(NOT STRATA_BUILD_BENCHMARKS)
    return()
  endif()
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPS" ${ARGN})
  add_executable(${name} ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE ${ARG_DEPS} strata_bench_support benchmark::benchmark)
endfunction()

# strata_add_fuzz_target(NAME SOURCES ... DEPS ...): the fuzz target NAME, defined with
# STRATA_FUZZ_TARGET(NAME) (strata/fuzz/fuzz_target.h) in a *_fuzz.cc beside the code it
# exercises; the folder holding the source registers it. fuzz/, added after every other folder,
# links the registered targets into fuzz_regression_test (which replays regressions/NAME/ in every
# build) and, with STRATA_FUZZ=ON, into the libFuzzer binary NAME_fuzz.
function(strata_add_fuzz_target name)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPS" ${ARGN})
  add_library(strata_fuzz_target_${name} OBJECT ${ARG_SOURCES})
  target_link_libraries(strata_fuzz_target_${name} PUBLIC strata_fuzz_support ${ARG_DEPS})
  set_property(GLOBAL APPEND PROPERTY STRATA_FUZZ_TARGETS ${name})
endfunction()
