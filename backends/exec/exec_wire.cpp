#include "backends/exec/exec_wire.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>

#include "backends/backend.h"

namespace kc::backend::execwire {

std::string sendMessage(int socket, const std::string& body, const std::vector<int>& fds) {
  if (fds.size() > kMaxFds) return "too many descriptors for one message";
  uint32_t n = static_cast<uint32_t>(body.size());
  unsigned char head[4] = {static_cast<unsigned char>(n), static_cast<unsigned char>(n >> 8),
                           static_cast<unsigned char>(n >> 16), static_cast<unsigned char>(n >> 24)};
  std::string all(reinterpret_cast<char*>(head), 4);
  all += body;
  size_t sent = 0;
  bool first = true;
  while (sent < all.size()) {
    iovec iov{all.data() + sent, all.size() - sent};
    msghdr msg{};
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    std::vector<char> control;
    if (first && !fds.empty()) {  // the descriptors go with the first bytes
      control.assign(CMSG_SPACE(sizeof(int) * fds.size()), 0);
      msg.msg_control = control.data();
      msg.msg_controllen = control.size();
      cmsghdr* c = CMSG_FIRSTHDR(&msg);
      c->cmsg_level = SOL_SOCKET;
      c->cmsg_type = SCM_RIGHTS;
      c->cmsg_len = CMSG_LEN(sizeof(int) * fds.size());
      std::memcpy(CMSG_DATA(c), fds.data(), sizeof(int) * fds.size());
    }
    ssize_t k = sendmsg(socket, &msg, MSG_NOSIGNAL);
    if (k < 0) {
      if (errno == EINTR) continue;
      if (errno == EPIPE || errno == ECONNRESET) return "the adaptor closed its socket";
      return std::string("cannot send to the adaptor: ") + std::strerror(errno);
    }
    sent += static_cast<size_t>(k);
    first = false;
  }
  return "";
}

namespace {

// Reads exactly `n` bytes into `to`, collecting any descriptors that arrive. 1: done,
// 0: the socket closed first, -1: an error (errno).
int readFull(int socket, char* to, size_t n, std::vector<int>& fds) {
  size_t got = 0;
  while (got < n) {
    iovec iov{to + got, n - got};
    alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int) * kMaxFds)];
    msghdr msg{};
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    msg.msg_control = control;
    msg.msg_controllen = sizeof control;
    ssize_t k = recvmsg(socket, &msg, MSG_CMSG_CLOEXEC);
    if (k < 0) {
      if (errno == EINTR) continue;
      if (errno == ECONNRESET) return 0;
      return -1;
    }
    for (cmsghdr* c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c))
      if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS) {
        size_t count = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
        for (size_t i = 0; i < count; ++i) {
          int fd;
          std::memcpy(&fd, CMSG_DATA(c) + i * sizeof(int), sizeof fd);
          fds.push_back(fd);
        }
      }
    if (msg.msg_flags & MSG_CTRUNC) fds.push_back(-1);  // more than fit: marked, never used
    if (k == 0) return 0;
    got += static_cast<size_t>(k);
  }
  return 1;
}

}  // namespace

Received receiveMessage(int socket, size_t maxBytes) {
  Received r;
  unsigned char head[4];
  int k = readFull(socket, reinterpret_cast<char*>(head), 4, r.fds);
  if (k <= 0) {
    r.status = k == 0 ? Received::Closed : Received::Failed;
    if (k < 0) r.error = std::string("cannot read from the adaptor: ") + std::strerror(errno);
    return r;
  }
  size_t n = static_cast<size_t>(head[0]) | static_cast<size_t>(head[1]) << 8 | static_cast<size_t>(head[2]) << 16 |
             static_cast<size_t>(head[3]) << 24;
  if (n > maxBytes) {
    r.status = Received::TooLong;
    r.length = n;
    return r;
  }
  r.body.resize(n);
  k = readFull(socket, r.body.data(), n, r.fds);
  if (k <= 0) {
    r.status = k == 0 ? Received::Closed : Received::Failed;
    if (k < 0) r.error = std::string("cannot read from the adaptor: ") + std::strerror(errno);
    r.body.clear();
    return r;
  }
  r.status = Received::Ok;
  return r;
}

SharedBuffer allocateShared(size_t bytes) {
  SharedBuffer b;
  size_t size = bytes ? bytes : 1;
  b.fd = memfd_create("kc-exec-buffer", MFD_CLOEXEC | MFD_ALLOW_SEALING);
  if (b.fd < 0) throw BackendError(std::string("exec: memfd_create: ") + std::strerror(errno));
  if (ftruncate(b.fd, static_cast<off_t>(size)) != 0) {
    int e = errno;
    close(b.fd);
    throw BackendError("exec: cannot size a shared buffer of " + std::to_string(size) + " bytes: " + std::strerror(e));
  }
  // Sealed at its size: an adaptor that shrank the file would make the worker's next access
  // past the new end a SIGBUS, a crash of the worker.
  if (fcntl(b.fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL) != 0) {
    int e = errno;
    close(b.fd);
    throw BackendError(std::string("exec: cannot seal a shared buffer: ") + std::strerror(e));
  }
  void* p = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED, b.fd, 0);
  if (p == MAP_FAILED) {
    int e = errno;
    close(b.fd);
    throw BackendError("exec: cannot map a shared buffer of " + std::to_string(size) + " bytes: " + std::strerror(e));
  }
  b.data = p;
  b.bytes = size;
  return b;
}

void releaseShared(SharedBuffer& b) {
  if (b.data) munmap(b.data, b.bytes);
  if (b.fd >= 0) close(b.fd);
  b = SharedBuffer{};
}

std::string hex(const uint8_t* p, size_t n) {
  static const char* d = "0123456789abcdef";
  std::string s;
  for (size_t i = 0; i < n; ++i) {
    s += d[p[i] >> 4];
    s += d[p[i] & 15];
  }
  return s;
}

}  // namespace kc::backend::execwire
