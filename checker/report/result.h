#pragma once
// What the checker says about one case (docs/design.md §6), the unit every report format
// writes: JSON Lines as cases finish, a text table, JUnit XML, SARIF.
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace kc::report {

enum class Verdict { Pass, Fail, Mistrusted, Crash, Timeout, Error, Skipped, Unknown };
inline constexpr int kVerdictCount = 8;

std::string_view verdictName(Verdict v);                 // "PASS", "FAIL", ...
std::optional<Verdict> parseVerdict(std::string_view s);  // the inverse
// Whether the verdict counts against the kernel (exit code 1): FAIL, CRASH, TIMEOUT, ERROR.
// MISTRUSTED (the case proved nothing), SKIPPED and UNKNOWN are reported and counted on
// their own, never as passes and never as violations.
bool isViolation(Verdict v);

// One output cell that broke a postcondition, in torch.testing.assert_close's terms.
struct WorstCell {
  std::string tensor;          // the output
  std::vector<int64_t> index;  // its logical index
  double got = 0;              // the kernel's value
  double expected = 0;         // the oracle's value
  double absError = 0;         // |got - expected| (inf when exactly one is NaN)
  double ulps = 0;             // distance in units in the last place of the output's dtype
  double tolerance = std::numeric_limits<double>::quiet_NaN();  // allowed |error|; NaN: none applies
  bool unwritten = false;      // still the poison pattern: the kernel never wrote it
};

// The case re-run under compute-sanitizer (`check --sanitize TOOL`, docs/checking.md): what
// the tool found, attached to the case; the case's verdict never changes with it.
struct SanitizerRun {
  std::string tool;                   // memcheck, racecheck, initcheck, synccheck
  bool ran = false;                   // false: not run (the tool does not apply, is missing...)
  int64_t errors = -1;                // the tool's error count; -1 when it printed no summary
  std::vector<std::string> findings;  // its first distinct reports: "Invalid __global__ read of size 4 bytes"
  std::string note;                   // not run: why; run: the re-run's own verdict line
};

struct CaseResult {
  // What ran.
  std::string contract;      // acme.softmax.rows@1
  std::string contractFile;  // the .kcontract that declares it
  int contractLine = 0;      // where (1-based), for SARIF and editors
  std::string kernel;        // PATH:ENTRY of the implementation
  std::string name;          // the suite entry's `name:` ("" outside a suite): what the summary calls the kernel
  std::string backend;       // host, cuda, ...
  std::string caseId;        // acme.softmax.rows@1#20
  size_t number = 0;         // 20
  std::string why;           // why the plan holds the case: base, boundary, layout, ...
  std::vector<std::pair<std::string, int64_t>> dims;
  std::vector<std::pair<std::string, std::string>> dtypes;   // T -> f32
  std::vector<std::pair<std::string, std::string>> values;   // input -> distribution
  std::vector<std::pair<std::string, std::string>> layouts;  // tensor -> layout
  uint64_t baseSeed = 0;     // --seed
  // The job's plan, as 16 hex digits of the SHA-256 of its JSON (`kcontract plan --format
  // json`): shards of one run share it, and `kcontract merge` refuses results whose plans
  // differ (another contract text, --seed or --problem-shape). "" in files older than it.
  std::string plan;
  uint64_t seed = 0;         // the case seed the verdict comes from (the first failing one)
  size_t seedIndex = 0;      // its position in the case's seed list
  int repeats = 1;
  // What perturbed the repeats (docs/checking.md, "Perturbation"): the backend's line, e.g.
  // "noise: ..." or "not supported: ..."; "" when the case asks for none.
  std::string perturbation;
  // Which oracle computed y* and the tolerance when check --oracle asked for a compiled one
  // (docs/oracle.md, "The compiled oracle"): "cuda" or "host" when it did, "interpreter: WHY"
  // when the interpreter ran instead; "" when the interpreter was asked for (the default off
  // the GPU).
  std::string oracle;

  // What came of it.
  Verdict verdict = Verdict::Unknown;
  std::string reason;                   // one line: why this verdict
  std::vector<std::string> violated;    // the postconditions (and built-in checks) violated
  std::vector<std::string> signatures;  // the contract's signatures that match; FAIL with none: "unclassified"
  // Of `signatures`, those a control run confirmed: the same case on neutral inputs and
  // contiguous views passed, so the class's inputs are needed (run/control.h). The
  // diagnosis (checker/diagnose/) names a class's generic signature only with this evidence.
  std::vector<std::string> confirmed;
  // The signatures that matched too but were outranked by `signatures` (a `fails only when`
  // outranks a growth): when the diagnosis refutes the outranking ones across cases, it
  // weighs these instead. Not written to the reports.
  std::vector<std::string> outranked;
  // Per signature with a `fails when` / `fails only when` clause: whether its condition held
  // on this case's inputs, passing or failing (the diagnosis weighs them across cases).
  std::vector<std::pair<std::string, bool>> conditions;
  std::vector<WorstCell> worst;         // the worst cells, worst first (at most 10)
  int64_t mismatched = 0;               // cells that broke a postcondition
  int64_t compared = 0;                 // output cells compared
  double maxAbsError = 0;
  double maxUlps = 0;
  // How close the outputs came to the tolerance: the largest |y - y*| / tol over the compared
  // cells (1: at it; Inf: a cell off where tol is 0). A PASS gives the largest over its seeds.
  double toleranceUsed = 0;
  double seconds = 0;                   // the whole case: inputs, runs, oracle, checks
  std::string kernelOutput;             // what the kernel printed (CRASH, ERROR)
  std::string repro;                    // a `kcontract replay ...` line (every non-PASS)
  std::optional<SanitizerRun> sanitizer;  // --sanitize: the re-run under compute-sanitizer
};

}  // namespace kc::report
