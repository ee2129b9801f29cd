// One query in a forked child process (query.h, ChildQuery): the child runs the work under
// an address-space limit and writes its Result to a pipe as text; the parent polls the pipe
// with a wall-clock backstop, so a solver crash, a runaway allocation or a solver that
// overruns its own limit costs one answer, not the process that asked.
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>

#include "prover/smt/query.h"

namespace kc::smt {

namespace {

// One field per line: "key value", with \ n t escaped.
std::string escape(const std::string& s) {
  std::string o;
  for (char c : s) {
    if (c == '\\') o += "\\\\";
    else if (c == '\n') o += "\\n";
    else if (c == '\t') o += "\\t";
    else o += c;
  }
  return o;
}

std::string unescape(const std::string& s) {
  std::string o;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\\' && i + 1 < s.size()) {
      char c = s[++i];
      o += c == 'n' ? '\n' : c == 't' ? '\t' : c;
    } else {
      o += s[i];
    }
  }
  return o;
}

std::string serialise(const Result& r) {
  std::string o = std::string("answer ") + answerName(r.answer) + "\n";
  o += "reason " + escape(r.reason) + "\n";
  o += "strategy " + escape(r.strategy) + "\n";
  for (const auto& m : r.model) {
    char approx[40] = "-";
    if (m.approx) std::snprintf(approx, sizeof approx, "%.17g", *m.approx);
    o += "model " + escape(m.name) + "\t" + escape(m.sort) + "\t" + escape(m.value) + "\t" + approx + "\n";
  }
  o += "end\n";
  return o;
}

bool deserialise(const std::string& text, Result& r) {
  std::istringstream in(text);
  std::string line;
  bool ended = false, answered = false;
  while (std::getline(in, line)) {
    size_t sp = line.find(' ');
    std::string key = line.substr(0, sp), rest = sp == std::string::npos ? "" : line.substr(sp + 1);
    if (key == "answer") {
      answered = true;
      for (Answer a : {Answer::Sat, Answer::Unsat, Answer::Unknown, Answer::Timeout, Answer::Error})
        if (rest == answerName(a)) r.answer = a;
    } else if (key == "reason") {
      r.reason = unescape(rest);
    } else if (key == "strategy") {
      r.strategy = unescape(rest);
    } else if (key == "model") {
      std::vector<std::string> f;
      size_t from = 0;
      for (size_t tab; (tab = rest.find('\t', from)) != std::string::npos; from = tab + 1) f.push_back(rest.substr(from, tab - from));
      f.push_back(rest.substr(from));
      if (f.size() != 4) return false;
      ModelValue m{unescape(f[0]), unescape(f[1]), unescape(f[2]), std::nullopt};
      if (f[3] != "-") m.approx = std::strtod(f[3].c_str(), nullptr);
      r.model.push_back(std::move(m));
    } else if (key == "end") {
      ended = true;
    }
  }
  return answered && ended;
}

void writeAll(int fd, const std::string& s) {
  size_t done = 0;
  while (done < s.size()) {
    ssize_t n = ::write(fd, s.data() + done, s.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    done += static_cast<size_t>(n);
  }
}

// The last line of what the child wrote to stderr ("terminate called after ...").
std::string lastLine(const std::string& text) {
  std::string t = text;
  while (!t.empty() && (t.back() == '\n' || t.back() == '\r' || t.back() == ' ')) t.pop_back();
  size_t nl = t.rfind('\n');
  t = nl == std::string::npos ? t : t.substr(nl + 1);
  if (t.size() > 200) t = t.substr(0, 197) + "...";
  return t;
}

}  // namespace

ChildQuery::ChildQuery(const std::function<Result()>& work, const Options& opt, double deadlineSeconds)
    : opt_(opt), deadline_(deadlineSeconds), start_(std::chrono::steady_clock::now()) {
  int out[2], err[2];
  if (::pipe(out) != 0) {
    result_.reason = std::string("cannot create a pipe: ") + std::strerror(errno);
    done_ = true;
    return;
  }
  if (::pipe(err) != 0) {
    ::close(out[0]);
    ::close(out[1]);
    result_.reason = std::string("cannot create a pipe: ") + std::strerror(errno);
    done_ = true;
    return;
  }
  std::fflush(nullptr);  // nothing buffered is written twice
  pid_ = ::fork();
  if (pid_ < 0) {
    for (int fd : {out[0], out[1], err[0], err[1]}) ::close(fd);
    result_.reason = std::string("cannot fork: ") + std::strerror(errno);
    done_ = true;
    return;
  }
  if (pid_ == 0) {
    // The child: nothing it prints reaches the caller's stdout (which may be JSON); what it
    // prints to stderr (an abort message) comes back as the reason of an error.
    ::close(out[0]);
    ::close(err[0]);
    int devnull = ::open("/dev/null", O_WRONLY);
    if (devnull >= 0) ::dup2(devnull, STDOUT_FILENO);
    ::dup2(err[1], STDERR_FILENO);
    if (opt.memoryLimitMiB > 0) {
      rlimit lim{};
      lim.rlim_cur = lim.rlim_max = static_cast<rlim_t>(opt.memoryLimitMiB) << 20;
      ::setrlimit(RLIMIT_AS, &lim);
    }
    Result child = work();
    writeAll(out[1], serialise(child));
    ::close(out[1]);
    ::_exit(0);
  }
  ::close(out[1]);
  ::close(err[1]);
  out_ = out[0];
  err_ = err[0];
}

ChildQuery::~ChildQuery() {
  if (!done_) stop("abandoned");
}

bool ChildQuery::wait(double seconds) {
  if (done_) return true;
  auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(std::max(seconds, 0.0));
  for (;;) {
    double sinceStart = secondsSince(start_);
    if (sinceStart >= deadline_) {
      ::kill(pid_, SIGKILL);
      finish(true, "the solver overran its time limit of " + secondsText(opt_.timeoutSeconds) + " s and was killed");
      return true;
    }
    double left = std::min(deadline_ - sinceStart,
                           std::chrono::duration<double>(until - std::chrono::steady_clock::now()).count());
    pollfd p[2] = {{out_, POLLIN, 0}, {err_, POLLIN, 0}};
    int n = ::poll(p, 2, static_cast<int>(std::ceil(std::max(left, 0.0) * 1000)));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      ::kill(pid_, SIGKILL);
      finish(true, std::string("cannot poll the solver process: ") + std::strerror(errno));
      return true;
    }
    char buf[65536];
    for (int k = 0; k < 2 && n > 0; ++k) {
      int fd = k == 0 ? out_ : err_;
      if (fd < 0 || !(p[k].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      ssize_t got = ::read(fd, buf, sizeof buf);
      if (got < 0 && errno == EINTR) continue;
      if (got <= 0) {
        if (k == 0) {  // the answer's end of file: the child is done
          finish(false, "");
          return true;
        }
        ::close(err_);
        err_ = -1;
        continue;
      }
      (k == 0 ? data_ : errText_).append(buf, static_cast<size_t>(got));
      if (errText_.size() > 65536) errText_.erase(0, errText_.size() - 4096);
    }
    if (std::chrono::steady_clock::now() >= until) return false;
  }
}

void ChildQuery::stop(const std::string& why) {
  if (done_) return;
  ::kill(pid_, SIGKILL);
  finish(true, why);
}

void ChildQuery::finish(bool killed, const std::string& killedWhy) {
  int status = 0;
  while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
  }
  // The child has exited: the rest of its stderr is in the pipe.
  for (char buf[4096]; err_ >= 0;) {
    ssize_t got = ::read(err_, buf, sizeof buf);
    if (got > 0 && errText_.size() < 65536)
      errText_.append(buf, static_cast<size_t>(got));
    else if (got <= 0 && !(got < 0 && errno == EINTR))
      break;
  }
  if (out_ >= 0) ::close(out_);
  if (err_ >= 0) ::close(err_);
  out_ = err_ = -1;
  done_ = true;
  Result r;
  if (killed) {
    r.answer = Answer::Timeout;
    r.reason = killedWhy;
  } else if (!deserialise(data_, r)) {
    r = Result{};
    r.answer = Answer::Error;
    if (WIFSIGNALED(status)) {
      int sig = WTERMSIG(status);
      r.reason = "the solver process died of signal " + std::to_string(sig) + " (" + strsignal(sig) + ")";
      if (opt_.memoryLimitMiB > 0) r.reason += "; its memory limit is " + std::to_string(opt_.memoryLimitMiB) + " MiB";
    } else {
      r.reason = "the solver process exited with status " + std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1) +
                 " without an answer";
    }
    std::string said = lastLine(errText_);
    if (!said.empty()) r.reason += ": " + said;
  }
  r.seconds = secondsSince(start_);
  result_ = std::move(r);
}

}  // namespace kc::smt
