#pragma once
// --sandbox auto|strict|off (docs/security.md), one setting for the whole process: the CLI
// sets it before any job; every cell (sandbox/cell.h) follows it.
#include <string>
#include <vector>

namespace kc::sandbox {

enum class Mode {
  Auto,    // every layer the machine allows; a missing one is reported in every report
  Strict,  // every layer or nothing runs
  Off,     // no cell: the kernel runs with the checker's rights (an explicit choice)
};

Mode parseMode(const std::string& text);  // auto, strict, off; throws std::invalid_argument
void setMode(Mode mode);
Mode mode();

// What this machine allows, probed once (in a child that sets up a cell and reports back).
struct Layers {
  bool userNs = false, pidNs = false, mountNs = false, netNs = false, ipcNs = false;
  bool readOnlyRoot = false;  // the file system is read-only in the cell
  bool freshProc = false;     // /proc shows only the cell's processes
  bool seccomp = false;
  std::vector<std::string> missing() const;  // "no user namespaces", ... ("" when none)
};
const Layers& layers();

// The report header line: "sandbox: cell (every layer)", "sandbox: no user namespaces
// here; ...", or "sandbox: off (--sandbox off)".
std::string statusLine();
// Whether the line is worth printing on the text report (a layer is missing, or off).
bool degraded();
// Under --sandbox strict: throws std::runtime_error naming the missing layers.
void requireLayers();

}  // namespace kc::sandbox
