// kcontract check FILE|ID|SUITE.yaml [--impl PATH[:ENTRY]] [--backend B] [--dtype T] [--seed N]
//                 [--format text|jsonl|junit|sarif] [--out FILE] [--resume FILE] [--shard I/N]
//                 [--sanitize TOOL [--sanitize-case N]... [--sanitize-all]] [--devices 0,1|all]
// Runs kernels against their contracts (checker/check.h) and reports a verdict per case.
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <iterator>
#include <map>
#include <memory>
#include <set>
#include <sstream>

#include "backends/backend.h"
#include "checker/check.h"
#include "checker/devices.h"
#include "checker/self_path.h"
#include "checker/slurm.h"
#include "checker/problem_shape.h"
#include "checker/run_jobs.h"
#include "checker/sanitize.h"
#include "checker/report/chain.h"
#include "checker/report/format.h"
#include "checker/report/jsonl.h"
#include "checker/report/summary.h"
#include "checker/report/text.h"
#include "checker/suite.h"
#include "cli/cli.h"
#include "cli/flag_values.h"
#include "cli/job_options.h"
#include "cli/output.h"
#include "prover/precheck.h"
#include "sandbox/mode.h"
#include "stdlib/data_root.h"
#include "stdlib/numerics/dtype.h"

namespace kc::driver {

namespace {

struct CheckCliOptions {
  check::JobOptions jobs;
  std::string format = report::defaultReportFormat().name;
  std::string out;
  std::string resume;
  bool replace = false;  // --replace: --out overwrites a file that exists
  std::string shard;
  std::string maxMemory;
  std::string dims;     // --dims R=1..64,H=32
  std::string layouts;  // --layouts contiguous,padded
  bool problemShape = false;  // --problem-shape
  bool expect = false;
  std::string sanitize;                 // --sanitize TOOL
  std::string workers = "auto";         // --workers
  size_t parallelJobs = 1;              // --jobs
  std::string devices;                  // --devices 0,1|all
  bool slurm = false;                   // --slurm: submit as a Slurm job array (checker/slurm.h)
  size_t slurmTasks = 4;                // --slurm-tasks
  std::string slurmDir = "kcontract-slurm";
  std::string slurmName = "kcontract";
  std::vector<std::string> slurmOptions, slurmArrayOptions;
  std::vector<size_t> sanitizeCases;    // --sanitize-case N: also these (passing) cases
  bool sanitizeAll = false;             // --sanitize-all: every case
  check::RunOptions run;
};

int usage(const std::string& message) {
  std::cerr << "kcontract check: " << message << "\n";
  return kExitInput;
}

// --sanitize: failing cases (FAIL, CRASH, TIMEOUT, ERROR), the --sanitize-case ones, or all.
bool wantsSanitizer(const CheckCliOptions& o, const report::CaseResult& r) {
  if (o.sanitize.empty()) return false;
  return o.sanitizeAll || report::isViolation(r.verdict) ||
         std::find(o.sanitizeCases.begin(), o.sanitizeCases.end(), r.number) != o.sanitizeCases.end();
}

// The vacuity precheck (prover/precheck.h) of the jobs' contracts, printed. kExitInput when
// some contract is vacuous.
int refuseVacuousContracts(const Compilation& c, const std::vector<check::Job>& jobs, const GlobalOptions& opts) {
  std::vector<const sema::ContractInfo*> contracts;
  for (const auto& job : jobs) contracts.push_back(job.contract);
  bool vacuous = false;
  bool color = useColor(opts, STDERR_FILENO);
  for (const prove::VacuityFinding& f : prove::precheckVacuity(c, contracts)) {
    printLocated(std::cerr, c.sources, f.range, f.error ? "error" : "warning", f.message, color, diagCodeString(f.code));
    vacuous = vacuous || f.error;
  }
  return vacuous ? kExitInput : kExitOk;
}

// "H, R": a set's names, for messages.
std::string namesText(const std::set<std::string>& names) {
  std::string s;
  for (const auto& n : names) s += (s.empty() ? "" : ", ") + n;
  return s.empty() ? "none" : s;
}

// Narrowing that selects nothing is an input error, never a run that checks nothing and
// exits 0: a suite entry's `supports` that no planned case meets or that names a dim its
// contract lacks, a --dims name no contract has, and --dtype, --dims and --layouts that
// together leave no case of any job (across every shard).
int refuseEmptySelections(const CheckCliOptions& o, const std::vector<check::Job>& jobs) {
  size_t planned = 0, selected = 0;
  std::set<std::string> allDims, contracts;
  for (const check::Job& job : jobs) {
    check::Selection sel = check::previewSelection(job, o.run);
    planned += sel.planned;
    selected += sel.selected;
    allDims.insert(sel.dims.begin(), sel.dims.end());
    contracts.insert(job.contract->id);
    std::string where = job.origin.empty() ? job.label : job.origin;
    for (const auto& [dim, range] : job.supports.dims)
      if (!sel.dims.count(dim))
        return usage(where + ": 'supports' names the dim '" + dim + "', which " + job.contract->id +
                     " does not have (its dims: " + namesText(sel.dims) + ")");
    if (sel.planned > 0 && sel.withinSupports == 0)
      return usage(where + ": 'supports' selects none of the " + std::to_string(sel.planned) + " planned cases of " +
                   job.contract->id + ": nothing would be checked");
  }
  for (const auto& [dim, range] : o.run.narrow.dims)
    if (!allDims.count(dim))
      return usage("--dims names the dim '" + dim + "', which " + namesText(contracts) + " does not have (dims: " +
                   namesText(allDims) + ")");
  bool narrowed = !o.run.dtype.empty() || !o.dims.empty() || !o.layouts.empty();
  if (narrowed && planned > 0 && selected == 0) {
    std::string what;
    if (!o.run.dtype.empty()) what += "--dtype " + o.run.dtype;
    if (!o.dims.empty()) what += (what.empty() ? "" : ", ") + std::string("--dims ") + o.dims;
    if (!o.layouts.empty()) what += (what.empty() ? "" : ", ") + std::string("--layouts ") + o.layouts;
    return usage(what + " selects none of the " + std::to_string(planned) + " planned cases (" + namesText(contracts) +
                 ") within what the kernel claims: nothing would be checked");
  }
  return kExitOk;
}

// --problem-shape: one kernel, a KernelBench problem's .py file; its get_inputs() shape
// becomes one more case per dtype (plan::Options::problemDims), announced on stderr.
int addProblemShape(CheckCliOptions& o, const std::vector<check::Job>& jobs) {
  if (jobs.size() != 1 || jobs[0].kernel.path.size() < 3 ||
      jobs[0].kernel.path.compare(jobs[0].kernel.path.size() - 3, 3, ".py") != 0)
    return usage("--problem-shape needs one kernel, a KernelBench problem's .py file (--impl FILE.py[:ModelNew])");
  const check::Job& job = jobs[0];
  check::ProblemShape ps = check::problemShape(*job.contract, job.kernel.path);
  if (!ps.error.empty()) {
    std::cerr << job.kernel.path << ": error: --problem-shape: " << ps.error << "\n";
    return kExitInput;
  }
  o.run.problemDims = ps.dims;
  std::cerr << "note: " << job.kernel.path << ": get_inputs() gives " << ps.text
            << ": one more case per dtype at that shape (why: problem)\n";
  return kExitOk;
}

// --devices: the lanes, from the GPUs the CUDA backend sees; an input error when the
// devices named are not there. A suite with no job on a GPU backend needs none (a note).
int resolveDeviceLanes(CheckCliOptions& o, const std::vector<check::Job>& jobs) {
  bool any = std::any_of(jobs.begin(), jobs.end(), [](const check::Job& j) { return check::spreadsOverDevices(j.backend); });
  if (!any) {
    // Said wrong is an error whether or not a job needs a GPU.
    std::string malformed = check::resolveDevices(o.devices, check::kAnyDeviceCount, "", nullptr).error;
    if (!malformed.empty()) return usage(malformed);
    std::cerr << "note: --devices spreads jobs on the cuda and exec backends; these run on one worker each\n";
    return kExitOk;
  }
  backend::Availability cuda = backend::makeBackend(backend::kCudaBackend)->probe();
  check::DeviceLanes lanes = check::resolveDevices(o.devices, cuda.available ? cuda.devices : 0, cuda.reason,
                                                   std::getenv("CUDA_VISIBLE_DEVICES"));
  if (!lanes.error.empty()) return usage(lanes.error);
  o.run.devices = lanes.visible;
  return kExitOk;
}

// --slurm: the scripts written into --slurm-dir and submitted; nothing runs here.
int submitToSlurm(const CheckCliOptions& o, const GlobalOptions& opts) {
  namespace fs = std::filesystem;
  check::SlurmRequest r;
  r.kcontract = check::selfPath();
  r.checkArgs = check::slurmCheckArgs(opts.args);
  std::error_code ec;
  r.workdir = fs::current_path(ec).string();
  r.folder = fs::absolute(o.slurmDir, ec).lexically_normal().string();
  if (!r.folder.empty() && r.folder.back() == '/') r.folder.pop_back();
  r.tasks = o.slurmTasks;
  r.name = o.slurmName;
  r.options = o.slurmOptions;
  r.arrayOptions = o.slurmArrayOptions;
  if (!o.out.empty()) {
    r.reportFormat = o.format;
    r.reportOut = fs::absolute(o.out, ec).lexically_normal().string();
  }
  if (std::string why = check::writeSlurmScripts(r); !why.empty()) return usage(why);
  std::cout << "wrote " << r.folder << "/array.sbatch (" << r.tasks << " tasks), merge.sbatch and submit.sh\n";
  std::string output;
  std::string why = check::submitSlurm(r, output);
  std::cout << output << std::flush;
  if (!why.empty()) return usage(why + "; the scripts stay in " + r.folder + " (run submit.sh there once sbatch works)");
  return kExitOk;
}

// A case-independent error, once: where it was asked for (the suite entry, or the --impl
// path), the first line, then the compiler's or loader's output from its first line on.
void printKernelError(const check::Job& job, const std::string& error, const GlobalOptions& opts) {
  bool color = useColor(opts, STDERR_FILENO);
  std::string where = job.origin.empty() ? job.kernel.path : job.origin;
  std::string first = error.substr(0, error.find('\n'));
  std::string label = job.label == where || job.label.rfind(where + ":", 0) == 0 ? "" : job.label + ": ";
  std::cerr << where << ": " << (color ? "\033[1;31merror\033[0m" : "error") << ": " << label << first << "\n";
  if (first.size() == error.size()) return;
  std::istringstream rest(error.substr(first.size() + 1));
  std::string line;
  const size_t kLines = 20;
  size_t n = 0, total = 0;
  while (std::getline(rest, line)) {
    if (n < kLines) {
      std::cerr << "  | " << line << "\n";
      ++n;
    }
    ++total;
  }
  if (total > n) std::cerr << "  | ... (" << total - n << " more lines)\n";
}

// `o` is the command's own copy: --resume and --shard fill in what they imply.
int runCheck(CheckCliOptions o, const GlobalOptions& opts) {
  const report::ReportFormat* format = report::findReportFormat(o.format);
  if (!format) return usage("--format is " + report::reportFormatList() + "; not '" + o.format + "'");
  if (o.slurm && (!o.shard.empty() || !o.resume.empty()))
    return usage(std::string("--slurm gives each array task its shard and results file; give no ") +
                 (o.shard.empty() ? "--resume (run submit.sh in the --slurm-dir again to resume)" : "--shard"));
  if (o.slurm && o.slurmTasks > kMaxShards) return usage("--slurm-tasks is at most " + std::to_string(kMaxShards));
  // Inside a Slurm array task, without --shard: the task's shard (a hand-written sbatch script).
  if (o.shard.empty() && !o.slurm)
    if (std::optional<check::ArrayTask> task = check::arrayTaskFromEnvironment()) {
      if (!task->error.empty()) return usage(task->error);
      o.shard = std::to_string(task->index) + "/" + std::to_string(task->count);
      std::cerr << "note: a Slurm array task: --shard " << o.shard << " (from SLURM_ARRAY_TASK_ID; --shard says otherwise)\n";
    }
  if (!o.shard.empty() && !parseShard(o.shard, o.run.shardIndex, o.run.shardCount))
    return usage("--shard is I/N with 0 <= I < N; not '" + o.shard + "'");
  if (std::string why = device_oracle::OracleEngines::validate(o.run.oracle); !why.empty()) return usage(why);
  if (!o.maxMemory.empty() && !parseBytes(o.maxMemory, o.run.maxCaseBytes))
    return usage("--max-memory is a size such as 512M or 4G (1 byte to 1024T); not '" + o.maxMemory + "'");
  if (!o.dims.empty())
    if (std::string why = parseDims(o.dims, o.run.narrow.dims); !why.empty()) return usage(why);
  if (!o.layouts.empty())
    if (std::string why = parseLayouts(o.layouts, o.run.narrow.layouts); !why.empty()) return usage(why);
  if (o.run.streamCells == 0)
    if (const char* env = std::getenv("KC_STREAM_CELLS"); env && *env) {
      uint64_t v = 0;
      if (!checkInteger(env, 1, kMaxStreamCells, v).empty())
        return usage(std::string("KC_STREAM_CELLS is a positive number of cells; not '") + env + "'");
      o.run.streamCells = static_cast<int64_t>(v);
    }
  if (o.run.streamCells < 0) return usage("--stream-cells must be positive");
  try {
    o.run.workers = run::parseWorkerPolicy(o.workers);
  } catch (const std::invalid_argument& e) {
    return usage(e.what());
  }
  if (!o.run.dtype.empty() && !numerics::parseDType(o.run.dtype)) {
    std::string names;
    for (int t = 0; t < numerics::kDTypeCount; ++t)
      names += std::string(t == 0 ? "" : ", ") + std::string(numerics::dtypeName(static_cast<numerics::DType>(t)));
    return usage("--dtype is one of " + names + "; not '" + o.run.dtype + "'");
  }
  const auto& tools = check::sanitizerTools();
  if (!o.sanitize.empty() && std::find(tools.begin(), tools.end(), o.sanitize) == tools.end())
    return usage("--sanitize is memcheck, racecheck, initcheck or synccheck; not '" + o.sanitize + "'");
  if (o.sanitize.empty() && (o.sanitizeAll || !o.sanitizeCases.empty()))
    return usage("--sanitize-case and --sanitize-all choose cases for --sanitize TOOL; give the tool");

  // Resume: the results already written count, and new ones are appended to the same file,
  // once its integrity chain holds (checker/report/chain.h): a line changed after it was
  // written is refused (exit 2); a last line cut short by a kill is cut off, its case runs again.
  std::vector<report::CaseResult> results;
  std::string chainLast;
  if (!o.resume.empty()) {
    if (!o.out.empty() && o.out != o.resume) return usage("--resume FILE writes to FILE; give no other --out");
    if (o.replace) return usage("--resume FILE appends to FILE and --replace overwrites it; give one of them");
    o.out = o.resume;
    if (!format->machine) format = &report::resumeFormat();
    if (!format->parseRecord) return usage("--resume works with --format " + report::resumeFormat().name);
    std::ifstream in(o.resume, std::ios::binary);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (in.bad()) return usage("cannot read '" + o.resume + "'");
    report::VerifiedResults v = report::verifyResults(text);
    if (!v.tampered.empty())
      return usage(o.resume + ":" + v.tampered + "; the file was changed after kcontract wrote it, and a resumed run "
                   "would count what it holds: not resuming (check it afresh with --out NEW.jsonl)");
    for (size_t i = 0; i < v.records.size(); ++i) {
      std::string error;
      auto r = format->parseRecord(v.records[i], error);
      if (!r)
        return usage(o.resume + ":" + std::to_string(v.lines[i]) + ": a sealed record that is not a result (" + error +
                     "): written by another version of kcontract? not resuming");
      o.run.finished.insert(report::resumeKey(*r));
      results.push_back(*r);
    }
    if (!v.cut.empty()) {
      std::cerr << o.resume << ":" << v.cut << "; cutting it off (its case runs again)\n";
      std::error_code ec;
      std::filesystem::resize_file(o.resume, v.keptBytes, ec);
      if (ec) return usage("cannot cut '" + o.resume + "' back to its whole lines: " + ec.message());
    }
    chainLast = v.last;
  }

  Compilation c;
  std::vector<check::Job> jobs;
  int rc = buildJobs(c, o.jobs, opts, jobs);
  if (rc != kExitOk) return rc;
  rc = refuseVacuousContracts(c, jobs, opts);
  if (rc != kExitOk) return rc;
  if (o.problemShape) {
    rc = addProblemShape(o, jobs);
    if (rc != kExitOk) return rc;
  }
  rc = refuseEmptySelections(o, jobs);
  if (rc != kExitOk) return rc;
  if (o.slurm) return submitToSlurm(o, opts);  // the tasks resolve --devices on their nodes
  if (!o.devices.empty()) {
    rc = resolveDeviceLanes(o, jobs);
    if (rc != kExitOk) return rc;
  }
  o.run.includeDirs = o.jobs.includeDirs;

  // Where each format goes. Machine formats with --out leave stdout to the text lines.
  report::ReportWriter writer(*format, o.out,
                              !o.resume.empty() ? report::OutMode::Append
                              : o.replace       ? report::OutMode::Replace
                                                : report::OutMode::Create);
  writer.continueChain(chainLast);
  std::string writeError;
  if (!writer.open(writeError)) return usage(writeError);
  bool wantsText = writer.wantsText();  // the human text report: to stdout, or to --out with --format text
  std::ostream& text = writer.text();
  bool color = writer.textToConsole() && useColor(opts, STDOUT_FILENO);
  // The data folder the standard library and the kernel headers come from (docs/install.md).
  const stdlib::DataRoot& data = stdlib::dataRoot();
  if (wantsText) text << "data folder: " << data.path << " (" << stdlib::originText(data.origin) << ")\n";
  // A layer of the cell missing here, or the cell off: said before any case (docs/security.md).
  if (wantsText && sandbox::degraded()) text << "note: " << sandbox::statusLine() << "\n";
  if (wantsText && !o.run.devices.empty()) {
    text << "devices: " << o.run.devices.size() << " lanes, CUDA_VISIBLE_DEVICES";
    for (size_t i = 0; i < o.run.devices.size(); ++i) text << (i == 0 ? " " : ", ") << o.run.devices[i];
    text << " (case i of a job runs on lane i % " << o.run.devices.size() << ")\n";
  }
  // Per job: did it get what the suite expects? (FAIL, CRASH, TIMEOUT or ERROR count as fail.)
  report::ExpectationTally expectations;
  std::vector<report::Diagnosis> diagnoses;  // per job: the causes its failures support
  std::set<std::string> saidKernelErrors;  // each kernel's error once, however many jobs share it
  size_t unexpectedKernelErrors = 0;
  // Each job's options (a job off the GPUs runs on one lane).
  std::vector<check::RunOptions> jobRuns;
  for (const check::Job& job : jobs) {
    jobRuns.push_back(o.run);
    if (!check::spreadsOverDevices(job.backend)) jobRuns.back().devices.clear();  // not a GPU job: one lane
  }
  // Jobs are reported one after another (checker/run_jobs.h): the current job's results start
  // at `first`.
  size_t first = results.size();
  std::unique_ptr<report::ProgressBar> bar;
  size_t barJob = jobs.size();
  auto progress = [&](size_t i, size_t done, size_t total, const std::string& current) {
    if (!bar || barJob != i) {
      bar = std::make_unique<report::ProgressBar>(total, total >= 20 && report::ProgressBar::isTerminal(stderr));
      barJob = i;
    }
    bar->update(done, current);
  };
  auto onCase = [&](size_t i, const report::CaseResult& done) {
    const check::Job& job = jobs[i];
    if (bar) bar->clear();
    report::CaseResult r = done;
    if (wantsSanitizer(o, r)) {
      check::SanitizeRequest q;
      q.tool = o.sanitize;
      q.backend = r.backend;
      q.verdict = r.verdict;
      q.skipReason = r.reason;
      q.repro = check::reproLine(job, r, o.run);
      q.timeoutSeconds = o.run.timeoutSeconds;
      r.sanitizer = check::sanitizeCase(q);
    }
    writer.add(r);  // a streamed format: one whole record per case, at once
    if (wantsText) text << report::caseLine(r, color) << "\n" << std::flush;
    results.push_back(r);
  };
  auto onJob = [&](size_t i, check::JobStats& st) {
    const check::Job& job = jobs[i];
    if (bar) bar->clear();
    if (st.selected < st.planned && wantsText)
      text << "note: " << job.label << ": " << st.selected << " of " << st.planned
                << " planned cases are within what the kernel claims" << (o.run.dtype.empty() ? "" : ", at --dtype " + o.run.dtype)
                << (o.dims.empty() ? "" : ", --dims " + o.dims) << (o.layouts.empty() ? "" : ", --layouts " + o.layouts)
                << " (and this shard); the rest were not run\n";
    std::vector<report::CaseResult> mine(results.begin() + static_cast<long>(first), results.end());
    first = results.size();
    if (wantsText) {
      // Said once per job, so a case never reads as perturbed when it was not.
      for (const auto& [what, n] : report::oracleUse(mine))
        text << "note: " << job.label << ": the oracle of " << n << (n == 1 ? " case" : " cases") << " ran "
             << (what.rfind("interpreter: ", 0) == 0 ? "on the interpreter (" + what.substr(13) + ")" : "compiled (" + what + ")") << "\n";
      for (const auto& [why, n] : report::unsupportedPerturbations(mine))
        text << "note: " << job.label << ": " << n << (n == 1 ? " case" : " cases") << " asked for a perturbation that "
                  << "did not run (" << why << ")\n";
      if (!st.diagnosis.empty()) text << report::diagnosisText(st.diagnosis);
    }
    diagnoses.push_back(st.diagnosis);
    if (!st.kernelError.empty()) {
      bool expected = job.expect && job.expect->verdict == "error";
      unexpectedKernelErrors += expected ? 0 : 1;
      if (saidKernelErrors.insert(job.kernel.path + "\n" + job.backend + "\n" + st.kernelError).second)
        printKernelError(job, st.kernelError, opts);
    }
    expectations.add(job.label, job.expect, mine, !st.kernelError.empty(), &st.diagnosis);
  };
  check::runJobs(jobs, jobRuns, o.parallelJobs, onCase, onJob, progress);

  if (wantsText) text << "\n" << report::summaryTable(results, color, diagnoses);
  if (expectations.expected() > 0 && wantsText) {
    text << "\nexpectations: " << expectations.asExpected() << " of " << expectations.expected()
              << " kernels got the verdict the suite expects\n";
    for (const auto& e : expectations.jobs)
      text << (e.ok() ? "  as expected: " : "  NOT as expected: ") << e.label << " (expected " << e.expected.text()
                << ", got " << e.gotText() << ")\n";
  }
  if (!writer.finish(results, {kToolVersion, sandbox::statusLine(), data.path, diagnoses}, writeError)) return usage(writeError);  // a document format
  // A kernel that could not be found, built or loaded is an input error (2), unless the suite
  // expects exactly that of it.
  if (unexpectedKernelErrors > 0) return kExitInput;
  if (o.expect) return expectations.allAsExpected() ? kExitOk : kExitFailed;
  return report::anyViolation(results) ? kExitFailed : kExitOk;
}

}  // namespace

void addCheckCommand(CLI::App& app, std::vector<std::pair<CLI::App*, Action>>& commands) {
  auto o = std::make_shared<CheckCliOptions>();
  CLI::App* sub = app.add_subcommand("check", "Run kernels against their contracts and give every case a verdict");
  addJobOptions(sub, o->jobs);
  sub->add_option("--dtype", o->run.dtype, "Run only the cases at this dtype (the dtype variables that take it; an index dtype such as embedding's I stays free)");
  sub->add_flag("--problem-shape", o->problemShape,
                 "With --impl FILE.py (a KernelBench problem): also check at the shape its get_inputs() gives (one more case per dtype)");
  sub->add_option("--dims", o->dims, "Run only the cases whose dims are in these ranges: NAME=N or NAME=LO..HI, comma-separated (R=1..64,H=32), as a suite's supports.dims");
  sub->add_option("--layouts", o->layouts, "Run only the cases whose tensors all have these layout kinds (contiguous,padded), as a suite's supports.layouts");
  sub->add_option("--seed", o->run.seed, "The base seed of every plan (default 0)")->check(integerValue(0, UINT64_MAX));
  sub->add_option("--format", o->format, report::reportFormatList(true));
  sub->add_option("--out", o->out,
                  "Write the --format report to this file (the text report still goes to stdout); a file that exists is "
                  "refused unless --replace (or --resume FILE) says what to do with it");
  sub->add_flag("--replace", o->replace, "With --out: overwrite the file when it exists");
  sub->add_option("--resume", o->resume,
                  "Skip the cases already in this JSON Lines file and append the rest to it, once its integrity chain "
                  "holds (a changed line: exit 2; a last line cut short by a kill is cut off)");
  sub->add_option("--shard", o->shard, "Run every N-th case starting at I (I/N), to split a suite over machines");
  sub->add_option("--timeout", o->run.timeoutSeconds, "Seconds one run of a case may take before it is killed (default 10)")
      ->check(secondsValue());
  sub->add_option("--oracle", o->run.oracle,
                  "What computes y* and the tolerance: interpreter (f64, on the host), host or cuda (the contract "
                  "compiled to C++ or CUDA, the interpreter where it cannot be), auto (cuda on the cuda backend with a "
                  "GPU, else the interpreter; the default)");
  sub->add_option("--max-memory", o->maxMemory, "Host memory a case may use, e.g. 512M or 4G (default 4G); larger cases are SKIPPED");
  sub->add_option("--threads", o->run.threads, "Threads of the host side: input generation, decoding, the f64 oracle and the judge's scans (default: the hardware threads of this machine)")
      ->check(integerValue(1, kMaxThreads));
  sub->add_option("--stream-cells", o->run.streamCells,
                  "Run every case on the streamed path of large cases (device-side poison, canaries and repeats; the oracle "
                  "on about N sampled cells), as cases too large for host memory run on a GPU; also KC_STREAM_CELLS")
      ->check(integerValue(1, kMaxStreamCells));
  sub->add_option("--workers", o->workers,
                  "auto (default), fresh or reuse: a fresh worker process for every run of a case, or one per kernel "
                  "while runs end cleanly (auto: reuse on CUDA, where a context costs about a second, and exec protocol v2)");
  sub->add_option("--jobs", o->parallelJobs,
                  "Jobs (suite entries) run at once (default 1); the report is the same, job after job in the suite's "
                  "order, each job's results held until those before it are reported (docs/checking.md)")
      ->check(integerValue(1, 256));
  sub->add_option("--devices", o->devices,
                  "Spread the cases of jobs on the cuda and exec backends over these GPUs of this host: all, or "
                  "numbers as CUDA counts them (0,1); one worker per GPU, case i of a job on the i % N-th, results in "
                  "plan order (docs/scale.md)");
  CLI::Option* slurm = sub->add_flag("--slurm", o->slurm,
                "Submit the check to Slurm as a job array, one shard per task, and a job that merges the shards "
                "(--format and --out: the report it writes); the scripts go to --slurm-dir (docs/scale.md)");
  sub->add_option("--slurm-tasks", o->slurmTasks, "With --slurm: the array's tasks, one shard each (default 4)")
      ->check(integerValue(1, kMaxShards))
      ->needs(slurm);
  sub->add_option("--slurm-dir", o->slurmDir,
                  "With --slurm: the shared folder for the scripts, each task's JSON Lines, merged.jsonl and the logs "
                  "(default kcontract-slurm)")
      ->needs(slurm);
  sub->add_option("--slurm-name", o->slurmName, "With --slurm: the jobs' name (default kcontract; the merge's: NAME-merge)")
      ->needs(slurm);
  sub->add_option("--slurm-option", o->slurmOptions,
                  "With --slurm: an sbatch option for both jobs, e.g. --slurm-option=--partition=gpu; repeatable")
      ->allow_extra_args(false)
      ->needs(slurm);
  sub->add_option("--slurm-array-option", o->slurmArrayOptions,
                  "With --slurm: an sbatch option for the array's tasks alone, e.g. --slurm-array-option=--gres=gpu:1; repeatable")
      ->allow_extra_args(false)
      ->needs(slurm);
  sub->add_flag("--expect", o->expect,
                "Exit 0 when every suite kernel gets the verdict its `expect` names (a calibration run), 1 otherwise");
  sub->add_option("--sanitize", o->sanitize,
                  "Re-run failing cases under compute-sanitizer with this tool: memcheck, racecheck, initcheck or synccheck");
  sub->add_option("--sanitize-case", o->sanitizeCases, "With --sanitize: also re-run case N (the #N of its id); repeatable")
      ->check(integerValue(1, kMaxCaseNumber))
      ->allow_extra_args(false);  // one number per flag: a contract file after it is not a case
  sub->add_flag("--sanitize-all", o->sanitizeAll, "With --sanitize: re-run every case, passing or not");
  commands.emplace_back(sub, [o](const GlobalOptions& g) { return runCheck(*o, g); });
}

}  // namespace kc::driver
