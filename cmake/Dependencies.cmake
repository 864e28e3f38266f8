# Header-only dependencies: the Debian packages' CMake configs, or headers under RLAB_DEPS_DIR
# (the GPU machine has no -dev packages; scripts/gpu-run.sh brings the headers along).

function(rlab_header_target name header)
  if(TARGET ${name})
    return()
  endif()
  find_path(${name}_INCLUDE ${header} HINTS ${RLAB_DEPS_DIR}/include /usr/include REQUIRED)
  add_library(${name} INTERFACE IMPORTED GLOBAL)
  target_include_directories(${name} SYSTEM INTERFACE ${${name}_INCLUDE})
endfunction()

find_package(nlohmann_json 3 CONFIG QUIET)
if(NOT TARGET nlohmann_json::nlohmann_json)
  rlab_header_target(nlohmann_json::nlohmann_json nlohmann/json.hpp)
endif()

find_package(CLI11 CONFIG QUIET)
if(NOT TARGET CLI11::CLI11)
  rlab_header_target(CLI11::CLI11 CLI/CLI.hpp)
endif()

find_package(tomlplusplus CONFIG QUIET)
if(NOT TARGET tomlplusplus::tomlplusplus)
  rlab_header_target(tomlplusplus::tomlplusplus toml++/toml.h)
endif()

find_package(doctest CONFIG QUIET)
if(NOT TARGET doctest::doctest)
  rlab_header_target(doctest::doctest doctest/doctest.h)
endif()
if(EXISTS /usr/lib/cmake/doctest/doctest.cmake)
  include(/usr/lib/cmake/doctest/doctest.cmake)
elseif(RLAB_DEPS_DIR AND EXISTS ${RLAB_DEPS_DIR}/cmake/doctest.cmake)
  include(${RLAB_DEPS_DIR}/cmake/doctest.cmake)
else()
  message(FATAL_ERROR "doctest.cmake not found: install doctest-dev (scripts/install-deps.sh)")
endif()

# zlib reads gzip-compressed traces (the lessons' GPU recordings are committed as .json.gz). Debian's
# zlib1g-dev, or zlib.h and libz.a under RLAB_DEPS_DIR on the GPU machine (scripts/prepare-gpu-deps.sh).
if(RLAB_DEPS_DIR AND EXISTS ${RLAB_DEPS_DIR}/lib/libz.a)
  set(ZLIB_ROOT ${RLAB_DEPS_DIR})
endif()
find_package(ZLIB REQUIRED)
