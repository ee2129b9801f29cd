#pragma once
// Where a report was written: the facts an incident report records about the machine
// (kcontract incident, docs/checking.md "Incident reports"). Each fact says where it came
// from, and one that cannot be found says so; nothing is guessed.
#include <string>
#include <utility>
#include <vector>

namespace kc::check {

struct Environment {
  std::vector<std::pair<std::string, std::string>> facts;  // ("device", "NVIDIA H200, driver 580.82")
};

// The kcontract version and data folder, the git revision of `kernelPath` (and whether its
// file has uncommitted changes), the GPU and its driver (nvidia-smi), the CUDA toolkit
// (nvcc), the C and C++ compilers host kernels are built with ($CC, $CXX, else cc, c++),
// and the host (kernel, machine, CPU model).
Environment gatherEnvironment(const std::string& toolVersion, const std::string& kernelPath);

// The first line a command prints on stdout, run through /bin/sh with stderr discarded;
// "" when it fails or prints nothing.
std::string firstLineOf(const std::string& command);

// The work tree's top folder of the git repository holding `path` ("" when none, or no git).
std::string gitTopLevel(const std::string& path);

}  // namespace kc::check
