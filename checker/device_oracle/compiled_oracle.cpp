#include "checker/device_oracle/compiled_oracle.h"

#include <dlfcn.h>

#include <filesystem>
#include <fstream>

#include "backends/backend.h"
#include "backends/host/compile_cache.h"
#include "backends/kernel_library.h"
#include "backends/toolchain.h"
#include "checker/device_oracle/kc_oracle_rt.h"
#include "checker/device_oracle/oracle_server.h"
#include "compiler/ir/eval.h"

namespace kc::device_oracle {

namespace fs = std::filesystem;

const char* targetName(Target t) { return t == Target::Cuda ? "cuda" : "host"; }

namespace {

// 64-bit FNV-1a of the program text: the name of its source file in the cache (the cache's
// own key hashes the text again, with the command).
std::string textKey(const std::string& s) {
  uint64_t h = 14695981039346656037ull;
  for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

// Writes the program where the compiler's cell can read it: the cache's own folder.
std::string writeSource(const std::string& text, Target target) {
  fs::path dir = fs::path(backend::cacheDir()) / "oracle-src";
  fs::create_directories(dir);
  fs::path file = dir / (textKey(text) + (target == Target::Cuda ? ".cu" : ".cpp"));
  if (!fs::exists(file)) {
    fs::path tmp = file;
    tmp += ".tmp" + std::to_string(::getpid());
    std::ofstream(tmp, std::ios::binary) << text;
    fs::rename(tmp, file);
  }
  return file.string();
}

}  // namespace

std::unique_ptr<CompiledOracle> CompiledOracle::build(const sema::ContractInfo& ct,
                                                      const std::map<std::string, numerics::DType>& dtypes,
                                                      Target target, const std::string& arch) {
  std::unique_ptr<CompiledOracle> o(new CompiledOracle());
  o->ct_ = &ct;
  o->target_ = target;
  LowerResult lr = lower(ct, dtypes);
  if (!lr.ok) {
    o->why_ = "not lowered: " + lr.reason;
    return o;
  }
  o->low_ = std::move(lr.lowered);
  try {
    backend::CompileRequest r;
    r.source = writeSource(o->low_.source, target);
    if (target == Target::Cuda) {
      if (arch.empty()) throw backend::BackendError("no CUDA architecture to build for (no GPU)");
      // -fmad=false: one rounding per operation, as the interpreter does; IEEE division and
      // square root (the defaults, said so that nothing turns them off).
      r.command = {backend::nvccPath(), "-O2", "-shared", "-Xcompiler", "-fPIC", "-fmad=false", "-prec-div=true",
                   "-prec-sqrt=true", "-arch=" + arch};
      r.kind = "oracle-cuda";
    } else {
      r.command = backend::hostCompilerCommand(true, ".");
      r.command.push_back("-ffp-contract=off");  // no fused multiply-adds: the interpreter's roundings
      r.kind = "oracle-host";
    }
    backend::CompileResult built = backend::compileCached(r);
    o->library_ = built.library;
    o->cached_ = built.cached;
  } catch (const std::exception& e) {
    o->why_ = std::string("not built: ") + e.what();
    return o;
  }
  o->handle_ = dlopen(o->library_.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!o->handle_) {
    o->why_ = std::string("not loaded: ") + dlerror();
    return o;
  }
  o->run_ = dlsym(o->handle_, kRunSymbol);
  if (!o->run_) o->why_ = std::string("not loaded: no ") + kRunSymbol + " in " + o->library_;
  return o;
}

CompiledOracle::~CompiledOracle() {
  if (handle_) dlclose(handle_);
}

oracle::OracleResult CompiledOracle::eval(const oracle::Bindings& b, double* seconds, OracleServer* server,
                                          unsigned threads) const {
  if (!run_) throw oracle::EvalError("the compiled oracle is not available: " + why_);
  oracle::OracleResult r;
  r.dims = oracle::resolveDims(*ct_, b);

  std::vector<int64_t> dims;
  for (const auto& name : low_.dims) {
    auto it = r.dims.find(name);
    if (it == r.dims.end()) throw oracle::EvalError("dim '" + name + "' is not bound");
    dims.push_back(it->second);
  }
  std::vector<const double*> reads;
  std::vector<int64_t> readShapes(std::max<size_t>(low_.reads.size(), 1) * KC_MAX_RANK, 0);
  std::vector<const oracle::Tensor*> readTensors;
  for (size_t j = 0; j < low_.reads.size(); ++j) {
    const ReadTensor& rt = low_.reads[j];
    const auto& m = rt.role == ir::Role::Input ? b.inputs : b.outputs;
    auto it = m.find(rt.name);
    if (it == m.end()) throw oracle::EvalError(std::string("no ") + ir::roleName(rt.role) + " tensor '" + rt.name + "' is bound");
    const oracle::Tensor& t = it->second;
    if (!rt.wholeOnly && t.rank() != rt.rank)
      throw oracle::EvalError("'" + rt.name + "' has rank " + std::to_string(t.rank()) + " but is read with " +
                              std::to_string(rt.rank) + " indices");
    if (t.rank() > static_cast<size_t>(KC_MAX_RANK)) throw oracle::EvalError("'" + rt.name + "' has more than 8 dimensions");
    for (size_t d = 0; d < t.rank(); ++d) readShapes[j * KC_MAX_RANK + d] = t.shape[d];
    reads.push_back(t.data.data());
    readTensors.push_back(&t);
  }
  std::vector<double> stats;
  for (const Statistic& s : low_.stats) stats.push_back(oracle::statistic(s.fn, *readTensors.at(s.tensor)));

  // The shapes of the computed tensors (their extents over the dims), and where each goes.
  ir::IntEnv intEnv(r.dims.begin(), r.dims.end());
  std::vector<int64_t> shapes(low_.computed.size() * KC_MAX_RANK, 0);
  std::vector<oracle::Tensor*> targets(low_.computed.size(), nullptr);
  for (size_t k = 0; k < low_.computed.size(); ++k) {
    const Computed& c = low_.computed[k];
    std::vector<int64_t> shape;
    for (const auto& e : c.extents) {
      auto v = ir::evalInt(*e, intEnv);
      if (!v || *v < 0) throw oracle::EvalError("the extent of definition '" + c.name + "' cannot be evaluated");
      shape.push_back(*v);
    }
    for (size_t d = 0; d < shape.size(); ++d) shapes[k * KC_MAX_RANK + d] = shape[d];
    if (c.hoisted) continue;
    auto& section = c.tolerance ? r.tolerance : r.oracle;
    targets[k] = &(section[c.name] = oracle::Tensor(shape));
  }
  std::vector<double*> results;
  for (auto* t : targets) results.push_back(t ? t->data.data() : nullptr);

  ServerReply done;
  if (server) {
    ServerRequest q;
    q.library = library_;
    q.dims = dims;
    q.stats = stats;
    q.readShapes = readShapes;
    q.shapes = shapes;
    q.threads = static_cast<int>(threads);
    for (const oracle::Tensor* t : readTensors) q.reads.emplace_back(t->data.data(), t->data.size());
    for (auto* t : targets) q.results.emplace_back(t ? t->data.data() : nullptr, t ? t->data.size() : 0);
    try {
      done = server->run(q);
    } catch (const std::exception& e) {
      done.rc = -1;
      done.message = e.what();
    }
  } else {
    done = callProgram(run_, dims, stats, reads, readShapes, results, shapes, static_cast<int>(threads));
  }
  if (done.rc != 0)
    throw oracle::EvalError(std::string("the compiled oracle (") + targetName(target_) + ") failed: " + done.message);
  if (seconds) *seconds = done.seconds;
  return r;
}

}  // namespace kc::device_oracle
