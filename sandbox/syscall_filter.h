#pragma once
// The cell's seccomp filter (libseccomp; docs/security.md lists the calls). Everything not
// named runs; a denied call raises SIGSYS (SCMP_ACT_TRAP), whose handler in the cell names
// it before the process dies.
#include <sys/types.h>

namespace kc::sandbox {

// Loads the filter into the calling process (inherited by its children). `checker` and
// `checkerGroup`: the checker's pid and process group, which kill() may not name; when
// `ownPidNamespace` the cell cannot see them anyway. Returns false when the kernel refused.
bool installSyscallFilter(pid_t checker, pid_t checkerGroup, bool ownPidNamespace);

// The name of a denied system call ("ptrace"), or "a forbidden system call". Async-signal-safe.
const char* deniedCallName(int number);

}  // namespace kc::sandbox
