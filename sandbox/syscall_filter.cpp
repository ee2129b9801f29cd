#include "sandbox/syscall_filter.h"

#include <seccomp.h>
#include <sys/socket.h>
#include <sys/syscall.h>

#include <cstdint>
#include <initializer_list>

namespace kc::sandbox {

namespace {

// The calls no kernel needs: reading or writing other processes, changing the cell's own
// walls (mounts, namespaces, root), loading code into the machine's kernel, and the rest
// of the administrator's calls.
struct Denied {
  int number;
  const char* name;
};
#define KC_DENY(call) {SCMP_SYS(call), #call}
const Denied kDenied[] = {
    KC_DENY(ptrace),          KC_DENY(process_vm_readv), KC_DENY(process_vm_writev), KC_DENY(kcmp),
    KC_DENY(pidfd_getfd),     KC_DENY(mount),            KC_DENY(umount2),           KC_DENY(pivot_root),
    KC_DENY(chroot),          KC_DENY(unshare),          KC_DENY(setns),             KC_DENY(open_tree),
    KC_DENY(move_mount),      KC_DENY(fsopen),           KC_DENY(fsmount),           KC_DENY(fsconfig),
    KC_DENY(fspick),          KC_DENY(mount_setattr),    KC_DENY(bpf),               KC_DENY(perf_event_open),
    KC_DENY(keyctl),          KC_DENY(add_key),          KC_DENY(request_key),       KC_DENY(init_module),
    KC_DENY(finit_module),    KC_DENY(delete_module),    KC_DENY(kexec_load),        KC_DENY(kexec_file_load),
    KC_DENY(reboot),          KC_DENY(swapon),           KC_DENY(swapoff),           KC_DENY(acct),
    KC_DENY(quotactl),        KC_DENY(open_by_handle_at), KC_DENY(name_to_handle_at), KC_DENY(iopl),
    KC_DENY(ioperm),          KC_DENY(settimeofday),     KC_DENY(clock_settime),     KC_DENY(userfaultfd),
};
#undef KC_DENY

}  // namespace

const char* deniedCallName(int number) {
  for (const Denied& d : kDenied)
    if (d.number == number) return d.name;
  if (number == SCMP_SYS(socket)) return "socket";
  if (number == SCMP_SYS(kill)) return "kill";
  if (number == SCMP_SYS(tkill)) return "tkill";
  if (number == SCMP_SYS(tgkill)) return "tgkill";
  return "a forbidden system call";
}

bool installSyscallFilter(pid_t checker, pid_t checkerGroup, bool ownPidNamespace) {
  scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
  if (!ctx) return false;
  bool ok = true;
  for (const Denied& d : kDenied) ok = ok && seccomp_rule_add(ctx, SCMP_ACT_TRAP, d.number, 0) == 0;
  // Sockets: local (AF_UNIX) only. The cell has no network namespace's interfaces either.
  ok = ok && seccomp_rule_add(ctx, SCMP_ACT_TRAP, SCMP_SYS(socket), 1, SCMP_A0(SCMP_CMP_NE, AF_UNIX)) == 0;
  if (!ownPidNamespace) {
    // Without a PID namespace the checker is visible: no signal may reach it, its group, or
    // every process at once.
    auto deny = [&](int call, int64_t target) {
      ok = ok && seccomp_rule_add(ctx, SCMP_ACT_TRAP, call, 1,
                                  SCMP_A0(SCMP_CMP_MASKED_EQ, 0xffffffffu, static_cast<uint32_t>(target))) == 0;
    };
    for (int call : {SCMP_SYS(kill), SCMP_SYS(tkill), SCMP_SYS(tgkill)}) deny(call, checker);
    deny(SCMP_SYS(kill), -1);
    deny(SCMP_SYS(kill), -static_cast<int64_t>(checkerGroup));
  }
  ok = ok && seccomp_load(ctx) == 0;
  seccomp_release(ctx);
  return ok;
}

}  // namespace kc::sandbox
