#include "sandbox/mode.h"

#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <optional>
#include <stdexcept>

#include "sandbox/cell_internal.h"

namespace kc::sandbox {

namespace {

Mode gMode = Mode::Auto;

Layers probe() {
  void* shared = mmap(nullptr, sizeof(Layers), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (shared == MAP_FAILED) return {};
  auto* achieved = new (shared) Layers();
  Mode asked = gMode;
  gMode = Mode::Auto;  // the probe finds what holds; strict judges it afterwards
  Layers found;
  try {
    CellSpec spec;
    spec.fds = {};
    std::unique_ptr<Cell> cell = forkCellReporting(spec, [] { _exit(0); }, achieved);
    int status = 0;
    waitpid(cell->pid(), &status, 0);
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) found = *achieved;
  } catch (const std::exception&) {
  }
  gMode = asked;
  munmap(shared, sizeof(Layers));
  return found;
}

}  // namespace

Mode parseMode(const std::string& text) {
  if (text == "auto") return Mode::Auto;
  if (text == "strict") return Mode::Strict;
  if (text == "off") return Mode::Off;
  throw std::invalid_argument("--sandbox must be auto, strict or off; not '" + text + "'");
}

void setMode(Mode m) { gMode = m; }
Mode mode() { return gMode; }

std::vector<std::string> Layers::missing() const {
  std::vector<std::string> out;
  if (!userNs) out.push_back("no user namespaces");
  if (!pidNs) out.push_back("no PID namespaces");
  if (!mountNs) out.push_back("no mount namespaces");
  if (!netNs) out.push_back("no network namespaces");
  if (!ipcNs) out.push_back("no IPC namespaces");
  if (mountNs && !readOnlyRoot) out.push_back("no read-only file system");
  if (pidNs && !freshProc) out.push_back("no private /proc");
  if (!seccomp) out.push_back("no seccomp");
  return out;
}

const Layers& layers() {
  static std::optional<Layers> found;
  if (!found) found = probe();
  return *found;
}

bool degraded() { return gMode == Mode::Off || !layers().missing().empty(); }

std::string statusLine() {
  if (gMode == Mode::Off) return "sandbox: off (--sandbox off): kernels run with the checker's rights";
  std::vector<std::string> missing = layers().missing();
  if (missing.empty())
    return "sandbox: cell (user, PID, mount, network and IPC namespaces; read-only file system; seccomp; rlimits)";
  std::string line = "sandbox: ";
  for (size_t k = 0; k < missing.size(); ++k) line += (k ? "; " : "") + missing[k];
  return line + " here (the other layers and rlimits hold)";
}

void requireLayers() {
  if (gMode != Mode::Strict) return;
  std::vector<std::string> missing = layers().missing();
  if (missing.empty()) return;
  std::string what;
  for (size_t k = 0; k < missing.size(); ++k) what += (k ? "; " : "") + missing[k];
  throw std::runtime_error("--sandbox strict: " + what + " on this machine; nothing was run (--sandbox auto runs with the layers there are)");
}

}  // namespace kc::sandbox
