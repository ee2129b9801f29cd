#include "backends/child_query.h"

#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>

namespace kc::backend {

ChildAnswer askInChild(const std::function<std::string()>& ask, int timeoutSeconds, const std::string& what) {
  ChildAnswer a;
  int fds[2];
  if (pipe(fds) != 0) {
    a.failure = "cannot ask " + what + ": pipe: " + std::strerror(errno);
    return a;
  }
  std::fflush(nullptr);
  pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]);
    close(fds[1]);
    a.failure = "cannot ask " + what + ": fork: " + std::strerror(errno);
    return a;
  }
  if (pid == 0) {  // the child: ask, write, leave without running any exit handler
    close(fds[0]);
    std::string text;
    try {
      text = "=" + ask();  // the leading '=' tells an answer from a child that wrote nothing
    } catch (const std::exception& e) {
      text = "!" + std::string(e.what());
    }
    const char* p = text.data();
    size_t left = text.size();
    while (left > 0) {
      ssize_t n = write(fds[1], p, left);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      p += n;
      left -= static_cast<size_t>(n);
    }
    _exit(0);
  }
  close(fds[1]);
  std::string got;
  bool timedOut = false;
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(timeoutSeconds);
  for (;;) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()).count();
    if (left <= 0) {
      timedOut = true;
      break;
    }
    pollfd pfd{fds[0], POLLIN, 0};
    int ready = poll(&pfd, 1, static_cast<int>(std::min<long long>(left, 1000)));
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) continue;
    char buf[4096];
    ssize_t n = read(fds[0], buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;  // the child closed the pipe: done or gone
    got.append(buf, static_cast<size_t>(n));
  }
  close(fds[0]);
  if (timedOut) kill(pid, SIGKILL);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (timedOut) {
    a.failure = what + " gave no answer within " + std::to_string(timeoutSeconds) + " s";
  } else if (WIFSIGNALED(status)) {
    a.failure = what + " died on signal " + std::to_string(WTERMSIG(status)) + " (" + strsignal(WTERMSIG(status)) + ")";
  } else if (got.empty()) {
    a.failure = what + " exited without an answer";
  } else if (got[0] == '!') {
    a.failure = what + " failed: " + got.substr(1);
  } else {
    a.answered = true;
    a.text = got.substr(1);
  }
  return a;
}

}  // namespace kc::backend
