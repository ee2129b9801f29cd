# What `cmake --install` puts under the prefix, and the Debian package that `cpack -G DEB`
# makes of the same files (docs/install.md). The data folder mirrors the source tree's
# layout, so that the code finds a file under it as it does under the source tree
# (stdlib/data_root.h):
#   bin/kcontract
#   include/kcontract/abi.h, opencl.h       the kernel ABI and the OpenCL helpers, for kernel authors
#   include/kcontract/kcontract.h           the C++ API; lib/libkcontract.a, lib/cmake/kcontract/ its CMake package
#   share/kcontract/                        the data folder
#     stdlib/ops/                           the standard ops and their reference kernels
#     contracts/                            the classes, the calibration manifest and its kernels, the incidents
#     include/kcontract/                    the same headers: kernels are built with -I here
#     adaptors/                             the exec adaptors (the PyTorch adaptor)
#     backends/cuda/                        the sources the CUDA backend compiles at run time
#     backends/ptx/runtime/                 the CUDA runtime shim the ptx backend compiles at run time
#     docs/catalog.md                       the catalogue of the standard classes
#     examples/..., tests/e2e/kernels/...   the kernels of the calibration manifest that live
#                                           outside contracts/ and stdlib/ (it names them ../PATH)
set(KC_DATA ${CMAKE_INSTALL_DATADIR}/kcontract)

# Three components, all in the one Debian package: runtime (the binary), headers, and data
# (the data folder alone: scripts/bundle.sh installs only it, with --component data).
install(TARGETS kcontract RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT runtime)
install(FILES include/kcontract/abi.h include/kcontract/opencl.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/kcontract
  COMPONENT headers)
install(DIRECTORY include/kcontract DESTINATION ${KC_DATA}/include COMPONENT data)
# The C++ API and its CMake package: find_package(kcontract) -> kcontract::kcontract, which
# knows the binary installed beside it (KCONTRACT_BINARY, relative to the package: relocatable).
install(FILES include/kcontract/kcontract.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/kcontract COMPONENT headers)
install(TARGETS kcontract_api EXPORT kcontractTargets ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT headers)
install(EXPORT kcontractTargets NAMESPACE kcontract:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/kcontract COMPONENT headers)
include(CMakePackageConfigHelpers)
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/kcontractConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/kcontractConfig.cmake INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/kcontract)
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/kcontractConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/kcontractConfig.cmake ${CMAKE_CURRENT_BINARY_DIR}/kcontractConfigVersion.cmake
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/kcontract COMPONENT headers)
install(DIRECTORY stdlib/ops DESTINATION ${KC_DATA}/stdlib COMPONENT data)
install(DIRECTORY contracts DESTINATION ${KC_DATA} COMPONENT data)
install(DIRECTORY adaptors DESTINATION ${KC_DATA} COMPONENT data USE_SOURCE_PERMISSIONS
  PATTERN __pycache__ EXCLUDE PATTERN *.pyc EXCLUDE)
install(FILES backends/cuda/noise_kernel.cu DESTINATION ${KC_DATA}/backends/cuda COMPONENT data)
install(FILES backends/cuda/support/kc_cuda_support.cu backends/cuda/support/kc_cuda_support.h
  DESTINATION ${KC_DATA}/backends/cuda/support COMPONENT data)
install(FILES backends/ptx/runtime/kc_ptx_runtime.cpp backends/ptx/runtime/kc_ptx_hooks.h
  DESTINATION ${KC_DATA}/backends/ptx/runtime COMPONENT data)
install(FILES docs/catalog.md DESTINATION ${KC_DATA}/docs COMPONENT data)
# The Python package and its pytest plugin (docs/install.md, "Python"): pip-installable from
# here; kcontract.find_binary() finds PREFIX/bin/kcontract from it.
install(DIRECTORY python DESTINATION ${KC_DATA} COMPONENT data PATTERN __pycache__ EXCLUDE PATTERN *.pyc EXCLUDE
  PATTERN *.egg-info EXCLUDE PATTERN build EXCLUDE)

# The manifest's kernels outside contracts/ and stdlib/ ("conforming: ../examples/...") keep
# their paths relative to it; read from the manifest, so a new pair needs nothing here.
set(kc_manifest ${PROJECT_SOURCE_DIR}/contracts/calibration.yaml)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${kc_manifest})
file(STRINGS ${kc_manifest} kc_lines REGEX "^[ -]*(conforming|violating|contract): *\\.\\./")
set(kc_outside)
foreach(line IN LISTS kc_lines)
  string(REGEX REPLACE "^[ -]*[a-z]+: *\\.\\./([^: ]+).*$" "\\1" path "${line}")
  if(NOT path MATCHES "^(stdlib|contracts)/")
    list(APPEND kc_outside ${path})
  endif()
endforeach()
list(REMOVE_DUPLICATES kc_outside)
foreach(path IN LISTS kc_outside)
  if(NOT EXISTS ${PROJECT_SOURCE_DIR}/${path})
    message(FATAL_ERROR "contracts/calibration.yaml names ../${path}, which does not exist")
  endif()
  get_filename_component(dir ${path} DIRECTORY)
  install(FILES ${path} DESTINATION ${KC_DATA}/${dir} COMPONENT data)
endforeach()

# The Debian package: cpack -G DEB (in the build folder) makes kcontract_VERSION_ARCH.deb.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME kcontract)
set(CPACK_PACKAGE_VENDOR kcontract)
set(CPACK_PACKAGE_CONTACT "kcontract developers")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "contracts for GPU kernels, and the checker that enforces them")
set(CPACK_PACKAGE_DESCRIPTION "A .kcontract file beside a kernel states what it must do; kcontract checks \
kernels against it on the host, CUDA, OpenCL and exec backends, proves its symbolic obligations with cvc5, \
and ships the standard ops, the standard contract classes and their calibration.")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
# The packages of the shared libraries kcontract links (readelf -d: NEEDED; dpkg -S; the
# versions dpkg-shlibdeps gives on Debian 12), and a C compiler with the C library's headers:
# host kernels are compiled at run time (cc). g++ builds .cpp kernels, python3 runs the
# PyTorch adaptor. Recommended: libclang1-14, which kcontract mutate loads (dlopen) to parse
# kernel sources, and clang's own headers it parses with (libclang-common-14-dev).
set(CPACK_DEBIAN_PACKAGE_DEPENDS
  "libantlr4-runtime4.9 (>= 4.9+dfsg), libc6 (>= 2.34), libcvc5-1 (>= 1.0.3), libgcc-s1 (>= 7), libopenblas0, \
libseccomp2 (>= 0.0.0~20120605), libssl3 (>= 3.0.0), libstdc++6 (>= 12), libyaml-cpp0.7 (>= 0.7.0), \
ocl-icd-libopencl1 | libopencl1, gcc, libc6-dev")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "g++, python3, libclang1-14, libclang-common-14-dev")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "pocl-opencl-icd")
include(CPack)
