#include "backends/host/compile_cache.h"

#include <fcntl.h>
#include <openssl/evp.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>

#include <cstdio>
#include <cstring>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "backends/backend.h"
#include "sandbox/cell.h"
#include "sandbox/output_capture.h"

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

// SHA-256 of a file's bytes, in hex ("" when it cannot be read).
std::string fileDigest(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return "";
  EVP_MD_CTX* ctx = EVP_MD_CTX_new();
  EVP_DigestInit_ex(ctx, EVP_sha256(), nullptr);
  char buf[65536];
  while (in.read(buf, sizeof buf) || in.gcount() > 0) EVP_DigestUpdate(ctx, buf, static_cast<size_t>(in.gcount()));
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int n = 0;
  EVP_DigestFinal_ex(ctx, md, &n);
  EVP_MD_CTX_free(ctx);
  std::string hex;
  char two[3];
  for (unsigned int k = 0; k < n; ++k) {
    std::snprintf(two, sizeof two, "%02x", md[k]);
    hex += two;
  }
  return hex;
}

double compileSeconds() {
  if (const char* t = std::getenv("KC_COMPILE_TIMEOUT"); t && *t) {
    char* end = nullptr;
    double v = std::strtod(t, &end);
    if (end && *end == 0 && v > 0 && v < 1e6) return v;
  }
  return 300;
}

int runProcess(const std::vector<std::string>& argv, std::string& output, const std::string& writable) {
  std::unique_ptr<sandbox::OutputCapture> capture;
  try {
    capture = std::make_unique<sandbox::OutputCapture>(sandbox::OutputCapture::Keep::Head);
  } catch (const std::runtime_error& e) {
    throw BackendError(std::string("cannot capture the compiler's output: ") + e.what());
  }
  int null = open("/dev/null", O_RDONLY | O_CLOEXEC);
  const double limit = compileSeconds();
  sandbox::CellSpec spec;
  spec.compiler = true;
  spec.fds = {{null, 0}, {capture->writeEnd(), 1}, {capture->writeEnd(), 2}};
  if (!writable.empty()) spec.writable = {writable};
  spec.limits.addressBytes = 16ull << 30;  // cc1plus, cicc: a few GB at most for a kernel
  spec.limits.cpuSeconds = limit;
  std::unique_ptr<sandbox::Cell> cell;
  try {
    cell = sandbox::forkCell(spec, [&] {
      std::vector<char*> args;
      for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
      args.push_back(nullptr);
      execvp(args[0], args.data());
      dprintf(2, "cannot run '%s': %s\n", args[0], std::strerror(errno));
      _exit(127);
    });
  } catch (const std::exception& e) {
    if (null >= 0) close(null);
    throw BackendError(std::string("cannot start the compiler: ") + e.what());
  }
  capture->closeWriteEnd();
  if (null >= 0) close(null);
  // Its output (the first errors kept), under the wall-clock limit.
  auto begin = std::chrono::steady_clock::now();
  bool timedOut = false;
  for (;;) {
    double left = limit - std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
    if (left <= 0) {
      timedOut = true;
      break;
    }
    pollfd p{capture->readEnd(), POLLIN, 0};
    int ready = poll(&p, 1, static_cast<int>(left * 1000) + 1);
    if (ready < 0 && errno == EINTR) continue;
    if (ready > 0 && !capture->drain()) break;  // every writer is gone
  }
  pid_t pid = cell->pid();
  if (timedOut) kill(pid, SIGKILL);
  int status = 0;
  waitpid(pid, &status, 0);
  kill(-pid, SIGKILL);
  sandbox::OutputCapture::Captured printed = capture->takeCaptured();
  output = printed.kept;
  if (printed.cut())
    output += "\n[" + std::to_string(printed.total) + " bytes of compiler output; the first " + std::to_string(output.size()) + " kept]";
  if (timedOut) {
    output += "\n[the compiler ran past " + std::to_string(static_cast<int>(limit)) + " s (KC_COMPILE_TIMEOUT) and was killed]";
    return 124;
  }
  if (WIFSIGNALED(status) && WTERMSIG(status) == SIGXCPU) output += "\n[the compiler ran out of CPU time]";
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
  fs::path digestFile = lib;
  digestFile += ".sha256";
  std::error_code ec;
  // A hit counts only when the library still has the digest the checker wrote after building
  // it; anything else (an edit, a half-written file) is rebuilt, and said so.
  if (fs::is_regular_file(lib, ec)) {
    std::ifstream in(digestFile);
    std::string recorded;
    in >> recorded;
    if (!recorded.empty() && recorded == fileDigest(lib.string())) return {lib.string(), true};
    std::fprintf(stderr, "kcontract: the cached build '%s' does not match its digest; rebuilding it\n", lib.c_str());
    fs::remove(lib, ec);
  }
  fs::create_directories(dir, ec);
  if (ec) throw BackendError("cannot create the kernel cache folder '" + dir.string() + "': " + ec.message());

  // The compiler writes into a folder of its own, the only place it may write; the checker
  // then moves the result into the cache and records its digest.
  std::string pattern = (dir / ".build-XXXXXX").string();
  std::vector<char> name(pattern.begin(), pattern.end());
  name.push_back(0);
  if (!mkdtemp(name.data())) throw BackendError("cannot create a build folder in '" + dir.string() + "': " + std::strerror(errno));
  fs::path build = name.data();
  fs::path tmp = build / lib.filename();
  std::vector<std::string> argv = r.command;
  argv.push_back(r.source);
  argv.push_back("-o");
  argv.push_back(tmp.string());
  argv.insert(argv.end(), r.linkFlags.begin(), r.linkFlags.end());
  std::string output;
  int status = runProcess(argv, output, build.string());
  if (status != 0 || !fs::is_regular_file(tmp, ec)) {
    fs::remove_all(build, ec);
    std::string cmd;  // as run, with the library's place in the cache for the build folder's
    for (const auto& a : argv) cmd += (cmd.empty() ? "" : " ") + (a == tmp.string() ? lib.string() : a);
    throw BackendError("compiling '" + r.source + "' failed (exit " + std::to_string(status) + "): " + cmd + "\n" +
                       output);
  }
  std::string digest = fileDigest(tmp.string());
  {
    std::ofstream out(build / "digest");
    out << digest << "\n";
  }
  fs::rename(tmp, lib, ec);
  if (!ec) fs::rename(build / "digest", digestFile, ec);
  fs::remove_all(build, ec);
  if (!fs::is_regular_file(lib)) throw BackendError("cannot move the built kernel into the cache '" + lib.string() + "'");
  return {lib.string(), false};
}

}  // namespace kc::backend
