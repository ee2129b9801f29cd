#pragma once
// The kcontract executable this process runs as, for commands it starts or writes for later
// (a sanitizer's replay, a Slurm array task).
#include <string>

namespace kc::check {

// $KC_SELF when set (the bundle's wrapper runs kcontract through the dynamic loader, so
// /proc/self/exe is the loader and the wrapper names itself there), else /proc/self/exe,
// else "kcontract" (found on PATH).
std::string selfPath();

}  // namespace kc::check
