// A cell kept for many processes (sandbox/cell_host.h). The checker and the cell's pid 1 talk
// over a SOCK_SEQPACKET socket: the checker sends a spawn (a word, the limits, the target
// numbers, the descriptors as SCM_RIGHTS); pid 1 answers `started` with the process's pidfd,
// then `ended` with its wait status once the cell is clean again.
#include "sandbox/cell_host.h"

#include <signal.h>
#include <sys/ipc.h>
#include <sys/msg.h>
#include <sys/prctl.h>
#include <sys/sem.h>
#include <sys/shm.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "sandbox/cell_internal.h"
#include "sandbox/mode.h"

namespace kc::sandbox {

namespace fs = std::filesystem;

namespace {

constexpr int kMaxFds = 8;

struct SpawnMessage {
  uint64_t word = 0;
  Limits limits;
  int32_t count = 0;
  int32_t targets[kMaxFds] = {};
};
static_assert(std::is_trivially_copyable_v<SpawnMessage>);

enum class Kind : int32_t { Ready = 1, Started = 2, Ended = 3 };
struct Answer {
  Kind kind = Kind::Ready;
  int32_t value = 0;  // Ended: the wait status
};

// One message with up to kMaxFds descriptors.
bool sendWithFds(int socket, const void* data, size_t bytes, const int* fds, int count) {
  iovec iov{const_cast<void*>(data), bytes};
  msghdr msg{};
  msg.msg_iov = &iov;
  msg.msg_iovlen = 1;
  alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int) * kMaxFds)] = {};
  if (count > 0) {
    msg.msg_control = control;
    msg.msg_controllen = CMSG_SPACE(sizeof(int) * static_cast<size_t>(count));
    cmsghdr* c = CMSG_FIRSTHDR(&msg);
    c->cmsg_level = SOL_SOCKET;
    c->cmsg_type = SCM_RIGHTS;
    c->cmsg_len = CMSG_LEN(sizeof(int) * static_cast<size_t>(count));
    std::memcpy(CMSG_DATA(c), fds, sizeof(int) * static_cast<size_t>(count));
  }
  for (;;) {
    ssize_t sent = sendmsg(socket, &msg, MSG_NOSIGNAL);
    if (sent == static_cast<ssize_t>(bytes)) return true;
    if (sent < 0 && errno == EINTR) continue;
    return false;
  }
}

// One message of exactly `bytes`; its descriptors land in fds (count in `count`).
bool receiveWithFds(int socket, void* data, size_t bytes, int* fds, int& count) {
  iovec iov{data, bytes};
  msghdr msg{};
  msg.msg_iov = &iov;
  msg.msg_iovlen = 1;
  alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int) * kMaxFds)] = {};
  msg.msg_control = control;
  msg.msg_controllen = sizeof control;
  count = 0;
  ssize_t got;
  do {
    got = recvmsg(socket, &msg, MSG_CMSG_CLOEXEC);
  } while (got < 0 && errno == EINTR);
  for (cmsghdr* c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c)) {
    if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS) continue;
    int n = static_cast<int>((c->cmsg_len - CMSG_LEN(0)) / sizeof(int));
    for (int k = 0; k < n; ++k) {
      int fd;
      std::memcpy(&fd, CMSG_DATA(c) + k * sizeof(int), sizeof fd);
      if (count < kMaxFds) fds[count++] = fd;
      else close(fd);
    }
  }
  if (got == static_cast<ssize_t>(bytes) && !(msg.msg_flags & (MSG_TRUNC | MSG_CTRUNC))) return true;
  for (int k = 0; k < count; ++k) close(fds[k]);
  count = 0;
  return false;
}

bool answer(int control, Kind kind, int32_t value, int fd = -1) {
  Answer a{kind, value};
  return sendWithFds(control, &a, sizeof a, &fd, fd >= 0 ? 1 : 0);
}

// Removes what is inside `folder`, not the folder.
void empty(const std::string& folder) {
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(folder, ec)) {
    std::error_code ignored;
    fs::remove_all(e.path(), ignored);
  }
}

// Every System V IPC object of the cell's IPC namespace.
void removeIpcObjects() {
  for (const char* kind : {"shm", "msg", "sem"}) {
    std::ifstream in(std::string("/proc/sysvipc/") + kind);
    std::string line;
    std::getline(in, line);  // the header
    while (std::getline(in, line)) {
      std::istringstream fields(line);
      long key = 0;
      int id = -1;
      if (!(fields >> key >> id)) continue;
      if (kind[1] == 'h') shmctl(id, IPC_RMID, nullptr);
      else if (kind[0] == 'm') msgctl(id, IPC_RMID, nullptr);
      else semctl(id, 0, IPC_RMID);
    }
  }
}

// The spawned process: its descriptors, the cell's last steps, the body.
[[noreturn]] void becomeSpawned(const SpawnMessage& m, const int* fds, pid_t checker, const CellHost::Body& body) {
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  prctl(PR_SET_DUMPABLE, 1, 0, 0, 0);  // its own /proc entries are its own again (a CUDA context writes them)
  if (getppid() != 1) _exit(127);  // pid 1 died before prctl took effect
  std::vector<std::pair<int, int>> map;
  for (int k = 0; k < m.count; ++k) map.emplace_back(fds[k], m.targets[k]);
  remapFds(map);
  if (!lockDown(m.limits, checker, true) && mode() == Mode::Strict) {
    dprintf(2, "sandbox: --sandbox strict, and the seccomp filter cannot be loaded here\n");
    _exit(126);
  }
  body(m.word);
  _exit(127);
}

// pid 1 of a kept cell: one process per spawn; after each, nobody else is left and the
// writable places are empty again.
[[noreturn]] void serve(int control, pid_t checker, bool compiler, const CellHost::Body& body) {
  const char* tmp = std::getenv("TMPDIR");
  std::string scratch = tmp ? tmp : "";
  // Not dumpable: a process of the cell, without capabilities, cannot open pid 1's memory
  // through /proc (and ptrace is denied by the filter) to change what later processes run.
  prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
  if (!answer(control, Kind::Ready, 0)) _exit(0);
  for (;;) {
    SpawnMessage m;
    int fds[kMaxFds];
    int count = 0;
    if (!receiveWithFds(control, &m, sizeof m, fds, count)) _exit(0);  // the checker is done
    if (m.count != count || count > kMaxFds) _exit(127);                 // not the checker's
    pid_t child = fork();
    if (child == 0) {
      close(control);
      becomeSpawned(m, fds, checker, body);
    }
    for (int k = 0; k < count; ++k) close(fds[k]);
    int pidfd = child > 0 ? static_cast<int>(syscall(SYS_pidfd_open, child, 0)) : -1;
    bool sent = answer(control, Kind::Started, child > 0 ? 0 : errno, pidfd);
    if (pidfd >= 0) close(pidfd);
    if (!sent) _exit(0);
    if (child < 0) continue;
    int status = 0;
    for (;;) {
      int s = 0;
      pid_t p = waitpid(-1, &s, 0);
      if (p == child) {
        status = s;
        break;
      }
      if (p < 0 && errno != EINTR) break;
    }
    // From pid 1, kill(-1) reaches every other process of the namespace, and only those.
    kill(-1, SIGKILL);
    while (waitpid(-1, nullptr, 0) > 0 || errno == EINTR) {
    }
    if (!scratch.empty()) empty(scratch);
    if (!compiler) empty("/dev/shm");
    removeIpcObjects();
    if (!answer(control, Kind::Ended, status)) _exit(0);
  }
}

}  // namespace

bool CellHost::usable() {
  if (mode() == Mode::Off) return false;
  const Layers& l = layers();
  return l.pidNs && l.mountNs;
}

std::unique_ptr<CellHost> CellHost::start(const CellSpec& spec, Body body) {
  int pair[2];
  if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, pair) != 0)
    throw std::runtime_error("cannot start a cell: socketpair: " + std::string(std::strerror(errno)));
  CellSpec s = spec;
  int target = 3;
  for (auto [from, to] : s.fds) target = std::max(target, to + 1);
  s.fds.emplace_back(pair[1], target);
  pid_t checker = getpid();
  bool compiler = spec.compiler;
  InitLoop init = [target, checker, compiler, &body](const Layers&) { serve(target, checker, compiler, body); };
  std::unique_ptr<Cell> cell;
  try {
    // Without a PID namespace pid 1 is not the cell's: the body then ends at once, and the
    // missing Ready below says so.
    cell = forkCellReporting(s, [] { _exit(125); }, nullptr, &init);
  } catch (...) {
    close(pair[0]);
    close(pair[1]);
    throw;
  }
  close(pair[1]);
  std::unique_ptr<CellHost> host(new CellHost(std::move(cell), pair[0]));
  Answer ready;
  int fd = -1, count = 0;
  if (!receiveWithFds(host->control_, &ready, sizeof ready, &fd, count) || ready.kind != Kind::Ready) {
    host->end();
    throw std::runtime_error("the cell could not be kept (no PID namespace, or a layer --sandbox strict asks for)");
  }
  return host;
}

int CellHost::spawn(const std::vector<std::pair<int, int>>& fds, uint64_t word, const Limits& limits) {
  if (control_ < 0 || running_ || fds.size() > kMaxFds) return -1;
  SpawnMessage m;
  m.word = word;
  m.limits = limits;
  m.count = static_cast<int32_t>(fds.size());
  int from[kMaxFds];
  for (size_t k = 0; k < fds.size(); ++k) {
    from[k] = fds[k].first;
    m.targets[k] = fds[k].second;
  }
  if (!sendWithFds(control_, &m, sizeof m, from, m.count)) {
    end();
    return -1;
  }
  Answer started;
  int pidfd = -1, count = 0;
  if (!receiveWithFds(control_, &started, sizeof started, &pidfd, count) || started.kind != Kind::Started) {
    end();
    return -1;
  }
  if (count != 1) return -1;  // fork failed in the cell (started.value: its errno); the cell stays
  running_ = true;
  return pidfd;
}

int CellHost::wait() {
  if (control_ < 0 || !running_) return -1;
  Answer ended;
  int fd = -1, count = 0;
  bool ok = receiveWithFds(control_, &ended, sizeof ended, &fd, count) && ended.kind == Kind::Ended;
  for (int k = 0; k < count; ++k) close(fd);
  running_ = false;
  if (!ok) {
    end();
    return -1;
  }
  return ended.value;
}

void CellHost::end() {
  if (!cell_) return;
  pid_t outer = cell_->pid();
  if (running_) kill(outer, SIGKILL);  // pid 1 dies with it (PR_SET_PDEATHSIG), and the whole cell with pid 1
  if (control_ >= 0) close(control_);  // an idle pid 1 reads the end and exits
  control_ = -1;
  running_ = false;
  int status = 0;
  while (waitpid(outer, &status, 0) < 0 && errno == EINTR) {
  }
  cell_.reset();
}

CellHost::~CellHost() { end(); }

}  // namespace kc::sandbox
