#include "backends/exec/exec_backend.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "backends/exec/npy.h"
#ifdef KC_HAVE_CUDA
#include "backends/cuda/cuda_backend.h"
#endif
#include "stdlib/data_root.h"

extern char** environ;

namespace kc::backend {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr size_t kStderrTail = 2000;

std::string readText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string tail(const std::string& s, size_t n) { return s.size() <= n ? s : "..." + s.substr(s.size() - n); }

std::string signalText(int sig) {
  const char* d = strsignal(sig);
  return "signal " + std::to_string(sig) + (d ? std::string(" (") + d + ")" : "");
}

// The elements a view spans from its first element: 1 + sum of (extent - 1) * stride.
int64_t spanElements(const kc_tensor& t) {
  int64_t span = 1;
  for (int d = 0; d < t.rank; ++d) {
    if (t.shape[d] == 0) return 0;
    span += (t.shape[d] - 1) * t.strides[d];
  }
  return span;
}

int64_t numel(const kc_tensor& t) {
  int64_t n = 1;
  for (int d = 0; d < t.rank; ++d) n *= t.shape[d];
  return n;
}

// Visits every cell of a view in C order with its storage offset (in elements).
template <class F>
void forEachCell(const kc_tensor& t, F f) {
  int64_t n = numel(t);
  std::vector<int64_t> idx(static_cast<size_t>(t.rank), 0);
  for (int64_t flat = 0; flat < n; ++flat) {
    int64_t off = 0;
    for (int d = 0; d < t.rank; ++d) off += idx[static_cast<size_t>(d)] * t.strides[d];
    f(flat, off);
    for (int d = t.rank - 1; d >= 0; --d) {
      if (++idx[static_cast<size_t>(d)] < t.shape[d]) break;
      idx[static_cast<size_t>(d)] = 0;
    }
  }
}

// '<f4', '=f4' and '|f4' are the same on a little-endian machine; compare kind and size.
std::string normalDescr(const std::string& d) { return d.size() > 1 ? d.substr(1) : d; }

}  // namespace

ExecBackend::~ExecBackend() {
  // Only the process that created the run's folder removes it: a worker leaves through
  // _exit, and one killed at its time limit leaves its case folder inside for this to remove.
  if (!root_.empty() && rootOwner_ == getpid()) {
    std::error_code ec;
    fs::remove_all(root_, ec);
  }
}

Availability ExecBackend::probe() {
  Availability a;
  a.available = true;
  a.device = "exec (an adaptor process)";
  return a;
}

std::string ExecBackend::runFolder() {
  if (!root_.empty()) return root_;
  std::string tmpl = (fs::temp_directory_path() / "kc-exec-XXXXXX").string();
  if (!mkdtemp(tmpl.data())) throw BackendError(std::string("cannot create a temporary folder: ") + std::strerror(errno));
  root_ = tmpl;
  rootOwner_ = getpid();
  return root_;
}

// Whether the PyTorch adaptor will run on a CUDA GPU: $KC_TORCH_DEVICE names one, or it is
// unset or "auto" (the adaptor then takes CUDA where torch has it) and this machine has one.
static bool torchOnCuda() {
  const char* d = std::getenv("KC_TORCH_DEVICE");
  std::string device = d ? d : "";
  if (device.rfind("cuda", 0) == 0) return true;
  if (!device.empty() && device != "auto") return false;
#ifdef KC_HAVE_CUDA
  return CudaBackend().probe().available;
#else
  return false;
#endif
}

// A Python file given as the kernel (a KernelBench problem, PATH.py[:NAME]): the exec spec a
// user would write for it, in the run's folder: the PyTorch adaptor over exec v2, the file's
// NAME (ModelNew unless the entry names another), with device memory on a CUDA GPU.
static std::string pythonSpec(const KernelRef& kernel, const std::string& folder) {
  std::error_code ec;
  fs::path file = fs::absolute(kernel.path, ec);
  if (!fs::is_regular_file(file)) throw BackendError("no Python file '" + kernel.path + "'");
  std::string name = kernel.entry.empty() || kernel.entry.rfind("kc_", 0) == 0 ? "ModelNew" : kernel.entry;
  fs::path adaptor = fs::path(stdlib::dataDir()) / "adaptors" / "pytorch" / "kc_torch.py";
  json spec = {{"protocol", "kcontract-exec/2"},
               {"python", "python3"},
               {"command", {adaptor.string(), file.string() + ":" + name}}};
  if (torchOnCuda()) spec["device_memory"] = true;
  if (!kernel.bind.empty()) {
    json bind = json::object();
    for (const auto& [input, attr] : kernel.bind) bind[input] = attr;
    spec["bind"] = bind;
  }
  std::string path = folder + "/" + file.stem().string() + ".kcexec";
  std::ofstream out(path);
  out << spec.dump() << "\n";
  if (!out) throw BackendError("cannot write '" + path + "'");
  return path;
}

Prepared ExecBackend::prepare(const KernelRef& kernel) {
  std::string ext = fs::path(kernel.path).extension().string();
  if (ext == ".py") {
    std::string path = pythonSpec(kernel, runFolder());
    KernelRef spec;  // the spec written holds the bindings
    spec.path = path;
    spec.entry = kernel.entry;
    return prepare(spec);
  }
  if (ext != ".kcexec")
    throw BackendError("the exec backend runs an exec spec (NAME.kcexec: {\"command\": [...]}) or a Python file for the "
                       "PyTorch adaptor (PATH.py[:NAME], NAME defaulting to ModelNew); not '" + kernel.path + "'");
  if (!kernel.bind.empty())
    throw BackendError("'" + kernel.path + "' is an exec spec: its bindings go in the spec (\"bind\": {\"" +
                       kernel.bind.front().first + "\": \"" + kernel.bind.front().second +
                       "\"}); a suite's bind: and --bind are for a Python file (PATH.py)");
  ExecSpec spec = readExecSpec(kernel.path);  // its errors are the user's to read now, once
  requireProgram(spec);
  spec_ = spec;  // reusesWorker() asks its protocol
  if (spec_.deviceMemory) buildSupport();
  runFolder();
  std::error_code ec;
  return {fs::absolute(kernel.path, ec).string(), true};
}

// For an adaptor with device memory on a CUDA GPU: the CUDA backend's support kernels, built
// here in the checker where the cache is writable, so the adaptor generates a streamed case's
// inputs on its device with the very code the CUDA backend runs. Without a GPU (or CUDA in
// this kcontract) the inputs are generated here and written through the staging buffer.
void ExecBackend::buildSupport() {
#ifdef KC_HAVE_CUDA
  CudaBackend cuda;
  if (!cuda.probe().available) return;
  try {
    supportLibrary_ = cuda.supportLibraryForDevice();
  } catch (const std::exception& e) {
    supportError_ = e.what();
  }
#endif
}

void ExecBackend::load(const Prepared& prepared, const std::string& entry) {
  spec_ = readExecSpec(prepared.artefact);
  entry_ = entry;
  if (spec_.protocol == 2) startAdaptor();
}

void ExecBackend::beginCase() {
  launches_ = 0;
  ++cases_;
  resource_.clear();
}

int ExecBackend::launch(kc_tensor* args, int32_t nargs) {
  if (!pendingFault_.empty()) return 0;
  if (args_.size() != static_cast<size_t>(nargs)) throw BackendError("exec: the worker did not describe the arguments");
  if (spec_.protocol == 2) return launchV2(args, nargs);
  std::string caseDir = runFolder() + "/case-XXXXXX";
  // In a cell (docs/security.md) the run's folder, made by the checker, is read-only: the
  // case folder goes into the cell's own scratch folder (TMPDIR) instead.
  if (!mkdtemp(caseDir.data()) && ((errno != EROFS && errno != EACCES) ||
                                   !mkdtemp((caseDir = (fs::temp_directory_path() / "case-XXXXXX").string()).data())))
    throw BackendError(std::string("cannot create a temporary folder: ") + std::strerror(errno));
  struct Cleanup {
    std::string dir;
    ~Cleanup() {
      std::error_code ec;
      fs::remove_all(dir, ec);
    }
  } cleanup{caseDir};
  std::string requestPath = writeRequest(args, nargs, caseDir);
  if (!runAdaptor(requestPath, caseDir)) return 0;
  return readResponse(args, nargs, caseDir);
}

// The request: every input as a dense C-order array and the storage its view spans.
std::string ExecBackend::writeRequest(kc_tensor* args, int32_t nargs, const std::string& caseDir) {
  json request;
  request["protocol"] = kExecProtocol1;
  request["entry"] = entry_;
  request["kernel"] = entry_.rfind("kc_", 0) == 0 ? entry_.substr(3) : entry_;
  request["launch"] = launches_++;
  request["folder"] = caseDir;
  request["response"] = caseDir + "/response.json";
  json inputs = json::array(), outputs = json::array();
  for (int32_t a = 0; a < nargs; ++a) {
    const kc_tensor& t = args[a];
    const ArgDesc& d = args_[static_cast<size_t>(a)];
    size_t item = static_cast<size_t>(std::stoll(npy::descrOf(t.dtype).substr(2)));
    json e;
    e["name"] = d.name;
    e["dtype"] = npy::nameOf(t.dtype);
    e["npy_dtype"] = npy::descrOf(t.dtype);
    e["shape"] = std::vector<int64_t>(t.shape, t.shape + t.rank);
    e["strides"] = std::vector<int64_t>(t.strides, t.strides + t.rank);
    if (d.output) {
      outputs.push_back(e);
      continue;
    }
    const auto* base = static_cast<const uint8_t*>(t.data);
    npy::Array dense{npy::descrOf(t.dtype), std::vector<int64_t>(t.shape, t.shape + t.rank), {}};
    dense.data.resize(static_cast<size_t>(numel(t)) * item);
    forEachCell(t, [&](int64_t flat, int64_t off) {
      std::memcpy(dense.data.data() + static_cast<size_t>(flat) * item, base + static_cast<size_t>(off) * item, item);
    });
    std::string file = caseDir + "/" + std::to_string(a) + "-in.npy";
    npy::write(file, dense);
    e["file"] = file;
    if (t.rank > 0) {  // the strided view: the storage it spans (gaps hold poison), from its first element
      int64_t span = spanElements(t);
      npy::Array storage{npy::descrOf(t.dtype), {span}, std::vector<uint8_t>(base, base + static_cast<size_t>(span) * item)};
      std::string sfile = caseDir + "/" + std::to_string(a) + "-storage.npy";
      npy::write(sfile, storage);
      e["storage_file"] = sfile;
    }
    inputs.push_back(e);
  }
  request["inputs"] = inputs;
  request["outputs"] = outputs;
  std::string requestPath = caseDir + "/request.json";
  {
    std::ofstream out(requestPath);
    out << request.dump(2) << "\n";
    if (!out) throw BackendError("cannot write '" + requestPath + "'");
  }
  return requestPath;
}

// The adaptor: argv as written plus the request's path; no shell.
bool ExecBackend::runAdaptor(const std::string& requestPath, const std::string& caseDir) {
  std::string errPath = caseDir + "/stderr.txt";
  std::vector<std::string> argv = spec_.argv();
  argv.push_back(requestPath);
  std::fflush(nullptr);
  pid_t parent = getpid();
  pid_t pid = fork();
  if (pid < 0) throw BackendError(std::string("exec: cannot start the adaptor: fork: ") + std::strerror(errno));
  if (pid == 0) {
    // Dies with the worker (which the checker kills at the time limit).
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(127);
    int err = open(errPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (err >= 0) dup2(err, 2);
    if (chdir(spec_.dir.c_str()) != 0) _exit(127);
    setenv("KC_EXEC_REQUEST", requestPath.c_str(), 1);
    for (const auto& [k, v] : spec_.env) setenv(k.c_str(), v.c_str(), 1);
    std::vector<char*> cargs;
    for (auto& s : argv) cargs.push_back(s.data());
    cargs.push_back(nullptr);
    execvp(cargs[0], cargs.data());
    std::fprintf(stderr, "cannot run '%s': %s\n", cargs[0], std::strerror(errno));
    _exit(127);
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  std::string err = readText(errPath);
  if (!err.empty()) std::fwrite(err.data(), 1, err.size(), stderr);  // into the case's output
  if (WIFSIGNALED(status)) {
    pendingFault_ = "the adaptor died on " + signalText(WTERMSIG(status)) + (err.empty() ? "" : ": " + tail(err, kStderrTail));
    return false;
  }
  if (WEXITSTATUS(status) != 0)
    throw BackendError("the adaptor exited with status " + std::to_string(WEXITSTATUS(status)) +
                       (err.empty() ? " (no stderr)" : "; its stderr ends:\n" + tail(err, kStderrTail)));
  return true;
}

// The response: a status (the kernel's own return code) and a file per output.
int ExecBackend::readResponse(kc_tensor* args, int32_t nargs, const std::string& caseDir) {
  std::string responsePath = caseDir + "/response.json";
  if (!fs::is_regular_file(responsePath)) throw BackendError("the adaptor exited 0 but wrote no response.json");
  json response;
  try {
    response = json::parse(readText(responsePath));
  } catch (const std::exception& e) {
    throw BackendError(std::string("the adaptor's response.json is not JSON: ") + e.what());
  }
  int rc = response.value("status", 0);
  if (rc != 0) {
    if (response.contains("message") && response["message"].is_string())
      std::fprintf(stderr, "adaptor: %s\n", response["message"].get<std::string>().c_str());
    return rc;
  }
  if (!response.contains("outputs") || !response["outputs"].is_object())
    throw BackendError("the adaptor's response.json has no \"outputs\" object (name -> .npy file)");
  for (int32_t a = 0; a < nargs; ++a) {
    const ArgDesc& d = args_[static_cast<size_t>(a)];
    if (!d.output) continue;
    const kc_tensor& t = args[a];
    auto it = response["outputs"].find(d.name);
    if (it == response["outputs"].end() || !it->is_string())
      throw BackendError("the adaptor's response names no file for the output '" + d.name + "'");
    fs::path file = it->get<std::string>();
    if (file.is_relative()) file = fs::path(caseDir) / file;
    npy::Array got;
    try {
      got = npy::read(file.string());
    } catch (const std::exception& e) {
      throw BackendError("output '" + d.name + "': " + e.what());
    }
    std::string want = npy::descrOf(t.dtype);
    std::vector<int64_t> shape(t.shape, t.shape + t.rank);
    if (normalDescr(got.descr) != normalDescr(want) || got.descr[0] == '>')
      throw BackendError("output '" + d.name + "' has dtype '" + got.descr + "'; the contract's " + npy::nameOf(t.dtype) +
                         " is '" + want + "'");
    if (got.shape != shape) {
      std::string g, w;
      for (auto v : got.shape) g += (g.empty() ? "" : ", ") + std::to_string(v);
      for (auto v : shape) w += (w.empty() ? "" : ", ") + std::to_string(v);
      throw BackendError("output '" + d.name + "' has shape (" + g + "); expected (" + w + ")");
    }
    size_t item = static_cast<size_t>(std::stoll(want.substr(2)));
    auto* base = static_cast<uint8_t*>(t.data);
    forEachCell(t, [&](int64_t flat, int64_t off) {
      std::memcpy(base + static_cast<size_t>(off) * item, got.data.data() + static_cast<size_t>(flat) * item, item);
    });
  }
  return 0;
}

}  // namespace kc::backend
