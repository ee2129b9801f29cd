#pragma once
// A cell: the process an untrusted kernel, or the compiler of its source, runs in. The policy
// (docs/security.md): its own process group; user, PID, mount, network and IPC namespaces
// where the machine allows them; a read-only file system with a private scratch folder and
// the folders the caller names writable; a minimal /dev; no capabilities, no new privileges;
// a seccomp filter; rlimits; only the file descriptors the caller keeps. Killing the pid
// forkCell returns takes down everything started in the cell.
#include <sys/types.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace kc::sandbox {

struct Limits {
  double cpuSeconds = 3600;          // RLIMIT_CPU of each process in the cell
  uint64_t addressBytes = 0;         // RLIMIT_AS; 0: none (a CUDA context reserves address space)
  uint64_t fileBytes = 1ull << 30;   // RLIMIT_FSIZE: the largest file it may write
  uint64_t processes = 4096;         // RLIMIT_NPROC (threads count)
  uint64_t openFiles = 1024;         // RLIMIT_NOFILE
};

struct CellSpec {
  // (descriptor here, its number in the cell): 0, 1 and 2 included; every other is closed.
  std::vector<std::pair<int, int>> fds;
  std::vector<std::string> writable;  // folders that stay writable (besides the cell's own scratch folder)
  bool gpuDevices = false;            // /dev/nvidia*, /dev/nvidia-caps/ in the cell's /dev
  bool compiler = false;              // a compile: /dev holds null alone (no /dev/zero to #include)
  // /dev/shm writable (it is read-only in a kernel's cell): a tool that runs in the cell with
  // its target, whose channels to it live there (compute-sanitizer).
  bool sharedMemory = false;
  // The kernel's own folder for run-time compiler caches (PoCL, Triton, CUDA, inductor),
  // writable and kept across its cells; "" puts them in the scratch folder.
  std::string jitCache;
  Limits limits;
  std::string title;                  // the cell's process name (PR_SET_NAME); "" keeps it
  // The GPUs the cell's CUDA sees (CUDA_VISIBLE_DEVICES, as `check --devices` spreads runs
  // over a host's GPUs); "" leaves the variable as the checker has it.
  std::string cudaDevices;
};

// One started cell. Its scratch folder (TMPDIR inside) is removed when the Cell goes; the
// caller reaps `pid`.
class Cell {
 public:
  Cell(pid_t pid, std::string folder) : pid_(pid), folder_(std::move(folder)) {}
  ~Cell();
  Cell(const Cell&) = delete;
  Cell& operator=(const Cell&) = delete;
  pid_t pid() const { return pid_; }

 private:
  pid_t pid_;
  std::string folder_;
};

// Forks, enters the cell (as far as the machine and --sandbox allow) and runs `body`, which
// must not return (it _exits). Throws std::runtime_error when no process can start. Under
// --sandbox strict a layer that cannot be set up ends the cell with exit 126 and says why
// on its stderr.
std::unique_ptr<Cell> forkCell(const CellSpec& spec, const std::function<void()>& body);

// In a cell: where the SIGSYS handler writes "sandbox-violation: NAME denied" before the
// process dies of SIGSYS (a run's message field). nullptr: nowhere.
void setViolationSink(char* buffer, size_t bytes);

}  // namespace kc::sandbox
