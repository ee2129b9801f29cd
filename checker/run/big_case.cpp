#include "checker/run/big_case.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <thread>

#include "backends/streamed_ops.h"
#include "checker/report/builtin_signatures.h"
#include "checker/run/judge.h"
#include "checker/run/sub_problem.h"
#include "checker/run/worker.h"

namespace kc::run {

namespace {

using report::Verdict;
constexpr size_t kMessageBytes = 4096;
constexpr size_t kFirstShown = 5;  // unwritten cells listed per output

// What the device found about one argument, written by the worker.
struct ArgReport {
  int32_t canaryLaunch = -1;  // first launch after which a canary was overwritten
  int32_t differLaunch = -1;  // first later launch whose output differs from launch 1
  uint64_t changedCells = 0;  // inputs: cells that differ from the pristine copy after launch 1
  uint64_t differCells = 0;   // cells that differ on that launch
  uint64_t unwritten = 0;     // output cells still poisoned after launch 1
  uint64_t firstCount = 0;
  uint64_t first[kFirstShown] = {};  // their lowest storage indices
};

struct Header {
  int phase = 0;  // as worker.cpp: 2 done, -1 backend error, -2 nonzero rc, -3 device fault
  int rc = 0;
  int launches = 0;
  char message[kMessageBytes] = {};
  char resource[kMessageBytes] = {};
};

uint64_t subBytes(const SubProblem& p) {
  uint64_t cells = 0, bytes = 0;
  for (const ArgSpec& a : p.setup.args) {
    cells += static_cast<uint64_t>(a.numel());
    bytes += a.storageBytes();
  }
  return bytes * 4 + cells * 8 * 6;  // storage, images; the oracle's f64 tensors
}

bool contiguous(const ArgSpec& a) {
  if (a.scalar) return true;
  int64_t stride = 1;
  for (size_t k = a.shape.size(); k-- > 0;) {
    if (a.shape[k] > 1 && a.strides[k] != stride) return false;
    stride *= a.shape[k];
  }
  return a.offset == 0 && a.storage == a.numel();
}

std::vector<int64_t> unravel(int64_t flat, const std::vector<int64_t>& shape) {
  std::vector<int64_t> idx(shape.size(), 0);
  for (size_t k = shape.size(); k-- > 0;) {
    if (shape[k] > 0) {
      idx[k] = flat % shape[k];
      flat /= shape[k];
    }
  }
  return idx;
}

int64_t rowMajor(const std::vector<int64_t>& idx, const std::vector<int64_t>& shape) {
  int64_t f = 0;
  for (size_t k = 0; k < idx.size(); ++k) f = f * shape[k] + idx[k];
  return f;
}

std::string indexText(const std::vector<int64_t>& idx) {
  std::string s = "[";
  for (size_t k = 0; k < idx.size(); ++k) s += (k ? ", " : "") + std::to_string(idx[k]);
  return s + "]";
}

std::map<std::string, std::vector<int64_t>> chooseCoordinates(const BigCaseRequest& r, const std::vector<std::string>& free) {
  std::vector<std::string> dims;
  for (const auto& d : free)
    if (r.setup->dims.count(d)) dims.push_back(d);
  std::map<std::string, std::vector<int64_t>> coords;
  if (dims.empty()) return coords;
  // The budget is in output cells: a coordinate of the free dims brings a whole slice of the
  // kept dims (a row of a row-wise op), so the coordinates are the budget over that slice.
  double slice = 1;
  for (const ArgSpec& a : r.setup->args) {
    if (!a.output) continue;
    double cells = static_cast<double>(a.numel());
    for (const auto& d : dims) cells /= static_cast<double>(std::max<int64_t>(1, r.setup->dims.at(d)));
    slice = std::max(slice, cells);
  }
  double tuples = std::max(1.0, static_cast<double>(std::max<int64_t>(1, r.sampleCells)) / slice);
  double per = std::pow(tuples, 1.0 / static_cast<double>(dims.size()));
  int64_t budget = std::max<int64_t>(2, static_cast<int64_t>(std::floor(per + 1e-9)));
  for (const auto& d : dims) coords[d] = sampleCoordinates(r.setup->dims.at(d), budget, r.seed, d);
  return coords;
}

// The sampled cells of argument `a` as runs of consecutive storage elements of the full
// problem: (full storage index, sub flat index, length).
struct Run {
  int64_t from, to, length;
};
std::vector<Run> gatherRuns(const SubProblem& p, const CaseSetup& full, size_t a) {
  std::vector<Run> runs;
  const ArgSpec& sub = p.setup.args[a];
  for (int64_t f = 0; f < sub.numel(); ++f) {
    int64_t from = full.args[a].storageIndex(p.fullIndex(a, unravel(f, sub.shape)));
    if (!runs.empty() && runs.back().from + runs.back().length == from && runs.back().to + runs.back().length == f)
      ++runs.back().length;
    else
      runs.push_back({from, f, 1});
  }
  return runs;
}

// The pristine bytes of input `a` over the sub-problem's cells, from the counter-based fill.
std::vector<uint8_t> subInput(const BigCaseRequest& r, const SubProblem& p, size_t a) {
  const ArgSpec& sub = p.setup.args[a];
  const ArgSpec& full = r.setup->args[a];
  values::FillSpec spec = inputFill(*r.setup, *r.plan, *r.kase, a);
  values::PhiloxKey key = values::streamKey(r.seed, a);
  std::vector<uint8_t> out(sub.storageBytes());
  size_t eb = sub.elementBytes();
  for (int64_t f = 0; f < sub.numel(); ++f) {
    int64_t flat = rowMajor(p.fullIndex(a, unravel(f, sub.shape)), full.shape);
    backend::encodeElement(sub.dtype, values::cellValue(spec, sub.dtype, key, static_cast<uint64_t>(flat)),
                           out.data() + static_cast<size_t>(f) * eb);
  }
  return out;
}

struct Layout {
  size_t reports = 0;                  // ArgReport[n]
  std::vector<size_t> gathered;        // per argument: its sampled cells after launch 1
  size_t total = 0;
};

// The forked worker's whole life. Long on purpose: its device buffers (images, pristine inputs)
// and the launch loop's checks share locals, and every way out is _exit.
[[noreturn]] void workerMain(const BigCaseRequest& r, const SubProblem& p, const std::vector<std::vector<Run>>& runs,
                             const std::vector<std::vector<uint8_t>>& scalarInputs, uint8_t* base, const Layout& lay) {
  auto* h = reinterpret_cast<Header*>(base);
  auto* rep = reinterpret_cast<ArgReport*>(base + lay.reports);
  const CaseSetup& s = *r.setup;
  backend::Backend& be = *r.backend;
  auto fail = [&](int phase, const std::string& m) {
    std::strncpy(h->message, m.c_str(), kMessageBytes - 1);
    h->phase = phase;
    _exit(0);
  };
  try {
    be.load(r.prepared, r.entry);
    be.useDeviceMemory();
    size_t n = s.args.size();
    std::vector<backend::ArgDesc> descs;
    for (const ArgSpec& a : s.args) descs.push_back({a.name, a.output});
    be.describeArgs(descs);
    std::vector<uint8_t> canary = canaryPattern(s.marks);  // the run's: leading, then trailing
    const std::vector<uint8_t> head(canary.begin(), canary.begin() + kCanaryBytes), tail(canary.begin() + kCanaryBytes, canary.end());
    // Per argument one image (canary | storage | canary); outputs a second for later launches.
    std::vector<std::vector<uint8_t*>> images(n);
    for (size_t a = 0; a < n; ++a) {
      if (s.args[a].scalar) continue;
      int copies = s.args[a].output && r.repeats > 1 ? 2 : 1;
      for (int k = 0; k < copies; ++k) {
        auto* img = static_cast<uint8_t*>(be.allocate(s.args[a].imageBytes()));
        be.fill(img, head, kCanaryBytes);
        be.fill(img + kCanaryBytes + s.args[a].storageBytes(), tail, kCanaryBytes);
        images[a].push_back(img);
      }
    }
    auto storage = [&](size_t a, size_t k) { return images[a][k] + kCanaryBytes; };
    // Inputs are generated once, into a pristine copy on the device; each launch gets them
    // copied from there, and after launch 1 they are compared with it over every cell.
    std::vector<uint8_t*> pristine(n, nullptr);
    for (size_t a = 0; a < n; ++a) {
      const ArgSpec& spec = s.args[a];
      if (spec.output || spec.scalar) continue;
      pristine[a] = static_cast<uint8_t*>(be.allocate(spec.storageBytes()));
      backend::GeneratedFill g{inputFill(s, *r.plan, *r.kase, a), spec.dtype, values::streamKey(r.seed, a), 0};
      be.fillGenerated(pristine[a], g, static_cast<size_t>(spec.numel()));
    }
    auto restoreInputs = [&]() {
      for (size_t a = 0; a < n; ++a)
        if (pristine[a]) be.copyDevice(storage(a, 0), pristine[a], s.args[a].storageBytes());
    };
    auto canariesIntact = [&](uint8_t* img, size_t storageBytes) {
      std::vector<uint8_t> got(kCanaryBytes);
      for (size_t k : {size_t{0}, size_t{1}}) {
        be.copyOut(got.data(), img + (k == 0 ? 0 : kCanaryBytes + storageBytes), kCanaryBytes);
        if (std::memcmp(got.data(), canary.data() + k * kCanaryBytes, kCanaryBytes) != 0) return false;
      }
      return true;
    };
    std::vector<std::vector<uint8_t>> scalars = scalarInputs;
    // An empty comparison loads the backend's device kernels (CUDA) before the first launch,
    // so whatever device memory loading them takes is not counted against the kernel.
    be.compareBitwise(nullptr, nullptr, 0, 1);
    h->phase = 1;
    for (int launch = 0; launch < r.repeats; ++launch) {
      size_t slot = launch == 0 ? 0 : 1;
      restoreInputs();  // pristine before every launch, as the normal path copies them in
      std::vector<kc_tensor> args(n);
      for (size_t a = 0; a < n; ++a) {
        const ArgSpec& spec = s.args[a];
        void* data = nullptr;
        if (spec.scalar) {
          scalars[a] = scalarInputs[a];
          data = scalars[a].data();
        } else {
          size_t k = spec.output ? slot : 0;
          if (spec.output) be.fill(storage(a, k), poisonOf(spec), spec.storageBytes());
          data = be.view(images[a][k], kCanaryBytes);
        }
        args[a] = kc_tensor{data, static_cast<int32_t>(spec.dtype), static_cast<int32_t>(spec.shape.size()),
                            spec.shape.data(), spec.strides.data()};
      }
      int rc = be.launch(args.data(), static_cast<int32_t>(n));
      be.synchronize();
      if (std::string f = be.fault(); !f.empty()) fail(-3, f);
      for (size_t a = 0; a < n; ++a) {
        const ArgSpec& spec = s.args[a];
        if (spec.scalar) continue;
        size_t k = spec.output ? slot : 0;
        if (rep[a].canaryLaunch < 0 && !canariesIntact(images[a][k], spec.storageBytes())) rep[a].canaryLaunch = launch;
        if (launch == 0) {
          size_t eb = spec.elementBytes();
          for (const Run& run : runs[a])
            be.copyOut(base + lay.gathered[a] + static_cast<size_t>(run.to) * eb,
                       storage(a, 0) + static_cast<size_t>(run.from) * eb, static_cast<size_t>(run.length) * eb);
          if (pristine[a])
            rep[a].changedCells = be.compareBitwise(storage(a, 0), pristine[a], static_cast<size_t>(spec.numel()), spec.elementBytes());
          if (spec.output) {
            backend::PatternCount pc = be.countPattern(storage(a, 0), static_cast<size_t>(spec.numel()),
                                                       poisonOf(spec), kFirstShown);
            rep[a].unwritten = pc.count;
            rep[a].firstCount = pc.first.size();
            for (size_t i = 0; i < pc.first.size() && i < kFirstShown; ++i) rep[a].first[i] = pc.first[i];
          }
        } else if (spec.output && rep[a].differLaunch < 0) {
          uint64_t d = be.compareBitwise(storage(a, 0), storage(a, 1), static_cast<size_t>(spec.numel()), spec.elementBytes());
          if (d > 0) {
            rep[a].differLaunch = launch;
            rep[a].differCells = d;
          }
        }
      }
      if (std::string f = be.fault(); !f.empty()) fail(-3, f);
      h->launches = launch + 1;
      if (rc != 0) {
        h->rc = rc;
        h->phase = -2;
        _exit(0);
      }
    }
    std::string res = be.resourceReport();
    std::strncpy(h->resource, res.c_str(), kMessageBytes - 1);
    h->phase = 2;
  } catch (const std::exception& e) {
    fail(-1, e.what());
  }
  _exit(0);
}

}  // namespace

std::string bigCaseObstacle(const BigCaseRequest& r) {
  if (!r.backend->byteAddressed())
    return "the " + r.backend->name() + " backend cannot run the streamed case path (its buffers are not byte addresses)";
  for (const ArgSpec& a : r.setup->args) {
    if (!contiguous(a)) return "the streamed case path needs contiguous tensors; " + a.name + " is " + a.layout;
    if (!a.output && hasStructuredValues(*r.plan, *r.kase, a.name))
      return "input " + a.name + " is structured (triangular, one_hot, sorted, symmetric or positive_definite), which is arranged over the whole tensor, so the streamed case path cannot regenerate single cells";
    if (!a.output && hasSpecialValues(*r.plan, *r.kase, a.name))
      return "input " + a.name + " has special values, which are placed by a rule over the whole tensor, so the streamed case path cannot regenerate single cells";
  }
  std::vector<std::string> free = freeDims(*r.contract);
  SubProblem p = restrict(*r.contract, *r.setup, chooseCoordinates(r, free));
  uint64_t need = subBytes(p);
  if (need > r.maxHostBytes) {
    if (p.coords.empty())
      return "no dim of " + r.contract->id +
             " can be cut down to sampled coordinates (each is reduced over, or its value is used), and the whole problem does not fit in host memory";
    return "the sub-problem on sampled coordinates still needs about " + std::to_string(need >> 20) +
           " MiB of host memory (--max-memory)";
  }
  return "";
}

namespace {

// One streamed case on its way to a verdict: what each step leaves for the next.
struct BigRun {
  BigRun(const BigCaseRequest& req, report::CaseResult& res) : r(req), out(res) {}

  const BigCaseRequest& r;
  report::CaseResult& out;
  const CaseSetup& s = *r.setup;
  SubProblem p = restrict(*r.contract, s, chooseCoordinates(r, freeDims(*r.contract)));
  size_t n = s.args.size();
  std::vector<std::vector<Run>> runs = std::vector<std::vector<Run>>(n);  // per argument: its sampled cells
  std::vector<std::vector<uint8_t>> subStorage = std::vector<std::vector<uint8_t>>(n);
  std::vector<std::vector<uint8_t>> scalarInputs = std::vector<std::vector<uint8_t>>(n);
  Layout lay;
  void* mem = nullptr;  // the memory shared with the worker: lay.total bytes
  uint8_t* base = nullptr;
  Header* h = nullptr;
  ArgReport* rep = nullptr;
  LaunchRecord rec;
  std::vector<ArgReport> reports;  // the worker's findings over every cell, per argument

  void subInputs();
  bool mapShared();
  void launchInWorker();
  void judgeSampled();
  void deviceFindings();
};

// The sub-problem's inputs on the host and the runs of cells to gather from the device.
void BigRun::subInputs() {
  for (size_t a = 0; a < n; ++a) {
    const ArgSpec& spec = s.args[a];
    if (spec.output) {
      std::vector<uint8_t> poison = poisonOf(spec);
      subStorage[a].resize(p.setup.args[a].storageBytes());
      for (size_t i = 0; i + poison.size() <= subStorage[a].size(); i += poison.size())
        std::memcpy(&subStorage[a][i], poison.data(), poison.size());
    } else {
      subStorage[a] = subInput(r, p, a);
    }
    if (spec.scalar) scalarInputs[a] = subStorage[a];  // a host value: the kernel gets it as it is
    else runs[a] = gatherRuns(p, s, a);
  }
}

// The memory shared with the worker: a header, the reports, the gathered cells per argument.
bool BigRun::mapShared() {
  size_t off = (sizeof(Header) + 63) / 64 * 64;
  lay.reports = off;
  off += (n * sizeof(ArgReport) + 63) / 64 * 64;
  for (size_t a = 0; a < n; ++a) {
    lay.gathered.push_back(off);
    off += (p.setup.args[a].storageBytes() + 63) / 64 * 64;
  }
  lay.total = off;
  mem = mmap(nullptr, lay.total, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (mem == MAP_FAILED) {
    out.verdict = Verdict::Error;
    out.reason = "cannot map shared memory for the worker";
    return false;
  }
  base = static_cast<uint8_t*>(mem);
  h = new (base) Header();
  rep = reinterpret_cast<ArgReport*>(base + lay.reports);
  for (size_t a = 0; a < n; ++a) new (rep + a) ArgReport();
  // Scalars are host values: they are gathered as they are.
  for (size_t a = 0; a < n; ++a)
    if (s.args[a].scalar) std::memcpy(base + lay.gathered[a], scalarInputs[a].data(), scalarInputs[a].size());
  return true;
}

// The launches in a forked worker (workerMain) under the timeout; what came back.
void BigRun::launchInWorker() {
  auto start = std::chrono::steady_clock::now();
  sandbox::OutputCapture output;
  int null = open("/dev/null", O_RDONLY | O_CLOEXEC);
  sandbox::CellSpec spec = workerCell(*r.backend, lay.total, r.prepared.artefact, r.device);
  // An interpreting backend (ptx) reserves the case's buffers in the worker's own address
  // space (made real only where touched): its address-space limit must leave room for them.
  if (r.backend->interprets() && spec.limits.addressBytes) spec.limits.addressBytes += 2 * r.deviceBytes;
  spec.fds = {{null, 0}, {output.writeEnd(), 1}, {output.writeEnd(), 2}};
  std::unique_ptr<sandbox::Cell> cell;
  pid_t pid = -1;
  try {
    cell = sandbox::forkCell(spec, [&] {
      disguiseProcess(r.setup->marks);  // the run's marks: its title is not kcontract
      workerMain(r, p, runs, scalarInputs, base, lay);
    });
    pid = cell->pid();
  } catch (const std::exception&) {
  }
  if (null >= 0) close(null);
  int status = 0;
  bool timedOut = false;
  if (pid > 0) {
    for (int sleepUs = 50;;) {
      output.drain();
      if (waitpid(pid, &status, WNOHANG) == pid) break;
      if (std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() > r.timeoutSeconds) {
        kill(pid, SIGKILL);
        waitpid(pid, &status, 0);
        timedOut = true;
        break;
      }
      std::this_thread::sleep_for(std::chrono::microseconds(sleepUs));
      sleepUs = std::min(sleepUs * 2, 20000);
    }
    kill(-pid, SIGKILL);  // no orphans
  }
  rec.output = output.take();
  rec.launches = h->launches;
  rec.rc = h->rc;
  rec.message = h->message;
  if (pid < 0) {
    rec.status = LaunchStatus::Error;
    rec.message = "cannot start a worker process";
  } else {
    settleLaunch(rec, timedOut, r.timeoutSeconds, status, h->phase, h->resource);
  }
  // What came back: one image per argument (sampled cells after launch 1). Repeats were
  // compared on the device (below), so the judge sees a single launch.
  rec.images.resize(n);
  reports.assign(rep, rep + n);
  if (rec.launches > 0)
    for (size_t a = 0; a < n; ++a) {
      const uint8_t* g = base + lay.gathered[a];
      rec.images[a].push_back(makeImage(std::vector<uint8_t>(g, g + p.setup.args[a].storageBytes()), p.setup.marks));
    }
  munmap(mem, lay.total);
}

// The judge over the sampled cells; the worst cells at their indices in the full tensors.
void BigRun::judgeSampled() {
  JudgeInput in{r.contract, r.plan, r.kase, &p.setup, &subStorage, &rec, r.threads, nullptr};
  in.completeness = false;  // counted over every cell on the device (below)
  judge(in, out);

  // Worst cells at their indices in the full tensors.
  for (auto& w : out.worst)
    for (size_t a = 0; a < n; ++a)
      if (s.args[a].name == w.tensor) w.index = p.fullIndex(a, w.index);
}

// The device's own findings over every cell.
void BigRun::deviceFindings() {
  std::vector<std::string> builtIn;
  for (size_t a = 0; a < n; ++a) {
    const ArgSpec& spec = s.args[a];
    const ArgReport& ar = reports[a];
    if (ar.canaryLaunch >= 0) {
      out.violated.push_back("canary: " + spec.name + " written past the ends of its buffer (launch " +
                             std::to_string(ar.canaryLaunch + 1) + ")");
      builtIn.push_back(report::signature::kOutOfBoundsWrite);
    }
    bool sampledChange = std::find(out.signatures.begin(), out.signatures.end(), report::signature::kInputModified) != out.signatures.end();
    if (!spec.output && ar.changedCells > 0 && !sampledChange) {
      out.violated.push_back("input integrity: the kernel changed " + std::to_string(ar.changedCells) + " of " +
                             std::to_string(spec.numel()) + " cells of its input " + spec.name);
      builtIn.push_back(report::signature::kInputModified);
    }
    if (spec.output && ar.unwritten > 0) {
      std::string first;
      for (uint64_t i = 0; i < ar.firstCount && i < kFirstShown; ++i)
        first += (i ? ", " : "") + indexText(unravel(static_cast<int64_t>(ar.first[i]), spec.shape));
      out.violated.push_back("completeness: " + std::to_string(ar.unwritten) + " of " + std::to_string(spec.numel()) +
                             " cells of " + spec.name + " were never written (first: " + first + ")");
      builtIn.push_back(report::signature::kUnwrittenCells);
    }
    if (spec.output && ar.differLaunch > 0) {
      out.violated.push_back("determinism: " + spec.name + " differs between launch 1 and launch " +
                             std::to_string(ar.differLaunch + 1) + " in " + std::to_string(ar.differCells) + " cells");
      builtIn.push_back(report::signature::kNondeterministic);
    }
  }
  if (!builtIn.empty() && out.verdict != Verdict::Fail) {
    out.verdict = Verdict::Fail;
    out.signatures.clear();
  }
  for (auto it = builtIn.rbegin(); it != builtIn.rend(); ++it)
    if (std::find(out.signatures.begin(), out.signatures.end(), *it) == out.signatures.end())
      out.signatures.insert(out.signatures.begin(), *it);
  if (out.verdict == Verdict::Fail) {
    size_t k = out.violated.size();
    out.reason = std::to_string(k) + (k == 1 ? " check" : " checks") + " violated";
  }
  int64_t total = 0;
  for (const ArgSpec& a : s.args)
    if (a.output) total += a.numel();
  std::string sampled = "judged on " + std::to_string(out.compared) + " sampled cells of " + std::to_string(total) +
                        " (streamed; poison, canaries and repeats checked on every cell)";
  out.reason = out.reason.empty() ? sampled : out.reason + "; " + sampled;
}

}  // namespace

void runBigCase(const BigCaseRequest& r, report::CaseResult& out) {
  BigRun run(r, out);
  run.subInputs();
  if (!run.mapShared()) return;
  run.launchInWorker();
  run.judgeSampled();
  if (run.rec.status != LaunchStatus::Ok) return;
  run.deviceFindings();
}

}  // namespace kc::run
