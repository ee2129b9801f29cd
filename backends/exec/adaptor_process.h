#pragma once
// The adaptor of exec protocol v2 as a child of the worker (docs/backends.md, "Protocol
// v2"): started once, in load(); it talks over one end of a socketpair, which it finds as
// descriptor $KC_EXEC_FD; it dies with the worker (PR_SET_PDEATHSIG). What it prints
// (stdout and stderr) goes into a private file that the worker copies into the case's
// output after every exchange, and whose tail goes into error messages.
#include <sys/types.h>

#include <string>
#include <vector>

namespace kc::backend {

struct ExecSpec;

class AdaptorProcess {
 public:
  AdaptorProcess() = default;
  ~AdaptorProcess();
  AdaptorProcess(const AdaptorProcess&) = delete;
  AdaptorProcess& operator=(const AdaptorProcess&) = delete;

  // Starts argv in the spec's folder with its env. Throws BackendError.
  void start(const ExecSpec& spec, const std::vector<std::string>& argv);
  bool running() const { return pid_ > 0; }
  int socket() const { return socket_; }
  // Copies what the adaptor printed since the last call into this process's stderr.
  void showOutput();
  // The last `n` bytes it printed, all told ("" when nothing).
  std::string outputTail(size_t n);
  // After the socket closed or the adaptor misbehaved: waits up to `graceSeconds` for it to
  // exit, kills it otherwise, and says how it ended ("died on signal 11 (Segmentation
  // fault)", "exited with status 3").
  std::string reap(double graceSeconds);

 private:
  pid_t pid_ = -1;
  int socket_ = -1;
  int outFd_ = -1;   // the adaptor's stdout and stderr (an unlinked file)
  off_t shown_ = 0;  // how much of it is in the case output already
};

}  // namespace kc::backend
