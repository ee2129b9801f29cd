// kcontract's C++ API (include/kcontract/kcontract.h): each call runs the kcontract binary,
// its output in private files, and reads back what it printed (JSON where it has a format).
#include "kcontract/kcontract.h"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

namespace kcontract {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

struct Ran {
  int status = 0;
  std::string out, err;
};

std::string readFile(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// A private folder, removed with its files when it goes.
struct Scratch {
  fs::path dir;
  Scratch() {
    std::string t = (fs::temp_directory_path() / "kcontract-api-XXXXXX").string();
    if (!mkdtemp(t.data())) throw Error(std::string("kcontract: cannot create a temporary folder: ") + std::strerror(errno), 2);
    dir = t;
  }
  ~Scratch() {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
};

// Runs the binary with `args` (no shell); stdout and stderr through files, so neither blocks.
Ran run(const std::string& binary, const std::vector<std::string>& args, const Scratch& s) {
  std::string outPath = (s.dir / "stdout").string(), errPath = (s.dir / "stderr").string();
  pid_t pid = fork();
  if (pid < 0) throw Error(std::string("kcontract: fork: ") + std::strerror(errno), 2);
  if (pid == 0) {
    int o = open(outPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600), e = open(errPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (o < 0 || e < 0) _exit(127);
    dup2(o, 1);
    dup2(e, 2);
    std::vector<char*> argv{const_cast<char*>(binary.c_str())};
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    execvp(argv[0], argv.data());
    std::fprintf(stderr, "cannot run '%s': %s\n", binary.c_str(), std::strerror(errno));
    _exit(127);
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  Ran r;
  r.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
  r.out = readFile(outPath);
  r.err = readFile(errPath);
  if (r.status == 127 && r.err.rfind("cannot run", 0) == 0) throw Error(r.err, 127);
  return r;
}

std::string trimmed(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  return s;
}

template <class T>
std::map<std::string, T> mapOf(const json& j) {
  std::map<std::string, T> m;
  if (j.is_object())
    for (auto it = j.begin(); it != j.end(); ++it) m[it.key()] = it.value().get<T>();
  return m;
}

}  // namespace

Kcontract::Kcontract(std::string binary) : binary_(std::move(binary)) {
  if (const char* env = std::getenv("KC_BINARY"); env && *env) binary_ = env;
  if (binary_.empty()) binary_ = "kcontract";
}

std::string Kcontract::version() const {
  Scratch s;
  Ran r = run(binary_, {"--version"}, s);
  if (r.status != 0) throw Error(trimmed(r.err), r.status);
  return r.out.substr(0, r.out.find('\n'));
}

CompileResult Kcontract::compile(const std::vector<std::string>& files) const {
  Scratch s;
  Ran r = run(binary_, [&] {
    std::vector<std::string> a{"ir"};
    a.insert(a.end(), files.begin(), files.end());
    return a;
  }(), s);
  CompileResult c;
  c.ok = r.status == 0;
  c.diagnostics = trimmed(r.err);
  std::istringstream in(r.out);
  for (std::string line; std::getline(in, line);)
    if (line.rfind("contract ", 0) == 0) c.contracts.push_back(line.substr(9, line.find(' ', 9) - 9));
  if (!c.ok && c.diagnostics.empty()) throw Error("kcontract ir exited " + std::to_string(r.status), r.status);
  return c;
}

std::vector<Plan> Kcontract::plan(const std::string& target, uint64_t seed) const {
  Scratch s;
  Ran r = run(binary_, {"plan", "--json", "--seed", std::to_string(seed), target}, s);
  if (r.status != 0) throw Error(trimmed(r.err), r.status);
  std::vector<Plan> plans;
  const json all = json::parse(r.out);  // kept alive for the loop (a temporary's member would not be)
  for (const json& p : all.at("plans")) {
    Plan plan;
    plan.contract = p.at("contract").get<std::string>();
    for (const json& c : p.at("cases")) {
      PlanCase pc;
      pc.id = c.at("id").get<std::string>();
      pc.why = c.value("why", "");
      pc.dims = mapOf<int64_t>(c.value("dims", json::object()));
      pc.dtypes = mapOf<std::string>(c.value("dtypes", json::object()));
      pc.layouts = mapOf<std::string>(c.value("layouts", json::object()));
      pc.memoryBytes = c.value("memory_bytes", uint64_t{0});
      plan.cases.push_back(std::move(pc));
    }
    plans.push_back(std::move(plan));
  }
  return plans;
}

CheckResult Kcontract::check(const CheckOptions& o) const {
  if (o.op.empty() == o.contract.empty()) throw Error("kcontract::check: give an op or a contract file, one of them", 2);
  if (o.kernel.empty()) throw Error("kcontract::check: no kernel", 2);
  Scratch s;
  std::string results = (s.dir / "results.jsonl").string();
  std::vector<std::string> a{"check"};
  if (!o.op.empty()) a.insert(a.end(), {"--op", o.op});
  else a.push_back(o.contract);
  a.insert(a.end(), {"--impl", o.kernel, "--format", "jsonl", "--out", results});
  if (!o.backend.empty()) a.insert(a.end(), {"--backend", o.backend});
  if (!o.dtype.empty()) a.insert(a.end(), {"--dtype", o.dtype});
  if (!o.dims.empty()) a.insert(a.end(), {"--dims", o.dims});
  if (o.timeoutSeconds > 0) a.insert(a.end(), {"--timeout", std::to_string(o.timeoutSeconds)});
  a.insert(a.end(), o.extraArgs.begin(), o.extraArgs.end());
  Ran r = run(binary_, a, s);
  if (r.status != 0 && r.status != 1) throw Error(trimmed(r.err.empty() ? r.out : r.err), r.status);
  CheckResult res;
  std::istringstream lines(readFile(results));
  bool failed = false, ran = false;
  for (std::string line; std::getline(lines, line);) {
    if (line.empty() || line[0] != '{') continue;
    json j = json::parse(line);
    Case c;
    c.id = j.at("case").get<std::string>();
    c.verdict = j.at("verdict").get<std::string>();
    c.reason = j.value("reason", "");
    c.repro = j.value("repro", "");
    c.signatures = j.value("signatures", std::vector<std::string>{});
    c.dims = mapOf<int64_t>(j.value("dims", json::object()));
    c.dtypes = mapOf<std::string>(j.value("dtypes", json::object()));
    for (const json& w : j.value("worst", json::array())) {
      Cell cell;
      cell.tensor = w.value("tensor", "");
      cell.index = w.value("index", std::vector<int64_t>{});
      cell.got = w.value("got", json()).is_number() ? w["got"].get<double>() : std::nan("");
      cell.expected = w.value("expected", json()).is_number() ? w["expected"].get<double>() : std::nan("");
      cell.tolerance = w.value("tolerance", json()).is_number() ? w["tolerance"].get<double>() : std::nan("");
      cell.unwritten = w.value("unwritten", false);
      c.worst.push_back(cell);
    }
    if (c.verdict != "SKIPPED") ran = true;
    if (c.verdict != "PASS" && c.verdict != "SKIPPED") {
      if (res.verdict.empty() || c.verdict == "FAIL") res.verdict = c.verdict;
      failed = true;
    }
    res.cases.push_back(std::move(c));
  }
  if (!failed) res.verdict = ran ? "PASS" : "SKIPPED";
  // The diagnosis's line: "diagnosis: KERNEL: cause, also, explains N of M failing cases", or
  // "diagnosis: KERNEL: unclassified (no cause has evidence ...)".
  std::istringstream text(r.out);
  for (std::string line; std::getline(text, line);) {
    size_t explains = line.find(", explains ");
    if (line.rfind("diagnosis: ", 0) == 0 && line.find(": unclassified") != std::string::npos) res.causes.push_back("unclassified");
    if (line.rfind("diagnosis: ", 0) != 0 || explains == std::string::npos) continue;
    std::string names = line.substr(0, explains);
    names = names.substr(names.rfind(": ") + 2);
    std::istringstream each(names);
    for (std::string n; std::getline(each, n, ',');) res.causes.push_back(n.substr(n.find_first_not_of(' ')));
  }
  return res;
}

}  // namespace kcontract
