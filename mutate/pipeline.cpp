#include "mutate/pipeline.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>

#include "backends/backend.h"
#include "mutate/ast.h"
#include "mutate/mutant_set.h"
#include "mutate/families.h"
#include "mutate/operators.h"
#include "mutate/workdir.h"

namespace kc::mutate {

namespace {

bool fail(MutateError& error, const std::string& message, bool located = false) {
  error = {message, located};
  return false;
}

double since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

// A survivor with the original's outputs on every run of every case is equivalent.
bool sameOutputs(const OutputDigests& original, const OutputDigests& mutant) {
  if (mutant.empty()) return false;
  for (const auto& [key, digest] : mutant) {
    auto it = original.find(key);
    if (it == original.end() || it->second != digest) return false;
  }
  return mutant.size() == original.size();
}

void runOne(const std::vector<check::Job>& jobs, const MutateOptions& o, const OutputDigests& original,
            const std::string& path, MutantResult& m) {
  auto start = std::chrono::steady_clock::now();
  m.contract = runKernel(jobs, path, o.run, m.mutant.family, o.naming);
  if (!m.contract.built) m.outcome = Outcome::NotBuilt;
  else if (m.contract.killed) m.outcome = Outcome::Killed;
  else if (sameOutputs(original, m.contract.digests)) m.outcome = Outcome::Equivalent;
  else m.outcome = Outcome::Survived;
  m.contract.digests.clear();
  if (o.baseline && (m.outcome == Outcome::Killed || m.outcome == Outcome::Survived)) {
    m.allclose = runAllclose(jobs, path, o.run);
    m.allclose.digests.clear();
    m.allcloseRan = true;
  }
  m.seconds = since(start);
}

// Builds each mutant into the backend's kernel cache, `parallel` at a time, so that the runs
// after find them built. A mutant that does not build is left for its run to report.
void prebuild(const backend::KernelRef& kernel, const std::vector<std::string>& paths, unsigned parallel,
              const std::string& backendName) {
  std::atomic<size_t> next{0};
  auto worker = [&] {
    std::unique_ptr<backend::Backend> be = backend::makeBackend(backendName);
    for (size_t k = next++; k < paths.size(); k = next++) {
      backend::KernelRef ref = kernel;
      ref.path = paths[k];
      try {
        be->prepare(ref);
      } catch (const std::exception&) {
      }
    }
  };
  std::vector<std::thread> threads;
  for (unsigned t = 1; t < parallel; ++t) threads.emplace_back(worker);
  worker();
  for (auto& t : threads) t.join();
}

}  // namespace

const char* outcomeName(Outcome o) {
  switch (o) {
    case Outcome::NotBuilt: return "not-built";
    case Outcome::Killed: return "killed";
    case Outcome::Survived: return "survived";
    case Outcome::Equivalent: return "equivalent";
  }
  return "?";
}

std::vector<FamilyScore> scoreFamilies(const std::vector<MutantResult>& mutants) {
  std::vector<FamilyScore> out;
  FamilyScore all;
  all.family = "all";
  auto add = [](FamilyScore& f, const MutantResult& m) {
    ++f.mutants;
    if (m.outcome == Outcome::NotBuilt) ++f.notBuilt;
    if (m.outcome == Outcome::Equivalent) ++f.equivalent;
    if (m.outcome == Outcome::Killed || m.outcome == Outcome::Survived) ++f.scored;
    if (m.outcome == Outcome::Killed) ++f.killed;
    if (m.outcome == Outcome::Killed && m.contract.named) ++f.named;
    if (m.allcloseRan && m.allclose.killed) ++f.allcloseKilled;
  };
  for (const auto& fam : families()) {
    FamilyScore f;
    f.family = fam.name;
    for (const auto& m : mutants)
      if (m.mutant.family == fam.name) add(f, m);
    if (f.mutants) out.push_back(f);
  }
  for (const auto& m : mutants) add(all, m);
  out.push_back(all);
  return out;
}

bool runMutation(Compilation& c, MutateOptions o, bool warningsAsErrors, MutationReport& report, MutateError& error,
                 const MutantDone& done) {
  auto start = std::chrono::steady_clock::now();
  report.listOnly = o.listOnly;
  // jobs: the contracts and the kernel, as `check` has them.
  std::vector<check::Job> jobs;
  check::JobError jerr;
  if (!check::buildJobs(c, o.jobs, warningsAsErrors, jobs, jerr)) return fail(error, jerr.message, jerr.located);
  o.run.includeDirs = o.jobs.includeDirs;
  report.kernel = jobs.front().kernel.path;
  report.entry = jobs.front().kernel.entry;
  report.backend = jobs.front().backend;
  for (const auto& j : jobs) report.contracts.push_back(j.contract->id);

  for (const auto& name : o.operators)
    if (std::none_of(operators().begin(), operators().end(), [&](const Operator& op) { return name == op.name; })) {
      std::string list;
      for (const auto& op : operators()) list += (list.empty() ? "" : ", ") + std::string(op.name);
      return fail(error, "unknown operator '" + name + "'; the operators are: " + list);
    }
  KernelAst ast;
  std::vector<Mutant> mutants;
  if (!o.from.empty()) {
    // the mutant set of --from, made where libclang is (mutant_set.h)
    MutantSet set;
    try {
      set = readMutantSet(o.from, report.kernel);
    } catch (const MutantSetError& e) {
      return fail(error, e.what());
    }
    if (set.entry != report.entry)
      return fail(error, o.from + ": the mutants are of '" + set.entry + "', not of the entry '" + report.entry + "'");
    ast = std::move(set.ast);
    mutants = std::move(set.mutants);
    if (!o.operators.empty())
      std::erase_if(mutants, [&](const Mutant& m) { return std::find(o.operators.begin(), o.operators.end(), m.op) == o.operators.end(); });
  } else {
    // parse
    try {
      ast = parseKernel(report.kernel, o.jobs.includeDirs);
    } catch (const ParseError& e) {
      return fail(error, e.what(), true);
    }
    if (!ast.function(report.entry))
      return fail(error, report.kernel + ": defines no function '" + report.entry + "' (the kernel's entry)");
    // generate
    mutants = generateMutants(ast, report.entry, o.operators);
  }
  report.language = languageName(ast.language);
  if (!o.only.empty()) {
    for (const auto& id : o.only)
      if (std::none_of(mutants.begin(), mutants.end(), [&](const Mutant& m) { return m.id == id; }))
        return fail(error, "no mutant '" + id + "' of " + report.entry + " in " + report.kernel);
    std::erase_if(mutants, [&](const Mutant& m) { return std::find(o.only.begin(), o.only.end(), m.id) == o.only.end(); });
  }
  for (auto& m : mutants) {
    MutantResult r;
    r.diff = mutantDiff(ast, m);
    r.mutant = std::move(m);
    report.mutants.push_back(std::move(r));
  }
  if (!o.emit.empty()) {
    std::vector<Mutant> ms;
    std::vector<std::string> diffs;
    for (const auto& r : report.mutants) {
      ms.push_back(r.mutant);
      diffs.push_back(r.diff);
    }
    try {
      writeMutantSet(o.emit, ast, report.entry, ms, diffs);
    } catch (const MutantSetError& e) {
      return fail(error, e.what());
    }
    report.emitted = o.emit;
    o.listOnly = true;
  }
  if (o.listOnly) {
    report.listOnly = true;
    report.families = scoreFamilies(report.mutants);
    return true;
  }
  if (report.mutants.empty()) return fail(error, report.kernel + ": no mutation operator applies to " + report.entry);

  // write
  MutantFolder folder(report.kernel);
  std::vector<std::string> paths;
  for (const auto& r : report.mutants) paths.push_back(folder.write(r.mutant, mutantSource(ast, r.mutant)));

  // original: every case, every output recorded; it must pass.
  KernelRun original = runKernel(jobs, report.kernel, o.run, "");
  if (!original.built) return fail(error, "the unmutated kernel " + report.kernel + " could not be built: " + original.buildError);
  if (original.digests.empty())
    return fail(error, "no case of the plan ran the unmutated kernel (every one skipped or narrowed away): nothing to kill mutants with");
  report.originalCases = original.cases;
  report.originalKills = original.killed ? 1 : 0;
  report.originalFailure = original.firstFailure;
  if (original.killed) {
    report.seconds = since(start);
    return true;  // nothing is scored against a contract the kernel itself breaks
  }
  if (o.baseline) report.allcloseOriginalKills = runAllclose(jobs, report.kernel, o.run).killed ? 1 : 0;

  // matrix and baseline, --jobs mutants at a time. On a backend with a device of its own
  // (CUDA), runs side by side would share the GPU, and its device-wide counters with it (free
  // memory: the device-memory-leak rule saw other mutants' contexts as leaks, every mutant
  // "killed"): there the mutants are built side by side and run one at a time.
  unsigned parallel = o.parallel;
  if (parallel > 1 && backend::makeBackend(report.backend)->separateMemory()) {
    prebuild(jobs.front().kernel, paths, parallel, report.backend);
    parallel = 1;
  }
  std::atomic<size_t> next{0};
  size_t finished = 0;
  std::mutex lock;
  auto worker = [&] {
    for (size_t k = next++; k < report.mutants.size(); k = next++) {
      runOne(jobs, o, original.digests, paths[k], report.mutants[k]);
      std::lock_guard<std::mutex> g(lock);
      ++finished;
      if (done) done(report.mutants[k], finished, report.mutants.size());
    }
  };
  unsigned n = std::max(1u, std::min<unsigned>(parallel, static_cast<unsigned>(report.mutants.size())));
  if (n == 1) {
    worker();
  } else {
    std::vector<std::thread> threads;
    for (unsigned t = 0; t < n; ++t) threads.emplace_back(worker);
    for (auto& t : threads) t.join();
  }

  // suggest: the survivors, --jobs at a time.
  std::vector<size_t> survivors;
  for (size_t k = 0; k < report.mutants.size(); ++k)
    if (report.mutants[k].outcome == Outcome::Survived) survivors.push_back(k);
  if (o.suggest && !survivors.empty()) {
    Suggester suggester(jobs, o.run, report.kernel, o.naming);
    report.suggestChanges = suggester.changes();
    std::atomic<size_t> nextSurvivor{0};
    auto suggestWorker = [&] {
      for (size_t k = nextSurvivor++; k < survivors.size(); k = nextSurvivor++) {
        MutantResult& m = report.mutants[survivors[k]];
        m.suggestion = suggester.suggest(paths[survivors[k]], m.mutant.family);
      }
    };
    unsigned ns = std::max(1u, std::min<unsigned>(parallel, static_cast<unsigned>(survivors.size())));
    std::vector<std::thread> threads;
    for (unsigned t = 1; t < ns; ++t) threads.emplace_back(suggestWorker);
    suggestWorker();
    for (auto& t : threads) t.join();
  }

  // score
  report.families = scoreFamilies(report.mutants);
  report.seconds = since(start);
  return true;
}

}  // namespace kc::mutate
