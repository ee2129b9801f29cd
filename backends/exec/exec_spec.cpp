#include "backends/exec/exec_spec.h"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "backends/backend.h"

namespace kc::backend {

namespace fs = std::filesystem;
using nlohmann::json;

std::string bindText(const std::vector<std::pair<std::string, std::string>>& bind) {
  std::string s;
  for (const auto& [input, attr] : bind) s += (s.empty() ? "" : ",") + input + "=" + attr;
  return s;
}

std::vector<std::string> ExecSpec::argv() const {
  std::vector<std::string> a;
  if (!python.empty()) {
    const char* over = std::getenv("KC_PYTHON");
    a.push_back(over && *over ? over : python);
  }
  a.insert(a.end(), command.begin(), command.end());
  return a;
}

ExecSpec readExecSpec(const std::string& path) {
  std::string where = "the exec spec '" + path + "'";
  if (!fs::is_regular_file(path)) throw BackendError("no exec spec '" + path + "'");
  json j;
  try {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    j = json::parse(s.str());
  } catch (const std::exception& e) {
    throw BackendError(where + " is not JSON: " + e.what());
  }
  if (!j.is_object()) throw BackendError(where + " must be a JSON object with \"command\"");
  for (auto it = j.begin(); it != j.end(); ++it)
    if (it.key() != "command" && it.key() != "env" && it.key() != "protocol" && it.key() != "python" &&
        it.key() != "device_memory" && it.key() != "bind")
      throw BackendError(where + ": unknown key \"" + it.key() + "\" (known: bind, command, device_memory, env, protocol, python)");
  ExecSpec s;
  if (!j.contains("command") || !j["command"].is_array() || j["command"].empty())
    throw BackendError(where + ": \"command\" must be a non-empty array of strings (argv; no shell)");
  for (const auto& a : j["command"]) {
    if (!a.is_string()) throw BackendError(where + ": every element of \"command\" must be a string");
    s.command.push_back(a.get<std::string>());
  }
  if (j.contains("env")) {
    if (!j["env"].is_object()) throw BackendError(where + ": \"env\" must be an object of strings");
    for (auto it = j["env"].begin(); it != j["env"].end(); ++it) {
      if (!it.value().is_string()) throw BackendError(where + ": env \"" + it.key() + "\" must be a string");
      s.env.emplace_back(it.key(), it.value().get<std::string>());
    }
  }
  if (j.contains("protocol")) {
    std::string p = j["protocol"].is_string() ? j["protocol"].get<std::string>() : "";
    if (p == kExecProtocol1)
      s.protocol = 1;
    else if (p == kExecProtocol2)
      s.protocol = 2;
    else
      throw BackendError(where + ": \"protocol\" must be \"" + kExecProtocol1 + "\" or \"" + kExecProtocol2 + "\"");
  }
  if (j.contains("python")) {
    if (!j["python"].is_string() || j["python"].get<std::string>().empty())
      throw BackendError(where + ": \"python\" must be the interpreter's name or path (a non-empty string)");
    s.python = j["python"].get<std::string>();
  }
  if (j.contains("device_memory")) {
    if (!j["device_memory"].is_boolean()) throw BackendError(where + ": \"device_memory\" must be true or false");
    s.deviceMemory = j["device_memory"].get<bool>();
    if (s.deviceMemory && s.protocol != 2)
      throw BackendError(where + ": \"device_memory\" needs \"protocol\": \"" + kExecProtocol2 + "\"");
  }
  if (j.contains("bind")) {
    if (!j["bind"].is_object() || j["bind"].empty())
      throw BackendError(where + ": \"bind\" must be an object of contract inputs to module attributes ({\"weight\": \"ln.weight\"})");
    for (auto it = j["bind"].begin(); it != j["bind"].end(); ++it) {
      if (!it.value().is_string() || it.value().get<std::string>().empty())
        throw BackendError(where + ": bind \"" + it.key() + "\" must name a module attribute (a string such as \"ln.weight\")");
      s.bind.emplace_back(it.key(), it.value().get<std::string>());
    }
    for (const auto& [k, v] : s.env)
      if (k == kExecBindEnv)
        throw BackendError(where + ": give the bindings in \"bind\" or in env " + kExecBindEnv + ", not both");
    if (s.protocol != 2)
      throw BackendError(where + ": \"bind\" needs \"protocol\": \"" + kExecProtocol2 + "\" (a module kept across launches)");
    s.env.emplace_back(kExecBindEnv, bindText(s.bind));  // what the adaptor reads
  }
  std::error_code ec;
  s.dir = fs::absolute(path, ec).parent_path().string();
  return s;
}

// A name without a slash is looked up on the PATH the adaptor gets (the spec's env may set
// it); a path is relative to the spec's folder.
void requireProgram(const ExecSpec& spec) {
  const std::string program = spec.argv().front();
  std::string what = spec.python.empty() ? "" : (std::getenv("KC_PYTHON") && *std::getenv("KC_PYTHON") ? " (the interpreter, from KC_PYTHON)" : " (the spec's \"python\")");
  auto runnable = [](const fs::path& p) { return access(p.c_str(), X_OK) == 0 && !fs::is_directory(p); };
  if (program.find('/') != std::string::npos) {
    fs::path p = fs::path(program).is_absolute() ? fs::path(program) : fs::path(spec.dir) / program;
    if (!runnable(p)) throw BackendError("the adaptor cannot start: '" + program + "'" + what + " is not an executable file");
    return;
  }
  const char* env = std::getenv("PATH");
  std::string path = env ? env : "";
  for (const auto& [k, v] : spec.env)
    if (k == "PATH") path = v;
  size_t at = 0;
  while (at <= path.size()) {
    size_t end = path.find(':', at);
    if (end == std::string::npos) end = path.size();
    std::string dir = path.substr(at, end - at);
    if (runnable(fs::path(dir.empty() ? "." : dir) / program)) return;
    at = end + 1;
  }
  throw BackendError("the adaptor cannot start: '" + program + "'" + what + " is not a program on the PATH");
}

}  // namespace kc::backend
