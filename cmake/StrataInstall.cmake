# Install rules (cmake --install BUILD [--prefix P]) and libstrata.so. Included from the
# top-level CMakeLists.txt after every layer is defined. Installs:
#   include/strata/<layer>/*.h       the public headers (not tests', benchmarks', fuzzing's,
#                                    the tool's or *_internal.h), and strata/version.h
#   lib/libstrata_<layer>.a          every library layer; CMake targets strata::<layer>
#   lib/libstrata.so.<version>       every library layer in one shared library (strata::strata,
#                                    SONAME libstrata.so.<major>): the C API and the C++ API
#   bin/strata                       the command-line tool
#   lib/cmake/strata/                strataConfig.cmake, strataConfigVersion.cmake, the targets
#   lib/pkgconfig/strata.pc          -lstrata (the shared library)
# scripts/check-install (CTest: install_consumers) installs into a scratch prefix and builds C
# and C++ consumers against it both ways.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(STRATA_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/strata)

# The installed layers: the C API's layer and every layer it links, directly or not (that is
# the whole library). Test and benchmark support layers, the tool's commands (cli) and the
# allocator backends that replace malloc when linked are not reached, so not installed. A
# library layer that strata_c does not link would be added to STRATA_INSTALL_ROOTS.
set(STRATA_INSTALL_ROOTS c)
get_property(strata_all_layers GLOBAL PROPERTY STRATA_LAYERS)
set(STRATA_INSTALLED_LAYERS)
set(strata_pending ${STRATA_INSTALL_ROOTS})
while(strata_pending)
  list(POP_FRONT strata_pending layer)
  if(layer IN_LIST STRATA_INSTALLED_LAYERS)
    continue()
  endif()
  list(APPEND STRATA_INSTALLED_LAYERS ${layer})
  get_target_property(strata_links strata_${layer} LINK_LIBRARIES)
  foreach(link IN LISTS strata_links)
    if(link MATCHES "^strata_(.+)$" AND CMAKE_MATCH_1 IN_LIST strata_all_layers)
      list(APPEND strata_pending ${CMAKE_MATCH_1})
    endif()
  endforeach()
endwhile()
message(STATUS "Installed layers: ${STRATA_INSTALLED_LAYERS}")

set(strata_layer_targets)
foreach(layer IN LISTS STRATA_INSTALLED_LAYERS)
  # strata_parquet is strata::parquet to a consumer; the archive keeps its name.
  set_target_properties(strata_${layer} PROPERTIES EXPORT_NAME ${layer})
  list(APPEND strata_layer_targets strata_${layer})
endforeach()

install(TARGETS ${strata_layer_targets} EXPORT strataTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT devel
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})

# libstrata.so: the layers' own (position-independent) objects, so nothing is compiled
# twice; linking the layers as well brings their third-party libraries (the archives add no
# objects, every symbol is already defined). The target is strata_shared because the tool
# is `strata`; consumers see libstrata.so and strata::strata.
if(STRATA_BUILD_SHARED)
  add_library(strata_shared SHARED)
  foreach(layer IN LISTS STRATA_INSTALLED_LAYERS)
    target_sources(strata_shared PRIVATE $<TARGET_OBJECTS:strata_${layer}>)
  endforeach()
  target_link_libraries(strata_shared PRIVATE ${strata_layer_targets})
  # util/status.h formats with fmt: consumers call into libfmt themselves.
  target_link_libraries(strata_shared PUBLIC fmt::fmt)
  target_include_directories(strata_shared INTERFACE $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/src>)
  target_compile_features(strata_shared INTERFACE cxx_std_20)
  if(CURL_FOUND)
    target_compile_definitions(strata_shared INTERFACE STRATA_WITH_HTTP=1)
  endif()
  # Fail at link time, not in a consumer, on a symbol no layer or dependency defines (not
  # under sanitizers: clang leaves their runtimes to the executable).
  if(NOT STRATA_SANITIZE AND NOT STRATA_TSAN AND NOT STRATA_FUZZ)
    target_link_options(strata_shared PRIVATE LINKER:--no-undefined)
  endif()
  set_target_properties(strata_shared PROPERTIES
    OUTPUT_NAME strata EXPORT_NAME strata LINKER_LANGUAGE CXX
    VERSION ${PROJECT_VERSION} SOVERSION ${PROJECT_VERSION_MAJOR})
  install(TARGETS strata_shared EXPORT strataTargets
          LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT runtime NAMELINK_COMPONENT devel
          INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
endif()

if(TARGET strata)
  install(TARGETS strata RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT runtime)
endif()

# Headers keep their strata/<layer>/x.h paths. Picked at install time, so a new header is
# installed without reconfiguring.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/src/strata DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} COMPONENT devel
        FILES_MATCHING PATTERN "*.h"
        REGEX "/src/strata/(cli|fuzz|testing)$" EXCLUDE
        REGEX "/src/strata/parquet/(testing|io_tests)$" EXCLUDE
        REGEX "/testdata$" EXCLUDE
        REGEX "_(test|fuzz|bench|benchmark)_util\\.h$" EXCLUDE
        REGEX "/[^/]*fuzz[^/]*\\.h$" EXCLUDE
        REGEX "_internal\\.h$" EXCLUDE
        # The ipc layer's internals (FlatBuffers layout, message framing, body codecs).
        REGEX "/ipc/(flatbuffer_format|flatbuffer_reader|schema_table|ipc_message|array_loader|body_builder|body_compression)\\.h$" EXCLUDE
        # Headers of layers that are not installed (test support, allocator backends).
        REGEX "/(duckdb_fixture|nginx_test_server|fault_injection_source|integration_json[a-z_]*)\\.h$" EXCLUDE
        REGEX "/(jemalloc|mimalloc)_memory_pool\\.h$" EXCLUDE)
configure_file(${PROJECT_SOURCE_DIR}/cmake/version.h.in ${PROJECT_BINARY_DIR}/install/strata/version.h)
install(FILES ${PROJECT_BINARY_DIR}/install/strata/version.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/strata
        COMPONENT devel)

# The CMake package. The config finds the layers' third-party libraries again.
if(CURL_FOUND)
  set(STRATA_PACKAGE_WITH_CURL ON)
else()
  set(STRATA_PACKAGE_WITH_CURL OFF)
endif()
install(EXPORT strataTargets NAMESPACE strata:: DESTINATION ${STRATA_INSTALL_CMAKEDIR} COMPONENT devel)
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/strataConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/install/strataConfig.cmake
                              INSTALL_DESTINATION ${STRATA_INSTALL_CMAKEDIR})
# 0.x: a minor version may break the API, so only the same major.minor is compatible.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/install/strataConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/install/strataConfig.cmake ${PROJECT_BINARY_DIR}/install/strataConfigVersion.cmake
        DESTINATION ${STRATA_INSTALL_CMAKEDIR} COMPONENT devel)

# pkg-config, relocatable: paths relative to the .pc file's own directory.
if(STRATA_BUILD_SHARED)
  file(RELATIVE_PATH STRATA_PC_TO_PREFIX /prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig /prefix)
  string(REGEX REPLACE "/$" "" STRATA_PC_TO_PREFIX "${STRATA_PC_TO_PREFIX}")
  configure_file(${PROJECT_SOURCE_DIR}/cmake/strata.pc.in ${PROJECT_BINARY_DIR}/install/strata.pc @ONLY)
  install(FILES ${PROJECT_BINARY_DIR}/install/strata.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig
          COMPONENT devel)
endif()
