// A cell kept for many processes (sandbox/cell_host.h): each spawn is a fresh process whose
// end comes back as it was, and nothing one process leaves (files in its scratch folder or
// /dev/shm, System V objects, processes it started) reaches the next. Where the machine
// gives no PID namespace the cases are skipped with a warning, never passed.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <dirent.h>
#include <signal.h>
#include <sys/ipc.h>
#include <sys/resource.h>
#include <sys/shm.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <string>

#include "sandbox/cell_host.h"
#include "sandbox/mode.h"

using kc::sandbox::CellHost;

namespace {

kc::sandbox::CellSpec standardFds() {
  kc::sandbox::CellSpec spec;
  spec.fds = {{0, 0}, {1, 1}, {2, 2}};
  return spec;
}

bool keptCells() {
  if (CellHost::usable()) return true;
  WARN("skipped: " << kc::sandbox::statusLine());
  return false;
}

// Spawns one process with stdin, stdout and stderr from here and returns its wait status.
int spawnAndWait(CellHost& host, uint64_t word, kc::sandbox::Limits limits = {}) {
  int pidfd = host.spawn({{0, 0}, {1, 1}, {2, 2}}, word, limits);
  REQUIRE(pidfd >= 0);
  int status = host.wait();
  close(pidfd);
  return status;
}

int processesInProc() {
  int n = 0;
  DIR* d = opendir("/proc");
  while (dirent* e = d ? readdir(d) : nullptr)
    if (std::atoi(e->d_name) > 0) ++n;
  if (d) closedir(d);
  return n;
}

int linesOf(const char* path) {
  std::ifstream in(path);
  std::string line;
  int n = 0;
  while (std::getline(in, line)) ++n;
  return n;
}

}  // namespace

TEST_CASE("kept cell: every spawn's exit status and death signal come back as they were", "[sandbox][cellhost]") {
  if (!keptCells()) return;
  auto host = CellHost::start(standardFds(), [](uint64_t word) {
    if (word == 1) {
      signal(SIGSEGV, SIG_DFL);  // not the test runner's handler
      raise(SIGSEGV);
    }
    _exit(static_cast<int>(word));
  });
  int status = spawnAndWait(*host, 7);
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 7);
  status = spawnAndWait(*host, 1);
  REQUIRE(WIFSIGNALED(status));
  CHECK(WTERMSIG(status) == SIGSEGV);
  status = spawnAndWait(*host, 9);  // the cell outlives a crash
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 9);
}

TEST_CASE("kept cell: nothing one process leaves reaches the next", "[sandbox][cellhost]") {
  if (!keptCells()) return;
  // word 0 leaves: a file in its scratch folder and in /dev/shm, a System V segment and a
  // process that outlives it. word 1 looks for each and exits with a bit per one it finds.
  auto host = CellHost::start(standardFds(), [](uint64_t word) {
    std::string scratch = std::getenv("TMPDIR");
    if (word == 0) {
      int bad = 0;
      if (open((scratch + "/left").c_str(), O_WRONLY | O_CREAT, 0600) < 0) bad |= 1;
      if (open("/dev/shm/left", O_WRONLY | O_CREAT, 0600) < 0) bad |= 2;
      if (shmget(0x6b63, 4096, IPC_CREAT | 0600) < 0) bad |= 4;
      if (fork() == 0) {
        setsid();
        for (;;) pause();
      }
      _exit(bad);
    }
    int found = 0;
    if (access((scratch + "/left").c_str(), F_OK) == 0) found |= 1;
    if (access("/dev/shm/left", F_OK) == 0) found |= 2;
    if (linesOf("/proc/sysvipc/shm") > 1) found |= 4;
    if (processesInProc() != 2) found |= 8;  // pid 1 and this one
    _exit(found);
  });
  int status = spawnAndWait(*host, 0);
  REQUIRE(WIFEXITED(status));
  REQUIRE(WEXITSTATUS(status) == 0);
  status = spawnAndWait(*host, 1);
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
}

TEST_CASE("kept cell: a process cannot reach pid 1, and takes its limits from its spawn", "[sandbox][cellhost]") {
  if (!keptCells()) return;
  auto host = CellHost::start(standardFds(), [](uint64_t word) {
    if (word == 0) {
      int found = 0;
      if (open("/proc/1/mem", O_RDWR) >= 0) found |= 1;
      kill(1, SIGKILL);  // from inside its namespace, pid 1 ignores it
      _exit(found);
    }
    rlimit as{};
    getrlimit(RLIMIT_AS, &as);
    _exit(as.rlim_cur == word ? 0 : 1);
  });
  int status = spawnAndWait(*host, 0);
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
  kc::sandbox::Limits limits;
  limits.addressBytes = 3ull << 30;
  status = spawnAndWait(*host, limits.addressBytes, limits);
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
}

TEST_CASE("kept cell: a process killed through its pidfd ends as killed, and the cell serves on", "[sandbox][cellhost]") {
  if (!keptCells()) return;
  auto host = CellHost::start(standardFds(), [](uint64_t word) {
    if (word == 0)
      for (;;) pause();
    _exit(5);
  });
  int pidfd = host->spawn({{0, 0}, {1, 1}, {2, 2}}, 0, {});
  REQUIRE(pidfd >= 0);
  REQUIRE(syscall(SYS_pidfd_send_signal, pidfd, SIGKILL, nullptr, 0) == 0);
  int status = host->wait();
  close(pidfd);
  REQUIRE(WIFSIGNALED(status));
  CHECK(WTERMSIG(status) == SIGKILL);
  status = spawnAndWait(*host, 1);
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 5);
}
