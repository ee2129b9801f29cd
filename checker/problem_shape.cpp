#include "checker/problem_shape.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "compiler/ir/ir.h"
#include "compiler/plan/planner.h"
#include "stdlib/data_root.h"

namespace kc::check {

namespace {

// Runs argv (no shell): its exit status and stderr; its stdout into `out`. Both streams go to
// private files, so a program that writes much to one cannot block on the other.
std::pair<int, std::string> runProgram(const std::vector<std::string>& argv, std::string& out) {
  char outPath[] = "/tmp/kc-shapes-out-XXXXXX", errPath[] = "/tmp/kc-shapes-err-XXXXXX";
  int o = mkstemp(outPath), e = mkstemp(errPath);
  if (o < 0 || e < 0) return {-1, std::string("cannot create a temporary file: ") + std::strerror(errno)};
  unlink(outPath);
  unlink(errPath);
  pid_t pid = fork();
  if (pid < 0) return {-1, std::string("fork: ") + std::strerror(errno)};
  if (pid == 0) {
    dup2(o, 1);
    dup2(e, 2);
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    execvp(args[0], args.data());
    std::fprintf(stderr, "cannot run '%s': %s\n", args[0], std::strerror(errno));
    _exit(127);
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  auto slurp = [](int fd) {
    std::string text;
    char buf[4096];
    lseek(fd, 0, SEEK_SET);
    ssize_t n;
    while ((n = read(fd, buf, sizeof buf)) > 0 || (n < 0 && errno == EINTR))
      if (n > 0) text.append(buf, static_cast<size_t>(n));
    close(fd);
    return text;
  };
  out = slurp(o);
  std::string err = slurp(e);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : 128, err};
}

std::string lastLine(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  size_t nl = s.rfind('\n');
  return nl == std::string::npos ? s : s.substr(nl + 1);
}

}  // namespace

ProblemShape problemShape(const sema::ContractInfo& contract, const std::string& pyFile) {
  ProblemShape ps;
  std::vector<std::string> bound;
  if (const char* b = std::getenv("KC_TORCH_BIND")) {
    std::istringstream in(b);
    std::string item;
    while (std::getline(in, item, ','))
      if (size_t eq = item.find('='); eq != std::string::npos) bound.push_back(item.substr(0, eq));
  }
  if (!contract.kernel) {
    ps.error = contract.id + " has no kernel";
    return ps;
  }
  const char* py = std::getenv("KC_PYTHON");
  std::string adaptor = (std::filesystem::path(stdlib::dataDir()) / "adaptors" / "pytorch" / "kc_torch.py").string();
  std::string out;
  auto [status, err] = runProgram({py && *py ? py : "python3", adaptor, "--shapes", pyFile + ":get_inputs"}, out);
  if (status != 0) {
    ps.error = "get_inputs() could not be run: " + (lastLine(err).empty() ? "exit status " + std::to_string(status) : lastLine(err));
    return ps;
  }
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(out);
  } catch (const std::exception&) {
    ps.error = "kc_torch.py --shapes printed no JSON";
    return ps;
  }
  std::vector<const sema::TensorInfo*> inputs;
  for (const auto& t : contract.kernel->tensors)
    if (!t.output && std::find(bound.begin(), bound.end(), t.name) == bound.end()) inputs.push_back(&t);
  const auto& items = j["inputs"];
  if (items.size() != inputs.size()) {
    ps.error = "get_inputs() gives " + std::to_string(items.size()) + " inputs; " + contract.id + " takes " +
               std::to_string(inputs.size()) + (bound.empty() ? "" : " (besides the bound ones)");
    return ps;
  }
  std::map<std::string, int64_t> dims;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const sema::TensorInfo& t = *inputs[i];
    const auto& item = items[i];
    if (!item.contains("shape")) {
      if (!t.shape.empty()) {
        ps.error = "get_inputs() item " + std::to_string(i + 1) + " is not a tensor; " + t.name + " is one";
        return ps;
      }
      continue;
    }
    std::vector<int64_t> shape = item["shape"].get<std::vector<int64_t>>();
    if (shape.size() != t.shape.size()) {
      ps.error = "get_inputs() item " + std::to_string(i + 1) + " has rank " + std::to_string(shape.size()) + "; " + t.name +
                 " has rank " + std::to_string(t.shape.size());
      return ps;
    }
    for (size_t k = 0; k < shape.size(); ++k) {
      const ir::Node& e = *t.shape[k];
      if (e.op != ir::Op::Dim) continue;  // a compound size binds nothing
      auto [at, fresh] = dims.emplace(e.name, shape[k]);
      if (!fresh && at->second != shape[k]) {
        ps.error = "get_inputs() gives " + e.name + " = " + std::to_string(at->second) + " and " + std::to_string(shape[k]) +
                   " (" + t.name + " axis " + std::to_string(k) + ")";
        return ps;
      }
    }
  }
  for (const auto& d : contract.kernel->dims) {
    auto it = dims.find(d.name);
    if (it == dims.end()) {
      ps.error = "get_inputs() gives no size for the dim '" + d.name + "' (no input axis is that dim alone)";
      ps.dims.clear();
      return ps;
    }
    ps.dims.emplace_back(d.name, it->second);
    ps.text += (ps.text.empty() ? "" : ", ") + d.name + "=" + std::to_string(it->second);
  }
  try {
    plan::Options po;
    po.problemDims = ps.dims;
    plan::makePlan(contract, po);
  } catch (const std::invalid_argument& e) {
    ps.error = "get_inputs() gives " + ps.text + ": " + e.what();
  }
  return ps;
}

}  // namespace kc::check
