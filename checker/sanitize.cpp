#include "checker/sanitize.h"
#include "checker/self_path.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <thread>

#include "backends/backend_names.h"
#include "checker/repro.h"
#include "sandbox/cell.h"

namespace kc::check {

namespace fs = std::filesystem;

namespace {

constexpr const char* kPrefix = "=========";
// The re-run's worker may take this many times the case's timeout (the tools slow kernels
// 10-100x, docs/design.md §7); the whole re-run gets that plus a minute for start-up.
constexpr double kSlowdown = 20;

bool executable(const fs::path& p) { return !p.empty() && access(p.c_str(), X_OK) == 0 && !fs::is_directory(p); }

std::string trim(const std::string& s) {
  size_t b = s.find_first_not_of(" \t\r");
  size_t e = s.find_last_not_of(" \t\r");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

// Lines that are not findings: the banner, summaries, the context of a finding (indented
// lines: "at ...", "by thread ...", "Address ...", host frames) and the host backtrace.
bool headline(const std::string& raw, std::string& out) {
  if (raw.rfind(kPrefix, 0) != 0) return false;
  std::string rest = raw.substr(std::strlen(kPrefix));
  if (rest.empty() || rest[0] != ' ') return false;
  if (rest.size() > 1 && (rest[1] == ' ' || rest[1] == '\t')) return false;  // context of the finding above
  out = trim(rest);
  if (out.empty() || out == "COMPUTE-SANITIZER") return false;
  for (const char* skip : {"ERROR SUMMARY", "RACECHECK SUMMARY", "LEAK SUMMARY", "Saved host backtrace", "Host Frame",
                           "Device Frame", "Target application returned", "Error: process didn't terminate", "No CUDA"})
    if (out.rfind(skip, 0) == 0) return false;
  return true;
}

// Runs argv in a cell of its own (sandbox/cell.h) with stdout and stderr into `outPath`;
// kills the cell after `limit` seconds. The tool and the replay it starts share the cell's
// namespaces, so compute-sanitizer's channels to its target (found by process id, through
// /dev/shm, writable here) stay inside one cell, and the untrusted kernel runs in a cell as
// in any check. Outside the tool's cell its target's worker died (status 255) or hung. The
// replay starts no cell of its own: the cell's seccomp filter denies the calls that would
// (KC_SANDBOX_WITHOUT names every layer); its kernel cache is a folder of `dir`. Returns the
// exit status, 124 on a timeout, 127 when it could not start.
int runInCell(const std::vector<std::string>& argv, const std::string& outPath, const std::string& dir, double limit) {
  int fd = open(outPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0) return 127;
  int null = open("/dev/null", O_RDONLY | O_CLOEXEC);
  sandbox::CellSpec spec;
  spec.fds = {{null, 0}, {fd, 1}, {fd, 2}};
  spec.writable = {dir};
  spec.gpuDevices = true;
  spec.sharedMemory = true;
  spec.title = "kc-sanitize";
  const std::string cache = dir + "/cache";
  std::unique_ptr<sandbox::Cell> cell;
  try {
    cell = sandbox::forkCell(spec, [&] {
      setenv("KC_SANDBOX_WITHOUT", "user,pid,mount,net,ipc,seccomp", 1);
      setenv("KC_CACHE_DIR", cache.c_str(), 1);
      std::vector<char*> args;
      for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
      args.push_back(nullptr);
      execvp(args[0], args.data());
      _exit(127);
    });
  } catch (const std::exception&) {
    close(fd);
    if (null >= 0) close(null);
    return 127;
  }
  close(fd);
  if (null >= 0) close(null);
  const pid_t pid = cell->pid();
  auto start = std::chrono::steady_clock::now();
  int status = 0;
  for (;;) {
    if (waitpid(pid, &status, WNOHANG) == pid) break;
    if (std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() > limit) {
      kill(-pid, SIGKILL);
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      return 124;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

std::string readAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// The re-run's own verdict line ("CRASH    acme#3 ..."), without its timing.
std::string verdictLine(const std::string& output) {
  std::istringstream in(output);
  std::string line;
  while (std::getline(in, line)) {
    for (const char* word : {"PASS ", "FAIL ", "MISTRUSTED ", "CRASH ", "TIMEOUT ", "ERROR ", "SKIPPED ", "UNKNOWN "})
      if (line.rfind(word, 0) == 0) {
        std::string w = word;
        std::string rest = trim(line.substr(w.size()));
        return w + rest.substr(0, rest.find(' '));
      }
  }
  return "";
}

}  // namespace

const std::vector<std::string>& sanitizerTools() {
  static const std::vector<std::string> tools = {"memcheck", "racecheck", "initcheck", "synccheck"};
  return tools;
}

std::string findComputeSanitizer() {
  if (const char* c = std::getenv("KC_COMPUTE_SANITIZER"); c && *c) return executable(c) ? c : "";
  if (const char* path = std::getenv("PATH")) {
    std::string dirs = path;
    size_t start = 0;
    while (start <= dirs.size()) {
      size_t end = dirs.find(':', start);
      if (end == std::string::npos) end = dirs.size();
      fs::path candidate = fs::path(dirs.substr(start, end - start)) / "compute-sanitizer";
      if (end > start && executable(candidate)) return candidate.string();
      start = end + 1;
    }
  }
  fs::path fallback = "/usr/local/cuda/bin/compute-sanitizer";
  return executable(fallback) ? fallback.string() : "";
}

report::SanitizerRun parseSanitizerOutput(const std::string& tool, const std::string& text, size_t maxFindings) {
  report::SanitizerRun run;
  run.tool = tool;
  run.ran = true;
  static const std::regex errorSummary(R"(ERROR SUMMARY:\s*([0-9]+)\s+error)");
  static const std::regex raceSummary(R"(RACECHECK SUMMARY:.*\(([0-9]+)\s+error)");
  int64_t errors = -1, races = -1;
  std::vector<std::pair<std::string, int>> seen;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    std::smatch m;
    if (line.rfind(kPrefix, 0) != 0) continue;
    if (std::regex_search(line, m, errorSummary)) {
      errors = (errors < 0 ? 0 : errors) + std::stoll(m[1]);
      continue;
    }
    if (std::regex_search(line, m, raceSummary)) {
      races = (races < 0 ? 0 : races) + std::stoll(m[1]);
      continue;
    }
    std::string h;
    if (!headline(line, h)) continue;
    auto it = std::find_if(seen.begin(), seen.end(), [&](const auto& s) { return s.first == h; });
    if (it != seen.end()) ++it->second;
    else seen.emplace_back(h, 1);
  }
  run.errors = std::max(errors, races);  // racecheck counts its hazards in its own summary
  for (size_t i = 0; i < seen.size() && i < maxFindings; ++i)
    run.findings.push_back(seen[i].first + (seen[i].second > 1 ? " (x" + std::to_string(seen[i].second) + ")" : ""));
  if (seen.size() > maxFindings)
    run.findings.push_back("... and " + std::to_string(seen.size() - maxFindings) + " more distinct reports");
  return run;
}

report::SanitizerRun sanitizeCase(const SanitizeRequest& q) {
  report::SanitizerRun run;
  run.tool = q.tool;
  if (q.backend != backend::kCudaBackend) {
    run.note = "compute-sanitizer checks CUDA kernels; this case ran on the " + q.backend + " backend";
    return run;
  }
  if (q.verdict == report::Verdict::Skipped) {
    run.note = "the case was SKIPPED" + (q.skipReason.empty() ? "" : " (" + q.skipReason + ")");
    return run;
  }
  std::string tool = q.sanitizer.empty() ? findComputeSanitizer() : q.sanitizer;
  if (tool.empty()) {
    run.note = "compute-sanitizer was not found ($KC_COMPUTE_SANITIZER, PATH, /usr/local/cuda/bin)";
    return run;
  }
  std::string error;
  auto repro = parseRepro(q.repro, error);
  if (!repro) {
    run.note = "the case has no usable reproducer: " + error;
    return run;
  }
  repro->timeout = q.timeoutSeconds * kSlowdown;
  char dir[] = "/tmp/kc-sanitize-XXXXXX";
  if (!mkdtemp(dir)) {
    run.note = std::string("cannot create a temporary folder: ") + std::strerror(errno);
    return run;
  }
  std::string log = std::string(dir) + "/tool.log", out = std::string(dir) + "/replay.out";
  std::vector<std::string> argv = {tool, "--tool", q.tool, "--target-processes", "all", "--log-file", log,
                                   q.kcontract.empty() ? selfPath() : q.kcontract, "replay", formatRepro(*repro)};
  int status = runInCell(argv, out, dir, repro->timeout + 60);
  std::string replayOut = readAll(out);
  std::string toolOut = readAll(log);
  std::error_code ec;
  fs::remove_all(dir, ec);
  if (status == 127 && toolOut.empty()) {
    run.note = "cannot run '" + tool + "'";
    return run;
  }
  run = parseSanitizerOutput(q.tool, toolOut.empty() ? replayOut : toolOut);
  std::string line = verdictLine(replayOut);
  run.note = status == 124 ? "killed after " + std::to_string(static_cast<int>(repro->timeout + 60)) + " s"
                           : line.empty() ? "no verdict line (exit " + std::to_string(status) + ")" : line;
  return run;
}

}  // namespace kc::check
