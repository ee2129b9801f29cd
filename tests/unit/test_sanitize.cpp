// compute-sanitizer mode (checker/sanitize.h) without compute-sanitizer: its output, from
// samples written after NVIDIA's documentation (tests/unit/data/sanitizer/), is parsed into
// an error count and headlines; a case that cannot be sanitized says why; a stand-in tool
// (a script writing a sample into --log-file) exercises the child-process path. Also the
// host backend's perturbation schedule and the report fields both features add.
#include <catch2/catch.hpp>

#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "backends/host/cpu_noise.h"
#include "checker/report/jsonl.h"
#include "checker/report/text.h"
#include "checker/sanitize.h"

#ifdef KC_HAVE_CUDA
#include "backends/cuda/device_noise.h"
#endif

namespace {

std::string sample(const std::string& name) {
  std::ifstream in(std::string(KC_SOURCE_DIR) + "/tests/unit/data/sanitizer/" + name);
  REQUIRE(in);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

const char* kRepro =
    "kcontract replay 'file=softmax.kcontract contract=acme.softmax.rows@1 case=4 seed-index=0 base-seed=0 "
    "impl=k.cu:kc_acme_softmax backend=cuda inputs=- timeout=10'";

}  // namespace

using kc::check::parseSanitizerOutput;

TEST_CASE("sanitize: memcheck's invalid writes are counted and headlined once each", "[sanitize]") {
  auto r = parseSanitizerOutput("memcheck", sample("memcheck_illegal_address.txt"));
  CHECK(r.ran);
  CHECK(r.tool == "memcheck");
  CHECK(r.errors == 4);
  REQUIRE(r.findings.size() == 2);
  CHECK(r.findings[0] == "Invalid __global__ write of size 4 bytes (x3)");
  CHECK(r.findings[1] ==
        "Program hit cudaErrorLaunchFailure (error 719) due to \"unspecified launch failure\" on CUDA API call to "
        "cudaStreamSynchronize.");
}

TEST_CASE("sanitize: racecheck's count comes from its own summary", "[sanitize]") {
  auto r = parseSanitizerOutput("racecheck", sample("racecheck_shared_race.txt"));
  CHECK(r.errors == 2);
  REQUIRE(r.findings.size() == 2);
  CHECK(r.findings[0].rfind("Error: Race reported between Write access at tree_sum(", 0) == 0);
  CHECK(r.findings[1].rfind("Error: Race reported between Read access at tree_sum(", 0) == 0);
}

TEST_CASE("sanitize: initcheck and synccheck", "[sanitize]") {
  auto init = parseSanitizerOutput("initcheck", sample("initcheck_scratch.txt"));
  CHECK(init.errors == 2);
  REQUIRE(init.findings.size() == 1);
  CHECK(init.findings[0] == "Uninitialized __global__ memory read of size 4 bytes (x2)");
  auto sync = parseSanitizerOutput("synccheck", sample("synccheck_divergent.txt"));
  CHECK(sync.errors == 1);
  REQUIRE(sync.findings.size() == 1);
  CHECK(sync.findings[0] == "Barrier error detected. Divergent thread(s) in block");
}

TEST_CASE("sanitize: a clean run has 0 errors; a run with no summary has -1", "[sanitize]") {
  auto clean = parseSanitizerOutput("memcheck", sample("clean.txt"));
  CHECK(clean.errors == 0);
  CHECK(clean.findings.empty());
  auto killed = parseSanitizerOutput("memcheck", sample("killed.txt"));
  CHECK(killed.errors == -1);
  REQUIRE(killed.findings.size() == 1);
  CHECK(killed.findings[0] == "Invalid __global__ read of size 16 bytes");
}

TEST_CASE("sanitize: at most maxFindings distinct headlines, then how many more", "[sanitize]") {
  std::string text;
  for (int i = 0; i < 4; ++i) text += "========= Invalid __global__ read of size " + std::to_string(1 << i) + " bytes\n";
  auto r = parseSanitizerOutput("memcheck", text, 2);
  REQUIRE(r.findings.size() == 3);
  CHECK(r.findings[2] == "... and 2 more distinct reports");
}

TEST_CASE("sanitize: a host case is not run, and says why", "[sanitize]") {
  kc::check::SanitizeRequest q;
  q.tool = "memcheck";
  q.backend = "host";
  q.verdict = kc::report::Verdict::Fail;
  q.repro = kRepro;
  auto r = kc::check::sanitizeCase(q);
  CHECK_FALSE(r.ran);
  CHECK(r.errors == -1);
  CHECK(r.note == "compute-sanitizer checks CUDA kernels; this case ran on the host backend");
}

TEST_CASE("sanitize: a missing tool and a SKIPPED case are not run", "[sanitize]") {
  kc::check::SanitizeRequest q;
  q.tool = "memcheck";
  q.backend = "cuda";
  q.verdict = kc::report::Verdict::Skipped;
  q.skipReason = "no CUDA device";
  q.repro = kRepro;
  CHECK(kc::check::sanitizeCase(q).note == "the case was SKIPPED (no CUDA device)");
  q.verdict = kc::report::Verdict::Crash;
  setenv("KC_COMPUTE_SANITIZER", "/nonexistent/compute-sanitizer", 1);
  auto r = kc::check::sanitizeCase(q);
  unsetenv("KC_COMPUTE_SANITIZER");
  CHECK_FALSE(r.ran);
  CHECK(r.note == "compute-sanitizer was not found ($KC_COMPUTE_SANITIZER, PATH, /usr/local/cuda/bin)");
}

TEST_CASE("sanitize: the tool runs the reproducer and its log is read", "[sanitize]") {
  // A stand-in compute-sanitizer: checks its arguments, writes the memcheck sample into
  // --log-file and prints what `kcontract replay` would.
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() / ("kc-sanitize-test-" + std::to_string(getpid()));
  fs::create_directories(dir);
  fs::path tool = dir / "compute-sanitizer";
  {
    std::ofstream s(tool);
    s << "#!/bin/sh\n"
         "[ \"$1 $2 $3 $4 $5\" = '--tool memcheck --target-processes all --log-file' ] || exit 9\n"
         "[ \"$8\" = replay ] || exit 8\n"
         "case \"$9\" in *'timeout=200'*) ;; *) exit 7;; esac\n"
         "cp '" << KC_SOURCE_DIR << "/tests/unit/data/sanitizer/memcheck_illegal_address.txt' \"$6\"\n"
         "echo 'inputs: not checked'\n"
         "echo 'CRASH      acme.softmax.rows@1#4   R=1 H=33   0.40 s'\n"
         "exit 1\n";
  }
  chmod(tool.c_str(), 0755);
  kc::check::SanitizeRequest q;
  q.tool = "memcheck";
  q.backend = "cuda";
  q.verdict = kc::report::Verdict::Crash;
  q.repro = kRepro;
  q.sanitizer = tool.string();
  q.kcontract = "/bin/true";
  auto r = kc::check::sanitizeCase(q);
  fs::remove_all(dir);
  CHECK(r.ran);
  CHECK(r.errors == 4);
  CHECK(r.note == "CRASH acme.softmax.rows@1#4");
  REQUIRE_FALSE(r.findings.empty());
  CHECK(r.findings[0] == "Invalid __global__ write of size 4 bytes (x3)");
}

TEST_CASE("sanitize: the findings are in the text and JSON Lines reports", "[sanitize][report]") {
  kc::report::CaseResult c;
  c.caseId = "acme@1#4";
  c.contract = "acme@1";
  c.kernel = "k.cu:kc_k";
  c.backend = "cuda";
  c.verdict = kc::report::Verdict::Crash;
  c.perturbation = "noise: a memory-bound kernel";
  c.sanitizer = parseSanitizerOutput("memcheck", sample("memcheck_illegal_address.txt"));
  c.sanitizer->note = "CRASH acme@1#4";
  auto lines = kc::report::sanitizerLines(c);
  REQUIRE(lines.size() == 3);
  CHECK(lines[0] == "compute-sanitizer memcheck: 4 errors (re-run: CRASH acme@1#4)");
  CHECK(lines[1] == "| Invalid __global__ write of size 4 bytes (x3)");
  std::string error;
  auto back = kc::report::parseCaseJson(kc::report::caseJson(c), error);
  REQUIRE(back);
  CHECK(back->perturbation == c.perturbation);
  REQUIRE(back->sanitizer);
  CHECK(back->sanitizer->errors == 4);
  CHECK(back->sanitizer->findings == c.sanitizer->findings);
  CHECK(back->sanitizer->note == "CRASH acme@1#4");
  kc::report::SanitizerRun notRun;
  notRun.tool = "racecheck";
  notRun.note = "the case was SKIPPED";
  c.sanitizer = notRun;
  CHECK(kc::report::sanitizerLines(c) == std::vector<std::string>{"compute-sanitizer racecheck: not run: the case was SKIPPED"});
}

TEST_CASE("perturb: the host backend's competitors per repeat", "[perturb]") {
  using kc::backend::CpuNoise;
  CHECK(CpuNoise::threadsFor("noise", 0, 8) == 8);
  CHECK(CpuNoise::threadsFor("noise", 2, 8) == 8);
  CHECK(CpuNoise::threadsFor("occupancy", 0, 8) == 1);
  CHECK(CpuNoise::threadsFor("occupancy", 1, 8) == 8);
  CHECK(CpuNoise::threadsFor("occupancy", 2, 8) == 16);
  CHECK(CpuNoise::threadsFor("occupancy", 3, 8) == 1);
  CHECK(CpuNoise::threadsFor("none", 0, 8) == 0);
  CpuNoise n;
  CHECK(n.configure("none").empty());
  CHECK(n.configure("launch_order").rfind("not supported: a host kernel runs synchronously", 0) == 0);
  CHECK(n.configure("noise").rfind("noise: ", 0) == 0);
  n.start(0);  // competitors run, then stop and join
  n.stop();
}

#ifdef KC_HAVE_CUDA
TEST_CASE("perturb: the CUDA noise schedule per repeat", "[perturb][cuda]") {
  using kc::backend::noiseStep;
  auto s = noiseStep("noise", 1, 132);
  CHECK((s.before && !s.after && s.blocks == 16 * 132));  // fills every SM
  CHECK((noiseStep("launch_order", 0, 132).before && !noiseStep("launch_order", 0, 132).after));
  CHECK((!noiseStep("launch_order", 1, 132).before && noiseStep("launch_order", 1, 132).after));
  CHECK((!noiseStep("launch_order", 2, 132).before && !noiseStep("launch_order", 2, 132).after));
  CHECK(noiseStep("occupancy", 0, 132).blocks == 132);
  CHECK(noiseStep("occupancy", 1, 132).blocks == 4 * 132);
  CHECK(noiseStep("occupancy", 2, 132).blocks == 16 * 132);
  CHECK(noiseStep("none", 0, 132).blocks == 0);
  // Unprepared (no device here): reported, never silently nothing.
  kc::backend::DeviceNoise n;
  CHECK(n.configure("noise") == "not supported: the noise kernel was not built; the repeats ran unperturbed");
}
#endif
