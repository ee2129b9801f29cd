#pragma once
// Asks a question in a short-lived child process and returns its answer as text: for the
// questions the checker process must not ask itself, because the runtime that answers them
// does not survive fork() (the checker forks a worker per case afterwards). The OpenCL and
// CUDA backends' probes use it (docs/backends.md, "The OpenCL backend").
#include <functional>
#include <string>

namespace kc::backend {

struct ChildAnswer {
  bool answered = false;  // the child wrote its answer and exited
  std::string text;       // the answer
  std::string failure;    // why there is no answer: the child died, timed out, or could not start
};

// Runs `ask` in a forked child, which writes the returned text into a pipe and _exits
// without running exit handlers. `what` names the question in failure messages.
ChildAnswer askInChild(const std::function<std::string()>& ask, int timeoutSeconds, const std::string& what);

}  // namespace kc::backend
