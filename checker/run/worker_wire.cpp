#include "checker/run/worker_wire.h"

#include <sys/socket.h>
#include <sys/uio.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace kc::run::wire {

namespace {

class Writer {
 public:
  template <typename T>
  void put(T v) {
    const auto* p = reinterpret_cast<const uint8_t*>(&v);
    out.insert(out.end(), p, p + sizeof v);
  }
  void put(const std::string& s) {
    put<uint64_t>(s.size());
    out.insert(out.end(), s.begin(), s.end());
  }
  template <typename T>
  void putList(const std::vector<T>& v) {
    put<uint64_t>(v.size());
    for (const T& x : v) put<T>(x);
  }
  std::vector<uint8_t> out;
};

class Reader {
 public:
  Reader(const uint8_t* p, size_t n) : p_(p), n_(n) {}
  template <typename T>
  T get() {
    need(sizeof(T));
    T v;
    std::memcpy(&v, p_ + at_, sizeof v);
    at_ += sizeof v;
    return v;
  }
  std::string getString() {
    size_t n = count(1);
    std::string s(reinterpret_cast<const char*>(p_ + at_), n);
    at_ += n;
    return s;
  }
  template <typename T>
  std::vector<T> getList() {
    size_t n = count(sizeof(T));
    std::vector<T> v(n);
    for (T& x : v) x = get<T>();
    return v;
  }

 private:
  size_t count(size_t each) {
    auto n = get<uint64_t>();
    if (n > (n_ - at_) / each) throw std::runtime_error("the worker's request is truncated");
    return static_cast<size_t>(n);
  }
  void need(size_t k) {
    if (n_ - at_ < k) throw std::runtime_error("the worker's request is truncated");
  }
  const uint8_t* p_;
  size_t n_, at_ = 0;
};

}  // namespace

size_t requestOffset() { return (sizeof(Report) + 4095) / 4096 * 4096; }

std::vector<uint8_t> encodeRequest(const Request& r) {
  Writer w;
  w.put<int32_t>(r.repeats);
  w.put<uint8_t>(r.deviceSync ? 1 : 0);
  w.put(r.perturb);
  w.put<uint64_t>(r.args.size());
  for (size_t a = 0; a < r.args.size(); ++a) {
    const ArgSpec& s = r.args[a];
    w.put(s.name);
    w.put<uint8_t>(s.output ? 1 : 0);
    w.put<uint8_t>(s.scalar ? 1 : 0);
    w.put<int32_t>(static_cast<int32_t>(s.dtype));
    w.putList(s.shape);
    w.putList(s.strides);
    w.put<int64_t>(s.offset);
    w.put<int64_t>(s.storage);
    w.put<uint64_t>(r.inOffsets.at(a));
    w.putList(r.backOffsets.at(a));
  }
  return w.out;
}

Request decodeRequest(const uint8_t* bytes, size_t size) {
  Reader in(bytes, size);
  Request r;
  r.repeats = in.get<int32_t>();
  r.deviceSync = in.get<uint8_t>() != 0;
  r.perturb = in.getString();
  auto n = in.get<uint64_t>();
  if (n > size) throw std::runtime_error("the worker's request is malformed");
  for (uint64_t a = 0; a < n; ++a) {
    ArgSpec s;
    s.name = in.getString();
    s.output = in.get<uint8_t>() != 0;
    s.scalar = in.get<uint8_t>() != 0;
    s.dtype = static_cast<numerics::DType>(in.get<int32_t>());
    s.shape = in.getList<int64_t>();
    s.strides = in.getList<int64_t>();
    s.offset = in.get<int64_t>();
    s.storage = in.get<int64_t>();
    r.args.push_back(std::move(s));
    r.inOffsets.push_back(in.get<uint64_t>());
    r.backOffsets.push_back(in.getList<uint64_t>());
  }
  return r;
}

bool sendRun(int socket, int memfd, uint64_t bytes) {
  iovec iov{&bytes, sizeof bytes};
  alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int))] = {};
  msghdr m{};
  m.msg_iov = &iov;
  m.msg_iovlen = 1;
  m.msg_control = control;
  m.msg_controllen = sizeof control;
  cmsghdr* c = CMSG_FIRSTHDR(&m);
  c->cmsg_level = SOL_SOCKET;
  c->cmsg_type = SCM_RIGHTS;
  c->cmsg_len = CMSG_LEN(sizeof(int));
  std::memcpy(CMSG_DATA(c), &memfd, sizeof(int));
  ssize_t sent;
  do sent = sendmsg(socket, &m, MSG_NOSIGNAL);
  while (sent < 0 && errno == EINTR);
  return sent == static_cast<ssize_t>(sizeof bytes);
}

bool receiveRun(int socket, int& memfd, uint64_t& bytes) {
  iovec iov{&bytes, sizeof bytes};
  alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int))] = {};
  msghdr m{};
  m.msg_iov = &iov;
  m.msg_iovlen = 1;
  m.msg_control = control;
  m.msg_controllen = sizeof control;
  ssize_t got;
  do got = recvmsg(socket, &m, MSG_CMSG_CLOEXEC);
  while (got < 0 && errno == EINTR);
  if (got != static_cast<ssize_t>(sizeof bytes)) return false;
  cmsghdr* c = CMSG_FIRSTHDR(&m);
  if (!c || c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS) return false;
  std::memcpy(&memfd, CMSG_DATA(c), sizeof(int));
  return true;
}

}  // namespace kc::run::wire
