#pragma once
// An exec spec, NAME.kcexec (docs/backends.md, "The exec backend and its protocol"):
//
//   {"protocol": "kcontract-exec/2", "python": "python3",
//    "command": ["../adaptors/pytorch/kc_torch.py", "my_kernels:softmax"],
//    "env": {"KC_TORCH_DEVICE": "cpu"}}
//
// `command` is the argv, run without a shell; `python` (optional) names the interpreter that
// runs it (argv is then the interpreter followed by `command`; $KC_PYTHON overrides it);
// `protocol` picks the protocol (absent: kcontract-exec/1, a process per launch);
// `device_memory` (v2 only) says the adaptor runs on a device with memory of its own and
// serves the device-memory requests, so a case too large for host memory runs on the
// streamed path in that memory (docs/backends.md, "Device memory"); `bind` (v2 adaptors that
// hold a module) gives contract inputs to the module's attributes instead of as arguments:
// the adaptor reads them from $KC_EXEC_BIND, "INPUT=ATTR,..." (docs/backends.md).
#include <string>
#include <utility>
#include <vector>

namespace kc::backend {

inline constexpr char kExecProtocol1[] = "kcontract-exec/1";
inline constexpr char kExecProtocol2[] = "kcontract-exec/2";
inline constexpr char kExecBindEnv[] = "KC_EXEC_BIND";

struct ExecSpec {
  std::vector<std::string> command;                      // as written; argv[0] found on PATH when it has no '/'
  std::vector<std::pair<std::string, std::string>> env;  // added to the environment
  std::string dir;                                       // the spec's folder: the working directory
  int protocol = 1;                                      // 1 or 2
  std::string python;                                    // the spec's interpreter ("" when none)
  bool deviceMemory = false;                             // "device_memory": true
  std::vector<std::pair<std::string, std::string>> bind; // "bind": contract input -> module attribute

  // The argv that runs: the interpreter ($KC_PYTHON, else `python`) and then `command`, or
  // `command` alone when the spec names no interpreter.
  std::vector<std::string> argv() const;
};

// "weight=ln.weight,bias=ln.bias": the value of $KC_EXEC_BIND.
std::string bindText(const std::vector<std::pair<std::string, std::string>>& bind);

// Throws BackendError with the file and what is wrong.
ExecSpec readExecSpec(const std::string& path);

// The adaptor's program (argv()[0]) must exist before any case runs: a missing one is one
// error for the kernel, not an ERROR per case. Throws BackendError.
void requireProgram(const ExecSpec& spec);

}  // namespace kc::backend
