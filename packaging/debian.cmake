# packaging/debian.cmake — `cpack -G DEB` in the build folder: reduction-lab_VERSION_amd64.deb installing to /usr.
# Depends is computed from the binaries by dpkg-shlibdeps (dpkg-dev); the font is not linked, so it is named here.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME reduction-lab)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_VENDOR "Reduction Lab")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "teach GPU parallel reduction by showing it happen")
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION
"teach GPU parallel reduction by showing it happen
 Reduction Lab records every step of a parallel reduction (loads, warp shuffles
 with their masks, shared-memory stores, barriers, block partials, the grid
 stage) on a CUDA GPU or on a CPU emulator of one, and shows the record: the
 classroom reduction-lab-qt plays a course of lessons for a projector, the lab bench
 reduction-lab has every knob and bug switch, and rlab traces, checks,
 analyses and benchmarks on the command line. Without an NVIDIA driver the
 emulator is used.")
set(RLAB_PACKAGE_MAINTAINER "Reduction Lab developers" CACHE STRING "Maintainer field of the Debian package")
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${RLAB_PACKAGE_MAINTAINER}")
set(CPACK_DEBIAN_PACKAGE_SECTION education)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)                 # reduction-lab_0.1.0_amd64.deb
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "fonts-dejavu-core")  # read by path (core/data_paths.cpp search_font)
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "clang-14")         # compiles a plain CUDA file's device side (student/cuda_compile)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)                               # RelWithDebInfo's debug info stays in the build folder
include(CPack)
