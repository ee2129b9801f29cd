# What `cmake --install` puts under the prefix (docs/install.md). The data folder mirrors
# the source tree's layout, so that the code finds a file under it as it does under the
# source tree (stdlib/data_root.h):
#   bin/kcontract
#   include/kcontract/abi.h, opencl.h       the kernel ABI and the OpenCL helpers, for kernel authors
#   share/kcontract/                        the data folder
#     stdlib/ops/                           the standard ops and their reference kernels
#     contracts/                            the classes, the calibration manifest and its kernels, the incidents
#     include/kcontract/                    the same headers: kernels are built with -I here
#     adaptors/                             the exec adaptors (the PyTorch adaptor)
#     backends/cuda/                        the sources the CUDA backend compiles at run time
#     docs/catalog.md                       the catalogue of the standard classes
#     examples/..., tests/e2e/kernels/...   the kernels of the calibration manifest that live
#                                           outside contracts/ and stdlib/ (it names them ../PATH)
set(KC_DATA ${CMAKE_INSTALL_DATADIR}/kcontract)

# Three components: runtime (the binary), headers, and data (the data folder alone:
# scripts/bundle.sh installs only it, with --component data).
install(TARGETS kcontract RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT runtime)
install(FILES include/kcontract/abi.h include/kcontract/opencl.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/kcontract
  COMPONENT headers)
install(DIRECTORY include/kcontract DESTINATION ${KC_DATA}/include COMPONENT data)
install(DIRECTORY stdlib/ops DESTINATION ${KC_DATA}/stdlib COMPONENT data)
install(DIRECTORY contracts DESTINATION ${KC_DATA} COMPONENT data)
install(DIRECTORY adaptors DESTINATION ${KC_DATA} COMPONENT data USE_SOURCE_PERMISSIONS
  PATTERN __pycache__ EXCLUDE PATTERN *.pyc EXCLUDE)
install(FILES backends/cuda/noise_kernel.cu DESTINATION ${KC_DATA}/backends/cuda COMPONENT data)
install(FILES backends/cuda/support/kc_cuda_support.cu backends/cuda/support/kc_cuda_support.h
  DESTINATION ${KC_DATA}/backends/cuda/support COMPONENT data)
install(FILES docs/catalog.md DESTINATION ${KC_DATA}/docs COMPONENT data)

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
