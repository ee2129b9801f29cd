#include "checker/environment.h"

#include <sys/utsname.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "stdlib/data_root.h"

namespace kc::check {

namespace {

// A path as one shell word.
std::string shellWord(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string cpuModel() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("model name", 0) == 0) {
      auto colon = line.find(':');
      if (colon != std::string::npos) return line.substr(line.find_first_not_of(" \t", colon + 1));
    }
  return "";
}

std::string orNotFound(const std::string& s, const std::string& why) { return s.empty() ? why : s; }

}  // namespace

std::string firstLineOf(const std::string& command) {
  FILE* p = popen((command + " 2>/dev/null").c_str(), "r");
  if (!p) return "";
  std::array<char, 512> buf{};
  std::string line;
  if (fgets(buf.data(), buf.size(), p)) line = buf.data();
  while (fgets(buf.data(), buf.size(), p)) {
  }  // read to the end, so the command is not killed by a closed pipe
  int rc = pclose(p);
  while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.pop_back();
  return rc == 0 ? line : "";
}

std::string gitTopLevel(const std::string& path) {
  std::error_code ec;
  std::filesystem::path p = std::filesystem::absolute(path, ec);
  std::string dir = std::filesystem::is_directory(p, ec) ? p.string() : p.parent_path().string();
  return firstLineOf("git -C " + shellWord(dir) + " rev-parse --show-toplevel");
}

Environment gatherEnvironment(const std::string& toolVersion, const std::string& kernelPath) {
  Environment env;
  auto add = [&](const std::string& k, const std::string& v) { env.facts.emplace_back(k, v); };
  add("kcontract", toolVersion);
  try {
    const stdlib::DataRoot& data = stdlib::dataRoot();
    add("data folder", data.path + " (" + stdlib::originText(data.origin) + ")");
  } catch (const std::exception& e) {
    add("data folder", std::string("none: ") + e.what());
  }
  std::string top = kernelPath.empty() ? "" : gitTopLevel(kernelPath);
  if (top.empty()) {
    add("kernel revision", "not in a git repository (or git is not installed)");
  } else {
    std::string rev = firstLineOf("git -C " + shellWord(top) + " rev-parse HEAD");
    std::string dirty = firstLineOf("git -C " + shellWord(top) + " status --porcelain -- " + shellWord(kernelPath));
    add("kernel revision", orNotFound(rev, "a repository without commits") + (dirty.empty() ? "" : " (the kernel has uncommitted changes)"));
  }
  add("device", orNotFound(firstLineOf("nvidia-smi --query-gpu=name,driver_version --format=csv,noheader"),
                           "no NVIDIA GPU seen (nvidia-smi absent or failed)"));
  std::string nvcc = firstLineOf("command -v nvcc || ls /usr/local/cuda/bin/nvcc");
  add("CUDA toolkit", nvcc.empty() ? "no nvcc found" : orNotFound(firstLineOf(shellWord(nvcc) + " --version | tail -n 1"), "nvcc did not say its version"));
  const char* cc = std::getenv("CC");
  const char* cxx = std::getenv("CXX");
  std::string ccName = cc && *cc ? cc : "cc", cxxName = cxx && *cxx ? cxx : "c++";
  add("C compiler", ccName + ": " + orNotFound(firstLineOf(shellWord(ccName) + " --version"), "not found"));
  add("C++ compiler", cxxName + ": " + orNotFound(firstLineOf(shellWord(cxxName) + " --version"), "not found"));
  struct utsname u {};
  std::string host = uname(&u) == 0 ? std::string(u.sysname) + " " + u.release + " " + u.machine : "uname failed";
  std::string cpu = cpuModel();
  add("host", host + (cpu.empty() ? "" : ", " + cpu));
  return env;
}

}  // namespace kc::check
