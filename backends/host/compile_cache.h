#pragma once
// Compiles a kernel source into a shared library, cached by content: the key hashes the
// compiler command, every flag, the source text and the ABI header, so an edit to any of
// them rebuilds and nothing else does. The library is written under a temporary name and
// renamed into place, so a crash mid-build never leaves a broken cache entry. The compiler runs
// in a cell that can write only its build folder; the checker moves the library into the
// cache and records its SHA-256, which every hit checks.
#include <string>
#include <vector>

namespace kc::backend {

struct CompileRequest {
  std::string source;                // path of the .c / .cpp / .cu file
  std::vector<std::string> command;  // compiler and flags, without the source and -o
  std::string kind;                  // cache subfolder: host, cuda
  std::vector<std::string> extraKeyFiles;  // files whose text also goes into the key (headers)
  std::vector<std::string> linkFlags;      // after the source and -o (libraries: -lOpenCL)
};

struct CompileResult {
  std::string library;  // the cached .so
  bool cached = false;
};

// The cache folder: $KC_CACHE_DIR, else $XDG_CACHE_HOME/kcontract, else ~/.cache/kcontract.
std::string cacheDir();

// Builds (or finds) the library. Throws BackendError with the compiler's output on failure.
CompileResult compileCached(const CompileRequest& request);

// Runs argv (no shell) in a compiler's cell (sandbox/cell.h: `writable` its only writable
// folder) under a time limit (KC_COMPILE_TIMEOUT, default 300 s) and returns its exit status
// (124: timed out); `output` receives stdout and stderr, the first 64 KiB.
int runProcess(const std::vector<std::string>& argv, std::string& output, const std::string& writable);

}  // namespace kc::backend
