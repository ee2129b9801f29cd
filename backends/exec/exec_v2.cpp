// Exec protocol v2 (docs/backends.md, "Protocol v2"): one adaptor per worker, requests and
// replies as length-prefixed JSON over a socketpair, buffers as shared memfds.
#include <nlohmann/json.hpp>

#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstring>

#include "backends/exec/exec_backend.h"
#include "backends/exec/npy.h"
#include "stdlib/numerics/dtype.h"
#include "stdlib/numerics/float_bits.h"

namespace kc::backend {

using nlohmann::json;

namespace {

constexpr size_t kTail = 2000;
constexpr double kGraceSeconds = 2.0;  // an adaptor that closed its socket gets this long to exit

std::string shortText(const std::string& s, size_t n = 200) { return s.size() <= n ? s : s.substr(0, n) + "..."; }

}  // namespace

void ExecBackend::startAdaptor() {
  adaptor_ = std::make_unique<AdaptorProcess>();
  std::vector<std::string> argv = spec_.argv();
  adaptor_->start(spec_, argv);
  auto cannot = [&](const std::string& why) -> BackendError {
    std::string tail = adaptor_->outputTail(kTail);
    adaptor_->reap(0);
    return BackendError("the adaptor cannot start: " + why + "; the adaptor was stopped" +
                        (tail.empty() ? " (no output)" : "; its output ends:\n" + tail));
  };
  execwire::Received r = execwire::receiveMessage(adaptor_->socket(), execwire::kMaxReplyBytes);
  for (int fd : r.fds)
    if (fd >= 0) close(fd);
  if (r.status == execwire::Received::Closed) {
    std::string tail = adaptor_->outputTail(kTail);
    std::string how = adaptor_->reap(kGraceSeconds);
    throw BackendError("the adaptor cannot start: it " + how + " before its hello (" + spec_.argv().front() + ")" +
                       (tail.empty() ? " (no output)" : "; its output ends:\n" + tail));
  }
  if (r.status == execwire::Received::TooLong) throw cannot("its hello announces " + std::to_string(r.length) + " bytes");
  if (r.status != execwire::Received::Ok) throw cannot(r.error);
  if (!r.fds.empty()) throw cannot("its hello came with file descriptors");
  json hello;
  try {
    hello = json::parse(r.body);
  } catch (const std::exception&) {
    throw cannot("its hello is not JSON: '" + shortText(r.body) + "'");
  }
  if (!hello.is_object() || hello.value("type", "") != "hello")
    throw cannot("its first message is not a hello: '" + shortText(r.body) + "'");
  std::string protocol = hello.value("protocol", "");
  if (protocol != kExecProtocol2)
    throw cannot("its hello says protocol '" + protocol + "'; the spec asks for '" + kExecProtocol2 + "'");
  adaptor_->showOutput();
}

ExecBackend::Reply ExecBackend::exchange(const std::string& request, const std::vector<int>& fds, uint64_t id) {
  auto gone = [&](const std::string& what) {
    std::string tail = adaptor_->outputTail(kTail);
    std::string how = adaptor_->reap(kGraceSeconds);
    adaptor_->showOutput();
    // One line: the whole output is in the case's output already.
    while (!tail.empty() && (tail.back() == '\n' || tail.back() == ' ')) tail.pop_back();
    std::string last = tail.substr(tail.rfind('\n') == std::string::npos ? 0 : tail.rfind('\n') + 1);
    pendingFault_ = "the adaptor " + what + " in the middle of a launch: it " + how +
                    (last.empty() ? "" : "; its last output: " + shortText(last));
    return Reply{};
  };
  if (!adaptor_ || !adaptor_->running()) throw BackendError("exec: the adaptor is not running");
  std::string sendError = execwire::sendMessage(adaptor_->socket(), request, fds);
  if (!sendError.empty()) return gone("closed its socket");
  execwire::Received r = execwire::receiveMessage(adaptor_->socket(), execwire::kMaxReplyBytes);
  adaptor_->showOutput();
  for (int fd : r.fds)
    if (fd >= 0) close(fd);
  auto bad = [&](const std::string& why) {
    return BackendError("the adaptor's reply " + why + "; the adaptor was stopped");
  };
  if (r.status == execwire::Received::Closed) return gone("closed its socket");
  if (r.status == execwire::Received::TooLong)
    throw bad("announces " + std::to_string(r.length) + " bytes (at most " + std::to_string(execwire::kMaxReplyBytes) + ")");
  if (r.status != execwire::Received::Ok) throw BackendError(r.error);
  if (!r.fds.empty()) throw bad("came with file descriptors (a reply carries none)");
  json body;
  try {
    body = json::parse(r.body);
  } catch (const std::exception&) {
    throw bad("is not JSON: '" + shortText(r.body) + "'");
  }
  if (!body.is_object()) throw bad("is not a JSON object: '" + shortText(r.body) + "'");
  if (!body.contains("id") || !body["id"].is_number_unsigned() || body["id"].get<uint64_t>() != id)
    throw bad("names id " + (body.contains("id") ? body["id"].dump() : std::string("none")) + "; the request was " +
              std::to_string(id));
  if (!body.contains("type") || !body["type"].is_string()) throw bad("has no \"type\"");
  return Reply{body};
}

int ExecBackend::launchV2(kc_tensor* args, int32_t nargs) {
  uint64_t id = nextRequest_++;
  json request;
  request["type"] = "launch";
  request["id"] = id;
  request["entry"] = entry_;
  request["kernel"] = entry_.rfind("kc_", 0) == 0 ? entry_.substr(3) : entry_;
  request["case"] = cases_;
  request["launch"] = launches_++;
  if (deviceWait_) request["wait"] = "device";
  json newBuffers = json::array(), inputs = json::array(), outputs = json::array();
  std::vector<int> fds;
  for (int32_t a = 0; a < nargs; ++a) {
    const kc_tensor& t = args[a];
    const ArgDesc& d = args_[static_cast<size_t>(a)];
    size_t item = static_cast<size_t>(numerics::sizeBytes(static_cast<numerics::DType>(t.dtype)));
    json e;
    e["name"] = d.name;
    e["dtype"] = npy::nameOf(t.dtype);
    e["npy_dtype"] = npy::descrOf(t.dtype);
    e["shape"] = std::vector<int64_t>(t.shape, t.shape + t.rank);
    e["strides"] = std::vector<int64_t>(t.strides, t.strides + t.rank);
    auto at = reinterpret_cast<uintptr_t>(t.data);
    if (onDevice_ && t.rank != 0) {  // a buffer in the adaptor's device memory (exec_device.cpp)
      json w = where(t.data, 0);
      e["device_buffer"] = w["buffer"];
      e["offset"] = w["offset"];
      (d.output ? outputs : inputs).push_back(e);
      continue;
    }
    auto it = buffers_.upper_bound(at);
    bool inBuffer = it != buffers_.begin() && (--it, at < it->first + it->second.mem.bytes);
    if (t.rank == 0 || !inBuffer) {  // a scalar: a host pointer; its value goes in the request
      if (t.rank != 0) throw BackendError("exec: argument '" + d.name + "' is not in a buffer of this backend");
      const auto* p = static_cast<const uint8_t*>(t.data);
      e["bytes"] = execwire::hex(p, item);
      uint64_t bits = 0;
      std::memcpy(&bits, p, item);
      try {
        double v = numerics::decode(static_cast<numerics::DType>(t.dtype), bits);
        if (std::isfinite(v)) e["value"] = v;
      } catch (const std::exception&) {
      }
    } else {
      Buffer& b = it->second;
      if (!b.sent) {
        newBuffers.push_back({{"id", b.id}, {"bytes", b.mem.bytes}});
        fds.push_back(b.mem.fd);
        b.sent = true;
      }
      e["buffer"] = b.id;
      e["offset"] = at - it->first;
    }
    (d.output ? outputs : inputs).push_back(e);
  }
  request["buffers"] = newBuffers;
  request["release"] = released_;
  released_.clear();
  request["inputs"] = inputs;
  request["outputs"] = outputs;
  Reply reply = exchange(request.dump(), fds, id);
  if (reply.body.is_null()) return 0;
  const json& b = reply.body;
  std::string type = b["type"].get<std::string>();
  std::string message = b.contains("message") && b["message"].is_string() ? b["message"].get<std::string>() : "";
  if (type == "ok") {
    if (!b.contains("status") || !b["status"].is_number_integer())
      throw BackendError("the adaptor's ok reply has no integer \"status\"; the adaptor was stopped");
    if (b.contains("resource") && b["resource"].is_string()) resource_ = b["resource"].get<std::string>();
    int rc = b["status"].get<int>();
    if (rc != 0 && !message.empty()) std::fprintf(stderr, "adaptor: %s\n", message.c_str());
    return rc;
  }
  if (type == "fault") {
    pendingFault_ = message.empty() ? std::string("the adaptor reports a device fault") : shortText(message, kTail);
    return 0;
  }
  if (type == "error") {  // an exception: its last line here, the traceback into the case's output
    std::string last = message;
    while (!last.empty() && (last.back() == '\n' || last.back() == ' ')) last.pop_back();
    last = last.substr(last.rfind('\n') == std::string::npos ? 0 : last.rfind('\n') + 1);
    if (last != message && !message.empty())
      std::fprintf(stderr, "%s%s\n", message.size() > kTail ? "..." : "",
                   message.substr(message.size() > kTail ? message.size() - kTail : 0).c_str());
    throw BackendError("the adaptor reports an error: " + (last.empty() ? std::string("(no message)") : shortText(last)));
  }
  throw BackendError("the adaptor's reply has type '" + shortText(type) + "' (ok, error or fault); the adaptor was stopped");
}

std::string ExecBackend::setPerturbation(const std::string& kind) {
  if (spec_.protocol != 2 || kind == perturb::kNone) return HostMemoryBackend::setPerturbation(kind);
  uint64_t id = nextRequest_++;
  json request = {{"type", "perturb"}, {"id", id}, {"kind", kind}};
  Reply reply = exchange(request.dump(), {}, id);
  if (reply.body.is_null()) return "not supported: " + pendingFault_;
  const json& b = reply.body;
  std::string line = b.contains("line") && b["line"].is_string() ? b["line"].get<std::string>() : "";
  if (b["type"] != "ok" || line.empty())
    return "not supported: the adaptor answered no perturbation line; the repeats ran unperturbed";
  return line;
}

}  // namespace kc::backend
