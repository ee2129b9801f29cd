#pragma once
// A cell kept for many processes (docs/security.md, "One cell per kernel"). Setting up a cell
// (namespaces, the file-system view, three forks of the checker) costs about 20 ms; a run on
// the host backend often costs less. A CellHost sets the cell up once: its pid 1 never runs
// kernel code and forks one fresh process per spawn(), which takes the cell's last steps
// (rlimits, no privileges, the seccomp filter) and runs the body. When that process ends,
// pid 1 kills every other process in the cell and empties the scratch folder, /dev/shm and
// the System V IPC objects before it reports the end, so nothing of one process reaches the
// next: each is as fresh as a cell of its own, for the cost of one fork.
//
// Needs a PID namespace (pid 1 kills the rest of the cell with kill(-1)); usable() says
// whether this machine and --sandbox give one.
#include <sys/types.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <utility>
#include <vector>

#include "sandbox/cell.h"

namespace kc::sandbox {

class CellHost {
 public:
  // What a spawned process runs, with its descriptors in place; `word` is spawn()'s. It must
  // not return.
  using Body = std::function<void(uint64_t word)>;

  // Whether cells can be kept here: a cell is asked for (not --sandbox off) and the machine
  // gives it a PID namespace and a mount namespace.
  static bool usable();
  // Starts the cell of `spec` (spec.fds: what its pid 1 keeps, 0..2 included; spec.limits:
  // the default for spawn()). Throws std::runtime_error when no process can start.
  static std::unique_ptr<CellHost> start(const CellSpec& spec, Body body);
  ~CellHost();
  CellHost(const CellHost&) = delete;
  CellHost& operator=(const CellHost&) = delete;

  // Starts one process in the cell with these (descriptor here, number there) pairs, under
  // `limits`. Returns a pidfd of it (the caller's to close: poll it to see the process end,
  // pidfd_send_signal to kill it), or -1 when the cell is gone. One process at a time.
  int spawn(const std::vector<std::pair<int, int>>& fds, uint64_t word, const Limits& limits);
  // Waits until the spawned process has ended and the cell is clean again; returns its wait
  // status (as waitpid gives it). -1 when the cell is gone.
  int wait();
  // Whether the cell still serves spawns.
  bool alive() const { return control_ >= 0; }

 private:
  CellHost(std::unique_ptr<Cell> cell, int control) : cell_(std::move(cell)), control_(control) {}
  void end();

  std::unique_ptr<Cell> cell_;  // the outer process (the checker's child) and the cell's folder
  int control_ = -1;            // a SOCK_SEQPACKET socket to pid 1
  bool running_ = false;        // a spawned process has not been waited for
};

}  // namespace kc::sandbox
