// Exec protocol v2, device memory (docs/backends.md, "Device memory"): a case too large for
// host memory runs on the streamed case path (checker/run/big_case.h) with its buffers in
// the adaptor's device memory. The worker never sees those bytes: it allocates, writes,
// reads, fills, generates, counts and compares them with requests, and a launch names them
// by buffer id, as it names shared buffers.
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <cstring>

#include "backends/exec/exec_backend.h"
#include "backends/support_fill.h"

namespace kc::backend {

using nlohmann::json;

namespace {

// The staging buffer the copies go through: large enough that an 8 GiB tensor's gathered
// cells and canaries are few requests, small enough to cost nothing beside the case.
constexpr size_t kStagingBytes = size_t{64} << 20;

}  // namespace

void ExecBackend::useDeviceMemory() {
  if (!spec_.deviceMemory || onDevice_) return;
  json request = {{"type", "device_memory"}};
  if (!supportLibrary_.empty()) request["support"] = supportLibrary_;
  json reply = deviceRequest(request);
  if (reply.is_null()) throw BackendError("the adaptor failed at its device memory: " + pendingFault_);
  onDevice_ = true;
  generates_ = reply.value("generate", false);
  // Never a silent fallback: the case's output says why its inputs are written from here.
  if (!supportError_.empty())
    std::fprintf(stderr, "exec: the CUDA support kernels could not be built (%s): this case's inputs are generated "
                         "on the host and written through the staging buffer\n", supportError_.c_str());
}

json ExecBackend::deviceRequest(json request, const std::vector<int>& fds) {
  uint64_t id = nextRequest_++;
  request["id"] = id;
  std::string what = request.value("type", "");
  Reply reply = exchange(request.dump(), fds, id);
  if (reply.body.is_null()) return json();  // the adaptor is gone: pendingFault_ says how
  const json& b = reply.body;
  std::string type = b["type"].get<std::string>();
  std::string message = b.contains("message") && b["message"].is_string() ? b["message"].get<std::string>() : "";
  if (type == "ok") return b;
  if (type == "fault") {
    if (pendingFault_.empty()) pendingFault_ = message.empty() ? "the adaptor reports a device fault" : message;
    return json();
  }
  while (!message.empty() && (message.back() == '\n' || message.back() == ' ')) message.pop_back();
  std::string last = message.substr(message.rfind('\n') == std::string::npos ? 0 : message.rfind('\n') + 1);
  if (last != message) std::fprintf(stderr, "%s\n", message.c_str());
  throw BackendError("the adaptor failed the device memory request '" + what + "': " +
                     (last.empty() ? std::string("(no message)") : last));
}

json ExecBackend::where(const void* device, size_t bytes) const {
  auto at = reinterpret_cast<uintptr_t>(device);
  auto it = deviceBuffers_.upper_bound(at);
  if (it == deviceBuffers_.begin() || (--it, at + bytes > it->first + it->second.second))
    throw BackendError("exec: an address that is not in a device buffer of the adaptor");
  return {{"buffer", it->second.first}, {"offset", at - it->first}};
}

// Always the full size, whatever the first copy needs (a canary's 64 bytes): a memfd's pages
// cost nothing until touched, and a small one would split every later copy into many requests.
void ExecBackend::stage() {
  if (staging_.mem.data) return;
  staging_.mem = execwire::allocateShared(kStagingBytes);
  staging_.id = nextBuffer_++;
}

void* ExecBackend::allocate(size_t bytes) {
  if (onDevice_) {
    json reply = deviceRequest({{"type", "alloc"}, {"bytes", std::max<size_t>(bytes, 1)}});
    if (reply.is_null()) throw BackendError("the adaptor cannot allocate device memory: " + pendingFault_);
    if (!reply.contains("buffer") || !reply["buffer"].is_number_unsigned() || !reply.contains("address") ||
        !reply["address"].is_number_unsigned() || reply["address"].get<uint64_t>() == 0)
      throw BackendError("the adaptor's alloc reply has no \"buffer\" and nonzero \"address\"");
    auto at = static_cast<uintptr_t>(reply["address"].get<uint64_t>());
    deviceBuffers_[at] = {reply["buffer"].get<uint64_t>(), std::max<size_t>(bytes, 1)};
    return reinterpret_cast<void*>(at);
  }
  if (spec_.protocol != 2) return HostMemoryBackend::allocate(bytes);
  Buffer b;
  b.mem = execwire::allocateShared(bytes);
  b.id = nextBuffer_++;
  void* data = b.mem.data;
  buffers_[reinterpret_cast<uintptr_t>(data)] = b;
  return data;
}

void ExecBackend::release(void* buffer) {
  auto d = deviceBuffers_.find(reinterpret_cast<uintptr_t>(buffer));
  if (d != deviceBuffers_.end()) {
    uint64_t id = d->second.first;
    deviceBuffers_.erase(d);
    if (pendingFault_.empty()) deviceRequest({{"type", "free"}, {"buffer", id}});
    return;
  }
  auto it = buffers_.find(reinterpret_cast<uintptr_t>(buffer));
  if (it == buffers_.end()) return HostMemoryBackend::release(buffer);
  if (it->second.sent) released_.push_back(it->second.id);
  execwire::releaseShared(it->second.mem);
  buffers_.erase(it);
}

// A copy request through the staging buffer: its id, and on first use its descriptor.
json ExecBackend::stagedRequest(json request) {
  request["staging"] = staging_.id;
  std::vector<int> fds;
  if (!staging_.sent) {
    request["buffers"] = json::array({{{"id", staging_.id}, {"bytes", staging_.mem.bytes}}});
    fds.push_back(staging_.mem.fd);
    staging_.sent = true;
  }
  return deviceRequest(request, fds);
}

// The copies go through the staging buffer, one request per staging-full.
void ExecBackend::copyIn(void* device, const void* host, size_t bytes) {
  if (!onDevice_) return HostMemoryBackend::copyIn(device, host, bytes);
  stage();
  for (size_t done = 0; done < bytes && pendingFault_.empty();) {
    size_t n = std::min(staging_.mem.bytes, bytes - done);
    std::memcpy(staging_.mem.data, static_cast<const uint8_t*>(host) + done, n);
    stagedRequest({{"type", "write"}, {"to", where(static_cast<uint8_t*>(device) + done, n)}, {"bytes", n}});
    done += n;
  }
}

void ExecBackend::copyOut(void* host, const void* device, size_t bytes) {
  if (!onDevice_) return HostMemoryBackend::copyOut(host, device, bytes);
  stage();
  for (size_t done = 0; done < bytes;) {
    size_t n = std::min(staging_.mem.bytes, bytes - done);
    if (stagedRequest({{"type", "read"}, {"from", where(static_cast<const uint8_t*>(device) + done, n)}, {"bytes", n}})
            .is_null()) {  // a fault: what was asked for is unknown
      std::memset(static_cast<uint8_t*>(host) + done, 0, bytes - done);
      return;
    }
    std::memcpy(static_cast<uint8_t*>(host) + done, staging_.mem.data, n);
    done += n;
  }
}

void ExecBackend::fill(void* device, const std::vector<uint8_t>& pattern, size_t bytes) {
  if (!onDevice_) return HostMemoryBackend::fill(device, pattern, bytes);
  if (pattern.empty() || bytes == 0) return;
  deviceRequest({{"type", "fill"}, {"to", where(device, bytes)}, {"bytes", bytes},
                 {"pattern", execwire::hex(pattern.data(), pattern.size())}});
}

// On a CUDA adaptor that loaded the support kernels, the same fill the CUDA backend runs;
// anything else is generated here and written (Backend's default, through copyIn).
void ExecBackend::fillGenerated(void* device, const GeneratedFill& g, size_t count) {
  std::optional<kcs_gen> k = onDevice_ && generates_ ? supportFill(g) : std::nullopt;
  if (k) {
    size_t eb = static_cast<size_t>(numerics::sizeBytes(g.dtype));
    json gen = {{"kind", k->kind}, {"dtype", k->dtype},     {"key0", k->key0},       {"key1", k->key1},
                {"lo", k->lo},     {"hi", k->hi},           {"ilo", k->ilo},         {"ihi", k->ihi},
                {"density", k->density}, {"prime", k->prime}, {"offset", k->offset}, {"cols", k->cols},
                {"first", k->first}};
    json reply = deviceRequest({{"type", "generate"}, {"to", where(device, count * eb)}, {"count", count}, {"gen", gen}});
    if (reply.is_null() || reply.value("done", false)) return;
  }
  Backend::fillGenerated(device, g, count);
}

PatternCount ExecBackend::countPattern(const void* device, size_t count, const std::vector<uint8_t>& pattern,
                                       size_t maxFirst) {
  if (!onDevice_) return Backend::countPattern(device, count, pattern, maxFirst);
  PatternCount out;
  if (count == 0 || pattern.empty()) return out;
  json reply = deviceRequest({{"type", "count"}, {"in", where(device, count * pattern.size())}, {"count", count},
                              {"pattern", execwire::hex(pattern.data(), pattern.size())}, {"max_first", maxFirst}});
  if (reply.is_null()) return out;
  if (!reply.contains("found") || !reply["found"].is_number_unsigned() || !reply.contains("first") ||
      !reply["first"].is_array())
    throw BackendError("the adaptor's count reply has no \"found\" and \"first\"");
  out.count = reply["found"].get<uint64_t>();
  for (const json& f : reply["first"])
    if (f.is_number_unsigned() && out.first.size() < maxFirst) out.first.push_back(f.get<uint64_t>());
  return out;
}

void ExecBackend::copyDevice(void* to, const void* from, size_t bytes) {
  if (!onDevice_) return Backend::copyDevice(to, from, bytes);
  if (bytes == 0) return;
  deviceRequest({{"type", "copy"}, {"to", where(to, bytes)}, {"from", where(from, bytes)}, {"bytes", bytes}});
}

uint64_t ExecBackend::compareBitwise(const void* a, const void* b, size_t count, size_t elementBytes) {
  if (!onDevice_) return Backend::compareBitwise(a, b, count, elementBytes);
  if (count == 0) return 0;
  json reply = deviceRequest({{"type", "compare"}, {"a", where(a, count * elementBytes)},
                              {"b", where(b, count * elementBytes)}, {"count", count}, {"element_bytes", elementBytes}});
  if (reply.is_null()) return 0;
  if (!reply.contains("differ") || !reply["differ"].is_number_unsigned())
    throw BackendError("the adaptor's compare reply has no \"differ\"");
  return reply["differ"].get<uint64_t>();
}

}  // namespace kc::backend
