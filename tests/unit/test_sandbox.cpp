// The cell (sandbox/cell.h): how it ends is how its body ended, it sees a read-only file
// system with its writable folders, only its own processes, and a denied call names itself.
// Where the machine lacks a layer (sandbox::layers()), the checks that need it are skipped
// with a warning, never passed.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <dirent.h>
#include <pthread.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "sandbox/cell.h"
#include "sandbox/mode.h"

namespace fs = std::filesystem;

namespace {

// Runs `body` in a cell and returns its wait status.
int inCell(const std::function<void()>& body, kc::sandbox::CellSpec spec = {}) {
  std::unique_ptr<kc::sandbox::Cell> cell = kc::sandbox::forkCell(spec, body);
  int status = 0;
  waitpid(cell->pid(), &status, 0);
  return status;
}

// While set, a fork of this process (not of its children) finds text in stdout's buffer: what
// another thread of the checker writes between forkCell's fflush and its fork.
std::atomic<pid_t> gLeakFrom{0};
void leakIntoStdout() {
  if (gLeakFrom != 0 && getpid() == gLeakFrom) std::fputs("LEAK-", stdout);
}

bool fullCell() {
  if (kc::sandbox::layers().missing().empty()) return true;
  WARN("skipped: " << kc::sandbox::statusLine());
  return false;
}

}  // namespace

TEST_CASE("cell: the child does not write what the checker's stdio buffers held at the fork", "[sandbox]") {
  static const bool registered = pthread_atfork(leakIntoStdout, nullptr, nullptr) == 0;
  REQUIRE(registered);
  fs::path out = fs::temp_directory_path() / ("kc_fork_leak_" + std::to_string(getpid()));
  std::fflush(stdout);
  int saved = dup(STDOUT_FILENO);
  int fd = open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  REQUIRE(fd >= 0);
  dup2(fd, STDOUT_FILENO);
  close(fd);
  gLeakFrom = getpid();
  kc::sandbox::CellSpec spec;
  spec.fds = {{STDOUT_FILENO, STDOUT_FILENO}};  // the cell's stdout: the file (a worker's is its pipe)
  int status = inCell(
      [] {
        std::fflush(stdout);  // a kernel's printf, the worker's own flush: nothing of the checker's
        _exit(0);
      },
      spec);
  gLeakFrom = 0;
  std::fflush(stdout);  // the checker's text, written once, by the checker
  dup2(saved, STDOUT_FILENO);
  close(saved);
  std::ifstream in(out);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  fs::remove(out);
  CHECK(WIFEXITED(status));
  CHECK(text == "LEAK-");
}

TEST_CASE("cell: its exit status and its death signal come back as they were", "[sandbox]") {
  int status = inCell([] { _exit(7); });
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 7);
  status = inCell([] { raise(SIGSEGV); });
  REQUIRE(WIFSIGNALED(status));
  CHECK(WTERMSIG(status) == SIGSEGV);
}

TEST_CASE("cell: a read-only file system but for its writable folders; no other process in /proc", "[sandbox]") {
  if (!fullCell()) return;
  fs::path dir = fs::temp_directory_path() / ("kc-test-sandbox-" + std::to_string(getpid()));
  fs::create_directories(dir / "open");
  kc::sandbox::CellSpec spec;
  spec.writable = {(dir / "open").string()};
  int status = inCell(
      [&] {
        int bad = 0;
        if (open((dir / "shut.txt").c_str(), O_WRONLY | O_CREAT, 0600) >= 0 || errno != EROFS) bad |= 1;
        if (open((dir / "open" / "ok.txt").c_str(), O_WRONLY | O_CREAT, 0600) < 0) bad |= 2;
        const char* tmp = getenv("TMPDIR");
        if (!tmp || open((std::string(tmp) + "/scratch.txt").c_str(), O_WRONLY | O_CREAT, 0600) < 0) bad |= 4;
        int seen = 0;
        DIR* d = opendir("/proc");
        while (dirent* e = d ? readdir(d) : nullptr) seen += std::atoi(e->d_name) > 0;
        if (d) closedir(d);
        if (seen != 2) bad |= 8;  // the namespace's init and this process
        if (getppid() != 1) bad |= 16;
        if (access("/dev/nvidiactl", F_OK) == 0) bad |= 32;  // the host's cell has no GPU nodes
        // /proc is writable for the process's own entries (the CUDA driver needs that), not for
        // the machine's.
        if (open("/proc/self/comm", O_WRONLY) < 0) bad |= 64;
        if (open("/proc/sys/kernel/hostname", O_WRONLY) >= 0 || open("/proc/sysrq-trigger", O_WRONLY) >= 0) bad |= 128;
        _exit(bad);
      },
      spec);
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
  CHECK(fs::exists(dir / "open" / "ok.txt"));
  CHECK_FALSE(fs::exists(dir / "shut.txt"));
  fs::remove_all(dir);
}

TEST_CASE("cell: ptrace is denied, and the handler names it before the process dies of SIGSYS", "[sandbox]") {
  if (!fullCell()) return;
  void* shared = mmap(nullptr, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  REQUIRE(shared != MAP_FAILED);
  char* message = static_cast<char*>(shared);
  int status = inCell([&] {
    kc::sandbox::setViolationSink(message, 4096);
    ptrace(PTRACE_TRACEME, 0, nullptr, nullptr);
    _exit(0);
  });
  REQUIRE(WIFSIGNALED(status));
  CHECK(WTERMSIG(status) == SIGSYS);
  CHECK(std::string(message) == "sandbox-violation: ptrace denied");
  munmap(shared, 4096);
}

TEST_CASE("cell: --sandbox off runs the body as a plain child", "[sandbox]") {
  kc::sandbox::setMode(kc::sandbox::Mode::Off);
  int status = inCell([] { _exit(getppid() == 1 ? 1 : 0); });
  kc::sandbox::setMode(kc::sandbox::Mode::Auto);
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
  CHECK(kc::sandbox::statusLine().rfind("sandbox: ", 0) == 0);
  CHECK_THROWS_WITH(kc::sandbox::parseMode("loose"), "--sandbox must be auto, strict or off; not 'loose'");
}
