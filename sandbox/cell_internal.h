#pragma once
// Between the cell's pieces (sandbox/cell.cpp, mounts.cpp, mode.cpp); not for other folders.
#include <functional>
#include <memory>
#include <string>

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

// forkCell, writing the layers that held into `achieved` (memory shared with the caller).
std::unique_ptr<Cell> forkCellReporting(const CellSpec& spec, const std::function<void()>& body, Layers* achieved);

}  // namespace kc::sandbox
