// The cell (sandbox/cell.h): the steps a forked child takes before it runs the body. Each
// layer is best effort under --sandbox auto and required under strict; which ones held is
// written into `achieved` (the probe reads it back, sandbox/mode.cpp).
#include "sandbox/cell.h"

#include <fcntl.h>
#include <linux/capability.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio_ext.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <stdexcept>

#include "sandbox/cell_internal.h"
#include "sandbox/mode.h"
#include "sandbox/syscall_filter.h"

namespace kc::sandbox {

namespace fs = std::filesystem;

namespace {

char* gSink = nullptr;
size_t gSinkBytes = 0;

void append(char* to, size_t cap, size_t& at, const char* s) {
  while (*s && at + 1 < cap) to[at++] = *s++;
  to[at] = 0;
}

// SIGSYS from the filter: name the call where the run's report will find it, then die of it.
void onDeniedCall(int, siginfo_t* info, void*) {
  char line[160];
  size_t at = 0;
  append(line, sizeof line, at, "sandbox-violation: ");
  append(line, sizeof line, at, deniedCallName(info->si_syscall));
  append(line, sizeof line, at, " denied");
  if (gSink && gSinkBytes) {
    size_t k = 0;
    append(gSink, gSinkBytes, k, line);
  }
  append(line, sizeof line, at, "\n");
  (void)!write(2, line, at);
  struct sigaction dfl {};
  dfl.sa_handler = SIG_DFL;
  sigaction(SIGSYS, &dfl, nullptr);
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGSYS);
  sigprocmask(SIG_UNBLOCK, &set, nullptr);
  raise(SIGSYS);
  _exit(128 + SIGSYS);
}

// KC_SANDBOX_WITHOUT=user,pid,mount,net,ipc,seccomp: layers to leave out, as on a machine
// that lacks them (tests of the degraded paths; docs/security.md).
bool without(const char* layer) {
  const char* list = std::getenv("KC_SANDBOX_WITHOUT");
  if (!list) return false;
  std::string all = std::string(",") + list + ",";
  return all.find(std::string(",") + layer + ",") != std::string::npos;
}

bool writeFile(const std::string& path, const std::string& text) {
  int fd = open(path.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) return false;
  bool ok = write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
  close(fd);
  return ok;
}

}  // namespace

// Moves every (from, to) pair into place and closes every other descriptor.
void remapFds(const std::vector<std::pair<int, int>>& fds) {
  // First out of the way (above every target), then into place.
  std::vector<int> parked;
  for (auto [from, to] : fds) parked.push_back(fcntl(from, F_DUPFD, 1000));
  int highest = 2;
  for (size_t k = 0; k < fds.size(); ++k) {
    dup2(parked[k], fds[k].second);
    highest = std::max(highest, fds[k].second);
  }
  for (int fd = 0; fd <= highest; ++fd) {
    bool kept = false;
    for (auto [from, to] : fds) kept = kept || to == fd;
    if (!kept) close(fd);
  }
  syscall(SYS_close_range, highest + 1, ~0u, 0);
}

namespace {

void setLimit(int resource, uint64_t value) {
  rlimit l{static_cast<rlim_t>(value), static_cast<rlim_t>(value)};
  setrlimit(resource, &l);
}

void dropCapabilities() {
  for (int cap = 0; cap < 64; ++cap) prctl(PR_CAPBSET_DROP, cap, 0, 0, 0);
  prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0);
  __user_cap_header_struct header{_LINUX_CAPABILITY_VERSION_3, 0};
  __user_cap_data_struct data[2] = {};
  syscall(SYS_capset, &header, data);
}

[[noreturn]] void dieOf(int sig) {
  setLimit(RLIMIT_CORE, 0);
  signal(sig, SIG_DFL);
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, sig);
  sigprocmask(SIG_UNBLOCK, &set, nullptr);
  kill(getpid(), sig);
  _exit(128 + sig);
}

// The outer process: waits for the namespace's init and ends the way the body ended (the
// init cannot die of a signal it raises itself, so it sends the body's signal over `died`).
[[noreturn]] void relayOuter(pid_t init, int died) {
  int status = 0;
  while (waitpid(init, &status, 0) < 0 && errno == EINTR) {
  }
  unsigned char sig = 0;
  if (read(died, &sig, 1) == 1 && sig > 0) dieOf(sig);
  if (WIFEXITED(status)) _exit(WEXITSTATUS(status));
  dieOf(WIFSIGNALED(status) ? WTERMSIG(status) : SIGKILL);
}

// pid 1 of the cell's PID namespace: reaps whatever is orphaned in it until the body ends,
// then ends, taking every process left in the namespace with it.
[[noreturn]] void initLoop(pid_t body, int died) {
  for (;;) {
    int status = 0;
    pid_t pid = waitpid(-1, &status, 0);
    if (pid < 0 && errno == EINTR) continue;
    if (pid < 0) _exit(127);
    if (pid != body) continue;
    if (WIFSIGNALED(status)) {
      unsigned char sig = static_cast<unsigned char>(WTERMSIG(status));
      (void)!write(died, &sig, 1);
      _exit(128 + sig);
    }
    _exit(WIFEXITED(status) ? WEXITSTATUS(status) : 127);
  }
}

// Forks; the child returns once its parent's death would kill it (PR_SET_PDEATHSIG armed
// while the parent lived), the parent never returns from `parent(child)`.
template <class Parent>
void forkGuarded(const Parent& parent) {
  int alive[2];
  if (pipe2(alive, O_CLOEXEC) != 0) _exit(127);
  pid_t child = fork();
  if (child < 0) _exit(127);
  if (child > 0) {
    close(alive[0]);
    parent(child, alive[1]);  // keeps alive[1] open for its whole life
  }
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  close(alive[1]);
  pollfd p{alive[0], POLLIN, 0};
  if (poll(&p, 1, 0) > 0) _exit(127);  // end of file: the parent died before the signal was armed
  close(alive[0]);
}

[[noreturn]] void enter(const CellSpec& spec, const std::string& folder, pid_t checker, Layers* achieved,
                        const std::function<void()>& body, const InitLoop* init) {
  const bool strict = mode() == Mode::Strict;
  auto require = [&](bool held, const char* what) {
    if (held || !strict) return;
    dprintf(2, "sandbox: --sandbox strict, and %s here (%s)\n", what, std::strerror(errno));
    _exit(126);
  };
  setpgid(0, 0);
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() != checker) _exit(127);  // the checker died before prctl took effect
  remapFds(spec.fds);
  // A name that says nothing about the checker (the caller's, or one of a few common ones;
  // every process of the cell carries it).
  static const char* const kNames[] = {"python3", "main", "a.out", "run", "bench", "test"};
  std::string title = spec.title.empty() ? kNames[static_cast<unsigned>(getpid() ^ time(nullptr)) % 6] : spec.title;
  prctl(PR_SET_NAME, title.c_str(), 0, 0, 0);

  Layers held;
  uid_t uid = geteuid();
  gid_t gid = getegid();
  held.userNs = !without("user") && unshare(CLONE_NEWUSER) == 0;
  if (held.userNs) {
    writeFile("/proc/self/setgroups", "deny");
    held.userNs = writeFile("/proc/self/uid_map", "0 " + std::to_string(uid) + " 1") &&
                  writeFile("/proc/self/gid_map", "0 " + std::to_string(gid) + " 1");
  }
  require(held.userNs, "no user namespace can be made");
  held.mountNs = !without("mount") && unshare(CLONE_NEWNS) == 0;
  require(held.mountNs, "no mount namespace can be made");
  held.netNs = !without("net") && unshare(CLONE_NEWNET) == 0;
  require(held.netNs, "no network namespace can be made");
  held.ipcNs = !without("ipc") && unshare(CLONE_NEWIPC) == 0;
  require(held.ipcNs, "no IPC namespace can be made");
  held.pidNs = !without("pid") && unshare(CLONE_NEWPID) == 0;
  require(held.pidNs, "no PID namespace can be made");
  int died[2] = {-1, -1};
  if (held.pidNs) {
    // Three processes: this one waits outside the namespace; its child is the namespace's
    // pid 1, whose death takes everything in the namespace with it; pid 1's child runs the
    // body (an init ignores the signals it raises, so the body is not the init).
    if (pipe2(died, O_CLOEXEC) != 0) _exit(127);
    forkGuarded([&](pid_t init, int alive) {
      for (int fd = 0; fd < 1024; ++fd)
        if (fd != died[0] && fd != alive) close(fd);
      relayOuter(init, died[0]);
    });
    close(died[0]);
  }
  if (held.mountNs) {
    MountView view = buildMountView(spec, folder, held.pidNs);
    held.readOnlyRoot = view.readOnlyRoot;
    held.freshProc = view.freshProc;
  }
  if (held.pidNs && !init) {
    forkGuarded([&](pid_t body, int alive) {
      for (int fd = 0; fd < 1024; ++fd)
        if (fd != died[1] && fd != alive) close(fd);
      initLoop(body, died[1]);
    });
    close(died[1]);
  }
  require(held.readOnlyRoot, "the file system cannot be made read-only");
  require(held.freshProc || !held.pidNs, "/proc cannot be remounted for the cell's PID namespace");
  std::string scratch = folder + "/scratch";
  for (const char* var : {"TMPDIR", "TMP", "TEMP"}) setenv(var, scratch.c_str(), 1);
  std::string jit = spec.jitCache.empty() ? scratch : spec.jitCache;
  setenv("XDG_CACHE_HOME", (scratch + "/.cache").c_str(), 1);
  setenv("TRITON_CACHE_DIR", (jit + "/triton").c_str(), 1);
  setenv("POCL_CACHE_DIR", (jit + "/pocl").c_str(), 1);
  setenv("CUDA_CACHE_PATH", (jit + "/cuda").c_str(), 1);
  setenv("TORCHINDUCTOR_CACHE_DIR", (jit + "/inductor").c_str(), 1);
  if (!spec.cudaDevices.empty()) setenv("CUDA_VISIBLE_DEVICES", spec.cudaDevices.c_str(), 1);

  if (init && held.pidNs) (*init)(held);  // pid 1 runs the caller's loop (sandbox/cell_host.h)
  held.seccomp = lockDown(spec.limits, checker, held.pidNs);
  require(held.seccomp, "the seccomp filter cannot be loaded");
  if (achieved) *achieved = held;
  body();
  _exit(127);
}

}  // namespace

bool lockDown(const Limits& l, pid_t checker, bool ownPidNamespace) {
  setLimit(RLIMIT_CORE, 0);
  setLimit(RLIMIT_CPU, static_cast<uint64_t>(std::ceil(l.cpuSeconds)));
  if (l.addressBytes) setLimit(RLIMIT_AS, l.addressBytes);
  setLimit(RLIMIT_FSIZE, l.fileBytes);
  setLimit(RLIMIT_NPROC, l.processes);
  setLimit(RLIMIT_NOFILE, l.openFiles);
  prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
  dropCapabilities();
  bool filtered = !without("seccomp") && installSyscallFilter(checker, getpgid(checker), ownPidNamespace);
  struct sigaction sa {};
  sa.sa_sigaction = onDeniedCall;
  sa.sa_flags = SA_SIGINFO;
  sigaction(SIGSYS, &sa, nullptr);
  return filtered;
}

void setViolationSink(char* buffer, size_t bytes) {
  gSink = buffer;
  gSinkBytes = bytes;
}

Cell::~Cell() {
  std::error_code ec;
  if (!folder_.empty()) fs::remove_all(folder_, ec);
}

std::unique_ptr<Cell> forkCell(const CellSpec& spec, const std::function<void()>& body) {
  return forkCellReporting(spec, body, nullptr);
}

std::unique_ptr<Cell> forkCellReporting(const CellSpec& spec, const std::function<void()>& body, Layers* achieved,
                                        const InitLoop* init) {
  std::string folder;
  if (mode() != Mode::Off) {
    // The cell's own folder: its scratch space (TMPDIR inside), and the staging of its /dev.
    const char* base = std::getenv("TMPDIR");
    std::string pattern = std::string(base && *base ? base : "/tmp") + "/XXXXXXXXXX";
    std::vector<char> name(pattern.begin(), pattern.end());
    name.push_back(0);
    if (!mkdtemp(name.data())) throw std::runtime_error("cannot create the cell's folder: " + std::string(std::strerror(errno)));
    folder = name.data();
    fs::create_directories(folder + "/scratch");
    fs::create_directories(folder + "/dev");
    fs::create_directories(folder + "/etc");
    if (!spec.jitCache.empty()) fs::create_directories(spec.jitCache);
  }
  pid_t checker = getpid();
  std::fflush(nullptr);
  pid_t pid = fork();
  if (pid < 0) {
    std::error_code ec;
    if (!folder.empty()) fs::remove_all(folder, ec);
    throw std::runtime_error("cannot start a process: " + std::string(std::strerror(errno)));
  }
  if (pid == 0) {
    // What another thread of the checker wrote into stdio's buffers after the fflush above
    // (its report, with `check --jobs`) is the parent's to write, not this child's.
    __fpurge(stdout);
    __fpurge(stderr);
    if (mode() == Mode::Off) {
      setpgid(0, 0);
      prctl(PR_SET_PDEATHSIG, SIGKILL);
      remapFds(spec.fds);
      body();
      _exit(127);
    }
    enter(spec, folder, checker, achieved, body, init);
  }
  setpgid(pid, pid);  // also here, so that the group exists before the caller signals it
  return std::make_unique<Cell>(pid, folder);
}

}  // namespace kc::sandbox
