/* kcontract's C++ API (docs/install.md, "C++"): `find_package(kcontract)` gives the target
 * `kcontract::kcontract`. It drives the kcontract binary the package was installed with (or
 * $KC_BINARY): contracts are compiled, plans made and kernels checked in that process and
 * its workers, never in the caller's, so a kernel that crashes or hangs cannot take the
 * caller down. The kernel ABI (kcontract/abi.h) stays C; this header is C++17. */
#ifndef KCONTRACT_KCONTRACT_H
#define KCONTRACT_KCONTRACT_H
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

/* Set by the CMake package to PREFIX/bin/kcontract; "" falls back to $KC_BINARY, then PATH. */
#ifndef KCONTRACT_BINARY
#define KCONTRACT_BINARY ""
#endif

namespace kcontract {

/* kcontract could not do what was asked at all (exit 2: a contract, kernel or option
 * error; or the binary could not run). what() is kcontract's own message. */
struct Error : std::runtime_error {
  Error(const std::string& message, int exitCode) : std::runtime_error(message), exitCode(exitCode) {}
  int exitCode;
};

/* `kcontract ir`: whether the files pass every check of the language, the contracts they
 * declare, and the diagnostics (file:line:col: ...) when they do not. */
struct CompileResult {
  bool ok = false;
  std::vector<std::string> contracts;  /* ID@version */
  std::string diagnostics;
};

/* One planned case (`kcontract plan --json`). */
struct PlanCase {
  std::string id;   /* contract@version#n */
  std::string why;  /* base, boundary, layout, large-index, ... */
  std::map<std::string, int64_t> dims;
  std::map<std::string, std::string> dtypes;
  std::map<std::string, std::string> layouts;
  uint64_t memoryBytes = 0;
};
struct Plan {
  std::string contract;
  std::vector<PlanCase> cases;
};

/* One of a failing case's worst cells. */
struct Cell {
  std::string tensor;
  std::vector<int64_t> index;
  double got = 0, expected = 0, tolerance = 0;
  bool unwritten = false;
};
/* One case's verdict (a line of `check --format jsonl`). */
struct Case {
  std::string id, verdict, reason, repro;
  std::vector<std::string> signatures;
  std::map<std::string, int64_t> dims;
  std::map<std::string, std::string> dtypes;
  std::vector<Cell> worst;
};

struct CheckOptions {
  std::string op;        /* a standard op (check --op), or */
  std::string contract;  /* a .kcontract file */
  std::string kernel;    /* the implementation: PATH[:ENTRY] */
  std::string backend;   /* host, cuda, opencl, exec, ptx; "" as kcontract picks */
  std::string dtype;     /* --dtype */
  std::string dims;      /* --dims R=1..64,H=32 */
  double timeoutSeconds = 0;           /* per case; 0: kcontract's default */
  std::vector<std::string> extraArgs;  /* any other `check` option */
};
struct CheckResult {
  std::string verdict;  /* PASS, FAIL, ERROR, CRASH, TIMEOUT, MISTRUSTED, or SKIPPED when nothing ran */
  std::vector<Case> cases;
  std::vector<std::string> causes;  /* the diagnosis's causes, primary first ("unclassified" when it found none) */
  bool passed() const { return verdict == "PASS"; }
};

class Kcontract {
 public:
  explicit Kcontract(std::string binary = KCONTRACT_BINARY);
  const std::string& binary() const { return binary_; }
  std::string version() const;                                     /* kcontract --version's first line */
  CompileResult compile(const std::vector<std::string>& files) const;
  std::vector<Plan> plan(const std::string& target, uint64_t seed = 0) const;  /* a file or an ID@version */
  CheckResult check(const CheckOptions& options) const;

 private:
  std::string binary_;
};

}  // namespace kcontract
#endif
