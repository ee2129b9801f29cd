#pragma once
// The PTX inside a host library that nvcc built with -gencode arch=compute_XY,code=compute_XY
// --no-compress (docs/ptx.md): its fat binary (magic 0xBA55ED50) holds the PTX text as it
// is, so the backend builds a kernel once and reads the device code back from the library.
#include <stdexcept>
#include <string>

namespace kc::ptx {

struct FatbinError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The PTX text of every PTX entry in the file's fat binaries, one after another (a module
// may have several fat binaries, one per translation unit that has device code). "" when the
// file has no device code. Throws FatbinError for an unreadable file or a compressed entry.
std::string ptxFromLibrary(const std::string& path);

}  // namespace kc::ptx
