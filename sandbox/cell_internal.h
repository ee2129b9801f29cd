#pragma once
// Between the cell's pieces (sandbox/cell.cpp, mounts.cpp, mode.cpp); not for other folders.
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "sandbox/cell.h"
#include "sandbox/mode.h"

namespace kc::sandbox {

struct MountView {
  bool readOnlyRoot = false;
  bool freshProc = false;
};

// In the cell's mount namespace: a /dev of the few nodes it needs, a fresh /proc (with its own
// PID namespace), stand-ins for the account files, everything read-only but the scratch
// folder, /dev/shm and spec.writable.
MountView buildMountView(const CellSpec& spec, const std::string& folder, bool ownPidNamespace);

// Runs as the cell's pid 1 instead of forking the body (a cell kept across runs,
// sandbox/cell_host.h); given the layers that held. It must not return.
using InitLoop = std::function<void(const Layers& held)>;

// forkCell, writing the layers that held into `achieved` (memory shared with the caller).
// With `init`, and a PID namespace, pid 1 runs `init` and `body` never runs.
std::unique_ptr<Cell> forkCellReporting(const CellSpec& spec, const std::function<void()>& body, Layers* achieved,
                                        const InitLoop* init = nullptr);

// Moves every (from, to) pair into place and closes every other descriptor.
void remapFds(const std::vector<std::pair<int, int>>& fds);

// The last steps into a cell, in the process that runs kernel code: rlimits, no new
// privileges, no capabilities, the SIGSYS handler, and the seccomp filter. Returns whether
// the filter was loaded.
bool lockDown(const Limits& limits, pid_t checker, bool ownPidNamespace);

}  // namespace kc::sandbox
