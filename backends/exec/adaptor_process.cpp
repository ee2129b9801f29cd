#include "backends/exec/adaptor_process.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "backends/backend.h"
#include "backends/exec/exec_spec.h"

namespace kc::backend {

namespace {

// The descriptor the adaptor finds its socket at ($KC_EXEC_FD).
constexpr int kAdaptorFd = 3;

std::string signalText(int sig) {
  const char* d = strsignal(sig);
  std::string text = "signal " + std::to_string(sig) + (d ? std::string(" (") + d + ")" : "");
  // SIGSYS in a cell: the seccomp filter denied a call (docs/security.md).
  return sig == SIGSYS ? text + ": sandbox-violation, a call the cell denies" : text;
}

}  // namespace

AdaptorProcess::~AdaptorProcess() {
  if (pid_ > 0) reap(0);
  if (outFd_ >= 0) close(outFd_);
}

void AdaptorProcess::start(const ExecSpec& spec, const std::vector<std::string>& argv) {
  std::string outPath = (std::filesystem::temp_directory_path() / "kc-adaptor-XXXXXX").string();
  outFd_ = mkostemp(outPath.data(), O_CLOEXEC);
  if (outFd_ < 0) throw BackendError(std::string("exec: cannot create the adaptor's output file: ") + std::strerror(errno));
  unlink(outPath.c_str());
  int pair[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) != 0)
    throw BackendError(std::string("exec: socketpair: ") + std::strerror(errno));
  std::fflush(nullptr);
  pid_t parent = getpid();
  pid_t pid = fork();
  if (pid < 0) {
    close(pair[0]);
    close(pair[1]);
    throw BackendError(std::string("exec: cannot start the adaptor: fork: ") + std::strerror(errno));
  }
  if (pid == 0) {
    // Dies with the worker: at its time limit, after a failed run, and when it is done.
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(127);  // the worker died before prctl took effect
    signal(SIGPIPE, SIG_DFL);
    dup2(outFd_, 1);
    dup2(outFd_, 2);
    if (pair[1] == kAdaptorFd) {
      fcntl(kAdaptorFd, F_SETFD, 0);
    } else {
      dup2(pair[1], kAdaptorFd);  // the copy is not close-on-exec
    }
    if (chdir(spec.dir.c_str()) != 0) _exit(127);
    setenv("KC_EXEC_FD", std::to_string(kAdaptorFd).c_str(), 1);
    setenv("KC_EXEC_PROTOCOL", kExecProtocol2, 1);
    for (const auto& [k, v] : spec.env) setenv(k.c_str(), v.c_str(), 1);
    std::vector<std::string> args = argv;
    std::vector<char*> cargs;
    for (auto& s : args) cargs.push_back(s.data());
    cargs.push_back(nullptr);
    execvp(cargs[0], cargs.data());
    std::fprintf(stderr, "cannot run '%s': %s\n", cargs[0], std::strerror(errno));
    _exit(127);
  }
  close(pair[1]);
  pid_ = pid;
  socket_ = pair[0];
}

void AdaptorProcess::showOutput() {
  if (outFd_ < 0) return;
  char buf[8192];
  for (;;) {
    ssize_t k = pread(outFd_, buf, sizeof buf, shown_);
    if (k <= 0) break;
    std::fwrite(buf, 1, static_cast<size_t>(k), stderr);
    shown_ += k;
  }
  std::fflush(stderr);
}

std::string AdaptorProcess::outputTail(size_t n) {
  if (outFd_ < 0) return "";
  off_t end = lseek(outFd_, 0, SEEK_END);
  if (end <= 0) return "";
  off_t from = end > static_cast<off_t>(n) ? end - static_cast<off_t>(n) : 0;
  std::string s(static_cast<size_t>(end - from), '\0');
  ssize_t k = pread(outFd_, s.data(), s.size(), from);
  s.resize(k > 0 ? static_cast<size_t>(k) : 0);
  return from > 0 ? "..." + s : s;
}

std::string AdaptorProcess::reap(double graceSeconds) {
  if (socket_ >= 0) close(socket_);
  socket_ = -1;
  if (pid_ <= 0) return "ended";
  int status = 0;
  pid_t got = 0;
  for (int k = 0; k < static_cast<int>(graceSeconds * 100); ++k) {
    got = waitpid(pid_, &status, WNOHANG);
    if (got != 0) break;
    usleep(10000);
  }
  std::string how;
  if (got == 0) {
    kill(pid_, SIGKILL);
    while (waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
    how = "did not exit and was killed";
  } else if (got < 0) {
    how = "ended";
  } else if (WIFSIGNALED(status)) {
    how = "died on " + signalText(WTERMSIG(status));
  } else {
    how = "exited with status " + std::to_string(WEXITSTATUS(status));
  }
  pid_ = -1;
  return how;
}

}  // namespace kc::backend
