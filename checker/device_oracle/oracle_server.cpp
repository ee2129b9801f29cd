#include "checker/device_oracle/oracle_server.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <map>
#include <stdexcept>

#include "checker/device_oracle/kc_oracle_rt.h"
#include "checker/self_path.h"

extern char** environ;

namespace kc::device_oracle {

namespace {

constexpr size_t kMaxMessage = 1 << 20;
constexpr int kServerFd = 3;

// --- a flat little wire: raw values and length-prefixed arrays -----------------------------
struct Writer {
  std::string b;
  template <class T>
  void put(const T& v) { b.append(reinterpret_cast<const char*>(&v), sizeof v); }
  template <class T>
  void putVec(const std::vector<T>& v) {
    put<uint64_t>(v.size());
    b.append(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(T));
  }
  void putStr(const std::string& s) {
    put<uint64_t>(s.size());
    b.append(s);
  }
};

struct Reader {
  const char* p;
  const char* end;
  template <class T>
  T get() {
    if (static_cast<size_t>(end - p) < sizeof(T)) throw std::runtime_error("a truncated oracle message");
    T v;
    std::memcpy(&v, p, sizeof v);
    p += sizeof v;
    return v;
  }
  template <class T>
  std::vector<T> getVec() {
    uint64_t n = get<uint64_t>();
    if (n > static_cast<uint64_t>(end - p) / sizeof(T)) throw std::runtime_error("a truncated oracle message");
    std::vector<T> v(n);
    std::memcpy(v.data(), p, n * sizeof(T));
    p += n * sizeof(T);
    return v;
  }
  std::string getStr() {
    uint64_t n = get<uint64_t>();
    if (n > static_cast<uint64_t>(end - p)) throw std::runtime_error("a truncated oracle message");
    std::string s(p, n);
    p += n;
    return s;
  }
};

bool sendWithFd(int sock, const std::string& bytes, int fd) {
  iovec iov{const_cast<char*>(bytes.data()), bytes.size()};
  msghdr msg{};
  msg.msg_iov = &iov;
  msg.msg_iovlen = 1;
  alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int))];
  if (fd >= 0) {
    msg.msg_control = control;
    msg.msg_controllen = sizeof control;
    cmsghdr* c = CMSG_FIRSTHDR(&msg);
    c->cmsg_level = SOL_SOCKET;
    c->cmsg_type = SCM_RIGHTS;
    c->cmsg_len = CMSG_LEN(sizeof(int));
    std::memcpy(CMSG_DATA(c), &fd, sizeof fd);
  }
  ssize_t n;
  do n = sendmsg(sock, &msg, MSG_NOSIGNAL);
  while (n < 0 && errno == EINTR);
  return n == static_cast<ssize_t>(bytes.size());
}

// One message; `fd` receives a passed descriptor (-1 when none). False at EOF or on an error.
bool receive(int sock, std::string& bytes, int* fd) {
  bytes.assign(kMaxMessage, '\0');
  iovec iov{bytes.data(), bytes.size()};
  msghdr msg{};
  msg.msg_iov = &iov;
  msg.msg_iovlen = 1;
  alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int))];
  msg.msg_control = control;
  msg.msg_controllen = sizeof control;
  ssize_t n;
  do n = recvmsg(sock, &msg, MSG_CMSG_CLOEXEC);
  while (n < 0 && errno == EINTR);
  if (n <= 0) return false;
  bytes.resize(static_cast<size_t>(n));
  if (fd) {
    *fd = -1;
    for (cmsghdr* c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c))
      if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS) std::memcpy(fd, CMSG_DATA(c), sizeof(int));
  }
  return true;
}

// The memfd of one request: every read, then every result, each a run of doubles.
class Shared {
 public:
  explicit Shared(uint64_t cells) : bytes_(std::max<uint64_t>(cells, 1) * sizeof(double)) {
    fd_ = memfd_create("kc-oracle", MFD_CLOEXEC);
    if (fd_ < 0 || ftruncate(fd_, static_cast<off_t>(bytes_)) != 0)
      throw std::runtime_error(std::string("cannot make the oracle's shared memory: ") + std::strerror(errno));
    map(fd_);
  }
  Shared(int fd, uint64_t bytes) : fd_(fd), bytes_(bytes) { map(fd); }
  ~Shared() {
    if (base_ && base_ != MAP_FAILED) munmap(base_, bytes_);
    if (fd_ >= 0) close(fd_);
  }
  Shared(const Shared&) = delete;
  Shared& operator=(const Shared&) = delete;
  double* at(uint64_t cell) { return static_cast<double*>(base_) + cell; }
  int fd() const { return fd_; }

 private:
  void map(int fd) {
    base_ = mmap(nullptr, bytes_, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (base_ == MAP_FAILED) throw std::runtime_error("cannot map the oracle's shared memory");
  }
  int fd_ = -1;
  uint64_t bytes_;
  void* base_ = nullptr;
};

}  // namespace

OracleServer::~OracleServer() {
  if (socket_ >= 0) close(socket_);
  if (pid_ > 0) waitpid(pid_, nullptr, 0);
}

void OracleServer::start() {
  int sv[2];
  if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) != 0)
    throw std::runtime_error(std::string("cannot start the oracle server: socketpair: ") + std::strerror(errno));
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, sv[1], kServerFd);  // dup2 clears close-on-exec
  std::string self = check::selfPath();
  std::string fdText = std::to_string(kServerFd);
  std::vector<char*> argv = {self.data(), const_cast<char*>("__oracle-server"), fdText.data(), nullptr};
  pid_t pid = -1;
  int rc = posix_spawn(&pid, self.c_str(), &fa, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  close(sv[1]);
  if (rc != 0) {
    close(sv[0]);
    throw std::runtime_error("cannot start the oracle server '" + self + "': " + std::strerror(rc));
  }
  socket_ = sv[0];
  pid_ = pid;
}

ServerReply OracleServer::run(const ServerRequest& r) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (socket_ < 0) start();
  uint64_t cells = 0;
  for (const auto& [p, n] : r.reads) cells += n;
  for (const auto& [p, n] : r.results) cells += n;
  Shared shared(cells);
  Writer w;
  w.putStr(r.library);
  w.putVec(r.dims);
  w.putVec(r.stats);
  w.putVec(r.readShapes);
  w.putVec(r.shapes);
  std::vector<uint64_t> readCells, resultCells;
  uint64_t at = 0;
  for (const auto& [p, n] : r.reads) {
    std::memcpy(shared.at(at), p, n * sizeof(double));
    readCells.push_back(n);
    at += n;
  }
  for (const auto& [p, n] : r.results) resultCells.push_back(p ? n : UINT64_MAX);  // MAX: hoisted, not returned
  w.putVec(readCells);
  w.putVec(resultCells);
  w.put<uint64_t>(std::max<uint64_t>(cells, 1) * sizeof(double));
  w.put<int>(r.threads);
  std::string reply;
  if (!sendWithFd(socket_, w.b, shared.fd()) || !receive(socket_, reply, nullptr)) {
    close(socket_);
    socket_ = -1;
    if (pid_ > 0) waitpid(pid_, nullptr, 0);
    pid_ = -1;
    throw std::runtime_error("the oracle server died");
  }
  Reader rd{reply.data(), reply.data() + reply.size()};
  ServerReply out;
  out.rc = rd.get<int>();
  out.seconds = rd.get<double>();
  out.message = rd.getStr();
  if (out.rc == 0)
    for (const auto& [p, n] : r.results) {
      if (p) std::memcpy(p, shared.at(at), n * sizeof(double));
      at += p ? n : 0;
    }
  return out;
}

ServerReply callProgram(void* entry, const std::vector<int64_t>& dims, const std::vector<double>& stats,
                        const std::vector<const double*>& reads, const std::vector<int64_t>& readShapes,
                        const std::vector<double*>& results, const std::vector<int64_t>& shapes, int threads) {
  char message[512] = "";
  ServerReply out;
  kc_oracle_io io{};
  io.dims = dims.data();
  io.stats = stats.data();
  io.reads = reads.data();
  io.readShapes = readShapes.data();
  io.results = results.data();
  io.shapes = shapes.data();
  io.message = message;
  io.messageBytes = sizeof message;
  io.seconds = &out.seconds;
  io.threads = threads;
  out.rc = reinterpret_cast<kc_oracle_run_fn>(entry)(&io);
  out.message = message;
  return out;
}

int serveOracle(int fd) {
  std::map<std::string, kc_oracle_run_fn> programs;
  std::string msg;
  int memfd = -1;
  while (receive(fd, msg, &memfd)) {
    Writer reply;
    try {
      if (memfd < 0) throw std::runtime_error("a request without its memory");
      Reader rd{msg.data(), msg.data() + msg.size()};
      std::string library = rd.getStr();
      auto dims = rd.getVec<int64_t>();
      auto stats = rd.getVec<double>();
      auto readShapes = rd.getVec<int64_t>();
      auto shapes = rd.getVec<int64_t>();
      auto readCells = rd.getVec<uint64_t>();
      auto resultCells = rd.getVec<uint64_t>();
      uint64_t bytes = rd.get<uint64_t>();
      int threads = rd.get<int>();
      Shared shared(memfd, bytes);
      memfd = -1;
      kc_oracle_run_fn& run = programs[library];
      if (!run) {
        void* h = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
        if (!h) throw std::runtime_error(std::string("cannot load ") + library + ": " + dlerror());
        run = reinterpret_cast<kc_oracle_run_fn>(dlsym(h, "kc_oracle_run"));
        if (!run) throw std::runtime_error("no kc_oracle_run in " + library);
      }
      std::vector<const double*> reads;
      std::vector<double*> results;
      uint64_t at = 0, total = bytes / sizeof(double);
      for (uint64_t n : readCells) {
        if (n > total - at) throw std::runtime_error("a request larger than its memory");
        reads.push_back(shared.at(at));
        at += n;
      }
      for (uint64_t n : resultCells) {
        if (n == UINT64_MAX) {
          results.push_back(nullptr);
          continue;
        }
        if (n > total - at) throw std::runtime_error("a request larger than its memory");
        results.push_back(shared.at(at));
        at += n;
      }
      ServerReply done = callProgram(reinterpret_cast<void*>(run), dims, stats, reads, readShapes, results, shapes, threads);
      reply.put<int>(done.rc);
      reply.put<double>(done.seconds);
      reply.putStr(done.message);
    } catch (const std::exception& e) {
      if (memfd >= 0) close(memfd);
      memfd = -1;
      reply.b.clear();
      reply.put<int>(-1);
      reply.put<double>(0);
      reply.putStr(e.what());
    }
    if (!sendWithFd(fd, reply.b, -1)) return 1;
  }
  return 0;
}

}  // namespace kc::device_oracle
