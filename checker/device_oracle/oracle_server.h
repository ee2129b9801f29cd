#pragma once
// Runs compiled oracle programs in a process of their own (docs/oracle.md, "The compiled
// oracle"). A CUDA program creates a CUDA context in the process that calls it, and the
// checker must never hold one: it forks workers, and a child of a process with a CUDA context
// cannot use CUDA. So the checker starts `kcontract __oracle-server FD` once (a fresh process,
// no state inherited but the socket), and sends it each evaluation: the program's library,
// the kc_oracle_io layout, and one memfd holding the inputs and, after the reply, the results.
// The server runs only programs kcontract generated from contracts: never a kernel under test.
#include <sys/types.h>

#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

namespace kc::device_oracle {

// One evaluation: kc_oracle_io's fields, with the data as (pointer, cells) pairs in this process.
struct ServerRequest {
  std::string library;
  std::vector<int64_t> dims;
  std::vector<double> stats;
  std::vector<int64_t> readShapes;  // [reads][KC_MAX_RANK]
  std::vector<std::pair<const double*, uint64_t>> reads;
  std::vector<int64_t> shapes;  // [computed][KC_MAX_RANK]
  std::vector<std::pair<double*, uint64_t>> results;  // null for a hoisted tensor
  int threads = 1;
};

struct ServerReply {
  int rc = 0;
  double seconds = 0;
  std::string message;
};

class OracleServer {
 public:
  ~OracleServer();
  // Starts the server on first use; then one request at a time (callers on several threads
  // wait their turn). Throws std::runtime_error when the server cannot start or dies.
  ServerReply run(const ServerRequest& request);

 private:
  void start();
  std::mutex mutex_;
  int socket_ = -1;
  pid_t pid_ = -1;
};

// Calls a program's entry point (kc_oracle_run_fn) here, on host arrays laid out as
// kc_oracle_io says: the one place that fills it, for the server and for kcontract oracle.
ServerReply callProgram(void* entry, const std::vector<int64_t>& dims, const std::vector<double>& stats,
                        const std::vector<const double*>& reads, const std::vector<int64_t>& readShapes,
                        const std::vector<double*>& results, const std::vector<int64_t>& shapes, int threads);

// The server's body (`kcontract __oracle-server FD`): serves requests on FD until the
// checker closes it. Returns the process's exit status.
int serveOracle(int fd);

}  // namespace kc::device_oracle
