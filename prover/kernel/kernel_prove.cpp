#include "prover/kernel/kernel_prove.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <nlohmann/json.hpp>

#include "backends/ptx/ptx_backend.h"
#include "compiler/ir/eval.h"
#include "compiler/ir/ir.h"
#include "compiler/obligations/obligations.h"
#include "compiler/obligations/smtlib.h"
#include "compiler/obligations/unroll.h"
#include "prover/kernel/sym_dag.h"
#include "prover/kernel/sym_exec.h"

namespace kc::kprove {

namespace sm = obl::smt;

namespace {

constexpr uint32_t kPoison = 0x7fa5a5a5u;      // a NaN: output cells never written keep it
// + tensor index: a rank-0 f32 input, as the host code sees it and passes it on (about 0.001000:
// positive and small, so host checks such as eps >= 0 pass; an odd pattern no constant has).
constexpr uint32_t kScalarMarker = 0x3a8312a5u;
constexpr uint32_t kInputFill = 0x7fcc0000u;  // the bytes of input buffers (the kernel's loads of them are symbols)

std::string cellText(const std::string& name, const std::vector<int64_t>& idx) {
  std::string s = name + "[";
  for (size_t k = 0; k < idx.size(); ++k) s += (k ? ", " : "") + std::to_string(idx[k]);
  return s + "]";
}

std::vector<int64_t> unflatten(int64_t flat, const std::vector<int64_t>& extents) {
  std::vector<int64_t> idx(extents.size(), 0);
  for (size_t k = extents.size(); k-- > 0;) {
    int64_t e = std::max<int64_t>(1, extents[k]);
    idx[k] = flat % e;
    flat /= e;
  }
  return idx;
}

int64_t count(const std::vector<int64_t>& extents) {
  int64_t n = 1;
  for (int64_t e : extents) n *= e;
  return n;
}

}  // namespace

const char* verdictName(Verdict v) {
  switch (v) {
    case Verdict::Proved: return "PROVED";
    case Verdict::Refuted: return "REFUTED";
    case Verdict::Unknown: return "UNKNOWN";
    case Verdict::Error: return "ERROR";
  }
  return "?";
}

Result proveKernel(const sema::ContractInfo& c, const Options& o) {
  auto start = std::chrono::steady_clock::now();
  Result res;
  auto done = [&](Verdict v, const std::string& why) {
    res.verdict = v;
    res.reason = why;
    res.runSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return res;
  };
  if (!c.kernel) return done(Verdict::Error, "contract " + c.id + " names no kernel");
  const sema::KernelInfo& k = *c.kernel;
  res.entry = o.entry.empty() ? "kc_" + k.name : o.entry;

  // The reduced shape: the obligations' (each dim small, inside the contract's scope, past
  // one), with --dims on top and the dtype variables at --dtype.
  obl::ReducedShape shape = obl::reducedShape(c);
  {
    // Tails: 3 for every dim whose range has it (no tile of 2, 4, 8, ... divides it), unless a
    // precondition on the dims alone rules it out; else the obligations' values.
    ir::IntEnv trial;
    bool changed = false;
    for (const auto& d : k.dims) {
      int64_t lo = d.lo, hi = d.hi;
      for (const auto& sd : c.scope.dims)
        if (sd.name == d.name) lo = sd.lo, hi = sd.hi;
      int64_t v = shape.fixed.count(d.name) ? shape.fixed[d.name] : lo;
      if (lo <= 3 && 3 <= hi && d.admits(3) && v < 3) {
        v = 3;
        changed = true;
      }
      trial[d.name] = v;
    }
    bool ok = true;
    for (const auto& p : c.pre)
      if (auto holds = ir::evalCond(*p.expr, trial); holds && !*holds) ok = false;
    if (changed && ok)
      for (const auto& [d, v] : trial) {
        shape.fixed[d] = v;
        shape.free.erase(d);
      }
  }
  for (const auto& [d, v] : o.dims) {
    if (!k.dim(d)) return done(Verdict::Error, "--dims names '" + d + "', which is no dimension of kernel " + k.name);
    shape.fixed[d] = v;
    shape.free.erase(d);
  }
  for (const auto& [d, range] : shape.free) shape.fixed[d] = range.first;
  shape.free.clear();
  for (auto& [var, dt] : shape.dtypes) dt = o.dtype;
  res.shape = shape.describe();
  ir::IntEnv env;
  for (const auto& [d, v] : shape.fixed) env[d] = v;

  struct Buffer {
    const sema::TensorInfo* t = nullptr;
    std::vector<int64_t> shape, strides;
    void* data = nullptr;
    float scalar = 0;  // rank-0 inputs: the host value (a marker)
  };
  std::vector<Buffer> bufs;
  for (const auto& t : k.tensors) {
    std::string dt = t.dtype;
    if (t.dtypeIsVar) {
      auto it = shape.dtypes.find(t.dtype);
      dt = it == shape.dtypes.end() ? "" : it->second;
    }
    if (dt != "f32")
      return done(Verdict::Unknown, "tensor " + t.name + " is " + (dt.empty() ? "of no known dtype" : dt) +
                                        ": symbolic mode models f32 tensors only");
    Buffer b;
    b.t = &t;
    for (const auto& e : t.shape) {
      auto v = ir::evalInt(*e, env);
      if (!v) return done(Verdict::Error, "the shape of " + t.name + " does not evaluate at " + res.shape);
      b.shape.push_back(*v);
    }
    b.strides.assign(b.shape.size(), 1);
    for (size_t d = b.shape.size(); d-- > 1;) b.strides[d - 1] = b.strides[d] * std::max<int64_t>(1, b.shape[d]);
    bufs.push_back(std::move(b));
  }
  Counterexample layout;
  layout.dims = shape.fixed;
  layout.dtypes = shape.dtypes;
  for (const auto& b : bufs)
    if (!b.t->output) layout.inputs.push_back({b.t->name, b.shape, std::vector<float>(static_cast<size_t>(count(b.shape)), 0.0f)});
  res.layout = layout;

  // Build and load the kernel on the ptx backend.
  backend::PtxBackend be;
  backend::Availability av = be.probe();
  if (!av.available) return done(Verdict::Error, av.reason);
  try {
    backend::Prepared p = be.prepare(backend::KernelRef{o.kernelPath, res.entry, {}});
    be.load(p, res.entry);
  } catch (const std::exception& e) {
    return done(Verdict::Error, e.what());
  }
  be.beginCase();
  std::vector<kc_tensor> args;
  std::vector<Region> regions;
  for (size_t i = 0; i < bufs.size(); ++i) {
    Buffer& b = bufs[i];
    int64_t n = count(b.shape);
    Region r;
    r.tensor = static_cast<int>(i);
    r.input = !b.t->output;
    if (b.shape.empty() && !b.t->output) {
      uint32_t marker = kScalarMarker + static_cast<uint32_t>(i);
      std::memcpy(&b.scalar, &marker, sizeof marker);
      b.data = &b.scalar;
      r.scalarMarker = marker;
    } else {
      size_t bytes = static_cast<size_t>(std::max<int64_t>(n, 1)) * 4;
      b.data = be.allocate(bytes);
      auto* w = static_cast<uint32_t*>(b.data);
      for (int64_t f = 0; f < std::max<int64_t>(n, 1); ++f) w[f] = b.t->output ? kPoison : kInputFill;
      r.base = reinterpret_cast<uint64_t>(b.data);
      r.bytes = static_cast<uint64_t>(n) * 4;
    }
    regions.push_back(r);
    args.push_back(kc_tensor{b.data, KC_F32, static_cast<int32_t>(b.shape.size()), b.shape.data(), b.strides.data()});
  }

  Dag dag;
  SymMachine m(*be.module(), dag, regions, be.allocations(), kPoison);
  std::string stopped;
  be.interceptLaunches([&](const ptx::Function& fn, ptx::Dim3 g, ptx::Dim3 bl, size_t shared, void** a) -> int {
    // After a run the symbolic subset cannot follow, later launches do not run; the host code
    // is told they succeeded, so that it returns quietly (the answer is UNKNOWN anyway).
    if (!stopped.empty()) return 0;
    char buf[256];
    std::snprintf(buf, sizeof buf, "%s: grid (%u,%u,%u), block (%u,%u,%u)", fn.name.c_str(), g.x, g.y, g.z, bl.x, bl.y, bl.z);
    res.launches.push_back(buf);
    try {
      m.launch(fn, g, bl, shared, a);
    } catch (const SymUnknown& e) {
      stopped = e.what();
      return 0;
    }
    return 0;
  });
  int rc = be.launch(args.data(), static_cast<int32_t>(args.size()));
  be.synchronizeDevice();
  res.instructions = m.instructions();
  auto release = [&]() {
    for (auto& b : bufs)
      if (b.data && b.data != &b.scalar) be.release(b.data);
  };
  if (!stopped.empty()) {
    release();
    res.nodes = dag.size();
    res.roundings = dag.roundings();
    return done(Verdict::Unknown, stopped);
  }
  if (rc != 0) {
    release();
    return done(Verdict::Error, "the kernel's entry " + res.entry + " returned " + std::to_string(rc) + " at " + res.shape);
  }

  // The output cells.
  std::map<std::string, std::vector<int>> outNodes;  // tensor -> node per cell (-1: unwritten)
  for (auto& b : bufs) {
    if (!b.t->output) continue;
    int64_t n = count(b.shape);
    std::vector<int>& nodes = outNodes[b.t->name];
    for (int64_t f = 0; f < n; ++f) {
      ++res.outputCells;
      SymVal v = m.globalCell(reinterpret_cast<uint64_t>(b.data) + static_cast<uint64_t>(f) * 4);
      int node = v.symbolic() ? v.node : -1;
      if (!v.symbolic()) {
        float x = 0;
        uint32_t bits = static_cast<uint32_t>(v.bits);
        std::memcpy(&x, &bits, sizeof x);
        node = std::isfinite(x) ? dag.constant(x) : dag.poison();
      }
      if (dag.node(node).kind == NodeKind::Poison) {
        res.unwritten.push_back(cellText(b.t->name, unflatten(f, b.shape)));
        node = -1;
      }
      nodes.push_back(node);
    }
  }
  release();
  res.nodes = dag.size();
  res.roundings = dag.roundings();

  // The query.
  sm::Script script;
  sm::NameTable names;
  obl::Unroller u(c, shape, script, names);
  std::vector<std::string> inputSyms;
  std::map<std::string, std::pair<size_t, int64_t>> symCell;  // printed -> (buffer, flat)
  try {
    for (size_t i = 0; i < bufs.size(); ++i) {
      if (bufs[i].t->output) continue;
      int64_t n = count(bufs[i].shape);
      for (int64_t f = 0; f < n; ++f) {
        sm::TermPtr t = u.inputCell(bufs[i].t->name, unflatten(f, bufs[i].shape));
        if (t->kind == sm::Term::Kind::Symbol) {
          inputSyms.push_back(t->head);
          symCell[t->head] = {i, f};
        }
      }
    }
    for (const auto& p : c.pre) script.assertTerm("the precondition", "pre: " + ir::print(*p.expr), u.term(*p.expr));
    SmtEmitter em(
        dag, script, names,
        [&](int tensor, int64_t flat) {
          return u.inputCell(bufs[static_cast<size_t>(tensor)].t->name, unflatten(flat, bufs[static_cast<size_t>(tensor)].shape));
        },
        [&](sm::TermPtr t) { return u.abs(std::move(t)); });
    em.useIdioms(o.idioms);
    std::vector<int64_t> outExtents;
    std::map<std::string, std::vector<int64_t>> extentsOf;
    for (auto& b : bufs) extentsOf[b.t->name] = b.shape;
    if (res.unwritten.empty()) {
      u.outputModel = [&](const std::string& name, const std::vector<int64_t>& idx, const std::string&) -> sm::TermPtr {
        const auto& ext = extentsOf[name];
        int64_t flat = 0;
        for (size_t d = 0; d < idx.size(); ++d) flat = flat * ext[d] + idx[d];
        return em.term(outNodes[name].at(static_cast<size_t>(flat)));
      };
      std::vector<sm::TermPtr> holds;
      std::string postText;
      for (const auto& p : c.post) {
        holds.push_back(u.term(*p.expr));
        postText += (postText.empty() ? "" : " && ") + ir::print(*p.expr);
      }
      u.addFacts();
      res.sums = em.sums();
      res.roundingsInSums = em.roundingsInSums();
      script.assertTerm("the kernel violates the postcondition", "violated: " + postText, sm::mkNot(sm::mkAnd(holds)));
    } else {
      u.addFacts();  // any input meeting the precondition is a counterexample: the cells stay unwritten
    }
  } catch (const obl::Unsupported& e) {
    return done(Verdict::Unknown, std::string("the contract cannot be unrolled at this shape: ") + e.what());
  } catch (const std::exception& e) {
    return done(Verdict::Unknown, std::string("the kernel's values cannot be written as SMT terms: ") + e.what());
  }
  script.header = {"kcontract prove --kernel " + o.kernelPath + ": " + c.id, "reduced shape: " + res.shape,
                   "model: each f32 rounding |r - exact| <= u |exact|, u = 2^-24; no subnormals, overflow or NaN"};
  script.getModel = true;
  res.smt2 = script.text();
  smt::Options so;
  so.timeoutSeconds = o.timeout;
  if (o.probes) so.probes = smt::fixedValueProbes(inputSyms);
  smt::Result sr = smt::solve(res.smt2, so);
  res.answer = sr.answer;
  res.strategy = sr.strategy;
  res.solveSeconds = sr.seconds;
  if (sr.answer == smt::Answer::Unsat) {
    if (!res.unwritten.empty()) return done(Verdict::Unknown, "the precondition admits no input at " + res.shape);
    return done(Verdict::Proved, "");
  }
  if (sr.answer != smt::Answer::Sat)
    return done(Verdict::Unknown, std::string("the solver answered ") + smt::answerName(sr.answer) +
                                      (sr.reason.empty() ? "" : " (" + sr.reason + ")"));
  Counterexample cex;
  for (const auto& [d, v] : shape.fixed) cex.dims[d] = v;
  cex.dtypes = shape.dtypes;
  for (auto& b : bufs)
    if (!b.t->output) cex.inputs.push_back({b.t->name, b.shape, std::vector<float>(static_cast<size_t>(count(b.shape)), 0.0f)});
  std::map<size_t, size_t> inputIndex;  // buffer -> cex.inputs index
  for (size_t i = 0, j = 0; i < bufs.size(); ++i)
    if (!bufs[i].t->output) inputIndex[i] = j++;
  for (const auto& mv : sr.model) {
    auto it = symCell.find(mv.name);
    if (it == symCell.end() || !mv.approx) continue;
    cex.inputs[inputIndex[it->second.first]].values[static_cast<size_t>(it->second.second)] = static_cast<float>(*mv.approx);
  }
  res.cex = cex;
  std::string why = !res.unwritten.empty()
                        ? std::to_string(res.unwritten.size()) + " of " + std::to_string(res.outputCells) +
                              " output cells never written (first: " + res.unwritten.front() + ")"
                        : "the postcondition fails for these inputs under the rounding model";
  return done(Verdict::Refuted, why);
}

std::string counterexampleJson(const sema::ContractInfo& c, const Options& o, const Result& r) {
  nlohmann::ordered_json j;
  j["kcontract-inputs"] = 1;
  j["contract"] = c.id;
  j["file"] = o.contractFile;
  j["impl"] = o.kernelPath;
  j["entry"] = r.entry;
  j["found_by"] = r.strategy.rfind("concrete probe", 0) == 0
                     ? "kcontract prove --kernel (" + r.strategy + ", run on the ptx backend, reduced shape " + r.shape + ")"
                     : "kcontract prove --kernel (symbolic PTX, reduced shape " + r.shape + ")";
  j["reason"] = r.reason;
  nlohmann::ordered_json dims = nlohmann::ordered_json::object();
  if (r.cex)
    for (const auto& [d, v] : r.cex->dims) dims[d] = v;
  j["dims"] = dims;
  nlohmann::ordered_json dts = nlohmann::ordered_json::object();
  if (r.cex)
    for (const auto& [var, dt] : r.cex->dtypes) dts[var] = dt;
  j["dtypes"] = dts;
  nlohmann::ordered_json inputs = nlohmann::ordered_json::object();
  if (r.cex)
    for (const auto& t : r.cex->inputs) {
      nlohmann::ordered_json ti;
      ti["shape"] = t.shape;
      nlohmann::ordered_json vals = nlohmann::ordered_json::array(), hex = nlohmann::ordered_json::array();
      for (float v : t.values) {
        char b[32];
        std::snprintf(b, sizeof b, "%.9g", static_cast<double>(v));
        vals.push_back(std::stod(b));
        uint32_t bits = 0;
        std::memcpy(&bits, &v, sizeof bits);
        std::snprintf(b, sizeof b, "0x%08x", bits);
        hex.push_back(b);
      }
      ti["values"] = vals;
      ti["f32_bits"] = hex;
      inputs[t.name] = ti;
    }
  j["inputs"] = inputs;
  return j.dump(2) + "\n";
}

}  // namespace kc::kprove
