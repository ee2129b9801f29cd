#include "backends/host/compile_cache.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "backends/backend.h"

extern char** environ;

namespace kc::backend {

namespace fs = std::filesystem;

namespace {

std::string readAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw BackendError("cannot read '" + path + "'");
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// 64-bit FNV-1a, folded over several strings with separators.
struct Hasher {
  uint64_t h = 14695981039346656037ull;
  void add(const std::string& s) {
    for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
    h = (h ^ 0xff) * 1099511628211ull;  // separator: {"ab","c"} != {"a","bc"}
  }
  std::string hex() const {
    char buf[17];
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
    return buf;
  }
};

}  // namespace

std::string cacheDir() {
  if (const char* d = std::getenv("KC_CACHE_DIR"); d && *d) return d;
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) return std::string(x) + "/kcontract";
  if (const char* home = std::getenv("HOME"); home && *home) return std::string(home) + "/.cache/kcontract";
  return (fs::temp_directory_path() / "kcontract-cache").string();
}

int runProcess(const std::vector<std::string>& argv, std::string& output) {
  char outTemplate[] = "/tmp/kc-run-XXXXXX";
  int fd = mkstemp(outTemplate);
  if (fd < 0) throw BackendError("cannot create a temporary file for the compiler's output");
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fd, 1);
  posix_spawn_file_actions_adddup2(&actions, fd, 2);
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  int rc = posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  int status = 0;
  if (rc == 0) waitpid(pid, &status, 0);
  close(fd);
  output = readAll(outTemplate);
  unlink(outTemplate);
  if (rc != 0) {
    output = "cannot run '" + argv[0] + "': " + std::strerror(rc);
    return 127;
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

CompileResult compileCached(const CompileRequest& r) {
  if (!fs::is_regular_file(r.source)) throw BackendError("no kernel source '" + r.source + "'");
  Hasher h;
  for (const auto& part : r.command) h.add(part);
  for (const auto& part : r.linkFlags) h.add(part);
  h.add(fs::path(r.source).extension().string());
  h.add(readAll(r.source));
  for (const auto& f : r.extraKeyFiles) h.add(readAll(f));
  fs::path dir = fs::path(cacheDir()) / r.kind;
  fs::path lib = dir / (fs::path(r.source).stem().string() + "-" + h.hex() + ".so");
  std::error_code ec;
  if (fs::is_regular_file(lib, ec)) return {lib.string(), true};
  fs::create_directories(dir, ec);
  if (ec) throw BackendError("cannot create the kernel cache folder '" + dir.string() + "': " + ec.message());

  fs::path tmp = lib;
  tmp += ".tmp." + std::to_string(getpid());
  std::vector<std::string> argv = r.command;
  argv.push_back(r.source);
  argv.push_back("-o");
  argv.push_back(tmp.string());
  argv.insert(argv.end(), r.linkFlags.begin(), r.linkFlags.end());
  std::string output;
  int status = runProcess(argv, output);
  if (status != 0) {
    fs::remove(tmp, ec);
    std::string cmd;
    for (const auto& a : argv) cmd += (cmd.empty() ? "" : " ") + a;
    throw BackendError("compiling '" + r.source + "' failed (exit " + std::to_string(status) + "): " + cmd + "\n" +
                       output);
  }
  fs::rename(tmp, lib, ec);
  if (ec) throw BackendError("cannot move the built kernel into the cache: " + ec.message());
  return {lib.string(), false};
}

}  // namespace kc::backend
